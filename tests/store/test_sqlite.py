"""The contract on the SQLite store: in a file (with a second connection) and in memory."""

from __future__ import annotations

import multiprocessing
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from avanti.core.errors import InvalidArgument
from avanti.store import CommandIdReused, EventStore, SQLiteEventStore, StoreError
from avanti.store.sqlite import SCHEMA_VERSION
from tests.store.contract import StoreContract


class TestSQLiteFile(StoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[EventStore]:
        with SQLiteEventStore(tmp_path / "games.db") as store:
            yield store

    @pytest.fixture
    def second(self, store: EventStore, tmp_path: Path) -> Iterator[EventStore]:
        with SQLiteEventStore(tmp_path / "games.db") as second:
            yield second


class TestSQLiteMemory(StoreContract):
    @pytest.fixture
    def store(self) -> Iterator[EventStore]:
        with SQLiteEventStore(":memory:") as store:
            yield store


def test_a_file_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "games.db"
    with pytest.raises(StoreError, match=r"cannot be opened") as caught:
        SQLiteEventStore(path)
    assert str(path) in str(caught.value)


def test_a_database_of_something_else_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="holds other tables: it is no avanti event store"):
        SQLiteEventStore(path)


def test_tables_of_a_newer_release_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    SQLiteEventStore(path).close()
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this library reads"):
        SQLiteEventStore(path)


@pytest.mark.parametrize(
    "options",
    [{"synchronous": "OFF"}, {"timeout": -1}, {"timeout": True}, {"max_bytes": 0}],
)
def test_bad_options_are_refused(tmp_path: Path, options: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        SQLiteEventStore(tmp_path / "games.db", **options)
    assert not (tmp_path / "games.db").exists()


def test_synchronous_normal_keeps_the_games_too(tmp_path: Path) -> None:
    with SQLiteEventStore(tmp_path / "games.db", synchronous="NORMAL") as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [1, 2], 0)
    with SQLiteEventStore(tmp_path / "games.db") as store:
        assert [r.data for r in store.read("g")] == [1, 2]
        with sqlite3.connect(tmp_path / "games.db") as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def _append_in_child(store: SQLiteEventStore, results: Any) -> None:
    results.put(store.append("g", [3], 2))


def test_a_forked_child_opens_its_own_connections(tmp_path: Path) -> None:
    """A store opened before a fork (a server that forks its workers) works in the child
    without touching the parent's connections, and the parent goes on using them."""
    with SQLiteEventStore(tmp_path / "games.db") as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [1, 2], 0)
        fork = multiprocessing.get_context("fork")
        results = fork.Queue()
        child = fork.Process(target=_append_in_child, args=(store, results))
        child.start()
        assert results.get(timeout=30) == 3
        child.join(timeout=30)
        assert child.exitcode == 0
        assert [r.data for r in store.read("g")] == [1, 2, 3]
        assert store.append("g", [4], 3) == 4


def test_closing_the_store_leaves_a_connection_in_use_to_its_thread(tmp_path: Path) -> None:
    """``close`` closes idle connections at once and a busy one when it comes back, never
    under the thread still using it (closing it there crashed a server's follower thread)."""
    store = SQLiteEventStore(tmp_path / "games.db")
    store.create("g", format="toy", format_version=1, setup={})
    with store._connection() as busy:
        store.close()
        assert busy.execute("SELECT count(*) FROM streams").fetchone() == (1,)
    with pytest.raises(sqlite3.ProgrammingError):
        busy.execute("SELECT 1")


def test_a_file_of_the_first_schema_gets_command_digests(tmp_path: Path) -> None:
    """A file written before command ids kept a digest (schema version 1) is brought forward
    when opened: its old ids keep no digest (any retry of them is a retry), new ones do."""
    path = tmp_path / "old.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [1], 0, command_id="old")
    with sqlite3.connect(path) as raw:
        raw.execute("ALTER TABLE commands DROP COLUMN digest")
        raw.execute("PRAGMA user_version = 1")
    with SQLiteEventStore(path) as store:
        assert store.append("g", [9], 1, command_id="old", command_digest="any") == 1
        assert store.append("g", [2], 1, command_id="new", command_digest="d") == 2
        with pytest.raises(CommandIdReused):
            store.append("g", [3], 2, command_id="new", command_digest="e")
        assert [r.data for r in store.read("g")] == [1, 2]
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        rows = raw.execute("SELECT command_id, digest FROM commands ORDER BY command_id")
        assert rows.fetchall() == [("new", "d"), ("old", None)]
