"""The server's running parts, shared by every transport: the table core, the WebSocket hub,
the bots and the cached documents, with the lifespan that runs them. No web framework here."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio
from anyio import to_thread

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.server.bots import BotRunner
from avanti.server.changes import Changes, Moved, Said
from avanti.server.chat import Chat
from avanti.server.clock import CLOCK, Clock
from avanti.server.joining import Joining
from avanti.server.limits import ServerLimits
from avanti.server.log import log
from avanti.server.openapi import openapi
from avanti.server.push import Hub
from avanti.server.refusals import Refusal
from avanti.server.rematch import Rematch
from avanti.server.requests import CommandRequest, NewGame
from avanti.server.schema import schemas
from avanti.server.tables import Acted, Created, Seated, Tables
from avanti.server.wire import ApiError, dumps
from avanti.store import GameStore

__all__ = ["Server"]


class Server:
    """One app's state: the games and seats (:class:`~avanti.server.tables.Tables`), the live
    listeners (:class:`~avanti.server.push.Hub`) and the bots."""

    def __init__(
        self, games: GameStore, limits: ServerLimits, think_seconds: float, bot_workers: int
    ) -> None:
        self.limits = limits
        """The limits."""
        self.tables = Tables(games, limits)
        """The table core."""
        self.changes = Changes()
        """Every change, announced once; the clock, the hub and the bots hear them."""
        self.chat = Chat(self.tables)
        """The tables' chats."""
        self.clock = Clock(self.tables, self.changes, self.chat)
        """The deadlines of timed games."""
        self.hub = Hub(games, limits, changes=self.changes)
        """The WebSocket listeners."""
        self.bots = BotRunner(self.tables, self.changes, think_seconds, bot_workers)
        """The bots."""
        self.joining = Joining(self.tables)
        """Open tables and the seats taken at them."""
        self.rematch = Rematch(self.tables)
        """Rematches."""
        self.waiting: dict[str, Any] = {}
        """The open tables this process's sockets wait for to start (``socket._Watch``)."""
        self._documents: dict[str, Any] = {}

    @property
    def games(self) -> GameStore:
        """The games."""
        return self.tables.games

    @contextlib.asynccontextmanager
    async def lifespan(self, app: object = None) -> AsyncIterator[None]:
        """Run the followers and the bots while the app serves."""
        async with anyio.create_task_group() as tasks:
            self.hub.start(tasks)
            self.bots.start(tasks)
            self.clock.start(tasks)
            tasks.start_soon(self.bots.resume, self.limits.list_limit)
            log(logging.INFO, "started", store=type(self.games.events).__name__)
            try:
                yield
            finally:
                self.hub.stop()
                self.bots.stop()
                self.clock.stop()
                tasks.cancel_scope.cancel()
        log(logging.INFO, "stopped")

    async def read(self, game_id: str) -> Seated:
        """A game with its record and seats, read in a worker thread, and announced as read (a
        process that had not seen it yet times it and wakes the bots it awaits)."""
        seated = await to_thread.run_sync(self.tables.read, game_id)
        self.changes.announce(Moved(seated.record.stream, seated.game, seated.record.metadata))
        return seated

    async def act(
        self,
        game_id: str,
        request: CommandRequest,
        *,
        token: str | None = None,
        seat: int | None = None,
        rate: bool = False,
    ) -> Acted:
        """A seat's command (:meth:`~avanti.server.tables.Tables.act`, in a worker thread),
        announced once stored (not when it repeats a command stored before)."""
        act = functools.partial(
            self.tables.act, game_id, request, token=token, seat=seat, rate=rate
        )
        acted = await to_thread.run_sync(act)
        if not acted.executed.repeated:
            self.acted(game_id, acted)
        return acted

    def acted(self, game_id: str, acted: Acted) -> None:
        """Announce a stored command's game (to the clock, the listeners and the bots)."""
        log(logging.DEBUG, "command", game=game_id, seat=acted.seat, version=acted.game.version)
        self.changes.announce(Moved(game_id, acted.game, acted.executed.record.metadata))

    async def create(self, wanted: NewGame, client: str) -> Created:
        """A new game or table (:meth:`~avanti.server.tables.Tables.create`, or
        :meth:`~avanti.server.joining.Joining.create` for one with open seats), announced."""
        create = self.joining.create if wanted.open_seats else self.tables.create
        created: Created = await to_thread.run_sync(create, wanted, client)
        if created.game is not None:
            metadata: dict[str, JSONValue] = dict(created.table.to_metadata())
            if wanted.seconds_per_move is not None:
                metadata[CLOCK] = wanted.seconds_per_move
            self.changes.announce(Moved(created.game_id, created.game, metadata))
        return created

    async def chat_post(self, game_id: str, seat: int, text: object) -> JSONValue:
        """A seat's chat message (:meth:`~avanti.server.chat.Chat.post`, at the seat's rate),
        stored, then announced to every connection of the game."""
        post = functools.partial(self.chat.post, game_id, seat, text, rate=True)
        posted: JSONValue = await to_thread.run_sync(post)
        self.changes.announce(Said(game_id, dumps({"type": "chat", "messages": [posted]})))
        return posted

    def said(self, game_id: str, message: JSONValue) -> None:
        """Announce a message for every connection of a game (a rematch)."""
        self.changes.announce(Said(game_id, dumps(message)))

    def document(self, name: str) -> Any:
        """``openapi`` (name ``""``) or a game's schemas, built once."""
        if name not in self._documents:
            if name and name not in catalog.GAMES:
                raise ApiError(Refusal.UNKNOWN_GAME, "no game of that name is served here")
            self._documents[name] = schemas(name) if name else openapi()
        return self._documents[name]
