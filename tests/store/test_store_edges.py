"""The event stores' edges: a damaged SQLite file, a store closed or forked at an awkward moment,
the bounds of what a store keeps in memory, the GameStore's roads a plain game never takes, the
PostgreSQL writer's refusals and races, and the argument checks of the base class.

Every damaged file is damaged by hand through a second connection, and every refusal is checked
with its type, its message and the data left as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

import avanti.store.postgres as postgres_module
import avanti.store.sqlite as sqlite_module
from avanti import mare
from avanti.core.codec import JSONValue
from avanti.core.errors import InvalidArgument, VersionConflict
from avanti.store import (
    MAX_METADATA_BYTES,
    MAX_WATCHED,
    CommandIdReused,
    EventStore,
    GameStore,
    MemoryEventStore,
    MetadataChanged,
    Recorded,
    SQLiteEventStore,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
)
from avanti.store.postgres import PostgresEventStore
from avanti.store.sqlite import IDLE_CONNECTIONS
from tests import toy
from tests.store.pg import pg, postgres_cluster, postgres_dsn, schema
from tests.store.test_postgres import PATIENCE, behind_a_lock, queued, until

__all__ = ["pg", "postgres_cluster", "postgres_dsn", "schema"]

TOY: dict[str, Any] = {"toy": toy.Game}
"""The games of a GameStore that keeps the tests' toy race (tests/toy: rules T1 to T3)."""


def raw_sql(path: Path, statement: str, *params: object) -> list[Any]:
    """Run one statement on the file through a connection of its own (another writer, or a
    hand that damages the file), committed; its rows."""
    with contextlib.closing(sqlite3.connect(path)) as raw, raw:
        return raw.execute(statement, params).fetchall()


def toy_race(seed: int = 3, goal: int = 10**6) -> Any:
    """A new race of two (``goal`` far away: nobody wins unless asked to); its two opening events
    deal the secret bonuses (T1)."""
    return toy.new_game(["Ann", "Bob"], seed=seed, goal=goal)


def own_of(store: SQLiteEventStore) -> sqlite3.Connection | None:
    """The connection the store writes on, if it has opened one (read afresh each time)."""
    return store._own


def corrupt(path: Path, what: str) -> str:
    """The message of a StoreError for damaged data in the file at ``path``."""
    return f"SQLite file {path} is corrupt: its contents are not a valid SQLite database ({what})"


# -- SQLite: connections ---------------------------------------------------------------------------


def test_a_forked_child_neither_uses_nor_closes_the_parents_connections(tmp_path: Path) -> None:
    """A store whose process id is not the one that opened it (a child forked from a server that
    opened the store: the id is set here as a fork leaves it) opens connections of its own and
    forgets the parent's, idle ones and the write connection alike: it never uses them and its
    ``close`` leaves them open for the parent."""
    store = SQLiteEventStore(tmp_path / "g.db")
    store.create("g", format="toy", format_version=1, setup={})
    store.append("g", [1], 0)
    inherited = list(store._all)
    own = own_of(store)
    assert own is not None
    assert own in inherited
    store._pid += 1  # as in a forked child: the id of the process that opened the store
    assert [r.data for r in store.read("g")] == [1]
    assert store._pid == os.getpid()
    assert own_of(store) is None
    assert store.append("g", [2], 1) == 2  # through a write connection of its own
    assert own_of(store) is not None
    assert own_of(store) not in inherited
    assert not set(map(id, store._all)) & set(map(id, inherited))
    store.close()
    for connection in inherited:  # still the parent's, still open
        assert connection.execute("SELECT count(*) FROM events").fetchone() == (2,)
        connection.close()


def test_a_write_connection_that_cannot_be_opened_is_a_clear_error(tmp_path: Path) -> None:
    """The folder of the file is gone when the writer opens its connection (the first write):
    the create is refused with a StoreError naming the file and the problem, nothing is
    written, and once the folder is back the next write opens the connection and succeeds."""
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "g.db"
    store = SQLiteEventStore(path)
    folder.rename(tmp_path / "away")
    with pytest.raises(StoreError) as caught:
        store.create("g", format="toy", format_version=1, setup={})
    assert str(caught.value) == (
        f"SQLite file {path} cannot be opened (a missing folder or no permission) "
        "(unable to open database file)"
    )
    assert own_of(store) is None
    assert store._own_busy is False  # no write is under way: close() may close what opens next
    (tmp_path / "away").rename(folder)
    assert store.streams() == ()
    assert store.create("g", format="toy", format_version=1, setup={}).version == 0
    assert own_of(store) is not None
    with pytest.raises(StreamExists):
        store.create("g", format="toy", format_version=1, setup={})
    store.close()
    assert raw_sql(path, "SELECT stream, version FROM streams") == [("g", 0)]


def test_a_write_left_in_its_transaction_by_another_error_is_rolled_back(tmp_path: Path) -> None:
    """A write on the store's write connection that stops with an error that is not the
    driver's, inside its transaction, is rolled back when the connection comes back: nothing of
    it is kept and the file's write lock is let go for the next append."""
    store = SQLiteEventStore(tmp_path / "g.db")
    store.create("g", format="toy", format_version=1, setup={})
    store.append("g", [1], 0)
    left: list[sqlite3.Connection] = []

    def interrupted() -> None:
        with store._connection(own=True) as connection:
            left.append(connection)
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE streams SET version = 99")
            raise RuntimeError("not the driver's")

    with store._writing, pytest.raises(RuntimeError, match="not the driver's"):
        interrupted()
    assert not left[0].in_transaction
    assert store.stream("g").version == 1
    assert store.append("g", [2], 1) == 2
    store.close()


