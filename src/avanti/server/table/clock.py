"""A clock per move, for the games created with ``"seconds_per_move"``.

The record of such a game keeps its time per move
(:attr:`~avanti.server.table.record.TableRecord.clock`, seconds) and the moment the version in
play began to wait (:attr:`~avanti.server.table.record.TableRecord.clock_started`, Unix
seconds), which the first server process to see that version writes once. A version's deadline
is derived from the record alone: the moment it began to wait plus the time per move. Nothing
resets it: a seat handed to a bot and back, or a server that restarts, finds the deadline of the
version in play where it was.

Every ``update`` of the game carries ``"clock": {"seat", "deadline", "seconds"}`` for the first
seat the game waits for that a person plays, with the seats as they are now (``deadline`` in
Unix seconds; ``null`` while no person is awaited). A seat a bot plays is not timed: its bot
moves. A game with a seat nobody sits at yet (a rematch before each player asked for it:
:attr:`~avanti.server.table.record.Table.vacant`) is not timed at all: its clock starts when
its last seat is taken, a moment the rematch writes into the record.

When a deadline passes with the game still at that version and a person awaited (a seat
handed back to its person mid-wait is timed again, the time spent counting), a stand-in makes
the seat's move: the game's ``heuristic`` bot, thinking as the server's bots do (in a worker
process, with their time), for that one move, executed through the table core at that version
(so of two processes timing one game, one moves). It chooses among :func:`stand_in_choices`:
never a command that gives something up for good (the game's
:attr:`~avanti.core.Ruleset.gives_up`: Avanti's quitting a run, A14) while another is legal.
Every connection is told in the chat, as a system message: "Ann's time ran out: a bot moved".
The seat is its person's again for the next move.
"""

from __future__ import annotations

import functools
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from types import EllipsisType
from typing import Any

import anyio
import anyio.abc
from anyio import to_thread
from attrs import define, evolve, frozen

from avanti import catalog
from avanti.bots import RandomBot, make_bot
from avanti.core.codec import JSONValue
from avanti.core.errors import AvantiError
from avanti.core.rng import Rng
from avanti.server.log import LOGGER, log
from avanti.server.protocol.requests import CommandRequest
from avanti.server.protocol.wire import AnyGame, ApiError, dumps
from avanti.server.table.changes import Change, Changes, Moved, Said
from avanti.server.table.chat import Chat
from avanti.server.table.master import Tables
from avanti.server.table.record import CLOCK, CLOCK_STARTED, Started, Table, TableRecord

__all__ = [
    "CLOCK",
    "CLOCK_STARTED",
    "STAND_IN",
    "TICK",
    "Clock",
    "Deadline",
    "Started",
    "Think",
    "Timing",
    "stand_in_choices",
    "think_here",
]


TICK = 1.0
"""The longest the timer sleeps before it reads the time again (seconds)."""

STAND_IN = "heuristic"
"""The kind of bot that makes the move of a seat whose time ran out: the game's heuristic bot."""

Think = Callable[[str, str, str, AnyGame, int, tuple[Any, ...]], Awaitable[Any]]
"""How a bot's choice is made: ``(game_id, kind, name, game, seat, legal)`` to one of ``legal``
(the server's :meth:`~avanti.server.table.bots.BotRunner.choose`, in a worker process)."""


def stand_in_choices(game: AnyGame, seat: int) -> tuple[Any, ...]:
    """The commands a stand-in for an absent ``seat`` chooses among: the seat's legal commands
    but those that give something up for good (the game's
    :attr:`~avanti.core.Ruleset.gives_up`: Avanti's quitting a run, A14), unless nothing else
    is legal."""
    legal = tuple(game.legal_commands(seat))
    gives_up = type(game).rules.gives_up
    kept = tuple(command for command in legal if not gives_up(command))
    return kept or legal


async def think_here(
    game_id: str, kind: str, name: str, game: AnyGame, seat: int, legal: tuple[Any, ...]
) -> Any:
    """A bot's choice among ``legal``, made in a worker thread of this process: the thinking of
    a clock that runs without the server's bots (a test's, an embedding's)."""

    def choose() -> Any:
        bot = make_bot(kind, catalog.game_info(name), game.setup, seat)
        return bot.choose(game.view(seat), legal, Rng(secrets.randbits(64)).stream())

    return await to_thread.run_sync(choose)


