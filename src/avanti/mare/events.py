"""What happened in a game of Avanti mare!, in the past tense.

A ``Roll`` begins with :class:`DieRolled` (the drawn face is written into it, M3); a ``MoveFish``
begins with :class:`FishChosen`, a ``SkipMove`` with :class:`MoveDeclined`. The events after those
spell out every consequence, so ``evolve`` never has to work anything out.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from avanti.mare.setup import Face, Fish
from avanti.mare.state import Result

__all__ = [
    "EVENTS",
    "EVENT_TYPES",
    "DieRolled",
    "Event",
    "FishCaught",
    "FishChosen",
    "FishFreed",
    "FishSwam",
    "GameEnded",
    "MoveDeclined",
    "MoveOffered",
    "PieceRemoved",
    "RollIgnored",
    "TurnPassed",
]


@frozen
class DieRolled:
    """``seat`` rolled the die and ``face`` came up (M3); the first event of a ``Roll``."""

    seat: int
    face: Face


@frozen
class FishChosen:
    """``seat`` chose ``fish`` to move after a free fish's colour (M6); begins a ``MoveFish``."""

    seat: int
    fish: Fish


@frozen
class MoveDeclined:
    """``seat`` declined to move another fish after a free fish's colour (M6); begins a
    ``SkipMove``. No fish moves; a :class:`TurnPassed` follows."""

    seat: int


@frozen
class FishSwam:
    """``fish`` swam one piece toward the sea, onto ``piece`` (M4, M6)."""

    fish: Fish
    piece: int


@frozen
class FishFreed:
    """``fish`` swam from piece 11 into the sea and is free (M4)."""

    fish: Fish


@frozen
class PieceRemoved:
    """The piece in front of the boat, ``piece``, was taken away; the boat moved up (M5, M7).

    When ``piece`` is 11 the boat has reached the sea (M8).
    """

    piece: int


@frozen
class FishCaught:
    """``fish`` stood on the removed ``piece`` and was caught (M5)."""

    fish: Fish
    piece: int


@frozen
class MoveOffered:
    """``free`` is in the sea already, so ``seat`` may now move another fish (M6).

    ``seat`` answers with ``MoveFish``, or with ``SkipMove`` unless the options make the move owed.
    """

    seat: int
    free: Fish


@frozen
class RollIgnored:
    """``face`` does nothing under the options (M9); with ``again`` the roller rolls again."""

    seat: int
    face: Face
    again: bool


@frozen
class TurnPassed:
    """It is now ``seat``'s turn to roll (M2: clockwise)."""

    seat: int


@frozen
class GameEnded:
    """No fish is left in the river: the game is over (M8), with ``free`` and ``caught`` fish."""

    result: Result
    free: int
    caught: int


Event = (
    DieRolled
    | FishChosen
    | MoveDeclined
    | FishSwam
    | FishFreed
    | PieceRemoved
    | FishCaught
    | MoveOffered
    | RollIgnored
    | TurnPassed
    | GameEnded
)
"""Any event of Avanti mare!."""

EVENTS: Mapping[str, type] = {
    "DieRolled": DieRolled,
    "FishChosen": FishChosen,
    "FishSwam": FishSwam,
    "FishFreed": FishFreed,
    "PieceRemoved": PieceRemoved,
    "FishCaught": FishCaught,
    "MoveOffered": MoveOffered,
    "RollIgnored": RollIgnored,
    "TurnPassed": TurnPassed,
    "GameEnded": GameEnded,
    "MoveDeclined": MoveDeclined,
}
"""Every event class by its wire tag: the ``type`` field of its JSON. A tag is part of the
stored format and never changes, even if the class is renamed."""

EVENT_TYPES: tuple[type, ...] = tuple(EVENTS.values())
"""The event classes, in the order the codec lists them."""
