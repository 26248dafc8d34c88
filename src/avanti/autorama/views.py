"""What one seat may see: the only roads to a player's picture of the game and of its log.

Hidden from everyone: the order of the decks, the removed cards (F1) and the generator. Hidden
from everyone but their owner: cash (F2), advisors and vehicles in hand (F8), checks won, and a
phase 3 offer until all offers are in (F14). Others see only how many cards a player holds.
"""

from __future__ import annotations

from attrs import frozen

from avanti.autorama.events import (
    DecksShuffled,
    Event,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
)
from avanti.autorama.setup import Phase
from avanti.autorama.state import GameState, Step

__all__ = ["View", "redact", "view"]


@frozen
class View:
    """One seat's picture of the game (``seat`` is ``None`` for a spectator), F2, F8, F14.

    ``cash``, ``advisors``, ``vehicles`` and ``checks`` are the seat's own (``None`` or empty
    for a spectator). ``offers`` shows a seat's own offer, and everybody's once revealed;
    ``offered`` says who has offered. ``*_counts`` give every seat's hand sizes.
    """

    seat: int | None
    players: int
    phase: Phase
    step: Step | None
    round: int
    start: int
    turn: int | None
    table: tuple[int, ...]
    advisors_left: int
    vehicles_left: int
    checks_left: int
    removed: tuple[int, int, int]
    """How many advisors, vehicles and checks were removed (not which, F1)."""
    cash: int | None
    """The seat's own cash, in thousands (``3`` is $3,000; F2); ``None`` for a spectator."""
    advisors: tuple[int, ...]
    vehicles: tuple[int, ...]
    checks: tuple[int, ...]
    """The seat's own checks, each in thousands (``3`` is $3,000; F17)."""
    advisor_counts: tuple[int, ...]
    vehicle_counts: tuple[int, ...]
    check_counts: tuple[int, ...]
    bids: tuple[int | None, ...]
    """Each seat's bid this auction, in thousands (``3`` is $3,000; F2); ``None`` for no bid
    (F4)."""
    active: tuple[bool, ...]
    played: tuple[int | None, ...]
    boosted: tuple[bool, ...]
    kept: tuple[tuple[int, ...], ...]
    spent: tuple[int, ...]
    sold: tuple[int, ...]
    offered: tuple[bool, ...]
    offers: tuple[tuple[int, ...] | None, ...]
    lawyers: tuple[int | None, ...]

    def _repr_svg_(self) -> str:
        """The view as a picture, for notebooks (:func:`avanti.autorama.svg.picture`)."""
        from avanti.autorama.svg import picture  # here: the svg module imports this one

        return picture(self)


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see now (F2, F8, F14); ``None`` is a spectator: public facts only.

    A seat that is not at the table (``-1``, ``7``) sees what a spectator sees here;
    :meth:`Game.view <avanti.core.game.Game.view>` refuses such a seat before asking.
    """
    own = seat if type(seat) is int and 0 <= seat < state.players else None
    offers = tuple(
        offer if state.revealed or s == own else None for s, offer in enumerate(state.offers)
    )
    return View(
        seat=seat,
        players=state.players,
        phase=state.phase,
        step=state.step if state.phase is Phase.SELLING else None,
        round=state.round,
        start=state.start,
        turn=state.turn,
        table=state.table,
        advisors_left=len(state.advisor_deck),
        vehicles_left=len(state.vehicle_deck),
        checks_left=len(state.check_deck),
        removed=(
            len(state.removed_advisors),
            len(state.removed_vehicles),
            len(state.removed_checks),
        ),
        cash=state.cash[own] if own is not None else None,
        advisors=state.advisors[own] if own is not None else (),
        vehicles=state.vehicles[own] if own is not None else (),
        checks=state.checks[own] if own is not None else (),
        advisor_counts=tuple(len(hand) for hand in state.advisors),
        vehicle_counts=tuple(len(hand) for hand in state.vehicles),
        check_counts=tuple(len(hand) for hand in state.checks),
        bids=state.bids,
        active=state.active,
        played=state.played,
        boosted=state.boosted,
        kept=state.kept,
        spent=state.spent,
        sold=state.sold,
        offered=tuple(offer is not None for offer in state.offers),
        offers=offers,
        lawyers=state.lawyers,
    )


def redact(event: Event, seat: int | None) -> Event | None:
    """``event`` as ``seat`` may see it: the shuffle is wholly blank (F1), and a phase 3 offer
    shows its vehicles only to the player who made it (F14). Everything else happened openly.
    """
    if isinstance(event, DecksShuffled):
        return DecksShuffled(None, None, None, None, None, None)
    if isinstance(event, VehiclesOffered) and event.seat != seat:
        return VehiclesOffered(event.seat, None, event.lawyer)
    if isinstance(event, VehiclesOfferedWithLawyer) and event.seat != seat:
        return VehiclesOfferedWithLawyer(event.seat, None, event.lawyer)
    return event
