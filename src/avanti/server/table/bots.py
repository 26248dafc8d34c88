"""Bots in the server: the library's bots play the seats a game gives them, off the request path.

After a game is created, after every accepted command, after a seat is handed to a bot, and
whenever somebody looks at a game in which a bot is awaited (which covers a restart), the
:class:`BotRunner` plays every bot seat the game waits for, one command at a time, until it waits
only for people or is over. A bot is built with :func:`avanti.bots.make_bot` and sees only its
seat's view and legal commands; its randomness comes from :mod:`secrets`.

Bots think in worker *processes* (``bot_workers`` of them per server process, started on first
use), never in the server's own threads: however many games bots play, they use at most that
many cores, and the event loop that serves people keeps its own. Each choice has
``think_seconds`` from the moment a worker starts on it; a worker's timer stops a bot that takes
longer, and a uniformly random legal command is played instead (and logged). Choices wait their
turn for a worker: with more bot games than workers, bots play more slowly, people do not. A
worker that ends abruptly (killed) breaks its pool: the choices it held are played at random
(logged) and the next choice starts a new pool.

The workers end with the server process, however it ends (even killed, when no code of its runs):
each reads, in a thread of its own, a pipe whose write end only the server process holds, and
exits when the read meets the pipe's end. Nothing else would end them: a forkserver's worker is
the forkserver's child, and the forkserver waits for its children before it exits.

The command is executed through the table core at the version the bot looked at, so when
several server processes play the same bot at once exactly one command is stored: the others
meet a :class:`~avanti.core.errors.VersionConflict`, which only means somebody moved first.
"""

from __future__ import annotations

import concurrent.futures
import concurrent.futures.process
import contextlib
import functools
import logging
import multiprocessing
import os
import secrets
import signal
import threading
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any

import anyio
import anyio.abc
from anyio import to_thread

from avanti import catalog
from avanti.bots import RandomBot, make_bot
from avanti.core.errors import AvantiError
from avanti.core.rng import Rng
from avanti.server.log import LOGGER, log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import CommandRequest
from avanti.server.protocol.wire import AnyGame, ApiError
from avanti.server.table.changes import Change, Changes, Moved
from avanti.server.table.master import Tables

__all__ = ["BotRunner", "think"]


class _TimeUp(Exception):
    """A bot's time ran out."""


def _time_up(signum: int, frame: FrameType | None) -> None:
    raise _TimeUp


def think(
    kind: str, game: str, setup: Any, seat: int, view: Any, legal: tuple[Any, ...], seconds: float
) -> Any:
    """A bot's choice, or ``None`` when it takes longer than ``seconds`` (run in a worker
    process: a timer signal stops the bot where it is)."""
    bot = make_bot(kind, catalog.game_info(game), setup, seat)
    rng = Rng(secrets.randbits(64)).stream()
    timed = threading.current_thread() is threading.main_thread()
    if not timed:
        return bot.choose(view, legal, rng)
    signal.signal(signal.SIGALRM, _time_up)
    choice: Any = None
    try:
        # The timer is armed inside the ``try``: with a short time it can ring before the bot
        # starts, or after it has chosen and before it is disarmed; either way the answer is
        # ``None`` or the choice, never the signal's exception.
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            choice = bot.choose(view, legal, rng)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _TimeUp:
        return None
    return choice


_lifeline_lock = threading.Lock()
_lifeline: tuple[Connection, Connection] | None = None


def _lifeline_end() -> Connection:
    """The read end of this process's lifeline: a pipe made once, whose write end this process
    keeps open as long as it lives and no other process holds (a forked child closes its copy),
    so that a reader meets the pipe's end exactly when this process has ended."""
    global _lifeline
    with _lifeline_lock:
        if _lifeline is None:
            _lifeline = multiprocessing.Pipe(duplex=False)
        return _lifeline[0]


def _forget_lifeline() -> None:  # pragma: no cover - runs in a forked child
    """In a forked child: close the parent's lifeline, which the parent's workers watch."""
    global _lifeline, _lifeline_lock
    _lifeline_lock = threading.Lock()
    if _lifeline is not None:
        for end in _lifeline:
            end.close()
        _lifeline = None


if hasattr(os, "register_at_fork"):  # pragma: no branch - Windows does not fork
    os.register_at_fork(after_in_child=_forget_lifeline)


