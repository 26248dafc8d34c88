"""Drive a game with bots, one command at a time."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol, TypeVar

from attrs import frozen

from avanti.bots import Bot
from avanti.core.rng import Rng

__all__ = ["Step", "next_seat", "play"]

GameT = TypeVar("GameT", bound="_PlayableGame")


class _Seated(Protocol):
    @property
    def seat(self) -> int: ...


class _PlayableGame(Protocol):
    @property
    def is_over(self) -> bool: ...

    @property
    def events(self) -> tuple[Any, ...]: ...

    def legal_commands(self) -> tuple[Any, ...]: ...

    def view(self, seat: int | None = None) -> Any: ...

    def execute(self, command: Any, expected_version: int | None = None) -> Any: ...


@frozen
class Step:
    """One executed command, the events it caused, and the game after it."""

    command: Any
    events: tuple[Any, ...]
    game: Any


def next_seat(legal_commands: tuple[_Seated, ...]) -> int:
    """The seat that acts next: the lowest seat with a legal command.

    Where several seats may act in any order (laying cards face down, investing), taking the
    lowest seat first changes nothing in the rules and keeps runs reproducible.
    """
    return min(command.seat for command in legal_commands)


def play(
    game: GameT,
    bots: Mapping[int, Bot[Any, Any]],
    *,
    seed: int = 0,
    max_commands: int = 100_000,
) -> Iterator[Step]:
    """Yield each step of ``game`` played by ``bots`` (seat -> bot) until it ends.

    The bots draw from their own generator, seeded with ``seed``; the game's own randomness stays
    in the game.
    """
    stream = Rng(seed).stream()
    current: Any = game
    for _ in range(max_commands):
        if current.is_over:
            return
        legal = current.legal_commands()
        seat = next_seat(legal)
        mine = tuple(command for command in legal if command.seat == seat)
        command = bots[seat].choose(current.view(seat), mine, stream)
        after = current.execute(command)
        yield Step(command, after.events[len(current.events) :], after)
        current = after
    raise RuntimeError(f"the game did not end within {max_commands} commands")
