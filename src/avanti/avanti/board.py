"""The Avanti board as data: the road (A4) and the island path (A5).

A :class:`Board` is a value: build one in code, load one from a file with :func:`load_board`, or
use :data:`DEFAULT_BOARD`. Every board is checked when it is built and a malformed one raises
:class:`~avanti.core.errors.InvalidBoard` naming the bad field, the value found there and the rule.
Whether a board is big enough for a given number of players is checked by the game's setup.

**The file format.** A board file is TOML (``.toml``) or JSON (``.json``); the suffix decides.
It has exactly three keys:

``track``
    The road, in driving order, from space 0. Each space is a table with exactly one key:
    ``toll = <amount>`` for a toll space or ``atm = <amount>`` for a parking lot with an ATM
    (A4, A21). Amounts are whole monetas, zero or more.
``island``
    The prices printed on the island path, one per space, from the start space (index 0) to the
    last space (A5). ``0`` marks an unpriced space, which cannot be bought (A22); JSON may also
    use ``null``. The start space is always unpriced.
``island_depth``
    How many of the last island spaces form the dream island (A5, A20); at least 1.

For example, a small board in TOML::

    island_depth = 1
    island = [0, 1000, 2000, 0]
    track = [{ toll = 100 }, { atm = 200 }, { toll = 300 }]

TOML's ``[[track]]`` tables (one ``toll = ...`` or ``atm = ...`` line under each) mean the same
as the inline list. :func:`board_to_data` writes this format as plain data (with ``0`` for an
unpriced space) and :func:`board_from_data` reads it back.
"""

from __future__ import annotations

import enum
import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeGuard

from attrs import frozen

from avanti.core.errors import InvalidBoard

__all__ = [
    "DEFAULT_BOARD",
    "Board",
    "Space",
    "SpaceKind",
    "board_from_data",
    "board_to_data",
    "load_board",
    "read_data",
]


class SpaceKind(enum.StrEnum):
    """What a road space is (A4): a toll space or a parking lot with an ATM."""

    TOLL = "toll"
    """A car here pays this space's toll to the leader at each collection (A15)."""
    PARKING = "parking"
    """A car here pays no toll (A15); between runs the lot's ATM pays out (A21)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


def _is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an ``int`` proper (``True`` and ``1.0`` are not)."""
    return type(value) is int


@frozen(repr=False)
class Space:
    """One road space (A4): its kind and the amount printed beside it.

    For a toll space the amount is the toll its car pays the leader (A15); for a parking lot it is
    what the lot's ATM pays between runs (A21).

    :raises InvalidBoard: if ``kind`` is not a :class:`SpaceKind` or ``amount`` is not a whole
        number of monetas, zero or more (field ``kind`` or ``amount``).
    """

    kind: SpaceKind
    """Toll space or parking lot (A4)."""
    amount: int
    """The toll (A15) or the ATM amount (A21), in monetas."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.kind, SpaceKind):
            raise InvalidBoard("kind", self.kind, "A4: a space is a toll space or a parking lot")
        if not _is_int(self.amount):
            raise InvalidBoard("amount", self.amount, "A4: an amount is a whole number of monetas")
        if self.amount < 0:
            raise InvalidBoard("amount", self.amount, "A4: an amount cannot be negative")

    @classmethod
    def toll(cls, amount: int) -> Space:
        """A toll space whose car pays ``amount`` to the leader (A4, A15)."""
        return cls(SpaceKind.TOLL, amount)

    @classmethod
    def parking(cls, atm: int) -> Space:
        """A parking lot whose ATM pays ``atm`` between runs (A4, A21)."""
        return cls(SpaceKind.PARKING, atm)

    @property
    def is_parking(self) -> bool:
        """Whether this is a parking lot (A15: its car pays no toll)."""
        return self.kind is SpaceKind.PARKING

    def __repr__(self) -> str:
        maker = "parking" if self.kind is SpaceKind.PARKING else "toll"
        return f"Space.{maker}({self.amount!r})"


@frozen
class Board:
    """The road and the island path (A4, A5).

    ``track`` lists the road's spaces in driving order; the road is a closed loop. ``island[i]`` is
    the price printed on island space ``i`` (``None`` where none is printed; index 0 is the start
    space, always unpriced). The last ``island_depth`` island spaces are the dream island.
    A dream island space may carry a price: a custom board may let players buy their way in (A24).

    :raises InvalidBoard: naming the field (``track``, ``track[3]``, ``island[2]``,
        ``island_depth``, ...) if the board breaks A4 or A5.
    """

    track: tuple[Space, ...]
    """The road's spaces in driving order, from space 0 (A4)."""
    island: tuple[int | None, ...]
    """The price on each island space from the start space 0; ``None`` where unpriced (A5)."""
    island_depth: int
    """How many of the last island spaces form the dream island (A5, A20)."""

    def __attrs_post_init__(self) -> None:
        _check_track(self.track)
        _check_island(self.island, self.island_depth)

    @property
    def track_length(self) -> int:
        """How many spaces the road has (A4); a car that has driven this far reached the marker."""
        return len(self.track)

    @property
    def island_length(self) -> int:
        """The index of the last island space (A5); the start space 0 is not counted."""
        return len(self.island) - 1

    @property
    def dream_island_start(self) -> int:
        """The index of the first dream island space (A5, A20)."""
        return len(self.island) - self.island_depth

    def is_dream_island(self, index: int) -> bool:
        """Whether island space ``index`` is on the dream island (A5, A20)."""
        return len(self.island) - self.island_depth <= index < len(self.island)