def test_a_store_closed_while_its_writer_connects_commits_then_closes_the_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``close`` from another thread just as the writer opens its write connection (the store
    had written nothing yet): the write under way is committed and answered, and the connection
    is closed and forgotten once it comes back, not kept open by a closed store."""
    path = tmp_path / "g.db"
    store = SQLiteEventStore(path)
    connect = store._connect
    opened: list[sqlite3.Connection] = []

    def closed_meanwhile() -> sqlite3.Connection:
        store.close()  # what another thread does at this moment
        opened.append(connect())
        return opened[-1]

    monkeypatch.setattr(store, "_connect", closed_meanwhile)
    record = store.create("g", format="toy", format_version=1, setup={"n": 1})
    assert (record.stream, record.version, record.setup) == ("g", 0, {"n": 1})
    assert len(opened) == 1
    assert store._all == []
    assert store._own is None
    with pytest.raises(sqlite3.ProgrammingError):
        opened[0].execute("SELECT 1")
    with pytest.raises(StoreError, match=r"^the event store on SQLite file .* is closed$"):
        store.stream("g")
    assert raw_sql(path, "SELECT stream, version FROM streams") == [("g", 0)]


def test_connections_beyond_the_idle_pool_are_closed_when_they_come_back(tmp_path: Path) -> None:
    """49 operations at once borrow 49 connections; the store keeps IDLE_CONNECTIONS (48) of
    them for later and closes the one more, which it forgets."""
    store = SQLiteEventStore(tmp_path / "g.db")
    store.create("g", format="toy", format_version=1, setup={})
    with contextlib.ExitStack() as stack:
        borrowed = [stack.enter_context(store._connection()) for _ in range(IDLE_CONNECTIONS + 1)]
        assert len(set(map(id, borrowed))) == IDLE_CONNECTIONS + 1
    # given back last to first: the first one found the pool full
    assert len(store._idle) == IDLE_CONNECTIONS
    assert borrowed[0] not in store._all
    with pytest.raises(sqlite3.ProgrammingError):
        borrowed[0].execute("SELECT 1")
    assert borrowed[1].execute("SELECT count(*) FROM streams").fetchone() == (1,)
    assert store.stream("g").version == 0
    store.close()


def test_a_database_that_cannot_use_wal_is_refused() -> None:
    """A database SQLite cannot put in WAL mode (here a private temporary one: the path "")
    is refused when the store opens it: readers would wait for the writer."""
    with pytest.raises(
        StoreError, match=r"^SQLite file '' cannot switch to WAL mode \(it is in delete mode\)$"
    ):
        SQLiteEventStore("")


# -- SQLite: what the driver says ------------------------------------------------------------------


def test_text_that_is_not_utf8_is_reported_corrupt(tmp_path: Path) -> None:
    """An event whose text is not UTF-8 (the driver cannot decode it) is reported as a corrupt
    file, naming the file and the column, not as some failure of the database."""
    path = tmp_path / "g.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [1], 0)
        raw_sql(path, "UPDATE events SET data = CAST(X'80' AS TEXT)")
        with pytest.raises(StoreError) as caught:
            store.read("g")
        assert str(caught.value).startswith(
            corrupt(path, "Could not decode to UTF-8 column 'data'")[:-1]
        )
        assert store.stream("g").version == 1


def test_an_unforeseen_database_error_names_the_file_and_the_code(tmp_path: Path) -> None:
    """A driver error of no known kind (the events table dropped by hand) is a StoreError that
    names the file, SQLite's message and its code."""
    path = tmp_path / "g.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        raw_sql(path, "DROP TABLE events")
        with pytest.raises(StoreError) as caught:
            store.read("g")
        assert (
            str(caught.value) == f"SQLite file {path} failed: no such table: events (SQLITE_ERROR)"
        )
        assert store.stream("g").version == 0


# -- SQLite: what a store keeps in memory ----------------------------------------------------------


def test_a_store_remembers_its_own_versions_of_the_newest_streams_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The versions a store committed itself are kept for WRITTEN streams (2 here), the newest:
    a follower of the other writers' appends takes them for no news, and is told of the
    oldest stream's version again (it reads it: nothing is lost, only no longer filtered)."""
    monkeypatch.setattr(sqlite_module, "WRITTEN", 2)
    with SQLiteEventStore(tmp_path / "g.db") as store:
        for name in ("s0", "s1", "s2"):
            store.create(name, format="toy", format_version=1, setup={})
            assert store.append(name, [name], 0) == 1
        assert list(store._written) == ["s1", "s2"]
        after = dict.fromkeys(("s0", "s1", "s2"), 0)
        assert store.wait_any(after, 0, others=True) == {"s0": 1}
        assert store.wait_any(after, 0) == {"s0": 1, "s1": 1, "s2": 1}


