"""Phase 3, selling vehicles: secret offers, Lawyers, Mechanics and checks (F14-F18)."""

from __future__ import annotations

import functools
import itertools

from avanti.autorama.cards import VEHICLES, Kind, kind_of
from avanti.autorama.commands import (
    Command,
    DeclineMechanic,
    Offer,
    OfferWithLawyer,
    TakeBack,
    UseMechanic,
)
from avanti.autorama.events import (
    LawyerDiscarded,
    MechanicDeclined,
    MechanicUsed,
    OffersRevealed,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
    VehicleSold,
    VehicleTakenBack,
)
from avanti.autorama.flow import Emitter
from avanti.autorama.reasons import Reason
from avanti.autorama.setup import MAX_PLAYERS, Phase
from avanti.autorama.state import GameState, Step
from avanti.core import CoreReason, refuse

__all__ = [
    "decide_mechanic",
    "decide_offer",
    "decide_offer_with_lawyer",
    "decide_take_back",
    "lawyer_choices",
    "lawyer_for",
    "legal_selling",
]


def _lawyers(state: GameState, seat: int) -> tuple[int, ...]:
    """The Lawyers ``seat`` holds, lowest first (kept face up, F12)."""
    return tuple(a for a in state.kept[seat] if kind_of(a) is Kind.LAWYER)


def lawyer_for(state: GameState, seat: int) -> int | None:
    """The Lawyer :class:`Offer` uses for two vehicles: the seat's highest (F15), or ``None``."""
    lawyers = _lawyers(state, seat)
    return lawyers[-1] if lawyers else None


def lawyer_choices(state: GameState, seat: int) -> tuple[int, ...]:
    """The Lawyers ``seat`` may name with :class:`OfferWithLawyer` (F15), lowest first.

    Every Lawyer it holds when it holds several and the options make the choice matter: with
    ``lawyer_single_use`` the Lawyer named is the one discarded, with ``lawyer_choice`` it only
    sets the order of take-backs. Otherwise none: :class:`Offer` uses the highest.
    """
    options = state.options
    if not (options.lawyer_single_use or options.lawyer_choice):
        return ()
    lawyers = _lawyers(state, seat)
    return lawyers if len(lawyers) > 1 else ()


_WHEN = {
    Step.OFFERING: "vehicles are offered only while a round of phase 3 takes offers",
    Step.TAKING_BACK: "vehicles are taken back only after the reveal, by Lawyer users",
    Step.MECHANIC: "a Mechanic is used only after the reveal, by the lowest vehicle's owner",
}


def _in_step(state: GameState, step: Step, command: Command, rule: str) -> None:
    if state.phase is not Phase.SELLING or state.step is not step:
        refuse(CoreReason.WRONG_PHASE, _WHEN[step], rule=rule, command=command)


def _check_offer(
    state: GameState, command: Offer | OfferWithLawyer, sizes: tuple[int, ...], shape: str
) -> None:
    """F14: an offer in its step, the seat's first this round, of ``sizes`` vehicles in
    ascending order, all in the seat's hand; and a Lawyer for two (F15)."""
    _in_step(state, Step.OFFERING, command, "F14")
    seat, vehicles = command.seat, command.vehicles
    if state.offers[seat] is not None:
        refuse(
            Reason.ALREADY_OFFERED,
            "you have already offered this round",
            rule="F14",
            command=command,
        )
    if len(vehicles) not in sizes or (len(vehicles) == 2 and vehicles[0] >= vehicles[1]):
        refuse(Reason.BAD_OFFER, shape, rule="F14", command=command)
    missing = [v for v in vehicles if v not in state.vehicles[seat]]
    if missing:
        refuse(
            Reason.VEHICLE_NOT_IN_HAND,
            f"vehicle {missing[0]} is not in your hand",
            rule="F14",
            command=command,
        )
    if len(vehicles) == 2 and lawyer_for(state, seat) is None:
        refuse(
            Reason.NO_LAWYER, "offering two vehicles takes a Lawyer", rule="F15", command=command
        )


def _offered(state: GameState, event: VehiclesOffered | VehiclesOfferedWithLawyer) -> Emitter:
    """F14: record an offer; the last one in reveals them all, and the round goes on (F15-F17)."""
    em = Emitter(state)
    em.emit(event)
    offers = em.state.offers
    if all(offer is not None for offer in offers):
        em.emit(OffersRevealed(tuple(offer or () for offer in offers)))
        _settle_if_ready(em)
    return em


def decide_offer(state: GameState, command: Offer) -> Emitter:
    """F14: offer one vehicle face down, or two with the highest Lawyer (F15); all reveal
    together."""
    _check_offer(
        state, command, (1, 2), "offer one vehicle, or two different vehicles in ascending order"
    )
    seat, vehicles = command.seat, tuple(command.vehicles)
    lawyer = lawyer_for(state, seat) if len(vehicles) == 2 else None
    return _offered(state, VehiclesOffered(seat, vehicles, lawyer))


def decide_offer_with_lawyer(state: GameState, command: OfferWithLawyer) -> Emitter:
    """F15: offer two vehicles with the Lawyer the player names, where the options let a player
    holding several choose (:func:`lawyer_choices`)."""
    _check_offer(
        state,
        command,
        (2,),
        "a Lawyer is named with an offer of two different vehicles in ascending order",
    )
    seat, lawyer = command.seat, command.lawyer
    choices = lawyer_choices(state, seat)
    if not choices:
        options = state.options
        if options.lawyer_single_use or options.lawyer_choice:
            why = f"you hold one Lawyer, {lawyer_for(state, seat)}"
        else:
            why = "this game is played without lawyer_single_use or lawyer_choice"
        refuse(
            Reason.NO_LAWYER_CHOICE,
            f"{why}, so an offer of two names no Lawyer: offer {_pair(command.vehicles)}",
            rule="F15",
            command=command,
        )
    if lawyer not in choices:
        held = ", ".join(str(a) for a in choices[:-1]) + f" or {choices[-1]}"
        refuse(
            Reason.NOT_YOUR_LAWYER,
            f"you hold no Lawyer {lawyer}: name Lawyer {held}",
            rule="F15",
            command=command,
        )
    return _offered(state, VehiclesOfferedWithLawyer(seat, tuple(command.vehicles), lawyer))


