"""The fast paths give exactly what the plain definitions give (DESIGN "Performance principles").

``decide`` and the fold work on a :class:`~avanti.avanti.state.Draft`; the ruleset's ``execute``
and ``fold`` skip work the core would repeat. Each must agree with ``decide`` followed by one
``evolve`` per event, on every command of many random games.
"""

from __future__ import annotations

import pickle
import random

import pytest
from attrs import fields

import avanti
from avanti import (
    Command,
    Drive,
    DrivingBegan,
    GameState,
    Invest,
    PlaceEventMarker,
    PlayCard,
    Quit,
    decide,
    evolve,
    legal_commands,
)
from avanti.avanti.decide import decide_and_evolve
from avanti.avanti.evolve import fold
from avanti.avanti.game import RULES
from avanti.avanti.legal import affordable_steps
from avanti.avanti.positions import atm_owners, clockwise, standings
from avanti.avanti.state import Draft, Phase, Table
from tests.avanti.support import NAMES


def test_a_draft_has_the_fields_of_a_state_in_order() -> None:
    assert Draft.__slots__ == tuple(a.name for a in fields(GameState))
    state = avanti.new_game(NAMES[:4], 3).state
    frozen = Draft(state).freeze()
    assert type(frozen) is GameState
    assert frozen == state
    assert frozen == GameState(*(getattr(state, a.name) for a in fields(GameState)))


def test_a_state_has_no_init_step_that_freezing_a_draft_would_skip() -> None:
    assert all(a.validator is None and a.converter is None for a in fields(GameState))
    assert not hasattr(GameState, "__attrs_post_init__")
    assert not hasattr(GameState, "__attrs_pre_init__")


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


def _built_afresh(state: GameState) -> tuple[Command, ...]:
    """The legal commands, each built on the spot in the documented order (A7, A8, A9, A22)."""
    table = state.table
    seats = range(table.players)
    if state.phase is Phase.PLANNING:
        return tuple(
            PlayCard(seat, card, number)
            for seat in seats
            if not state.quit[seat] and state.laid[seat] is None
            for card in state.hands[seat]
            for number in dict.fromkeys(table.deck.cards[card].numbers)
        )
    if state.phase is Phase.DRIVING:
        seat = state.order[state.turn]
        return (Drive(seat), Quit(seat))
    if state.phase is Phase.INVESTING:
        return tuple(
            Invest(seat, steps)
            for seat in seats
            if not state.invested[seat]
            for steps in range(affordable_steps(state, seat) + 1)
        )
    if state.phase is Phase.MARKER:
        seat = state.starting_seat
        return tuple(PlaceEventMarker(seat, space) for space in range(table.track_length))
    return ()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_shared_commands_are_the_commands_built_afresh(players: int) -> None:
    for seed in range(6):
        game = avanti.new_game(NAMES[:players], seed)
        rnd = random.Random(seed)
        while True:
            assert legal_commands(game.state) == _built_afresh(game.state)
            if game.is_over:
                break
            game = game.execute(rnd.choice(game.legal_commands()))


def test_games_on_equal_parts_share_a_table_equal_to_a_fresh_one() -> None:
    one = avanti.new_game(NAMES[:4], 1).state.table
    two = avanti.new_game(NAMES[:4], 2).state.table
    assert one is two
    fresh = Table(4, one.board, one.deck, one.options)
    for name in ("tolls", "lots", "prices", "numbers", "plays", "turns", "markers", "investments"):
        assert getattr(one, name) == getattr(fresh, name)
    assert one == fresh


def _standings_by_key(state: GameState) -> tuple[int, ...]:
    previous = {seat: place for place, seat in enumerate(state.ranking)}
    return tuple(sorted(range(state.players), key=lambda s: (-state.distances[s], previous[s])))


def _turn_order_by_search(state: GameState) -> tuple[int, ...]:
    players = state.players
    active = [seat for seat in range(players) if state.laid[seat] is not None]
    if state.round == 1:
        first = next(s for s in clockwise(state.starting_seat, players) if s in active)
    else:
        first = next(s for s in reversed(_standings_by_key(state)) if s in active)
    return tuple(s for s in clockwise(first, players) if s in active)


def _atm_owners_by_walking(state: GameState) -> tuple[tuple[int, int, int], ...]:
    """Walk from each lot, space by space, to the car that collects it (A21).

    Along the road (the default): forward to the first car. Without wrapping, a free lot whose
    first car ahead is the last car and whose first car behind is the leader pays nobody. In race
    order: list, car by car in the race, the road spaces from just past the next car's distance
    to its own (the leader one lap back for the last car, when wrapping); the first car whose
    list holds the lot collects it, unless a car stands on it.
    """
    length = state.table.track_length
    options = state.table.options
    ranked = _standings_by_key(state)
    at = {}
    for seat in reversed(ranked):
        at[state.road_space(seat)] = seat
    paid = []
    for space, amount in state.table.lots:
        owner: int | None = None
        if space in at:
            owner = at[space]
        elif options.atm_behind_in_race_order:
            far = [(state.distances[s], s) for s in ranked]
            line = [entry for i, entry in enumerate(far) if i == 0 or far[i - 1][0] != entry[0]]
            behind = [*line[1:], (line[0][0] - length, line[0][1])]
            if not options.atm_last_car_wraps:
                line = line[:-1]
            for (high, seat), (low, _) in zip(line, behind, strict=False):
                spaces = {(state.marker + d) % length for d in range(low + 1, high + 1)}
                if space in spaces:
                    owner = seat
                    break
        else:
            forward = next(at[h] for h in ((space + k) % length for k in range(length)) if h in at)
            back = next(at[h] for h in ((space - k) % length for k in range(length)) if h in at)
            last = state.road_space(ranked[-1])
            if (
                options.atm_last_car_wraps
                or state.road_space(forward) != last
                or state.road_space(back) != state.road_space(ranked[0])
            ):
                owner = forward
        if owner is not None:
            paid.append((owner, space, amount))
    return tuple(paid)


READINGS = [
    avanti.RuleOptions(),
    avanti.RuleOptions(atm_last_car_wraps=False),
    avanti.RuleOptions(atm_behind_in_race_order=True),
    avanti.RuleOptions(atm_last_car_wraps=False, atm_behind_in_race_order=True),
]


@pytest.mark.parametrize("options", READINGS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_positions_agree_with_their_definitions(players: int, options: avanti.RuleOptions) -> None:
    for seed in range(6):
        game = avanti.new_game(NAMES[:players], seed, options=options)
        rnd = random.Random(seed)
        while not game.is_over:
            state = game.state
            assert standings(state) == _standings_by_key(state)
            assert atm_owners(state) == _atm_owners_by_walking(state)
            command = rnd.choice(game.legal_commands())
            events = decide(state, command)
            if isinstance(events[-1], DrivingBegan):
                laid = evolve(state, events[0])
                assert events[-1] == DrivingBegan(_turn_order_by_search(laid))
            game = game.execute(command)


def test_a_pickled_state_carries_the_table_parts_not_its_lookups() -> None:
    game = avanti.new_game(NAMES[:4], 5)
    data = pickle.dumps(game)
    assert b"PlayCard" not in data
    again = pickle.loads(data)
    assert again == game
    assert again.state.table is game.state.table
