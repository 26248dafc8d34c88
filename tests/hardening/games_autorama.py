"""For Sale: Autorama as a hardening spec: deck orders, removed cards and face-down offers are
hidden from every other seat (F1, F14)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import attrs
from hypothesis import strategies as st

from avanti import autorama
from avanti.autorama import (
    AdvisorHired,
    AdvisorPlayed,
    AdvisorsRevealed,
    BonusReceived,
    ChecksRevealed,
    ConsultantPaid,
    DecksShuffled,
    OffersRevealed,
    Phase,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
    VehiclesRevealed,
)
from avanti.autorama.setup import MAX_BID, starting_cash
from tests.hardening.spec import AnyGame, GameSpec

CARDS = list(range(1, 31))
"""The advisors and the vehicles: 1-30 each (F1)."""
CHECKS = sorted([0, 0] + [v for v in range(2, 16) for _ in range(2)])
"""The checks: two each of 0 and 2-15 (F1)."""
BOOST_COST = 3
"""What boosting a Fleet Manager costs (F10)."""


def start(seed: int, players: int, options: Any) -> AnyGame:
    names = [f"P{n}" for n in range(players)]
    chosen = options or autorama.Options()
    return autorama.new_game(names, seed=seed, first=seed % players, options=chosen)


def commands(game: AnyGame) -> st.SearchStrategy[Any]:
    seats = st.integers(-1, game.state.players)
    cards = st.integers(-1, 32)
    return st.one_of(
        st.builds(
            autorama.Bid,
            seats,
            st.one_of(st.integers(-1, 30), st.integers(MAX_BID - 1, MAX_BID + 2)),
        ),
        st.builds(autorama.Pass, seats),
        st.builds(autorama.PlayAdvisor, seats, cards, st.booleans()),
        st.builds(autorama.Offer, seats, st.lists(cards, max_size=3).map(tuple)),
        st.builds(
            autorama.OfferWithLawyer,
            seats,
            st.lists(cards, max_size=3).map(tuple),
            st.integers(17, 22),
        ),
        st.builds(autorama.TakeBack, seats, cards),
        st.builds(autorama.UseMechanic, seats),
        st.builds(autorama.DeclineMechanic, seats),
    )


def invariants(game: AnyGame) -> None:
    state: autorama.GameState = game.state
    phase = state.phase
    n = state.players

    def on_table(kind: Phase) -> list[int]:
        return list(state.table) if phase is kind else []

    # F1: every advisor, vehicle and check is in exactly one place.
    advisors = [
        *state.advisor_deck,
        *state.removed_advisors,
        *on_table(Phase.HIRING),
        *(a for hand in state.advisors for a in hand),
        *(a for a in state.played if a is not None),
        *(a for kept in state.kept for a in kept),
        *state.spent,
    ]
    assert sorted(advisors) == CARDS, Counter(advisors) - Counter(CARDS)
    vehicles = [
        *state.vehicle_deck,
        *state.removed_vehicles,
        *on_table(Phase.BUYING),
        *(v for hand in state.vehicles for v in hand),
        *(v for offer in state.offers if offer is not None for v in offer),
        *state.sold,
    ]
    assert sorted(vehicles) == CARDS, Counter(vehicles) - Counter(CARDS)
    checks = [
        *state.check_deck,
        *state.removed_checks,
        *on_table(Phase.SELLING),
        *(c for won in state.checks for c in won),
    ]
    assert sorted(checks) == CHECKS, Counter(checks) - Counter(CHECKS)
    # F2, F5-F7, F10, F11: cash is never negative and moves only as the log says.
    assert all(c >= 0 for c in state.cash)
    cash = [starting_cash(n)] * n
    for event in game.events:
        match event:
            case AdvisorHired(seat=seat, paid=paid):
                cash[seat] -= paid
            case ConsultantPaid(seat=seat, payer=payer, amount=amount):
                cash[payer] -= amount
                cash[seat] += amount
            case BonusReceived(seat=seat, amount=amount):
                cash[seat] += amount
            case AdvisorPlayed(seat=seat, boosted=True):
                cash[seat] -= BOOST_COST
    assert tuple(cash) == state.cash
    # F2, F11: the box's money and every bonus bound everybody's cash, so an auction lists at
    # most MAX_BID + 2 commands.
    assert sum(state.cash) <= MAX_BID
    if phase is Phase.HIRING:
        assert len(game.legal_commands()) <= MAX_BID + 2
    # The public setup holds everything but the seed (F1).
    assert game.public_setup == autorama.PublicSetup(
        players=game.setup.players,
        first=game.setup.first,
        options=game.setup.options,
        scenario=None,
    )
    for seat, bid in enumerate(state.bids):
        assert bid is None or 0 <= bid <= state.cash[seat]
    # F18, F20: the game is over exactly when every vehicle is sold, and then it has a result.
    assert (phase is Phase.OVER) == (game.outcome is not None)
    if phase is Phase.OVER:
        assert sorted(state.sold) == sorted(set(CARDS) - set(state.removed_vehicles))
    assert state.rng.draws == sum(isinstance(e, DecksShuffled) for e in game.events)


def _rest(
    order: tuple[int, ...], removed: tuple[int, ...], shown: list[int], rng: random.Random
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A deck with its unrevealed cards and its removed cards shuffled together anew."""
    assert sorted(order[: len(shown)]) == sorted(shown), "reveals come from the top (F4, F9, F14)"
    unseen = order[len(shown) :] + removed
    hidden = rng.sample(unseen, len(unseen))
    kept = len(order) - len(shown)
    return (*order[: len(shown)], *hidden[:kept]), tuple(sorted(hidden[kept:]))


