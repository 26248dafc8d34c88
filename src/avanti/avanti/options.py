"""Rule options: the readings of the rulebook that a game may switch (see RULES A21)."""

from __future__ import annotations

from attrs import frozen

__all__ = ["RuleOptions"]


@frozen
class RuleOptions:
    """The switchable readings of the rules; the defaults are the library's reading.

    ``atm_last_car_wraps`` (A21): with ``True`` every ATM on the road pays someone, the last car
    collecting the lots between the leader and itself across the event marker; with ``False`` the
    last car collects only the lots between the marker and itself, and the lots past the leader
    (before the marker) pay nobody.
    """

    atm_last_car_wraps: bool = True
