"""The full state of a game, hidden facts included.

Show players :func:`avanti.autorama.view` instead: the state holds the deck orders, the removed
cards, everybody's cash and hands, secret offers and the seeded generator.
"""

from __future__ import annotations

import enum

from attrs import frozen

from avanti.autorama.setup import Options, Phase
from avanti.core import Rng

__all__ = ["GameState", "Step"]


class Step(enum.Enum):
    """Where a round of phase 3 stands (F14-F17)."""

    OFFERING = "offering"
    """Players choose vehicles face down, in any order (F14)."""
    TAKING_BACK = "taking-back"
    """Offers are revealed; Lawyer users take one vehicle back, lowest Lawyer first (F15)."""
    MECHANIC = "mechanic"
    """The owner of the lowest vehicle decides whether to use a Mechanic (F16)."""
    SETTLING = "settling"
    """Checks are about to be handed out (F17); never seen between commands."""


@frozen
class GameState:
    """Everything about a game at one moment, hidden facts included (F1, F2, F8, F14).

    Per-seat tuples are indexed by seat. Cards in hands and on the table are kept sorted.
    ``table`` holds the face-up cards of the current round: advisors (phase 1), vehicles
    (phase 2) or checks (phase 3).
    """

    players: int
    """How many seats there are (3-6, F1)."""
    options: Options
    phase: Phase
    step: Step
    """Only meaningful in phase 3."""
    round: int
    """The round within the current phase, from 1."""
    start: int
    """The start player of the current round (F3, F8, F9, F13)."""
    turn: int | None
    """Whose move it is (phases 1 and 2, and phase 3 take-backs and Mechanics)."""
    advisor_deck: tuple[int, ...]
    vehicle_deck: tuple[int, ...]
    check_deck: tuple[int, ...]
    removed_advisors: tuple[int, ...]
    removed_vehicles: tuple[int, ...]
    removed_checks: tuple[int, ...]
    table: tuple[int, ...]
    cash: tuple[int, ...]
    bids: tuple[int | None, ...]
    """Phase 1: each seat's bid in front of them this round, ``None`` before a first bid."""
    active: tuple[bool, ...]
    """Phase 1: who is still in this round's auction."""
    advisors: tuple[tuple[int, ...], ...]
    """Advisors in hand (face down)."""
    played: tuple[int | None, ...]
    """Phase 2: the advisor each seat has played this round."""
    boosted: tuple[bool, ...]
    """Phase 2: whether that advisor is a boosted Fleet Manager (F10)."""
    kept: tuple[tuple[int, ...], ...]
    """Played advisors kept face up for phase 3 or scoring (F12)."""
    spent: tuple[int, ...]
    """Advisors discarded after use."""
    vehicles: tuple[tuple[int, ...], ...]
    """Vehicles in hand (face down)."""
    offers: tuple[tuple[int, ...] | None, ...]
    """Phase 3: each seat's offered vehicles this round (secret until revealed, F14)."""
    lawyers: tuple[int | None, ...]
    """Phase 3: the Lawyer each seat used this round, if any (F15)."""
    revealed: bool
    """Phase 3: whether this round's offers have been revealed."""
    mechanic: bool
    """Phase 3: whether a Mechanic was used this round (F16)."""
    sold: tuple[int, ...]
    """Vehicles sold, out of the game (F17)."""
    checks: tuple[tuple[int, ...], ...]
    """Checks won."""
    rng: Rng
