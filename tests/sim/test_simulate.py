"""The simulator: bots of one's own, batches, seeds from a sequence, resumption."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from avanti import mare
from avanti.bots.driver import play
from avanti.bots.engines import LocalEngine
from avanti.bots.kit import make_bot
from avanti.bots.seeds import bot_seed, game_seed
from avanti.bots.simulate import (
    MAX_BATCH,
    Entrant,
    GameRecord,
    Plan,
    _batch_size,
    load_bot,
    play_one,
    record_data,
    record_from_data,
    run,
    summarize,
)
from avanti.catalog import game_info
from avanti.core import Stream
from avanti.core.errors import InvalidArgument
from tests.sim.bots import CountingBot, FirstBot, LastBot

MARE = game_info("mare")


def mine(*entrants: Entrant, bots: tuple[str, ...], games: int = 12, seed: int = 5) -> Plan:
    return Plan("mare", bots, games, seed, rotate=True, entrants=entrants)


def test_a_users_bot_plays_as_if_driven_by_hand() -> None:
    plan = mine(Entrant("first", FirstBot), bots=("first", "heuristic"))
    record = play_one(plan, 1)  # rotated: the heuristic at seat 0, first at seat 1
    game: Any = mare.new_game(["Ann", "Bob"], seed=game_seed(5, 1))
    bots = {0: make_bot("heuristic", MARE, game.setup, 0), 1: FirstBot()}
    commands = 0
    for step in play(game, bots, seed=bot_seed(5, 1)):
        game, commands = step.game, commands + 1
    assert record.bots == ("heuristic", "first")
    assert record.seed == game_seed(5, 1)
    assert (record.winners, record.events, record.commands) == (
        game.outcome.winners,
        len(game.events),
        commands,
    )
    assert record.returns == game.outcome.returns


def test_a_users_bot_gives_the_same_games_on_one_and_two_workers() -> None:
    plan = mine(Entrant("first", FirstBot), Entrant("last", LastBot), bots=("first", "last"))
    one = run(plan, workers=1)
    assert one == run(plan, workers=2)
    assert [r.seed for r in one] == [game_seed(5, i) for i in range(12)]
    assert one[1].bots == ("last", "first")
    summary = summarize(plan, one)
    assert [name for name, _ in summary.bots] == ["first", "last"]
    assert sum(rate.games for _, rate in summary.bots) == 24


def test_every_form_of_a_bot_plays_the_same_games() -> None:
    def as_factory(setup: Any, seat: int) -> FirstBot:
        return FirstBot()

    forms: list[object] = [FirstBot, FirstBot(), as_factory, "tests.sim.bots:FirstBot"]
    results = {run(mine(Entrant("b", form), bots=("b", "random"))) for form in forms}
    assert len(results) == 1
    by_path = mine(bots=("tests.sim.bots:FirstBot", "random"))
    assert [r.winners for r in run(by_path)] == [r.winners for r in results.pop()]


def test_a_bot_object_is_copied_afresh_for_every_game() -> None:
    bot = CountingBot()
    plan = mine(Entrant("counting", bot), bots=("counting", "random"), games=6)
    together = run(plan, workers=1)
    assert bot.choices == 0  # the plan's own object never plays
    alone = tuple(
        run(mine(Entrant("counting", bot), bots=("counting", "random"), games=i + 1))[i]
        for i in range(6)
    )
    assert together == alone == run(plan, workers=2)


def test_a_bot_that_cannot_be_pickled_plays_on_one_worker_only() -> None:
    class Local:
        def choose(self, view: object, legal: Sequence[Any], rng: Stream) -> Any:
            return legal[0]

    plan = mine(Entrant("local", Local), bots=("local", "random"), games=2)
    assert len(run(plan, workers=1)) == 2
    with pytest.raises(InvalidArgument, match="cannot be sent to worker processes"):
        run(plan, workers=2)


def parent(_: int) -> int:
    """In a worker: the process that started it."""
    return os.getppid()


def test_workers_start_from_a_clean_process_not_as_forks_of_the_caller() -> None:
    engine = LocalEngine(2)
    try:
        parents = {engine.submit(parent, n).result(timeout=60) for n in range(4)}
    finally:
        engine.close()
    # A fork of this process (threads and all: the test runner's, a progress bar's) would name
    # it as its parent; the workers come from the server process that the pool starts instead.
    assert os.getpid() not in parents
    assert len(parents) == 1


BROKEN = "concurrent.futures.process.BrokenProcessPool: "
"""How the traceback of a broken local pool begins its last line."""


def test_a_script_without_a_main_guard_is_told_why_its_workers_broke(tmp_path: Path) -> None:
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from avanti.bots.simulate import Plan, run\n"
        'run(Plan("mare", ("random", "random"), 4), workers=2)\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    # The pool's own error, then the simulator's, raised from it; Python may warn of the broken
    # workers' leftovers after them.
    errors = [line for line in done.stderr.splitlines() if line.startswith(BROKEN)]
    assert len(errors) >= 2
    assert "if __name__" not in errors[0]
    assert 'under `if __name__ == "__main__":`' in errors[-1]


def test_bad_bots_are_refused_before_any_game() -> None:
    with pytest.raises(InvalidArgument, match="unknown bot 'lucky'; choose from random"):
        run(Plan("mare", ("random", "lucky"), 1))
    with pytest.raises(InvalidArgument, match="cannot import bot 'nowhere:Bot'"):
        run(Plan("mare", ("random", "nowhere:Bot"), 1))
    with pytest.raises(InvalidArgument, match=r"tests\.sim\.bots has no Missing"):
        load_bot("tests.sim.bots:Missing")
    with pytest.raises(InvalidArgument, match="neither a bot"):
        run(mine(Entrant("three", 3), bots=("three", "random")))
    with pytest.raises(InvalidArgument, match="which is not a bot"):
        run(mine(Entrant("none", lambda setup, seat: None), bots=("none", "random")))
    with pytest.raises(InvalidArgument, match="two entrants are called 'a'"):
        run(mine(Entrant("a", FirstBot), Entrant("a", LastBot), bots=("a", "random")))
    with pytest.raises(InvalidArgument, match="built-in name 'random'"):
        run(mine(Entrant("random", FirstBot), bots=("random",)))


def test_batches_change_nothing_but_the_number_of_tasks() -> None:
    plan = Plan("mare", ("heuristic", "random", "random"), 30, seed=9, rotate=True)
    assert run(plan, batch_size=7, workers=2) == run(plan, batch_size=1) == run(plan)
    with pytest.raises(InvalidArgument, match="at least one game"):
        run(plan, batch_size=0)


def test_a_batch_lasts_about_a_quarter_of_a_second() -> None:
    assert _batch_size(None, 1, 10_000, 2) == 1  # first, one game to time
    assert _batch_size(0.001, 1, 10_000, 2) == 8  # at most eight times the largest so far
    assert _batch_size(0.001, 100, 10_000, 2) == 250  # 0.25 s / 1 ms
    assert _batch_size(0.001, 100, 600, 2) == 150  # near the end: 600 / (2 * 2)
    assert _batch_size(1e-6, 10_000, 100_000, 2) == MAX_BATCH
    assert _batch_size(2.0, 100, 10_000, 2) == 1


def test_a_longer_run_keeps_the_games_of_a_shorter_one() -> None:
    plan = Plan("mare", ("heuristic", "random"), 20, seed=3, rotate=True)
    whole = run(plan)
    short = run(Plan("mare", ("heuristic", "random"), 8, seed=3, rotate=True))
    seen: list[GameRecord] = []
    assert run(plan, done=short, on_done=seen.append) == whole
    assert sorted(r.index for r in seen) == list(range(8, 20))
    with pytest.raises(
        InvalidArgument, match="12 finished games lie beyond the plan's 8 \\(the first is game 8\\)"
    ):
        run(Plan("mare", ("heuristic", "random"), 8, seed=3), done=whole)


def test_a_record_goes_to_json_and_back() -> None:
    record = play_one(Plan("avanti", ("heuristic", "random", "random"), 1, seed=4), 0)
    data = record_data(record)
    assert data["seed"] == game_seed(4, 0)
    assert data["bots"] == ["heuristic", "random", "random"]
    assert data["returns"] == [1.0 if s in record.winners else 0.0 for s in range(3)]
    assert set(data["counts"]) == {"runs"}
    assert record_from_data(data) == record
    with pytest.raises(InvalidArgument, match="not a game record"):
        record_from_data({**data, "seed": "7"})
