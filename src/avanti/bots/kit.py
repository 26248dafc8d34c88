"""Build any game's bots by name: :func:`make_bot` and :func:`kit_for`.

Each game's package holds a :class:`~avanti.core.bots.GameKit` as ``KIT`` in its ``bots``
module: its heuristic bot, its sampler of hidden states (for the search bot), what the search
bot plays for, and a few facts the simulator reports. The CLI, the simulator and the benchmarks
build bots only through :func:`make_bot`, so a new game needs a kit and nothing else.
"""

from __future__ import annotations

from typing import Any

from avanti.catalog import GameInfo
from avanti.core.bots import Bot, GameKit, RandomBot
from avanti.core.errors import InvalidArgument
from avanti.core.search import SearchBot

__all__ = ["BOT_KINDS", "kit_for", "make_bot"]

BOT_KINDS: tuple[str, ...] = ("random", "heuristic", "search")
"""The names :func:`make_bot` accepts, weakest first."""


def kit_for(info: GameInfo) -> GameKit:
    """The kit of a game in the catalog (``KIT`` in its package's ``bots`` module)."""
    return info.load_kit()


def make_bot(
    kind: str,
    info: GameInfo,
    setup: Any,
    seat: int,
    *,
    iterations: int | None = None,
) -> Bot[Any, Any]:
    """A bot of ``kind`` (one of :data:`BOT_KINDS`) for ``seat`` of a game.

    ``iterations`` overrides the search bot's budget.

    :raises InvalidArgument: an unknown kind, or ``search`` for a game without a state sampler.
    """
    if kind == "random":
        return RandomBot()
    kit = kit_for(info)
    if kind == "heuristic":
        return kit.heuristic(setup, seat)
    if kind == "search":
        if kit.sampler is None:
            raise InvalidArgument(
                f"{info.title} offers no sampler of hidden states, so it has no search bot"
            )
        players = len(setup.players)
        return SearchBot(
            rules=info.load().Game.rules,
            sampler=kit.sampler(setup),
            reward=kit.reward,
            players=players,
            rollout=tuple(kit.heuristic(setup, s) for s in range(players)),
            iterations=iterations if iterations is not None else kit.iterations,
            evaluate=kit.evaluate,
        )
    raise InvalidArgument(f"unknown bot {kind!r}; choose from {', '.join(BOT_KINDS)}")
