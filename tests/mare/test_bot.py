"""The heuristic bot and the choice M6 offers: which fish to move, or none."""

from __future__ import annotations

import itertools

import pytest

from avanti.core import Rng
from avanti.mare import (
    CAUGHT,
    PIECES,
    RULES,
    SEA,
    Fish,
    GameState,
    MoveFish,
    Options,
    Side,
    SkipMove,
    odds,
)
from avanti.mare.bots import MareBot

SIDES = (Side.FISH_FRIENDS, Side.FISHER_FANS)
DEFAULT = Options()
OWED = Options(free_fish_move_owed=True)


def offered(fish: tuple[int, ...], boat: int, seat: int, options: Options = DEFAULT) -> GameState:
    """A two-player state where ``seat`` has just rolled a free fish's colour (M6)."""
    return GameState(SIDES, options, boat, fish, seat, True, None, Rng(5))


def chosen(state: GameState) -> MoveFish | SkipMove:
    seat = state.turn
    command = MareBot(seat).choose(
        RULES.view(state, seat), RULES.legal_commands(state), Rng(0).stream()
    )
    assert isinstance(command, MoveFish | SkipMove)
    return command


def test_m6_a_fisher_fan_declines_where_it_may_and_moves_where_it_must() -> None:
    # Orange and blue on 6, yellow on 9, pink free; piece 6 is in front of the boat.
    fish = (6, 6, 9, SEA)
    assert chosen(offered(fish, boat=5, seat=1)) == SkipMove(1)
    assert isinstance(chosen(offered(fish, boat=5, seat=1, options=OWED)), MoveFish)


def test_m6_the_fisher_fans_decline_because_a_move_would_help_the_fish() -> None:
    state = offered((6, 6, 9, SEA), boat=5, seat=1)
    stay = odds(
        "closest-to-boat", state=GameState(SIDES, DEFAULT, 5, state.fish, 0, False, None, Rng(0))
    )
    for fish in (Fish.BLUE, Fish.ORANGE, Fish.YELLOW):
        places = list(state.fish)
        places[fish.slot] += 1
        after = GameState(SIDES, DEFAULT, 5, tuple(places), 0, False, None, Rng(0))
        moved = odds("closest-to-boat", state=after)
        assert moved.fish - moved.fishers > stay.fish - stay.fishers


@pytest.mark.parametrize("options", [Options(), OWED])
def test_m6_a_fish_friend_moves_the_same_fish_under_both_readings(options: Options) -> None:
    assert chosen(offered((6, 6, 9, SEA), boat=5, seat=0, options=options)) == MoveFish(
        0, Fish.YELLOW
    )


def test_m6_a_fish_friend_never_declines() -> None:
    # Every position with a free fish and a fish in the river (1771, reachable or not).
    for boat in range(PIECES):
        places = (CAUGHT, *range(boat + 1, PIECES + 1), SEA)
        for fish in itertools.combinations_with_replacement(places, 4):
            if SEA in fish and any(CAUGHT < p < SEA for p in fish):
                assert isinstance(chosen(offered(fish, boat, seat=0)), MoveFish), (boat, fish)
