"""The state of an Avanti game: one frozen value, folded from the event log."""

from __future__ import annotations

import enum
import functools
from typing import Any, TypeAlias

from attrs import field, frozen

from avanti.avanti.board import Board
from avanti.avanti.commands import Drive, Invest, PlaceEventMarker, PlayCard, Quit
from avanti.avanti.deck import Deck
from avanti.avanti.options import RuleOptions
from avanti.core import Rng
from avanti.core.values import DraftOf, Replacer

__all__ = ["Draft", "GameState", "Laid", "Phase", "StateLike", "Table", "table_for"]

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
    rotations: tuple[tuple[int, ...], ...] = field(init=False, eq=False, repr=False)
    """``rotations[first]``: every seat, clockwise from ``first`` (A1)."""
    plays: tuple[tuple[tuple[PlayCard, ...], ...], ...] = field(init=False, eq=False, repr=False)
    """``plays[seat][card]``: the ``PlayCard`` commands for each number on the card (A8)."""
    turns: tuple[tuple[Drive, Quit], ...] = field(init=False, eq=False, repr=False)
    """``turns[seat]``: the seat's ``Drive`` and ``Quit`` commands (A9)."""
    markers: tuple[tuple[PlaceEventMarker, ...], ...] = field(init=False, eq=False, repr=False)
    """``markers[seat]``: the seat's ``PlaceEventMarker`` command for each road space (A7)."""
    investments: tuple[tuple[Invest, ...], ...] = field(init=False, eq=False, repr=False)
    """``investments[seat][steps]``: the seat's ``Invest`` commands, from 0 steps (A22)."""

    def __attrs_post_init__(self) -> None:
        board = self.board
        put = object.__setattr__
        put(self, "track_length", board.track_length)
        put(self, "tolls", tuple(0 if s.is_parking else s.amount for s in board.track))
        put(self, "lots", tuple((i, s.amount) for i, s in enumerate(board.track) if s.is_parking))
        put(self, "prices", board.island)
        put(self, "island_length", board.island_length)
        put(self, "dream_island_start", board.dream_island_start)
        numbers = tuple(_distinct(card.numbers) for card in self.deck.cards)
        put(self, "numbers", numbers)
        # legal_commands hands these out instead of building commands on every call: commands
        # are values, so every state and every game on equal tables may share them.
        seats = range(self.players)
        put(self, "rotations", tuple(tuple((s + i) % self.players for i in seats) for s in seats))
        put(
            self,
            "plays",
            tuple(
                tuple(tuple(PlayCard(seat, card, n) for n in ns) for card, ns in enumerate(numbers))
                for seat in seats
            ),
        )
        put(self, "turns", tuple((Drive(seat), Quit(seat)) for seat in seats))
        spaces = range(board.track_length)
        put(self, "markers", tuple(tuple(PlaceEventMarker(s, x) for x in spaces) for s in seats))
        steps = range(board.island_length + 1)
        put(self, "investments", tuple(tuple(Invest(s, k) for k in steps) for s in seats))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle the parts only: the lookups follow from them and are many (every command).
        return (table_for, (self.players, self.board, self.deck, self.options))


@functools.lru_cache(maxsize=32)
def table_for(players: int, board: Board, deck: Deck, options: RuleOptions) -> Table:
    """The table for these parts, built once and shared by every game on equal parts.

    A table is a frozen value that follows from its parts alone, so a remembered one is equal to
    a fresh one; games with the default board and deck skip building their lookups again.
    """
    return Table(players, board, deck, options)


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
        return _REPLACE(self, changes)


_REPLACE = Replacer(GameState)


class Draft(DraftOf[GameState]):
    """A working copy of a :class:`GameState` whose fields are replaced one event at a time.

    ``evolve`` and ``decide`` fold events into a draft and build one frozen state at the end,
    instead of a whole new state per event (DESIGN "Performance principles"). A draft holds the
    same immutable values as a state (tuples, never lists), lives inside one call and is never
    shared: nothing outside that call sees it change.

    :class:`~avanti.core.values.DraftOf` generates its slots, ``Draft(state)``, which copies
    every field, and ``freeze()``, which fills a new state's slots directly, as the generated
    ``__init__`` would, without looking each slot up by name: ``GameState`` has no validators,
    converters or post-init step to skip (class creation checks it). The annotations below are
    for the type checker; class creation checks that they are the state's fields, in order, with
    the same types.
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

    def road_space(self, seat: int) -> int:
        """The road space of ``seat``'s car: distance past the marker, round the loop (A12)."""
        return (self.marker + self.distances[seat]) % self.table.track_length


StateLike: TypeAlias = GameState | Draft
"""What the rules read of a state: a :class:`GameState`, or the :class:`Draft` of one."""
