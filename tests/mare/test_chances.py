"""Exact odds: identities, hand-computed cases, and agreement with games played by the rules."""

from __future__ import annotations

import itertools
import math
import runpy
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest

from avanti import core
from avanti.mare import (
    CAUGHT,
    PIECES,
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
    SkipMove,
    choose,
    execute,
    legal_commands,
    odds,
    simulate,
)

from .helpers import built

DEFAULT = Options()
OWED = Options(free_fish_move_owed=True)
VARIANTS = (
    Options(),
    OWED,
    Options(caught_fish_roll=CaughtFishRoll.NOTHING),
    Options(caught_fish_roll=CaughtFishRoll.NOTHING, free_fish_move_owed=True),
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


def test_a_hand_computed_one_roll_case_with_the_move_owed() -> None:
    # Blue on piece 11 with piece 11 in front of the boat; orange and yellow free, pink caught.
    # Blue, orange, yellow (orange and yellow move blue, the only fish left): blue is free, 3-1.
    # Red, green, pink (caught, M7): piece 11 goes with blue, 2-2.
    state = built(fish=(11, SEA, SEA, CAUGHT), boat=10, options=OWED)
    for policy in POLICIES:
        assert odds(policy, state=state) == Odds(F(1, 2), F(0), F(1, 2), F(1))


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        # Never declines: as with the move owed.
        ("closest-to-boat", Odds(F(1, 2), F(0), F(1, 2), F(1))),
        ("closest-to-sea", Odds(F(1, 2), F(0), F(1, 2), F(1))),
        # Moving blue frees it (3-1), declining risks 2-2: the fish friends never decline here.
        ("best-for-fish", Odds(F(1, 2), F(0), F(1, 2), F(1))),
        # Declines on orange and yellow, which then change nothing: blue is freed only by its
        # own face, 1 of the 4 faces that do something; red, green and pink (3 of 4) draw.
        # Rolls: 6 / 4 (each roll does something with chance 4/6).
        ("best-for-fishers", Odds(F(1, 4), F(0), F(3, 4), F(3, 2))),
        # Orange and yellow: move blue (free) or decline, each half the time. Faces that do
        # something: blue (1), red, green, pink (3), orange and yellow half each (1): 5 of 6.
        # Fish: (1 + 1) / 5; draw 3 / 5; rolls 6 / 5.
        ("random", Odds(F(2, 5), F(0), F(3, 5), F(6, 5))),
    ],
)
def test_a_hand_computed_one_roll_case_where_the_move_may_be_declined(
    policy: Policy, expected: Odds
) -> None:
    state = built(fish=(11, SEA, SEA, CAUGHT), boat=10)
    assert odds(policy, state=state) == expected


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


def _move_due(options: Options = DEFAULT) -> GameState:
    # Blue free; orange on 8, yellow on 10, pink caught; the boat before piece 8.
    return built(fish=(SEA, 8, 10, CAUGHT), boat=7, move_due=True, options=options)


@pytest.mark.parametrize("options", [Options(), OWED])
def test_choose_follows_the_policy(options: Options) -> None:
    state = _move_due(options)
    assert choose(state, "closest-to-boat") == MoveFish(0, Fish.ORANGE)
    assert choose(state, "closest-to-sea") == MoveFish(0, Fish.YELLOW)
    assert choose(state, "best-for-fish") == MoveFish(0, Fish.YELLOW)


def test_the_fishers_decline_where_they_may_and_move_where_they_must() -> None:
    assert choose(_move_due(), "best-for-fishers") == SkipMove(0)
    assert choose(_move_due(OWED), "best-for-fishers") == MoveFish(0, Fish.ORANGE)


def test_the_random_policy_declines_as_one_choice_among_the_fish() -> None:
    # Orange and yellow in the river: three choices where the move may be declined, two if owed.
    for options, count in ((Options(), 3), (OWED, 2)):
        state = _move_due(options)
        picks = {choose(state, "random", core.Rng(seed).stream()) for seed in range(60)}
        assert len(picks) == count
        assert (SkipMove(0) in picks) is not options.free_fish_move_owed


