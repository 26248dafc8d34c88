"""The games for learning and search tools: PettingZoo environments and OpenSpiel games.

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo, open-spiel). Every game of the catalog
whose package offers an ``encoding`` (:mod:`avanti.core.encoding`) is served, through the
catalog and the protocols only:

- :func:`env`: a PettingZoo AEC environment, ``avanti.rl.env("mare", players=4)``, wrapped as
  PettingZoo's classic games are; :func:`raw_env` the same unwrapped (:mod:`avanti.rl.aec`);
  each game's module of its environment's name, ``avanti.rl.mare_v1`` (and ``avanti_v1``,
  ``autorama_v1``), with ``env`` and ``raw_env``.
- :func:`load_game`: an OpenSpiel game, ``avanti.rl.load_game("mare", players=2)``; importing
  :mod:`avanti.rl.openspiel` registers every game as ``avanti_<name>`` for
  ``pyspiel.load_game``.
- :class:`~avanti.rl.table.Table`: what both stand on, a game with every random result left
  open as an explicit draw (:mod:`avanti.rl.table`).

The modules import their ecosystem only when used: ``avanti.rl.env`` never loads OpenSpiel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from avanti.rl.table import Position, Table

if TYPE_CHECKING:
    from avanti.rl.aec import AvantiEnv
    from avanti.rl.openspiel import AvantiGame

__all__ = ["Position", "Table", "env", "load_game", "raw_env"]


def env(
    name: str = "avanti",
    players: int | None = None,
    *,
    observation: str = "view",
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> Any:
    """A PettingZoo AEC environment for a game of the catalog, wrapped as PettingZoo's classic
    games are (:func:`avanti.rl.aec.env`)."""
    from avanti.rl.aec import env as make

    return make(
        name,
        players,
        observation=observation,
        render_mode=render_mode,
        illegal_reward=illegal_reward,
    )


def raw_env(
    name: str = "avanti",
    players: int | None = None,
    *,
    observation: str = "view",
    render_mode: str | None = None,
) -> AvantiEnv:
    """A PettingZoo AEC environment for a game of the catalog, unwrapped
    (:func:`avanti.rl.aec.raw_env`)."""
    from avanti.rl.aec import raw_env as make

    return make(name, players, observation=observation, render_mode=render_mode)


def load_game(
    name: str,
    players: int | None = None,
    document: str = "",
    history: Sequence[int] = (),
    *,
    chance: str = "explicit",
    seed: int | None = None,
) -> AvantiGame:
    """An OpenSpiel game for a game of the catalog (:func:`avanti.rl.openspiel.load_game`),
    with explicit chance nodes or, with ``chance="sampled"``, none."""
    from avanti.rl.openspiel import load_game as load

    return load(name, players, document, history, chance=chance, seed=seed)