@frozen
class Timing:
    """A timed game's clock as its record keeps it."""

    seconds: float
    """The time per move (seconds)."""
    started: Started | None = None
    """When the newest version the record names began to wait (``None``: not written yet)."""

    @classmethod
    def of(cls, record: TableRecord) -> Timing | None:
        """The clock of a table's record, or ``None`` for a game without one."""
        if record.clock is None:
            return None
        return cls(record.clock, record.clock_started)

    def deadline(self, version: int) -> float | None:
        """When the time of the seat awaited at ``version`` runs out: the moment that version
        began to wait plus the time per move (``None`` when that moment is not known)."""
        started = self.started
        if started is None or started.version != version:
            return None
        return started.at + self.seconds


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


@define
class _Timed:
    """What the clock knows of one timed game: the record's clock and seats, as last read, and
    the newest version seen."""

    timing: Timing
    table: Table | None
    version: int = -1
    waiting: tuple[int, ...] = ()
    over: bool = False
    fired: Deadline | None = None

    def deadline(self) -> Deadline:
        """The deadline of the version in play, for the seats as last read (none while a seat
        is vacant: the clock starts once every seat is taken)."""
        at = self.timing.deadline(self.version)
        table = self.table
        people = [s for s in self.waiting if table is None or table.bot(s) is None]
        if table is not None and table.vacant:
            people = []
        seat = None if self.over or at is None or not people else people[0]
        return Deadline(self.version, seat, math.inf if at is None else at, self.timing.seconds)


