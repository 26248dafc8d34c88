"""Bots in the server: the library's bots play the seats a game gives them.

After a game is created, after every accepted command, after a seat is handed to a bot, and
whenever somebody looks at a game in which a bot is awaited (which covers a restart), the
:class:`BotRunner` plays every bot seat the game waits for, one command at a time, until it waits
only for people or is over. A bot is built with :func:`avanti.bots.make_bot` and sees only its
seat's view and legal commands; its randomness comes from :mod:`secrets`. It has
``think_seconds`` to choose; a bot that takes longer is left to finish alone and a uniformly
random legal command is played instead (and logged).

The command is executed through :meth:`avanti.store.GameStore.execute` at the version the bot
looked at, so when several server processes play the same bot at once, exactly one command is
stored: the others meet a :class:`~avanti.core.errors.VersionConflict`, which only means that
somebody else moved first, and look again.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import anyio
import anyio.abc
from anyio import to_thread

from avanti import catalog
from avanti.bots import RandomBot, make_bot
from avanti.core.errors import AvantiError, IllegalCommand, VersionConflict
from avanti.core.rng import Rng
from avanti.server.log import LOGGER, log
from avanti.server.push import Hub
from avanti.server.seats import Table
from avanti.server.wire import AnyGame
from avanti.store import GameStore

__all__ = ["BotRunner"]


def _rng() -> Any:
    """A bot's random stream, seeded from :mod:`secrets` (nobody can foresee a bot's play)."""
    return Rng(secrets.randbits(64)).stream()


class BotRunner:
    """Plays the bot seats of the games it is told about (see the module's docstring)."""

    def __init__(self, games: GameStore, hub: Hub, think_seconds: float) -> None:
        self._games = games
        self._hub = hub
        self._think = think_seconds
        self._tasks: anyio.abc.TaskGroup | None = None
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._thinkers = anyio.CapacityLimiter(4)

    def start(self, tasks: anyio.abc.TaskGroup) -> None:
        """Run the bots in ``tasks`` (the server's lifespan task group)."""
        self._tasks = tasks

    def stop(self) -> None:
        """Forget the task group: no bot starts any more."""
        self._tasks = None

    def kick(self, game_id: str) -> None:
        """Play the game's awaited bot seats, now or right after the bots playing it now."""
        if self._tasks is None:
            return
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running.add(game_id)
        self._tasks.start_soon(self._run, game_id)

    async def resume(self, limit: int) -> None:
        """Kick the ``limit`` most recently updated games (at start-up: bots that were awaited
        when a server stopped play on)."""
        try:
            records = await to_thread.run_sync(lambda: self._games.games(limit=limit))
        except AvantiError as error:
            log(logging.WARNING, "bots-resume-failed", message=str(error))
            return
        for record in records:
            table = Table.from_metadata(record.metadata)
            if table is not None and table.bots:
                self.kick(record.stream)

    async def _run(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                try:
                    moved = await self._step(game_id)
                except AvantiError as error:
                    log(
                        logging.WARNING,
                        "bot-failed",
                        game=game_id,
                        problem=type(error).__name__,
                        message=str(error),
                    )
                    moved = False
                except Exception:  # pragma: no cover - a bug in a bot: the others play on
                    LOGGER.exception("bot failed", extra={"avanti_fields": {"game": game_id}})
                    moved = False
                if not moved and game_id not in self._again:
                    return
        finally:
            self._running.discard(game_id)

    def _read(self, game_id: str) -> tuple[Table | None, AnyGame]:
        record = self._games.events.stream(game_id)
        return Table.from_metadata(record.metadata), self._games.load(game_id)

    async def _step(self, game_id: str) -> bool:
        """Play one bot command if a bot is awaited; whether to look again."""
        table, game = await to_thread.run_sync(self._read, game_id)
        if table is None or game.is_over:
            return False
        seats = [seat for seat in game.waiting if table.bot(seat)]
        if not seats:
            return False
        seat = seats[0]
        kind = table.bot(seat)
        assert kind is not None
        bot = make_bot(kind, catalog.game_info(table.game), game.setup, seat)
        view = game.view(seat)
        legal = tuple(game.legal_commands(seat))
        command: Any = None
        with anyio.move_on_after(self._think):
            command = await to_thread.run_sync(
                bot.choose, view, legal, _rng(), abandon_on_cancel=True, limiter=self._thinkers
            )
        if command is None:
            log(logging.WARNING, "bot-timeout", game=game_id, seat=seat, bot=kind)
            command = RandomBot().choose(view, legal, _rng())
        try:
            after = await to_thread.run_sync(self._execute, game_id, seat, command, game.version)
        except VersionConflict:  # pragma: no cover - a race: somebody moved first
            return True  # look again
        except IllegalCommand as error:  # pragma: no cover - a bot's bug
            log(
                logging.ERROR, "bot-refused", game=game_id, seat=seat, bot=kind, reason=error.reason
            )
            return False
        if after is None:  # pragma: no cover - a race: the seat was taken back meanwhile
            return True
        log(logging.INFO, "bot-command", game=game_id, seat=seat, bot=kind, version=after.version)
        self._hub.publish(game_id, after)
        return True

    def _execute(self, game_id: str, seat: int, command: Any, version: int) -> AnyGame | None:
        """Store the bot's command at ``version``, if the seat is still a bot's."""
        table = Table.from_metadata(self._games.events.stream(game_id).metadata)
        if table is None or table.bot(seat) is None:  # pragma: no cover - a race (see above)
            return None
        return self._games.execute(game_id, command, version)
