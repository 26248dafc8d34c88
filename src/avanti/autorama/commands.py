"""What players ask to do. Each command names the seat that issues it."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

__all__ = [
    "COMMANDS",
    "Bid",
    "Command",
    "DeclineMechanic",
    "Offer",
    "OfferWithLawyer",
    "Pass",
    "PlayAdvisor",
    "TakeBack",
    "UseMechanic",
]


@frozen
class Bid:
    """F4: put ``amount`` in front of you (your total bid, not a raise) in the advisor auction."""

    seat: int
    amount: int
    """Your total bid, in thousands (``3`` is $3,000; F2): ``Bid(seat, 3)`` bids $3,000 (F4)."""


@frozen
class Pass:
    """F5: leave the auction, taking the lowest advisor left and half your bid back."""

    seat: int


@frozen
class PlayAdvisor:
    """F9: play an advisor face up to buy a vehicle; ``boost`` pays 3 for a Fleet Manager (F10)."""

    seat: int
    advisor: int
    boost: bool = False


@frozen
class Offer:
    """F14: offer one vehicle face down, or two (in ascending order) with a Lawyer (F15).

    Two vehicles use your highest Lawyer; :class:`OfferWithLawyer` names another, where the
    game's options allow the choice.
    """

    seat: int
    vehicles: tuple[int, ...]


@frozen
class OfferWithLawyer:
    """F15: offer two vehicles (in ascending order) with the Lawyer you name, ``lawyer``.

    Open to a player who holds several Lawyers, when the game is played with
    ``Options(lawyer_single_use=True)`` (the named Lawyer is the one discarded) or
    ``Options(lawyer_choice=True)``; the named Lawyer also sets the order of take-backs, the
    lowest first. :class:`Offer` with two vehicles uses the highest Lawyer (F15).
    """

    seat: int
    vehicles: tuple[int, ...]
    lawyer: int


@frozen
class TakeBack:
    """F15: after the reveal, take one of your two offered vehicles back into your hand."""

    seat: int
    vehicle: int


@frozen
class UseMechanic:
    """F16: with the lowest vehicle, discard a Mechanic to take the second-lowest check."""

    seat: int


@frozen
class DeclineMechanic:
    """F16: with the lowest vehicle, keep your Mechanics and take the lowest check."""

    seat: int


Command = (
    Bid | Pass | PlayAdvisor | Offer | OfferWithLawyer | TakeBack | UseMechanic | DeclineMechanic
)
"""Every command of the game."""

COMMANDS: Mapping[str, type] = {
    "Bid": Bid,
    "Pass": Pass,
    "PlayAdvisor": PlayAdvisor,
    "Offer": Offer,
    "OfferWithLawyer": OfferWithLawyer,
    "TakeBack": TakeBack,
    "UseMechanic": UseMechanic,
    "DeclineMechanic": DeclineMechanic,
}
"""Every command class by its wire tag: the ``type`` field of its JSON. A tag is part of the
stored format and never changes, even if the class is renamed."""

COMMAND_TYPES: tuple[type, ...] = tuple(COMMANDS.values())
