"""What a player can do: the Avanti commands, each naming its seat (A31)."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

__all__ = ["COMMANDS", "Command", "Drive", "Invest", "PlaceEventMarker", "PlayCard", "Quit"]


@frozen
class PlaceEventMarker:
    """The first run's starting player puts the event marker on road space ``space`` (A7)."""

    seat: int
    space: int


@frozen
class PlayCard:
    """Lay ``card`` face down, to drive ``number`` spaces this round (A8).

    ``number`` must be one of the three printed on the card (A3).
    """

    seat: int
    card: int
    number: int


@frozen
class Drive:
    """On your driving turn: reveal the laid card and move by its number (A9, A11)."""

    seat: int


@frozen
class Quit:
    """On your driving turn: discard the laid card unused and leave this run (A9, A14)."""

    seat: int


@frozen
class Invest:
    """Between runs: buy ``steps`` island spaces (A22); ``steps=0`` passes."""

    seat: int
    steps: int


Command = PlaceEventMarker | PlayCard | Drive | Quit | Invest
"""Any Avanti command."""

COMMANDS: Mapping[str, type] = {
    "PlaceEventMarker": PlaceEventMarker,
    "PlayCard": PlayCard,
    "Drive": Drive,
    "Quit": Quit,
    "Invest": Invest,
}
"""Every command class by its wire tag: the ``type`` field of its JSON. A tag is part of the
stored format and never changes, even if the class is renamed."""

COMMAND_TYPES: tuple[type, ...] = tuple(COMMANDS.values())
"""The command classes, for the codec and for dispatch."""
