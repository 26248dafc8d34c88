"""A table's record: everything the server keeps of a game or an open table in its stream's
metadata, read and written as one typed :class:`TableRecord`, and the seats' tokens.

Every key the server stores lives in this module, and only :meth:`TableRecord.from_metadata`
reads a record (through the library's strict converter, :func:`avanti.core.make_converter`):
a stored record it cannot read raises :class:`BadRecord`, which names every problem with its
path. :meth:`TableRecord.to_metadata` writes it back in the same JSON. Keys the server does not
know are kept as they are (:attr:`TableRecord.others`). The table core changes a stored record
only by compare and swap (:meth:`avanti.server.table.master.Tables.change_record`).

A game's record (the open table's, :mod:`~avanti.server.table.joining`, holds ``"open"``
instead of ``"server"``, and its summary counts the seats taken)::

    {"server": {"game": "avanti", "seats": [
        {"name": "Ann", "token_sha256": "9f86...", "bot": null},
        {"name": "Bob", "token_sha256": null, "bot": "heuristic"}]},
     "client": "5e0c...", "summary": {"turn": ["Ann"], "round": 1, "winners": null},
     "clock": 60.0, "clock_started": {"version": 7, "at": 1796069130.5},
     "rematch": "a1b2c3d4e5f60718", "outcome": {"winners": [0], "returns": [1, -1]}}

A game created by the server gets one secret token per seat that people play:
:func:`new_token` draws 192 random bits (``secrets.token_urlsafe(24)``). The token is given to the
creator once and never stored: the record keeps only its SHA-256 hash (:func:`token_hash`). A
request's token is hashed and compared with every seat's hash by :func:`hmac.compare_digest`, all
of them every time, so neither the answer nor the time it takes says anything about a stored
hash.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Callable, Mapping
from typing import Any

import cattrs
from attrs import evolve, field, frozen
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.v import format_exception

from avanti.core.codec import JSONValue, make_converter
from avanti.core.errors import DecodeError
from avanti.core.game import Game

__all__ = [
    "CLOCK",
    "CLOCK_STARTED",
    "KEYS",
    "REMATCH",
    "TOKEN_BYTES",
    "BadRecord",
    "BadToken",
    "GameSummary",
    "OpenSeats",
    "OpenSummary",
    "Seat",
    "Started",
    "Table",
    "TableRecord",
    "game_summary",
    "new_token",
    "summary_of",
    "token_hash",
]

SERVER = "server"
"""The key of a game's record that holds its seats (:class:`Table`)."""

OPEN = "open"
"""The key of an open table's record that holds its seats (:class:`OpenSeats`)."""

CLIENT = "client"
"""The key of a record that holds the hash kept of the address that created it."""

SUMMARY = "summary"
"""The key of a record that holds its public summary (:class:`GameSummary`,
:class:`OpenSummary`)."""

OUTCOME = "outcome"
"""The key of a finished game's record that holds its outcome (written by
:meth:`avanti.store.GameStore.run`)."""

CLOCK = "clock"
"""The key of a timed game's record metadata that holds its time per move (seconds)."""

REMATCH = "rematch"
"""The key of a finished game's record metadata that names its rematch's game id."""

CLOCK_STARTED = "clock_started"
"""The key of a timed game's record metadata that holds when the version in play began to wait
(``{"version": 7, "at": 1796069130.5}``): written by the append that made that version (a
rematch's first: by the call that took its last seat)."""

KEYS = (SERVER, OPEN, CLIENT, SUMMARY, OUTCOME, CLOCK, CLOCK_STARTED, REMATCH)
"""Every top-level key the server reads and writes in a record."""

TOKEN_BYTES = 24
"""Random bytes in a seat token (192 bits; the text is 32 URL-safe characters)."""

_NO_HASH = hashlib.sha256(b"avanti: a seat without a token").hexdigest()
"""Compared in place of a seat's hash where it has none, so every check does the same work."""


class BadToken(Exception):
    """A token was given that belongs to no seat of the game."""


@frozen(auto_exc=True, eq=False)
class BadRecord(DecodeError):
    """A stored record the server cannot read: ``errors`` lists every problem, each with the
    path of its key (``$.server.seats[0].name``)."""

    def __str__(self) -> str:
        return "cannot read the table's record:\n  " + "\n  ".join(self.errors)


