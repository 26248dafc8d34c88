"""What happened: the Avanti events, in the past tense.

Every random result (a shuffle's full order) and every change of cash is an event, so a log can be
replayed without a generator (A29) and money can be traced from it: cash changes only by
:class:`TollPaid` (player to player), :class:`BankPaid` and :class:`AtmWithdrawn` (bank to player)
and :class:`Invested` (player to bank).

Fields a seat may not see are typed ``... | None``: :func:`avanti.redact` blanks them (A30).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from attrs import frozen

__all__ = [
    "EVENTS",
    "AtmWithdrawn",
    "BankPaid",
    "BankPayment",
    "CarMoved",
    "CardDiscarded",
    "CardDrawn",
    "CardPlayed",
    "CardsDealt",
    "DeckShuffled",
    "DrivingBegan",
    "Event",
    "EventMarkerPlaced",
    "FigureAdvanced",
    "FigureRetreated",
    "GameEnded",
    "Invested",
    "Pile",
    "PlayerQuit",
    "QuitReason",
    "RoundStarted",
    "RunEnded",
    "RunStarted",
    "TollPaid",
]


class Pile(enum.StrEnum):
    """What a shuffle gathered: every card (A6, A27) or the discard pile only (A13)."""

    ALL = "all"
    DISCARD = "discard"


class QuitReason(enum.StrEnum):
    """Why a player left a delivery run (A14)."""

    VOLUNTARY = "voluntary"
    """The player chose :class:`~avanti.avanti.commands.Quit` on their turn (A9)."""
    OUT_OF_CARDS = "out-of-cards"
    """The player had no card to lay when a round began (A8)."""


class BankPayment(enum.StrEnum):
    """Why the bank paid a player during a collection (A17)."""

    RETREAT = "retreat"
    """Half the price of an island space the debtor stepped back off."""
    SHORTFALL = "shortfall"
    """The part of a toll that a debtor back on island space 0 could not pay."""


@frozen
class RunStarted:
    """Delivery run ``run`` began with ``starting_seat`` as its starting player (A7, A26)."""

    run: int
    starting_seat: int


@frozen
class EventMarkerPlaced:
    """The event marker went to road space ``space``; every car stands there (A7, A25).

    ``seat`` is the player who placed it by command (A7), or ``None`` when the setup named the
    space or the rules moved it to the previous run's last car (A25).
    """

    seat: int | None
    space: int


@frozen
class DeckShuffled:
    """Cards were shuffled into a new draw pile (A6, A13, A27, A29).

    ``order`` is the new draw pile, top first; it is hidden from every seat (A30), which sees
    only ``size``.
    """

    pile: Pile
    size: int
    order: tuple[int, ...] | None


@frozen
class CardsDealt:
    """``seat`` was dealt ``count`` cards from the top of the draw pile (A6, A27)."""

    seat: int
    count: int
    cards: tuple[int, ...] | None


@frozen
class CardPlayed:
    """``seat`` laid a card face down with a chosen number (A8); both hidden until driving."""

    seat: int
    card: int | None
    number: int | None


@frozen
class DrivingBegan:
    """Every active player has laid a card; they act in this order (A9, A10, A28)."""

    order: tuple[int, ...]


@frozen
class CarMoved:
    """``seat`` revealed ``card`` and drove ``number`` (A9, A11).

    ``start`` is the car's distance before the move and ``hops`` the distance after each hop,
    the last being where it stopped; ``bumped[i]`` is the seat whose car stood where hop ``i``
    landed, so the car went on (one entry per hop but the last).
    """

    seat: int
    card: int
    number: int
    start: int
    hops: tuple[int, ...]
    bumped: tuple[int, ...]


@frozen
class CardDiscarded:
    """``card`` went face up onto the discard pile (A13, A14)."""

    seat: int
    card: int


@frozen
class CardDrawn:
    """``seat`` drew the top card of the draw pile after driving a yellow number (A13)."""

    seat: int
    card: int | None


@frozen
class PlayerQuit:
    """``seat`` left the current delivery run (A8, A14); the car stays where it is."""

    seat: int
    reason: QuitReason


@frozen
class TollPaid:
    """``payer`` paid ``amount`` monetas to ``payee`` (A15, A17)."""

    payer: int
    payee: int
    amount: int


@frozen
class FigureRetreated:
    """``seat``'s island figure stepped back from ``from_space`` to ``to_space`` (A17)."""

    seat: int
    from_space: int
    to_space: int


@frozen
class BankPaid:
    """The bank paid ``seat`` ``amount`` monetas (A17).

    ``kind`` says why; for a shortfall, ``debtor`` is the player whose debt the bank covered.
    """

    seat: int
    amount: int
    kind: BankPayment
    debtor: int | None


@frozen
class RoundStarted:
    """A new round of the run began: players lay cards again (A8)."""

    run: int
    round: int


@frozen
class RunEnded:
    """Delivery run ``run`` ended (A18); ``ranking`` lists the seats, leader first (A12, A19)."""

    run: int
    ranking: tuple[int, ...]


@frozen
class FigureAdvanced:
    """``seat``, ranked ``place`` (1 = leader), moved its figure forward on the island (A19)."""

    seat: int
    place: int
    from_space: int
    to_space: int


@frozen
class AtmWithdrawn:
    """``seat`` withdrew ``amount`` from the ATM of the parking lot on road ``space`` (A21)."""

    seat: int
    space: int
    amount: int


@frozen
class Invested:
    """``seat`` paid ``cost`` to the bank to move its figure ``steps`` spaces (A22; 0 = passed)."""

    seat: int
    steps: int
    cost: int
    from_space: int
    to_space: int


@frozen
class GameEnded:
    """A figure reached the dream island (A20, A24); ``winner`` won.

    ``ranking`` lists every seat by island position, ties broken by the last run's ranking.
    """

    winner: int
    ranking: tuple[int, ...]


Event = (
    RunStarted
    | EventMarkerPlaced
    | DeckShuffled
    | CardsDealt
    | CardPlayed
    | DrivingBegan
    | CarMoved
    | CardDiscarded
    | CardDrawn
    | PlayerQuit
    | TollPaid
    | FigureRetreated
    | BankPaid
    | RoundStarted
    | RunEnded
    | FigureAdvanced
    | AtmWithdrawn
    | Invested
    | GameEnded
)
"""Any Avanti event."""

EVENTS: Mapping[str, type] = {
    "RunStarted": RunStarted,
    "EventMarkerPlaced": EventMarkerPlaced,
    "DeckShuffled": DeckShuffled,
    "CardsDealt": CardsDealt,
    "CardPlayed": CardPlayed,
    "DrivingBegan": DrivingBegan,
    "CarMoved": CarMoved,
    "CardDiscarded": CardDiscarded,
    "CardDrawn": CardDrawn,
    "PlayerQuit": PlayerQuit,
    "TollPaid": TollPaid,
    "FigureRetreated": FigureRetreated,
    "BankPaid": BankPaid,
    "RoundStarted": RoundStarted,
    "RunEnded": RunEnded,
    "FigureAdvanced": FigureAdvanced,
    "AtmWithdrawn": AtmWithdrawn,
    "Invested": Invested,
    "GameEnded": GameEnded,
}
"""Every event class by its wire tag: the ``type`` field of its JSON. A tag is part of the
stored format and never changes, even if the class is renamed."""

EVENT_TYPES: tuple[type, ...] = tuple(EVENTS.values())
"""The event classes, for the codec and for dispatch."""