def _watch(lifeline: Connection) -> None:  # pragma: no cover - runs in a worker
    """Wait for the end of the server process's lifeline, then end this worker at once."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    os._exit(1)


def _start_worker(lifeline: Connection) -> None:  # pragma: no cover - runs in a worker
    """A worker's initializer: it ends when the server process ends (see the module's
    docstring)."""
    threading.Thread(target=_watch, args=(lifeline,), name="avanti-lifeline", daemon=True).start()


def _pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """Worker processes forked from a clean server process (never from the threaded server),
    each ending when the server process does."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_worker, initargs=(_lifeline_end(),)
    )


class BotRunner:
    """Plays the bot seats of the games it is told about (see the module's docstring)."""

    def __init__(
        self, tables: Tables, changes: Changes, think_seconds: float, workers: int
    ) -> None:
        self._tables = tables
        self._changes = changes
        changes.hear(self.hear)
        self._think = think_seconds
        self._workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._tasks: anyio.abc.TaskGroup | None = None
        self._running: set[str] = set()
        self._again: set[str] = set()

    def start(self, tasks: anyio.abc.TaskGroup) -> None:
        """Run the bots in ``tasks`` (the server's lifespan task group)."""
        self._tasks = tasks

    def stop(self) -> None:
        """Forget the task group and stop the worker processes: no bot starts any more."""
        self._tasks = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def hear(self, change: Change) -> None:
        """A change this process made (:mod:`~avanti.server.table.changes`): a game that awaits a
        seat a bot plays is played."""
        if isinstance(change, Moved) and change.here:
            table = None if change.record is None else change.record.table
            if table is not None and any(table.bot(seat) for seat in change.game.waiting):
                self.kick(change.game_id)

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
        """Kick the games in the lobby that bots play (at start-up: bots that were awaited when
        a server stopped play on)."""
        try:
            games = await to_thread.run_sync(self._tables.lobby, None, limit)
        except Exception as error:  # a store that fails at start-up: people may look later
            log(logging.WARNING, "bots-resume-failed", message=str(error))
            return
        for game in games:
            if isinstance(game, dict) and game.get("bots"):
                self.kick(str(game["id"]))

    async def _run(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                try:
                    moved = await self._step(game_id)
                except ApiError as error:  # the seat changed hands, or the game moved on
                    log(logging.DEBUG, "bot-refused", game=game_id, kind=error.kind)
                    moved = error.refusal is Refusal.VERSION_CONFLICT
                except AvantiError as error:  # a bot no library knows, a game it cannot read
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

    async def choose(
        self, game_id: str, kind: str, name: str, game: AnyGame, seat: int, legal: Any
    ) -> Any:
        """The choice among ``legal`` of a bot of ``kind`` playing ``seat`` of ``game`` (the
        game ``game_id``, of the catalog's game ``name``), made in a worker process from the
        seat's view; a uniformly random one of ``legal`` when the bot takes longer than
        ``think_seconds`` (logged), or when the worker processes were lost (killed: new ones
        are started for the next choice). The clock's stand-in thinks here too."""
        if self._pool is None:
            self._pool = _pool(self._workers)
        pool = self._pool
        view = game.view(seat)
        call = functools.partial(think, kind, name, game.setup, seat, view, legal, self._think)
        try:
            future = pool.submit(call)
            command = await anyio.to_thread.run_sync(future.result)
        except concurrent.futures.process.BrokenProcessPool:
            # A worker ended abruptly (killed, out of memory): the pool takes no more work. The
            # next choice starts new workers; this one is played at random.
            log(logging.WARNING, "bot-workers-lost", game=game_id, seat=seat, bot=kind)
            if self._pool is pool:
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        else:
            if command is not None:
                return command
            log(logging.WARNING, "bot-timeout", game=game_id, seat=seat, bot=kind)
        return RandomBot().choose(view, legal, Rng(secrets.randbits(64)).stream())

    async def _step(self, game_id: str) -> bool:
        """Play one bot command if a bot is awaited; whether to look again."""
        seated = await to_thread.run_sync(self._tables.read, game_id)
        table, game = seated.table, seated.game
        if table is None or game.is_over:
            return False
        seats = [seat for seat in game.waiting if table.bot(seat)]
        if not seats:
            return False
        seat = seats[0]
        kind = table.bot(seat)
        assert kind is not None
        legal = tuple(game.legal_commands(seat))
        command = await self.choose(game_id, kind, table.game, game, seat, legal)
        data = type(game).rules.codec.command_to_data(command)
        request = CommandRequest(command=data, expected_version=game.version, bot=True)
        acted = await to_thread.run_sync(
            functools.partial(self._tables.act, game_id, request, seat=seat)
        )
        log(
            logging.DEBUG,
            "bot-command",
            game=game_id,
            seat=seat,
            bot=kind,
            version=acted.game.version,
        )
        self._changes.announce(Moved(game_id, acted.game, acted.kept))
        return True
