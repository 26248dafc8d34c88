"""A clock per move, for the games created with ``"seconds_per_move"``.

The record of such a game keeps its time per move (``"clock"``, seconds). Whenever this
process sees a new version of it (a command, a bot's move, another process's change that its
watcher loaded), the first seat the game waits for that a person plays gets that long from
now: every ``update`` of the game carries ``"clock": {"seat", "deadline", "seconds"}``
(``deadline`` in Unix seconds; ``null`` while no person is awaited). When a deadline passes
with the game still at that version, the seat's move is the ``random`` bot's for that one move,
executed through the table core at that version (so of two processes timing one game, one
moves), and every connection is told in the chat, as a system message: "Ann's time ran out: a
bot moved". The seat is its person's again for the next move.
"""

from __future__ import annotations

import functools
import logging
import secrets
import time
from collections.abc import Callable
from types import EllipsisType
from typing import Any

import anyio
import anyio.abc
from anyio import to_thread
from attrs import frozen

from avanti.bots import RandomBot
from avanti.core.codec import JSONValue
from avanti.core.rng import Rng
from avanti.server.chat import Chat
from avanti.server.log import log
from avanti.server.push import Hub
from avanti.server.requests import CommandRequest
from avanti.server.seats import Table
from avanti.server.tables import Acted, Tables
from avanti.server.wire import AnyGame, ApiError, dumps

__all__ = ["Clock", "Deadline"]


@frozen
class Deadline:
    """When a seat's time for a version of a game runs out."""

    version: int
    """The version the seat is to move at."""
    seat: int | None
    """The seat timed, or ``None`` when no person is awaited."""
    deadline: float
    """When its time runs out (Unix seconds)."""
    seconds: float
    """Its time per move."""

    def data(self) -> JSONValue:
        """The ``clock`` of an update."""
        if self.seat is None:
            return None
        return {"seat": self.seat, "deadline": self.deadline, "seconds": self.seconds}


class Clock:
    """The deadlines of the timed games this process sees (see the module's docstring)."""

    def __init__(
        self,
        tables: Tables,
        hub: Hub,
        chat: Chat,
        acted: Callable[[str, Acted], None],
        now: Callable[[], float] = time.time,
    ) -> None:
        self._tables = tables
        self._hub = hub
        self._chat = chat
        self._acted = acted
        self._now = now
        self._timed: dict[str, tuple[float, Table | None]] = {}
        self._deadlines: dict[str, Deadline] = {}
        self._changed = anyio.Event()
        self._tasks: anyio.abc.TaskGroup | None = None
        hub.observers.append(self.observe)

    def start(self, tasks: anyio.abc.TaskGroup) -> None:
        """Run the timer in ``tasks`` (the server's lifespan task group)."""
        self._tasks = tasks
        tasks.start_soon(self._run)

    def stop(self) -> None:
        """Time no more moves."""
        self._tasks = None

    def register(self, game_id: str, metadata: Any, game: AnyGame) -> None:
        """Time ``game_id`` if its record's ``metadata`` has a clock (and note ``game``)."""
        seconds = metadata.get("clock") if isinstance(metadata, dict) else None
        if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > 0:
            self._timed[game_id] = (float(seconds), Table.from_metadata(metadata))
            self.observe(game_id, game)

    def observe(self, game_id: str, game: AnyGame) -> None:
        """Note a version of a game: a timed game's new version starts its seat's time."""
        timed = self._timed.get(game_id)
        if timed is None:
            return
        known = self._deadlines.get(game_id)
        if known is not None and known.version >= game.version:
            return
        seconds, table = timed
        people = [s for s in game.waiting if table is None or table.bot(s) is None]
        seat = None if game.is_over or not people else people[0]
        self._deadlines[game_id] = Deadline(game.version, seat, self._now() + seconds, seconds)
        self._changed.set()

    def of(self, game_id: str, game: AnyGame) -> JSONValue | EllipsisType:
        """The ``clock`` of an update of ``game``, or ``...`` for a game without one."""
        if game_id not in self._timed:
            return ...
        self.observe(game_id, game)
        known = self._deadlines.get(game_id)
        return None if known is None or known.version != game.version else known.data()

    async def _run(self) -> None:
        """Make the move of each seat whose time ran out, until cancelled."""
        while True:
            due = [d.deadline for d in self._deadlines.values() if d.seat is not None]
            wait = max(0.0, min(due) - self._now()) if due else None
            with anyio.move_on_after(wait if wait is not None else float("inf")):
                await self._changed.wait()
            self._changed = anyio.Event()
            now = self._now()
            for game_id, deadline in list(self._deadlines.items()):
                if deadline.seat is not None and deadline.deadline <= now:
                    self._deadlines[game_id] = Deadline(
                        deadline.version, None, deadline.deadline, deadline.seconds
                    )
                    if self._tasks is not None:
                        self._tasks.start_soon(self._time_out, game_id, deadline)

    async def _time_out(self, game_id: str, deadline: Deadline) -> None:
        """The move of a seat whose time ran out, by the random bot, and the chat told."""
        try:
            seated = await to_thread.run_sync(self._tables.read, game_id)
            game, table = seated.game, seated.table
            seat = deadline.seat
            if game.version != deadline.version or seat is None or seat not in game.waiting:
                return
            legal = tuple(game.legal_commands(seat))
            command = RandomBot().choose(game.view(seat), legal, Rng(secrets.randbits(64)).stream())
            data = type(game).rules.codec.command_to_data(command)
            request = CommandRequest(command=data, expected_version=deadline.version)
            acted = await to_thread.run_sync(
                functools.partial(self._tables.act, game_id, request, seat=seat)
            )
            self._acted(game_id, acted)
            name = table.seats[seat].name if table is not None else f"Seat {seat}"
            text = f"{name}'s time ran out: a bot moved"
            post = functools.partial(self._chat.post, game_id, None, text, system=True)
            told = await to_thread.run_sync(post)
            self._hub.tell(game_id, dumps({"type": "chat", "messages": [told]}))
            log(logging.INFO, "time-out", game=game_id, seat=seat)
        except ApiError as error:  # the game moved on meanwhile, or a bot took the seat
            log(logging.DEBUG, "time-out-refused", game=game_id, kind=error.kind)
