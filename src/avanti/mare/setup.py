"""The pieces of Avanti mare! as data, the variant options, and the setup of one game.

The river (M1), the die (M3) and the two sides (M2) are fixed facts of the game, declared here once;
:class:`Options` names the readings published simulators differ on (M9). The bounds on a setup
(:data:`MAX_PLAYERS`, :data:`MAX_BOAT_FACES`, :data:`MAX_SEED`) are checked by
:func:`avanti.mare.rules.check_setup` before anything is built from a setup.
"""

from __future__ import annotations

import enum

from attrs import field, frozen

from avanti.core.limits import new_seed
from avanti.mare.scenario import Scenario

__all__ = [
    "CAUGHT",
    "FACES",
    "FISH",
    "MAX_BOAT_FACES",
    "MAX_PLAYERS",
    "MAX_SEED",
    "PIECES",
    "SEA",
    "START",
    "CaughtFishRoll",
    "Face",
    "Fish",
    "FreeFishRoll",
    "Options",
    "PublicSetup",
    "Setup",
    "Side",
    "public_setup",
]

PIECES = 11
"""How many small river pieces lie between the boat and the sea, numbered 1..11 (M1)."""
START = 6
"""The piece the four fish start on: the middle one (M1)."""
SEA = PIECES + 1
"""The place of a free fish: the sea, one step past piece 11 (M4)."""
CAUGHT = 0
"""The place of a caught fish: the boat, which stands where the removed pieces were (M5)."""

MAX_PLAYERS = 6
"""The most players at one table (M2: 1 to 6 players). ``players`` and ``sides`` are refused by
their length before any name or side is looked at."""
MAX_BOAT_FACES = 2
"""The most faces in :attr:`Options.boat_faces` (M5, M9): the die has two fishers' faces, red and
green, and each may be named once. A longer tuple is refused by its length before any face is
looked at."""
MAX_SEED = 2**128
"""Seeds lie strictly between ``-MAX_SEED`` and ``MAX_SEED`` (M3). The generator reads 128 bits of
a seed (:class:`avanti.core.Rng`), so every game it can deal has a seed in range, and a seed in
range is always written to a game document and read back (Python refuses to write an ``int`` of
more than 4300 digits). :func:`avanti.core.limits.new_seed` draws from ``0`` to ``2**64 - 1``."""


class Fish(enum.StrEnum):
    """One of the four fish, by colour (M1)."""

    BLUE = "blue"
    ORANGE = "orange"
    YELLOW = "yellow"
    PINK = "pink"

    @property
    def slot(self) -> int:
        """The fish's position in :data:`FISH` and in :attr:`GameState.fish`."""
        return _FISH_INDEX[self]


FISH: tuple[Fish, ...] = tuple(Fish)
"""The four fish in their fixed order (blue, orange, yellow, pink)."""
_FISH_INDEX = {fish: index for index, fish in enumerate(FISH)}


class Face(enum.StrEnum):
    """A face of the colour die: the four fish colours, then red and green (M3)."""

    BLUE = "blue"
    ORANGE = "orange"
    YELLOW = "yellow"
    PINK = "pink"
    RED = "red"
    GREEN = "green"

    @property
    def fish(self) -> Fish | None:
        """The fish of this colour, or ``None`` for red and green (the fishers' colours)."""
        return _FACE_FISH.get(self)


FACES: tuple[Face, ...] = tuple(Face)
"""The six faces in die order; the generator draws an index into this tuple (M3)."""
_FACE_FISH = {Face(fish.value): fish for fish in Fish}


class Side(enum.StrEnum):
    """The side a player backs (M2). Recorded only: it changes nothing in play, only who wins."""

    FISH_FRIENDS = "fish-friends"
    FISHER_FANS = "fisher-fans"


class CaughtFishRoll(enum.StrEnum):
    """What rolling the colour of a caught fish does (M7, M9)."""

    BOAT = "boat"
    """The rulebook: the boat takes the piece in front of it, as for red or green (M7)."""
    NOTHING = "nothing"
    """The roll is ignored and the next player rolls."""
    REROLL = "reroll"
    """The roll is ignored and the same player rolls again."""


