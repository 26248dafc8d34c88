"""Avanti mare! as numbers: six action ids, and a seat's view as a vector (see
:mod:`avanti.core.encoding`).

**Actions** (``num_actions == 6``, the same for every seat):

====== =====================================
id     command
====== =====================================
0      ``Roll(seat)`` (M3)
1-4    ``MoveFish(seat, FISH[id - 1])``: blue, orange, yellow, pink (M6)
5      ``SkipMove(seat)`` (M6: decline the move)
====== =====================================

**Observation** (``3 * n + 70`` numbers for ``n`` players, in the order of
:attr:`~avanti.mare.encoding.MareEncoding.observation_pieces`), every number 0 or 1:

- ``seat`` (``n``): one-hot of the viewing seat; all zero for a spectator.
- ``side`` (2): one-hot of the viewing seat's side, fish friends then fisher fans (M2).
- ``fish_friends`` (``n``): 1 for each seat that backs the fish (M2, M8).
- ``turn`` (``n``): one-hot of the seat on turn (M2); all zero once the game is over.
- ``move_due`` (1): 1 while the seat on turn has a free fish's move to make or decline (M6).
- ``boat`` (12): one-hot of how many river pieces the boat has taken, 0 to 11 (M5).
- ``fish`` (52): for each fish in colour order, 13 numbers: one-hot of its place, 0 caught,
  1-11 a river piece, 12 free in the sea (M1, M4, M5).
- ``result`` (3): one-hot of the result, fish friends win, fisher fans win, draw (M8); all zero
  while the game goes on.

**Information state** (``3 * n + 77`` numbers): the observation, then

- ``faces`` (6): how often each face came up so far, in die order (blue, orange, yellow, pink,
  red, green; M3), as counts.
- ``own_rolls`` (1): how many of those rolls the viewing seat made.

Everything on the table is public and every event is seen by every seat, so the view already
holds all a player needs; the information state only adds the die's history, which a player
remembers but the table does not show. Nothing here can see the generator or its seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from avanti.core.encoding import Encoding, Piece
from avanti.core.errors import InvalidArgument
from avanti.mare.commands import Command, MoveFish, Roll, SkipMove
from avanti.mare.events import DieRolled, Event
from avanti.mare.setup import FACES, FISH, PIECES, SEA, PublicSetup, Side
from avanti.mare.state import Result
from avanti.mare.views import View

__all__ = ["MareEncoding", "encoding"]

NUM_ACTIONS = 1 + len(FISH) + 1
"""Roll, a move of each fish, and declining the move."""
_SKIP = NUM_ACTIONS - 1
_PLACES = SEA + 1
"""A fish's place: 0 (caught), 1-11 (a river piece), 12 (the sea)."""
_RESULTS = (Result.FISH, Result.FISHERS, Result.DRAW)
_SIDES = (Side.FISH_FRIENDS, Side.FISHER_FANS)


def _pieces(layout: Sequence[tuple[str, int, str]], start: int = 0) -> tuple[Piece, ...]:
    """Consecutive pieces from ``(name, size, meaning)`` triples."""
    pieces: list[Piece] = []
    at = start
    for name, size, meaning in layout:
        pieces.append(Piece(name, at, at + size, meaning))
        at += size
    return tuple(pieces)


