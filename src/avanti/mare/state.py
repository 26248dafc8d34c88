"""The state of a game of Avanti mare!, and the result of a finished one."""

from __future__ import annotations

import enum

from attrs import frozen

from avanti import core
from avanti.core.values import builder
from avanti.mare.setup import CAUGHT, FISH, SEA, Fish, Options, Side

__all__ = ["GameState", "Outcome", "Result", "build_state"]


class Result(enum.StrEnum):
    """How a game ended (M8): more fish free, more caught, or two and two."""

    FISH = "fish"
    """More fish are free than caught: the fish friends win."""
    FISHERS = "fishers"
    """More fish are caught than free: the fisher fans win."""
    DRAW = "draw"
    """Two fish free and two caught."""

    @property
    def winner(self) -> Side | None:
        """The winning side, or ``None`` for a draw."""
        if self is Result.FISH:
            return Side.FISH_FRIENDS
        if self is Result.FISHERS:
            return Side.FISHER_FANS
        return None

    @classmethod
    def of(cls, free: int, caught: int) -> Result:
        """The result for a count of free and caught fish (M8)."""
        if free > caught:
            return cls.FISH
        if caught > free:
            return cls.FISHERS
        return cls.DRAW


@frozen
class GameState:
    """Where everything stands: the river, the boat, the fish, whose turn it is, the generator.

    ``boat`` counts the river pieces taken away so far (0-11, M5): the piece in front of the boat
    is ``boat + 1``, and ``boat == 11`` means the boat has reached the sea. ``fish[i]`` is the
    place of ``FISH[i]``: a river piece 1-11, :data:`SEA` (12) when free, :data:`CAUGHT` (0) when
    caught (M1). ``move_due`` is set while the seat ``turn`` has a free fish's move to answer
    (M6): a ``MoveFish``, or a ``SkipMove`` unless the options make the move owed.
    ``result`` is set once the game has ended (M8). ``rng`` is the seeded generator (M3); it is
    hidden from every view.
    """

    sides: tuple[Side, ...]
    options: Options
    boat: int
    fish: tuple[int, ...]
    turn: int
    move_due: bool
    result: Result | None
    rng: core.Rng

    def place(self, fish: Fish) -> int:
        """The place of one fish: a piece 1-11, ``SEA`` or ``CAUGHT``."""
        return self.fish[fish.slot]

    def in_river(self) -> tuple[Fish, ...]:
        """The fish still swimming in the river, in colour order."""
        return tuple(f for f, p in zip(FISH, self.fish, strict=True) if CAUGHT < p < SEA)

    def free(self) -> tuple[Fish, ...]:
        """The fish that reached the sea (M4)."""
        return tuple(f for f, p in zip(FISH, self.fish, strict=True) if p == SEA)

    def caught(self) -> tuple[Fish, ...]:
        """The fish the fishers caught (M5)."""
        return tuple(f for f, p in zip(FISH, self.fish, strict=True) if p == CAUGHT)

    @property
    def seats(self) -> int:
        """How many players are at the table."""
        return len(self.sides)


build_state = builder(GameState)
"""A new :class:`GameState`, from one keyword argument per field.

``evolve`` builds one per event: this is faster than calling the class, by keyword or by
position (see :func:`avanti.core.values.builder`).
"""


@frozen
class Outcome:
    """The result of a finished game (M8).

    ``free`` and ``caught`` count the fish; ``result`` says which is more; ``winner`` is the
    winning side (``None`` for a draw) and ``winners`` the seats that backed it (none on a
    draw). As in every game, ``returns`` gives each seat 1.0 if it won and 0.0 if not.
    """

    free: int
    caught: int
    result: Result
    winner: Side | None
    winners: tuple[int, ...]
    returns: tuple[float, ...]
