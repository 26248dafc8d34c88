"""The fold over a log agrees with one ``evolve`` per event (M1-M9)."""

from __future__ import annotations

import random

import pytest

import avanti.mare as mare
from avanti.mare import rules


@pytest.mark.parametrize("players", [1, 3, 6])
def test_fold_agrees_with_one_evolve_per_event(players: int) -> None:
    for seed in range(5):
        game = mare.new_game([f"P{i}" for i in range(players)], seed=seed)
        rnd = random.Random(seed)
        while not game.is_over:
            game = game.execute(rnd.choice(game.legal_commands()))
        start = rules.start(game.setup)[0]
        state = start
        for event in game.events:
            state = rules.evolve(state, event)
        assert rules.fold(start, game.events) == state == game.state
