"""Open seats: a table that waits for its players, and the game it becomes once they are seated.

A game's setup names every player, so a table created with open seats (``null`` among the
``players`` of ``POST /games``) is not a game yet. It is kept in the store as a record of its
own, the stream ``table.{id}`` of format :data:`~avanti.server.table.lobby.TABLE_FORMAT`: its setup
holds the game's name, options (as the game's codec writes those it read), sides and time per
move (nothing secret: no seed is drawn yet), its record the seats
(:class:`~avanti.server.table.record.OpenSeats`: each seat's name, token hash and bot, ``None``
for an open seat) and its events one entry per change (a seat
taken, the open seats filled with bots, the start), so a waiting page follows it as it follows
a game.

- :meth:`Joining.create`: the table, with a token for each seat its creator named. Its game is
  built once, with stand-in names for the open seats, and thrown away: options, sides and the
  number of seats the game refuses are refused then (422), and nothing is stored.
- :meth:`Joining.take`: the next open seat for a name, and its token (given once). Two people
  never get one seat: each seat is taken by one append at the version read, and a writer that
  lost the race reads again. A name is read in Unicode's composed form (NFC), and differs from
  every other name at the table in more than case and form. In a game with sides (Avanti
  mare!) the person who sits down may pick their side (M2: each player decides, and any mix
  is allowed): it is kept in the table's record
  (:attr:`~avanti.server.table.record.OpenSeats.sides`, a side or ``None`` per seat) and
  overrides the side the creator named for that seat.
- :meth:`Joining.fill`: the creator (the token of the first seat the creator named, no other)
  has bots take every open seat, which starts the game.

When the last seat is taken the game is created under the table's own id, with the seats'
token hashes, so the table's id, its invite link and every token issued while seating lead to
the game; :meth:`Joining.describe` answers ``GET /games/{id}`` while it waits. The game is built
before the last seat is written, so a start the game refuses leaves the seat open.

A table nobody sat down at for
:attr:`~avanti.server.limits.ServerLimits.open_table_seconds` is closed: its seats, its start and
its description are refused with 410 ``table-expired`` (the lobby lists it no more). The store
deletes nothing, so its record stays, closed by its age alone.
"""

from __future__ import annotations

import itertools
import json
import logging
from typing import Any

from attrs import evolve

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.limits import name_problem
from avanti.server.limits import Buckets
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import NewGame, name_key, new_game, player_name
from avanti.server.protocol.wire import (
    AnyGame,
    ApiError,
    dumps,
    game_id,
    unauthorized,
    unknown_game,
)
from avanti.server.table.lobby import (
    TABLE_FORMAT,
    TABLE_VERSION,
    kept_or_none,
    table_expired,
)
from avanti.server.table.master import MAX_RETRIES, Created, Tables
from avanti.server.table.record import (
    BadToken,
    OpenSeats,
    OpenSummary,
    Seat,
    Table,
    TableRecord,
    game_summary,
    new_token,
    token_hash,
)
from avanti.store import StoredStream, StreamExists, UnknownStream

__all__ = ["Joining", "OpenTable", "open_entry", "table_stream"]

TAKE_TRIES = MAX_RETRIES * 4
"""How often a seat is tried again when other people took seats meanwhile."""


def table_stream(game: str) -> str:
    """The stream of the open table whose game will have the id ``game``."""
    return f"table.{game}"


