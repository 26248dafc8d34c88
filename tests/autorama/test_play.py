"""Whole games played with seeded random choices among the legal commands."""

from __future__ import annotations

import pytest

from avanti.autorama import Bid, Game, Phase, execute, loads, new_game, replay
from avanti.core import Stream


def play_out(game: Game, seed: int) -> Game:
    """Play ``game`` to the end, choosing uniformly among the legal commands."""
    stream = Stream(seed, 0)
    while not game.is_over:
        game = game.execute(stream.choice(game.legal_commands()))
    return game


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_game_ends_with_a_scored_result(players: int) -> None:
    game = play_out(new_game([f"P{i}" for i in range(players)], seed=players), seed=1)
    result = game.outcome
    assert result is not None
    assert game.state.phase is Phase.OVER
    assert len(result.scores) == players
    assert result.winners
    best = max(s.total for s in result.scores)
    assert all(result.scores[w].total == best for w in result.winners)
    assert replay(game.setup, game.events) == game
    assert loads(game.dumps()) == game


def test_execute_is_the_functional_form_of_a_command() -> None:
    game = new_game(["Ann", "Bob", "Cy"], seed=2)
    state, events = execute(game.state, Bid(0, 4))
    after = game.execute(Bid(0, 4))
    assert state == after.state
    assert events == after.events[len(game.events) :]
