"""The table core: stored games with their seats, read and acted on, with no web framework.

Everything the server does with a game goes through :class:`Tables`: the HTTP endpoints, the
WebSocket session, the pages and the server's bots are thin callers of it, and none of them
reads the store itself. It knows no transport (no Starlette, uvicorn or websockets import: a
test checks it), so the rules lab, a chat service or a test drives it the same way.

- :meth:`Tables.read`: a game with its record and its seats (:class:`Seated`).
- :meth:`Tables.seat_of`: the seat a token belongs to (``None``: a spectator; 401 otherwise).
- :meth:`Tables.act_soon`: a seat's command, decided here on the game the process holds and
  appended once (:meth:`avanti.store.GameStore.turn`: no read); :meth:`Tables.act`, blocking,
  loaded, decided and appended once (:meth:`avanti.store.GameStore.run`): one ``stream``, at
  most one ``read``, one ``append``.
- :meth:`Tables.create`, :meth:`Tables.hand_over`, :meth:`Tables.lobby`.

Siblings built on it: :mod:`~avanti.server.table.admission` (who may create a table now, which
every creation asks), :mod:`~avanti.server.table.joining` (open seats),
:mod:`~avanti.server.table.chat`,
:mod:`~avanti.server.table.rematch` and :mod:`~avanti.server.table.clock`.

Refusals are :class:`~avanti.server.protocol.wire.ApiError` (a status, a kind and a message a seat
may read); a transport turns them into its own messages.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from attrs import evolve, field, frozen

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import IllegalCommand, VersionConflict
from avanti.server.limits import Buckets, ServerLimits
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import CommandRequest, NewGame, decode, illegal, new_game
from avanti.server.protocol.wire import (
    AnyGame,
    ApiError,
    conflict,
    game_id,
    unauthorized,
    unknown_game,
)
from avanti.server.table.admission import Admission
from avanti.server.table.changes import Change, Moved
from avanti.server.table.lobby import (
    lobby,
)
from avanti.server.table.record import (
    BadToken,
    GameSummary,
    Seat,
    Started,
    Table,
    TableRecord,
    game_summary,
    new_token,
    token_hash,
)
from avanti.store import (
    CommandIdReused,
    Executed,
    GameStore,
    MetadataChanged,
    StoredStream,
    StreamExists,
    Turn,
    UnknownStream,
)
from avanti.store.games import HeldGame

__all__ = ["Acted", "Created", "Seated", "Tables"]

NOTED_GAMES = 1_024
"""How many games :meth:`Tables.note` keeps recent versions of."""

NOTED_VERSIONS = 8
"""How many recent versions of a game :meth:`Tables.note` keeps."""

MAX_RETRIES = 8
"""How often :meth:`Tables.change_record` tries a change again when another writer changed the
record meanwhile."""


def reused() -> ApiError:
    """The refusal of a command id used before for another request."""
    return ApiError(
        Refusal.COMMAND_ID_REUSED,
        "that command_id was already used for another command: a command_id names one command",
    )


@frozen
class Seated:
    """A stored game with its record and its seats."""

    record: StoredStream
    """The stream's record (its metadata holds the seats; its setup is a secret)."""
    table: Table | None
    """The seats, or ``None`` for a game the server did not create."""
    game: AnyGame
    """The game as stored."""
    kept: TableRecord = field(factory=TableRecord)
    """The table's record as its metadata holds it (seats, clock, rematch, ...)."""

    @property
    def info(self) -> catalog.GameInfo:
        """The game's catalog entry."""
        return info_of(self.table.game if self.table is not None else self.record.format)

    def bot_awaited(self) -> bool:
        """Whether the game waits for a seat a bot plays."""
        table = self.table
        return table is not None and any(table.bot(seat) for seat in self.game.waiting)


@frozen
class Acted:
    """A command that was executed (or found stored under its command id)."""

    seat: int
    """The seat that acted."""
    executed: Executed
    """What the store did: the game after the command, the record, where it began."""

    @property
    def game(self) -> AnyGame:
        """The game right after the command."""
        game: AnyGame = self.executed.game
        return game

    @property
    def since(self) -> int:
        """The version the command was decided at (its events start there)."""
        before: int = self.executed.before
        return before

    kept: TableRecord = field(factory=TableRecord)
    """The table's record as the command left it."""

    @property
    def table(self) -> Table | None:
        """The seats as the command found them."""
        return self.kept.table