class OpenTable:
    """An open table as its record holds it."""

    def __init__(self, record: StoredStream, kept: TableRecord) -> None:
        opened = kept.open
        assert opened is not None
        self.record = record
        """The table's stream."""
        self.kept = kept
        """The table's record, as its stream holds it."""
        self.game_id: str = record.stream.removeprefix("table.")
        """The id its game gets."""
        self.game: str = opened.game
        """The game's name in the catalog."""
        self.seats: tuple[Seat | None, ...] = opened.seats
        """The seats, ``None`` for an open one."""
        self.host: str | None = opened.host_sha256
        """The hash of the creator's token."""
        setup: Any = record.setup if isinstance(record.setup, dict) else {}
        self.setup: dict[str, Any] = setup
        """The game's options, sides and time per move."""
        picked = opened.sides or ()
        self.chosen: tuple[str | None, ...] = tuple(
            picked[seat] if seat < len(picked) else None for seat in range(len(self.seats))
        )
        """The side each seated person picked as they sat down (M2), ``None`` where none."""

    @classmethod
    def read(cls, record: StoredStream) -> OpenTable | None:
        """The open table of a record, or ``None`` for another record."""
        kept = kept_or_none(record) if record.format == TABLE_FORMAT else None
        if kept is None or kept.open is None or kept.open.game not in catalog.GAMES:
            return None
        return cls(record, kept)

    def with_record(self, kept: TableRecord) -> OpenTable:
        """This table with the record ``kept`` (read again, or changed)."""
        return OpenTable(self.record, kept)

    @property
    def full(self) -> bool:
        """Whether every seat is taken."""
        return all(seat is not None for seat in self.seats)

    @property
    def host_seat(self) -> int | None:
        """The creator's seat (public: who opened the table), ``None`` if unknown."""
        for number, seat in enumerate(self.seats):
            if seat is not None and self.host is not None and seat.token_sha256 == self.host:
                return number
        return None

    @property
    def options(self) -> JSONValue:
        """The table's rule options as the game's codec wrote them when the table was created
        (``None``: the game's defaults, and for a table of format version 1, which kept the
        client's JSON as it was sent)."""
        if self.record.format_version < TABLE_VERSION:
            return None
        options: JSONValue = self.setup.get("options")
        return options

    @property
    def sides(self) -> tuple[str, ...] | None:
        """Each seat's side as the game will start with it (M2): the one its person picked,
        else the one the creator named, else the game's default; ``None`` for a game without
        sides, and for a table where nobody named one (the game's defaults then apply)."""
        info = catalog.GAMES[self.game]
        named = self.setup.get("sides")
        if not info.sides or (not isinstance(named, list) and not any(self.chosen)):
            return None
        proposed = (
            tuple(str(side) for side in named)
            if isinstance(named, list) and len(named) == len(self.seats)
            else info.default_sides(len(self.seats))
        )
        return tuple(chosen or side for chosen, side in zip(self.chosen, proposed, strict=True))

    @property
    def names(self) -> list[str | None]:
        """The seated players' names, ``None`` for an open seat."""
        return [None if seat is None else seat.name for seat in self.seats]

    def seated(
        self, seats: tuple[Seat | None, ...], chosen: tuple[str | None, ...] | None = None
    ) -> TableRecord:
        """The table's record with ``seats`` (and the sides their people picked, by default
        those already picked)."""
        chosen = self.chosen if chosen is None else chosen
        opened = OpenSeats(
            game=self.game,
            seats=seats,
            host_sha256=self.host,
            started=all(seat is not None for seat in seats),
            sides=tuple(chosen) if any(chosen) else None,
        )
        taken = sum(1 for seat in seats if seat is not None)
        return evolve(self.kept, open=opened, summary=OpenSummary(taken, len(seats)))

    def public(self, seat: int | None) -> dict[str, JSONValue]:
        """What anyone may know of the table (and which seat the asker has): with each seat's
        side (``sides``, ``None`` for a game without sides) and the sides a person who sits
        down may pick (``free_sides``: every side of the game, since each player decides, M2;
        empty for a game without sides)."""
        info = catalog.GAMES[self.game]
        sides = self.sides
        if sides is None and info.sides:
            sides = info.default_sides(len(self.seats))
        return {
            "id": self.game_id,
            "game": self.game,
            "state": "open",
            "seat": seat,
            "players": list(self.names),
            "seats": len(self.seats),
            "taken": sum(1 for seat in self.seats if seat is not None),
            "host": self.host_seat,
            "options": self.options,
            "seconds_per_move": self.setup.get("seconds_per_move"),
            "created": self.record.created,
            "sides": None if sides is None else list(sides),
            "free_sides": list(info.sides),
        }

    def seat_for(self, token: str | None) -> int | None:
        """The seat of ``token`` (every hash compared); 401 for a token that is no seat's."""
        table = Table(self.game, tuple(seat or Seat("", None, None) for seat in self.seats))
        try:
            return table.seat_for(token)
        except BadToken:
            raise unauthorized() from None


