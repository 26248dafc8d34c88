"""The three decks and what each advisor does (F1, F4-F19).

Cards are plain integers: an advisor or a vehicle is its number (1-30), a check its value in
thousands of dollars (0, 2, 3, ..., 15, two of each). Money is counted in thousands throughout.
"""

from __future__ import annotations

import enum

__all__ = [
    "ADVISORS",
    "BOOST_COST",
    "CHECKS",
    "GENERAL_MANAGER_BONUS",
    "SALES_DIRECTOR_BONUS",
    "VEHICLES",
    "Kind",
    "boosted_value",
    "dollars",
    "kind_of",
]

ADVISORS: tuple[int, ...] = tuple(range(1, 31))
"""The advisor deck, F1: one card each of 1 to 30."""
VEHICLES: tuple[int, ...] = tuple(range(1, 31))
"""The vehicle deck, F1: one card each of 1 to 30."""
CHECKS: tuple[int, ...] = tuple(sorted((0, *range(2, 16)) * 2))
"""The check deck, F1: two checks each of 0 and 2 to 15 (thousands of dollars)."""

BOOST_COST = 3
"""What a Fleet Manager's boost costs, F10."""
SALES_DIRECTOR_BONUS = 3
"""What a Sales Director earns on a vehicle at least its own number, F11."""
GENERAL_MANAGER_BONUS = 4
"""What a General Manager earns when it misses the highest vehicle, F11."""


class Kind(enum.Enum):
    """The ten kinds of advisor, three numbers each (F5, F7, F10, F11, F15, F16, F19)."""

    SALES_ASSOCIATE = "Sales Associate"
    """1-3, phase 1: passing with one refunds the whole bid (F5)."""
    CONSULTANT = "Consultant"
    """4-6, phase 1: taking one collects 1 from the player to the right (F7)."""
    MECHANIC = "Mechanic"
    """7-9, phase 3: the lowest vehicle may take the second-lowest check (F16)."""
    CONTROLLER = "Controller"
    """10-12, scoring: one check counts as 10/11/12 (F19)."""
    FLEET_MANAGER = "Fleet Manager"
    """13-15, phase 2: pay 3 to count as 31/32/33 (F10)."""
    SALES_DIRECTOR = "Sales Director"
    """16-18, phase 2: +3 on a vehicle of at least its own number (F11)."""
    LAWYER = "Lawyer"
    """19-21, phase 3: offer two vehicles and take one back (F14, F15)."""
    RESTORATION_SPECIALIST = "Restoration Specialist"
    """22-24, scoring: doubles one check of 2 to 9 (F19)."""
    FINANCIAL_ADVISOR = "Financial Advisor"
    """25-27, scoring: +1 per 1 of cash (F19)."""
    GENERAL_MANAGER = "General Manager"
    """28-30, phase 2: +4 when it misses the highest vehicle (F11)."""

    @property
    def kept_after_buying(self) -> bool:
        """Whether a played advisor of this kind stays with its owner after phase 2 (F12)."""
        return self in _KEPT


_KINDS = tuple(Kind)
_KEPT = frozenset(
    {
        Kind.MECHANIC,
        Kind.LAWYER,
        Kind.CONTROLLER,
        Kind.RESTORATION_SPECIALIST,
        Kind.FINANCIAL_ADVISOR,
    }
)


def kind_of(advisor: int) -> Kind:
    """The kind of an advisor: 1-3 Sales Associate, 4-6 Consultant, ... by threes (F5-F19)."""
    return _KINDS[(advisor - 1) // 3]


def boosted_value(advisor: int) -> int:
    """What a boosted Fleet Manager counts as in phase 2: 13/14/15 become 31/32/33 (F10)."""
    return advisor + 18


def dollars(amount: int) -> str:
    """An amount in thousands as dollars (F2, F19): ``dollars(3) == "$3,000"``."""
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount) * 1000:,}"
