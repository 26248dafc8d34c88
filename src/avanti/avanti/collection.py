"""After every round: the leader collects (A15-A17), then the run ends (A18) or goes on (A8)."""

from __future__ import annotations

from avanti.avanti.events import (
    BankPaid,
    BankPayment,
    FigureRetreated,
    PlayerQuit,
    QuitReason,
    RoundStarted,
    TollPaid,
)
from avanti.avanti.evolve import Log
from avanti.avanti.positions import standings
from avanti.avanti.runend import end_run
from avanti.avanti.state import StateLike

__all__ = ["after_round", "pay", "run_is_over", "start_round"]


def after_round(log: Log) -> None:
    """Every active player has acted: collect, then end the run or begin the next round."""
    collect(log)
    if run_is_over(log.state):
        end_run(log)
    else:
        start_round(log)


def collect(log: Log) -> None:
    """The leader collects from every other player the toll beside that player's car (A15).

    Payments go in seat order from the seat after the leader; a car on a parking lot pays
    nothing, and the leader's own space does not matter. Quitters pay and collect too (A14).
    """
    state = log.state
    tolls = state.table.tolls
    leader = standings(state)[0]
    debts = [(seat, tolls[state.road_space(seat)]) for seat in state.table.rotations[leader][1:]]
    for seat, toll in debts:
        if toll > 0:
            pay(log, seat, leader, toll)


def pay(log: Log, debtor: int, creditor: int, amount: int) -> None:
    """``debtor`` pays ``amount`` to ``creditor``, procuring money if short (A17).

    While short, the debtor's figure steps back one island space at a time and the bank pays
    half the price of each space left (rounded down; 0 for an unpriced space). Back on island
    space 0 and still short, the debtor pays all they have and the bank pays the rest. Surplus
    from the retreat stays with the debtor.
    """
    state = log.state
    prices = state.table.prices
    cash = state.cash[debtor]
    at = state.island[debtor]
    while cash < amount and at > 0:
        log.add(FigureRetreated(debtor, at, at - 1))
        proceeds = (prices[at] or 0) // 2
        if proceeds > 0:
            log.add(BankPaid(debtor, proceeds, BankPayment.RETREAT, None))
            cash += proceeds
        at -= 1
    if cash >= amount:
        log.add(TollPaid(debtor, creditor, amount))
        return
    if cash > 0:
        log.add(TollPaid(debtor, creditor, cash))
    log.add(BankPaid(creditor, amount - cash, BankPayment.SHORTFALL, debtor))


def can_go_on(state: StateLike) -> tuple[int, ...]:
    """The seats that can go on: not quit and holding at least one card (A18)."""
    hands = state.hands
    quit = state.quit
    return tuple([s for s in range(state.table.players) if not quit[s] and hands[s]])


def run_is_over(state: StateLike) -> bool:
    """Whether the run ends after this collection (A18).

    It ends if (a) a car has reached the event marker, (b) nobody can go on, or (c) only the
    leader's owner can go on. With the option ``quitters_cards_keep_run_going`` (the literal
    reading of (c)) the test is instead that the leader's owner is the only player holding cards,
    so a quitter who kept cards keeps the run going.
    """
    table = state.table
    if max(state.distances) >= table.track_length:
        return True
    going = can_go_on(state)
    if not going:
        return True
    leader = standings(state)[0]
    if table.options.quitters_cards_keep_run_going:
        hands = state.hands
        return [s for s in range(table.players) if hands[s]] == [leader]
    return going == (leader,)


def start_round(log: Log) -> None:
    """Begin the next round; a player in the run with no cards quits at once (A8, A14)."""
    state = log.state
    quit = state.quit
    hands = state.hands
    log.add(RoundStarted(state.run, state.round + 1))
    for seat in range(state.table.players):
        if not quit[seat] and not hands[seat]:
            log.add(PlayerQuit(seat, QuitReason.OUT_OF_CARDS))