def _pair(vehicles: tuple[int, ...]) -> str:
    return " and ".join(str(v) for v in vehicles)


def decide_take_back(state: GameState, command: TakeBack) -> Emitter:
    """F15: after the reveal, Lawyer users take one vehicle back, the lowest Lawyer first."""
    _in_step(state, Step.TAKING_BACK, command, "F15")
    seat = command.seat
    if seat != state.turn:
        refuse(
            CoreReason.NOT_YOUR_TURN,
            f"seat {state.turn} takes a vehicle back first (lowest Lawyer first)",
            rule="F15",
            command=command,
        )
    if command.vehicle not in (state.offers[seat] or ()):
        refuse(
            Reason.NOT_OFFERED,
            f"you did not offer vehicle {command.vehicle}",
            rule="F15",
            command=command,
        )
    em = Emitter(state)
    em.emit(VehicleTakenBack(seat, command.vehicle))
    lawyer = state.lawyers[seat]
    if state.options.lawyer_single_use and lawyer is not None:
        em.emit(LawyerDiscarded(seat, lawyer))
    _settle_if_ready(em)
    return em


def decide_mechanic(state: GameState, command: UseMechanic | DeclineMechanic) -> Emitter:
    """F16: the owner of the lowest vehicle may discard a Mechanic for the second-lowest check."""
    _in_step(state, Step.MECHANIC, command, "F16")
    seat = command.seat
    if seat != state.turn:
        refuse(
            Reason.NOT_LOWEST,
            f"only seat {state.turn}, with the lowest vehicle, may use a Mechanic",
            rule="F16",
            command=command,
        )
    em = Emitter(state)
    if isinstance(command, UseMechanic):
        mechanic = min(a for a in state.kept[seat] if kind_of(a) is Kind.MECHANIC)
        em.emit(MechanicUsed(seat, mechanic))
    else:
        em.emit(MechanicDeclined(seat))
    _settle_if_ready(em)
    return em


def _settle_if_ready(em: Emitter) -> None:
    """F17: highest vehicle takes highest check, and so on; F16 swaps the lowest two."""
    state = em.state
    if state.step is not Step.SETTLING:
        return
    offered = {s: (state.offers[s] or (0,))[0] for s in range(state.players)}
    ranking = sorted(offered, key=offered.__getitem__, reverse=True)
    checks = sorted(state.table, reverse=True)
    if state.mechanic:
        checks[-2], checks[-1] = checks[-1], checks[-2]
    for seat, check in zip(ranking, checks, strict=True):
        em.emit(VehicleSold(seat, offered[seat], check))
    em.next_checks()


_OFFERS = MAX_PLAYERS * (len(VEHICLES) + len(VEHICLES) * (len(VEHICLES) - 1) // 2)
"""How many offers there are at all (F14, F15): six seats times 30 vehicles and 435 pairs
(2790), the bound of :func:`_offer`'s cache."""


@functools.lru_cache(maxsize=4096)
def _offers(
    seat: int, hand: tuple[int, ...], pairs: bool, lawyers: tuple[int, ...]
) -> tuple[Offer | OfferWithLawyer, ...]:
    """Every single vehicle of ``hand`` offered, then every pair if ``pairs`` (F14, F15), each
    pair also with every Lawyer of ``lawyers`` named (F15); built once per hand, since commands
    are values.

    Small keys and values: only states of accepted setups ask, where a hand holds at most one
    vehicle per round of checks (at most 10, F1, F9) and a seat at most the three Lawyers, so an
    entry lists at most 10 + 45 * 4 = 190 offers."""
    singles = tuple([_offer(seat, (v,)) for v in hand])
    if not pairs:
        return singles
    offers: list[Offer | OfferWithLawyer] = list(singles)
    for pair in itertools.combinations(hand, 2):
        offers.append(_offer(seat, pair))
        offers += [OfferWithLawyer(seat, pair, lawyer) for lawyer in lawyers]
    return tuple(offers)


@functools.lru_cache(maxsize=_OFFERS)
def _offer(seat: int, vehicles: tuple[int, ...]) -> Offer:
    """One offer, built once: a hand met for the first time is mostly offers met before. Only
    :func:`_offers` asks, for the hands of accepted setups, so the cache holds real offers only."""
    return Offer(seat, vehicles)


def legal_selling(state: GameState) -> tuple[Command, ...]:
    """Every offer still open (F14, F15: each pair also with every Lawyer the seat may name),
    the take-backs (F15) or the Mechanic choice (F16)."""
    if state.step is Step.OFFERING:
        commands: list[Command] = []
        for seat in range(state.players):
            if state.offers[seat] is not None:
                continue
            commands += _offers(
                seat,
                state.vehicles[seat],
                lawyer_for(state, seat) is not None,
                lawyer_choices(state, seat),
            )
        return tuple(commands)
    actor = state.turn
    assert actor is not None
    if state.step is Step.TAKING_BACK:
        return tuple(TakeBack(actor, v) for v in state.offers[actor] or ())
    return (UseMechanic(actor), DeclineMechanic(actor))
