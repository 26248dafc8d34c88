"""What a player may do in Avanti mare!: roll the die, or move a fish after a free fish's colour."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from avanti.mare.setup import Fish

__all__ = ["COMMANDS", "Command", "MoveFish", "Roll"]


@frozen
class Roll:
    """Roll the colour die (M3); only the seat whose turn it is, and only when no move is owed."""

    seat: int


@frozen
class MoveFish:
    """Move ``fish`` one piece toward the sea, after rolling a free fish's colour (M6).

    Only the roller may, only right after that roll, and only a fish still in the river.
    """

    seat: int
    fish: Fish


Command = Roll | MoveFish
"""Any command of Avanti mare!."""


COMMANDS: Mapping[str, type] = {"Roll": Roll, "MoveFish": MoveFish}
"""Every command class by its wire tag: the ``type`` field of its JSON. A tag is part of the
stored format and never changes, even if the class is renamed."""
