"""One result shape for every game: ``outcome.winners`` and ``outcome.returns``.

On random finished games of each game, the shared fields must agree with the game's own detail:
Avanti's ``winner``/``ranking``/``island`` (A20, A24), Avanti mare!'s sides and result (M8), For
Sale: Autorama's scores (F19, F20). ``returns`` gives 1.0 to each winner and 0.0 to the rest.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import avanti
from avanti import autorama, mare
from avanti.bots.driver import play
from avanti.core.bots import RandomBot
from avanti.mare import Result, Side

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def finished(module: Any, players: int, seed: int) -> Any:
    """A game of ``module`` played to its end by random bots."""
    game = module.new_game(list(NAMES[:players]), seed=seed)
    bots = {seat: RandomBot() for seat in range(players)}
    for step in play(game, bots, seed=seed):
        game = step.game
    assert game.is_over
    return game.outcome


def check_shape(outcome: Any, players: int) -> None:
    assert type(outcome.winners) is tuple
    assert all(type(s) is int for s in outcome.winners)
    assert type(outcome.returns) is tuple
    assert all(type(r) is float for r in outcome.returns)
    assert len(outcome.returns) == players
    assert list(outcome.winners) == sorted(set(outcome.winners))
    assert outcome.returns == tuple(1.0 if s in outcome.winners else 0.0 for s in range(players))


@settings(max_examples=8)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32))
def test_avanti_winners_are_the_one_winner_first_in_the_ranking(players: int, seed: int) -> None:
    outcome = finished(avanti, players, seed)
    check_shape(outcome, players)
    assert outcome.winners == (outcome.winner,) == (outcome.ranking[0],)
    assert outcome.island[outcome.winner] == max(outcome.island)  # A20: furthest on the island


@settings(max_examples=25)
@given(players=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_mare_winners_are_the_seats_of_the_winning_side(players: int, seed: int) -> None:
    outcome = finished(mare, players, seed)
    game = mare.new_game(list(NAMES[:players]), seed=seed)
    check_shape(outcome, players)
    assert outcome.free + outcome.caught == 4
    if outcome.free > outcome.caught:
        assert (outcome.result, outcome.winner) == (Result.FISH, Side.FISH_FRIENDS)
    elif outcome.free < outcome.caught:
        assert (outcome.result, outcome.winner) == (Result.FISHERS, Side.FISHER_FANS)
    else:
        assert (outcome.result, outcome.winner, outcome.winners) == (Result.DRAW, None, ())
    sides = game.setup.sides
    assert outcome.winners == tuple(s for s in range(players) if sides[s] is outcome.winner)


@settings(max_examples=8)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_autorama_winners_have_the_most_money_then_the_most_cash(players: int, seed: int) -> None:
    outcome = finished(autorama, players, seed)
    check_shape(outcome, players)
    best = max((s.total, s.cash) for s in outcome.scores)
    assert outcome.winners == tuple(s.seat for s in outcome.scores if (s.total, s.cash) == best)
    assert outcome.winners  # F20: someone always wins, alone or shared