class FreeFishRoll(enum.StrEnum):
    """What rolling the colour of a free fish does (M6, M9)."""

    OTHER_FISH = "other-fish"
    """The rulebook: the roller may move another fish still in the river one piece (M6); whether
    the move may be declined is :attr:`~avanti.mare.Options.free_fish_move_owed`."""
    NOTHING = "nothing"
    """The roll is ignored and the next player rolls."""
    REROLL = "reroll"
    """The roll is ignored and the same player rolls again."""


@frozen
class Options:
    """The readings of the rules that published simulators differ on (M9); defaults follow M3-M7.

    ``boat_faces``: which of red and green move the boat (M5); a fishers' face left out does
    nothing. ``caught_fish_roll``: what a caught fish's colour does (M7). ``free_fish_roll``: what
    a free fish's colour does (M6). ``free_fish_move_owed``: whether the move M6 offers must be
    made (published simulators) or may be declined (the rulebook's "may").
    """

    boat_faces: tuple[Face, ...] = (Face.RED, Face.GREEN)
    """The fishers' faces that move the boat (M5); the rulebook has both red and green. A
    simulator with one boat face is ``(Face.RED,)``; a face left out is ignored and the turn
    passes."""
    caught_fish_roll: CaughtFishRoll = CaughtFishRoll.BOAT
    """What a caught fish's colour does: the rulebook moves the boat (M7); some simulators ignore
    it (``NOTHING``) or have it rolled again (``REROLL``)."""
    free_fish_roll: FreeFishRoll = FreeFishRoll.OTHER_FISH
    """What a free fish's colour does: the rulebook lets the roller move another fish (M6); some
    simulators ignore it (``NOTHING``) or have it rolled again (``REROLL``)."""
    free_fish_move_owed: bool = False
    """Whether the roller must make the move a free fish's colour offers (M6). The rulebook says
    the roller "may" move another fish, so by default the move may be declined with ``SkipMove``;
    published simulators always make it, which is ``True``: then ``MoveFish`` is the only legal
    command until the move is made. It changes nothing unless ``free_fish_roll`` is
    ``OTHER_FISH``. A game document written before this option existed reads as ``True``, the
    reading it was played under."""


@frozen
class Setup:
    """Everything a game starts from: the players, their sides, who rolls first, seed, options.

    ``players`` are names in seating order (clockwise); ``sides[i]`` is the side of ``players[i]``
    (M2); ``first`` is the seat that rolls first (the youngest player, M2). ``seed`` seeds the die
    (M3): it is the server's secret, since with it anyone can foresee every roll, so it defaults
    to a fresh one from :func:`avanti.core.limits.new_seed` and a seat is shown
    :func:`public_setup` instead. Checked by :func:`avanti.mare.new_game` and by the ruleset's
    ``start``, which raise :class:`~avanti.core.errors.InvalidSetup` naming the rule.
    """

    players: tuple[str, ...]
    sides: tuple[Side, ...]
    first: int = 0
    seed: int = field(factory=new_seed)
    options: Options = Options()
    scenario: Scenario | None = None
    """A built position to start from (:class:`~avanti.mare.Scenario`), or ``None`` for every
    fish on the middle piece and the boat at the start (M1)."""


@frozen
class PublicSetup:
    """The setup as every seat may know it: all of :class:`Setup` but the seed.

    Everything on the table of Avanti mare! is public (M1: the river and the fish are in plain
    view; M2: the players, the side each picked at the start, and who rolls first; M9: the
    reading of the rules the table plays by, in ``options``). The only hidden fact is the seed of
    the die (M3), which would tell every roll to come: it is left out. Get one with
    :func:`public_setup` or :attr:`avanti.mare.Game.public_setup`.
    """

    players: tuple[str, ...]
    """The names, clockwise (M2)."""
    sides: tuple[Side, ...]
    """The side of each player (M2)."""
    first: int
    """The seat that rolls first (M2)."""
    options: Options
    """The readings of the rules in play (M9)."""
    scenario: Scenario | None = None
    """The built position the game started from, if any: public like the whole river (M1)."""


def public_setup(setup: Setup) -> PublicSetup:
    """What every seat may know of ``setup``: everything but the seed (M1-M3, M9)."""
    return PublicSetup(setup.players, setup.sides, setup.first, setup.options, setup.scenario)
