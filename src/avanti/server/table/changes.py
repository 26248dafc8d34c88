"""One announcement per change: what the table core did, told to whoever listens.

Every write the server makes ends in one announcement (:meth:`Changes.announce`): a game's new
version (:class:`Moved`, also when the store tells of another process's), or a message for every
connection of a game (:class:`Said`: a chat message, a rematch). The parts that follow the games
hear them: the push hub (the sockets), the bots (a bot awaited moves), the clock (a new version
starts to wait). None of them is called by a transport, and none calls another: each hears.

A hearer runs on the event loop, at once, and must not block: it notes the change and wakes its
own task. No web framework here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import frozen

from avanti.server.table.record import TableRecord

__all__ = ["Change", "Changes", "Moved", "Said"]


@frozen
class Moved:
    """A game's new version, stored."""

    game_id: str
    """The game."""
    game: Any
    """The game at its new version (an :class:`avanti.core.game.Game`)."""
    record: TableRecord | None = None
    """The table's record as the write left it (its seats, its clock), when the writer knows
    it; ``None`` for a version read from the store's followers."""
    here: bool = True
    """Whether this process wrote it (``False``: another process, told by the store)."""


@frozen
class Said:
    """A message for every connection of a game (its JSON text: a chat message, a rematch)."""

    game_id: str
    """The game."""
    text: str
    """The message, as every connection is sent it."""


Change = Moved | Said
"""What :meth:`Changes.announce` tells."""


class Changes:
    """The hearers of the server's changes (see the module's docstring)."""

    def __init__(self) -> None:
        self._hearers: list[Callable[[Change], None]] = []

    def hear(self, hearer: Callable[[Change], None]) -> None:
        """Tell ``hearer`` every change from now on, in the order they were announced."""
        self._hearers.append(hearer)

    def announce(self, change: Change) -> None:
        """Tell every hearer of ``change``, in the order they began to hear."""
        for hearer in self._hearers:
            hearer(change)