def twin(game: AnyGame, seat: int | None, rng: random.Random) -> AnyGame:
    """The same game with the unrevealed deck cards and the removed cards swapped around (F1),
    and other seats' face-down offers (F14) made with other vehicles of their hands."""
    state: autorama.GameState = game.state
    events = list(game.events)
    shuffle = events[0]
    assert isinstance(shuffle, DecksShuffled)
    assert None not in attrs.astuple(shuffle, recurse=False), "the full log holds the shuffle"
    advisors = [a for e in events if isinstance(e, AdvisorsRevealed) for a in e.advisors]
    vehicles = [v for e in events if isinstance(e, VehiclesRevealed) for v in e.vehicles]
    checks = [c for e in events if isinstance(e, ChecksRevealed) for c in e.checks]
    order_a, removed_a = _rest(
        shuffle.advisors or (), shuffle.removed_advisors or (), advisors, rng
    )
    order_v, removed_v = _rest(
        shuffle.vehicles or (), shuffle.removed_vehicles or (), vehicles, rng
    )
    order_c, removed_c = _rest(shuffle.checks or (), shuffle.removed_checks or (), checks, rng)
    events[0] = DecksShuffled(order_a, order_v, order_c, removed_a, removed_v, removed_c)
    last_reveal = max(
        (i for i, e in enumerate(events) if isinstance(e, OffersRevealed)), default=-1
    )
    for index, event in enumerate(events):
        if (
            index > last_reveal
            and isinstance(event, (VehiclesOffered, VehiclesOfferedWithLawyer))
            and event.seat != seat
            and event.vehicles is not None
        ):
            hand = sorted((*state.vehicles[event.seat], *event.vehicles))
            choices = list(itertools.combinations(hand, len(event.vehicles)))
            offer = rng.choice(choices)
            events[index] = attrs.evolve(event, vehicles=offer)
    return autorama.Game.replay(game.setup, events, verify=False)


AUTORAMA = GameSpec(
    name="autorama",
    game=autorama.Game,
    start=start,
    players=(3, 6),
    commands=commands,
    invariants=invariants,
    options=st.one_of(
        st.none(), st.builds(autorama.Options, st.booleans(), st.booleans(), st.booleans())
    ),
    twin=twin,
)
