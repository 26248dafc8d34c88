"""The toy race of ``tests/toy.py`` as a hardening spec: it keeps each player's bonus secret."""

from __future__ import annotations

import random
from typing import Any

import attrs
from hypothesis import strategies as st

from tests import toy
from tests.hardening.spec import AnyGame, GameSpec


def start(seed: int, players: int, goal: Any) -> AnyGame:
    return toy.new_game([f"P{n}" for n in range(players)], seed=seed, goal=goal or 10)


def commands(game: AnyGame) -> st.SearchStrategy[Any]:
    seats = st.integers(-1, len(game.setup.players))
    return st.one_of(st.builds(toy.Roll, seats), st.builds(toy.Wait, seats))


def invariants(game: AnyGame) -> None:
    state: toy.State = game.state
    n = len(game.setup.players)
    assert len(state.positions) == len(state.bonuses) == n
    assert all(p >= 0 for p in state.positions)
    assert all(b in (0, 1, 2) for b in state.bonuses)
    assert 0 <= state.turn < n
    assert state.rng.draws == n + sum(isinstance(e, toy.Rolled) for e in game.events)
    if state.winner is not None:
        assert state.positions[state.winner] >= state.goal
        assert game.legal_commands() == ()


def twin(game: AnyGame, seat: int | None, rng: random.Random) -> AnyGame:
    """The same race with other bonuses dealt to every seat but ``seat``."""
    events = [
        attrs.evolve(e, bonus=rng.randint(0, 2))
        if isinstance(e, toy.BonusDealt) and e.seat != seat
        else e
        for e in game.events
    ]
    return toy.Game.replay(game.setup, events, verify=False)


TOY = GameSpec(
    name="toy",
    game=toy.Game,
    start=start,
    players=(1, 4),
    commands=commands,
    invariants=invariants,
    options=st.integers(1, 30),
    twin=twin,
)