def _check_track(track: object) -> None:
    if not isinstance(track, tuple):
        raise InvalidBoard("track", track, "A4: the road is a tuple of spaces")
    if not track:
        raise InvalidBoard("track", track, "A4: the road needs at least one space")
    for index, space in enumerate(track):
        if not isinstance(space, Space):
            raise InvalidBoard(f"track[{index}]", space, "A4: each road entry is a Space")


def _check_island(island: object, depth: object) -> None:
    if not isinstance(island, tuple):
        raise InvalidBoard("island", island, "A5: the island path is a tuple of prices")
    if not _is_int(depth):
        raise InvalidBoard("island_depth", depth, "A5: the dream island depth is a whole number")
    if depth < 1:
        raise InvalidBoard("island_depth", depth, "A5: the dream island has at least one space")
    if len(island) - 1 < depth:
        raise InvalidBoard(
            "island",
            island,
            f"A5: the island path needs a start space and at least {depth} more spaces "
            f"for a dream island {depth} deep, but has {max(len(island) - 1, 0)}",
        )
    if island[0] is not None:
        raise InvalidBoard("island[0]", island[0], "A5: the island start space has no price")
    for index, price in enumerate(island):
        if price is None:
            continue
        if not _is_int(price):
            raise InvalidBoard(
                f"island[{index}]", price, "A5: a price is a whole number of monetas or None"
            )
        if price <= 0:
            raise InvalidBoard(
                f"island[{index}]", price, "A22: a price is positive; use None for no price"
            )


def _track(*amounts: int | str) -> tuple[Space, ...]:
    """Spaces from a compact table: an int is a toll, ``"P<n>"`` a parking lot with ATM ``n``."""
    return tuple(
        Space.parking(int(a[1:])) if isinstance(a, str) else Space.toll(a) for a in amounts
    )


# fmt: off
DEFAULT_BOARD = Board(
    track=_track(
        100, 200, 300, "P200", 400, 500, 1000, "P400", 100, 200,  # 0-9
        300, 400, "P500", 100, 200, 500, 1000, "P200", 300, 100,  # 10-19
        200, 400, "P400", 500, 1000, 100, "P300", 200, 300, 400,  # 20-29
        500, "P500", 100, 300,                                    # 30-33
    ),
    island=(None, 1000, 2000, 2000, 3000, 3000, 4000, 4000, 5000, None, None, None, None),
    island_depth=3,
)
# fmt: on
"""The board this library plays on by default (the published values are not known to us).

34 road spaces with 7 parking lots (ATMs 200, 400, 500, 200, 400, 300, 500: 2,500 in all); an
island path of 12 spaces after the start, priced 1,000 to 5,000 on spaces 1-8, with the dream
island on spaces 10-12 (A4, A5). Every amount the rulebook prints in its examples (Illus. 7, 8,
11, 13, 14, 15) comes out of this board unchanged; the rules page (docs/rules/avanti.md, "The
default board and deck") names, for each value, the illustration it comes from or that it is our
own choice.
"""


# --- plain data and files ------------------------------------------------------------------------