def test_the_writer_keeps_the_metadata_of_the_newest_streams_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer keeps the metadata of KEPT_METADATA streams (1 here), the newest: an append
    that expects the metadata of a stream it forgot reads it, and is decided as before (kept
    when it still holds, refused with MetadataChanged when another writer changed it)."""
    monkeypatch.setattr(sqlite_module, "KEPT_METADATA", 1)
    path = tmp_path / "g.db"
    with SQLiteEventStore(path) as store:
        for name in ("a", "b"):
            store.create(name, format="toy", format_version=1, setup={}, metadata={"n": 0})
            assert store.append(name, [1], 0, metadata_update={"n": 1}) == 1
        assert list(store._kept) == ["b"]
        assert store._kept_chars == len('{"n":1}')
        assert store.append("a", [2], 1, metadata_update={"n": 2}, expected_metadata={"n": 1}) == 2
        assert list(store._kept) == ["a"]
        raw_sql(path, "UPDATE streams SET metadata = '{\"n\":7}' WHERE stream = 'b'")
        with pytest.raises(MetadataChanged) as caught:
            store.append("b", [2], 1, expected_metadata={"n": 1})
        assert str(caught.value) == "the metadata of stream 'b' changed meanwhile: read it again"
        assert [store.stream(n).version for n in ("a", "b")] == [2, 1]
        assert dict(store.stream("a").metadata) == {"n": 2}


@pytest.mark.parametrize("at_once", [True, False], ids=["update-from", "before-3.33"])
def test_appends_are_answered_alike_with_or_without_update_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_once: bool
) -> None:
    """An SQLite older than 3.33 has no ``UPDATE ... FROM``: the writer then writes every append
    on the road of its own, in a savepoint (``_AT_ONCE`` set as such an SQLite sets it). Each
    answer is the same either way: a new version, a retry, a reused command id, a conflict,
    other metadata, metadata merged beyond MAX_METADATA_BYTES, an unknown stream; and what is
    stored is the same."""
    monkeypatch.setattr(sqlite_module, "_AT_ONCE", at_once)
    half = "y" * (MAX_METADATA_BYTES // 2)
    merged = json.dumps({"half": half, "n": 1, "more": half}, separators=(",", ":"))
    with SQLiteEventStore(tmp_path / "g.db") as store:
        store.create("g", format="toy", format_version=1, setup={}, metadata={"half": half})
        store.create("h", format="toy", format_version=1, setup={})
        assert store._own is not None
        statements: list[str] = []
        store._own.set_trace_callback(statements.append)
        assert store.append("h", [1, 2], 0) == 2
        assert any("SAVEPOINT" in statement for statement in statements) is not at_once

        def told(work: Callable[[], int]) -> int | str:
            try:
                return work()
            except (
                VersionConflict,
                MetadataChanged,
                CommandIdReused,
                UnknownStream,
                InvalidArgument,
            ) as refused:
                return f"{type(refused).__name__}: {refused}"

        answers = [
            told(lambda: store.append("g", [1], 0, command_id="c", command_digest="d")),
            told(lambda: store.append("g", [9], 0, command_id="c", command_digest="d")),
            told(lambda: store.append("g", [9], 0, command_id="c", command_digest="e")),
            told(lambda: store.append("g", [2], 0)),
            told(
                lambda: store.append(
                    "g", [2], 1, metadata_update={"n": 1}, expected_metadata={"half": half}
                )
            ),
            told(lambda: store.append("g", [3], 2, expected_metadata={"half": half})),
            told(lambda: store.append("g", [3], 2, metadata_update={"more": half})),
            told(lambda: store.append("nowhere", [1], 0)),
        ]
        assert answers == [
            1,
            1,
            "CommandIdReused: command id 'c' of stream 'g' was already used for another command",
            "VersionConflict: expected the game at version 0, but it is at version 1; "
            "reload the game and decide again",
            2,
            "MetadataChanged: the metadata of stream 'g' changed meanwhile: read it again",
            f"InvalidArgument: metadata holds at most {MAX_METADATA_BYTES} bytes of JSON, "
            f"not {len(merged.encode())}",
            "UnknownStream: no stream named 'nowhere'",
        ]
        record = store.stream("g")
        assert (record.version, dict(record.metadata)) == (2, {"half": half, "n": 1})
        assert [r.data for r in store.read("g")] == [1, 2]
        assert [r.data for r in store.read("h")] == [1, 2]
        assert store.command_version("g", "c") == 1


def test_parsed_setups_are_kept_up_to_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Setups parsed once are kept by their text, the same value for the same text, up to
    1,024 of them: the next one empties the memory first."""
    monkeypatch.setattr(sqlite_module, "_SETUPS", {})
    for number in range(1_024):
        assert sqlite_module._setup(f'{{"n":{number}}}') == {"n": number}
    assert len(sqlite_module._SETUPS) == 1_024
    text = '{"n":"last"}'
    assert sqlite_module._setup(text) == {"n": "last"}
    assert list(sqlite_module._SETUPS.items()) == [(text, {"n": "last"})]
    assert sqlite_module._setup(text) is sqlite_module._setup(text)


def test_a_store_shows_its_file_and_a_memory_store_its_streams(tmp_path: Path) -> None:
    """``repr`` of a SQLite store names its file; of a memory store, how many streams it keeps."""
    with SQLiteEventStore(tmp_path / "g.db") as store:
        assert repr(store) == f"<SQLiteEventStore {tmp_path / 'g.db'}>"
    memory = MemoryEventStore()
    assert repr(memory) == "<MemoryEventStore: 0 streams>"
    for name in ("a", "b"):
        memory.create(name, format="toy", format_version=1, setup={})
    assert repr(memory) == "<MemoryEventStore: 2 streams>"


