"""The contract on the SQLite store: in a file (with a second connection) and in memory."""

from __future__ import annotations

import functools
import multiprocessing
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from avanti.core.errors import InvalidArgument, VersionConflict
from avanti.store import (
    MAX_METADATA_BYTES,
    CommandIdReused,
    EventStore,
    SQLiteEventStore,
    StoreError,
    UnknownStream,
)
from avanti.store.sqlite import MAX_BATCH, SCHEMA_VERSION, _listing
from tests.store.contract import StoreContract, event, in_thread, make


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


def test_a_file_of_the_second_schema_gets_the_index_by_format(tmp_path: Path) -> None:
    """Listing one format's records reads that format's rows only (an index by format and time,
    schema version 3), also in a file written before the index, brought forward when opened."""
    path = tmp_path / "old.db"
    with SQLiteEventStore(path) as store:
        for number in range(30):
            store.create(
                f"g{number}", format="toy" if number % 10 else "rare", format_version=1, setup={}
            )
    with sqlite3.connect(path) as raw:
        raw.execute("DROP INDEX streams_by_format")
        raw.execute("PRAGMA user_version = 2")
    with SQLiteEventStore(path) as store:
        assert [r.stream for r in store.streams(format="rare")] == ["g20", "g10", "g0"]
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (3,)
        query = "EXPLAIN QUERY PLAN " + _listing("rare", 0.0)
        plan = raw.execute(query, {"format": "rare", "after": 0.0, "limit": 100}).fetchall()
        assert any("streams_by_format" in str(row) for row in plan), plan


# -- group commit --------------------------------------------------------------------------------


class Holding:
    """Another connection that holds the file's write lock, so the store's writer thread waits
    in ``BEGIN IMMEDIATE`` with its first append while the next ones queue up behind it."""

    def __init__(self, path: Path) -> None:
        self.raw = sqlite3.connect(path, isolation_level=None)
        self.raw.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.raw.execute("ROLLBACK")
        self.raw.close()


def waiting(thread: threading.Thread) -> None:
    """Wait until ``thread`` waits for the answer to its append (it is queued, then): a
    condition on its stack, not a time."""
    for _ in range(6000):
        frame = sys._current_frames().get(thread.ident or 0)
        while frame is not None:
            if frame.f_code.co_name == "result" and "futures" in frame.f_code.co_filename:
                return
            frame = frame.f_back
        threading.Event().wait(0.005)
    raise AssertionError("the append was never queued")


def writing() -> None:
    """Wait until the store's writer thread is inside its transaction (waiting for the file in
    ``BEGIN IMMEDIATE``, behind :class:`Holding`): a condition on its stack, not a time."""
    for _ in range(6000):
        for thread in threading.enumerate():
            if thread.name != "avanti-sqlite-writer":
                continue
            frame = sys._current_frames().get(thread.ident or 0)
            while frame is not None:
                if frame.f_code.co_name == "_transaction":
                    return
                frame = frame.f_back
        threading.Event().wait(0.005)
    raise AssertionError("the writer never began its transaction")


