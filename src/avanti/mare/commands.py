"""What a player may do in Avanti mare!: roll the die; after a free fish's colour, move another fish
or decline to."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from avanti.mare.setup import Fish

__all__ = ["COMMANDS", "Command", "MoveFish", "Roll", "SkipMove"]


@frozen
class Roll:
    """Roll the colour die (M3); only the seat whose turn it is, and not while a move after a free
    fish's colour is still to be made or declined (M6)."""

    seat: int


@frozen
class MoveFish:
    """Move ``fish`` one piece toward the sea, after rolling a free fish's colour (M6).

    Only the roller may, only right after that roll, and only a fish still in the river.
    """

    seat: int
    fish: Fish


@frozen
class SkipMove:
    """Decline the move a free fish's colour offers (M6: the roller "may" move another fish).

    Legal exactly where ``MoveFish`` is, unless :attr:`Options.free_fish_move_owed
    <avanti.mare.Options.free_fish_move_owed>` makes the move owed. Every fish stays where it is
    and the turn passes, as after a move.
    """

    seat: int


Command = Roll | MoveFish | SkipMove
"""Any command of Avanti mare!."""


COMMANDS: Mapping[str, type] = {"Roll": Roll, "MoveFish": MoveFish, "SkipMove": SkipMove}
"""Every command class by its wire tag: the ``type`` field of its JSON. A tag is part of the
stored format and never changes, even if the class is renamed."""
