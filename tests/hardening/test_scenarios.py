"""Scenarios (positions to start from) near real positions: a scenario is refused with
``InvalidSetup``, or it starts a game that keeps every invariant while it is played on."""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import assume, given
from hypothesis import strategies as st

import avanti
from avanti import Phase
from tests.hardening.games_avanti import AVANTI, invariants, state_invariants
from tests.hardening.spec import played

SEATS = st.integers(-1, 5)
CARDS = st.integers(-1, 27)
SMALL = st.integers(-2, 40)
FLAGS = st.lists(st.booleans(), min_size=2, max_size=6).map(tuple)


def scenario_of(state: avanti.GameState) -> avanti.Scenario | None:
    """The scenario that describes ``state`` (``None`` outside planning, driving, investing)."""
    if state.phase not in (Phase.PLANNING, Phase.DRIVING, Phase.INVESTING):
        return None
    return avanti.Scenario(
        marker=state.marker,
        distances=state.distances,
        hands=state.hands,
        cash=state.cash,
        island=state.island,
        draw=state.draw,
        discard=state.discard,
        laid=state.laid,
        quit=state.quit,
        phase=state.phase,
        to_act=state.order[state.turn :] if state.phase is Phase.DRIVING else None,
        invested=state.invested if state.phase is Phase.INVESTING else None,
        run=state.run,
        round=state.round,
        ranking=state.ranking,
    )


CHANGES: dict[str, st.SearchStrategy[Any]] = {
    "marker": SMALL,
    "distances": st.lists(SMALL, min_size=2, max_size=6).map(tuple),
    "hands": st.lists(st.lists(CARDS, max_size=4).map(tuple), min_size=2, max_size=6).map(tuple),
    "cash": st.lists(st.integers(-100, 9000), min_size=2, max_size=6).map(tuple),
    "island": st.lists(st.integers(-1, 14), min_size=2, max_size=6).map(tuple),
    "draw": st.none() | st.lists(CARDS, max_size=30).map(tuple),
    "discard": st.lists(CARDS, max_size=30).map(tuple),
    "laid": st.none()
    | st.lists(st.none() | st.tuples(CARDS, st.integers(0, 8)), min_size=2, max_size=6).map(tuple),
    "quit": st.none() | FLAGS,
    "phase": st.sampled_from(Phase),
    "to_act": st.none() | st.lists(SEATS, max_size=6).map(tuple),
    "invested": st.none() | FLAGS,
    "run": st.integers(-1, 4),
    "round": st.integers(-1, 4),
    "ranking": st.none() | st.lists(SEATS, max_size=6).map(tuple),
}


@st.composite
def near(draw: st.DrawFn, scenario: avanti.Scenario) -> avanti.Scenario:
    """``scenario`` with a few fields changed."""
    names = draw(st.lists(st.sampled_from(sorted(CHANGES)), max_size=3, unique=True))
    permute = draw(st.booleans())
    if names and permute:  # a permutation of seats or cards keeps values plausible
        name = names[0]
        value = getattr(scenario, name)
        if isinstance(value, tuple):
            changes: dict[str, Any] = {name: tuple(draw(st.permutations(value)))}
            return attrs.evolve(scenario, **changes)
    return attrs.evolve(scenario, **{name: draw(CHANGES[name]) for name in names})


@given(data=st.data())
def test_an_avanti_scenario_is_refused_or_plays_soundly(data: st.DataObject) -> None:
    game = data.draw(played(AVANTI, most=120), label="game")
    scenario = scenario_of(game.state)
    assume(scenario is not None)
    assert scenario is not None
    changed = data.draw(near(scenario), label="scenario")
    try:
        started = avanti.new_game(
            game.setup.players,
            seed=game.setup.seed,
            starting_seat=game.state.starting_seat,
            board=game.setup.board,
            options=game.setup.options,
            scenario=changed,
        )
    except avanti.InvalidSetup as error:
        refused = error
    else:
        plays_soundly(started, data)
        return
    assert refused.rule
    assert str(refused).startswith(f"{refused.rule}: ")


def plays_soundly(game: avanti.Game, data: st.DataObject) -> None:
    state_invariants(game.state)
    assert avanti.loads(game.dumps()) == game
    current = game
    for _ in range(data.draw(st.integers(0, 60), label="commands")):
        legal = current.legal_commands()
        assert legal or current.is_over, "a game from a scenario must not get stuck"
        if not legal:
            break
        current = current.execute(legal[data.draw(st.integers(0, len(legal) - 1))])
        invariants(current)
    assert avanti.replay(current.setup, current.events) == current