# -- SQLite: a damaged file ------------------------------------------------------------------------


def test_a_file_whose_version_lags_its_events_refuses_an_append(tmp_path: Path) -> None:
    """A stream record that says 1 event while 2 are stored (damaged by hand): an append at 2
    finds its position free but the record not at 2, and is refused with VersionConflict naming
    the stored version; nothing is written."""
    path = tmp_path / "g.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [1, 2], 0)
        raw_sql(path, "UPDATE streams SET version = 1")
        with pytest.raises(VersionConflict) as caught:
            store.append("g", [3], 2)
        assert (caught.value.expected, caught.value.actual) == (2, 1)
    assert raw_sql(path, "SELECT position, data FROM events") == [(0, "1"), (1, "2")]
    assert raw_sql(path, "SELECT version FROM streams") == [(1,)]


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE events SET data = 'not json' WHERE position = 1",  # no JSON at all
        "UPDATE events SET data = '1,2' WHERE position = 1",  # two values in one row
        "UPDATE events SET data = X'31' WHERE position = 1",  # bytes, not text
    ],
)
def test_an_event_row_that_is_not_one_json_value_is_reported_corrupt(
    tmp_path: Path, damage: str
) -> None:
    """An event row that is no JSON value, holds two, or is bytes: a read of the stream is a
    StoreError saying the event is not JSON, never a wrong list of events."""
    path = tmp_path / "g.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [{"type": "a"}, {"type": "b"}, {"type": "c"}], 0)
        raw_sql(path, damage)
        with pytest.raises(StoreError) as caught:
            store.read("g")
        assert str(caught.value) == corrupt(path, "an event of stream 'g' is not JSON")
        assert [r.data for r in store.read("g", after=2)] == [{"type": "c"}]


def test_metadata_that_is_not_json_is_reported_corrupt_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    """Metadata that is not JSON (damaged by hand): reading the record, replacing the metadata
    if it still is what was read, and an append that updates it are each a StoreError saying the
    record is not well formed; the stream is left as it was."""
    path = tmp_path / "g.db"
    message = corrupt(path, "a stream record is not well formed")
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        raw_sql(path, "UPDATE streams SET metadata = 'nope'")
        with pytest.raises(StoreError) as caught:
            store.stream("g")
        assert str(caught.value) == message
        with pytest.raises(StoreError) as caught:
            store.set_metadata("g", {"a": 1}, expected={})
        assert str(caught.value) == message
        with pytest.raises(StoreError) as caught:
            store.append("g", [1], 0, metadata_update={"a": 1})
        assert str(caught.value) == message
        assert store.read("g") == ()
    assert raw_sql(path, "SELECT metadata, version FROM streams") == [("nope", 0)]
    assert raw_sql(path, "SELECT count(*) FROM events") == [(0,)]


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE streams SET metadata = '[1, 2]' WHERE stream = 'b'",  # JSON, no object
        "UPDATE streams SET version = 'x' WHERE stream = 'b'",  # no number
        "UPDATE streams SET setup = '{' WHERE stream = 'b'",  # no JSON
    ],
)
def test_a_record_that_is_not_well_formed_is_reported_corrupt(tmp_path: Path, damage: str) -> None:
    """A stream record whose metadata is no object, whose version is no number or whose setup
    is no JSON: reading it, alone or in a list, is a StoreError, never a half-made record."""
    path = tmp_path / "g.db"
    with SQLiteEventStore(path) as store:
        for name in ("a", "b"):
            store.create(name, format="toy", format_version=1, setup={"name": name})
        raw_sql(path, damage)
        for read in (lambda: store.stream("b"), lambda: store.streams()):
            with pytest.raises(StoreError) as caught:
                read()
            assert str(caught.value) == corrupt(path, "a stream record is not well formed")
        assert store.stream("a").setup == {"name": "a"}


# -- the GameStore ---------------------------------------------------------------------------------


def old_mare(store: EventStore) -> Any:
    """A game of Avanti mare! stored as ``old`` at format version 1, before the option
    ``free_fish_move_owed`` (M6), with metadata ``{"seat": "Ann"}``; the game as played."""
    game = mare.new_game(["Ann", "Bob"], seed=7)
    for _ in range(3):
        game = game.execute(game.legal_commands()[0])
    setup = mare.CODEC.document(game.setup, ())["setup"]
    del setup["options"]["free_fish_move_owed"]
    store.create("old", format="mare", format_version=1, setup=setup, metadata={"seat": "Ann"})
    store.append("old", [mare.CODEC.event_to_data(e) for e in game.events], 0)
    return game


def test_hold_must_be_true_or_false() -> None:
    """``hold`` is a bool: 1 is refused, not taken for True."""
    with pytest.raises(InvalidArgument) as caught:
        GameStore(MemoryEventStore(), hold=1)  # type: ignore[arg-type]
    assert str(caught.value) == "hold must be True or False, not 1"


def test_a_holding_store_loads_a_game_of_an_older_format_upcast_and_does_not_hold_it() -> None:
    """With ``hold``, a game stored at Avanti mare!'s format version 1 still loads, brought
    forward with the option set as version 1 games were played (M6), alone or with its record;
    it is not held, and a command on it is refused until it is copied forward."""
    store = MemoryEventStore()
    game = old_mare(store)
    games = GameStore(store, hold=True)
    loaded = games.load("old")
    assert loaded.setup.options.free_fish_move_owed is True
    assert loaded.events == game.events
    record, again = games.load_with_record("old")
    assert (record.format_version, record.version, again) == (1, game.version, loaded)
    assert games._held == {}
    with pytest.raises(InvalidArgument, match=r"format version 1.*GameStore\.upgrade"):
        games.execute("old", loaded.legal_commands()[0])
    assert store.stream("old").version == game.version


