"""Avanti mare! as a PettingZoo AEC environment under its PettingZoo name, ``mare_v1``:
``from avanti.rl import mare_v1; env = mare_v1.env()`` (see :mod:`avanti.rl.aec`)."""

from __future__ import annotations

from typing import Any

from avanti.rl.aec import AvantiEnv
from avanti.rl.aec import env as _env
from avanti.rl.aec import raw_env as _raw_env

__all__ = ["env", "raw_env"]


def env(
    players: int | None = None,
    *,
    observation: str = "view",
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> Any:
    """Avanti mare!'s environment, wrapped as PettingZoo's classic games are
    (:func:`avanti.rl.aec.env`)."""
    return _env(
        "mare",
        players,
        observation=observation,
        render_mode=render_mode,
        illegal_reward=illegal_reward,
    )


def raw_env(
    players: int | None = None, *, observation: str = "view", render_mode: str | None = None
) -> AvantiEnv:
    """Avanti mare!'s environment, unwrapped (:func:`avanti.rl.aec.raw_env`)."""
    return _raw_env("mare", players, observation=observation, render_mode=render_mode)