def new_token() -> str:
    """A fresh seat token: :data:`TOKEN_BYTES` random bytes from :mod:`secrets`, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The SHA-256 of a token's UTF-8 bytes, in hex: what the store keeps instead of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _positive(_: object, __: object, value: float | None) -> None:
    if value is not None and not (math.isfinite(value) and value > 0):
        raise ValueError("expected a finite number of seconds above 0")


def _seconds(value: object, _: object) -> float | None:
    """A stored time per move: ``None``, or a finite number above 0."""
    if value is None:
        return None
    if type(value) not in (int, float):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    seconds = float(value)  # type: ignore[arg-type]  # int or float, checked above
    _positive(None, None, seconds)
    return seconds


def _moment(_: object, __: object, value: float) -> None:
    if not math.isfinite(value):
        raise ValueError("expected a finite moment")


def _count(_: object, __: object, value: int) -> None:
    if value < 0:
        raise ValueError("expected a number not below 0")


@frozen
class Seat:
    """One seat of a stored game."""

    name: str
    """The player's name."""
    token_sha256: str | None
    """The hash of the seat's token; ``None`` for a seat that was a bot from the start."""
    bot: str | None
    """The kind of bot playing the seat now, or ``None`` when a person plays it."""


@frozen
class Started:
    """When a version of a timed game began to wait for its seat."""

    version: int = field(validator=_count)
    """The version."""
    at: float = field(validator=_moment)
    """When it began to wait (Unix seconds)."""

    def to_metadata(self) -> dict[str, JSONValue]:
        """The record's metadata key that keeps it."""
        return {CLOCK_STARTED: _converter.unstructure(self)}


@frozen
class GameSummary:
    """A game's public summary, written by each command's append
    (:func:`summary_of`)."""

    turn: tuple[str, ...] = ()
    """The names of the seats the game waits for."""
    round: int | None = None
    """Its round, ``None`` for a game without rounds."""
    winners: tuple[str, ...] | None = None
    """The winners' names once it is over."""

    def to_metadata(self) -> dict[str, JSONValue]:
        """The record's metadata key that keeps it."""
        return {SUMMARY: _converter.unstructure(self)}


@frozen
class OpenSummary:
    """An open table's public summary: how many of its seats are taken."""

    taken: int
    """The seats taken."""
    seats: int
    """All its seats."""


@frozen
class OpenSeats:
    """The seats of an open table (:mod:`~avanti.server.table.joining`), ``None`` for an open
    one (stored as a seat whose name is ``null``)."""

    game: str
    """The game's name in :mod:`avanti.catalog`."""
    seats: tuple[Seat | None, ...]
    """The seats, by number."""
    host_sha256: str | None
    """The hash of the creator's token."""
    started: bool = False
    """Whether every seat is taken (its game is started then)."""
    sides: tuple[str | None, ...] | None = None
    """The side each seated person picked as they sat down, ``None`` where none (``None``:
    nobody picked one)."""


@frozen
class Table:
    """The seats of a stored game, as its record holds them."""

    game: str
    """The game's name in :mod:`avanti.catalog`."""
    seats: tuple[Seat, ...]
    """The seats, by number."""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, JSONValue]) -> Table | None:
        """The table a stream's metadata holds, or ``None`` if it holds none the server
        wrote (read by :meth:`TableRecord.from_metadata`)."""
        try:
            return TableRecord.from_metadata(metadata).table
        except BadRecord:
            return None

    def to_metadata(self) -> dict[str, JSONValue]:
        """The metadata to store for this table."""
        return TableRecord(table=self).to_metadata()

    @property
    def players(self) -> list[str]:
        """The players' names, by seat."""
        return [seat.name for seat in self.seats]

    @property
    def bots(self) -> dict[str, str]:
        """The seats bots play now: ``{"1": "heuristic"}``."""
        return {str(number): seat.bot for number, seat in enumerate(self.seats) if seat.bot}

    @property
    def vacant(self) -> tuple[int, ...]:
        """The seats nobody sits at yet, neither a person (no token) nor a bot: a rematch's
        seats whose players have not asked for them (:mod:`~avanti.server.table.rematch`)."""
        return tuple(
            number
            for number, seat in enumerate(self.seats)
            if seat.token_sha256 is None and seat.bot is None
        )

    def bot(self, seat: int | None) -> str | None:
        """The kind of bot that plays ``seat`` now, or ``None``."""
        if seat is None or not 0 <= seat < len(self.seats):
            return None
        return self.seats[seat].bot

    def with_bot(self, seat: int, bot: str | None) -> Table:
        """This table with ``seat`` played by ``bot`` (``None``: by its person again)."""
        seats = list(self.seats)
        seats[seat] = evolve(seats[seat], bot=bot)
        return evolve(self, seats=tuple(seats))

    def seat_for(self, token: str | None) -> int | None:
        """The seat ``token`` belongs to; ``None`` for no token (a spectator).

        Every seat's hash is compared, whatever the token, in constant time each.

        :raises BadToken: a token that is no seat's.
        """
        if token is None:
            return None
        digest = token_hash(token).encode("ascii")
        found: int | None = None
        for number, seat in enumerate(self.seats):
            stored = (seat.token_sha256 or _NO_HASH).encode("ascii", "replace")
            same = hmac.compare_digest(digest, stored)
            if same and seat.token_sha256 is not None and found is None:
                found = number
        if found is None:
            raise BadToken
        return found


