"""Why a command was refused, beyond the reasons every game shares (:class:`CoreReason`)."""

from __future__ import annotations

import enum

__all__ = ["Reason"]


class Reason(enum.StrEnum):
    """Machine-readable reasons for :class:`~avanti.core.IllegalCommand` (F4-F16).

    Each member's docstring names its rule; the reasons every game shares are in
    :class:`~avanti.core.CoreReason`.
    """

    BID_TOO_LOW = "bid-too-low"
    """F4: a bid must beat the high bid (a first bid may be 0)."""
    BID_OVER_CASH = "bid-over-cash"
    """F4: a bid may not exceed your cash."""
    ADVISOR_NOT_IN_HAND = "advisor-not-in-hand"
    """F9: you can only play an advisor you hold."""
    NOT_A_FLEET_MANAGER = "not-a-fleet-manager"
    """F10: only a Fleet Manager (13-15) can be boosted."""
    BOOST_UNAFFORDABLE = "boost-unaffordable"
    """F10: a boost costs 3 in cash."""
    ALREADY_OFFERED = "already-offered"
    """F14: one offer per player per round."""
    BAD_OFFER = "bad-offer"
    """F14: offer one vehicle, or two different ones in ascending order."""
    VEHICLE_NOT_IN_HAND = "vehicle-not-in-hand"
    """F14: you can only offer vehicles you hold."""
    NO_LAWYER = "no-lawyer"
    """F15: offering two vehicles needs a Lawyer."""
    NO_LAWYER_CHOICE = "no-lawyer-choice"
    """F15: a Lawyer is named only by a player holding several, with ``lawyer_single_use`` or
    ``lawyer_choice``."""
    NOT_YOUR_LAWYER = "not-your-lawyer"
    """F15: the Lawyer named must be one of yours."""
    NOT_OFFERED = "not-offered"
    """F15: you can only take back a vehicle you offered."""
    NOT_LOWEST = "not-lowest"
    """F16: only the owner of the lowest offered vehicle decides on a Mechanic."""
