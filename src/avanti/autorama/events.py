"""What happened, in the past tense. Every random result is written into an event (F1).

Fields that may be hidden from a seat are typed ``... | None``: :func:`avanti.autorama.redact`
sets them to ``None`` for seats that may not see them. Amounts are in thousands of dollars.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

__all__ = [
    "EVENTS",
    "AdvisorHired",
    "AdvisorPlayed",
    "AdvisorsRevealed",
    "BidPlaced",
    "BonusReceived",
    "ChecksRevealed",
    "ConsultantPaid",
    "DecksShuffled",
    "Event",
    "GameEnded",
    "LawyerDiscarded",
    "MechanicDeclined",
    "MechanicUsed",
    "OffersRevealed",
    "Passed",
    "VehicleBought",
    "VehicleSold",
    "VehicleTakenBack",
    "VehiclesOffered",
    "VehiclesOfferedWithLawyer",
    "VehiclesRevealed",
]


@frozen
class DecksShuffled:
    """F1: the three decks were shuffled (top card first) and cards removed unseen.

    Wholly secret: every field is ``None`` in every seat's stream.
    """

    advisors: tuple[int, ...] | None
    vehicles: tuple[int, ...] | None
    checks: tuple[int, ...] | None
    """The checks of the deck, top first, each in thousands (``3`` is $3,000; F2); ``None``
    where hidden."""
    removed_advisors: tuple[int, ...] | None
    removed_vehicles: tuple[int, ...] | None
    removed_checks: tuple[int, ...] | None
    """The checks removed face down, each in thousands (``3`` is $3,000; F2); ``None`` where
    hidden."""


@frozen
class AdvisorsRevealed:
    """F4: a round of phase 1 began; these advisors lie face up, ``start`` bids first."""

    round: int
    start: int
    advisors: tuple[int, ...]


@frozen
class BidPlaced:
    """F4: ``seat`` bid ``amount`` in all."""

    seat: int
    amount: int
    """The total bid, in thousands (``3`` is $3,000; F2)."""


@frozen
class Passed:
    """F5: ``seat`` left this round's auction."""

    seat: int


@frozen
class AdvisorHired:
    """F5, F6: ``seat`` took ``advisor`` with ``bid`` in front of them and paid ``paid`` of it."""

    seat: int
    advisor: int
    bid: int
    """The total bid the seat had in front of it, in thousands (``3`` is $3,000; F2)."""
    paid: int
    """What taking the advisor cost in all, in thousands (``3`` is $3,000; F5, F6)."""


@frozen
class ConsultantPaid:
    """F7: ``seat`` took Consultant ``advisor`` and received ``amount`` from ``payer``."""

    seat: int
    advisor: int
    payer: int
    amount: int
    """What the Consultant brought, in thousands (``3`` is $3,000; F7)."""


@frozen
class VehiclesRevealed:
    """F9: a round of phase 2 began; these vehicles lie face up, ``start`` plays first."""

    round: int
    start: int
    vehicles: tuple[int, ...]


@frozen
class AdvisorPlayed:
    """F9, F10: ``seat`` played ``advisor`` face up; ``boosted`` means it paid 3 to count 31-33."""

    seat: int
    advisor: int
    boosted: bool


@frozen
class VehicleBought:
    """F11: ``seat`` took ``vehicle`` with ``advisor``."""

    seat: int
    vehicle: int
    advisor: int


@frozen
class BonusReceived:
    """F11: ``seat`` received ``amount`` for Sales Director or General Manager ``advisor``."""

    seat: int
    advisor: int
    amount: int
    """The bonus, in thousands (``3`` is $3,000; F11)."""


@frozen
class ChecksRevealed:
    """F14: a round of phase 3 began; these checks lie face up."""

    round: int
    checks: tuple[int, ...]
    """The checks on the table, each in thousands (``3`` is $3,000; F14)."""


@frozen
class VehiclesOffered:
    """F14: ``seat`` put vehicles face down, two of them with ``lawyer`` (F15).

    ``vehicles`` is ``None`` for every other seat: offers are secret until all are in.
    """

    seat: int
    vehicles: tuple[int, ...] | None
    lawyer: int | None


