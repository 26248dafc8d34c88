"""The server's running parts, shared by every transport: the table core, the announcements,
the bots and the cached documents, with the lifespan that runs them. No web framework here."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from typing import Any, Protocol

import anyio
import anyio.abc
from anyio import to_thread

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.server.limits import ServerLimits
from avanti.server.log import log
from avanti.server.protocol.openapi import openapi
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import CommandRequest, NewGame
from avanti.server.protocol.schema import schemas
from avanti.server.protocol.wire import ApiError, dumps
from avanti.server.table.bots import BotRunner
from avanti.server.table.changes import Changes, Moved, Said
from avanti.server.table.chat import Chat
from avanti.server.table.clock import Clock
from avanti.server.table.joining import Joining
from avanti.server.table.master import Acted, Created, Seated, Tables
from avanti.server.table.record import TableRecord
from avanti.server.table.rematch import Rematch
from avanti.store import GameStore

__all__ = ["Follower", "Server"]


class Follower(Protocol):
    """A part the server's lifespan runs (the push hub of the WebSockets)."""

    def start(self, tasks: anyio.abc.TaskGroup) -> None:
        """Run in ``tasks`` (the lifespan's task group)."""

    def stop(self) -> None:
        """Stop: the lifespan ends."""


class Server:
    """One app's state: the games and seats (:class:`~avanti.server.table.master.Tables`), the live
    announcements (:class:`~avanti.server.table.changes.Changes`), the clock and the bots."""

    def __init__(
        self, games: GameStore, limits: ServerLimits, think_seconds: float, bot_workers: int
    ) -> None:
        self.limits = limits
        """The limits."""
        self.tables = Tables(games, limits)
        """The table core."""
        self.changes = Changes()
        """Every change, announced once; the clock, the hub, the bots and the table core hear
        them."""
        self.changes.hear(self.tables.hear)  # another process's versions, noted
        self.chat = Chat(self.tables)
        """The tables' chats."""
        self.bots = BotRunner(self.tables, self.changes, think_seconds, bot_workers)
        """The bots."""
        self.clock = Clock(self.tables, self.changes, self.chat, think=self.bots.choose)
        """The deadlines of timed games (a stand-in thinks as the bots do)."""
        self.followers: list[Follower] = []
        """Parts the lifespan starts and stops beside the bots and the clock (the app's push
        hub: the transport makes it and hears the changes with it)."""
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
            for follower in self.followers:
                follower.start(tasks)
            self.bots.start(tasks)
            self.clock.start(tasks)
            tasks.start_soon(self.bots.resume, self.limits.list_limit)
            log(logging.INFO, "started", store=type(self.games.events).__name__)
            try:
                yield
            finally:
                for follower in self.followers:
                    follower.stop()
                self.bots.stop()
                self.clock.stop()
                tasks.cancel_scope.cancel()
        log(logging.INFO, "stopped")

    async def read(self, game_id: str) -> Seated:
        """A game with its record and seats, read in a worker thread, and announced as read (a
        process that had not seen it yet times it and wakes the bots it awaits)."""
        seated = await to_thread.run_sync(self.tables.read, game_id)
        self.changes.announce(Moved(seated.record.stream, seated.game, seated.kept))
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
        """A seat's command (:meth:`~avanti.server.table.master.Tables.act_soon`), announced
        once stored (not when it repeats a command stored before)."""
        acted = await self.tables.act_soon(game_id, request, token=token, seat=seat, rate=rate)
        if not acted.executed.repeated:
            self.acted(game_id, acted)
        return acted

    def acted(self, game_id: str, acted: Acted) -> None:
        """Announce a stored command's game (to the clock, the listeners and the bots)."""
        log(logging.DEBUG, "command", game=game_id, seat=acted.seat, version=acted.game.version)
        self.changes.announce(Moved(game_id, acted.game, acted.kept))

    async def create(self, wanted: NewGame, client: str) -> Created:
        """A new game or table (:meth:`~avanti.server.table.master.Tables.create`, or
        :meth:`~avanti.server.table.joining.Joining.create` for one with open seats), announced."""
        create = self.joining.create if wanted.open_seats else self.tables.create
        created: Created = await to_thread.run_sync(create, wanted, client)
        if created.game is not None:
            kept = TableRecord(table=created.table, clock=wanted.seconds_per_move)
            self.changes.announce(Moved(created.game_id, created.game, kept))
        return created

    async def chat_post(self, game_id: str, seat: int, text: object) -> JSONValue:
        """A seat's chat message (:meth:`~avanti.server.table.chat.Chat.post`, at the seat's rate),
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