def test_a_game_copied_forward_with_new_metadata_takes_them() -> None:
    """``upgrade`` with ``metadata`` gives the copy that metadata (the old game keeps its own);
    the copy is at the current format version and plays on (M6 as version 1 played it)."""
    store = MemoryEventStore()
    old_mare(store)
    games = GameStore(store)
    copied = games.upgrade("old", "new", {"seat": "Bob"})
    record = store.stream("new")
    assert (record.format_version, dict(record.metadata)) == (2, {"seat": "Bob"})
    assert dict(store.stream("old").metadata) == {"seat": "Ann"}
    command = copied.legal_commands()[0]
    assert games.execute("new", command) == copied.execute(command)


def test_run_soon_without_hold_decides_in_a_worker_thread() -> None:
    """Without ``hold``, ``run_soon`` is ``run`` in a worker thread: the command (a roll, T2) is
    decided off the event loop's thread and stored, the answer the same as ``run``'s."""
    store = MemoryEventStore()
    games = GameStore(store, games=TOY)
    game = toy_race()
    games.create("t", game)
    threads: list[threading.Thread] = []

    def roll(record: StoredStream, now: Any) -> Any:
        threads.append(threading.current_thread())
        return toy.Roll(0)

    done = asyncio.run(games.run_soon("t", roll))
    assert (done.game, done.before, done.repeated) == (game.execute(toy.Roll(0)), 2, False)
    assert len(threads) == 1
    assert threads[0] is not threading.main_thread()
    assert store.stream("t").version == 3
    assert [r.data for r in store.read("t", after=2)] == [
        toy.CODEC.event_to_data(done.game.events[2])
    ]


def test_run_soon_reads_again_when_a_held_game_is_refused_with_a_command_id() -> None:
    """A held game another writer moved on: ``choose`` refuses it with VersionConflict (the
    client saw version 3, the held game is at 2). With a command id that refusal is not final:
    the game is read afresh and the command decided again on it (Bob waits, T2)."""
    store = MemoryEventStore()
    mine = GameStore(store, games=TOY, hold=True)
    theirs = GameStore(store, games=TOY)
    game = toy_race()
    mine.create("t", game)
    moved = theirs.execute("t", toy.Roll(0))
    seen: list[int] = []

    def choose(record: StoredStream, now: Any) -> Any:
        seen.append(now.version)
        if now.version < 3:
            raise VersionConflict(3, now.version)
        return toy.Wait(1)

    done = asyncio.run(mine.run_soon("t", choose, command_id="bob-1"))
    assert seen == [2, 2, 3]  # on the loop, then in the worker on the held game, then read
    assert (done.game, done.before, done.repeated) == (moved.execute(toy.Wait(1)), 3, False)
    assert store.stream("t").version == 4
    assert store.command_version("t", "bob-1") == 4


def test_run_soon_answers_a_retry_of_a_command_still_legal_from_the_store() -> None:
    """With ``hold``: Ann's roll (T2) sent again under its command id once it is her turn again.
    It is decided on the held game, but the store finds the id with that same command and
    writes nothing: the answer is the earlier roll, ``repeated``, where it began."""
    store = MemoryEventStore()
    games = GameStore(store, games=TOY, hold=True)
    game = toy_race()
    games.create("t", game)

    async def play() -> tuple[Any, Any, Any]:
        done = await games.run_soon("t", lambda r, g: toy.Roll(0), command_id="ann-1")
        moved = await games.run_soon("t", lambda r, g: toy.Wait(1))
        again = await games.run_soon("t", lambda r, g: toy.Roll(0), command_id="ann-1")
        return done, moved, again

    done, moved, again = asyncio.run(play())
    assert (done.before, done.repeated, done.game.version) == (2, False, 3)
    assert moved.game.version == 4
    assert (again.game, again.before, again.repeated) == (done.game, 2, True)
    assert again.record.version == 3
    assert store.stream("t").version == 4
    assert [r.data["type"] for r in store.read("t", after=2)] == ["Rolled", "Waited"]


def test_run_with_hold_reads_again_for_a_version_newer_than_the_held_one() -> None:
    """With ``hold``: the caller names version 3, which another writer made, while the held game
    is at 2: the game is read afresh, not refused, and the command decided on version 3."""
    store = MemoryEventStore()
    mine = GameStore(store, games=TOY, hold=True)
    game = toy_race()
    mine.create("t", game)
    moved = GameStore(store, games=TOY).execute("t", toy.Roll(0))
    done = mine.run("t", lambda r, g: toy.Wait(1), expected_version=3)
    assert (done.game, done.before, done.repeated) == (moved.execute(toy.Wait(1)), 3, False)
    assert store.stream("t").version == 4


