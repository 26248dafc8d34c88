"""The :class:`GameStore`: the catalog's games in any :class:`~avanti.store.base.EventStore`."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import DecodeError, InvalidArgument, UnknownGame
from avanti.core.game import Game
from avanti.store.base import (
    MAX_APPEND_EVENTS,
    EventStore,
    Recorded,
    StoredStream,
    check_command_id,
    check_stream_name,
)

__all__ = ["GameStore"]


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
    """

    def __init__(
        self,
        events: EventStore,
        games: Mapping[str, type[Game[Any, Any, Any, Any, Any, Any]]] | None = None,
        *,
        cache: int = 256,
    ) -> None:
        if type(cache) is not int or cache < 0:
            raise InvalidArgument(f"cache must be an int >= 0, not {cache!r}")
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
        self.events.create(
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

    def load(self, game_id: str, *, verify: bool = False) -> Game[Any, Any, Any, Any, Any, Any]:
        """The game under ``game_id``, rebuilt from its setup and its events.

        Events and setups written at an older format version are brought forward by the codec's
        upcasters. The store holds only what a ``GameStore`` wrote, so by default the log is
        replayed without checking it against the rules; ``verify=True`` checks it (an audit),
        raising :class:`~avanti.core.errors.CorruptLog` where it does not hold.

        :raises UnknownStream: there is no such game.
        :raises DecodeError: the stored data cannot be read as a game of its format.
        :raises UnknownGame: the game's format is not one this store knows.
        """
        return self._load(game_id, None, verify=verify)[0]

    def execute(
        self,
        game_id: str,
        command: Any,
        expected_version: int | None = None,
        *,
        command_id: str | None = None,
    ) -> Game[Any, Any, Any, Any, Any, Any]:
        """Load a game, execute ``command`` and append its events, in one atomic step.

        The events are appended at the version that was loaded: if another writer got there
        first, nothing is written and :class:`~avanti.core.errors.VersionConflict` is raised
        (load again and decide again). ``expected_version`` (the version the caller saw) is
        checked too. With ``command_id``, a command that was already appended under that id is
        not executed again: the game is returned as it was right after it, and nothing is
        written (a client's retry after a lost reply).

        :raises IllegalCommand: the rules refuse the command; nothing is written.
        """
        check_stream_name(game_id)
        check_command_id(command_id)
        if command_id is not None:
            done = self.events.command_version(game_id, command_id)
            if done is not None:
                return self._load(game_id, done)[0]
        game, stored = self._load(game_id, None, writing=True)
        after = game.execute(command, expected_version)
        event_data = type(game).rules.codec.event_to_data
        new = [event_data(event) for event in after.events[stored:]]
        version = self.events.append(game_id, new, stored, command_id=command_id)
        if version != stored + len(new):  # a retry of the same command id got there first
            return self._load(game_id, version)[0]
        self._remember(game_id, after, version)
        return after

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

    def follow_any(self, after: Mapping[str, int], timeout: float) -> dict[str, int]:
        """Wait up to ``timeout`` seconds for any of the games to pass the version it is
        mapped to; every game that did, with its version (one thread for many games)."""
        return self.events.wait_any(after, timeout)

    def games(
        self, *, format: str | None = None, limit: int = 100, updated_after: float | None = None
    ) -> tuple[StoredStream, ...]:
        """The records of up to ``limit`` stored games, the most recently updated first."""
        return self.events.streams(format=format, limit=limit, updated_after=updated_after)

    def _load(
        self, game_id: str, version: int | None, *, verify: bool = False, writing: bool = False
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
                setup, events = codec.read_document(document)
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
        self, game_id: str, game: Game[Any, Any, Any, Any, Any, Any], stored: int
    ) -> None:
        """Keep a game that the store holds ``stored`` events of, as the newest in the cache."""
        if not self._cache_size:
            return
        with self._cache_lock:
            self._cache[game_id] = (game, stored)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)


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