@frozen
class Created:
    """A game the server created: its id, and each person's seat token (given once)."""

    game_id: str
    """The new game's id."""
    game: AnyGame | None
    """The game as it starts; ``None`` for a table with open seats (not a game yet)."""
    table: Table
    """Its seats."""
    tokens: tuple[str | None, ...]
    """Each seat's token by seat; ``None`` for a seat a bot plays from the start."""


class _Command:
    """A seat's command request on its way to the store: how it is decided on the game held
    (:meth:`decide_held`) or as loaded (:meth:`choose`), and stored (:attr:`stored`)."""

    def __init__(
        self,
        tables: Tables,
        game: str,
        request: CommandRequest,
        token: str | None,
        seat: int | None,
        rate: bool,
    ) -> None:
        self.tables = tables
        self.game = game
        self.request = request
        self.token = token
        self.seat = seat
        self.rate = rate
        self.command_id: str | None = None
        if request.command_id is not None:  # each seat's ids are its own: scoped by its token
            scope = token_hash(token)[:16] if token is not None else f"seat-{seat}"
            self.command_id = f"{scope}:{request.command_id}"
        # what a command id is bound to (none without one: no SHA-256 for every command)
        self.digest = "" if self.command_id is None else request.digest()
        self.chosen = -1
        """The seat that acted, once decided."""
        self.timed = False
        self.allowed: dict[int, bool] = {}  # a command is rated once, however often decided
        self.kept: TableRecord | None = None
        """The table's record the command was decided on (the last time it was decided)."""
        self.summary: GameSummary | None = None
        self.started: Started | None = None

    @property
    def stored(self) -> dict[str, Any]:
        """The store's arguments besides the game and :meth:`choose` (made when asked: held,
        the bound method would make the command a cycle, freed only by the collector)."""
        return {
            "command_id": self.command_id,
            "command_digest": self.digest or None,
            "summarize": self.summarize,
        }

    def summarize(self, after: AnyGame) -> dict[str, JSONValue]:
        """The lobby's summary, and for a timed game when its new version began to wait (in
        the same append: no second write, and a restart finds it)."""
        self.summary = game_summary(after)
        summary = self.summary.to_metadata()
        self.started = None
        if self.timed and not after.is_over:
            self.started = Started(after.version, self.tables.clock_now())
            summary.update(self.started.to_metadata())
        return summary

    def record_after(self, executed: Executed) -> TableRecord | None:
        """The table's record the command's append left, from the record it was decided on
        and the keys its append set (its summary, when its new version began to wait): no
        read. ``None`` when the append set more (the outcome of a game it ended) or repeated
        an earlier command."""
        if executed.repeated or executed.game.is_over or self.kept is None:
            return None
        if self.summary is None:  # pragma: no cover - the store summarizes every append
            return None
        if self.started is None:
            return evolve(self.kept, summary=self.summary)
        return evolve(self.kept, summary=self.summary, clock_started=self.started)

    def decide_held(self, turn: Turn, held: HeldGame) -> bool:
        """Decide the command on the game this process holds and hand its append to the
        store (``turn``): ``True``; ``False`` when a read is to decide (refused on what is
        held: the game may have moved on; a stale version that may be a retry). A command
        decided at a version older than the held game's, and not catching up, is refused
        here (the store's version is never older)."""
        record, game, _ = held
        try:
            command = self.choose(record, game)
        except VersionConflict:
            if self.command_id is None:
                raise
            return False  # whether it is a retry is the store's to say
        except Exception:
            return False
        try:
            after = game.execute(command)
        except IllegalCommand:
            return False
        turn.append(command, after, self.command_id, self.digest or None, self.summarize(after))
        return True

    def choose(self, record: StoredStream, loaded: AnyGame) -> Any:
        """The command, decided on the game as loaded with its record; a refusal raises."""
        tables, request = self.tables, self.request
        kept = self.kept = tables.record_of(record)
        table = kept.table
        acting = tables.seat_of(table, self.token) if self.seat is None else self.seat
        if request.bot:
            if table is None or acting is None or table.bot(acting) is None:
                raise ApiError(Refusal.CONFLICT, "the seat is no bot's any more")
        else:
            acting = tables.check_acting(table, acting)
        assert acting is not None
        if self.rate:
            if acting not in self.allowed:
                self.allowed[acting] = tables.allow(self.game, acting)
            if not self.allowed[acting]:
                log(
                    logging.WARNING,
                    "limit",
                    limit="commands_per_second",
                    game=self.game,
                    seat=acting,
                )
                raise ApiError(
                    Refusal.RATE_LIMITED,
                    f"at most {tables.limits.commands_per_second:g} commands a second from one "
                    "seat",
                )
        expected = request.expected_version
        if expected is not None and expected != loaded.version:
            if expected > loaded.version:  # newer than what is held: read it again
                raise conflict(expected, loaded.version)
            if not tables.catching_up(self.game, loaded, acting, expected):
                raise VersionConflict(expected, loaded.version)
        command = decode(loaded, acting, request)
        if getattr(command, "seat", None) != acting:
            raise ApiError(Refusal.FORBIDDEN, "a command must name the seat of its token")
        self.chosen = acting
        self.timed = kept.clock is not None
        return command