def test_run_with_hold_finds_a_retry_named_at_the_version_it_was_decided_at() -> None:
    """With ``hold``: Ann's roll is sent again under its command id with the version it was
    decided at (2), after Bob has waited (version 4). Not a conflict: the store has the id with
    the same command, so the answer is the earlier roll, ``repeated``; nothing is written."""
    store = MemoryEventStore()
    games = GameStore(store, games=TOY, hold=True)
    games.create("t", toy_race())
    first = games.run("t", lambda r, g: toy.Roll(0), command_id="ann-1")
    games.run("t", lambda r, g: toy.Wait(1))
    again = games.run("t", lambda r, g: toy.Roll(0), expected_version=2, command_id="ann-1")
    assert (again.game, again.before, again.repeated) == (first.game, 2, True)
    assert store.stream("t").version == 4
    with pytest.raises(VersionConflict) as caught:  # a new id at that version is a conflict
        games.run("t", lambda r, g: toy.Roll(0), expected_version=2, command_id="ann-2")
    assert (caught.value.expected, caught.value.actual) == (2, 4)
    assert store.stream("t").version == 4


class Reading(MemoryEventStore):
    """A memory store that runs ``during_read`` (once) inside its next read: what another
    thread does while a load waits for the database."""

    def __init__(self) -> None:
        super().__init__()
        self.during_read: Callable[[], object] | None = None

    def _read(self, stream: str, after: int) -> tuple[Recorded, ...]:
        work, self.during_read = self.during_read, None
        if work is not None:
            work()
        return super()._read(stream, after)


def test_a_game_evicted_while_it_is_loaded_is_returned_and_not_cached_again() -> None:
    """A cache of one game: while the cached race ``a`` is checked for newer events, another
    thread loads ``b``, which evicts ``a``. The load still returns ``a`` as cached (nothing
    newer was stored), and leaves ``b`` in the cache rather than putting ``a`` back."""
    store = Reading()
    games = GameStore(store, games=TOY, cache=1)
    games.create("a", toy_race(seed=1))
    games.create("b", toy_race(seed=2))
    a = games.load("a")
    loaded: list[Any] = []
    store.during_read = lambda: loaded.append(games.load("b"))
    assert games.load("a") is a
    assert list(games._cache) == ["b"]
    assert games.load("b") is loaded[0]
    assert games.load("a") == a


def test_a_cached_game_only_set_up_is_read_whole_once_another_writer_moved_it() -> None:
    """A stream created without its opening events (a create cut short) is cached as a game
    whose deal (T1) is not stored. Once another writer stored the deal and a roll, the cached
    game cannot take the new events on top: the game is read whole, and is theirs."""
    store = MemoryEventStore()
    game = toy_race()
    setup = toy.CODEC.document(game.setup, ())["setup"]
    store.create("cut", format="toy", format_version=toy.CODEC.version, setup=setup)
    mine = GameStore(store, games=TOY)
    assert mine.load("cut") == game
    assert mine._cache["cut"][1] == 0  # two opening events, none stored
    moved = GameStore(store, games=TOY, cache=0).execute("cut", toy.Roll(0))
    assert store.stream("cut").version == 3
    again = mine.load("cut")
    assert again == moved == game.execute(toy.Roll(0))
    assert mine._cache["cut"][1] == 3


class Recording(MemoryEventStore):
    """A memory store that records each append's expected version and number of events."""

    def __init__(self) -> None:
        super().__init__()
        self.appends: list[tuple[int, int]] = []

    def _append(
        self,
        stream: str,
        events: Sequence[JSONValue],
        texts: tuple[str, ...],
        expected: int,
        command_id: str | None,
        digest: str | None,
        update: dict[str, JSONValue] | None,
        known: dict[str, JSONValue] | None = None,
    ) -> int:
        self.appends.append((expected, len(texts)))
        return super()._append(stream, events, texts, expected, command_id, digest, update, known)


def test_a_long_log_is_never_cut_between_a_roll_and_the_win_it_causes() -> None:
    """A race to 1 of 1,001 events: the deal (T1), 997 waits, then a roll and the win it causes
    (T3) at positions 999 and 1000. The first append of at most 1,000 events would end between
    the roll and the win, so it ends before the roll: 999 events, then the last two."""
    game = toy_race(goal=1)
    for _ in range(997):
        game = game.execute(toy.Wait(game.state.turn))
    game = game.execute(toy.Roll(game.state.turn))
    assert game.version == 1_001
    assert [type(e).__name__ for e in game.events[-3:]] == ["Waited", "Rolled", "Won"]
    store = Recording()
    games = GameStore(store, games=TOY)
    games.create("long", game)
    assert store.appends == [(0, 999), (999, 2)]
    assert GameStore(store, games=TOY).load("long", verify=True) == game


# -- the base class --------------------------------------------------------------------------------


