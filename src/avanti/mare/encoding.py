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

from avanti.core.encoding import Encoding, Facts, Piece, tile
from avanti.core.errors import InvalidArgument
from avanti.mare.commands import Command, MoveFish, Roll, SkipMove
from avanti.mare.events import DieRolled, Event
from avanti.mare.setup import (
    FACES,
    FISH,
    PIECES,
    SEA,
    CaughtFishRoll,
    Face,
    FreeFishRoll,
    PublicSetup,
    Side,
)
from avanti.mare.state import Result
from avanti.mare.views import View

__all__ = ["FISH_STEPS", "MareEncoding", "encoding", "facts"]

NUM_ACTIONS = 1 + len(FISH) + 1
"""Roll, a move of each fish, and declining the move."""
_SKIP = NUM_ACTIONS - 1
_PLACES = SEA + 1
"""A fish's place: 0 (caught), 1-11 (a river piece), 12 (the sea)."""
_RESULTS = (Result.FISH, Result.FISHERS, Result.DRAW)
_SIDES = (Side.FISH_FRIENDS, Side.FISHER_FANS)


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
        observation = tile(
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
        self._info = observation + tile(
            (
                ("faces", len(FACES), "how often each face came up so far, in die order (M3)"),
                ("own_rolls", 1, "how many rolls the viewing seat made so far"),
            ),
            observation[-1].stop,
        )
        self._starts = {piece.name: piece.start for piece in self._info}
        self._facts = facts(setup)
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
    def facts(self) -> Facts:
        """Perfect information, the die's six faces, and the longest game where the options
        bound it (the module's ``facts``)."""
        return self._facts

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


FISH_STEPS = SEA - 6
"""The moves that take one fish from its start on piece 6 to the sea (M1, M4)."""


def facts(setup: PublicSetup) -> Facts:
    """Avanti mare!'s facts for a public setup.

    - **Perfect information**: the river, the fish, the sides and every roll are on the table
      for all to see (M1, M2); only the die's seed is hidden, and no seat knows it.
    - **General sum**: every seat of the winning side gets 1.0 and a draw gives nobody anything
      (M8), so the sum depends on the sides and the result.
    - **Six outcomes** per draw: the die (M3).
    - **The longest game**: every roll makes progress only when the boat takes a piece on red
      and on green (M5), a caught fish's colour moves the boat (M7) and a free fish's colour
      owes the move of another fish (M6 with ``free_fish_move_owed``). Then a game has at most
      ``4 * 6`` fish moves (piece 6 to the sea, M1) and 11 boat moves: at most 35 rolls and
      ``2 * 24 + 11 = 59`` commands (a fish moved by choice costs a roll and a move). Any other
      reading lets a roll change nothing (a declined move, an ignored colour), and the rules
      set no bound: ``None``.
    """
    options = setup.options
    bounded = (
        set(options.boat_faces) == {Face.RED, Face.GREEN}
        and options.caught_fish_roll is CaughtFishRoll.BOAT
        and options.free_fish_roll is FreeFishRoll.OTHER_FISH
        and options.free_fish_move_owed
    )
    fish_moves = len(FISH) * FISH_STEPS
    return Facts(
        perfect_information=True,
        constant_sum=None,
        max_chance_outcomes=len(FACES),
        longest_game=2 * fish_moves + PIECES if bounded else None,
        most_draws=fish_moves + PIECES if bounded else None,
    )


def encoding(public_setup: PublicSetup) -> MareEncoding:
    """The encoding of Avanti mare! for a game's public setup (``game.public_setup``).

    :raises InvalidArgument: ``public_setup`` is not an Avanti mare! :class:`PublicSetup`.
    """
    return MareEncoding(public_setup)
