"""Bots of a user's own, defined at module level so worker processes and Ray can import them."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from attrs import frozen

from avanti.core import Stream


@frozen
class FirstBot:
    """Always plays the first legal command: a user's bot with no arguments."""

    def choose(self, view: object, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """The first legal command."""
        return legal_commands[0]


@frozen
class LastBot:
    """Always plays the last legal command; built for a seat by ``LastBot(setup, seat)``."""

    setup: Any
    seat: int

    def choose(self, view: object, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """The last legal command."""
        return legal_commands[-1]


class CountingBot:
    """A bot that keeps state: it counts its choices (a fresh copy plays every game)."""

    def __init__(self) -> None:
        self.choices = 0

    def choose(self, view: object, legal_commands: Sequence[Any], rng: Stream) -> Any:
        """A random legal command, skipping one more command each time it has chosen 50."""
        self.choices += 1
        return legal_commands[
            (rng.below(len(legal_commands)) + self.choices // 50) % len(legal_commands)
        ]


def never_done(_: object) -> None:
    """A task that does not end by itself (it waits on an event nobody sets): one to cancel."""
    threading.Event().wait()
