"""Properties of whole random games (3, 4 and 5 players, many seeds).

Players choose uniformly from ``legal_commands()`` with a seeded choice. After every event:
all 27 cards are somewhere, no two cars share a road space except the start space, nobody's
cash is negative, every figure is on the island path, and money is conserved (the log's cash
changes add up). Whole games replay, round-trip through JSON, undo and are deterministic.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import avanti
from avanti import (
    AtmWithdrawn,
    BankPaid,
    Event,
    GameEnded,
    GameState,
    Invested,
    TollPaid,
)
from tests.avanti.support import play_randomly as play


def bank_flow(event: Event) -> int:
    """Money the bank pays players (positive) or receives (negative) in ``event``."""
    if isinstance(event, BankPaid | AtmWithdrawn):
        return event.amount
    if isinstance(event, Invested):
        return -event.cost
    return 0


def check_invariants(state: GameState, start_cash: int, bank: int) -> None:
    cards = [c for hand in state.hands for c in hand] + list(state.draw) + list(state.discard)
    cards += [laid[0] for laid in state.laid if laid is not None]
    assert sorted(cards) == list(range(27))
    length = state.table.track_length
    spaces = [
        (state.marker + d) % length
        for d in state.distances
        if d > 0 or state.phase is avanti.Phase.MARKER
    ]
    if state.phase is not avanti.Phase.MARKER:
        assert len(spaces) == len(set(spaces))
        if any(d == 0 for d in state.distances):
            assert state.marker not in spaces
    assert all(cash >= 0 for cash in state.cash)
    assert all(0 <= space <= state.table.island_length for space in state.island)
    assert sum(state.cash) == start_cash + bank
    assert all(len(hand) <= 3 for hand in state.hands)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from((3, 4, 5)), st.integers(0, 2**32))
def test_random_games_end_and_keep_every_invariant(players: int, seed: int) -> None:
    game = play(players, seed)
    assert isinstance(game.events[-1], GameEnded)
    assert game.outcome is not None
    assert game.outcome.winner == game.events[-1].winner
    rules = game.rules
    state, opening = rules.start(game.setup)
    for event in opening:  # before the first deal there are no cards to count
        state = rules.evolve(state, event)
    start_cash = 5000 * players
    bank = 0
    check_invariants(state, start_cash, bank)
    for event in game.events[len(opening) :]:
        state = rules.evolve(state, event)
        bank += bank_flow(event)
        if isinstance(event, TollPaid):
            assert event.payer != event.payee
            assert event.amount > 0
        check_invariants(state, start_cash, bank)
    assert state == game.state


@settings(max_examples=15, deadline=None)
@given(st.sampled_from((3, 4, 5)), st.integers(0, 2**32))
def test_replay_json_undo_and_determinism(players: int, seed: int) -> None:
    game = play(players, seed)
    assert avanti.replay(game.setup, game.events) == game
    assert avanti.loads(avanti.dumps(game)) == game
    assert play(players, seed) == game
    rnd = random.Random(seed)
    for _ in range(5):
        cut = rnd.randrange(game.version)
        while cut > 0 and game.rules.cause(game.events[cut]) is None:
            cut -= 1
        earlier = avanti.replay(game.setup, game.events[:cut], verify=False)
        if earlier.version == 0 or game.rules.cause(game.events[cut]) is None:
            continue
        command = game.rules.cause(game.events[cut])
        assert command is not None
        later = earlier.execute(command)
        assert later.undo() == earlier
        assert later.events == game.events[: later.version]
