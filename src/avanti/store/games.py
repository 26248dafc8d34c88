"""The :class:`GameStore`: the catalog's games in any :class:`~avanti.store.base.EventStore`."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import (
    DecodeError,
    IllegalCommand,
    InvalidArgument,
    UnknownGame,
    VersionConflict,
)
from avanti.core.game import Game
from avanti.store.base import (
    MAX_APPEND_EVENTS,
    EventStore,
    MetadataChanged,
    Recorded,
    StoredStream,
    check_command_id,
    check_stream_name,
    dump_json,
)

__all__ = ["RETRIES", "STRIPES", "Executed", "GameStore", "Turn"]

RETRIES = 8
"""How many times :meth:`GameStore.run` loads and decides again after another writer got
there first (when it was given no ``expected_version``)."""

STRIPES = 64
"""With ``hold``, how many locks the games' commands are spread over (by their id's hash): the
commands of one game wait for each other, so each is decided on the game the one before left."""

AnyGame = Game[Any, Any, Any, Any, Any, Any]

HeldGame = tuple[StoredStream, AnyGame, int]
"""A game held with its stream's record, and how many of its events are stored."""


@attrs.frozen
class Executed:
    """What :meth:`GameStore.run` did: the game after the command, and the record with it."""

    game: AnyGame
    """The game right after the command (after the earlier one, when ``repeated``)."""
    record: StoredStream
    """The stream's record as it was read, with ``version`` set to the number of events the
    store holds of ``game`` and ``metadata`` including what the append set (the outcome)."""
    before: int
    """The stored version the command was decided at (where its events begin)."""
    repeated: bool
    """Whether the command id was already stored with this same command: nothing was written,
    and ``game`` is the game right after that earlier command."""


def _digest(game: AnyGame, command: Any) -> str:
    """The SHA-256 (hex) of ``command`` as the game's codec writes it, in canonical JSON
    (sorted keys, compact separators, UTF-8)."""
    data = type(game).rules.codec.command_to_data(command)
    text = json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return hashlib.sha256(text.encode()).hexdigest()


def catalog_games() -> dict[str, type[Game[Any, Any, Any, Any, Any, Any]]]:
    """Every game class of the catalog by document format name, old format names included."""
    found: dict[str, type[Game[Any, Any, Any, Any, Any, Any]]] = {}
    for info in catalog.GAMES.values():
        game_class: type[Game[Any, Any, Any, Any, Any, Any]] = info.load().Game
        for name in (info.name, *info.formats, *game_class.rules.codec.formats):
            found[name] = game_class
    return found


