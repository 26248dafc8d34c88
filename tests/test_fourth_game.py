"""A fourth game joins by one package and one catalog entry (CONTRIBUTING.md, "Adding a game").

The toy race (``tests/toy``: the ruleset in ``__init__.py``, its bots in ``bots.py``, no terminal
drawing) is registered under the name ``toy`` and then played through the tools, which know it
only through the catalog and the protocols: the command line's ``demo``, ``simulate``,
``replay``, ``validate`` and ``play``, and the bots.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from avanti.bots import make_bot
from avanti.bots.driver import play
from avanti.bots.simulate import Plan, run
from avanti.catalog import GAMES, GameInfo, game_info, register, unregister
from avanti.cli import main
from avanti.core.bots import RandomBot
from tests import toy
from tests.toy.bots import Roller

TOY = GameInfo(
    name="toy",
    title="Toy race",
    package="tests.toy",
    min_players=1,
    max_players=4,
    default_players=("Ann", "Bob"),
)
"""The one catalog entry of the fourth game."""


@pytest.fixture
def catalog() -> Iterator[GameInfo]:
    register(TOY)
    try:
        yield TOY
    finally:
        unregister("toy")


def cli(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO(stdin))
    return code, out.getvalue()


def test_the_tools_do_not_know_the_toy_until_it_is_registered() -> None:
    assert "toy" not in GAMES
    assert cli("demo", "--game", "toy")[0] == 2  # argparse: not a choice


def test_demo_plays_the_toy_with_its_heuristic_and_saves_it(
    catalog: GameInfo, tmp_path: Path
) -> None:
    path = tmp_path / "toy.json"
    code, text = cli("demo", "--game", "toy", "--seed", "3", "--save", str(path))
    assert code == 0
    assert text.startswith("Toy race: Ann, Bob (seed 3)")
    assert "Bots: heuristic, heuristic" in text
    assert "Ann is dealt a bonus of" in text  # a demo is watched as a spectator of all
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "toy"
    game = toy.loads(path.read_text(encoding="utf-8"))
    assert game.is_over
    # The heuristic always rolls, so nobody waits, and each roll is told as it happened.
    rolls = [e for e in game.events if isinstance(e, toy.Rolled)]
    assert "waits" not in text
    assert text.count(" rolls ") == len(rolls)
    # The toy has no terminal drawing: the table is its view's fields, one per row.
    assert "positions" in text
    assert "turn" in text
    assert f"{len(rolls)} commands, {len(game.events)} events." in text


def test_demo_with_three_bots_seats_three_players(catalog: GameInfo) -> None:
    code, text = cli("demo", "--game", "toy", "--bots", "random,heuristic,random")
    assert code == 0
    assert text.startswith("Toy race: Ann, Bob, Cy (seed 7)")


def test_replay_and_validate_read_the_toy_by_its_format(catalog: GameInfo, tmp_path: Path) -> None:
    game = toy.new_game(["Ann", "Bob"], seed=5)
    game = game.execute(toy.Roll(0)).execute(toy.Wait(1)).execute(toy.Roll(0))
    path = tmp_path / "toy.json"
    path.write_text(game.dumps(), encoding="utf-8")
    code, text = cli("replay", str(path))
    assert code == 0
    assert "Toy race: Ann, Bob; 3 commands" in text
    assert "1. Ann: roll" in text
    assert "2. Bob: wait" in text
    assert "3. Ann: roll" in text
    assert "Bob waits." in text
    assert text.rstrip().endswith("The game is not over yet.")
    code, text = cli("validate", str(path))
    assert (code, text) == (0, f"{path}: a valid Toy race game, 5 events, in progress.\n")


def test_two_workers_play_the_toy_registered_in_this_process_only(catalog: GameInfo) -> None:
    # The workers start from a clean process, whose catalog holds the three built-in games
    # only: each task carries the toy's entry along.
    plan = Plan("toy", ("heuristic", "random"), 6, seed=3)
    two = run(plan, workers=2)
    assert two == run(plan, workers=1)
    assert [record.index for record in two] == list(range(6))
    assert all(len(record.winners) == 1 for record in two)  # a race has one winner


def test_simulate_reports_the_toy_from_its_outcomes(catalog: GameInfo) -> None:
    code, text = cli(
        "simulate", "--game", "toy", "--games", "20", "--bots", "heuristic,random", "--json"
    )
    assert code == 0
    report = json.loads(text)
    records = run(Plan("toy", ("heuristic", "random"), 20), workers=1)
    wins = [sum(1 for r in records if seat in r.winners) for seat in range(2)]
    assert sum(wins) == 20  # a race always has one winner
    assert [seat["wins"] for seat in report["seats"]] == wins


def test_a_person_plays_the_toy_by_notation(catalog: GameInfo) -> None:
    code, text = cli("play", "--game", "toy", "--players", "2", "--human", "0", stdin="roll\n" * 40)
    assert code == 0
    assert "  1. roll" in text
    assert "  2. wait" in text
    assert "The game is over." in text


def test_the_bots_play_the_toy_through_the_catalog(catalog: GameInfo) -> None:
    info = game_info("toy")
    game = info.new_game(info.player_names(3), seed=11)
    bots = {
        0: make_bot("heuristic", info, game.setup, 0),
        1: make_bot("random", info, game.setup, 1),
    }
    bots[2] = make_bot("random", info, game.setup, 2)
    assert isinstance(bots[0], Roller)
    assert isinstance(bots[1], RandomBot)
    steps = list(play(game, bots, seed=1))
    outcome = steps[-1].game.outcome
    assert outcome is not None
    assert outcome.winners == (outcome.winner,)
    assert outcome.returns[outcome.winner] == 1.0
    assert all(isinstance(s.command, toy.Roll) for s in steps if s.command.seat == 0)
    with pytest.raises(ValueError, match="Toy race offers no sampler"):
        make_bot("search", info, game.setup, 0)
