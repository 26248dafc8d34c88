"""Exact odds: identities, hand-computed cases, and agreement with games played by the rules."""

from __future__ import annotations

import math
import runpy
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest

from avanti.mare import (
    CAUGHT,
    POLICIES,
    SEA,
    CaughtFishRoll,
    Face,
    Fish,
    FreeFishRoll,
    GameState,
    MoveFish,
    Odds,
    Options,
    Policy,
    choose,
    execute,
    odds,
    simulate,
)

from .helpers import built

VARIANTS = (
    Options(),
    Options(caught_fish_roll=CaughtFishRoll.NOTHING),
    Options(caught_fish_roll=CaughtFishRoll.REROLL, free_fish_roll=FreeFishRoll.NOTHING),
    Options(boat_faces=(Face.RED,)),
    Options(boat_faces=()),
)


@pytest.mark.parametrize("options", VARIANTS)
@pytest.mark.parametrize("policy", POLICIES)
def test_the_chances_sum_to_one_exactly(policy: Policy, options: Options) -> None:
    o = odds(policy, options)
    assert o.fish + o.fishers + o.draw == 1
    assert all(0 <= p <= 1 for p in (o.fish, o.fishers, o.draw))
    # No game is shorter than 6 rolls: the boat needs 6 to take piece 6, a fish 6 to swim free.
    assert o.expected_rolls > 6


def test_all_fish_free_is_a_sure_win_for_the_fish() -> None:
    state = built(fish=(SEA, SEA, SEA, SEA), boat=5)
    assert odds(state=state) == Odds(F(1), F(0), F(0), F(0))


def test_a_hand_computed_one_roll_case() -> None:
    # Blue on piece 11 with piece 11 in front of the boat; orange and yellow free, pink caught.
    # Blue, orange, yellow (orange and yellow move blue, the only fish left): blue is free, 3-1.
    # Red, green, pink (caught, M7): piece 11 goes with blue, 2-2.
    state = built(fish=(11, SEA, SEA, CAUGHT), boat=10)
    for policy in POLICIES:
        assert odds(policy, state=state) == Odds(F(1, 2), F(0), F(1, 2), F(1))


def test_a_hand_computed_two_roll_case() -> None:
    # Blue on 11, piece 10 in front of the boat; orange free; yellow and pink caught.
    # Roll 1: blue or orange (2 in 6) frees blue: draw. Otherwise (4 in 6) piece 10 goes.
    # Roll 2: blue or orange (2 in 6): draw; otherwise blue is caught: fishers, 1-3.
    # Draw 2/6 + 4/6 * 2/6 = 5/9; fishers 4/6 * 4/6 = 4/9; rolls 1 + 4/6 = 5/3.
    state = built(fish=(11, SEA, CAUGHT, CAUGHT), boat=9)
    assert odds(state=state) == Odds(F(0), F(4, 9), F(5, 9), F(5, 3))


@pytest.mark.parametrize("reading", [CaughtFishRoll.NOTHING, CaughtFishRoll.REROLL])
def test_a_hand_computed_case_with_ignored_faces(reading: CaughtFishRoll) -> None:
    # As above, but yellow and pink do nothing. After piece 10 goes (red or green, 2 of the 4
    # faces that do something): draw 1/2, fishers 1/2, rolls 6/4. Before: draw (2 + 2 * 1/2)/4
    # = 3/4, fishers 1/4, rolls (6 + 2 * 3/2) / 4 = 9/4.
    options = Options(caught_fish_roll=reading)
    state = built(fish=(11, SEA, CAUGHT, CAUGHT), boat=9, options=options)
    assert odds(state=state) == Odds(F(0), F(1, 4), F(3, 4), F(9, 4))


def test_the_best_policies_are_best_for_their_side() -> None:
    for options in VARIANTS:
        margins = {p: odds(p, options).fish - odds(p, options).fishers for p in POLICIES}
        assert margins["best-for-fish"] == max(margins.values())
        assert margins["best-for-fishers"] == min(margins.values())


def test_ignoring_or_rerolling_gives_the_same_odds() -> None:
    nothing = odds(options=Options(caught_fish_roll=CaughtFishRoll.NOTHING))
    reroll = odds(options=Options(caught_fish_roll=CaughtFishRoll.REROLL))
    assert nothing == reroll


def _move_due() -> GameState:
    # Blue free; orange on 8, yellow on 10, pink caught; the boat before piece 8.
    return built(fish=(SEA, 8, 10, CAUGHT), boat=7, move_due=True)


def test_choose_follows_the_policy() -> None:
    state = _move_due()
    assert choose(state, "closest-to-boat") == MoveFish(0, Fish.ORANGE)
    assert choose(state, "closest-to-sea") == MoveFish(0, Fish.YELLOW)


@pytest.mark.parametrize("policy", ["closest-to-boat", "closest-to-sea", "best-for-fishers"])
def test_odds_with_a_move_due_are_the_odds_after_the_policys_move(policy: Policy) -> None:
    state = _move_due()
    after, _ = execute(state, choose(state, policy))
    assert odds(policy, state=state) == odds(policy, state=after)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy 'nearest'"):
        odds("nearest")  # type: ignore[arg-type]  # not a policy, on purpose
    with pytest.raises(ValueError, match="carries its own options"):
        odds(options=Options(boat_faces=()), state=built())
    with pytest.raises(ValueError, match="no MoveFish is due"):
        choose(built(), "random")


@pytest.mark.parametrize(
    ("policy", "options", "games"),
    [
        ("closest-to-boat", Options(), 2000),
        ("random", Options(), 1000),
        ("best-for-fish", Options(caught_fish_roll=CaughtFishRoll.REROLL), 1000),
    ],
)
def test_games_played_by_the_rules_agree_with_the_exact_odds(
    policy: Policy, options: Options, games: int
) -> None:
    exact = odds(policy, options)
    tally = simulate(games, policy, options, seed=20240)
    assert tally.games == tally.fish + tally.fishers + tally.draw == games
    for count, p in ((tally.fish, exact.fish), (tally.fishers, exact.fishers)):
        assert abs(count / games - float(p)) < 4 * tally.error(float(p))
    assert abs(tally.draw / games - float(exact.draw)) < 4 * tally.error(float(exact.draw))
    assert abs(tally.mean_rolls - float(exact.expected_rolls)) < 4 * tally.rolls_error


def test_the_docs_table_is_the_scripts_output() -> None:
    root = Path(__file__).resolve().parents[2]
    table: Callable[[], str] = runpy.run_path(str(root / "examples" / "mare_odds.py"))["table"]
    page = (root / "docs" / "rules" / "mare.md").read_text(encoding="utf-8")
    assert table() in page


def test_simulate_needs_a_game() -> None:
    with pytest.raises(ValueError, match="at least one game, not 0"):
        simulate(0)
    assert math.isnan(simulate(1).rolls_error)  # one game gives no spread
