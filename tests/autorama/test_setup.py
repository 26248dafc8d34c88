"""F1-F3: players, decks, removed cards, starting cash and the first start player."""

from __future__ import annotations

from collections import Counter

import pytest

from avanti.autorama import (
    AdvisorsRevealed,
    DecksShuffled,
    InvalidSetup,
    Phase,
    Scenario,
    loads,
    new_game,
)
from avanti.autorama.cards import ADVISORS, CHECKS, VEHICLES
from avanti.core import DecodeError

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


@pytest.mark.parametrize(("players", "removed"), [(3, 6), (4, 2), (5, 0), (6, 0)])
def test_f1_decks_are_shuffled_and_cards_removed_by_player_count(
    players: int, removed: int
) -> None:
    game = new_game(NAMES[:players], seed=11)
    shuffle = game.events[0]
    assert isinstance(shuffle, DecksShuffled)
    for deck, rest, gone in (
        (ADVISORS, shuffle.advisors, shuffle.removed_advisors),
        (VEHICLES, shuffle.vehicles, shuffle.removed_vehicles),
        (CHECKS, shuffle.checks, shuffle.removed_checks),
    ):
        assert rest is not None
        assert gone is not None
        assert len(gone) == removed
        assert len(rest) == 30 - removed
        assert Counter(rest) + Counter(gone) == Counter(deck)
    state = game.state
    assert len(state.advisor_deck) == 30 - removed - players
    assert len(state.table) == players
    assert game.view(0).removed == (removed, removed, removed)


def test_f1_the_check_deck_holds_two_of_each_value() -> None:
    assert Counter(CHECKS) == Counter(dict.fromkeys((0, *range(2, 16)), 2))
    assert len(CHECKS) == 30


@pytest.mark.parametrize("players", [2, 7])
def test_f1_three_to_six_players(players: int) -> None:
    with pytest.raises(InvalidSetup) as info:
        new_game(NAMES[:1] * players, seed=0)
    assert info.value.rule == "F1"


@pytest.mark.parametrize(("players", "rounds"), [(3, 8), (4, 7), (5, 6), (6, 5)])
def test_f1_rounds_per_phase_follow_the_deck(players: int, rounds: int) -> None:
    state = new_game(NAMES[:players], seed=3).state
    assert (len(state.advisor_deck) + len(state.table)) // players == rounds
    assert len(state.vehicle_deck) // players == rounds
    assert len(state.check_deck) // players == rounds


@pytest.mark.parametrize(("players", "cash"), [(3, 28), (4, 28), (5, 20), (6, 20)])
def test_f2_starting_cash(players: int, cash: int) -> None:
    game = new_game(NAMES[:players], seed=0)
    assert game.state.cash == (cash,) * players
    assert game.view(1).cash == cash
    assert game.view(None).cash is None


def test_f3_the_start_player_is_a_setup_parameter() -> None:
    game = new_game(NAMES[:4], seed=5, first=2)
    reveal = game.events[1]
    assert isinstance(reveal, AdvisorsRevealed)
    assert reveal.start == 2
    assert game.state.turn == 2
    with pytest.raises(InvalidSetup) as info:
        new_game(NAMES[:4], seed=0, first=4)
    assert info.value.rule == "F3"


def test_f3_the_same_seed_deals_the_same_game() -> None:
    assert new_game(NAMES[:3], seed=9) == new_game(NAMES[:3], seed=9)
    assert new_game(NAMES[:3], seed=9).events != new_game(NAMES[:3], seed=10).events


BUYING = {
    "phase": Phase.BUYING,
    "vehicle_deck": (1, 2, 3),
    "check_deck": (0, 2, 3),
    "advisors": ((8,), (9,), (10,)),
}


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"advisors": ((8,), (8,), (9,))}, "F1"),  # advisor 8 twice
        ({"advisors": ((8,), (), (9,))}, "F9"),  # Becky has nothing to buy with
        ({"advisors": ((8,), (9,))}, "F1"),  # a hand per seat
        ({"check_deck": (15, 15, 15)}, "F1"),  # a third check of 15
        ({"vehicle_deck": (1, 2, 31)}, "F1"),  # no vehicle 31
        ({"cash": (28, -1, 28)}, "F2"),
        ({"phase": Phase.OVER}, "F1"),
        ({"round": 0}, "F4"),
        ({"vehicle_deck": (1, 2, 3, 4)}, "F4"),  # not whole rounds
        ({"phase": Phase.SELLING}, "F9"),  # hands still hold advisors, nothing to sell
    ],
)
def test_scenario_cards_must_exist_once_and_fit_the_phases(
    change: dict[str, object], rule: str
) -> None:
    with pytest.raises(InvalidSetup) as info:
        new_game(NAMES[:3], seed=0, scenario=Scenario(**{**BUYING, **change}))  # type: ignore[arg-type]  # mixed field types on purpose
    assert info.value.rule == rule


def test_player_names_must_be_given() -> None:
    with pytest.raises(InvalidSetup) as info:
        new_game(("Ann", "", "Cy"), seed=0)
    assert info.value.rule == "F1"


def test_f1_player_names_must_differ_exactly() -> None:
    with pytest.raises(InvalidSetup, match="names must differ") as info:
        new_game(("Ann", "Bob", "Bob"), seed=0)
    assert info.value.rule == "F1"
    assert new_game(("Ann", "ann", "Bob"), seed=0).setup.players == ("Ann", "ann", "Bob")
    text = new_game(NAMES[:3], seed=0).dumps().replace('"Cy"', '"Bob"', 1)
    with pytest.raises(DecodeError, match="F1: player names must differ"):
        loads(text)  # a document read back is checked as new_game checks