def open_entry(record: StoredStream) -> dict[str, JSONValue] | None:
    """The lobby's entry of an open table's record; ``None`` once it is full (its game is
    listed then) or for a record that is none."""
    table = OpenTable.read(record)
    if table is None or table.full:
        return None
    entry = table.public(None)
    del entry["seat"]
    entry.update(updated=record.updated, over=False, bots={})
    return entry


class Joining:
    """Open tables, seats taken by name, and the start (see the module's docstring)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        """The table core."""
        limits = tables.limits
        self._buckets = Buckets(limits.seats_per_second, limits.seats_burst)

    def create(self, request: NewGame, client: str) -> Created:
        """A table with open seats, under a fresh id; a token for each seat the creator named
        (429 when ``client`` creates too fast or has too many tables; 422, storing nothing, when
        the game refuses the options, the sides or the seats)."""
        hashed = self.tables.admission.admit(client)
        info = catalog.GAMES[request.game]
        options = _checked_options(info, request)
        tokens = tuple(
            None if name is None or seat in request.bots else new_token()
            for seat, name in enumerate(request.players)
        )
        seats = tuple(
            None
            if name is None
            else Seat(name, None if token is None else token_hash(token), request.bots.get(seat))
            for seat, (name, token) in enumerate(zip(request.players, tokens, strict=True))
        )
        host = token_hash(next(token for token in tokens if token is not None))
        setup: dict[str, JSONValue] = {
            "game": info.name,
            "options": options,
            "sides": None if request.sides is None else list(request.sides),
            "seconds_per_move": request.seconds_per_move,
        }
        opened = OpenSeats(info.name, (), host)
        while True:
            new_id = self.tables.new_id()
            stream = table_stream(new_id)
            empty = OpenTable(_blank(stream, setup), TableRecord(open=opened, client=hashed))
            metadata = empty.seated(seats).to_metadata()
            try:
                self.tables.games.events.create(
                    stream,
                    format=TABLE_FORMAT,
                    format_version=TABLE_VERSION,
                    setup=setup,
                    metadata=metadata,
                )
            except StreamExists:  # pragma: no cover - one chance in 2**64
                continue
            self.tables.admission.made(hashed, stream, table=True)
            table = Table(info.name, tuple(seat or Seat("", None, None) for seat in seats))
            return Created(new_id, None, table, tokens)

    def read(self, game: str) -> OpenTable:
        """The open table of ``game``; 404 if there is none, 410 once it is closed
        (:attr:`~avanti.server.limits.ServerLimits.open_table_seconds`)."""
        try:
            record = self.tables.games.events.stream(table_stream(game_id(game)))
        except UnknownStream:
            raise unknown_game() from None
        table = OpenTable.read(record)
        if table is None:  # pragma: no cover - a stream of that name the server did not write
            raise unknown_game()
        seconds = self.tables.limits.open_table_seconds
        if not table.full and table_expired(record, seconds, self.tables.now()):
            log(logging.WARNING, "limit", limit="open_table_seconds", game=table.game_id)
            raise ApiError(
                Refusal.TABLE_EXPIRED,
                f"this table waited over {seconds:g} seconds for its next player and is closed: "
                "create another",
            )
        return table

    def describe(self, game: str, token: str | None) -> dict[str, JSONValue]:
        """The open table as ``token``'s seat (or anyone) may see it; its game is started if
        every seat is taken but the start was cut short."""
        return described_for(self.poll(game), token)

    def poll(self, game: str) -> OpenTable:
        """The open table as stored; its game is started if every seat is taken but the start
        was cut short (one read, however many sockets wait for it: see ``described_for``)."""
        table = self.read(game)
        if table.full:
            self._start(table)
        return table

    def take(
        self, game: str, name: object, client: str, side: str | None = None
    ) -> tuple[int, str]:
        """The next open seat of ``game`` for ``name`` (read in Unicode's composed form, NFC),
        and its token (given once); in a game with sides, with the ``side`` its person picks
        (M2), or ``None`` to keep the side named for the seat (400 for a side the game does
        not have, or a side in a game without sides)."""
        name = player_name(name)
        problem = name_problem(name)
        if problem is not None:
            raise ApiError(Refusal.INVALID_NAME, problem)
        assert isinstance(name, str)
        with self.tables.lock:
            allowed = self._buckets.allow(client)
        if not allowed:
            log(logging.WARNING, "limit", limit="seats_per_second")
            raise ApiError(
                Refusal.RATE_LIMITED,
                f"at most {self.tables.limits.seats_per_second:g} seats a second from one "
                "address: wait a moment",
            )
        token = new_token()
        table = self.read(game)
        _check_side(table.game, side)
        key = name_key(name)
        built: list[AnyGame] = []

        def change(kept: TableRecord, _: int) -> TableRecord:
            now = table.with_record(kept)
            free = [seat for seat, taken in enumerate(now.seats) if taken is None]
            if not free:
                raise ApiError(Refusal.TABLE_FULL, "every seat of this table is taken")
            if any(other is not None and name_key(other) == key for other in now.names):
                raise ApiError(
                    Refusal.INVALID_NAME,
                    "another seat of this table has that name (or one that differs only in case)",
                )
            seats = list(now.seats)
            seats[free[0]] = Seat(name, token_hash(token), None)
            chosen = list(now.chosen)
            chosen[free[0]] = side
            picked = now.with_record(now.seated(now.seats, tuple(chosen)))
            built[:] = [self._build(picked, tuple(seats))] if len(free) == 1 else []
            return picked.seated(tuple(seats))

        kept = self.tables.change_record(
            table.record.stream, change, "the table's seats", event=_seated, tries=TAKE_TRIES
        )
        if built:
            self._start(table.with_record(kept), built[0])
        assert kept.open is not None
        digest = token_hash(token)
        seats = kept.open.seats
        return next(n for n, s in enumerate(seats) if s and s.token_sha256 == digest), token

    def fill(self, game: str, token: str | None, kind: str) -> int:
        """The creator's call: a bot of ``kind`` takes every open seat and the game starts;
        how many seats the bots took."""
        table = self.read(game)
        if table.host is None or token is None or table.seat_for(token) is None:
            raise ApiError(Refusal.FORBIDDEN, "only the table's creator fills it with bots")
        if token_hash(token) != table.host:
            raise ApiError(Refusal.FORBIDDEN, "only the table's creator fills it with bots")
        info = catalog.GAMES[table.game]
        built: list[AnyGame] = []
        filled = [0]

        def change(kept: TableRecord, _: int) -> TableRecord:
            now = table.with_record(kept)
            if now.full:
                raise ApiError(Refusal.TABLE_FULL, "every seat of this table is taken")
            used = {name_key(name) for name in now.names if name is not None}
            seats = list(now.seats)
            for number, seat in enumerate(seats):
                if seat is None:
                    names = [f"{kind.capitalize()} bot {number}", *info.player_names(len(seats))]
                    bot_name = next(n for n in names if name_key(n) not in used)
                    used.add(name_key(bot_name))
                    seats[number] = Seat(bot_name, None, kind)
            built[:] = [self._build(now, tuple(seats))]
            filled[0] = sum(1 for seat in now.seats if seat is None)
            return now.seated(tuple(seats))

        kept = self.tables.change_record(
            table.record.stream,
            change,
            "the table's seats",
            event=lambda _, __: {"type": "filled", "bot": kind},
        )
        self._start(table.with_record(kept), built[0])
        return filled[0]

    @staticmethod
    def _build(table: OpenTable, seats: tuple[Seat | None, ...]) -> AnyGame:
        """The game of ``table`` once ``seats`` (every one taken) sit at it, with a fresh secret
        seed; the game's refusal (422) if it refuses them."""
        info = catalog.GAMES[table.game]
        return new_game(
            info,
            [seat.name for seat in seats if seat is not None],
            table.setup.get("options"),
            table.sides,
        )

    def _start(self, table: OpenTable, started: AnyGame | None = None) -> None:
        """Create the game of a full table under the table's id (once: a second start finds
        the game there); ``started``: the game already built for its seats."""
        seats = tuple(seat for seat in table.seats if seat is not None)
        info = catalog.GAMES[table.game]
        if started is None:
            started = self._build(table, table.seats)
        seconds = table.setup.get("seconds_per_move")
        kept = TableRecord(
            table=Table(info.name, seats),
            client=table.kept.client,
            summary=game_summary(started),
            clock=float(seconds) if isinstance(seconds, int | float) else None,
        )
        try:
            self.tables.games.create(table.game_id, started, kept.to_metadata())
        except StreamExists:
            return
        client = kept.client
        if client is not None:  # the address's table is its game now
            self.tables.ended(table.record.stream)
            self.tables.admission.made(client, table.game_id)
        log(logging.INFO, "started", game=table.game_id, kind=info.name, seats=len(seats))


def _check_side(game: str, side: str | None) -> None:
    """A side a person may pick as they sit down: any side of the game (M2), none in a game
    without sides (400)."""
    if side is None:
        return
    info = catalog.GAMES[game]
    if not info.sides:
        raise ApiError(Refusal.BAD_REQUEST, f"{info.title} has no sides to pick")
    if side not in info.sides:
        raise ApiError(
            Refusal.BAD_REQUEST,
            f"'side' must be one of {', '.join(info.sides)}, or left out",
        )


def _seated(before: TableRecord, after: TableRecord) -> JSONValue:
    """The event of a seat taken: the first seat open ``before`` that is taken ``after``."""
    assert before.open is not None
    assert after.open is not None
    pairs = zip(before.open.seats, after.open.seats, strict=True)
    seat = next(n for n, (was, now) in enumerate(pairs) if was is None and now is not None)
    return {"type": "seated", "seat": seat}


def _blank(stream: str, setup: JSONValue) -> StoredStream:
    """A record to build a new table's first metadata from."""
    return StoredStream(stream, TABLE_FORMAT, TABLE_VERSION, setup, {}, 0, 0.0, 0.0)


def _checked_options(info: catalog.GameInfo, request: NewGame) -> JSONValue:
    """The options of a new table as the game's codec writes them once it has read them, or
    ``None`` for the defaults: its game is built with stand-in names in the open seats (and
    thrown away), so whatever the game refuses of the options, the sides or the number of seats
    is refused now (422, naming the option), before anything is stored."""
    taken = {name_key(name) for name in request.players if name is not None}
    names: list[str] = []
    for seat, name in enumerate(request.players):
        if name is None:
            candidates = (f"Open seat {seat + 1}{'+' * n}" for n in itertools.count())
            name = next(c for c in candidates if name_key(c) not in taken)
            taken.add(name_key(name))
        names.append(name)
    game = new_game(info, names, request.options, request.sides)
    if request.options is None:
        return None
    codec = type(game).rules.codec
    setup = json.loads(dumps(codec.document(game.setup, ())["setup"]))
    options: JSONValue = setup.get("options")
    return options


def described_for(table: OpenTable, token: str | None) -> dict[str, JSONValue]:
    """An open table as ``token``'s seat (or anyone) may see it, with ``"started"``; 401 for a
    token that is no seat's."""
    described = table.public(table.seat_for(token))
    described["started"] = table.full
    return described
