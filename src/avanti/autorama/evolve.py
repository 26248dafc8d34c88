"""``evolve``: one event folded into a state. It trusts the event and checks nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

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
    VehiclesOfferedWithLawyer,
    VehicleSold,
    VehiclesRevealed,
    VehicleTakenBack,
)
from avanti.autorama.setup import Phase
from avanti.autorama.state import Draft, GameState, StateLike, Step

__all__ = ["apply", "evolve", "fold", "next_active", "seat_with_lowest_offer"]

T = TypeVar("T")
S = TypeVar("S", GameState, Draft)


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


def seat_with_lowest_offer(state: StateLike) -> int:
    """The seat whose offered vehicle is the lowest (F16), once every offer is one vehicle."""
    return min(range(state.players), key=lambda s: min(state.offers[s] or (99,)))


def _shuffled(state: S, e: DecksShuffled) -> S:
    return state.but(
        advisor_deck=e.advisors or (),
        vehicle_deck=e.vehicles or (),
        check_deck=e.checks or (),
        removed_advisors=e.removed_advisors or (),
        removed_vehicles=e.removed_vehicles or (),
        removed_checks=e.removed_checks or (),
        rng=state.rng.advanced(),
    )


def _new_round(state: S, phase: Phase, round: int, table: tuple[int, ...], **changes: Any) -> S:
    """A fresh round of ``phase`` with ``table`` face up: every per-round fact is cleared."""
    n = state.players
    return state.but(
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


def _advisors_revealed(state: S, e: AdvisorsRevealed) -> S:
    return _new_round(
        state,
        Phase.HIRING,
        e.round,
        e.advisors,
        start=e.start,
        turn=e.start,
        advisor_deck=state.advisor_deck[len(e.advisors) :],
    )


def _bid(state: S, e: BidPlaced) -> S:
    return state.but(
        bids=_put(state.bids, e.seat, e.amount), turn=next_active(state.active, e.seat)
    )


def _passed(state: S, e: Passed) -> S:
    active = _put(state.active, e.seat, False)
    return state.but(active=active, turn=next_active(active, e.seat))


def _hired(state: S, e: AdvisorHired) -> S:
    return state.but(
        cash=_put(state.cash, e.seat, state.cash[e.seat] - e.paid),
        bids=_put(state.bids, e.seat, None),
        active=_put(state.active, e.seat, False),
        advisors=_put(state.advisors, e.seat, _with(state.advisors[e.seat], e.advisor)),
        table=_without(state.table, e.advisor),
    )


def _consultant(state: S, e: ConsultantPaid) -> S:
    cash = _put(state.cash, e.payer, state.cash[e.payer] - e.amount)
    return state.but(cash=_put(cash, e.seat, cash[e.seat] + e.amount))


def _vehicles_revealed(state: S, e: VehiclesRevealed) -> S:
    return _new_round(
        state,
        Phase.BUYING,
        e.round,
        e.vehicles,
        start=e.start,
        turn=e.start,
        vehicle_deck=state.vehicle_deck[len(e.vehicles) :],
    )


def _played(state: S, e: AdvisorPlayed) -> S:
    cost = BOOST_COST if e.boosted else 0
    return state.but(
        advisors=_put(state.advisors, e.seat, _without(state.advisors[e.seat], e.advisor)),
        played=_put(state.played, e.seat, e.advisor),
        boosted=_put(state.boosted, e.seat, e.boosted),
        cash=_put(state.cash, e.seat, state.cash[e.seat] - cost),
        turn=(e.seat + 1) % state.players,
    )


def _bought(state: S, e: VehicleBought) -> S:
    """F12: the advisor is kept face up or spent, by its kind."""
    kept, spent = state.kept, state.spent
    if kind_of(e.advisor).kept_after_buying:
        kept = _put(kept, e.seat, _with(kept[e.seat], e.advisor))
    else:
        spent = _with(spent, e.advisor)
    return state.but(
        vehicles=_put(state.vehicles, e.seat, _with(state.vehicles[e.seat], e.vehicle)),
        table=_without(state.table, e.vehicle),
        played=_put(state.played, e.seat, None),
        kept=kept,
        spent=spent,
        turn=None,
    )


def _bonus(state: S, e: BonusReceived) -> S:
    return state.but(cash=_put(state.cash, e.seat, state.cash[e.seat] + e.amount))


def _checks_revealed(state: S, e: ChecksRevealed) -> S:
    return _new_round(
        state,
        Phase.SELLING,
        e.round,
        e.checks,
        turn=None,
        check_deck=state.check_deck[len(e.checks) :],
    )


def _offered(state: S, e: VehiclesOffered | VehiclesOfferedWithLawyer) -> S:
    hand = state.vehicles[e.seat]
    for vehicle in e.vehicles or ():
        hand = _without(hand, vehicle)
    return state.but(
        vehicles=_put(state.vehicles, e.seat, hand),
        offers=_put(state.offers, e.seat, e.vehicles),
        lawyers=_put(state.lawyers, e.seat, e.lawyer),
    )


def _next_step(state: S) -> S:
    """After the reveal or a take-back: who acts next in this round of phase 3 (F15, F16)."""
    pending = [s for s in range(state.players) if len(state.offers[s] or ()) == 2]
    if pending:
        first = min(pending, key=lambda s: state.lawyers[s] or 0)
        return state.but(step=Step.TAKING_BACK, turn=first)
    lowest = seat_with_lowest_offer(state)
    if not state.mechanic and any(kind_of(a) is Kind.MECHANIC for a in state.kept[lowest]):
        return state.but(step=Step.MECHANIC, turn=lowest)
    return state.but(step=Step.SETTLING, turn=None)


def _revealed(state: S, e: OffersRevealed) -> S:
    return _next_step(state.but(offers=tuple(e.offers), revealed=True))


def _taken_back(state: S, e: VehicleTakenBack) -> S:
    offer = _without(state.offers[e.seat] or (), e.vehicle)
    return _next_step(
        state.but(
            offers=_put(state.offers, e.seat, offer),
            vehicles=_put(state.vehicles, e.seat, _with(state.vehicles[e.seat], e.vehicle)),
        )
    )


def _lawyer_discarded(state: S, e: LawyerDiscarded) -> S:
    return state.but(
        kept=_put(state.kept, e.seat, _without(state.kept[e.seat], e.lawyer)),
        spent=_with(state.spent, e.lawyer),
    )


def _mechanic_used(state: S, e: MechanicUsed) -> S:
    return state.but(
        kept=_put(state.kept, e.seat, _without(state.kept[e.seat], e.mechanic)),
        spent=_with(state.spent, e.mechanic),
        mechanic=True,
        step=Step.SETTLING,
        turn=None,
    )


def _mechanic_declined(state: S, e: MechanicDeclined) -> S:
    return state.but(step=Step.SETTLING, turn=None)


def _sold(state: S, e: VehicleSold) -> S:
    return state.but(
        offers=_put(state.offers, e.seat, None),
        sold=_with(state.sold, e.vehicle),
        table=_without(state.table, e.check),
        checks=_put(state.checks, e.seat, _with(state.checks[e.seat], e.check)),
    )


def _ended(state: S, e: GameEnded) -> S:
    return state.but(phase=Phase.OVER, turn=None)


_HANDLERS: dict[type, Callable[[Any, Any], Any]] = {
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
    VehiclesOfferedWithLawyer: _offered,
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
    result: GameState = _HANDLERS[type(event)](state, event)
    return result


def apply(draft: Draft, event: Event) -> None:
    """Fold ``event`` into ``draft`` in place: what ``evolve`` does, without a new state."""
    _HANDLERS[type(event)](draft, event)


def fold(state: GameState, events: Iterable[Event]) -> GameState:
    """The state after every event in turn, building one frozen state at the end."""
    draft: Draft | None = None
    for event in events:
        if draft is None:
            draft = Draft(state)
        _HANDLERS[type(event)](draft, event)
    return state if draft is None else draft.freeze()