@frozen
class TableRecord:
    """Everything the server keeps of a game or an open table in its stream's metadata (see
    the module's docstring): each key a field, ``None`` where the record has none."""

    table: Table | None = None
    """A game's seats (``"server"``); ``None`` for a game the server did not seat."""
    open: OpenSeats | None = None
    """An open table's seats (``"open"``)."""
    client: str | None = None
    """The hash kept of the address that created it (``"client"``)."""
    summary: GameSummary | OpenSummary | None = None
    """Its public summary, for the lobby (``"summary"``)."""
    clock: float | None = field(default=None, validator=_positive)
    """A timed game's time per move, in seconds (``"clock"``)."""
    clock_started: Started | None = None
    """When the version in play began to wait (``"clock_started"``)."""
    rematch: str | None = None
    """The game id of its rematch, once asked for (``"rematch"``)."""
    outcome: JSONValue = None
    """A finished game's outcome as the store wrote it (``"outcome"``), ``None`` before."""
    others: Mapping[str, JSONValue] = field(factory=dict)
    """The keys the server does not know, kept as they were stored."""

    @property
    def over(self) -> bool:
        """Whether the game is over (its outcome is written)."""
        return self.outcome is not None

    @property
    def seconds(self) -> float | None:
        """A timed game's time per move, ``None`` for a game without a clock."""
        return self.clock

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, JSONValue]) -> TableRecord:
        """The record a stream's metadata holds.

        :raises BadRecord: metadata the server cannot read as a record, with every problem.
        """
        if not isinstance(metadata, Mapping):
            raise BadRecord((f"expected an object, got {type(metadata).__name__} @ $",))
        known = {key: value for key, value in metadata.items() if key in KEYS}
        others = {key: value for key, value in metadata.items() if key not in KEYS}
        try:
            record: TableRecord = _converter.structure(known, TableRecord)
        except Exception as error:  # cattrs reports problems as many exception kinds
            raise BadRecord(_problems(error)) from None
        return evolve(record, others=others) if others else record

    def updated(self, update: Mapping[str, JSONValue]) -> TableRecord:
        """This record with the stored keys of ``update`` set to its values (what an append's
        metadata update leaves): only those keys are read, so a command's append, which sets
        the summary, is not followed by a read of the whole record.

        ``TableRecord.from_metadata({**stored, **update})`` equals
        ``TableRecord.from_metadata(stored).updated(update)``.

        :raises BadRecord: a key of ``update`` the server cannot read.
        """
        part = TableRecord.from_metadata(update)
        changed = {_FIELDS[key]: getattr(part, _FIELDS[key]) for key in update if key in _FIELDS}
        if len(changed) < len(update):
            changed["others"] = {**self.others, **part.others}
        return evolve(self, **changed)

    def to_metadata(self) -> dict[str, JSONValue]:
        """The metadata to store for this record (its keys set, the others as they were)."""
        written: dict[str, JSONValue] = dict(self.others)
        written.update(_converter.unstructure(self, TableRecord))
        return written