@pytest.mark.parametrize("options", [Options(), OWED])
@pytest.mark.parametrize("policy", ["closest-to-boat", "closest-to-sea", "best-for-fishers"])
def test_odds_with_a_move_due_are_the_odds_after_the_policys_move(
    policy: Policy, options: Options
) -> None:
    state = _move_due(options)
    after, _ = execute(state, choose(state, policy))
    assert odds(policy, state=state) == odds(policy, state=after)


def test_odds_with_a_move_due_under_the_random_policy_average_its_choices() -> None:
    # Orange, yellow or none, a third each (M6); the chances are the mean of the three.
    state = _move_due()
    choices = execute(state, MoveFish(0, Fish.ORANGE)), execute(state, MoveFish(0, Fish.YELLOW))
    afters = [after for after, _ in choices] + [execute(state, SkipMove(0))[0]]
    values = [odds("random", state=after) for after in afters]
    exact = odds("random", state=state)
    assert exact.fish == sum((v.fish for v in values), F(0)) / 3
    assert exact.expected_rolls == sum((v.expected_rolls for v in values), F(0)) / 3


# -- the two readings of M6 ----------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["closest-to-boat", "closest-to-sea", "best-for-fish"])
def test_policies_that_never_decline_have_the_same_odds_under_both_readings(
    policy: Policy,
) -> None:
    # best-for-fish could decline, but moving a fish toward the sea never hurts the fish friends.
    assert odds(policy) == odds(policy, OWED)


def _every_offered_move(options: Options) -> list[GameState]:
    """Every position with a free fish and a fish in the river, a move offered to seat 0 (M6)."""
    states = []
    for boat in range(PIECES):
        places = (CAUGHT, *range(boat + 1, PIECES + 1), SEA)
        for fish in itertools.combinations_with_replacement(places, 4):
            if SEA in fish and any(CAUGHT < p < SEA for p in fish):
                states.append(built(fish=fish, boat=boat, move_due=True, options=options))
    return states


def test_the_fish_friends_never_gain_by_declining_and_the_fishers_mostly_do() -> None:
    # Checked in all 1771 such positions, reachable or not.
    states = _every_offered_move(DEFAULT)
    assert len(states) == 1771
    assert not any(isinstance(choose(s, "best-for-fish"), SkipMove) for s in states)
    declined = [s for s in states if isinstance(choose(s, "best-for-fishers"), SkipMove)]
    assert len(declined) == 1705  # the others are ties: every choice gives the same odds
    for state in states:
        if state not in declined:
            afters = [execute(state, command)[0] for command in legal_commands(state)]
            chances = [odds("best-for-fishers", state=after) for after in afters]
            assert len({o.fish - o.fishers for o in chances}) == 1


def test_declining_helps_the_fishers_and_the_random_roller_declines_too() -> None:
    for policy in ("random", "best-for-fishers"):
        literal, owed = odds(policy), odds(policy, OWED)
        assert literal.fishers > owed.fishers
        assert literal.fish < owed.fish
        assert literal.expected_rolls > owed.expected_rolls  # a declined roll is one more roll


def test_fishers_who_may_decline_do_as_well_as_if_the_free_colour_did_nothing() -> None:
    # Moving a fish toward the sea never helps the fishers, so where they may, they leave every
    # fish where it is: the chances are those of a free fish's colour that does nothing (M9).
    # Only the rolls differ: where the outcome is already settled a tie goes to the move.
    literal = odds("best-for-fishers")
    ignored = odds("best-for-fishers", Options(free_fish_roll=FreeFishRoll.NOTHING))
    assert (literal.fish, literal.fishers, literal.draw) == (
        ignored.fish,
        ignored.fishers,
        ignored.draw,
    )
    assert literal.expected_rolls < ignored.expected_rolls


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
        ("random", OWED, 1000),
        ("best-for-fishers", Options(), 1000),
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
