"""Scenarios: mid-game positions checked like a setup, and replayed like any game."""

from __future__ import annotations

from typing import Any

import pytest

import avanti
from avanti import InvalidSetup, Phase, Scenario
from tests.avanti.support import NAMES, drive_round, lay, scenario_game

BASE: dict[str, Any] = {
    "marker": 0,
    "distances": (5, 9, 2),
    "hands": ((0, 9), (1, 10), (2, 11)),
    "round": 2,
}


def attempt(players: int = 3, **changes: Any) -> InvalidSetup:
    fields = dict(BASE)
    fields.update(changes)
    with pytest.raises(InvalidSetup) as error:
        scenario_game(players, **fields)
    return error.value


def test_a_valid_scenario_starts_where_it_says() -> None:
    game = scenario_game(3, **BASE, cash=(100, 200, 300), island=(1, 2, 3))
    assert game.events == ()
    assert game.state.phase is Phase.PLANNING
    assert game.state.cash == (100, 200, 300)
    assert game.state.draw == tuple(c for c in range(27) if c not in (0, 9, 1, 10, 2, 11))
    view = game.view(0)
    assert view.hand == (0, 9)
    assert view.island == (1, 2, 3)


@pytest.mark.parametrize(
    ("changes", "words", "rule"),
    [
        ({"hands": ((0, 9), (0, 10), (2, 11))}, "card 0 appears 2 times", "A3"),
        ({"hands": ((0, 99), (1, 10), (2, 11))}, "is not in the deck", "A3"),
        ({"draw": (3, 4, 5)}, "are in no hand or pile", "A3"),
        ({"distances": (5, 5, 2)}, "share road space 5", "A4"),
        ({"distances": (34 + 5, 5, 2), "phase": Phase.DRIVING}, "share road space 5", "A4"),
        ({"distances": (0, 34, 2)}, "shares the start space", "A4"),
        ({"distances": (-1, 9, 2)}, "less than 0", "A12"),
        ({"distances": (5, 9)}, "distances has 2 entries", "A1"),
        ({"distances": (35, 9, 2)}, "reached the marker", "A18"),
        ({"marker": 34}, "marker must be on a road space 0..33", "A4"),
        ({"cash": (-100, 0, 0)}, "less than 0", "A2"),
        ({"hands": ((0, 9, 3, 4), (1, 10), (2, 11))}, "more than 3", "A13"),
        ({"island": (13, 0, 0)}, "must be on an island space 0..12", "A5"),
        ({"island": (10, 0, 0)}, "dream island", "A20"),
        ({"laid": ((3, 2), None, None)}, "not on it", "A3"),
        ({"laid": ((3, 1), None, None), "quit": (True, False, False)}, "has quit", "A14"),
        ({"phase": Phase.MARKER}, "not marker", "A7"),
        ({"phase": Phase.OVER}, "not over", "A7"),
        ({"quit": (True, True, True)}, "every player has quit", "A18"),
        ({"hands": ((), (1, 10), (2, 11))}, "seat 0 has no cards", "A8"),
        ({"laid": ((3, 1), (4, 1), (5, 1))}, "that is the driving step", "A9"),
        ({"to_act": (0,)}, "to_act belongs to the driving step", "A10"),
        ({"invested": (True, False, False)}, "invested belongs", "A22"),
        ({"phase": Phase.DRIVING}, "nobody has a laid card", "A9"),
        (
            {"phase": Phase.DRIVING, "laid": ((3, 1), None, None), "to_act": (1,)},
            "exactly those with a laid card",
            "A9",
        ),
        (
            {"phase": Phase.DRIVING, "laid": ((3, 1), None, None), "to_act": (0, 0)},
            "distinct active seats",
            "A10",
        ),
        (
            {"phase": Phase.INVESTING, "invested": (True, True, True)},
            "every player has invested",
            "A23",
        ),
        ({"phase": Phase.INVESTING, "laid": ((3, 1), None, None)}, "between runs", "A13"),
        ({"ranking": (0, 0, 1)}, "must list every seat once", "A12"),
        ({"run": 0}, "count from 1", "A8"),
    ],
)
def test_a_bad_scenario_names_what_is_wrong(changes: dict[str, Any], words: str, rule: str) -> None:
    error = attempt(**changes)
    assert words in str(error)
    assert error.rule == rule


def test_lists_make_the_same_scenario_as_tuples() -> None:
    listed = Scenario(
        marker=0,
        distances=[5, 9, 2],
        hands=[[0, 9], [1, 10], [2, 11]],
        laid=[None, [3, 1], None],
        quit=[False, False, False],
        round=2,
    )
    tupled = Scenario(**BASE, laid=(None, (3, 1), None), quit=(False, False, False))
    assert listed == tupled
    game = avanti.new_game(NAMES[:3], seed=0, scenario=listed)
    assert avanti.loads(avanti.dumps(game)) == game


def test_setup_parts_must_have_their_types() -> None:
    with pytest.raises(InvalidSetup, match=r"setup\.board must be Board, not str"):
        avanti.new_game(NAMES[:3], board="big")  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(InvalidSetup, match=r"setup\.scenario must be"):
        avanti.new_game(NAMES[:3], scenario={"marker": 0})  # type: ignore[arg-type]  # on purpose


def test_a_scenario_and_a_start_space_do_not_mix() -> None:
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(NAMES[:3], start_space=3, scenario=Scenario(**BASE))
    assert error.value.rule == "A7"


def test_driving_order_defaults_to_a10_and_may_be_given() -> None:
    laid = ((3, 1), (4, 1), (5, 1))
    game = scenario_game(3, **BASE, laid=laid, phase=Phase.DRIVING)
    assert game.state.order == (2, 0, 1)
    game = scenario_game(3, **BASE, laid=laid, phase=Phase.DRIVING, to_act=(1, 0, 2))
    assert game.legal_commands() == (avanti.Drive(1), avanti.Quit(1))


def test_a_scenario_game_replays_saves_and_undoes() -> None:
    game = scenario_game(3, **BASE)
    game = drive_round(lay(game, (0, 4), (1, 1), (2, 2)))
    assert avanti.replay(game.setup, game.events) == game
    assert avanti.loads(avanti.dumps(game)) == game
    assert game.undo().undo().undo().undo().undo() == scenario_game(3, **BASE).execute(
        avanti.PlayCard(0, 0, 4)
    )
