"""One plain English line per event, for transcripts a person can read and check.

Car positions are given as distances from the event marker (A12); road spaces say "space".
Hidden fields (a redacted event, A30) are described without their values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from avanti.avanti.events import (
    AtmWithdrawn,
    BankPaid,
    BankPayment,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsDealt,
    CarMoved,
    DeckShuffled,
    DrivingBegan,
    Event,
    EventMarkerPlaced,
    FigureAdvanced,
    FigureRetreated,
    GameEnded,
    Invested,
    Pile,
    PlayerQuit,
    QuitReason,
    RoundStarted,
    RunEnded,
    RunStarted,
    TollPaid,
)
from avanti.avanti.setup import Setup

__all__ = ["describe"]


def _money(amount: int) -> str:
    return f"{amount:,}"


def _cards(cards: tuple[int, ...]) -> str:
    return ", ".join(str(card) for card in cards)


def _names(setup: Setup, seats: tuple[int, ...]) -> str:
    return ", ".join(setup.players[seat] for seat in seats)


def _run_started(e: RunStarted, p: tuple[str, ...], s: Setup) -> str:
    return f"Delivery run {e.run} begins; {p[e.starting_seat]} is the starting player."


def _marker(e: EventMarkerPlaced, p: tuple[str, ...], s: Setup) -> str:
    who = "The event marker goes" if e.seat is None else f"{p[e.seat]} puts the event marker"
    return f"{who} on road space {e.space}; every car starts there."


def _shuffled(e: DeckShuffled, p: tuple[str, ...], s: Setup) -> str:
    what = "All the cards are" if e.pile is Pile.ALL else "The discard pile is"
    return f"{what} shuffled into a draw pile of {e.size}."


def _dealt(e: CardsDealt, p: tuple[str, ...], s: Setup) -> str:
    if e.cards is None:
        return f"{p[e.seat]} is dealt {e.count} cards."
    return f"{p[e.seat]} is dealt cards {_cards(e.cards)}."


def _played(e: CardPlayed, p: tuple[str, ...], s: Setup) -> str:
    if e.card is None:
        return f"{p[e.seat]} lays a card face down."
    return f"{p[e.seat]} lays card {e.card} face down, to drive {e.number}."


def _driving(e: DrivingBegan, p: tuple[str, ...], s: Setup) -> str:
    return f"Driving order: {_names(s, e.order)}."


def _moved(e: CarMoved, p: tuple[str, ...], s: Setup) -> str:
    bumps = "".join(
        f" bumps into {p[seat]}'s car at {hop} and goes on to {e.hops[i + 1]};"
        for i, (seat, hop) in enumerate(zip(e.bumped, e.hops, strict=False))
    )
    if bumps:
        return f"{p[e.seat]} drives {e.number} (card {e.card}):{bumps.rstrip(';')}."
    return f"{p[e.seat]} drives {e.number} (card {e.card}) from {e.start} to {e.hops[-1]}."


def _discarded(e: CardDiscarded, p: tuple[str, ...], s: Setup) -> str:
    return f"{p[e.seat]} discards card {e.card}."


def _drawn(e: CardDrawn, p: tuple[str, ...], s: Setup) -> str:
    if e.card is None:
        return f"{p[e.seat]} draws a card."
    return f"{p[e.seat]} draws card {e.card}."


def _quit(e: PlayerQuit, p: tuple[str, ...], s: Setup) -> str:
    if e.reason is QuitReason.OUT_OF_CARDS:
        return f"{p[e.seat]} has no cards left and quits this run."
    return f"{p[e.seat]} quits this run."


def _toll(e: TollPaid, p: tuple[str, ...], s: Setup) -> str:
    return f"{p[e.payer]} pays {_money(e.amount)} to {p[e.payee]}."


def _retreated(e: FigureRetreated, p: tuple[str, ...], s: Setup) -> str:
    return f"{p[e.seat]} steps back on the island from space {e.from_space} to {e.to_space}."


def _bank(e: BankPaid, p: tuple[str, ...], s: Setup) -> str:
    if e.kind is BankPayment.SHORTFALL and e.debtor is not None:
        return f"The bank pays {p[e.seat]} the last {_money(e.amount)} {p[e.debtor]} owes."
    return f"The bank pays {p[e.seat]} {_money(e.amount)}."


def _round(e: RoundStarted, p: tuple[str, ...], s: Setup) -> str:
    return f"Round {e.round} of run {e.run} begins."


def _run_ended(e: RunEnded, p: tuple[str, ...], s: Setup) -> str:
    return f"Delivery run {e.run} ends; ranking: {_names(s, e.ranking)}."


def _advanced(e: FigureAdvanced, p: tuple[str, ...], s: Setup) -> str:
    return (
        f"{p[e.seat]} (place {e.place}) moves on the island "
        f"from space {e.from_space} to {e.to_space}."
    )


def _atm(e: AtmWithdrawn, p: tuple[str, ...], s: Setup) -> str:
    return f"{p[e.seat]} withdraws {_money(e.amount)} at the ATM on road space {e.space}."


def _invested(e: Invested, p: tuple[str, ...], s: Setup) -> str:
    if e.steps == 0:
        return f"{p[e.seat]} does not invest."
    return (
        f"{p[e.seat]} pays {_money(e.cost)} to the bank and moves on the island "
        f"from space {e.from_space} to {e.to_space}."
    )


def _game_ended(e: GameEnded, p: tuple[str, ...], s: Setup) -> str:
    return f"The game ends: {p[e.winner]} wins; final order: {_names(s, e.ranking)}."


_DESCRIBERS: dict[type, Callable[[Any, tuple[str, ...], Setup], str]] = {
    RunStarted: _run_started,
    EventMarkerPlaced: _marker,
    DeckShuffled: _shuffled,
    CardsDealt: _dealt,
    CardPlayed: _played,
    DrivingBegan: _driving,
    CarMoved: _moved,
    CardDiscarded: _discarded,
    CardDrawn: _drawn,
    PlayerQuit: _quit,
    TollPaid: _toll,
    FigureRetreated: _retreated,
    BankPaid: _bank,
    RoundStarted: _round,
    RunEnded: _run_ended,
    FigureAdvanced: _advanced,
    AtmWithdrawn: _atm,
    Invested: _invested,
    GameEnded: _game_ended,
}


def describe(event: Event, setup: Setup) -> str:
    """One plain English line for ``event``, naming players as in ``setup``.

    >>> from avanti import CarMoved, Setup, describe
    >>> describe(CarMoved(0, 5, 3, 3, (6, 9), (1,)), Setup(("Tina", "Jack", "Steve")))
    "Tina drives 3 (card 5): bumps into Jack's car at 6 and goes on to 9."
    """
    return _DESCRIBERS[type(event)](event, setup.players, setup)