class MareEncoding(Encoding[Command, View, Event]):
    """The encoding of Avanti mare! for one public setup (see the module for every slice)."""

    def __init__(self, setup: PublicSetup) -> None:
        if type(setup) is not PublicSetup:
            raise InvalidArgument(
                f"an encoding of Avanti mare! is built from its PublicSetup, "
                f"not {type(setup).__name__}"
            )
        n = len(setup.players)
        self._seats = n
        observation = _pieces(
            (
                ("seat", n, "one-hot of the viewing seat; all zero for a spectator"),
                ("side", 2, "one-hot of the viewing seat's side: fish friends, fisher fans (M2)"),
                ("fish_friends", n, "1 for each seat that backs the fish (M2)"),
                ("turn", n, "one-hot of the seat on turn; all zero once the game is over (M2)"),
                ("move_due", 1, "1 while a free fish's move is to be made or declined (M6)"),
                ("boat", PIECES + 1, "one-hot of the pieces the boat has taken, 0-11 (M5)"),
                (
                    "fish",
                    len(FISH) * _PLACES,
                    "per fish in colour order, one-hot of its place: 0 caught, 1-11 a piece,"
                    " 12 the sea (M1, M4, M5)",
                ),
                ("result", 3, "one-hot of fish friends win, fisher fans win, draw (M8)"),
            )
        )
        self._observation = observation
        self._info = observation + _pieces(
            (
                ("faces", len(FACES), "how often each face came up so far, in die order (M3)"),
                ("own_rolls", 1, "how many rolls the viewing seat made so far"),
            ),
            observation[-1].stop,
        )
        self._starts = {piece.name: piece.start for piece in self._info}
        self._sizes = (observation[-1].stop, self._info[-1].stop)

    @property
    def observation_size(self) -> int:
        """``3 * n + 70`` for ``n`` players."""
        return self._sizes[0]

    @property
    def information_size(self) -> int:
        """``3 * n + 77`` for ``n`` players."""
        return self._sizes[1]

    @property
    def num_actions(self) -> int:
        """Six: roll, move each of the four fish, decline the move."""
        return NUM_ACTIONS

    @property
    def observation_pieces(self) -> tuple[Piece, ...]:
        """``seat``, ``side``, ``fish_friends``, ``turn``, ``move_due``, ``boat``, ``fish``,
        ``result`` (see the module)."""
        return self._observation

    @property
    def information_pieces(self) -> tuple[Piece, ...]:
        """The observation's pieces, then ``faces`` and ``own_rolls`` (see the module)."""
        return self._info

    @property
    def max_chance_outcomes(self) -> int:
        """The most results one random draw has: the six faces of the die (M3)."""
        return len(FACES)

    def action_id(self, command: Command) -> int:
        """0 for a roll, 1-4 for a move of blue, orange, yellow or pink, 5 for declining.

        :raises InvalidArgument: ``command`` is not a command of Avanti mare!.
        """
        if type(command) is Roll:
            return 0
        if type(command) is MoveFish and command.fish in FISH:
            return 1 + command.fish.slot
        if type(command) is SkipMove:
            return _SKIP
        raise InvalidArgument(f"{command!r} is not a command of Avanti mare! (M3, M6)")

    def command(self, action_id: int, seat: int) -> Command:
        """The command of ``seat`` that ``action_id`` stands for (legal or not).

        :raises InvalidArgument: ``action_id`` is not 0-5 or ``seat`` is not at the table.
        """
        if type(action_id) is not int or not 0 <= action_id < NUM_ACTIONS:
            raise InvalidArgument(f"an action id of Avanti mare! is 0 to 5, not {action_id!r}")
        if type(seat) is not int or not 0 <= seat < self._seats:
            raise InvalidArgument(
                f"there is no seat {seat!r}: the seats are 0 to {self._seats - 1}"
            )
        if action_id == 0:
            return Roll(seat)
        if action_id == _SKIP:
            return SkipMove(seat)
        return MoveFish(seat, FISH[action_id - 1])

    def observation(self, view: View) -> list[float]:
        """The view as :attr:`observation_size` numbers, each 0 or 1 (see the module)."""
        out = [0.0] * self.observation_size
        self._fill(out, view)
        return out

    def information_state(self, view: View, events: Sequence[Event]) -> list[float]:
        """The view and the die's history so far (see the module)."""
        out = [0.0] * self.information_size
        self._fill(out, view)
        faces = self._starts["faces"]
        own = self._starts["own_rolls"]
        for event in events:
            if type(event) is DieRolled:
                out[faces + FACES.index(event.face)] += 1.0
                if event.seat == view.seat:
                    out[own] += 1.0
        return out

    def _fill(self, out: list[float], view: View) -> None:
        at = self._starts
        if view.seat is not None:
            out[at["seat"] + view.seat] = 1.0
            out[at["side"] + _SIDES.index(view.sides[view.seat])] = 1.0
        for seat, side in enumerate(view.sides):
            if side is Side.FISH_FRIENDS:
                out[at["fish_friends"] + seat] = 1.0
        if view.result is None:
            out[at["turn"] + view.turn] = 1.0
        else:
            out[at["result"] + _RESULTS.index(view.result)] = 1.0
        if view.move_due:
            out[at["move_due"]] = 1.0
        out[at["boat"] + view.boat] = 1.0
        for slot, place in enumerate(view.fish):
            out[at["fish"] + slot * _PLACES + place] = 1.0


def encoding(public_setup: PublicSetup) -> MareEncoding:
    """The encoding of Avanti mare! for a game's public setup (``game.public_setup``).

    :raises InvalidArgument: ``public_setup`` is not an Avanti mare! :class:`PublicSetup`.
    """
    return MareEncoding(public_setup)
