"""Players that choose commands: the :class:`Bot` protocol and bots that work for any game.

A bot sees only what its seat may see (a view) and the legal commands, and draws any randomness it
needs from the :class:`~avanti.core.rng.Stream` it is given, so a seeded run is reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from avanti.core.rng import Stream

__all__ = ["Bot", "RandomBot"]

ViewT = TypeVar("ViewT", contravariant=True)
CommandT = TypeVar("CommandT")


class Bot(Protocol[ViewT, CommandT]):
    """Anything that picks one of the legal commands for its seat."""

    def choose(self, view: ViewT, legal_commands: Sequence[CommandT], rng: Stream) -> CommandT:
        """Pick one of ``legal_commands`` (never empty) given what the seat sees."""
        ...


class RandomBot:
    """Picks uniformly among the legal commands: the baseline every other bot must beat."""

    def choose(self, view: object, legal_commands: Sequence[CommandT], rng: Stream) -> CommandT:
        """A uniformly random legal command."""
        return rng.choice(legal_commands)
