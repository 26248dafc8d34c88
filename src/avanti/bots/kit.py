"""What the generic tools need to know about one game's bots, and :func:`make_bot`.

Each game in :mod:`avanti.catalog` names a module holding a :class:`GameKit`: its heuristic bot,
its sampler of hidden states (for the search bot), how a finished game scores for a seat, and a
few facts the simulator reports. The CLI, the simulator and the benchmarks build bots only
through :func:`make_bot`, so a new game needs a kit and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from attrs import frozen

from avanti.bots import BOT_KINDS, Bot, RandomBot
from avanti.bots.search import Evaluate, SearchBot, StateSampler
from avanti.catalog import GameInfo

__all__ = ["GameKit", "kit_for", "make_bot"]


def _no_counts(events: tuple[Any, ...]) -> Mapping[str, int]:
    return {}


@frozen
class GameKit:
    """The bot-side facts of one game.

    ``heuristic(setup, seat)`` builds the game's heuristic bot (it may read the public parts of
    the setup: board, deck, options). ``sampler(setup)`` builds a
    :class:`~avanti.bots.search.StateSampler`, or is ``None`` when the game offers none (then
    there is no search bot). ``reward(outcome, seat)`` scores a finished game for a seat in
    [0, 1]; ``winners(outcome)`` lists the seats that won (empty for a draw). ``counts(events)``
    gives extra per-game numbers for the simulator (runs in Avanti). ``iterations`` is the search
    bot's default budget: sampled games per decision. ``evaluate``, when given, lets the search
    bot stop a rollout early and score the position (see :data:`avanti.bots.search.Evaluate`).
    """

    heuristic: Callable[[Any, int], Bot[Any, Any]]
    sampler: Callable[[Any], StateSampler[Any, Any]] | None
    reward: Callable[[Any, int], float]
    winners: Callable[[Any], tuple[int, ...]]
    iterations: int = 200
    counts: Callable[[tuple[Any, ...]], Mapping[str, int]] = _no_counts
    evaluate: Evaluate | None = None


def kit_for(info: GameInfo) -> GameKit:
    """The kit of a game in the catalog."""
    kit: GameKit = info.load_kit()
    return kit


def make_bot(
    kind: str,
    info: GameInfo,
    setup: Any,
    seat: int,
    *,
    iterations: int | None = None,
) -> Bot[Any, Any]:
    """A bot of ``kind`` (one of :data:`~avanti.bots.BOT_KINDS`) for ``seat`` of a game.

    ``iterations`` overrides the search bot's budget.

    :raises ValueError: an unknown kind, or ``search`` for a game without a state sampler.
    """
    if kind == "random":
        return RandomBot()
    kit = kit_for(info)
    if kind == "heuristic":
        return kit.heuristic(setup, seat)
    if kind == "search":
        if kit.sampler is None:
            raise ValueError(
                f"{info.title} offers no sampler of hidden states, so it has no search bot"
            )
        players = len(setup.players)
        return SearchBot(
            rules=info.load().Game.rules(),
            sampler=kit.sampler(setup),
            reward=kit.reward,
            players=players,
            rollout=tuple(kit.heuristic(setup, s) for s in range(players)),
            iterations=iterations if iterations is not None else kit.iterations,
            evaluate=kit.evaluate,
        )
    raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOT_KINDS)}")
