"""Scenarios (positions to start from) near real positions: a scenario is refused with
``InvalidSetup``, or it starts a game that keeps every invariant while it is played on."""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import assume, event, given
from hypothesis import strategies as st

import avanti
from avanti import Phase, autorama
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


@st.composite
def deal(draw: st.DrawFn, cards: tuple[int, ...], players: int, piles: int) -> list[list[int]]:
    """``cards`` shuffled and spread over a deck (pile 0), ``piles - 1`` piles per seat and
    the box (cards out of the game)."""
    spread: list[list[int]] = [[] for _ in range(1 + players * (piles - 1) + 1)]
    for card in draw(st.permutations(cards)):
        spread[draw(st.integers(0, len(spread) - 1))].append(card)
    return spread


@st.composite
def autorama_scenarios(draw: st.DrawFn) -> tuple[int, autorama.Scenario]:
    """Scenarios of every phase, most of them broken in some way, some of them whole."""
    n = draw(st.integers(3, 6))
    phase = draw(st.sampled_from(autorama.Phase))
    rounds = draw(st.integers(1, 3))
    advisors = draw(deal(tuple(range(1, 31)), n, 3))  # deck, hand and kept per seat, box
    vehicles = draw(deal(tuple(range(1, 31)), n, 2))
    checks = draw(deal(tuple(sorted([0, 0, *(v for v in range(2, 16) for _ in "ab")])), n, 2))
    if draw(st.booleans()):  # make the deck sizes fit whole rounds, as valid scenarios need
        for spread in (advisors, vehicles, checks):
            spread[0] = spread[0][: len(spread[0]) // n * n]
        if phase is autorama.Phase.BUYING:
            advisors[0] = []
    hands = range(1, 1 + n)
    scenario = autorama.Scenario(
        phase=phase,
        round=draw(st.integers(-1, 1 + rounds)),
        advisor_deck=tuple(advisors[0]),
        vehicle_deck=tuple(vehicles[0]),
        check_deck=tuple(checks[0]),
        cash=tuple(draw(st.lists(st.integers(-1, 40), min_size=n, max_size=n))),
        advisors=tuple(tuple(advisors[i]) for i in hands),
        vehicles=tuple(tuple(vehicles[i]) for i in hands),
        checks=tuple(tuple(checks[i]) for i in hands),
        kept=tuple(tuple(advisors[n + i]) for i in hands),
    )
    return n, scenario


@st.composite
def whole_autorama_scenarios(draw: st.DrawFn) -> tuple[int, autorama.Scenario]:
    """Scenarios that fit together: every seat holds one card per round of the next phase."""
    n = draw(st.integers(3, 6))
    phase = draw(st.sampled_from([p for p in autorama.Phase if p is not autorama.Phase.OVER]))
    more = st.integers(0, 2)
    if phase is autorama.Phase.HIRING:
        auctions, held = draw(st.integers(1, 3)), draw(more)
    else:
        auctions, held = 0, 0 if phase is autorama.Phase.SELLING else draw(st.integers(1, 3))
    sales = auctions + held if phase is not autorama.Phase.SELLING else 0
    owned = draw(more) if phase is not autorama.Phase.SELLING else draw(st.integers(1, 3))
    checks_rounds = sales + owned
    assume((auctions + held) * n <= 30 and checks_rounds * n <= 30)
    advisors = list(draw(st.permutations(range(1, 31))))
    vehicles = list(draw(st.permutations(range(1, 31))))
    checks = list(draw(st.permutations([0, 0, *(v for v in range(2, 16) for _ in "ab")])))

    def take(cards: list[int], count: int) -> tuple[int, ...]:
        taken = tuple(cards[:count])
        del cards[:count]
        return taken

    advisor_deck = take(advisors, auctions * n)
    hands = tuple(take(advisors, held) for _ in range(n))
    kept = tuple(take(advisors, draw(more)) for _ in range(n))
    vehicle_deck = take(vehicles, sales * n)
    scenario = autorama.Scenario(
        phase=phase,
        round=draw(st.integers(1, 3)),
        advisor_deck=advisor_deck,
        vehicle_deck=vehicle_deck,
        check_deck=take(checks, checks_rounds * n),
        cash=tuple(draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))),
        advisors=hands,
        vehicles=tuple(take(vehicles, owned) for _ in range(n)),
        checks=tuple(take(checks, draw(more)) for _ in range(n)),
        kept=kept,
    )
    return n, scenario


@given(data=st.data(), drawn=st.one_of(autorama_scenarios(), whole_autorama_scenarios()))
def test_an_autorama_scenario_is_refused_or_plays_to_the_end(
    data: st.DataObject, drawn: tuple[int, autorama.Scenario]
) -> None:
    n, scenario = drawn
    names = [f"P{seat}" for seat in range(n)]
    try:
        game = autorama.new_game(names, seed=1, first=n - 1, scenario=scenario)
    except autorama.InvalidSetup as error:
        refused = error
    else:
        event("played")
        assert autorama.loads(game.dumps()) == game
        for _ in range(2_000):
            legal = game.legal_commands()
            assert legal or game.is_over, "a game from a scenario must not get stuck"
            if not legal:
                break
            game = game.execute(legal[data.draw(st.integers(0, len(legal) - 1))])
        assert game.is_over
        assert autorama.replay(game.setup, game.events) == game
        return
    event("refused")
    assert refused.rule
