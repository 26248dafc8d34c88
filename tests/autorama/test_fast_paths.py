"""The ruleset's one-pass ``execute`` agrees with ``decide`` followed by ``evolve`` (F1-F20)."""

from __future__ import annotations

import random

import pytest

import avanti.autorama as autorama
from avanti.autorama.rules import RULES, decide_and_evolve


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_execute_agrees_with_decide_and_evolve(players: int) -> None:
    for seed in range(3):
        game = autorama.new_game([f"P{i}" for i in range(players)], seed=seed)
        rnd = random.Random(seed)
        while not game.is_over:
            command = rnd.choice(game.legal_commands())
            events = autorama.decide(game.state, command)
            state = game.state
            for event in events:
                state = autorama.evolve(state, event)
            assert decide_and_evolve(game.state, command) == (state, events)
            assert RULES.execute(game.state, command) == (state, events)
            game = game.execute(command)
            assert game.state == state
        assert autorama.replay(game.setup, game.events) == game
