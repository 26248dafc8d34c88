"""The toy race's bots: a heuristic that always rolls (waiting never helps), and no sampler."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from avanti.core import Stream
from avanti.core.bots import GameKit
from tests.toy import Command, Outcome, Roll, Setup, View


@frozen
class Roller:
    """Rolls whenever it may."""

    def choose(self, view: View, legal_commands: Sequence[Command], rng: Stream) -> Command:
        """The roll."""
        return next(c for c in legal_commands if isinstance(c, Roll))


def _heuristic(setup: Setup, seat: int) -> Roller:
    return Roller()


def _reward(outcome: Outcome, seat: int) -> float:
    return outcome.returns[seat]


KIT = GameKit(heuristic=_heuristic, sampler=None, reward=_reward)
"""The toy race's bots."""
