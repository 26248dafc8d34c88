"""Tournaments: schedules over every seat order, and Bradley-Terry ratings checked by hand."""

from __future__ import annotations

import math

import pytest

from avanti.bots.simulate import Entrant, GameRecord, run
from avanti.bots.tournament import Tournament, fit_ratings, pair_wins
from avanti.core.errors import InvalidArgument
from tests.sim.bots import FirstBot


def record(bots: tuple[str, ...], winners: tuple[int, ...]) -> GameRecord:
    return GameRecord(0, 0, bots, winners, 0, 0, ())


def test_a_round_robin_plays_every_table_in_every_seat_order() -> None:
    three = ("a", "b", "c")
    pairs = Tournament("mare", three, seats=2)
    assert pairs.tables() == (("a", "b"), ("a", "c"), ("b", "c"))
    assert len(pairs.schedule()) == 6  # 3 tables x 2 orders
    whole = Tournament("avanti", three)  # 3 seats: one table, 3! orders
    assert len(whole.schedule()) == 6
    assert Tournament("avanti", three, rounds=4).plan().games == 24
    # Two bots at a table of three: the tables a,a,b and a,b,b, 3 orders each.
    two = Tournament("avanti", ("a", "b"), seats=3)
    assert two.tables() == (("a", "a", "b"), ("a", "b", "b"))
    assert len(two.schedule()) == 6


def test_a_gauntlet_seats_the_first_bot_at_every_table() -> None:
    gauntlet = Tournament("avanti", ("x", "a", "b", "c"), seats=3, fmt="gauntlet")
    assert gauntlet.tables() == (("x", "a", "b"), ("x", "a", "c"), ("x", "b", "c"))
    assert len(gauntlet.schedule()) == 18
    assert all("x" in seating for seating in gauntlet.schedule())


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(InvalidArgument, match="at least two bots"):
        Tournament("mare", ("a",)).schedule()
    with pytest.raises(InvalidArgument, match="name each bot once"):
        Tournament("mare", ("a", "a")).schedule()
    with pytest.raises(InvalidArgument, match="unknown format 'swiss'"):
        Tournament("mare", ("a", "b"), fmt="swiss").schedule()
    with pytest.raises(InvalidArgument, match="at least one round"):
        Tournament("mare", ("a", "b"), rounds=0).plan()
    with pytest.raises(InvalidArgument, match="at least two bots, not 1"):
        Tournament("mare", ("a", "b"), seats=1).schedule()


def test_pairs_count_each_winner_over_each_other_loser() -> None:
    games = [
        record(("a", "b", "c"), (0,)),  # a beats b and c
        record(("a", "b", "c"), (1, 2)),  # b and c share: each beats a, not each other
        record(("a", "a", "b"), (0,)),  # a beats b; a over a counts nothing
        record(("a", "b", "c"), ()),  # a draw counts nothing
    ]
    assert pair_wins(games, ["a", "b", "c"]) == ((0, 2, 1), (1, 0, 0), (1, 0, 0))


def test_two_bots_rate_as_their_win_odds_by_hand() -> None:
    # 30 wins to 10, plus the prior's drawn game (half a win each): odds 30.5 to 10.5, so the
    # gap is 400 * log10(30.5 / 10.5) = 185.2 points around 1500. The interval is 1.96 standard
    # errors: var(gap) = 1 / (n p (1 - p)) with n = 41 games and p = 30.5 / 41, a quarter of it
    # for each rating, in Elo points 400 / ln 10 per unit.
    games = [record(("a", "b"), (0,))] * 30 + [record(("b", "a"), (0,))] * 10
    best, worst = fit_ratings(games, ["b", "a"])
    assert (best.name, worst.name) == ("a", "b")
    assert best.elo == pytest.approx(1592.62, abs=0.01)
    assert worst.elo == pytest.approx(1407.38, abs=0.01)
    p = 30.5 / 41
    half = 1.959964 * 400 / math.log(10) * math.sqrt(1 / (41 * p * (1 - p)) / 4)
    assert half == pytest.approx(60.91, abs=0.01)
    assert (best.low, best.high) == pytest.approx((1592.62 - half, 1592.62 + half), abs=0.01)
    assert (best.rate.wins, best.rate.games, worst.rate.wins) == (30, 40, 10)


def test_ratings_do_not_depend_on_the_order_of_games() -> None:
    games = [record(("a", "b", "c"), (i % 3,)) for i in range(7)] + [record(("c", "b"), (0,))]
    assert fit_ratings(games, ["a", "b", "c"]) == fit_ratings(games[::-1], ["a", "b", "c"])
    no_games = fit_ratings([], ["a", "b"])
    assert [r.elo for r in no_games] == [1500.0, 1500.0]


def test_a_users_bot_plays_a_tournament() -> None:
    t = Tournament(
        "avanti",
        ("heuristic", "first", "random"),
        rounds=1,
        seed=2,
        entrants=(Entrant("first", FirstBot),),
    )
    records = run(t.plan(), workers=2)
    assert run(t.plan()) == records
    assert sorted(r.bots for r in records) == sorted(t.schedule())
    ratings = fit_ratings(records, t.bots)
    assert ratings[0].name == "heuristic"
    assert ratings[0].rate.wins == 6  # it wins every game of Avanti against these two
