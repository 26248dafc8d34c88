"""Encodings: a game's commands as numbered actions, a seat's view as a flat tensor.

Agents in PettingZoo, Gymnasium and OpenSpiel choose among a fixed number of actions and read
fixed-size vectors of numbers. An :class:`Encoding` gives a game those two things, in plain Python
(the ``avanti[rl]`` adapters turn them into numpy arrays):

- **Actions.** ``num_actions`` distinct action ids, and a bijection between an id and a command
  of a given seat: ``command(action_id(c), c.seat) == c`` for every command the game can accept,
  and ``action_id(command(a, seat)) == a`` for every id ``a`` in ``range(num_actions)``.
  :meth:`Encoding.mask` marks the ids of the commands legal now.
- **Observations.** :meth:`Encoding.observation` turns a seat's view into ``observation_size``
  numbers; :meth:`Encoding.information_state` adds what the seat has seen happen so far (its
  own event stream), for games where the view alone forgets something a player would remember.
  Both are cut into named :class:`Piece` slices, each documented (:func:`tile` lays them out).
- **Facts.** :attr:`Encoding.facts` states what a learning tool must know about the game before
  it plays (:class:`Facts`): whether every seat sees everything, how the returns add up, the
  most outcomes one random draw has and the longest game, worked out from the setup.

An encoding is built from a game's *public* setup (``game.public_setup``: players, board, deck,
options; never the seed or a scenario's hidden cards) and reads only views and a seat's own
events. It cannot see a hidden fact, so nothing it gives an agent depends on one; each game's
tests check that on twin games all the same.

Every game package offers one: ``avanti.encoding(public_setup)``,
``avanti.mare.encoding(...)``, ``avanti.autorama.encoding(...)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Generic, TypeVar

from attrs import frozen

from avanti.core.errors import InvalidArgument

__all__ = ["Encoding", "Facts", "Piece", "check_pieces", "tile"]

CommandT = TypeVar("CommandT")
ViewT = TypeVar("ViewT")
EventT = TypeVar("EventT")


@frozen
class Piece:
    """A named slice ``[start, stop)`` of an observation or information-state vector."""

    name: str
    """A short identifier (``"cash"``, ``"road"``), unique within its vector."""
    start: int
    """The index of the slice's first number."""
    stop: int
    """One past the index of its last number."""
    meaning: str
    """What the numbers say, in a sentence: their order, scale and range."""

    @property
    def size(self) -> int:
        """How many numbers the slice holds."""
        return self.stop - self.start


def tile(layout: Iterable[tuple[str, int, str]], start: int = 0) -> tuple[Piece, ...]:
    """Pieces one after another from ``start``, from ``(name, size, meaning)`` triples."""
    pieces: list[Piece] = []
    at = start
    for name, size, meaning in layout:
        pieces.append(Piece(name, at, at + size, meaning))
        at += size
    return tuple(pieces)


@frozen
class Facts:
    """What a game is, for a learning tool, for one public setup (OpenSpiel's game type and
    game info): declared beside each game's encoding, worked out from the setup."""

    perfect_information: bool
    """Whether every seat sees the whole state at every step (no hidden hands, no
    simultaneous choices played one after another)."""
    constant_sum: float | None
    """What the returns of every finished game add up to, or ``None`` where the sum varies
    (general sum)."""
    max_chance_outcomes: int
    """The most equally likely results one random draw can have (a die's faces, the cards of
    the largest shuffle)."""
    longest_game: int | None
    """The most commands a game can take, or ``None`` where the rules set no bound (a move
    that may be declined again and again)."""
    most_draws: int | None
    """The most random draws (explicit chance nodes) a game can have, or ``None`` where the
    rules set no bound."""
    min_return: float = 0.0
    """The lowest return a seat can get."""
    max_return: float = 1.0
    """The highest return a seat can get."""


def check_pieces(pieces: Sequence[Piece]) -> int:
    """The size of a vector cut into ``pieces``, after checking that they follow one another
    from 0 without gaps or overlaps and that their names are unique.

    :raises InvalidArgument: the pieces do not tile a vector.
    """
    at = 0
    names: set[str] = set()
    for piece in pieces:
        if piece.start != at or piece.stop < piece.start:
            raise InvalidArgument(
                f"piece {piece.name!r} covers [{piece.start}, {piece.stop}); expected it to"
                f" start at {at}"
            )
        if piece.name in names:
            raise InvalidArgument(f"two pieces are named {piece.name!r}")
        names.add(piece.name)
        at = piece.stop
    return at


class Encoding(ABC, Generic[CommandT, ViewT, EventT]):
    """A game's actions and observations as numbers, for one public setup (see the module)."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """How many distinct action ids there are (the same for every seat and every state)."""

    @property
    @abstractmethod
    def observation_pieces(self) -> tuple[Piece, ...]:
        """The slices of :meth:`observation`, in order."""

    @property
    @abstractmethod
    def information_pieces(self) -> tuple[Piece, ...]:
        """The slices of :meth:`information_state`, in order."""

    @abstractmethod
    def action_id(self, command: CommandT) -> int:
        """The action id of a command (its seat aside).

        :raises InvalidArgument: the command is not one this encoding numbers (a number out of
            the setup's range, say); no legal command ever is.
        """

    @abstractmethod
    def command(self, action_id: int, seat: int) -> CommandT:
        """The command of ``seat`` that ``action_id`` stands for (legal or not).

        :raises InvalidArgument: ``action_id`` is not in ``range(num_actions)`` or ``seat`` is
            not a seat of the setup.
        """

    @abstractmethod
    def observation(self, view: ViewT) -> list[float]:
        """A seat's view (or a spectator's) as ``observation_size`` numbers."""

    @abstractmethod
    def information_state(self, view: ViewT, events: Sequence[EventT]) -> list[float]:
        """A seat's view and its own event stream so far (``game.events_for(seat)``) as
        ``information_size`` numbers."""

    @property
    @abstractmethod
    def facts(self) -> Facts:
        """The game's facts for this setup (:class:`Facts`)."""

    @property
    def max_chance_outcomes(self) -> int:
        """The most equally likely results one random draw of the game can have
        (:attr:`Facts.max_chance_outcomes`)."""
        return self.facts.max_chance_outcomes

    @property
    def observation_size(self) -> int:
        """The length of :meth:`observation`."""
        return check_pieces(self.observation_pieces)

    @property
    def information_size(self) -> int:
        """The length of :meth:`information_state`."""
        return check_pieces(self.information_pieces)

    def mask(self, commands: Iterable[CommandT]) -> list[bool]:
        """``num_actions`` flags: true at the action id of each of ``commands`` (a seat's legal
        commands), false elsewhere."""
        flags = [False] * self.num_actions
        for command in commands:
            flags[self.action_id(command)] = True
        return flags

    def legal_actions(self, commands: Iterable[CommandT]) -> list[int]:
        """The sorted action ids of ``commands`` (a seat's legal commands)."""
        return sorted({self.action_id(command) for command in commands})
