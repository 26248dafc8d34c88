"""One plain English line per event, for transcripts, terminals and browser histories.

Cars stand on road spaces, numbered as the board numbers them (A4). An event only knows how far
a car has driven since the event marker (A12), so :func:`describe` names road spaces when it is
told where the marker stands (``marker=``), and :func:`narrate` follows the marker through a
whole stream of events by itself. With ``seat=``, the viewing seat is spoken to ("You draw card
3"). Hidden fields (a redacted event, A30) are described without their values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen

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
from avanti.avanti.setup import PublicSetup, Setup

__all__ = ["describe", "narrate"]


def _money(amount: int) -> str:
    return f"{amount:,}"


def _cards(cards: tuple[int, ...]) -> str:
    return ", ".join(str(card) for card in cards)


@frozen
class _Words:
    """How one line names the players: by name, or the viewing seat as "you"."""

    players: tuple[str, ...]
    seat: int | None
    track: int
    marker: int | None

    def who(self, seat: int) -> str:
        """The subject of a sentence."""
        return "You" if seat == self.seat else self.players[seat]

    def whom(self, seat: int) -> str:
        """The object of a sentence."""
        return "you" if seat == self.seat else self.players[seat]

    def whose(self, seat: int) -> str:
        """The owner of something."""
        return "your" if seat == self.seat else f"{self.players[seat]}'s"

    def verb(self, seat: int, third: str, second: str) -> str:
        """``third`` ("draws") for another player, ``second`` ("draw") for the viewing seat."""
        return second if seat == self.seat else third

    def names(self, seats: tuple[int, ...]) -> str:
        """Players in order, the viewing seat as "you"."""
        return ", ".join(self.whom(seat) for seat in seats)

    def space(self, distance: int) -> str:
        """Where a car that has driven ``distance`` this run stands: its road space (A4, A12),
        or ``distance`` past the marker when the marker is not known."""
        if self.marker is None:
            return f"{distance}"
        return f"space {(self.marker + distance) % self.track}"


def _run_started(e: RunStarted, w: _Words) -> str:
    be = w.verb(e.starting_seat, "is", "are")
    return f"Delivery run {e.run} begins; {w.whom(e.starting_seat)} {be} the starting player."


def _marker(e: EventMarkerPlaced, w: _Words) -> str:
    if e.seat is None:
        who = "The event marker goes"
    else:
        who = f"{w.who(e.seat)} {w.verb(e.seat, 'puts', 'put')} the event marker"
    return f"{who} on road space {e.space}; every car starts there."


def _shuffled(e: DeckShuffled, w: _Words) -> str:
    what = "All the cards are" if e.pile is Pile.ALL else "The discard pile is"
    return f"{what} shuffled into a draw pile of {e.size}."


def _dealt(e: CardsDealt, w: _Words) -> str:
    subject = f"{w.who(e.seat)} {w.verb(e.seat, 'is', 'are')} dealt"
    if e.cards is None:
        return f"{subject} {e.count} cards."
    return f"{subject} cards {_cards(e.cards)}."


def _played(e: CardPlayed, w: _Words) -> str:
    lays = f"{w.who(e.seat)} {w.verb(e.seat, 'lays', 'lay')}"
    if e.card is None:
        return f"{lays} a card face down."
    return f"{lays} card {e.card} face down, to drive {e.number}."


def _driving(e: DrivingBegan, w: _Words) -> str:
    return f"Driving order: {w.names(e.order)}."


def _moved(e: CarMoved, w: _Words) -> str:
    drives = f"{w.who(e.seat)} {w.verb(e.seat, 'drives', 'drive')} {e.number} (card {e.card})"
    end = e.hops[-1]
    at = "at" if w.marker is None else "on"
    bump, go = w.verb(e.seat, "bumps", "bump"), w.verb(e.seat, "goes", "go")
    bumps = "; ".join(
        f"{bump} into {w.whose(seat)} car {at} {w.space(hop)} and {go} on to {w.space(then)}"
        for seat, hop, then in zip(e.bumped, e.hops, e.hops[1:], strict=False)
    )
    if w.marker is None:
        if bumps:
            return f"{drives} from {e.start} past the event marker: {bumps}."
        return f"{drives} from {e.start} to {end} past the event marker."
    run = f", {end} space{'s' if end != 1 else ''} this run"
    if bumps:
        return f"{drives} from {w.space(e.start)}: {bumps}{run}."
    return f"{drives} from {w.space(e.start)} to {w.space(end)}{run}."


def _discarded(e: CardDiscarded, w: _Words) -> str:
    return f"{w.who(e.seat)} {w.verb(e.seat, 'discards', 'discard')} card {e.card}."


def _drawn(e: CardDrawn, w: _Words) -> str:
    draws = f"{w.who(e.seat)} {w.verb(e.seat, 'draws', 'draw')}"
    if e.card is None:
        return f"{draws} a card."
    return f"{draws} card {e.card}."


def _quit(e: PlayerQuit, w: _Words) -> str:
    quits = w.verb(e.seat, "quits", "quit")
    if e.reason is QuitReason.OUT_OF_CARDS:
        return (
            f"{w.who(e.seat)} {w.verb(e.seat, 'has', 'have')} no cards left and {quits} this run."
        )
    return f"{w.who(e.seat)} {quits} this run."


def _toll(e: TollPaid, w: _Words) -> str:
    pays = w.verb(e.payer, "pays", "pay")
    return f"{w.who(e.payer)} {pays} {_money(e.amount)} to {w.whom(e.payee)}."


def _retreated(e: FigureRetreated, w: _Words) -> str:
    steps = w.verb(e.seat, "steps", "step")
    return f"{w.who(e.seat)} {steps} back on the island from space {e.from_space} to {e.to_space}."


def _bank(e: BankPaid, w: _Words) -> str:
    if e.kind is BankPayment.SHORTFALL and e.debtor is not None:
        owes = w.verb(e.debtor, "owes", "owe")
        return (
            f"The bank pays {w.whom(e.seat)} the last {_money(e.amount)} {w.whom(e.debtor)} {owes}."
        )
    return f"The bank pays {w.whom(e.seat)} {_money(e.amount)}."


def _round(e: RoundStarted, w: _Words) -> str:
    return f"Round {e.round} of run {e.run} begins."


def _run_ended(e: RunEnded, w: _Words) -> str:
    return f"Delivery run {e.run} ends; ranking: {w.names(e.ranking)}."


def _advanced(e: FigureAdvanced, w: _Words) -> str:
    moves = w.verb(e.seat, "moves", "move")
    return (
        f"{w.who(e.seat)} (place {e.place}) {moves} on the island "
        f"from space {e.from_space} to {e.to_space}."
    )


def _atm(e: AtmWithdrawn, w: _Words) -> str:
    withdraws = w.verb(e.seat, "withdraws", "withdraw")
    return f"{w.who(e.seat)} {withdraws} {_money(e.amount)} at the ATM on road space {e.space}."


def _invested(e: Invested, w: _Words) -> str:
    if e.steps == 0:
        return f"{w.who(e.seat)} {w.verb(e.seat, 'does', 'do')} not invest."
    return (
        f"{w.who(e.seat)} {w.verb(e.seat, 'pays', 'pay')} {_money(e.cost)} to the bank and "
        f"{w.verb(e.seat, 'moves', 'move')} on the island from space {e.from_space} to "
        f"{e.to_space}."
    )


def _game_ended(e: GameEnded, w: _Words) -> str:
    wins = w.verb(e.winner, "wins", "win")
    return f"The game ends: {w.whom(e.winner)} {wins}; final order: {w.names(e.ranking)}."


_DESCRIBERS: dict[type, Callable[[Any, _Words], str]] = {
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


def describe(
    event: Event,
    setup: Setup | PublicSetup,
    *,
    seat: int | None = None,
    marker: int | None = None,
) -> str:
    """One plain English line for ``event``, naming players as in ``setup`` (the full setup or
    the :class:`~avanti.PublicSetup` a seat has).

    ``seat``: the seat the line is for; its own deeds read in the second person ("You draw card
    7."). ``marker``: the road space of the event marker in the event's delivery run (A7, A25);
    with it a car's move names the road spaces of the board (A4) and the distance driven this run
    (A12), without it only the distances past the marker. :func:`narrate` keeps track of the
    marker through a stream of events.

    >>> from avanti import CarMoved, Setup, describe
    >>> setup = Setup(("Tina", "Jack", "Steve"))
    >>> describe(CarMoved(0, 5, 3, 9, (12,), ()), setup, marker=3)
    'Tina drives 3 (card 5) from space 12 to space 15, 12 spaces this run.'
    >>> describe(CarMoved(0, 5, 3, 3, (6, 9), (1,)), setup, marker=30).split(": ")[1]
    "bumps into Jack's car on space 2 and goes on to space 5, 9 spaces this run."
    >>> from avanti import CardDrawn
    >>> describe(CardDrawn(1, 7), setup, seat=1)
    'You draw card 7.'
    """
    words = _Words(setup.players, seat, len(setup.board.track), marker)
    return _DESCRIBERS[type(event)](event, words)


def narrate(
    events: Sequence[Event],
    setup: Setup | PublicSetup,
    *,
    seat: int | None = None,
    marker: int | None = None,
    after: int = 0,
) -> tuple[str, ...]:
    """One line per event of ``events[after:]``, as :func:`describe` says it, following the
    event marker from each :class:`~avanti.EventMarkerPlaced` on (A7, A25), so every car's move
    names its road spaces.

    The events before ``after`` are read only to find the marker, so a front end that has told
    a seat its first ``after`` events passes the seat's whole stream and gets the new lines.
    ``marker`` is where the marker stands before the first event (a view's ``marker``), for a
    stream that starts in the middle of a run; ``seat`` is the reader, as for :func:`describe`.

    >>> import avanti
    >>> game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    >>> game = game.execute(avanti.PlaceEventMarker(0, 12))
    >>> avanti.narrate(game.events, game.setup, seat=0, after=5)
    ('You put the event marker on road space 12; every car starts there.',)
    """
    for event in events[:after]:
        if isinstance(event, EventMarkerPlaced):
            marker = event.space
    lines: list[str] = []
    for event in events[after:]:
        if isinstance(event, EventMarkerPlaced):
            marker = event.space
        lines.append(describe(event, setup, seat=seat, marker=marker))
    return tuple(lines)