def test_appends_arriving_together_are_committed_together_and_fail_alone(
    tmp_path: Path,
) -> None:
    """Nine appends queue behind one that waits for the file: the next transaction holds them
    all, and the refused ones (a stale version, a reused command id, an unknown stream,
    metadata beyond the limit) fail alone while the others are stored. None is answered
    before the lock is released and the group committed."""
    path = tmp_path / "games.db"
    store = SQLiteEventStore(path, timeout=60.0)
    half = "y" * (MAX_METADATA_BYTES // 2)
    for name in ("first", "a", "b"):
        store.create(name, format="toy", format_version=1, setup={})
    store.create("c", format="toy", format_version=1, setup={}, metadata={"half": half})
    store.append("c", [0], 0, command_id="taken", command_digest="one")
    holding = Holding(path)
    jobs: list[tuple[str, Callable[[], object]]] = [
        ("first", lambda: store.append("first", [1], 0)),
        ("a0", lambda: store.append("a", [1], 0)),
        ("a1", lambda: store.append("a", [2], 1)),  # follows a0 in the same transaction
        ("a-stale", lambda: store.append("a", [9], 0)),
        ("b", lambda: store.append("b", [1, 2], 0, metadata_update={"n": 1})),
        ("c-reused", lambda: store.append("c", [9], 1, command_id="taken", command_digest="two")),
        ("c-retry", lambda: store.append("c", [9], 1, command_id="taken", command_digest="one")),
        ("nowhere", lambda: store.append("nowhere", [1], 0)),
        ("c-big", lambda: store.append("c", [1], 1, metadata_update={"more": half})),
        ("c", lambda: store.append("c", [1], 1)),
    ]
    runs = []
    for _, job in jobs:
        runs.append(in_thread(job))
        waiting(runs[-1][0])  # queued in this order
    assert all(thread.is_alive() for thread, _ in runs)  # nothing answered before the commit
    holding.release()
    for thread, _ in runs:
        thread.join()
    told = {name: run[1][0] for (name, _), run in zip(jobs, runs, strict=True)}
    assert {k: v for k, v in told.items() if not isinstance(v, Exception)} == {
        "first": 1,
        "a0": 1,
        "a1": 2,
        "b": 2,
        "c-retry": 1,
        "c": 2,
    }
    assert isinstance(told["a-stale"], VersionConflict)
    assert isinstance(told["c-reused"], CommandIdReused)
    assert isinstance(told["nowhere"], UnknownStream)
    assert isinstance(told["c-big"], InvalidArgument)
    assert [r.data for r in store.read("a")] == [1, 2]
    assert [r.data for r in store.read("c")] == [0, 1]
    assert dict(store.stream("b").metadata) == {"n": 1}
    assert dict(store.stream("c").metadata) == {"half": half}
    store.close()


def test_a_full_file_fails_the_append_that_fills_it_and_keeps_the_others(
    tmp_path: Path,
) -> None:
    """The database fails inside a group (the file reaches ``max_bytes``): each append of the
    group is tried again alone, so only the one too big for the file fails."""
    path = tmp_path / "games.db"
    store = SQLiteEventStore(path, timeout=60.0, max_bytes=256 << 10)
    for name in ("first", "small", "huge", "after"):
        store.create(name, format="toy", format_version=1, setup={})
    holding = Holding(path)
    big = ["x" * 1000] * 900  # about 900 KB: more than the file may hold
    jobs: list[Callable[[], object]] = [
        lambda: store.append("first", [1], 0),
        lambda: store.append("small", [1], 0),
        lambda: store.append("huge", big, 0),
        lambda: store.append("after", [1], 0),
    ]
    runs = []
    for job in jobs:
        runs.append(in_thread(job))
        waiting(runs[-1][0])
    holding.release()
    for thread, _ in runs:
        thread.join()
    assert [told for _, told in runs][:2] == [[1], [1]]
    assert runs[3][1] == [1]
    (full,) = runs[2][1]
    assert isinstance(full, StoreError)
    assert "is full" in str(full)
    assert store.read("huge") == ()
    assert [store.stream(n).version for n in ("first", "small", "huge", "after")] == [1, 1, 0, 1]
    store.close()


def test_closing_the_store_answers_the_appends_still_queued(tmp_path: Path) -> None:
    """``close`` with appends queued behind one waiting for the file: every caller gets an
    answer, and the file holds exactly the appends that were acknowledged."""
    path = tmp_path / "games.db"
    store = SQLiteEventStore(path, timeout=60.0)
    for name in ("a", "b", "c"):
        store.create(name, format="toy", format_version=1, setup={})
    holding = Holding(path)
    runs = []
    for name in ("a", "b", "c"):
        runs.append(in_thread(functools.partial(store.append, name, [1], 0)))
        waiting(runs[-1][0])
        if name == "a":  # the first append is under way before the others queue behind it
            writing()
    store.close()
    holding.release()
    for thread, _ in runs:
        thread.join()
    told = [told[0] for _, told in runs]
    # the transaction under way (the first append, and any taken with it) commits; each
    # append still queued is told the store is closed; none is left waiting
    assert told[0] == 1
    assert all(t == 1 or (isinstance(t, StoreError) and "closed" in str(t)) for t in told)
    with pytest.raises(StoreError, match="closed"):
        store.append("a", [2], 1)
    with SQLiteEventStore(path) as again:
        stored = [again.stream(n).version for n in ("a", "b", "c")]
    assert stored == [1 if t == 1 else 0 for t in told]


def test_more_appends_than_one_group_holds_are_committed_in_several(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = SQLiteEventStore(path, timeout=60.0)
    count = MAX_BATCH + 6
    for number in range(count):
        store.create(f"s{number}", format="toy", format_version=1, setup={})
    holding = Holding(path)
    runs = []
    for number in range(count):
        runs.append(in_thread(functools.partial(store.append, f"s{number}", [number], 0)))
        waiting(runs[-1][0])
    holding.release()
    for thread, _ in runs:
        thread.join()
    assert [told for _, told in runs] == [[1]] * count
    assert [store.read(f"s{n}")[0].data for n in range(count)] == list(range(count))
    store.close()


def test_metadata_that_is_no_object_is_reported_corrupt_by_an_append(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        with sqlite3.connect(path) as raw:
            raw.execute("UPDATE streams SET metadata = '[1, 2]'")
        with pytest.raises(StoreError, match="corrupt"):
            store.append("g", [1], 0, metadata_update={"a": 1})
        assert store.read("g") == ()
        assert store.append("g", [1], 0) == 1


def test_a_follower_queries_the_streams_only_after_another_connection_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``others``, the waiter asks ``PRAGMA data_version`` of the connection this handle
    writes on at every poll (at most 10 ms apart), and queries the streams' versions only when
    the wait begins and after another connection committed: this handle's own appends and any
    number of polls cost no query; another handle's append is found by exactly one more."""
    store = SQLiteEventStore(tmp_path / "games.db")
    second = SQLiteEventStore(tmp_path / "games.db")
    try:
        make(store, "g1")
        make(store, "g2")
        queries: list[dict[str, int]] = []
        versions = store._versions

        def counted_versions(names: str, watched: dict[str, int]) -> list[tuple[str, int]]:
            queries.append(dict(watched))
            return versions(names, watched)

        class Pauses(threading.Event):
            """The store's stop signal, counting the pauses between polls."""

            count = 0

            def wait(self, timeout: float | None = None) -> bool:
                Pauses.count += 1
                return super().wait(timeout)

        monkeypatch.setattr(store, "_versions", counted_versions)
        monkeypatch.setattr(store, "_stopping", Pauses())
        waiter, told = in_thread(lambda: store.wait_any({"g1": 0, "g2": 0}, 60.0, others=True))
        for position in range(3):  # its own appends: committed on the connection it asks
            store.append("g1", [event(position)], position)
        seen = Pauses.count
        deadline = time.monotonic() + 30
        while Pauses.count < seen + 5 and time.monotonic() < deadline:  # five polls since
            time.sleep(0.005)
        assert Pauses.count >= seen + 5
        assert len(queries) == 1  # the one the wait began with
        second.append("g2", [event(0), event(1)], 0)
        waiter.join()
        assert told == [{"g2": 2}]
        assert len(queries) == 2
    finally:
        second.close()
        store.close()


def test_a_writer_waits_for_another_process_in_short_pauses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another connection holds the file's write lock, the writer tries ``BEGIN
    IMMEDIATE`` again after pauses growing from 0.1 ms to at most 2 ms (SQLite's own busy
    handler sleeps up to 100 ms at a time, so a writer of another process committing batch
    after batch kept this one asleep); once the lock is released, the append commits."""
    path = tmp_path / "games.db"
    store = SQLiteEventStore(path, timeout=60.0)
    try:
        store.create("a", format="toy", format_version=1, setup={})
        pauses: list[float] = []
        sleep = time.sleep

        def counted(seconds: float) -> None:
            if threading.current_thread().name == "avanti-sqlite-writer":
                pauses.append(seconds)
            sleep(seconds)

        monkeypatch.setattr("avanti.store.sqlite.time.sleep", counted)
        holding = Holding(path)
        thread, told = in_thread(functools.partial(store.append, "a", [1], 0))
        deadline = time.monotonic() + 30
        while len(pauses) < 20 and time.monotonic() < deadline:  # twenty tries, then free it
            threading.Event().wait(0.005)
        holding.release()
        thread.join()
        assert told == [1]
        assert len(pauses) >= 20
        assert pauses[:3] == pytest.approx([0.0001, 0.0002, 0.0004])
        assert max(pauses) == 0.002
        assert store.stream("a").version == 1
    finally:
        store.close()