class GameStore:
    """Games kept in an event store: created, loaded, executed and followed by their id.

    A game's id is its stream's name. The stream's record holds the game's format, its codec's
    format version and its setup (a secret: it holds the seed); each event is one row, as the
    codec writes it. ``games`` maps document format names to game classes; by default every game
    of :mod:`avanti.catalog`, under its name and its older format names.

    Any number of ``GameStore`` objects, in any number of processes, may share one database:
    :meth:`execute` appends at the version it loaded, and the store's unique key on stream and
    position lets exactly one of two racing writers win.

    The last ``cache`` games loaded or executed stay in memory. Loading one again reads only
    the events stored after it (one small query); when there are none, as for a game this object
    alone writes to, the game is not replayed again. Any newer event, from any writer, makes it
    load the game afresh. ``cache=0`` turns this off.

    ``hold=True`` is for a process that writes most of its games' commands itself, as a game
    server does: it holds each cached game's record too, and :meth:`run` decides a command on a
    held game with no read at all, one append in all. The append then carries the record's
    metadata as it was known (``expected_metadata``) beside the version, so a change by any
    other writer (an event, a seat handed over) refuses it inside its transaction; the game and
    its record are then read afresh and the command decided again (or refused with
    :class:`~avanti.core.errors.VersionConflict` when the caller named the version it saw).
    """

    def __init__(
        self,
        events: EventStore,
        games: Mapping[str, type[Game[Any, Any, Any, Any, Any, Any]]] | None = None,
        *,
        cache: int = 256,
        hold: bool = False,
    ) -> None:
        if type(cache) is not int or cache < 0:
            raise InvalidArgument(f"cache must be an int >= 0, not {cache!r}")
        if type(hold) is not bool:
            raise InvalidArgument(f"hold must be True or False, not {hold!r}")
        self.events = events
        """The event store the games are kept in."""
        self._games: dict[str, type[Game[Any, Any, Any, Any, Any, Any]]] = dict(
            catalog_games() if games is None else games
        )
        self._cache_size = cache
        self._cache: OrderedDict[str, tuple[Game[Any, Any, Any, Any, Any, Any], int]] = (
            OrderedDict()
        )
        self._cache_lock = threading.Lock()
        self._hold = hold and cache > 0
        self._held: dict[str, StoredStream] = {}  # the records of cached games, with hold
        # with hold, the commands of one game are decided one at a time (a lock per stripe)
        self._stripes = tuple(threading.Lock() for _ in range(STRIPES))
        self._turns: dict[str, _Turn] = {}  # run_soon's: the commands of a game, one at a time

    def create(
        self,
        game_id: str,
        game: Game[Any, Any, Any, Any, Any, Any],
        metadata: Mapping[str, JSONValue] = {},
    ) -> None:
        """Store a game (its setup and all its events) under a new id.

        A long log is written in several appends of at most
        :data:`~avanti.store.base.MAX_APPEND_EVENTS` events, each ending where a command's events
        end, so a create cut short leaves the game as it was after some earlier command.

        :raises StreamExists: the id is taken.
        :raises InvalidArgument: the game's class is not one this store knows.
        """
        codec = type(game).rules.codec
        if self._games.get(codec.format) is not type(game):
            raise InvalidArgument(
                f"this GameStore does not keep games of {type(game).__qualname__} "
                f"(format {codec.format!r})"
            )
        document = codec.document(game.setup, ())
        record = self.events.create(
            game_id,
            format=codec.format,
            format_version=codec.version,
            setup=document["setup"],
            metadata=metadata,
        )
        event_data = codec.event_to_data
        cause = type(game).rules.cause
        version = 0
        for chunk in _whole_commands(game.events, cause, MAX_APPEND_EVENTS):
            version = self.events.append(game_id, [event_data(e) for e in chunk], version)
        # the first command need not read it again
        self._remember(game_id, game, version, attrs.evolve(record, version=version))

    def load(self, game_id: str, *, verify: bool = False) -> Game[Any, Any, Any, Any, Any, Any]:
        """The game under ``game_id``, rebuilt from its setup and its events.

        Events and setups written at an older format version are brought forward by the codec's
        upcasters. The store holds only what a ``GameStore`` wrote, so by default the log is
        replayed without checking it against the rules; ``verify=True`` checks it (an audit),
        raising :class:`~avanti.core.errors.CorruptLog` where it does not hold.

        :raises UnknownStream: there is no such game.
        :raises DecodeError: the stored data cannot be read as a game of its format.
        :raises UnknownGame: the game's format is not one this store knows.

        With ``hold``, the game's record is read with it and the game is held (the next
        command on it is decided without a read): a server that loads a game another process
        moved, to show it to its seats, decides their next commands on it at once.
        """
        if self._hold and not verify:
            try:
                return self._load_record(game_id)[1]
            except InvalidArgument:  # stored at an older format: read (upcast), not held
                pass
        return self._load(game_id, None, verify=verify)[0]

    def load_with_record(
        self, game_id: str
    ) -> tuple[StoredStream, Game[Any, Any, Any, Any, Any, Any]]:
        """:meth:`load`, with the stream's record (its metadata, its version) as read with it:
        with ``hold``, one read of the record for both (a server reading a game and its table's
        record for a seat that connects), and the game is held; otherwise the record is read,
        then the game loaded (its version may be newer than the record's).

        :raises UnknownStream: there is no such game.
        :raises DecodeError: the stored data cannot be read as a game of its format.
        :raises UnknownGame: the game's format is not one this store knows.
        """
        if self._hold:
            try:
                record, game, _ = self._load_record(game_id)
            except InvalidArgument:  # stored at an older format: read (upcast), not held
                pass
            else:
                return record, game
        record = self.events.stream(game_id)
        return record, self._load(game_id, None)[0]

    def run(
        self,
        game_id: str,
        choose: Callable[[StoredStream, AnyGame], Any],
        *,
        expected_version: int | None = None,
        command_id: str | None = None,
        command_digest: str | None = None,
        summarize: Callable[[AnyGame], Mapping[str, JSONValue]] | None = None,
    ) -> Executed:
        """Load a game once, let ``choose`` pick the command, execute it and append its events.

        ``choose(record, game)`` is given the stream's record and the game, and returns the
        command (or raises: its exception propagates and nothing is written). The game is loaded
        with one :meth:`~avanti.store.base.EventStore.stream` call and at most one
        :meth:`~avanti.store.base.EventStore.read` (none when the cached game is current), and
        the events go in with one :meth:`~avanti.store.base.EventStore.append` at the version
        loaded. If another writer got there first, the game is loaded and ``choose`` asked again,
        up to :data:`RETRIES` times; with ``expected_version`` (the version the caller saw)
        there is no retry: :class:`~avanti.core.errors.VersionConflict` is raised, before
        ``choose`` is called when the game is not at that version.

        With ``command_id``, the store keeps the id with a digest of the command (SHA-256 of
        the command as the codec writes it, in canonical JSON). An id stored with the same
        command is a retry: nothing is written and the result is ``repeated``, with the game
        right after that earlier command. An id stored with another command raises
        :class:`~avanti.store.base.CommandIdReused`. ``command_digest`` replaces the command's
        digest with the caller's own (a server binds an id to the request as its client sent
        it, notation or JSON, so that a retry is recognised even once the notation reads as
        nothing legal any more).

        The append that ends the game also sets the stream's ``"outcome"`` metadata
        (``{"winners": [...], "returns": [...]}``), so a lobby reads it from the record.
        ``summarize(game)``, if given, names further top-level metadata keys (a public summary
        of the game after the command) that the same append sets.

        :raises IllegalCommand: the rules refuse the command; nothing is written.
        """
        check_stream_name(game_id)
        check_command_id(command_id)
        if expected_version is not None and (
            type(expected_version) is not int or expected_version < 0
        ):
            raise InvalidArgument(
                f"expected_version must be a non-negative int or None, not {expected_version!r}"
            )
        if self._hold:  # one command of a game at a time: the next decides on the held game
            with self._stripes[hash(game_id) % len(self._stripes)]:
                return self._run(
                    game_id, choose, expected_version, command_id, command_digest, summarize
                )
        return self._run(game_id, choose, expected_version, command_id, command_digest, summarize)

    async def run_soon(
        self,
        game_id: str,
        choose: Callable[[StoredStream, AnyGame], Any],
        *,
        expected_version: int | None = None,
        command_id: str | None = None,
        command_digest: str | None = None,
        summarize: Callable[[AnyGame], Mapping[str, JSONValue]] | None = None,
    ) -> Executed:
        """:meth:`run` for a caller on an asyncio event loop.

        With ``hold``, a command on a held game is decided on the loop itself (the rules take
        far less than a read) and only its append is waited for: no read and no worker thread
        (:meth:`turn`, which a caller that decides its commands itself, such as a game server,
        uses directly). Everything else (a game not held yet, a refusal or a version conflict
        to look into with a fresh read, a store without ``hold``) is :meth:`run` in a worker
        thread. ``choose`` may raise :class:`~avanti.core.errors.VersionConflict` to refuse a
        command decided at a version older than the held game's: the store's version is never
        older than that, so the refusal needs no read.
        """
        check_stream_name(game_id)
        check_command_id(command_id)
        run = functools.partial(
            self.run,
            game_id,
            choose,
            expected_version=expected_version,
            command_id=command_id,
            command_digest=command_digest,
            summarize=summarize,
        )
        if not self._hold:
            return await asyncio.to_thread(run)
        async with self.turn(game_id) as turn:
            async with turn.deciding() as held:
                if held is None or expected_version not in (None, held[1].version):
                    return await turn.run_instead(run)
                record, game, _ = held
                try:
                    command = choose(record, game)
                except VersionConflict:
                    if command_id is None:
                        raise  # older than the held game: no read needed to refuse it
                    return await turn.run_instead(run)  # a retry? the store's to say
                except Exception:  # refused on what this object holds: read it first
                    return await turn.run_instead(run)
                try:
                    after = game.execute(command)
                except IllegalCommand:
                    return await turn.run_instead(run)
                summary = None if summarize is None else summarize(after)
                turn.append(command, after, command_id, command_digest, summary)
            return await turn.answer(run)

    @property
    def holds(self) -> bool:
        """Whether this store holds its games' records (``hold=True`` with a cache): the
        condition of :meth:`turn`."""
        return self._hold

    @contextlib.asynccontextmanager
    async def turn(self, game_id: str) -> AsyncIterator[Turn]:
        """One command's turn at a game, for a caller on an asyncio event loop that decides
        its commands itself, such as a game server's table master. Needs ``hold``.

        The commands of one game are decided one at a time, in the order they came
        (:meth:`Turn.deciding`), each on the game the one before left, at once, while that
        one's append may still be on its way to the disk: the store commits one game's appends
        in the order it was handed them (:meth:`Turn.append`), and answers each only once it is
        durable (:meth:`Turn.answer`). When one is refused (another writer moved the game on),
        those decided after it are refused too, and each is read and decided again. A decision
        that needs a read (a game not held, a refusal to look into) is the caller's
        :meth:`run` in a worker thread (:meth:`Turn.run_instead`). The turn ends with the
        block; await :meth:`Turn.answer` inside it.

        :raises InvalidArgument: the store does not hold its games (:attr:`holds`).
        """
        check_stream_name(game_id)
        if not self._hold:
            raise InvalidArgument("GameStore.turn needs a store made with hold=True and a cache")
        state = self._turns.get(game_id)
        if state is None:
            state = self._turns[game_id] = _Turn()
        state.waiting += 1
        try:
            yield Turn(self, game_id, state)
        finally:
            state.waiting -= 1
            if not state.waiting:
                del self._turns[game_id]

    def _forget_tip(self, game_id: str, turn: _Turn) -> None:
        """An append of the game was refused: the commands decided on what it would have left
        are refused too (their versions do not follow on), and the next one reads first."""
        turn.tip = None
        self._unhold(game_id)

    def _remember_newer(
        self, game_id: str, game: AnyGame, stored: int, record: StoredStream
    ) -> None:
        """:meth:`_remember`, unless a newer version is remembered already (a read in a worker
        thread may have found one before this append was answered)."""
        with self._cache_lock:
            cached = self._cache.get(game_id)
        if cached is None or cached[1] <= stored:
            self._remember(game_id, game, stored, record)

    @staticmethod
    def _written(
        game: AnyGame,
        after: AnyGame,
        stored: int,
        summary: Mapping[str, JSONValue] | None,
    ) -> tuple[list[JSONValue], dict[str, JSONValue] | None]:
        """What the append of a command writes: its events (from the ``stored``-th on) as
        data, and the record's keys it sets (the outcome of a game it ends, the summary)."""
        event_data = type(game).rules.codec.event_to_data
        new = [event_data(event) for event in after.events[stored:]]
        update: dict[str, JSONValue] | None = None
        outcome = after.outcome
        if outcome is not None and game.outcome is None:
            update = {
                "outcome": {
                    "winners": list(outcome.winners),
                    "returns": list(outcome.returns),
                }
            }
        if summary is not None:
            update = {**(update or {}), **summary}
        return new, update

    def _run(
        self,
        game_id: str,
        choose: Callable[[StoredStream, AnyGame], Any],
        expected_version: int | None,
        command_id: str | None,
        command_digest: str | None,
        summarize: Callable[[AnyGame], Mapping[str, JSONValue]] | None,
    ) -> Executed:
        """:meth:`run`, its arguments checked."""
        attempt = 0
        fresh = not self._hold  # with hold: a held record first, read afresh after a refusal
        while True:
            held = None if fresh else self._held_record(game_id)
            if held is None:
                fresh = True
                record, game, stored = self._load_record(game_id)
            else:
                record, game, stored = held
                if expected_version is not None and expected_version > game.version:
                    fresh = True  # the caller saw a newer version: another writer's
                    continue
            if expected_version is not None and expected_version != game.version:
                conflict = VersionConflict(expected_version, game.version)
                if held is not None and command_id is not None:
                    fresh = True  # whether it is a retry is the store's to say
                    continue
                if command_id is not None:
                    try:
                        command = choose(record, game)
                    except Exception:
                        raise conflict from None
                    digest = command_digest or _digest(game, command)
                    earlier = self._retry_of(game_id, record, command_id, digest)
                    if earlier is not None:
                        return earlier
                raise conflict
            try:
                command = choose(record, game)
            except Exception:
                if held is not None:  # refused on what this object holds: read it first
                    fresh = True
                    continue
                raise
            try:
                after = game.execute(command)
            except IllegalCommand:
                if held is not None:
                    fresh = True
                    continue
                if command_id is not None:
                    digest = command_digest or _digest(game, command)
                    earlier = self._retry_of(game_id, record, command_id, digest)
                    if earlier is not None:
                        return earlier
                raise
            summary = None if summarize is None else summarize(after)
            new, update = self._written(game, after, stored, summary)
            try:
                version = self.events.append(
                    game_id,
                    new,
                    stored,
                    command_id=command_id,
                    command_digest=None
                    if command_id is None
                    else command_digest or _digest(game, command),
                    metadata_update=update,
                    expected_metadata=record.metadata if self._hold else None,
                )
            except (VersionConflict, MetadataChanged) as refused:
                if held is not None:  # another writer moved on: read it, decide again
                    self._unhold(game_id)  # (the cached game folds in the newer events)
                    fresh = True
                    continue
                if (
                    isinstance(refused, VersionConflict) and expected_version is not None
                ) or attempt >= RETRIES:
                    raise
                attempt += 1
                continue
            if version != stored + len(new):  # the same command id got there first
                return self._earlier(game_id, record, version)
            metadata = record.metadata if update is None else {**record.metadata, **update}
            record = attrs.evolve(record, version=version, metadata=metadata)
            self._remember(game_id, after, version, record)
            return Executed(game=after, record=record, before=stored, repeated=False)

    def execute(
        self,
        game_id: str,
        command: Any,
        expected_version: int | None = None,
        *,
        command_id: str | None = None,
    ) -> AnyGame:
        """Load a game, execute ``command`` and append its events, in one atomic step: the game
        right after it (:meth:`run` with a ``choose`` that always picks ``command``).

        The events are appended at the version that was loaded: if another writer got there
        first, the game is loaded again and the command executed there (without
        ``expected_version``), or :class:`~avanti.core.errors.VersionConflict` is raised (with
        it). With ``command_id``, a command that was already appended under that id is not
        executed again: the game is returned as it was right after it, and nothing is written
        (a client's retry after a lost reply); the same id with another command raises
        :class:`~avanti.store.base.CommandIdReused`.

        :raises IllegalCommand: the rules refuse the command; nothing is written.
        """
        return self.run(
            game_id,
            lambda _record, _game: command,
            expected_version=expected_version,
            command_id=command_id,
        ).game

    def upgrade(
        self, game_id: str, new_id: str, metadata: Mapping[str, JSONValue] | None = None
    ) -> Game[Any, Any, Any, Any, Any, Any]:
        """Copy a game stored at an older format version to ``new_id``, at the current one.

        A stream is written at one format version, so a game stored by an older release of
        its codec is read (brought forward by the upcasters) but not appended to; copy it once
        to go on playing it. The copy keeps the metadata unless ``metadata`` is given.
        """
        game = self.load(game_id)
        if metadata is None:
            metadata = self.events.stream(game_id).metadata
        self.create(new_id, game, metadata)
        return game

    def follow(self, game_id: str, after: int, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for the game to pass version ``after``; its version."""
        return self.events.wait(game_id, after, timeout)

    def follow_any(
        self, after: Mapping[str, int], timeout: float, *, others: bool = False
    ) -> dict[str, int]:
        """Wait up to ``timeout`` seconds for any of the games to pass the version it is
        mapped to; every game that did, with its version (one thread for many games). With
        ``others``, only other writers' appends count
        (:meth:`~avanti.store.base.EventStore.wait_any`)."""
        return self.events.wait_any(after, timeout, others=others)

    def games(
        self, *, format: str | None = None, limit: int = 100, updated_after: float | None = None
    ) -> tuple[StoredStream, ...]:
        """The records of up to ``limit`` stored games, the most recently updated first."""
        return self.events.streams(format=format, limit=limit, updated_after=updated_after)

    def retry_of(self, game_id: str, command_id: str, command_digest: str) -> Executed | None:
        """The earlier command stored under ``command_id``, as :meth:`run` answers a retry
        (``repeated``); ``None`` if no command has that id;
        :class:`~avanti.store.base.CommandIdReused` if it was stored with another digest.

        For a caller whose request was refused before it became a command (a notation the game
        has moved past): the request may be the retry of an acknowledged one.
        """
        check_stream_name(game_id)
        check_command_id(command_id)
        return self._retry_of(game_id, self.events.stream(game_id), command_id, command_digest)

    def _retry_of(
        self, game_id: str, record: StoredStream, command_id: str, digest: str
    ) -> Executed | None:
        """The earlier append of ``command_id``, if one is stored, as :meth:`run` answers a
        retry; ``None`` if there is none; :class:`CommandIdReused` if it held another command.

        For a retry that the game has moved past (its command no longer legal, its expected
        version passed): an append of no events checks the id and its digest, and writes nothing.
        """
        done = self.events.command_version(game_id, command_id)
        if done is None:
            return None
        version = self.events.append(
            game_id, [], done, command_id=command_id, command_digest=digest
        )
        return self._earlier(game_id, record, version)

    def _earlier(self, game_id: str, record: StoredStream, version: int) -> Executed:
        """:meth:`run`'s answer for a command id already stored, its append ending at
        ``version``: the game then, and where that command's events began."""
        game = self._load(game_id, version)[0]
        cause = type(game).rules.cause
        before = min(version, len(game.events)) - 1
        while before > 0 and cause(game.events[before]) is None:
            before -= 1
        return Executed(
            game=game,
            record=attrs.evolve(record, version=version),
            before=max(before, 0),
            repeated=True,
        )

    def _load_record(self, game_id: str) -> HeldGame:
        """The stream's record, the game it holds and how many events of it are stored (the
        record's version): one ``stream()`` and at most one ``read()``."""
        record = self.events.stream(game_id)
        with self._cache_lock:
            cached = self._cache.get(game_id)
            if cached is not None and cached[1] == record.version:
                self._cache.move_to_end(game_id)
                if self._hold and cached[1] == cached[0].version:
                    self._held[game_id] = record
                return record, cached[0], cached[1]
        if cached is not None and cached[1] < record.version and cached[1] == cached[0].version:
            newer = self.events.read(game_id, after=cached[1])[: record.version - cached[1]]
            folded = self._fold(game_id, cached, newer) if newer else None
            if folded is not None:
                self._remember(game_id, folded[0], folded[1], record)
                return record, folded[0], folded[1]
        rows = self.events.read(game_id)[: record.version]
        game, stored = self._build(game_id, record, rows, writing=True)
        if stored == record.version and game.version == stored:
            self._remember(game_id, game, stored, record)
        return record, game, stored

    def _held_record(self, game_id: str) -> HeldGame | None:
        """With ``hold``: a cached game with its record, taken as current without a read (the
        append that follows checks it), or ``None``."""
        with self._cache_lock:
            record = self._held.get(game_id)
            cached = self._cache.get(game_id)
            if record is None or cached is None or cached[1] != record.version:
                return None
            if cached[1] != cached[0].version:  # only set up: the opening events to store
                return None
            self._cache.move_to_end(game_id)
            return record, cached[0], cached[1]

    def _unhold(self, game_id: str) -> None:
        """Read the record of a held game again before its next command (another writer
        changed it); the cached game is kept, to fold in the events written since."""
        with self._cache_lock:
            self._held.pop(game_id, None)

    def _load(
        self, game_id: str, version: int | None, *, verify: bool = False
    ) -> tuple[Game[Any, Any, Any, Any, Any, Any], int]:
        """The game (from its first ``version`` events only, if given) and how many events of
        it the store holds.

        A stream without events holds a game that was only set up (a writer stopped between
        creating the stream and appending the opening events): the game is started again from
        its setup, and the next :meth:`execute` stores the opening events with its own.
        """
        if version is None and not verify:
            with self._cache_lock:
                cached = self._cache.get(game_id)
            if cached is not None:
                newer = self.events.read(game_id, after=cached[1])
                if not newer:
                    with self._cache_lock:
                        if game_id in self._cache:
                            self._cache.move_to_end(game_id)
                    return cached
                folded = self._fold(game_id, cached, newer)
                if folded is not None:
                    return folded
        record = self.events.stream(game_id)
        rows = self.events.read(game_id)
        if version is not None:
            rows = rows[:version]
        return self._build(game_id, record, rows, version=version, verify=verify)

    def _build(
        self,
        game_id: str,
        record: StoredStream,
        rows: Sequence[Recorded],
        *,
        version: int | None = None,
        verify: bool = False,
        writing: bool = False,
    ) -> tuple[AnyGame, int]:
        """The game of ``record`` with the events ``rows``, and how many they are; remembered
        unless it is an older version or format."""
        game_class = self._games.get(record.format)
        if game_class is None:
            raise UnknownGame(record.format, tuple(sorted(self._games)))
        codec = game_class.rules.codec
        if writing and (record.format, record.format_version) != (codec.format, codec.version):
            raise InvalidArgument(
                f"game {game_id!r} is stored as {record.format!r} format version "
                f"{record.format_version}, and this library writes {codec.format!r} version "
                f"{codec.version}: copy it with GameStore.upgrade before playing on"
            )
        data = [row.data for row in rows]
        document = {
            "format": record.format,
            "version": record.format_version,
            "setup": record.setup,
            "events": data,
        }
        try:
            try:  # the fast road, for a game written at the codec's version
                if (record.format, record.format_version) != (codec.format, codec.version):
                    raise DecodeError(("an older format",))
                setup = codec.structure(record.setup, codec.setup_type, path="$.setup")
                event_from_data = codec.event_from_data
                events = tuple([event_from_data(item) for item in data])
            except DecodeError:  # upcast, or find every problem with its path
                # an upcaster may change what it reads: the store's setup is shared
                setup, events = codec.read_document(
                    {**document, "setup": copy.deepcopy(record.setup)}
                )
        except DecodeError as error:
            raise DecodeError((f"stored game {game_id!r} cannot be read", *error.errors)) from None
        game = game_class.replay(setup, events, verify=verify) if events else game_class.new(setup)
        current = (record.format, record.format_version) == (codec.format, codec.version)
        if version is None and current:
            self._remember(game_id, game, len(events))
        return game, len(events)

    def _fold(
        self,
        game_id: str,
        cached: tuple[Game[Any, Any, Any, Any, Any, Any], int],
        newer: Sequence[Recorded],
    ) -> tuple[Game[Any, Any, Any, Any, Any, Any], int] | None:
        """A cached game brought up to date with the events another writer appended since
        (``newer``), as a load without ``verify`` would rebuild it, or ``None`` when they do
        not follow on (then the caller loads the game whole)."""
        game, stored = cached
        if stored != game.version:  # a game only set up: its opening events are not stored
            return None
        if newer[0].position != stored or newer[-1].position != stored + len(newer) - 1:
            return None  # pragma: no cover - a store returns the positions asked for
        rules = type(game).rules
        try:
            events = tuple([rules.codec.event_from_data(row.data) for row in newer])
        except DecodeError:
            return None  # the whole load finds and reports every problem
        folded = type(game)(game.setup, game.events + events, rules.fold(game.state, events))
        self._remember(game_id, folded, stored + len(events))
        return folded, stored + len(events)

    def _remember(
        self,
        game_id: str,
        game: Game[Any, Any, Any, Any, Any, Any],
        stored: int,
        record: StoredStream | None = None,
    ) -> None:
        """Keep a game that the store holds ``stored`` events of, as the newest in the cache,
        with its current ``record`` when ``hold`` is on (else its record is read again)."""
        if not self._cache_size:
            return
        with self._cache_lock:
            self._cache[game_id] = (game, stored)
            self._cache.move_to_end(game_id)
            if self._hold and record is not None:
                self._held[game_id] = record
            else:
                self._held.pop(game_id, None)
            while len(self._cache) > self._cache_size:
                evicted, _ = self._cache.popitem(last=False)
                self._held.pop(evicted, None)


class _Turn:
    """The commands of one game waiting for :meth:`GameStore.turn` (on one event loop):
    decided one at a time, each on the game the one before left (:attr:`tip`) while that one's
    append may still be on its way to the disk."""

    __slots__ = ("last", "lock", "tip", "waiting")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.waiting = 0
        self.tip: HeldGame | None = None
        """The record, game and stored version the last command decided left (its append
        under way or done); ``None`` when the next is decided on the held game."""
        self.last: asyncio.Future[int] | None = None
        """The append of the last command decided on the road without a read."""

    async def settled(self) -> None:
        """Wait until the last append handed to the store is answered (whatever the answer):
        a read made then finds every append decided before it."""
        last = self.last
        if last is not None and not last.done():
            await asyncio.wait([last])


class Turn:
    """One command's turn at a game this :class:`GameStore` holds (:meth:`GameStore.turn`).

    Inside :meth:`deciding`, the caller decides its command on what it is given and hands it
    over with :meth:`append`, or has :meth:`run_instead` read and decide; after the block,
    :meth:`answer` says what the append did."""

    __slots__ = ("_game_id", "_held", "_pending", "_state", "_store")

    def __init__(self, store: GameStore, game_id: str, state: _Turn) -> None:
        self._store = store
        self._game_id = game_id
        self._state = state
        self._held: HeldGame | None = None
        self._pending: tuple[asyncio.Future[int], HeldGame, HeldGame] | None = None

    @contextlib.asynccontextmanager
    async def deciding(self) -> AsyncIterator[HeldGame | None]:
        """The game's commands one at a time, in the order they came: what to decide this one
        on without a read (the record, the game, and how many of its events are stored: the
        game the command before left, its append perhaps still on its way to the disk), or
        ``None`` when the game is to be read first (it is not held, or an append was refused).
        """
        async with self._state.lock:
            state = self._state
            held = state.tip if state.tip is not None else self._store._held_record(self._game_id)
            self._held = held
            yield held

    def append(
        self,
        command: Any,
        after: AnyGame,
        command_id: str | None = None,
        command_digest: str | None = None,
        metadata_update: Mapping[str, JSONValue] | None = None,
    ) -> None:
        """Hand the store the append of ``command``, decided inside :meth:`deciding` on what
        it gave and leaving ``after``: its events, at the version held; the outcome of a game
        it ends and ``metadata_update`` (a summary: checked JSON) set on the record in the
        same append. The next command of the game is decided on ``after`` at once.

        ``command_id`` and ``command_digest`` are :meth:`GameStore.run`'s (the digest is the
        command's own when not given); ``command_id`` must have been checked
        (:func:`~avanti.store.base.check_command_id`)."""
        held = self._held
        if held is None or self._pending is not None:
            raise InvalidArgument("Turn.append: once, inside deciding, on a held game")
        record, game, stored = held
        new, update = self._store._written(game, after, stored, metadata_update)
        digest = None if command_id is None else command_digest or _digest(game, command)
        # the trusted road: this object built every argument (EventStore._append_trusted)
        future = self._store.events._append_trusted(
            self._game_id,
            new,
            tuple([dump_json(data, "an event", checked=True) for data in new]),
            stored,
            command_id,
            digest,
            update,
            record.metadata,
        )
        metadata = record.metadata if update is None else {**record.metadata, **update}
        version = stored + len(new)
        tip = (attrs.evolve(record, version=version, metadata=metadata), after, version)
        self._pending = (future, held, tip)
        self._state.tip = tip  # the next command of the game is decided on it at once
        self._state.last = future

    async def run_instead(self, run: Callable[[], Executed]) -> Executed:
        """``run`` (a :meth:`GameStore.run` that reads, then decides) in a worker thread, once
        every append of the game handed over before is answered: inside :meth:`deciding`."""
        await self._state.settled()
        return await asyncio.to_thread(run)

    async def answer(self, run: Callable[[], Executed]) -> Executed:
        """What the :meth:`append` did, once it is durable: the game it left; or, when another
        writer got there first, ``run`` in the game's next turn (:meth:`run_instead`); or, when
        the same command id was stored first, that earlier command (``repeated``)."""
        if self._pending is None:
            raise InvalidArgument("Turn.answer: after an append")
        future, (decided_on, _, before), (record, after, version) = self._pending
        store, game_id = self._store, self._game_id
        try:
            stored = await future
        except (VersionConflict, MetadataChanged):  # another writer moved on: read, decide again
            store._forget_tip(game_id, self._state)
            async with self._state.lock:
                return await self.run_instead(run)
        except BaseException:
            store._forget_tip(game_id, self._state)
            raise
        if stored != version:  # the same command id got there first
            store._forget_tip(game_id, self._state)
            return await asyncio.to_thread(store._earlier, game_id, decided_on, stored)
        store._remember_newer(game_id, after, version, record)
        return Executed(game=after, record=record, before=before, repeated=False)


def _whole_commands(
    events: Sequence[Any], cause: Callable[[Any], object], most: int
) -> Iterator[Sequence[Any]]:
    """``events`` in chunks of at most ``most``, each cut where a command's events begin (a
    command with more than ``most`` events is a chunk of its own, and refused by the store)."""
    start = 0
    while start < len(events):
        end = min(start + most, len(events))
        if end < len(events):
            cut = end
            while cut > start and cause(events[cut]) is None:
                cut -= 1
            end = cut if cut > start else end
        yield events[start:end]
        start = end
