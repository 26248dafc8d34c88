"""Phase 2, buying vehicles: each round every player plays one advisor (F9-F13)."""

from __future__ import annotations

from avanti.autorama.cards import (
    BOOST_COST,
    GENERAL_MANAGER_BONUS,
    SALES_DIRECTOR_BONUS,
    Kind,
    boosted_value,
    kind_of,
)
from avanti.autorama.commands import Command, PlayAdvisor
from avanti.autorama.events import AdvisorPlayed, BonusReceived, VehicleBought
from avanti.autorama.flow import Emitter
from avanti.autorama.reasons import Reason
from avanti.autorama.setup import Phase
from avanti.autorama.state import GameState
from avanti.core import CoreReason, refuse

__all__ = ["decide_play", "legal_buying"]


def decide_play(state: GameState, command: PlayAdvisor) -> Emitter:
    """F9, F10: play an advisor face up, boosting a Fleet Manager for 3 if you like.

    When the last advisor is down, F11: the highest advisor takes the highest vehicle and so on
    down, Sales Directors and General Managers are paid, and F13: the player who took the highest
    vehicle starts the next round.
    """
    if state.phase is not Phase.BUYING:
        refuse(
            CoreReason.WRONG_PHASE,
            "advisors are played only in phase 2",
            rule="F9",
            command=command,
        )
    seat = command.seat
    if seat != state.turn:
        refuse(
            CoreReason.NOT_YOUR_TURN,
            f"it is seat {state.turn}'s turn to play",
            rule="F9",
            command=command,
        )
    if command.advisor not in state.advisors[seat]:
        refuse(
            Reason.ADVISOR_NOT_IN_HAND,
            f"advisor {command.advisor} is not in your hand",
            rule="F9",
            command=command,
        )
    if command.boost:
        if kind_of(command.advisor) is not Kind.FLEET_MANAGER:
            refuse(
                Reason.NOT_A_FLEET_MANAGER,
                f"only a Fleet Manager can be boosted, not advisor {command.advisor}",
                rule="F10",
                command=command,
            )
        if state.cash[seat] < BOOST_COST:
            refuse(
                Reason.BOOST_UNAFFORDABLE,
                "a boost costs $3,000 in cash",
                rule="F10",
                command=command,
            )
    em = Emitter(state)
    em.emit(AdvisorPlayed(seat, command.advisor, command.boost))
    if all(advisor is not None for advisor in em.state.played):
        _buy(em)
    return em


def _buy(em: Emitter) -> None:
    """F11: hand out the vehicles by advisor value, then pay Sales Directors and GMs."""
    state = em.state
    played = {s: a for s, a in enumerate(state.played) if a is not None}

    def value(seat: int) -> int:
        advisor = played[seat]
        return boosted_value(advisor) if state.boosted[seat] else advisor

    ranking = sorted(played, key=value, reverse=True)
    vehicles = sorted(state.table, reverse=True)
    top = vehicles[0]
    for seat, vehicle in zip(ranking, vehicles, strict=True):
        advisor = played[seat]
        em.emit(VehicleBought(seat, vehicle, advisor))
        kind = kind_of(advisor)
        if kind is Kind.SALES_DIRECTOR and vehicle >= advisor:
            em.emit(BonusReceived(seat, advisor, SALES_DIRECTOR_BONUS))
        elif kind is Kind.GENERAL_MANAGER and vehicle != top:
            em.emit(BonusReceived(seat, advisor, GENERAL_MANAGER_BONUS))
    em.next_vehicles(ranking[0])


def legal_buying(state: GameState) -> tuple[Command, ...]:
    """F9, F10: every advisor in hand, and a boosted play of each Fleet Manager if affordable."""
    seat = state.turn
    assert seat is not None
    commands: list[Command] = []
    for advisor in state.advisors[seat]:
        commands.append(PlayAdvisor(seat, advisor))
        if kind_of(advisor) is Kind.FLEET_MANAGER and state.cash[seat] >= BOOST_COST:
            commands.append(PlayAdvisor(seat, advisor, boost=True))
    return tuple(commands)
