"""Phase 1, hiring advisors: one auction per round (F4-F8)."""

from __future__ import annotations

import functools

from avanti.autorama.cards import Kind, dollars, kind_of
from avanti.autorama.commands import Bid, Command, Pass
from avanti.autorama.events import AdvisorHired, BidPlaced, ConsultantPaid, Passed
from avanti.autorama.flow import Emitter
from avanti.autorama.reasons import Reason
from avanti.autorama.setup import Phase
from avanti.autorama.state import GameState
from avanti.core import CoreReason, refuse

__all__ = ["decide_bid", "decide_pass", "high_bid", "legal_hiring"]


def high_bid(state: GameState) -> int | None:
    """The highest bid of this round's auction, or ``None`` before the first bid."""
    bids = [b for b in state.bids if b is not None]
    return max(bids) if bids else None


def _lowest_legal_bid(state: GameState) -> int:
    high = high_bid(state)
    return 0 if high is None else high + 1


def _check_turn(state: GameState, command: Bid | Pass, rule: str) -> None:
    if state.phase is not Phase.HIRING:
        refuse(
            CoreReason.WRONG_PHASE,
            "advisors are auctioned only in phase 1",
            rule=rule,
            command=command,
        )
    if command.seat != state.turn:
        refuse(
            CoreReason.NOT_YOUR_TURN,
            f"it is seat {state.turn}'s turn to bid",
            rule="F4",
            command=command,
        )


def decide_bid(state: GameState, command: Bid) -> Emitter:
    """F4: a bid is your new total; it must beat the high bid and fit in your cash."""
    _check_turn(state, command, "F4")
    lowest = _lowest_legal_bid(state)
    if command.amount < lowest:
        refuse(
            Reason.BID_TOO_LOW,
            f"the bid must be at least {dollars(lowest)}",
            rule="F4",
            command=command,
        )
    cash = state.cash[command.seat]
    if command.amount > cash:
        unit = ""
        if command.amount >= 1000 and command.amount % 1000 == 0:
            thousands = command.amount // 1000
            unit = (
                f"; amounts are counted in thousands: Bid({command.seat}, {thousands}) "
                f"bids {dollars(thousands)}"
            )
        refuse(
            Reason.BID_OVER_CASH,
            f"the bid cannot exceed your cash ({dollars(cash)}){unit}",
            rule="F4",
            command=command,
        )
    em = Emitter(state)
    em.emit(BidPlaced(command.seat, command.amount))
    return em


def _hire(em: Emitter, seat: int, advisor: int, paid: int) -> None:
    """Take ``advisor`` paying ``paid`` of the bid; a Consultant then collects (F7)."""
    bid = em.state.bids[seat] or 0
    em.emit(AdvisorHired(seat, advisor, bid, paid))
    if kind_of(advisor) is Kind.CONSULTANT:
        # F7: from the player to the right, out of cash not lying in front of them as a bid.
        payer = (seat - 1) % em.state.players
        free = em.state.cash[payer] - (em.state.bids[payer] or 0)
        if free >= 1:
            em.emit(ConsultantPaid(seat, advisor, payer, 1))


def decide_pass(state: GameState, command: Pass) -> Emitter:
    """F5: take the lowest advisor, get half the bid back (all of it with a Sales Associate).

    F6: when one bidder is left, they take the last advisor and pay their whole bid; F8: they
    start the next auction.
    """
    _check_turn(state, command, "F5")
    em = Emitter(state)
    seat = command.seat
    em.emit(Passed(seat))
    lowest = state.table[0]
    bid = state.bids[seat] or 0
    paid = 0 if kind_of(lowest) is Kind.SALES_ASSOCIATE else bid - bid // 2
    _hire(em, seat, lowest, paid)
    remaining = [s for s in range(state.players) if em.state.active[s]]
    if len(remaining) == 1:
        winner = remaining[0]
        last = em.state.table[0]
        owed = em.state.bids[winner] or 0
        refunded = (
            state.options.sales_associate_refunds_winner and kind_of(last) is Kind.SALES_ASSOCIATE
        )
        _hire(em, winner, last, 0 if refunded else owed)
        em.next_advisors(winner)
    return em


def legal_hiring(state: GameState) -> tuple[Command, ...]:
    """F4, F5: the seat to act may pass or bid any amount from the lowest legal bid to its cash
    (never more than :data:`~avanti.autorama.setup.MAX_BID`, so at most ``MAX_BID + 2``
    commands)."""
    seat = state.turn
    assert seat is not None
    return _hiring_commands(seat, _lowest_legal_bid(state), state.cash[seat])


@functools.lru_cache(maxsize=1024)
def _hiring_commands(seat: int, lowest: int, highest: int) -> tuple[Command, ...]:
    """``Pass`` and every ``Bid`` from ``lowest`` to ``highest``, built once for each range:
    commands are values, and a bot asks for the same few ranges game after game.

    Small keys and values: only states of accepted setups ask, where no seat ever holds more
    than :data:`~avanti.autorama.setup.MAX_BID` (F2, F11), so an entry lists at most
    ``MAX_BID + 2`` commands."""
    return (Pass(seat), *(Bid(seat, amount) for amount in range(lowest, highest + 1)))