@frozen
class VehiclesOfferedWithLawyer:
    """F15: ``seat`` put two vehicles face down with the Lawyer it named, ``lawyer``
    (:class:`~avanti.autorama.OfferWithLawyer`).

    It reads as :class:`VehiclesOffered` and folds the same way; it has a tag of its own so that
    a log tells which command made it. ``vehicles`` is ``None`` for every other seat.
    """

    seat: int
    vehicles: tuple[int, ...] | None
    lawyer: int


@frozen
class OffersRevealed:
    """F14: every offer was turned face up (one entry per seat)."""

    offers: tuple[tuple[int, ...], ...]


@frozen
class VehicleTakenBack:
    """F15: ``seat`` took ``vehicle`` back into their hand."""

    seat: int
    vehicle: int


@frozen
class LawyerDiscarded:
    """F15 with ``lawyer_single_use``: ``seat`` discarded the Lawyer it used."""

    seat: int
    lawyer: int


@frozen
class MechanicUsed:
    """F16: ``seat`` discarded ``mechanic`` to take the second-lowest check."""

    seat: int
    mechanic: int


@frozen
class MechanicDeclined:
    """F16: ``seat`` kept its Mechanics and takes the lowest check."""

    seat: int


@frozen
class VehicleSold:
    """F17: ``seat`` sold ``vehicle`` (it leaves the game) for ``check``."""

    seat: int
    vehicle: int
    check: int
    """The check the vehicle sold for, in thousands (``3`` is $3,000; F17)."""


@frozen
class GameEnded:
    """F18-F20: every vehicle is sold; ``totals`` per seat and the ``winners``.

    Money in thousands of dollars (``1`` is $1,000). ``checks`` and ``cash`` break each total
    down (F19): what the seat's checks count for (Controllers and Restoration Specialists
    applied) and its cash; the rest of a total is its Financial Advisors' bonus. Both are empty
    in a document written before they were recorded.
    """

    totals: tuple[int, ...]
    """Each seat's money in all, in thousands (F19)."""
    winners: tuple[int, ...]
    """The seats that won (F20)."""
    checks: tuple[int, ...] = ()
    """Each seat's checks as they count, in thousands (F19)."""
    cash: tuple[int, ...] = ()
    """Each seat's cash at the end, in thousands (F19)."""


Event = (
    DecksShuffled
    | AdvisorsRevealed
    | BidPlaced
    | Passed
    | AdvisorHired
    | ConsultantPaid
    | VehiclesRevealed
    | AdvisorPlayed
    | VehicleBought
    | BonusReceived
    | ChecksRevealed
    | VehiclesOffered
    | VehiclesOfferedWithLawyer
    | OffersRevealed
    | VehicleTakenBack
    | LawyerDiscarded
    | MechanicUsed
    | MechanicDeclined
    | VehicleSold
    | GameEnded
)
"""Every event of the game."""

EVENTS: Mapping[str, type] = {
    "DecksShuffled": DecksShuffled,
    "AdvisorsRevealed": AdvisorsRevealed,
    "BidPlaced": BidPlaced,
    "Passed": Passed,
    "AdvisorHired": AdvisorHired,
    "ConsultantPaid": ConsultantPaid,
    "VehiclesRevealed": VehiclesRevealed,
    "AdvisorPlayed": AdvisorPlayed,
    "VehicleBought": VehicleBought,
    "BonusReceived": BonusReceived,
    "ChecksRevealed": ChecksRevealed,
    "VehiclesOffered": VehiclesOffered,
    "VehiclesOfferedWithLawyer": VehiclesOfferedWithLawyer,
    "OffersRevealed": OffersRevealed,
    "VehicleTakenBack": VehicleTakenBack,
    "LawyerDiscarded": LawyerDiscarded,
    "MechanicUsed": MechanicUsed,
    "MechanicDeclined": MechanicDeclined,
    "VehicleSold": VehicleSold,
    "GameEnded": GameEnded,
}
"""Every event class by its wire tag: the ``type`` field of its JSON. A tag is part of the
stored format and never changes, even if the class is renamed."""

EVENT_TYPES: tuple[type, ...] = tuple(EVENTS.values())