def _mapping(data: object, path: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    """Check that ``data`` is a mapping with exactly ``keys``; name the first bad or missing key.

    ``path`` is the field path of ``data``; a whole file's data has an empty path.
    """
    if not isinstance(data, Mapping):
        raise InvalidBoard(
            path or "(top level)", data, "expected a table (a mapping of keys to values)"
        )
    for key in data:
        if key not in keys:
            name = str(key) or '""'  # an empty key still gets a visible name
            where = f"{path}.{name}" if path else name
            raise InvalidBoard(where, data[key], f"unknown key; expected {', '.join(keys)}")
    for key in keys:
        if key not in data:
            raise InvalidBoard(f"{path}.{key}" if path else key, None, "missing key")
    return data


def _list(data: object, path: str) -> list[Any]:
    if not isinstance(data, list | tuple):
        raise InvalidBoard(path, data, "expected a list")
    return list(data)


def _space_from_data(data: object, path: str) -> Space:
    if not isinstance(data, Mapping):
        raise InvalidBoard(path, data, "A4: a road space is a table: { toll = n } or { atm = n }")
    keys = list(data)
    if len(keys) != 1 or keys[0] not in ("toll", "atm"):
        for key in keys:
            if key not in ("toll", "atm"):
                raise InvalidBoard(f"{path}.{key}", data[key], "unknown key; expected toll or atm")
        raise InvalidBoard(path, dict(data), "A4: a road space has exactly one of toll or atm")
    key = keys[0]
    kind = SpaceKind.TOLL if key == "toll" else SpaceKind.PARKING
    try:
        return Space(kind, data[key])
    except InvalidBoard as error:
        raise InvalidBoard(f"{path}.{key}", error.value, error.message) from None


def _price_from_data(value: object, path: str) -> int | None:
    if value is None or (_is_int(value) and value == 0):
        return None
    if not _is_int(value):
        raise InvalidBoard(path, value, "A5: a price is a whole number of monetas (0 for none)")
    if value < 0:
        raise InvalidBoard(path, value, "A22: a price cannot be negative; use 0 for no price")
    return value


def board_from_data(data: object) -> Board:
    """Build a :class:`Board` from plain data in the file format of this module.

    ``data`` is what :mod:`tomllib` or :func:`json.loads` gives for a board file.

    :raises InvalidBoard: naming the field (``track[3].toll``, ``island[2]``, ``island_depth``,
        ...) for a missing or unknown key, a value of the wrong type, or a value the rules forbid.
    """
    table = _mapping(data, "", ("track", "island", "island_depth"))
    track = tuple(
        _space_from_data(space, f"track[{i}]")
        for i, space in enumerate(_list(table["track"], "track"))
    )
    island = tuple(
        _price_from_data(price, f"island[{i}]")
        for i, price in enumerate(_list(table["island"], "island"))
    )
    return Board(track, island, table["island_depth"])


def board_to_data(board: Board) -> dict[str, Any]:
    """The plain data of ``board`` in the file format of this module (``0`` for no price).

    ``board_from_data(board_to_data(board)) == board`` for every board; :func:`json.dumps` can
    write the result as it is.
    """
    return {
        "track": [{"atm" if space.is_parking else "toll": space.amount} for space in board.track],
        "island": [0 if price is None else price for price in board.island],
        "island_depth": board.island_depth,
    }


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise InvalidBoard(key, value, "the key appears twice in one JSON object")
        result[key] = value
    return result


def read_data(path: str | os.PathLike[str]) -> object:
    """Read a TOML (``.toml``) or JSON (``.json``) file into plain data, by its suffix.

    This is the reading half of :func:`load_board` and :func:`avanti.avanti.deck.load_deck`.

    :raises InvalidBoard: with field ``file`` if the file cannot be read, is not UTF-8, is not
        valid TOML or JSON, or has another suffix (a JSON key given twice is named by the key).
    """
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise InvalidBoard("file", str(path), "expected a .toml or .json file")
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidBoard("file", str(path), f"cannot read: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise InvalidBoard("file", str(path), f"not UTF-8 text: {error.reason}") from None
    try:
        if suffix == ".toml":
            return tomllib.loads(text)
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except InvalidBoard:
        raise
    except (ValueError, RecursionError) as error:  # decode errors, ints too long, deep nesting
        raise InvalidBoard("file", str(path), f"not valid {suffix[1:].upper()}: {error}") from None


def load_board(path: str | os.PathLike[str]) -> Board:
    """Load a board from a TOML or JSON file in the format of this module.

    :raises InvalidBoard: naming the field and value if the file cannot be read or the board in it
        is malformed (see :func:`board_from_data` and :func:`read_data`).
    """
    return board_from_data(read_data(path))
