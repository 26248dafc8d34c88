"""The state of an Avanti game: one frozen value, folded from the event log."""

from __future__ import annotations

import enum
from operator import attrgetter
from typing import Any

from attrs import field, fields, frozen

from avanti.core import Rng
from avanti.game.board import Board
from avanti.game.deck import Deck
from avanti.game.options import RuleOptions

__all__ = ["GameState", "Laid", "Phase", "Table"]

Laid = tuple[int, int]
"""A card laid face down this round and the number chosen for it: ``(card, number)`` (A8)."""


class Phase(enum.StrEnum):
    """The step of the game that the next command belongs to."""

    MARKER = "marker"
    """The starting player places the event marker (A7)."""
    PLANNING = "planning"
    """Every active player lays a card (A8)."""
    DRIVING = "driving"
    """Players drive or quit one at a time in the fixed turn order (A9, A10)."""
    INVESTING = "investing"
    """Between runs: every player invests or passes (A22, A23)."""
    OVER = "over"
    """A figure reached the dream island (A20, A24)."""


def _distinct(numbers: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(numbers))


@frozen
class Table:
    """What does not change during a game: seats, board, deck, options, and lookups built once.

    Shared by every state of a game (DESIGN "Performance principles"). Equality looks at the
    players, board, deck and options only; the lookups follow from them.
    """

    players: int
    board: Board
    deck: Deck
    options: RuleOptions
    track_length: int = field(init=False, eq=False, repr=False)
    """How many road spaces there are (A4)."""
    tolls: tuple[int, ...] = field(init=False, eq=False, repr=False)
    """The toll a car pays on each road space; 0 on a parking lot (A15)."""
    lots: tuple[tuple[int, int], ...] = field(init=False, eq=False, repr=False)
    """Every parking lot as ``(space, ATM amount)``, in road order (A21)."""
    prices: tuple[int | None, ...] = field(init=False, eq=False, repr=False)
    """The price of each island space, ``None`` where unpriced (A5, A22)."""
    island_length: int = field(init=False, eq=False, repr=False)
    """The index of the last island space (A5)."""
    dream_island_start: int = field(init=False, eq=False, repr=False)
    """The first dream island space (A5, A20)."""
    numbers: tuple[tuple[int, ...], ...] = field(init=False, eq=False, repr=False)
    """The distinct numbers printed on each card, by card id (A3)."""

    def __attrs_post_init__(self) -> None:
        board = self.board
        put = object.__setattr__
        put(self, "track_length", board.track_length)
        put(self, "tolls", tuple(0 if s.is_parking else s.amount for s in board.track))
        put(self, "lots", tuple((i, s.amount) for i, s in enumerate(board.track) if s.is_parking))
        put(self, "prices", board.island)
        put(self, "island_length", board.island_length)
        put(self, "dream_island_start", board.dream_island_start)
        put(self, "numbers", tuple(_distinct(card.numbers) for card in self.deck.cards))


@frozen
class GameState:
    """Everything about an Avanti game at one moment, hidden facts included.

    Show players :func:`avanti.view` instead: this holds every hand, the draw pile order and the
    generator (A30). Per seat ``s``: ``distances[s]`` is how far its car has driven this run
    (A12), ``cash[s]`` its monetas, ``island[s]`` its figure's island space, ``hands[s]`` its
    cards, ``laid[s]`` the card it laid this round, ``quit[s]`` whether it left the run (A14),
    ``invested[s]`` whether it invested or passed (A22). ``order`` is the driving order fixed
    for this round and ``turn`` how many in it have acted (A10). ``ranking`` is the last finished
    run's final ranking, leader first (ties, A12; next start, A25, A26), clockwise from the
    starting player before the first run ends.
    """

    table: Table
    phase: Phase
    run: int
    round: int
    starting_seat: int
    marker: int
    distances: tuple[int, ...]
    cash: tuple[int, ...]
    island: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    laid: tuple[Laid | None, ...]
    quit: tuple[bool, ...]
    order: tuple[int, ...]
    turn: int
    ranking: tuple[int, ...]
    invested: tuple[bool, ...]
    winner: int | None
    rng: Rng

    @property
    def players(self) -> int:
        """How many seats there are (A1)."""
        return self.table.players

    def road_space(self, seat: int) -> int:
        """The road space of ``seat``'s car: distance past the marker, round the loop (A12)."""
        return (self.marker + self.distances[seat]) % self.table.track_length

    def to_act(self) -> int | None:
        """The seat whose driving turn it is (A10), or ``None`` outside the driving step."""
        if self.phase is Phase.DRIVING and self.turn < len(self.order):
            return self.order[self.turn]
        return None

    def but(self, **changes: Any) -> GameState:
        """A copy with some fields replaced.

        ``evolve`` calls this for every event, so it reads every field at once and calls the
        constructor positionally instead of going through ``attrs.evolve`` (DESIGN "Performance
        principles"); like ``evolve``, it checks nothing.
        """
        values = list(_all_fields(self))
        for name, value in changes.items():
            values[_FIELD_INDEX[name]] = value
        return GameState(*values)


_FIELD_NAMES = tuple(a.name for a in fields(GameState))
_FIELD_INDEX = {name: index for index, name in enumerate(_FIELD_NAMES)}
_all_fields = attrgetter(*_FIELD_NAMES)
