"""A search bot for any game whose views can be filled in: information-set Monte Carlo tree search.

A bot may not look at the true state. To search, it needs a *determinization*: a full state that
agrees with everything its view shows, with the hidden parts (other hands, the draw pile's order,
the generator) filled in at random. A game offers that through the small optional
:class:`StateSampler` protocol. For a game without hidden information (Avanti mare!) the sampler
rebuilds the state from the view exactly and only draws a fresh generator, since the dice to come
are unknown to everyone.

:class:`SearchBot` runs single-observer information-set MCTS (Cowling, Powley and Whitehouse,
2012): each of its ``iterations`` samples a new determinization, walks one shared tree choosing
among the commands legal in that determinization by UCB1 with availability counts, adds one node,
and plays on with the rollout bots (the game's heuristic bots by default): to the end of the
game, or until the game's optional ``evaluate`` scores the position (a cut-off that keeps long
games affordable). Every seat in the tree maximises its own reward, so it models each opponent as
playing for itself. The command tried most often at the root is played.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from attrs import field, frozen

from avanti.core.bots import Bot
from avanti.core.errors import InvalidArgument
from avanti.core.game import execute
from avanti.core.rng import Rng, Stream
from avanti.core.ruleset import Ruleset

__all__ = ["Evaluate", "SearchBot", "StateSampler", "fresh_rng"]

ViewT = TypeVar("ViewT", contravariant=True)
StateT = TypeVar("StateT", covariant=True)

MAX_ROLLOUT = 5_000
"""A rollout longer than this many commands means a game that never ends: it raises."""


Evaluate = Callable[[Any, Any], Sequence[float] | None]
"""``evaluate(start, state)``: every seat's reward in [0, 1] for a position a rollout reached
from ``start``, or ``None`` to play on. A game offers one to cut long rollouts short."""


class StateSampler(Protocol[ViewT, StateT]):
    """Fills in what a view hides: a full state, drawn at random, consistent with the view."""

    def sample_state(self, view: ViewT, seat: int, rng: Stream) -> StateT:
        """A state ``seat`` cannot tell apart from the true one, given ``view``.

        Every fact the view shows must hold in the state; hidden facts are drawn from ``rng``.
        The state's own generator must be drawn too, so that future dice and shuffles are
        unknown, as they are to the player.
        """
        ...


class _Node:
    """One command in the tree: how often it was available, tried, and what it earned."""

    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Any, _Node] = {}

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


def _at_least_one(bot: object, attribute: object, iterations: int) -> None:
    if iterations < 1:
        raise InvalidArgument(f"the search needs at least one iteration, got {iterations}")


@frozen(kw_only=True)
class SearchBot:
    """Information-set MCTS over determinizations drawn by a :class:`StateSampler`.

    Budget: ``iterations`` sampled games per decision, each walking the tree, adding one node
    and playing on with ``rollout`` (one bot per seat) to the end of the game or until
    ``evaluate`` scores the position. A decision with a single legal command costs nothing.
    ``exploration`` is the UCB1 constant; rewards are in [0, 1]. Every other seat in the tree
    is the lowest seat with a legal command, as in :func:`avanti.bots.driver.play`.
    """

    rules: Ruleset[Any, Any, Any, Any, Any, Any] = field(repr=False)
    sampler: StateSampler[Any, Any] = field(repr=False)
    reward: Callable[[Any, int], float] = field(repr=False)
    players: int = field(repr=False)
    rollout: tuple[Bot[Any, Any], ...] = field(repr=False)
    iterations: int = field(default=200, validator=_at_least_one)
    exploration: float = 0.7
    evaluate: Evaluate | None = field(default=None, repr=False)

    def choose(self, view: Any, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """The root command the search visited most (ties: the first in ``legal_commands``)."""
        if len(legal_commands) == 1:
            return legal_commands[0]
        seat = legal_commands[0].seat
        allowed = frozenset(legal_commands)
        root = _Node(seat)
        for _ in range(self.iterations):
            state = self.sampler.sample_state(view, seat, rng)
            self._iterate(root, state, allowed, rng)
        return max(
            legal_commands,
            key=lambda c: root.children[c].visits if c in root.children else -1,
        )

    def _iterate(self, root: _Node, state: Any, allowed: frozenset[Any], rng: Stream) -> None:
        rules = self.rules
        start = state
        node = root
        path: list[_Node] = []
        while rules.outcome(state) is None:
            legal = rules.legal_commands(state)
            if node is root:  # the bot's own move, whichever seats may also act now
                actor = root.seat
                mine = [c for c in legal if c in allowed]
            else:
                actor = rules.waiting(state)[0]  # the lowest seat waited for acts first
                mine = [c for c in legal if c.seat == actor]
            if not mine:  # a sampler that disagrees with the view: score the position as is
                break
            untried = [c for c in mine if c not in node.children]
            for command in mine:
                if command in node.children:
                    node.children[command].available += 1
            if untried:
                command = rng.choice(untried)
                child = node.children[command] = _Node(actor)
                child.available = 1
                path.append(child)
                state = execute(rules, state, command)[0]
                break
            exploration = self.exploration
            command = max(mine, key=lambda c: node.children[c].ucb(exploration))
            node = node.children[command]
            path.append(node)
            state = execute(rules, state, command)[0]
        rewards = self._playout(start, state, rng)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.seat]

    def _playout(self, start: Any, state: Any, rng: Stream) -> Sequence[float]:
        rules = self.rules
        evaluate = self.evaluate
        for _ in range(MAX_ROLLOUT):
            outcome = rules.outcome(state)
            if outcome is not None:
                return [self.reward(outcome, s) for s in range(self.players)]
            if evaluate is not None:
                scores = evaluate(start, state)
                if scores is not None:
                    return scores
            actor = rules.waiting(state)[0]
            mine = [c for c in rules.legal_commands(state) if c.seat == actor]
            command = self.rollout[actor].choose(rules.view(state, actor), mine, rng)
            state = execute(rules, state, command)[0]
        raise RuntimeError(f"a rollout did not end within {MAX_ROLLOUT} commands")


def fresh_rng(rng: Stream) -> Rng:
    """A generator no player can foresee, for a sampled state (drawn from the bot's stream)."""
    return Rng(rng.bits64())