class Clock:
    """The deadlines of the timed games this process sees (see the module's docstring)."""

    def __init__(
        self,
        tables: Tables,
        changes: Changes,
        chat: Chat,
        now: Callable[[], float] = time.time,
        think: Think = think_here,
    ) -> None:
        self._tables = tables
        self._changes = changes
        self._chat = chat
        self.now = now
        """The time (Unix seconds) the deadlines are measured by."""
        self._think = think
        self._timed: dict[str, _Timed] = {}
        self._changed = anyio.Event()
        self._tasks: anyio.abc.TaskGroup | None = None
        changes.hear(self.hear)
        tables.clock_now = lambda: self.now()  # the appends of moves stamp with this clock

    def start(self, tasks: anyio.abc.TaskGroup) -> None:
        """Run the timer in ``tasks`` (the server's lifespan task group)."""
        self._tasks = tasks
        tasks.start_soon(self._run)

    def stop(self) -> None:
        """Time no more moves."""
        self._tasks = None

    def hear(self, change: Change) -> None:
        """A game's new version (:mod:`~avanti.server.table.changes`): with its record, registered;
        told by the store, observed."""
        if isinstance(change, Moved):
            if change.record is not None:
                self.register(change.game_id, change.record, change.game)
            else:
                self.observe(change.game_id, change.game)

    def register(self, game_id: str, record: TableRecord, game: AnyGame) -> None:
        """Time ``game_id`` if its ``record`` has a clock, with the seats and the moment the
        version in play began to wait as that record holds them (and note ``game``)."""
        timed = self._note(game_id, record, game)
        if timed is not None:
            timed.fired = None  # the seats may have changed: a deadline passed is tried again

    def _note(self, game_id: str, record: TableRecord, game: AnyGame) -> _Timed | None:
        """:meth:`register`, short of trying a deadline passed again; what is known."""
        timing = Timing.of(record)
        if timing is None:
            return None
        table = record.table
        timed = self._timed.get(game_id)
        if timed is None:
            timed = self._timed[game_id] = _Timed(timing, table)
        else:
            timed.table = table
            stored, known = timing.started, timed.timing.started
            if known is not None and (stored is None or stored.version < known.version):
                timing = evolve(timing, started=known)  # written to the record soon
            timed.timing = timing
        self._changed.set()
        self.observe(game_id, game)
        return timed

    def observe(self, game_id: str, game: AnyGame) -> None:
        """Note a version of a game: a timed game's new version begins to wait now, unless its
        record says since when (that moment is written to the record once), or a seat is
        vacant (the rematch writes when its last seat was taken)."""
        timed = self._timed.get(game_id)
        if timed is None or game.version <= timed.version:
            return
        timed.version, timed.waiting, timed.over = game.version, tuple(game.waiting), game.is_over
        started = timed.timing.started
        vacant = timed.table is not None and bool(timed.table.vacant)
        if not game.is_over and not vacant and (started is None or started.version != game.version):
            started = Started(game.version, self.now())
            timed.timing = evolve(timed.timing, started=started)
            if self._tasks is not None:
                self._tasks.start_soon(self._keep, game_id, started)
        self._changed.set()

    def of(self, game_id: str, game: AnyGame) -> JSONValue | EllipsisType:
        """The ``clock`` of an update of ``game``, or ``...`` for a game without one."""
        timed = self._timed.get(game_id)
        if timed is None:
            return ...
        self.observe(game_id, game)
        return None if timed.version != game.version else timed.deadline().data()

    async def _run(self) -> None:
        """Make the move of each seat whose time ran out, until cancelled."""
        while True:
            now = self.now()
            nearest = math.inf
            for game_id, timed in list(self._timed.items()):
                deadline = timed.deadline()
                if deadline.seat is None or deadline == timed.fired:  # tried: wait for news
                    continue
                if deadline.deadline > now:
                    nearest = min(nearest, deadline.deadline)
                elif self._tasks is not None:
                    timed.fired = deadline
                    self._tasks.start_soon(self._time_out, game_id, deadline)
            wait = math.inf if nearest == math.inf else min(TICK, max(0.0, nearest - now))
            with anyio.move_on_after(wait):
                await self._changed.wait()
            self._changed = anyio.Event()

    async def _keep(self, game_id: str, started: Started) -> None:
        """Write when a version began to wait into the game's record, unless a record of it is
        there already (another process's, which is then the one that counts)."""
        try:
            kept = await to_thread.run_sync(self._write, game_id, started)
        except AvantiError as error:  # the store failed: this process's moment counts here
            log(logging.WARNING, "clock-write-failed", game=game_id, message=str(error))
            return
        timed = self._timed.get(game_id)
        if timed is not None and kept.version == timed.version and timed.timing.started != kept:
            timed.timing = evolve(timed.timing, started=kept)
            self._changed.set()

    def _write(self, game_id: str, started: Started) -> Started:
        """In a worker thread: the moment the record keeps for ``started.version`` (written
        now if it keeps none)."""

        def change(record: TableRecord, version: int) -> TableRecord:
            kept = record.clock_started
            if kept is not None and kept.version >= started.version:
                return record
            if record.clock is None or version > started.version:
                return record  # no clock any more, or the game moved on: nothing to keep
            return evolve(record, clock_started=started)

        kept = self._tables.change_record(game_id, change).clock_started
        return started if kept is None or kept.version < started.version else kept

    async def _time_out(self, game_id: str, deadline: Deadline) -> None:
        """The move of a seat whose time ran out, by the stand-in, and the chat told: with
        the game, its seats and its clock read again, so a seat a bot plays now, a game that
        moved on or a deadline another process wrote later is left alone."""
        try:
            seated = await to_thread.run_sync(self._tables.read, game_id)
            timed = self._note(game_id, seated.kept, seated.game)
            game, table = seated.game, seated.table
            current = None if timed is None else timed.deadline()
            seat = None if current is None else current.seat
            if (
                current is None
                or seat is None
                or current.version != deadline.version
                or game.version != deadline.version
                or seat not in game.waiting
                or current.deadline > self.now()
            ):
                return
            name = table.game if table is not None else type(game).rules.codec.format
            command = await self._stand_in(game_id, name, game, seat)
            data = type(game).rules.codec.command_to_data(command)
            request = CommandRequest(command=data, expected_version=deadline.version)
            acted = await to_thread.run_sync(
                functools.partial(self._tables.act, game_id, request, seat=seat)
            )
            self._changes.announce(Moved(game_id, acted.game, acted.kept))
            name = table.seats[seat].name if table is not None else f"Seat {seat}"
            text = f"{name}'s time ran out: a bot moved"
            post = functools.partial(self._chat.post, game_id, None, text, system=True)
            told = await to_thread.run_sync(post)
            self._changes.announce(Said(game_id, dumps({"type": "chat", "messages": [told]})))
            log(logging.INFO, "time-out", game=game_id, seat=seat)
        except ApiError as error:  # the game moved on meanwhile, or a bot took the seat
            log(logging.DEBUG, "time-out-refused", game=game_id, kind=error.kind)
        finally:
            self._changed.set()  # a deadline read later than thought is waited for

    async def _stand_in(self, game_id: str, name: str, game: AnyGame, seat: int) -> Any:
        """The stand-in's move for ``seat``: the heuristic bot's choice among
        :func:`stand_in_choices`, or a random one of them if its thinking failed."""
        choices = stand_in_choices(game, seat)
        try:
            return await self._think(game_id, STAND_IN, name, game, seat, choices)
        except Exception:  # a bot or a worker that failed: the seat's move is made all the same
            LOGGER.exception("stand-in failed", extra={"avanti_fields": {"game": game_id}})
            return RandomBot().choose(game.view(seat), choices, Rng(secrets.randbits(64)).stream())
