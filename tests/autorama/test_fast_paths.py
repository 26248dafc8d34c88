"""The ruleset's one-pass ``execute`` agrees with ``decide`` followed by ``evolve`` (F1-F20)."""

from __future__ import annotations

import random

import pytest
from attrs import fields

import avanti.autorama as autorama
from avanti.autorama.evolve import fold
from avanti.autorama.game import RULES
from avanti.autorama.rules import execute as decide_and_evolve
from avanti.autorama.state import Draft, GameState


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


def test_a_draft_has_the_fields_of_a_state_and_freezes_back() -> None:
    assert Draft.__slots__ == tuple(a.name for a in fields(GameState))
    state = autorama.new_game(["A", "B", "C", "D"], seed=1).state
    assert Draft(state).freeze() == state


@pytest.mark.parametrize("players", [3, 6])
def test_fold_agrees_with_one_evolve_per_event(players: int) -> None:
    for seed in range(3):
        game = autorama.new_game([f"P{i}" for i in range(players)], seed=seed)
        rnd = random.Random(seed)
        while not game.is_over:
            game = game.execute(rnd.choice(game.legal_commands()))
        start = RULES.start(game.setup)[0]
        state = start
        for event in game.events:
            state = autorama.evolve(state, event)
        assert fold(start, game.events) == state == game.state
        assert fold(state, ()) is state
