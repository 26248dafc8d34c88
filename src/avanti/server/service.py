"""The server's running parts, shared by every transport: the table core, the WebSocket hub,
the bots and the cached documents, with the lifespan that runs them. No web framework here."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio
from anyio import to_thread

from avanti import catalog
from avanti.server.bots import BotRunner
from avanti.server.chat import Chat
from avanti.server.clock import Clock
from avanti.server.joining import Joining
from avanti.server.limits import ServerLimits
from avanti.server.log import log
from avanti.server.openapi import openapi
from avanti.server.push import Hub
from avanti.server.refusals import Refusal
from avanti.server.rematch import Rematch
from avanti.server.schema import schemas
from avanti.server.tables import Acted, Seated, Tables
from avanti.server.wire import ApiError
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
        self.hub = Hub(games, limits)
        """The WebSocket listeners."""
        self.bots = BotRunner(self.tables, self.hub, think_seconds, bot_workers)
        """The bots."""
        self.joining = Joining(self.tables)
        """Open tables and the seats taken at them."""
        self.chat = Chat(self.tables)
        """The tables' chats."""
        self.rematch = Rematch(self.tables)
        """Rematches."""
        self.clock = Clock(self.tables, self.hub, self.chat, self.acted)
        """The deadlines of timed games."""
        self.waiting: dict[str, int] = {}
        """The sockets waiting for each open table to start, in this process."""
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
        """A game with its record and seats, read in a worker thread; bots awaited are woken."""
        seated = await to_thread.run_sync(self.tables.read, game_id)
        self.clock.register(seated.record.stream, seated.record.metadata, seated.game)
        if seated.bot_awaited():
            self.bots.kick(game_id)
        return seated

    def acted(self, game_id: str, acted: Acted) -> None:
        """Offer a stored command's game to the listeners and the clock (with the seats and
        the clock its record holds), and wake the bots it awaits."""
        log(logging.DEBUG, "command", game=game_id, seat=acted.seat, version=acted.game.version)
        self.clock.register(game_id, acted.executed.record.metadata, acted.game)
        self.hub.publish(game_id, acted.game)
        table = acted.table
        if table is not None and any(table.bot(seat) for seat in acted.game.waiting):
            self.bots.kick(game_id)

    def document(self, name: str) -> Any:
        """``openapi`` (name ``""``) or a game's schemas, built once."""
        if name not in self._documents:
            if name and name not in catalog.GAMES:
                raise ApiError(Refusal.UNKNOWN_GAME, "no game of that name is served here")
            self._documents[name] = schemas(name) if name else openapi()
        return self._documents[name]