_FIELDS = {key: "table" if key == SERVER else key for key in KEYS}
"""The field of each stored key."""


def _problems(error: Exception) -> tuple[str, ...]:
    """The problems of a record cattrs could not read, each with the path of its stored key."""
    if not isinstance(error, cattrs.BaseValidationError):  # pragma: no cover - cattrs wraps all
        error = cattrs.ClassValidationError("", [error], TableRecord)
    found = cattrs.transform_error(error, path="$", format_exception=_format)
    return tuple(problem.replace("$.table", f"$.{SERVER}", 1)[:200] for problem in found)


def _format(error: BaseException, type_: type | None) -> str:
    """This module's own messages ("expected ...") as they are, cattrs' otherwise."""
    if isinstance(error, TypeError | ValueError) and str(error).startswith("expected"):
        return str(error)
    return format_exception(error, type_)


def _make_converter() -> cattrs.Converter:
    """The strict converter of records: the library's, with the record's own JSON shapes (an
    open seat is a seat of nulls; the keys of a record without them are left out)."""
    converter = make_converter()
    empty: dict[str, JSONValue] = {"name": None, "token_sha256": None, "bot": None}

    def structure_open_seat(value: object, _: object) -> Seat | None:
        if isinstance(value, dict) and value.get("name", ...) is None:
            if value != empty:
                raise ValueError("expected an open seat to hold nothing but nulls")
            return None
        seat: Seat = converter.structure(value, Seat)
        return seat

    def unstructure_open_seat(seat: Seat | None) -> JSONValue:
        return dict(empty) if seat is None else converter.unstructure(seat, Seat)

    def structure_summary(value: object, _: object) -> GameSummary | OpenSummary | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {type(value).__name__}")
        if "taken" in value:
            open_summary: OpenSummary = converter.structure(value, OpenSummary)
            return open_summary
        summary: GameSummary = converter.structure(value, GameSummary)
        return summary

    converter.register_structure_hook(Seat | None, structure_open_seat)
    converter.register_unstructure_hook(Seat | None, unstructure_open_seat)
    converter.register_structure_hook(GameSummary | OpenSummary | None, structure_summary)
    for cls in (Table, OpenSeats, Started, GameSummary):
        converter.register_structure_hook(cls, _objects_only(converter, cls))
    converter.register_unstructure_hook(
        OpenSeats,
        make_dict_unstructure_fn(OpenSeats, converter, sides=override(omit_if_default=True)),
    )
    server, others = override(rename=SERVER), override(omit=True)
    converter.register_structure_hook(
        TableRecord,
        make_dict_structure_fn(
            TableRecord,
            converter,
            table=server,
            others=others,
            clock=override(struct_hook=_seconds),
        ),
    )
    converter.register_unstructure_hook(
        TableRecord,
        make_dict_unstructure_fn(
            TableRecord, converter, _cattrs_omit_if_default=True, table=server, others=others
        ),
    )
    return converter


def _objects_only(converter: cattrs.Converter, cls: type) -> Any:
    """``cls``'s structure hook, refusing anything but a JSON object in plain words."""
    inner: Callable[[Any, Any], Any] = make_dict_structure_fn(cls, converter)

    def structure(value: object, type_: type) -> Any:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {type(value).__name__}")
        return inner(value, type_)

    return structure


_converter = _make_converter()


def summary_of(game: Game[Any, Any, Any, Any, Any, Any]) -> dict[str, JSONValue]:
    """The public summary of ``game`` as its record's metadata keeps it (``{"summary": ...}``,
    :func:`game_summary`)."""
    return game_summary(game).to_metadata()


def game_summary(game: Game[Any, Any, Any, Any, Any, Any]) -> GameSummary:
    """The public summary of ``game``: the names of the seats it waits for, its round (``None``
    for a game without rounds) and the names of its winners once it is over. Built from public
    facts only."""
    names = [str(name) for name in getattr(game.setup, "players", ())]

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    outcome = game.outcome
    round_ = getattr(game.state, "round", None)  # public in every game that has rounds
    return GameSummary(
        turn=tuple(name(seat) for seat in game.waiting),
        round=round_ if isinstance(round_, int) and not isinstance(round_, bool) else None,
        winners=None if outcome is None else tuple(name(seat) for seat in outcome.winners),
    )
