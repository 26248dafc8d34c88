"""The fast paths give exactly what the plain definitions give (DESIGN "Performance principles").

``decide`` and the fold work on a :class:`~avanti.game.state.Draft`; the ruleset's ``execute``
and ``fold`` skip work the core would repeat. Each must agree with ``decide`` followed by one
``evolve`` per event, on every command of many random games.
"""

from __future__ import annotations

import random

import pytest
from attrs import fields

import avanti
from avanti import GameState, decide, evolve
from avanti.game.decide import decide_and_evolve
from avanti.game.evolve import fold
from avanti.game.rules import RULES
from avanti.game.state import Draft
from tests.avanti.support import NAMES


def test_a_draft_has_the_fields_of_a_state_in_order() -> None:
    assert Draft.__slots__ == tuple(a.name for a in fields(GameState))
    state = avanti.new_game(NAMES[:4], 3).state
    assert Draft(state).freeze() == state


def _one_by_one(state: GameState, events: tuple[avanti.Event, ...]) -> GameState:
    for event in events:
        state = evolve(state, event)
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_execute_and_fold_agree_with_decide_and_evolve(players: int) -> None:
    for seed in range(4):
        game = avanti.new_game(NAMES[:players], seed)
        start = RULES.start(game.setup)[0]
        assert fold(start, game.events) == _one_by_one(start, game.events) == game.state
        rnd = random.Random(seed)
        while not game.is_over:
            command = rnd.choice(game.legal_commands())
            events = decide(game.state, command)
            after, caused = decide_and_evolve(game.state, command)
            assert caused == events
            assert after == _one_by_one(game.state, events) == fold(game.state, events)
            assert RULES.execute(game.state, command) == (after, events)
            game = game.execute(command)
            assert game.state == after
        assert fold(start, game.events) == game.state
        assert avanti.replay(game.setup, game.events, verify=False) == game


def test_fold_of_no_events_is_the_same_state() -> None:
    state = avanti.new_game(NAMES[:3], 1).state
    assert fold(state, ()) is state