class Delegating(EventStore):
    """A store with no writer of its own: its hooks pass each call on to a memory store, and
    ``_append`` notes the thread it runs in."""

    def __init__(self) -> None:
        self.inner = MemoryEventStore()
        self.threads: list[str] = []

    def _create(
        self, stream: str, format: str, format_version: int, setup: str, metadata: str
    ) -> StoredStream:
        return self.inner._create(stream, format, format_version, setup, metadata)

    def _append(
        self,
        stream: str,
        events: Sequence[JSONValue],
        texts: tuple[str, ...],
        expected: int,
        command_id: str | None,
        digest: str | None,
        update: dict[str, JSONValue] | None,
        known: dict[str, JSONValue] | None = None,
    ) -> int:
        self.threads.append(threading.current_thread().name)
        return self.inner._append(
            stream, events, texts, expected, command_id, digest, update, known
        )

    def _command_version(self, stream: str, command_id: str) -> int | None:
        return self.inner._command_version(stream, command_id)

    def _read(self, stream: str, after: int) -> tuple[Recorded, ...]:
        return self.inner._read(stream, after)

    def _stream(self, stream: str) -> StoredStream:
        return self.inner._stream(stream)

    def _streams(
        self, format: str | None, limit: int, after: float | None
    ) -> tuple[StoredStream, ...]:
        return self.inner._streams(format, limit, after)

    def _set_metadata(
        self, stream: str, metadata: str, expected: dict[str, JSONValue] | None
    ) -> StoredStream:
        return self.inner._set_metadata(stream, metadata, expected)

    def _wait_any(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        return self.inner._wait_any(versions, seconds)

    def close(self) -> None:
        self.inner.close()


def test_a_store_without_a_writer_runs_append_soon_in_the_shared_worker_threads() -> None:
    """``append_soon`` on a store with no writer of its own runs ``append`` in one of the
    worker threads all such stores share: the future holds the new version, or the refusal
    ``append`` raises (a stale version), and a refused append writes nothing."""
    store = Delegating()
    store.create("s", format="toy", format_version=1, setup={})
    assert store.append_soon("s", [1, 2], 0).result(timeout=PATIENCE) == 2
    assert store.threads[-1].startswith("avanti-append")
    with pytest.raises(VersionConflict) as caught:
        store.append_soon("s", [3], 0).result(timeout=PATIENCE)
    assert (caught.value.expected, caught.value.actual) == (0, 2)
    assert store.threads[-1].startswith("avanti-append")
    assert [r.data for r in store.read("s")] == [1, 2]
    store.close()


def test_listing_and_waiting_refuse_arguments_of_the_wrong_kind() -> None:
    """A format that is no string, an ``updated_after`` or a timeout that is a bool or a
    string, and more than MAX_WATCHED streams to watch are refused with InvalidArgument
    saying which, before the store is asked anything."""
    store = MemoryEventStore()
    store.create("s", format="toy", format_version=1, setup={})
    with pytest.raises(InvalidArgument) as caught:
        store.streams(format=3)  # type: ignore[arg-type]
    assert str(caught.value) == "format must be a string or None, not 3"
    with pytest.raises(InvalidArgument) as caught:
        store.streams(updated_after=True)
    assert str(caught.value) == "updated_after must be a unix time, not True"
    with pytest.raises(InvalidArgument) as caught:
        store.wait("s", 0, "1")  # type: ignore[arg-type]
    assert str(caught.value) == "timeout must be 0 to 3600 seconds, not '1'"
    too_many = dict.fromkeys((f"s{n}" for n in range(MAX_WATCHED + 1)), 0)
    with pytest.raises(InvalidArgument) as caught:
        store.wait_any(too_many, 0)
    assert str(caught.value) == f"at most {MAX_WATCHED} streams can be watched at once"
    assert [record.stream for record in store.streams()] == ["s"]


# -- PostgreSQL ------------------------------------------------------------------------------------


def not_granted(dsn: str) -> int:
    """How many locks sessions of the cluster wait for."""
    with psycopg.connect(dsn, autocommit=True) as connection:
        row = connection.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()
    assert row is not None
    return int(row[0])


def test_a_closed_postgres_store_refuses_append_soon(pg: PostgresEventStore) -> None:
    """``append_soon`` on a closed store is refused at once with a StoreError; nothing is
    queued for the writer."""
    pg.create("s", format="toy", format_version=1, setup={})
    pg.close()
    with pytest.raises(StoreError) as caught:
        pg.append_soon("s", [1], 0)
    assert str(caught.value) == "the event store is closed"
    assert pg._requests.qsize() == 0


def test_appends_queued_when_the_postgres_store_closes_are_each_refused(
    postgres_dsn: str, schema: str
) -> None:
    """``close`` while 66 appends wait behind one under way (more than one batch of MAX_BATCH,
    64): the one under way commits; each queued append is answered with a StoreError saying the
    store is closed (a batch that fails is tried append by append, so each gets its answer), and
    none is written."""
    store = PostgresEventStore(postgres_dsn, schema=schema)
    store.create("q", format="toy", format_version=1, setup={})
    count = postgres_module.MAX_BATCH + 2
    closing = threading.Thread(target=store.close)
    with behind_a_lock(store, postgres_dsn, schema):
        futures = [store.append_soon("q", [n], 0) for n in range(count)]
        queued(store, count)
        closing.start()
        queued(store, count + 1)  # and the close's word to stop, behind them
    closing.join(timeout=PATIENCE)
    assert not closing.is_alive()
    told: list[BaseException | None] = [future.exception(timeout=PATIENCE) for future in futures]
    message = f"the PostgreSQL event store ({store._where}) is closed"
    assert all(isinstance(error, StoreError) and str(error) == message for error in told)
    with PostgresEventStore(postgres_dsn, schema=schema) as again:
        assert again.stream("first").version == 1
        assert again.stream("q").version == 0
        assert again.read("q") == ()


def test_a_postgres_store_remembers_its_own_versions_of_the_newest_streams_only(
    pg: PostgresEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The versions a store committed itself are kept for WRITTEN streams (2 here), the newest:
    a follower of the other writers' appends is told of the oldest stream's version again."""
    monkeypatch.setattr(postgres_module, "WRITTEN", 2)
    for name in ("s0", "s1", "s2"):
        pg.create(name, format="toy", format_version=1, setup={})
        assert pg.append(name, [name], 0) == 1
    assert list(pg._written) == ["s1", "s2"]
    after = dict.fromkeys(("s0", "s1", "s2"), 0)
    assert pg.wait_any(after, 0, others=True) == {"s0": 1}


def test_a_stale_append_of_no_events_soon_is_a_version_conflict(pg: PostgresEventStore) -> None:
    """``append_soon`` of no events at a version the stream is not at, with or without a command
    id never stored: VersionConflict with the stream's version, as ``append`` answers it;
    nothing is written (no command id either)."""
    pg.create("s", format="toy", format_version=1, setup={})
    pg.append("s", [1], 0)
    for command_id in (None, "never-stored"):
        with pytest.raises(VersionConflict) as caught:
            pg.append_soon("s", [], 3, command_id=command_id).result(timeout=PATIENCE)
        assert (caught.value.expected, caught.value.actual) == (3, 1)
    assert pg.append_soon("s", [], 1).result(timeout=PATIENCE) == 1
    assert [r.data for r in pg.read("s")] == [1]
    assert pg.command_version("s", "never-stored") is None


def test_an_append_soon_beyond_a_bigint_to_no_stream_is_unknown_stream(
    pg: PostgresEventStore,
) -> None:
    """``append_soon`` to a stream that does not exist, at a version no bigint holds: the
    writer cannot try it, and answers UnknownStream (not a conflict with no version)."""
    with pytest.raises(UnknownStream) as caught:
        pg.append_soon("nowhere", [1], 2**63 - 1).result(timeout=PATIENCE)
    assert str(caught.value) == "no stream named 'nowhere'"
    assert pg.streams() == ()


@pytest.mark.parametrize("theirs", ["same", "other"])
def test_a_command_id_another_writer_commits_first_decides_the_append(
    pg: PostgresEventStore, postgres_dsn: str, schema: str, theirs: str
) -> None:
    """Another writer's transaction stores event 0 of stream ``s`` under command id ``c`` while
    the store's writer appends there with ``c`` (in a batch beside a stale append, so each is
    written in a savepoint of its own): the append waits for the other transaction, then finds
    the position taken and ``c`` stored. With the same digest it is a retry, answered with the
    other writer's version; with another digest CommandIdReused. Either way it writes nothing
    and the stale append alone is a VersionConflict."""
    pg.create("a-stale", format="toy", format_version=1, setup={})
    pg.append("a-stale", [0], 0)
    pg.create("s", format="toy", format_version=1, setup={})
    table = table_in(schema)
    with psycopg.connect(postgres_dsn, autocommit=True) as other:
        other.execute("BEGIN")
        other.execute(
            sql.SQL("INSERT INTO {} (stream, position, data) VALUES ('s', 0, '\"theirs\"')").format(
                table("events")
            )
        )
        other.execute(
            sql.SQL("UPDATE {} SET version = 1 WHERE stream = 's'").format(table("streams"))
        )
        other.execute(
            sql.SQL("INSERT INTO {} VALUES ('s', 'c', 1, %s)").format(table("commands")),
            (theirs,),
        )
        with behind_a_lock(pg, postgres_dsn, schema):
            futures = [
                pg.append_soon("a-stale", [9], 0),
                pg.append_soon("s", ["mine"], 0, command_id="c", command_digest="same"),
            ]
            queued(pg, len(futures))
        until(lambda: not_granted(postgres_dsn) > 0, "the append to wait for the other writer")
        other.execute("COMMIT")
    with pytest.raises(VersionConflict) as conflict:
        futures[0].result(timeout=PATIENCE)
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    if theirs == "same":
        assert futures[1].result(timeout=PATIENCE) == 1
    else:
        with pytest.raises(CommandIdReused) as reused:
            futures[1].result(timeout=PATIENCE)
        assert str(reused.value) == (
            "command id 'c' of stream 's' was already used for another command"
        )
    assert [r.data for r in pg.read("s")] == ["theirs"]
    assert pg.command_version("s", "c") == 1
    assert [r.data for r in pg.read("a-stale")] == [0]


def table_in(schema: str) -> Callable[[str], sql.Identifier]:
    """The qualified name of one of the store's tables in ``schema``."""
    return lambda table: sql.Identifier(schema, table)


def test_a_follower_that_ends_leaves_the_other_follower_of_the_stream_watching(
    pg: PostgresEventStore, postgres_dsn: str, schema: str
) -> None:
    """Two followers of the other writers' appends to one stream: the one with no time to wait
    ends with nothing new and leaves the stream watched for the other, which is then woken by
    another writer's append and told its version."""
    pg.create("s", format="toy", format_version=1, setup={})
    told: list[dict[str, int]] = []
    follower = threading.Thread(
        target=lambda: told.append(pg.wait_any({"s": 0}, PATIENCE, others=True))
    )
    follower.start()
    until(lambda: "s" in pg._watches, "the follower to watch the stream")
    assert pg.wait_any({"s": 0}, 0, others=True) == {}
    assert pg._watches["s"].waiters == 1
    with PostgresEventStore(postgres_dsn, schema=schema) as other:
        assert other.append("s", [1], 0) == 1
    follower.join(timeout=PATIENCE)
    assert told == [{"s": 1}]
    assert pg._watches == {}
