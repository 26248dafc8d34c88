"""The simulator's engines, plans and command line where they fail, stop or take an odd path.

The Ray engine plays on a real cluster in tests/sim/test_ray.py; here only its refusal of no
workers, which comes before ray is imported. Ctrl-C is a bot that raises ``KeyboardInterrupt``
when game 2 of a run starts, so the games finished before it are known exactly.
"""

from __future__ import annotations

import importlib
import io
import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import pytest

from avanti.bots import engines
from avanti.bots.engines import LocalEngine, RayEngine, make_engine
from avanti.bots.seeds import game_seed
from avanti.bots.simulate import Entrant, Plan, load_bot, run
from avanti.catalog import game_info
from avanti.cli import main
from avanti.cli import simulate as cli_simulate
from avanti.core import Stream
from avanti.core.errors import InvalidArgument
from tests.sim.bots import FirstBot

T = TypeVar("T")
R = TypeVar("R")

HERE = "tests.test_coverage_bots_sim"
STOP_SEED = game_seed(7, 2)
"""The seed of game 2 of a run from root seed 7: where :class:`InterruptingBot` stops a run."""


class InterruptingBot:
    """Plays the first legal command; when armed, raises ``KeyboardInterrupt`` (a Ctrl-C) as it
    is built for the game whose seed is :data:`STOP_SEED`."""

    armed = False

    def __init__(self, setup: Any, seat: int) -> None:
        if InterruptingBot.armed and setup.seed == STOP_SEED:
            raise KeyboardInterrupt

    def choose(self, view: object, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """The first legal command."""
        return legal_commands[0]


class FailingBot:
    """A bot whose every choice fails, as a buggy bot of one's own would."""

    def choose(self, view: object, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """Never a command."""
        raise RuntimeError("the bot broke")


class DyingBot:
    """A bot whose worker process dies (as one killed for lack of memory) when it must choose."""

    def choose(self, view: object, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """Never a command: the worker ends at once; in the test process it only raises."""
        if multiprocessing.parent_process() is None:
            raise RuntimeError("DyingBot plays in worker processes only")
        os._exit(1)


class CompiledBot(Exception):
    """A bot class whose signature Python cannot read, as one compiled to C (Cython, mypyc)
    would be: built on ``Exception``, it keeps what it is called with in ``args``."""

    def choose(self, view: object, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """The first legal command."""
        return legal_commands[0]


def signal_handlers(_: int) -> tuple[bool, bool]:
    """In a worker: whether it ignores SIGINT and lets SIGTERM end it."""
    return (
        signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
        signal.getsignal(signal.SIGTERM) is signal.SIG_DFL,
    )


class RecordingEngine:
    """An engine that plays in this process and records how it is closed."""

    def __init__(self, inner: engines.Engine) -> None:
        self.inner = inner
        self.closed: list[bool] = []

    @property
    def workers(self) -> int:
        """The inner engine's workers."""
        return self.inner.workers

    def submit(self, function: Callable[[T], R], argument: T) -> Future[R]:
        """Submit to the inner engine."""
        return self.inner.submit(function, argument)

    def close(self, *, cancel: bool = False) -> None:
        """Record ``cancel``, then close the inner engine."""
        self.closed.append(cancel)
        self.inner.close(cancel=cancel)


# --- the local engine ---


def test_a_task_that_fails_on_one_worker_fails_in_its_future() -> None:
    """On one worker a task's exception lands in its future; ``submit`` itself returns."""
    engine = LocalEngine(1)
    future = engine.submit(int, "seven")
    assert future.done()
    error = future.exception()
    assert isinstance(error, ValueError)
    assert "seven" in str(error)
    assert engine.submit(int, "7").result() == 7


class StubbornWorker:
    """A stand-in for a worker process: it may ignore SIGTERM, and its exit code may become
    known only after a few looks (when the pool's own thread reaps it at the same moment)."""

    def __init__(self, *, ignores_terminate: bool, late_looks: int = 0) -> None:
        self.ignores_terminate = ignores_terminate
        self.late_looks = late_looks
        self.alive = True
        self.calls: list[str] = []
        self.looks = 0

    def terminate(self) -> None:
        self.calls.append("terminate")
        if not self.ignores_terminate:
            self.alive = False

    def kill(self) -> None:
        self.calls.append("kill")
        self.alive = False

    def join(self, timeout: float | None = None) -> None:
        self.calls.append(f"join {timeout}")

    def is_alive(self) -> bool:
        return self.alive

    @property
    def exitcode(self) -> int | None:
        self.looks += 1
        if self.alive or self.looks <= self.late_looks:
            return None
        return -9 if "kill" in self.calls else -15


def test_stopping_kills_a_worker_that_outlives_terminate() -> None:
    """A worker still alive after SIGTERM and a join is killed, then joined again."""
    stubborn = StubbornWorker(ignores_terminate=True)
    gentle = StubbornWorker(ignores_terminate=False)
    engines._stop({stubborn, gentle})  # type: ignore[arg-type]
    assert stubborn.calls == ["terminate", "join 5", "kill", "join 5"]
    assert stubborn.exitcode == -9
    assert gentle.calls == ["terminate", "join 5"]
    assert gentle.exitcode == -15


def test_stopping_waits_until_a_reaped_workers_exit_code_is_known() -> None:
    """When a worker's exit code is not yet recorded after its join, ``_stop`` looks again
    until it is, so it returns with every exit code known."""
    late = StubbornWorker(ignores_terminate=False, late_looks=3)
    engines._stop({late})  # type: ignore[arg-type]
    assert late.calls == ["terminate", "join 5"]
    assert late.looks == 4  # three looks found nothing, the fourth the code
    assert late.exitcode == -15


def test_workers_leave_ctrl_c_to_the_parent_and_end_on_sigterm() -> None:
    """The pool's initializer ignores SIGINT and restores SIGTERM's default, here and in a real
    pool's workers."""
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        engines._ignore_interrupts()
        assert signal_handlers(0) == (True, True)
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])
    engine = LocalEngine(2)
    try:
        assert engine.submit(signal_handlers, 0).result(timeout=60) == (True, True)
    finally:
        engine.close()


# --- the Ray engine (played on a real cluster in tests/sim/test_ray.py) ---


def test_a_ray_engine_refuses_fewer_than_one_worker_before_touching_ray(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``workers=0`` is refused as such, even where ray is not installed."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(InvalidArgument, match="workers must be at least 1, got 0"):
        RayEngine(workers=0)


# --- plans and runs ---


def test_a_bot_name_that_is_not_a_path_is_refused_with_the_choices() -> None:
    """``load_bot`` takes only ``module:attribute``, both halves given."""
    for path in ("lucky", ":FirstBot", "tests.sim.bots:"):
        with pytest.raises(
            InvalidArgument,
            match=f"unknown bot '{path}'; choose from random, heuristic, search, "
            "or name your own as module:attribute",
        ):
            load_bot(path)
    assert load_bot("tests.sim.bots:FirstBot") is FirstBot


def test_a_bot_class_without_a_readable_signature_is_built_for_its_seat() -> None:
    """A class whose signature cannot be read is called as a factory, ``cls(setup, seat)``,
    and plays as the same bot defined in Python does."""
    setup = game_info("mare").new_game(["Ann", "Bob"], seed=3).setup
    bot = Entrant("compiled", CompiledBot).build(setup, 1)
    assert isinstance(bot, CompiledBot)
    assert bot.args == (setup, 1)
    compiled = Plan("mare", ("c", "random"), 4, seed=2, entrants=(Entrant("c", CompiledBot),))
    python = Plan("mare", ("c", "random"), 4, seed=2, entrants=(Entrant("c", FirstBot),))
    assert run(compiled) == run(python)


def test_plans_without_bots_or_with_a_ragged_or_foreign_schedule_are_refused() -> None:
    """A plan names a bot; a schedule's seatings all seat as many bots (M2: one table size),
    and only bots of the plan."""
    with pytest.raises(InvalidArgument, match="name at least one bot"):
        Plan("mare", (), 1).check()
    ragged = (("random", "heuristic"), ("random", "heuristic", "random"))
    with pytest.raises(InvalidArgument, match=r"seats as many bots, not \{2, 3\}"):
        Plan("mare", ("random", "heuristic"), 2, schedule=ragged).check()
    foreign = (("random", "heuristic"), ("heuristic", "search"))
    with pytest.raises(InvalidArgument, match="the schedule seats 'search', which is not in bots"):
        Plan("mare", ("random", "heuristic"), 2, schedule=foreign).check()
    Plan("mare", ("random", "heuristic"), 2, schedule=foreign[:1]).check()


def test_a_dead_worker_is_reported_with_the_likely_causes() -> None:
    """When a worker process dies, the run raises the pool's error with what may have killed
    it (memory, or a script without a main guard), from the pool's own error."""
    plan = Plan("mare", (f"{HERE}:DyingBot", "random"), 4, seed=1)
    with pytest.raises(BrokenProcessPool, match="out of memory") as raised:
        run(plan, workers=2)
    assert 'under `if __name__ == "__main__":`' in str(raised.value)
    assert isinstance(raised.value.__cause__, BrokenProcessPool)


def test_a_failed_game_leaves_a_callers_engine_open() -> None:
    """A bot's error ends the run with that error; an engine the caller passed is not closed
    (the caller owns it) and plays the next run as usual."""
    engine = RecordingEngine(LocalEngine(1))
    plan = Plan("mare", ("broken", "random"), 3, entrants=(Entrant("broken", FailingBot),))
    with pytest.raises(RuntimeError, match="the bot broke"):
        run(plan, engine=engine)
    assert engine.closed == []
    good = Plan("mare", ("heuristic", "random"), 2, seed=5)
    assert run(good, engine=engine) == run(good)


# --- the command line ---


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO())
    return code, out.getvalue()


def test_a_bot_module_in_the_working_folder_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``module:attribute`` bots may live in the folder the command runs in, as with
    ``python -m``: the folder is put on the import path when it is not there."""
    name = "covsim_folder_bot"
    (tmp_path / f"{name}.py").write_text(
        "class Bot:\n"
        "    def choose(self, view, legal_commands, rng):\n"
        "        return legal_commands[0]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    importlib.invalidate_caches()
    try:
        argv = ("simulate", "--game", "mare", "--bots", f"{name}:Bot,random", "--games", "3")
        code, _ = cli(*argv, "--seed", "6", "--workers", "1", "--json", "games.json")
        assert sys.path[0] == str(tmp_path)
    finally:
        sys.modules.pop(name, None)
    assert code == 0
    games = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))["games"]
    plan = Plan("mare", ("first", "random"), 3, seed=6, entrants=(Entrant("first", FirstBot),))
    assert [g["winners"] for g in games] == [list(r.winners) for r in run(plan)]


def test_resume_refuses_a_file_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--resume`` names what is wrong with the file: not JSON, not a file, no games, or a
    plan it cannot read (for simulations and tournaments alike)."""
    path = tmp_path / "run.json"
    path.write_text("{not json", encoding="utf-8")
    assert cli("simulate", "--json", str(path), "--resume")[0] == 1
    assert f"cannot resume from {path}: Expecting property name" in capsys.readouterr().err
    folder = tmp_path / "folder"
    folder.mkdir()
    assert cli("simulate", "--json", str(folder), "--resume")[0] == 1
    assert f"cannot resume from {folder}: [Errno 21] Is a directory" in capsys.readouterr().err
    head = {"format": "avanti-simulation", "version": 1}
    path.write_text(json.dumps({**head, "games": {"0": {}}}), encoding="utf-8")
    assert cli("simulate", "--json", str(path), "--resume")[0] == 1
    assert f"cannot resume from {path}: it has no list of games" in capsys.readouterr().err
    path.write_text(json.dumps({**head, "plan": {"game": "mare"}, "games": []}), "utf-8")
    assert cli("simulate", "--json", str(path), "--resume")[0] == 1
    assert f"cannot resume from {path}: a bad plan ('bots')" in capsys.readouterr().err
    plan = {"game": "mare", "bots": ["random"], "games": "many", "seed": 0, "rotate": False}
    path.write_text(json.dumps({**head, "plan": {**plan, "iterations": None}, "games": []}))
    assert cli("simulate", "--json", str(path), "--resume")[0] == 1
    assert "a bad plan (invalid literal for int() with base 10: 'many')" in (
        capsys.readouterr().err
    )
    t = {"format": "avanti-tournament", "version": 1, "tournament": {"game": "mare"}}
    path.write_text(json.dumps({**t, "games": []}), encoding="utf-8")
    assert cli("tournament", "--json", str(path), "--resume")[0] == 1
    assert f"cannot resume from {path}: a bad plan ('bots')" in capsys.readouterr().err


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[RecordingEngine]:
    """The engines the command line makes, each recording how it is closed."""
    made: list[RecordingEngine] = []

    def make(name: str, workers: int | None, address: str | None) -> RecordingEngine:
        made.append(RecordingEngine(make_engine(name, workers, address)))
        return made[-1]

    monkeypatch.setattr(cli_simulate, "make_engine", make)
    return made


def test_ctrl_c_writes_the_finished_games_and_resume_plays_the_rest(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    recorded: list[RecordingEngine],
) -> None:
    """Ctrl-C as game 2 of 4 starts: games 0 and 1 are in the file (marked incomplete), the
    message says how to go on, the engine is stopped at once, and ``--resume`` then writes the
    same file as a run never stopped."""
    path = tmp_path / "run.json"
    argv: tuple[str, ...] = (
        "simulate",
        "--game",
        "mare",
        "--bots",
        f"{HERE}:InterruptingBot,random",
    )
    argv += ("--games", "4", "--seed", "7", "--workers", "1", "--json")
    monkeypatch.setattr(InterruptingBot, "armed", True)
    assert cli(*argv, str(path))[0] == 130
    err = capsys.readouterr().err
    assert (
        f"avanti: 2 of 4 games finished; they are in {path}, and "
        f"'avanti simulate --json {path} --resume' plays the rest\n"
    ) in err
    assert err.endswith("avanti: interrupted\n")
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert kept["complete"] is False
    assert [g["index"] for g in kept["games"]] == [0, 1]
    assert kept["summary"]["games"] == 4
    assert [e.closed for e in recorded] == [[True]]
    monkeypatch.setattr(InterruptingBot, "armed", False)
    assert cli("simulate", "--json", str(path), "--resume", "--workers", "1")[0] == 0
    whole = tmp_path / "whole.json"
    assert cli(*argv, str(whole))[0] == 0
    assert path.read_bytes() == whole.read_bytes()
    assert [e.closed for e in recorded] == [[True], [False], [False]]


def test_ctrl_c_in_a_tournament_without_a_file_says_how_to_keep_the_games(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    recorded: list[RecordingEngine],
) -> None:
    """A tournament stopped by Ctrl-C with no ``--json FILE`` counts the games it finished,
    tells how to keep them next time, and stops its engine at once."""
    monkeypatch.setattr(InterruptingBot, "armed", True)
    argv = ("tournament", "--game", "mare", "--bots", f"{HERE}:InterruptingBot,random")
    code, out = cli(*argv, "--rounds", "2", "--seed", "7", "--workers", "1")
    assert code == 130
    assert out == ""
    err = capsys.readouterr().err
    assert "avanti: 2 of 4 games finished (give --json FILE to keep them)\n" in err
    assert [e.closed for e in recorded] == [[True]]


def test_a_tournament_without_a_file_prints_only_its_ratings() -> None:
    """With no ``--json``, a tournament prints its ratings and mentions no file."""
    code, text = cli("tournament", "--game", "mare", "--bots", "heuristic,random", "--seed", "2")
    assert code == 0
    assert "round-robin of 2 bots, 2 seats, 1 round, 2 games, seed 2 (local)" in text
    assert "Ratings, Elo scale" in text
    assert "written to" not in text