def _updated(
    known: tuple[Mapping[str, JSONValue], TableRecord], metadata: Mapping[str, JSONValue]
) -> TableRecord | None:
    """The record ``metadata`` holds, from a record read before (its metadata and the record)
    when ``metadata`` only sets keys of it (an append's update: the keys it left are the same
    objects): only the keys set are read. ``None`` when a key was taken away."""
    before, kept = known
    if any(key not in metadata for key in before):
        return None
    update = {key: value for key, value in metadata.items() if before.get(key, _NONE) is not value}
    return kept.updated(update) if update else kept


_NONE = object()


def info_of(name: str) -> catalog.GameInfo:
    """The catalog entry of a stored game's name or document format."""
    for info in catalog.GAMES.values():
        if name == info.name or name in info.formats:
            return info
    from avanti.core.errors import UnknownGame

    raise UnknownGame(name, tuple(catalog.GAMES))


class Tables:
    """The server's games and seats (see the module's docstring). Every method blocks on the
    store: call it from a worker thread in an event loop."""

    def __init__(self, games: GameStore, limits: ServerLimits) -> None:
        self.games = games
        """The games."""
        self.limits = limits
        """The limits."""
        self._seat_buckets = Buckets(limits.commands_per_second, limits.command_burst)
        self.lock = threading.Lock()
        """Guards the rate buckets."""
        self.now: Callable[[], float] = time.time
        """The clock (Unix time) the lobby and the open tables' closing read; a test sets
        another."""
        self._noted: OrderedDict[str, dict[int, AnyGame]] = OrderedDict()
        self.admission = Admission(games, limits, lambda: self.now())
        """Who may create a table now (the creation rate and the tables in play per
        address)."""
        self._kept: OrderedDict[str, tuple[Mapping[str, JSONValue], TableRecord]] = OrderedDict()
        self.clock_now: Callable[[], float] = time.time
        """The clock (Unix time) of the timed games' moves: the append of a command of a timed
        game writes when its new version began to wait (the server's clock sets its own)."""

    # -- reading -------------------------------------------------------------------------------

    def record_of(self, record: StoredStream) -> TableRecord:
        """The table's record a stream's metadata holds, read once for each version of it.

        :raises ~avanti.server.table.record.BadRecord: metadata that is no record.
        """
        metadata = record.metadata
        with self.lock:
            known = self._kept.get(record.stream)
        if known is not None and known[0] is metadata:
            return known[1]
        kept = None if known is None else _updated(known, metadata)
        if kept is None:
            kept = TableRecord.from_metadata(metadata)
        self._keep(record, kept)
        return kept

    def _keep(self, record: StoredStream, kept: TableRecord) -> None:
        """Keep ``kept`` as the record of ``record``'s metadata (of at most
        :data:`NOTED_GAMES` games, the least recent forgotten)."""
        with self.lock:
            self._kept[record.stream] = (record.metadata, kept)
            self._kept.move_to_end(record.stream)
            if len(self._kept) > NOTED_GAMES:
                self._kept.popitem(last=False)

    def table_of(self, record: StoredStream) -> Table | None:
        """The seats a record holds (:meth:`record_of`)."""
        return self.record_of(record).table

    def stored(self, game: str) -> tuple[StoredStream, TableRecord]:
        """A game's stream and the table's record it holds; 404 for an unknown game."""
        try:
            record = self.games.events.stream(game_id(game))
        except UnknownStream:
            raise unknown_game() from None
        return record, self.record_of(record)

    def record(self, game: str) -> tuple[StoredStream, Table | None]:
        """A game's record and seats; 404 for an unknown game."""
        record, kept = self.stored(game)
        return record, kept.table

    def read(self, game: str) -> Seated:
        """A game with its record and seats (the record read once for both); 404 for an
        unknown game."""
        try:
            record, loaded = self.games.load_with_record(game_id(game))
        except UnknownStream:
            raise unknown_game() from None
        kept = self.record_of(record)
        self.note(game, loaded)
        return Seated(record, kept.table, loaded, kept)

    @staticmethod
    def seat_of(table: Table | None, token: str | None) -> int | None:
        """The seat of ``token`` (``None``: a spectator); 401 for a token that is no seat's."""
        if table is None:
            if token is not None:
                raise unauthorized()
            return None
        try:
            return table.seat_for(token)
        except BadToken:
            raise unauthorized() from None

    @staticmethod
    def check_acting(table: Table | None, seat: int | None) -> int:
        """``seat`` if it may send commands: 403 for a spectator and for a seat a bot plays."""
        if seat is None or table is None:
            raise ApiError(Refusal.FORBIDDEN, "a spectator sends no commands: send a seat's token")
        if table.bot(seat) is not None:
            raise ApiError(
                Refusal.FORBIDDEN, "a bot plays this seat now: take it back first (DELETE .../bot)"
            )
        return seat

    # -- acting --------------------------------------------------------------------------------

    def act(
        self,
        game: str,
        request: CommandRequest,
        *,
        token: str | None = None,
        seat: int | None = None,
        rate: bool = False,
    ) -> Acted:
        """Execute the command of a seat, named by its ``token`` (HTTP) or by its ``seat`` (a
        socket bound to it, or a bot of the server with ``request.bot``), blocking: from a
        worker thread (the server itself calls :meth:`act_soon`).

        The record, the game and the seat are read once, in the store's one load; a seat handed
        to a bot meanwhile may not act (403). ``rate`` applies the per-seat command rate. A
        command sent at an older version than the game's is decided as
        :meth:`catching_up` says.
        """
        command = _Command(self, game, request, token, seat, rate)
        try:
            executed = self.games.run(game_id(game), command.choose, **command.stored)
        except Exception as error:
            refused = self._refusal(error, command)
            if command.command_id is None or not isinstance(error, ApiError | VersionConflict):
                raise refused from None
            try:  # refused now: the retry of an acknowledged request, the game moved on since?
                earlier = self.games.retry_of(game, command.command_id, command.digest)
            except CommandIdReused:
                raise reused() from None
            if earlier is None:
                raise refused from None
            return self._acted(game, Acted(self._seat_of_command(earlier), earlier))
        return self._acted(game, Acted(command.chosen, executed), command)

    async def act_soon(
        self,
        game: str,
        request: CommandRequest,
        *,
        token: str | None = None,
        seat: int | None = None,
        rate: bool = False,
    ) -> Acted:
        """:meth:`act` on the event loop: a command on a game this process holds is decided
        there, in the game's turn, and waits only for its append to be durable
        (:meth:`~avanti.store.GameStore.turn`); a read, when one is needed, is made in a
        worker thread (:meth:`~avanti.store.GameStore.run`)."""
        command = _Command(self, game, request, token, seat, rate)
        try:
            executed = await self._run_soon(game_id(game), command)
        except Exception as error:
            refused = self._refusal(error, command)
            if command.command_id is None or not isinstance(error, ApiError | VersionConflict):
                raise refused from None
            retry = functools.partial(self.games.retry_of, game, command.command_id, command.digest)
            try:  # refused now: the retry of an acknowledged request, the game moved on since?
                earlier = await asyncio.to_thread(retry)
            except CommandIdReused:
                raise reused() from None
            if earlier is None:
                raise refused from None
            return self._acted(game, Acted(self._seat_of_command(earlier), earlier))
        return self._acted(game, Acted(command.chosen, executed), command)

    async def _run_soon(self, game: str, command: _Command) -> Executed:
        """A command decided here, on the game this process holds, in the game's turn
        (:meth:`~avanti.store.GameStore.turn`), and only its append awaited; or, when a read
        is to decide, the store's :meth:`~avanti.store.GameStore.run` in a worker thread."""
        run = functools.partial(self.games.run, game, command.choose, **command.stored)
        if not self.games.holds:
            return await asyncio.to_thread(run)
        async with self.games.turn(game) as turn:
            async with turn.deciding() as held:
                if held is None or not command.decide_held(turn, held):
                    return await turn.run_instead(run)
            return await turn.answer(run)

    @staticmethod
    def _refusal(error: Exception, command: _Command) -> Exception:
        """What a command's failure is answered with: the store's and the rules' refusals as
        :class:`ApiError`, any other exception as it is."""
        if isinstance(error, UnknownStream):
            return unknown_game()
        if isinstance(error, VersionConflict):
            expected = command.request.expected_version
            return conflict(expected if expected is not None else -1, error.actual)
        if isinstance(error, IllegalCommand):
            return illegal(error)
        if isinstance(error, CommandIdReused):
            return reused()
        return error

    def _acted(self, game: str, acted: Acted, command: _Command | None = None) -> Acted:
        """Note the game a command left (a command at its version may catch up later; a game
        over is in play no more), with the table's record it left."""
        record = acted.executed.record
        kept = None if command is None else command.record_after(acted.executed)
        if kept is None:
            kept = self.record_of(record)
        else:  # the next command finds it by the metadata it was made for
            self._keep(record, kept)
        acted = Acted(acted.seat, acted.executed, kept)
        self.note(game, acted.game)
        if acted.game.is_over:
            self.ended(game)
        return acted

    def note(self, game: str, seen: AnyGame) -> None:
        """Keep a version of a game as this process saw it, with the few before it, for
        :meth:`catching_up` (at most :data:`NOTED_GAMES` games, the least recent forgotten)."""
        with self.lock:
            versions = self._noted.get(game)
            if versions is None:
                versions = self._noted[game] = {}
                if len(self._noted) > NOTED_GAMES:
                    self._noted.popitem(last=False)
            else:
                self._noted.move_to_end(game)
            versions[seen.version] = seen
            while len(versions) > NOTED_VERSIONS:
                del versions[min(versions)]

    def hear(self, change: Change) -> None:
        """Hear an announcement (:class:`~avanti.server.table.changes.Changes`): a version of a
        game another process wrote, as this process's sockets are shown it, is noted
        (:meth:`note`), so that a seat's command decided on it may catch up here as on a
        version this process wrote (:meth:`catching_up`)."""
        if isinstance(change, Moved) and not change.here:
            self.note(change.game_id, change.game)

    def catching_up(self, game: str, now: AnyGame, seat: int, since: int) -> bool:
        """Whether a seat's command sent at version ``since`` is decided at the game's version
        now, ``now.version``, instead of being refused as stale: when this process saw the
        game at ``since`` and the seat's legal commands are the same now as then. Others moved
        meanwhile, as in a step that several seats take at once (Avanti's cards laid face down,
        A8), and nothing the seat could choose changed: the answer depends only on what the
        seat is shown (its legal commands then and now), never on a hidden fact."""
        with self.lock:
            then = self._noted.get(game, {}).get(since)
        if then is None:
            return False
        return then.legal_commands(seat) == now.legal_commands(seat)

    @staticmethod
    def _seat_of_command(executed: Executed) -> int:
        """The seat whose stored command an answer repeats."""
        game = executed.game
        if executed.before >= len(game.events):
            return -1  # pragma: no cover - a command stores at least one event
        seat = getattr(type(game).rules.cause(game.events[executed.before]), "seat", None)
        return seat if isinstance(seat, int) else -1

    def allow(self, game: str, seat: int) -> bool:
        """Whether a seat may send a command now (its rate), counting this one."""
        with self.lock:
            return self._seat_buckets.allow((game, seat))

    # -- creating ------------------------------------------------------------------------------

    def ended(self, stream: str) -> None:
        """The game or open table ``stream`` is in play no more (this process saw it end, or a
        table start its game): its noted versions are forgotten (:meth:`note`) and the
        admission counts it out (:meth:`~avanti.server.table.admission.Admission.ended`)."""
        with self.lock:
            self._noted.pop(stream, None)  # no seat of an ended game catches up any more
        self.admission.ended(stream)

    def new_id(self) -> str:
        """A fresh random game id (64 bits)."""
        return secrets.token_hex(8)

    def create(self, request: NewGame, client: str) -> Created:
        """A new game with a secret seed, stored under a fresh random id, with a token for each
        seat a person plays; 429 as
        :meth:`~avanti.server.table.admission.Admission.admit` says."""
        client = self.admission.admit(client)
        info = catalog.GAMES[request.game]
        names = request.names
        started = new_game(info, list(names), request.options, request.sides)
        bots = request.bots
        tokens = tuple(None if seat in bots else new_token() for seat in range(len(names)))
        table = Table(
            info.name,
            tuple(
                Seat(name, None if token is None else token_hash(token), bots.get(seat))
                for seat, (name, token) in enumerate(zip(names, tokens, strict=True))
            ),
        )
        kept = TableRecord(table=table, client=client, summary=game_summary(started))
        if request.seconds_per_move is not None:
            kept = evolve(kept, clock=request.seconds_per_move)
            if not started.is_over:  # its first version begins to wait now
                kept = evolve(kept, clock_started=Started(started.version, self.clock_now()))
        while True:
            new_id = self.new_id()
            try:
                self.games.create(new_id, started, kept.to_metadata())
            except StreamExists:  # pragma: no cover - one chance in 2**64
                continue
            self.note(new_id, started)
            self.admission.made(client, new_id)
            return Created(new_id, started, table, tokens)

    def change_record(
        self,
        game: str,
        change: Callable[[TableRecord, int], TableRecord],
        what: str = "the game's record",
        *,
        event: Callable[[TableRecord, TableRecord], JSONValue] | None = None,
        tries: int = MAX_RETRIES,
    ) -> TableRecord:
        """Change a stored record by compare and swap, the one way every part of the table
        core changes one; the record as it is then.

        ``change(record, version)`` is given the record as read (with its stream's version) and
        returns it changed (the same record: nothing to write; it may raise a refusal). The
        change is written only if nobody changed the record meanwhile, else it is read and
        changed again, at most ``tries`` times (then 409 ``conflict``: ``what`` keeps
        changing). With ``event``, the change is written by appending ``event(before, after)``
        at the version read (an open table's seats: ``game`` is then its stream), else by
        setting the metadata. 404 for an unknown game.
        """
        events = self.games.events
        stream = game if event is not None else game_id(game)
        for _ in range(tries):
            try:
                stored = events.stream(stream)
            except UnknownStream:
                raise unknown_game() from None
            before = self.record_of(stored)
            after = change(before, stored.version)
            if after == before:
                return before
            try:
                if event is None:
                    written = events.set_metadata(
                        stream, after.to_metadata(), expected=stored.metadata
                    )
                    return self.record_of(written)
                events.append(
                    stream,
                    [event(before, after)],
                    stored.version,
                    metadata_update=after.to_metadata(),
                    expected_metadata=stored.metadata,
                )
                return after
            except (MetadataChanged, VersionConflict):  # a race with another writer
                continue
        raise ApiError(Refusal.CONFLICT, f"{what} keeps changing: try again")

    def hand_over(self, game: str, token: str | None, seat: str, kind: str | None) -> int:
        """Hand the token's seat to a bot of ``kind`` (``None``: back to its person); the seat.

        Only over the record just read: a seat handed over meanwhile stays so.
        """

        def change(record: TableRecord, _: int) -> TableRecord:
            table = record.table
            seat_of = self.seat_of(table, token)
            if seat_of is None or table is None or seat != str(seat_of):
                raise ApiError(Refusal.FORBIDDEN, "only a seat's own token hands it to a bot")
            return evolve(record, table=table.with_bot(seat_of, kind))

        changed = self.change_record(game, change, "the game's seats")
        found = self.seat_of(changed.table, token)
        assert found is not None
        return found

    # -- the lobby -----------------------------------------------------------------------------

    def lobby(
        self, name: str | None, limit: int, *, now: Callable[[], float] | None = None
    ) -> list[JSONValue]:
        """The lobby (:func:`avanti.server.table.lobby.lobby`): open tables, games in play, finished
        ones, up to ``limit``, from the records alone, listed fairly among the addresses that
        created them; ``now``: the clock (else :attr:`now`)."""
        limits = self.limits
        return lobby(
            self.games,
            name,
            limit,
            list_limit=limits.list_limit,
            seconds=limits.lobby_seconds,
            now=self.now if now is None else now,
            scan=limits.lobby_scan,
            per_client=limits.lobby_per_client,
            open_seconds=limits.open_table_seconds,
        )
