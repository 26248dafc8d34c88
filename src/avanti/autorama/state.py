"""The full state of a game, hidden facts included.

Show players :func:`avanti.autorama.view` instead: the state holds the deck orders, the removed
cards, everybody's cash and hands, secret offers and the seeded generator.
"""

from __future__ import annotations

import enum
from typing import Any, Self, TypeAlias

from attrs import frozen

from avanti.autorama.setup import Options, Phase
from avanti.core import Rng
from avanti.core.values import DraftOf, Replacer

__all__ = ["Draft", "GameState", "StateLike", "Step"]


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

    def but(self, **changes: Any) -> GameState:
        """A copy with some fields replaced, checking nothing (what ``evolve`` needs).

        It reads every field at once and calls the constructor positionally, several times
        cheaper than ``attrs.evolve`` (DESIGN "Performance principles").
        """
        return _REPLACE(self, changes)


_REPLACE = Replacer(GameState)


class Draft(DraftOf[GameState]):
    """A working copy of a :class:`GameState` whose fields are replaced one event at a time.

    An :class:`~avanti.autorama.flow.Emitter` and the fold apply events to a draft and build one
    frozen state at the end, instead of a whole new state per event (DESIGN "Performance
    principles"). A draft holds the same immutable values as a state (tuples, never lists),
    lives inside one call and is never shared.

    :class:`~avanti.core.values.DraftOf` generates its slots, ``Draft(state)``, which copies
    every field, and ``freeze()``, which builds the frozen state. The annotations below are for
    the type checker; class creation checks that they are the state's fields, in order, with the
    same types.
    """

    players: int
    options: Options
    phase: Phase
    step: Step
    round: int
    start: int
    turn: int | None
    advisor_deck: tuple[int, ...]
    vehicle_deck: tuple[int, ...]
    check_deck: tuple[int, ...]
    removed_advisors: tuple[int, ...]
    removed_vehicles: tuple[int, ...]
    removed_checks: tuple[int, ...]
    table: tuple[int, ...]
    cash: tuple[int, ...]
    bids: tuple[int | None, ...]
    active: tuple[bool, ...]
    advisors: tuple[tuple[int, ...], ...]
    played: tuple[int | None, ...]
    boosted: tuple[bool, ...]
    kept: tuple[tuple[int, ...], ...]
    spent: tuple[int, ...]
    vehicles: tuple[tuple[int, ...], ...]
    offers: tuple[tuple[int, ...] | None, ...]
    lawyers: tuple[int | None, ...]
    revealed: bool
    mechanic: bool
    sold: tuple[int, ...]
    checks: tuple[tuple[int, ...], ...]
    rng: Rng

    def but(self, **changes: Any) -> Self:
        """This draft, with some fields replaced in place."""
        for name, value in changes.items():
            setattr(self, name, value)
        return self


StateLike: TypeAlias = GameState | Draft
"""What the rules read of a state: a :class:`GameState`, or the :class:`Draft` of one.

Both have ``but``: a new frozen state, or the same draft changed in place.
"""
