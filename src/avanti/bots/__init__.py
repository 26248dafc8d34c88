"""Players that choose commands: the :class:`Bot` protocol, and the bots every game gets.

A bot sees only what its seat may see (a view) and its legal commands, and draws any randomness it
needs from the :class:`~avanti.core.rng.Stream` it is given, so a seeded run is reproducible.

Three kinds of bot play the games in the catalog (:func:`avanti.bots.kit.make_bot` builds one
by name):

- ``random``: :class:`RandomBot`, a uniformly random legal command; the baseline.
- ``heuristic``: a hand-written strategy per game, documented on its class
  (:class:`avanti.bots.flagship.AvantiBot`, :class:`avanti.bots.mare.MareBot`,
  :class:`avanti.bots.forsale.AutoramaBot`).
- ``search``: :class:`avanti.bots.search.SearchBot`, Monte Carlo tree search over hidden states
  sampled from the view by the game's :class:`~avanti.bots.search.StateSampler`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from attrs import frozen

from avanti.core.rng import Stream

__all__ = ["BOT_KINDS", "Bot", "RandomBot"]

ViewT = TypeVar("ViewT", contravariant=True)
CommandT = TypeVar("CommandT")

BOT_KINDS: tuple[str, ...] = ("random", "heuristic", "search")
"""The names :func:`avanti.bots.kit.make_bot` accepts, weakest first."""


class Bot(Protocol[ViewT, CommandT]):
    """Anything that picks one of the legal commands for its seat."""

    def choose(self, view: ViewT, legal_commands: Sequence[CommandT], rng: Stream) -> CommandT:
        """Pick one of ``legal_commands`` (never empty, all for this seat) given its view."""
        ...


@frozen
class RandomBot:
    """Picks uniformly among the legal commands: the baseline every other bot must beat."""

    def choose(self, view: object, legal_commands: Sequence[CommandT], rng: Stream) -> CommandT:
        """A uniformly random legal command."""
        return rng.choice(legal_commands)
