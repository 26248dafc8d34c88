"""``evolve``: one event folded into a state. It trusts the event and checks nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from avanti.autorama.cards import BOOST_COST, Kind, kind_of
from avanti.autorama.events import (
    AdvisorHired,
    AdvisorPlayed,
    AdvisorsRevealed,
    BidPlaced,
    BonusReceived,
    ChecksRevealed,
    ConsultantPaid,
    DecksShuffled,
    Event,
    GameEnded,
    LawyerDiscarded,
    MechanicDeclined,
    MechanicUsed,
    OffersRevealed,
    Passed,
    VehicleBought,
    VehiclesOffered,
    VehicleSold,
    VehiclesRevealed,
    VehicleTakenBack,
)
from avanti.autorama.setup import Phase
from avanti.autorama.state import GameState, Step

__all__ = ["evolve", "next_active", "seat_with_lowest_offer"]

T = TypeVar("T")


def _put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _with(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*hand, card)))


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def next_active(active: tuple[bool, ...], seat: int) -> int:
    """The next seat clockwise after ``seat`` still in the auction (F4); ``seat`` if none is."""
    n = len(active)
    return next((seat + k) % n for k in range(1, n + 1) if k == n or active[(seat + k) % n])


def seat_with_lowest_offer(state: GameState) -> int:
    """The seat whose offered vehicle is the lowest (F16), once every offer is one vehicle."""
    return min(range(state.players), key=lambda s: min(state.offers[s] or (99,)))


def _shuffled(state: GameState, e: DecksShuffled) -> GameState:
    return attrs.evolve(
        state,
        advisor_deck=e.advisors or (),
        vehicle_deck=e.vehicles or (),
        check_deck=e.checks or (),
        removed_advisors=e.removed_advisors or (),
        removed_vehicles=e.removed_vehicles or (),
        removed_checks=e.removed_checks or (),
        rng=state.rng.advanced(),
    )


def _new_round(
    state: GameState, phase: Phase, round: int, table: tuple[int, ...], **changes: Any
) -> GameState:
    """A fresh round of ``phase`` with ``table`` face up: every per-round fact is cleared."""
    n = state.players
    return attrs.evolve(
        state,
        phase=phase,
        step=Step.OFFERING,
        round=round,
        table=tuple(sorted(table)),
        bids=(None,) * n,
        active=(phase is Phase.HIRING,) * n,
        played=(None,) * n,
        boosted=(False,) * n,
        offers=(None,) * n,
        lawyers=(None,) * n,
        revealed=False,
        mechanic=False,
        **changes,
    )


def _advisors_revealed(state: GameState, e: AdvisorsRevealed) -> GameState:
    return _new_round(
        state,
        Phase.HIRING,
        e.round,
        e.advisors,
        start=e.start,
        turn=e.start,
        advisor_deck=state.advisor_deck[len(e.advisors) :],
    )


def _bid(state: GameState, e: BidPlaced) -> GameState:
    return attrs.evolve(
        state, bids=_put(state.bids, e.seat, e.amount), turn=next_active(state.active, e.seat)
    )


def _passed(state: GameState, e: Passed) -> GameState:
    active = _put(state.active, e.seat, False)
    return attrs.evolve(state, active=active, turn=next_active(active, e.seat))


def _hired(state: GameState, e: AdvisorHired) -> GameState:
    return attrs.evolve(
        state,
        cash=_put(state.cash, e.seat, state.cash[e.seat] - e.paid),
        bids=_put(state.bids, e.seat, None),
        active=_put(state.active, e.seat, False),
        advisors=_put(state.advisors, e.seat, _with(state.advisors[e.seat], e.advisor)),
        table=_without(state.table, e.advisor),
    )


def _consultant(state: GameState, e: ConsultantPaid) -> GameState:
    cash = _put(state.cash, e.payer, state.cash[e.payer] - e.amount)
    return attrs.evolve(state, cash=_put(cash, e.seat, cash[e.seat] + e.amount))


def _vehicles_revealed(state: GameState, e: VehiclesRevealed) -> GameState:
    return _new_round(
        state,
        Phase.BUYING,
        e.round,
        e.vehicles,
        start=e.start,
        turn=e.start,
        vehicle_deck=state.vehicle_deck[len(e.vehicles) :],
    )


def _played(state: GameState, e: AdvisorPlayed) -> GameState:
    cost = BOOST_COST if e.boosted else 0
    return attrs.evolve(
        state,
        advisors=_put(state.advisors, e.seat, _without(state.advisors[e.seat], e.advisor)),
        played=_put(state.played, e.seat, e.advisor),
        boosted=_put(state.boosted, e.seat, e.boosted),
        cash=_put(state.cash, e.seat, state.cash[e.seat] - cost),
        turn=(e.seat + 1) % state.players,
    )


def _bought(state: GameState, e: VehicleBought) -> GameState:
    """F12: the advisor is kept face up or spent, by its kind."""
    kept, spent = state.kept, state.spent
    if kind_of(e.advisor).kept_after_buying:
        kept = _put(kept, e.seat, _with(kept[e.seat], e.advisor))
    else:
        spent = _with(spent, e.advisor)
    return attrs.evolve(
        state,
        vehicles=_put(state.vehicles, e.seat, _with(state.vehicles[e.seat], e.vehicle)),
        table=_without(state.table, e.vehicle),
        played=_put(state.played, e.seat, None),
        kept=kept,
        spent=spent,
        turn=None,
    )


def _bonus(state: GameState, e: BonusReceived) -> GameState:
    return attrs.evolve(state, cash=_put(state.cash, e.seat, state.cash[e.seat] + e.amount))


def _checks_revealed(state: GameState, e: ChecksRevealed) -> GameState:
    return _new_round(
        state,
        Phase.SELLING,
        e.round,
        e.checks,
        turn=None,
        check_deck=state.check_deck[len(e.checks) :],
    )


def _offered(state: GameState, e: VehiclesOffered) -> GameState:
    hand = state.vehicles[e.seat]
    for vehicle in e.vehicles or ():
        hand = _without(hand, vehicle)
    return attrs.evolve(
        state,
        vehicles=_put(state.vehicles, e.seat, hand),
        offers=_put(state.offers, e.seat, e.vehicles),
        lawyers=_put(state.lawyers, e.seat, e.lawyer),
    )


def _next_step(state: GameState) -> GameState:
    """After the reveal or a take-back: who acts next in this round of phase 3 (F15, F16)."""
    pending = [s for s in range(state.players) if len(state.offers[s] or ()) == 2]
    if pending:
        first = min(pending, key=lambda s: state.lawyers[s] or 0)
        return attrs.evolve(state, step=Step.TAKING_BACK, turn=first)
    lowest = seat_with_lowest_offer(state)
    if not state.mechanic and any(kind_of(a) is Kind.MECHANIC for a in state.kept[lowest]):
        return attrs.evolve(state, step=Step.MECHANIC, turn=lowest)
    return attrs.evolve(state, step=Step.SETTLING, turn=None)


def _revealed(state: GameState, e: OffersRevealed) -> GameState:
    return _next_step(attrs.evolve(state, offers=tuple(e.offers), revealed=True))


def _taken_back(state: GameState, e: VehicleTakenBack) -> GameState:
    offer = _without(state.offers[e.seat] or (), e.vehicle)
    return _next_step(
        attrs.evolve(
            state,
            offers=_put(state.offers, e.seat, offer),
            vehicles=_put(state.vehicles, e.seat, _with(state.vehicles[e.seat], e.vehicle)),
        )
    )


def _lawyer_discarded(state: GameState, e: LawyerDiscarded) -> GameState:
    return attrs.evolve(
        state,
        kept=_put(state.kept, e.seat, _without(state.kept[e.seat], e.lawyer)),
        spent=_with(state.spent, e.lawyer),
    )


def _mechanic_used(state: GameState, e: MechanicUsed) -> GameState:
    return attrs.evolve(
        state,
        kept=_put(state.kept, e.seat, _without(state.kept[e.seat], e.mechanic)),
        spent=_with(state.spent, e.mechanic),
        mechanic=True,
        step=Step.SETTLING,
        turn=None,
    )


def _mechanic_declined(state: GameState, e: MechanicDeclined) -> GameState:
    return attrs.evolve(state, step=Step.SETTLING, turn=None)


def _sold(state: GameState, e: VehicleSold) -> GameState:
    return attrs.evolve(
        state,
        offers=_put(state.offers, e.seat, None),
        sold=_with(state.sold, e.vehicle),
        table=_without(state.table, e.check),
        checks=_put(state.checks, e.seat, _with(state.checks[e.seat], e.check)),
    )


def _ended(state: GameState, e: GameEnded) -> GameState:
    return attrs.evolve(state, phase=Phase.OVER, turn=None)


_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    DecksShuffled: _shuffled,
    AdvisorsRevealed: _advisors_revealed,
    BidPlaced: _bid,
    Passed: _passed,
    AdvisorHired: _hired,
    ConsultantPaid: _consultant,
    VehiclesRevealed: _vehicles_revealed,
    AdvisorPlayed: _played,
    VehicleBought: _bought,
    BonusReceived: _bonus,
    ChecksRevealed: _checks_revealed,
    VehiclesOffered: _offered,
    OffersRevealed: _revealed,
    VehicleTakenBack: _taken_back,
    LawyerDiscarded: _lawyer_discarded,
    MechanicUsed: _mechanic_used,
    MechanicDeclined: _mechanic_declined,
    VehicleSold: _sold,
    GameEnded: _ended,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event`` (F1-F20). Trusts the event: it never checks, never draws."""
    return _HANDLERS[type(event)](state, event)
