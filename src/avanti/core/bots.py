"""What a bot is, the bot every game gets, and what a game tells the tools about its own bots.

A bot sees only what its seat may see (a view) and its legal commands, and draws any randomness
it needs from the :class:`~avanti.core.rng.Stream` it is given, so a seeded run is reproducible.
A game's package offers a :class:`GameKit` in its ``bots`` module (``avanti.mare.bots.KIT``);
the tools (:func:`avanti.bots.make_bot`, the simulator, the command line) build bots only
through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from attrs import frozen

from avanti.core.rng import Stream

if TYPE_CHECKING:
    from avanti.core.search import Evaluate, StateSampler

__all__ = ["Bot", "GameKit", "RandomBot"]

ViewT = TypeVar("ViewT", contravariant=True)
CommandT = TypeVar("CommandT")


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


def _no_counts(events: tuple[Any, ...]) -> Mapping[str, int]:
    return {}


@frozen(kw_only=True)
class GameKit:
    """The bot-side facts of one game.

    ``heuristic(setup, seat)`` builds the game's heuristic bot (it may read the public parts of
    the setup: board, deck, options). ``sampler(setup)`` builds a
    :class:`~avanti.core.search.StateSampler`, or is ``None`` when the game offers none (then
    there is no search bot). ``reward(outcome, seat)`` is what the search bot plays for, in
    [0, 1] (it may value a near miss above a rout; who *won* is always ``outcome.winners``).
    ``counts(events)`` gives extra per-game numbers for the simulator (runs in Avanti).
    ``iterations`` is the search bot's default budget: sampled games per decision.
    ``evaluate``, when given, lets the search bot stop a rollout early and score the position
    (see :data:`avanti.core.search.Evaluate`).
    """

    heuristic: Callable[[Any, int], Bot[Any, Any]]
    sampler: Callable[[Any], StateSampler[Any, Any]] | None
    reward: Callable[[Any, int], float]
    iterations: int = 200
    counts: Callable[[tuple[Any, ...]], Mapping[str, int]] = _no_counts
    evaluate: Evaluate | None = None
