"""Drive a game with bots, one command at a time."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from attrs import frozen

from avanti.core.bots import Bot
from avanti.core.rng import Rng

__all__ = ["Playable", "Step", "play"]

GameT = TypeVar("GameT")
GameT_co = TypeVar("GameT_co", covariant=True)
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")
EventT_co = TypeVar("EventT_co", covariant=True)
ViewT_co = TypeVar("ViewT_co", covariant=True)


class Playable(Protocol[GameT_co, CommandT, EventT_co, ViewT_co]):
    """What the driver needs of a game: every :class:`avanti.core.Game` is one.

    ``execute`` returns the game's own class (``GameT_co``), so a step's game has the type of the
    game that was started.
    """

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    @property
    def events(self) -> tuple[EventT_co, ...]:
        """The event log."""
        ...

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats that may issue a command now, lowest first."""
        ...

    def legal_commands(self, seat: int | None = None) -> Sequence[CommandT]:
        """The commands that execute now."""
        ...

    def view(self, seat: int | None = None) -> ViewT_co:
        """What ``seat`` may see."""
        ...

    def execute(self, command: CommandT, expected_version: int | None = None) -> GameT_co:
        """The game after ``command``."""
        ...


@frozen
class Step(Generic[GameT, CommandT, EventT]):
    """One executed command, the events it caused, and the game after it."""

    command: CommandT
    events: tuple[EventT, ...]
    game: GameT


def play(
    game: Playable[GameT, CommandT, EventT, Any],
    bots: Mapping[int, Bot[Any, CommandT]],
    *,
    seed: int = 0,
    max_commands: int = 100_000,
) -> Iterator[Step[GameT, CommandT, EventT]]:
    """Yield each step of ``game`` played by ``bots`` (seat -> bot) until it ends.

    The seat that acts is the lowest of those the game waits for
    (:attr:`~avanti.core.Game.waiting`): where several may act in any order (laying cards face
    down, investing, offering), taking the lowest first changes nothing in the rules and keeps
    runs reproducible. The bots draw from
    their own generator, seeded with ``seed``; the game's own randomness stays in the game.
    """
    stream = Rng(seed).stream()
    current: Playable[GameT, CommandT, EventT, Any] = game
    for _ in range(max_commands):
        if current.is_over:
            return
        seat = current.waiting[0]
        mine = tuple(current.legal_commands(seat))
        command = bots[seat].choose(current.view(seat), mine, stream)
        after = current.execute(command)
        events: tuple[EventT, ...] = after.events[len(current.events) :]  # type: ignore[attr-defined]
        yield Step(command, events, after)
        current = after  # type: ignore[assignment]  # a game's execute returns its own class
    raise RuntimeError(f"the game did not end within {max_commands} commands")
