"""An event store in one SQLite file: the embedded default (standard library ``sqlite3``).

The file is in WAL mode: readers never wait for the writer, and any number of threads and
processes may share it. Each store object has one writer thread that commits its appends: it
takes every append waiting at that moment (at most :data:`MAX_BATCH`), writes them in one
``BEGIN IMMEDIATE`` transaction, each inside a savepoint of its own (so an append refused for a
version conflict or a reused command id is undone alone), and answers each only once the
transaction is committed: under ``synchronous="FULL"`` one sync to disk makes the whole group
durable (group commit). A writer that finds the file busy (another process writing) waits up to
``timeout`` seconds before it gives up with a :class:`StoreError`.

The version check is the database's own: events are rows under ``PRIMARY KEY (stream,
position)``, an append inserts its rows at positions ``expected_version, expected_version + 1,
...``, and a trigger refuses a row whose predecessor is missing, so a stale or skipping append
fails inside the transaction and nothing of it is kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import queue
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future
from typing import Any, Literal, cast

from avanti.core.codec import JSONValue
from avanti.core.errors import InvalidArgument, VersionConflict
from avanti.store.base import (
    CommandIdReused,
    EventStore,
    MetadataChanged,
    Recorded,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
    _answer_futures,
    check_trusted,
    dump_json,
    merge_metadata,
)

__all__ = ["MAX_BATCH", "SCHEMA_VERSION", "SQLiteEventStore"]

MAX_BATCH = 64
"""The most appends the writer thread commits in one transaction."""

IDLE_CONNECTIONS = 48
"""Connections a store keeps open between calls, at most: enough for every worker thread of a
busy server (AnyIO runs up to 40), so none is closed and opened again between two calls (each
opening sets its pragmas, and the last one closed checkpoints the log)."""

SCHEMA_VERSION = 3
"""The version of the tables this module writes (kept in ``PRAGMA user_version``).

Version 2 added the ``digest`` of each command id's command (the older command ids of a file
brought forward keep none); version 3 an index of the streams by format and time, so that the
records of one format are listed without reading the others. A file of an older version is
brought forward when it is opened."""

_SCHEMA = (
    """
CREATE TABLE streams (
    stream TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    format_version INTEGER NOT NULL,
    setup TEXT NOT NULL,
    metadata TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created REAL NOT NULL,
    updated REAL NOT NULL
) WITHOUT ROWID""",
    "CREATE INDEX streams_by_updated ON streams (updated DESC, stream)",
    "CREATE INDEX streams_by_format ON streams (format, updated DESC, stream)",
    """
CREATE TABLE events (
    stream TEXT NOT NULL REFERENCES streams (stream),
    position INTEGER NOT NULL CHECK (position >= 0),
    tag TEXT,
    data TEXT NOT NULL,
    PRIMARY KEY (stream, position)
) WITHOUT ROWID""",
    """
CREATE TRIGGER events_in_order BEFORE INSERT ON events
WHEN NEW.position > 0 AND NOT EXISTS (
    SELECT 1 FROM events WHERE stream = NEW.stream AND position = NEW.position - 1
)
BEGIN
    SELECT RAISE(ABORT, 'avanti: an event position was skipped');
END""",
    """
CREATE TABLE commands (
    stream TEXT NOT NULL REFERENCES streams (stream),
    command_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    digest TEXT,
    PRIMARY KEY (stream, command_id)
) WITHOUT ROWID""",
)

_MIGRATIONS = {
    1: ("ALTER TABLE commands ADD COLUMN digest TEXT",),
    2: ("CREATE INDEX IF NOT EXISTS streams_by_format ON streams (format, updated DESC, stream)",),
}
"""The statements that bring the tables of each older version to the next."""

_RECORD = "SELECT stream, format, format_version, setup, metadata, version, created, updated "

WRITTEN = 4_096
"""How many streams' newest versions written through one store object it keeps in memory, for
its waiters to find without a query."""

KEPT_METADATA = 4_096
"""How many streams' metadata the writer thread keeps in memory (the text it wrote or read last
and the dict it holds), so that an append expecting that metadata compares it in its
``UPDATE`` instead of reading and parsing it (the newest streams are kept)."""

KEPT_METADATA_CHARS = 4 << 20
"""The most characters of metadata text the writer thread keeps in all (the oldest streams'
go first)."""

_PROBLEMS = {
    "SQLITE_BUSY": "is locked by another connection (still busy after {timeout:g} s)",
    "SQLITE_LOCKED": "is locked by another connection (still busy after {timeout:g} s)",
    "SQLITE_READONLY": "is read-only: it cannot be written",
    "SQLITE_FULL": "is full: the disk or the size limit allows no more data",
    "SQLITE_CORRUPT": "is corrupt: its contents are not a valid SQLite database",
    "SQLITE_NOTADB": "is corrupt: it is not an SQLite database",
    "SQLITE_CANTOPEN": "cannot be opened (a missing folder or no permission)",
    "SQLITE_PERM": "cannot be opened: no permission",
    "SQLITE_IOERR": "failed to read or write the disk",
}


class _Append:
    """One append waiting for the writer thread, and the future that answers it."""

    __slots__ = (
        "command_id",
        "digest",
        "expected",
        "future",
        "known",
        "loop",
        "rows",
        "stream",
        "update",
    )

    def __init__(
        self,
        stream: str,
        rows: list[tuple[str, int, str | None, str]],
        expected: int,
        command_id: str | None,
        digest: str | None,
        update: Mapping[str, JSONValue] | None,
        known: Mapping[str, JSONValue] | None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.stream = stream
        self.rows = rows
        self.expected = expected
        self.command_id = command_id
        self.digest = digest
        self.update = update
        self.known = known
        self.loop = loop
        """The event loop ``future`` belongs to (answered there), or ``None``."""
        self.future: Future[int] | asyncio.Future[int] = (
            Future() if loop is None else loop.create_future()
        )


class _Create:
    """A new stream waiting for the writer thread (its row), and the future that answers it."""

    __slots__ = ("future", "row")

    def __init__(self, row: tuple[str, str, int, str, str, int, float, float]) -> None:
        self.row = row
        self.future: Future[StoredStream] = Future()


_Request = _Append | _Create
"""What the writer thread commits."""

_Kept = tuple[str, Mapping[str, JSONValue]]
"""A stream's metadata as the writer thread knows it: the exact text the stream holds, and a
dict equal to what that text holds (as JSON)."""


class SQLiteEventStore(EventStore):
    """An :class:`~avanti.store.base.EventStore` in an SQLite file (or ``":memory:"``).

    ``timeout`` is how long a writer waits for a busy file before it raises
    :class:`StoreError`. ``synchronous`` is SQLite's ``PRAGMA synchronous``:
    ``"FULL"`` (the default) syncs the log to disk on every commit, so an acknowledged append
    survives a power cut; ``"NORMAL"`` syncs only at checkpoints, which is several times faster
    and still never corrupts the file, but may lose the last appends on a power cut (never on a
    crash of the process alone). ``max_bytes`` caps the size of the file: a write beyond it is
    refused as if the disk were full.

    One object may be shared by any number of threads: appends go through the object's writer
    thread, committed together with the appends of other threads that arrive meanwhile; every
    other operation borrows a connection from a small pool (one connection guarded by a lock
    for ``":memory:"``). Several processes may open the same file; the unique keys decide
    between their writers. A process forked from one that holds the store opens connections
    (and a writer thread) of its own.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 5.0,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        max_bytes: int | None = None,
    ) -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise InvalidArgument(f"synchronous must be 'FULL' or 'NORMAL', not {synchronous!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout < 0:
            raise InvalidArgument(f"timeout must be a number of seconds >= 0, not {timeout!r}")
        if max_bytes is not None and (type(max_bytes) is not int or max_bytes < 1):
            raise InvalidArgument(f"max_bytes must be a positive int or None, not {max_bytes!r}")
        self.path = os.fspath(path)
        """The database file (or ``":memory:"``)."""
        self._memory = self.path == ":memory:"
        self._name = (
            "the in-memory SQLite database"
            if self._memory
            else f"SQLite file {self.path or repr(self.path)}"
        )
        self._timeout = float(timeout)
        self._synchronous = synchronous
        self._max_bytes = max_bytes
        self._lock = threading.Lock()  # guards the pool; serialises ":memory:"
        self._memory_lock = threading.Lock()
        self._writing = threading.Lock()  # this process's appends, one at a time
        self._idle: list[sqlite3.Connection] = []
        self._all: list[sqlite3.Connection] = []
        # every write of this object is made on this one connection (under ``_writing``): its
        # ``PRAGMA data_version`` changes only when another connection or process commits
        self._own: sqlite3.Connection | None = None
        self._own_busy = False  # a write is under way on it (closed when it comes back)
        self._closed = False
        self._pid = os.getpid()
        self._changed = threading.Condition()  # wakes waiters of this object at once
        self._written: OrderedDict[str, int] = OrderedDict()  # versions committed here
        self._stopping = threading.Event()  # set on close: a waiter for others' appends ends
        # the writer thread's alone: the metadata each stream holds as far as it knows
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._kept_chars = 0
        # the writer thread (group commit), started by the first append of each process
        self._requests: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_pid = 0
        with self._connection() as connection:
            self._prepare(connection)

    # -- connections and errors: the one place driver errors become library errors -------------

    @contextlib.contextmanager
    def _connection(self, *, own: bool = False) -> Iterator[sqlite3.Connection]:
        """Borrow a connection; translate every driver error into :class:`StoreError`. With
        ``own`` (the caller holds ``_writing``), the connection every write of this object is
        made on (in memory, the one connection there is)."""
        own = own and not self._memory
        with self._memory_lock if self._memory else contextlib.nullcontext():
            with self._lock:
                if self._closed:
                    raise StoreError(f"the event store on {self._name} is closed")
                if self._pid != os.getpid() and not self._memory:
                    # a forked child: the parent's connections are not ours to use (or close)
                    self._pid, self._idle, self._all = os.getpid(), [], []
                    self._own, self._own_busy = None, False
                connection = self._own if own else (self._idle.pop() if self._idle else None)
                self._own_busy = self._own_busy or own
            try:
                if connection is None:
                    connection = self._connect()
                    if own:  # _begin waits for the file, in finer steps than SQLite's handler
                        connection.execute("PRAGMA busy_timeout = 0")
                        self._own = connection
                yield connection
            except sqlite3.Error as error:
                if connection is not None and connection.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        connection.execute("ROLLBACK")
                raise self._translate(error) from error
            finally:
                if not own:
                    if connection is not None:
                        self._release(connection)
                elif connection is None:  # it could not be opened
                    with self._lock:
                        self._own_busy = False
                else:
                    self._keep_own(connection)

    def _begin(self, connection: sqlite3.Connection) -> None:
        """``BEGIN IMMEDIATE`` on the connection writes are made on, waiting up to ``timeout``
        seconds while another connection writes: in pauses of 0.1 ms growing to 2 ms, where
        SQLite's own busy handler sleeps 1, 2, 5, 10, ... up to 100 ms at a time (a writer of
        another process that commits batch after batch would keep this one asleep)."""
        deadline = time.monotonic() + self._timeout
        pause = 0.0001
        while True:
            try:
                connection.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.002)

    def _keep_own(self, connection: sqlite3.Connection) -> None:
        """The own connection back from a write: kept, or closed if the store was closed."""
        if connection.in_transaction:  # left by an error that was not the driver's
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
        with self._lock:
            self._own_busy = False
            if not self._closed:
                return
            self._own = None
            if connection in self._all:
                self._all.remove(connection)
        connection.close()

    def _corrupt(self, what: str) -> StoreError:
        return StoreError(f"{self._name} {_PROBLEMS['SQLITE_CORRUPT']} ({what})")

    def _translate(self, error: sqlite3.Error) -> StoreError:
        """The :class:`StoreError` for a driver error, naming the problem and the file."""
        name = getattr(error, "sqlite_errorname", None) or ""
        primary = "_".join(name.split("_")[:2])  # SQLITE_IOERR_WRITE is an SQLITE_IOERR
        problem = _PROBLEMS.get(name) or _PROBLEMS.get(primary)
        if problem is None and "decode" in str(error):  # text that is not UTF-8
            problem = _PROBLEMS["SQLITE_CORRUPT"]
        if problem is None:
            return StoreError(f"{self._name} failed: {error} ({name or type(error).__name__})")
        return StoreError(f"{self._name} {problem.format(timeout=self._timeout)} ({error})")

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            self.path, timeout=self._timeout, isolation_level=None, check_same_thread=False
        )
        try:
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute(f"PRAGMA synchronous = {self._synchronous}")
            if self._max_bytes is not None:
                page_size = connection.execute("PRAGMA page_size").fetchone()[0]
                pages = max(1, self._max_bytes // page_size)
                connection.execute(f"PRAGMA max_page_count = {pages}")
        except BaseException:
            connection.close()
            raise
        with self._lock:
            self._all.append(connection)
        return connection

    def _release(self, connection: sqlite3.Connection) -> None:
        if connection.in_transaction:  # left by an error that was not the driver's
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
        with self._lock:
            if self._closed or connection not in self._all:
                connection.close()
            elif len(self._idle) < IDLE_CONNECTIONS:
                self._idle.append(connection)
            else:
                self._all.remove(connection)
                connection.close()

    def _prepare(self, connection: sqlite3.Connection) -> None:
        """Check the file, switch it to WAL and create the tables if it is new."""
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self._name} holds tables of version {version}, newer than this library "
                f"reads ({SCHEMA_VERSION})"
            )
        mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode not in ("wal", "memory"):
            raise StoreError(f"{self._name} cannot switch to WAL mode (it is in {mode} mode)")
        connection.execute("BEGIN IMMEDIATE")
        if connection.execute("PRAGMA user_version").fetchone()[0] == 0:
            tables = connection.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
            if tables:
                connection.execute("ROLLBACK")
                raise StoreError(f"{self._name} holds other tables: it is no avanti event store")
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        else:
            found = connection.execute("PRAGMA user_version").fetchone()[0]
            for older in range(found, SCHEMA_VERSION):
                for statement in _MIGRATIONS[older]:
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")

    # -- the protocol --------------------------------------------------------------------------

    def _create(
        self, stream: str, format: str, format_version: int, setup: str, metadata: str
    ) -> StoredStream:
        """Hand the new stream to the writer thread (committed with the appends and streams
        that wait meanwhile) and wait for its answer."""
        now = time.time()
        request = _Create((stream, format, format_version, setup, metadata, 0, now, now))
        self._submit(request)
        return request.future.result()

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
        """Hand the append to the writer thread and wait for its answer (after the commit)."""
        return self._append_soon(
            stream, events, texts, expected, command_id, digest, update, known
        ).result()

    def _append_soon(
        self,
        stream: str,
        events: Sequence[JSONValue],
        texts: tuple[str, ...],
        expected: int,
        command_id: str | None,
        digest: str | None,
        update: dict[str, JSONValue] | None,
        known: dict[str, JSONValue] | None,
    ) -> Future[int]:
        """Queue the append for the writer thread; its future is answered after the commit."""
        rows = [
            (stream, expected + i, _tag(event), text)
            for i, (event, text) in enumerate(zip(events, texts, strict=True))
        ]
        request = _Append(stream, rows, expected, command_id, digest, update, known)
        self._submit(request)
        return cast(Future[int], request.future)

    def _append_trusted(
        self,
        stream: str,
        events: Sequence[JSONValue],
        texts: tuple[str, ...],
        expected: int,
        command_id: str | None,
        digest: str | None,
        update: Mapping[str, JSONValue] | None,
        known: Mapping[str, JSONValue] | None,
    ) -> asyncio.Future[int]:
        """Queue the append for the writer thread with a future of the running loop (the
        arguments checked as :func:`~avanti.store.base.check_trusted` says): the writer answers
        all the futures of one loop in a batch with one ``call_soon_threadsafe``, after the
        commit. ``update`` and ``known`` are taken as they are (the writer compares ``known``
        as JSON, as it compares the copies :meth:`append_soon` makes)."""
        check_trusted(texts, digest, update)
        loop = asyncio.get_running_loop()
        rows = [
            (stream, expected + i, _tag(event), text)
            for i, (event, text) in enumerate(zip(events, texts, strict=True))
        ]
        request = _Append(stream, rows, expected, command_id, digest, update, known, loop)
        self._submit(request)
        return cast(asyncio.Future[int], request.future)

    def _submit(self, request: _Request) -> None:
        """Queue a request for the writer thread (started by the first of each process)."""
        with self._lock:
            if self._closed:
                raise StoreError(f"the event store on {self._name} is closed")
            if self._writer is None or self._writer_pid != os.getpid():
                # the first append, or the first in a forked child (threads do not survive)
                self._requests = queue.SimpleQueue()
                self._writer_pid = os.getpid()
                self._writer = threading.Thread(
                    target=self._write,
                    args=(self._requests,),
                    name="avanti-sqlite-writer",
                    daemon=True,
                )
                self._writer.start()
            self._requests.put(request)

    # -- the writer thread: group commit -------------------------------------------------------

    def _write(self, requests: queue.SimpleQueue[_Request | None]) -> None:
        """The writer thread: take every append and new stream waiting, commit them in one
        transaction (one sync to disk), answer each; until :meth:`close` sends ``None``."""
        while True:
            first = requests.get()
            if first is None:
                return
            batch: list[_Request] = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    waiting = requests.get_nowait()
                except queue.Empty:
                    break
                if waiting is None:
                    stop = True
                    break
                batch.append(waiting)
            try:
                self._commit(batch)
            except BaseException as error:  # pragma: no cover - a bug: never leave a caller
                self._answer([(request, error) for request in batch])
            if stop:
                return

    def _commit(self, batch: list[_Request]) -> None:
        """Commit ``batch`` in one transaction and answer each append; if the database fails
        (full, busy, an I/O error), try each append again alone, so each gets its own answer."""
        kept: dict[str, _Kept] = {}
        try:
            answers = self._transaction(batch, kept)
        except Exception as error:
            if len(batch) == 1:
                self._answer([(batch[0], error)])
                return
            for request in batch:
                self._commit([request])
            return
        self._keep(kept)  # committed: what the streams hold now
        with self._changed:  # what the waiters find without a query
            for request, answer in zip(batch, answers, strict=True):
                if isinstance(request, _Append) and isinstance(answer, int):
                    self._written[request.stream] = answer
                    self._written.move_to_end(request.stream)
            while len(self._written) > WRITTEN:
                self._written.popitem(last=False)
        self._answer(  # a new stream is answered with its record
            [
                (request, _record(request.row) if answer is None else answer)
                if isinstance(request, _Create)
                else (request, answer)
                for request, answer in zip(batch, answers, strict=True)
            ]
        )
        with self._changed:
            self._changed.notify_all()

    def _answer(self, answers: Sequence[tuple[_Request, object]]) -> None:
        """Answer each request with its value or exception (:func:`_answer_futures`: the futures
        of an event loop with one wake-up of that loop for the batch)."""
        _answer_futures(
            [
                (request.future, request.loop if isinstance(request, _Append) else None, answer)
                for request, answer in answers
            ]
        )

    def _keep(self, kept: dict[str, _Kept]) -> None:
        """Remember the metadata that the streams of a committed transaction hold (the writer
        thread's alone), within :data:`KEPT_METADATA` streams and :data:`KEPT_METADATA_CHARS`."""
        for stream, found in kept.items():
            old = self._kept.pop(stream, None)
            if old is not None:
                self._kept_chars -= len(old[0])
            self._kept[stream] = found
            self._kept_chars += len(found[0])
        while self._kept and (
            len(self._kept) > KEPT_METADATA or self._kept_chars > KEPT_METADATA_CHARS
        ):
            self._kept_chars -= len(self._kept.popitem(last=False)[1][0])

    def _transaction(
        self, batch: list[_Request], kept: dict[str, _Kept]
    ) -> list[int | Exception | None]:
        """One ``BEGIN IMMEDIATE`` ... ``COMMIT`` for ``batch``: each append (or new stream)
        inside a savepoint of its own, so one refused (a version conflict, a reused command id,
        an unknown stream, a name taken) is rolled back alone. Returns each append's version
        (``None`` for a new stream) or its refusal, once committed; ``kept`` gets the metadata
        each stream an append compared or wrote holds then (to keep once committed)."""
        answers: list[int | Exception | None] = []
        with self._writing, self._connection(own=True) as connection:
            self._begin(connection)
            try:
                at_once = self._at_once(connection, batch, kept)
                if at_once is not None:
                    connection.execute("COMMIT")
                    return list(at_once)
                for request in batch:
                    connection.execute("SAVEPOINT one_append")
                    try:
                        if isinstance(request, _Create):
                            answers.append(self._create_one(connection, request))
                        else:
                            answers.append(self._append_one(connection, request, kept))
                    except (
                        StreamExists,
                        VersionConflict,
                        CommandIdReused,
                        UnknownStream,
                        InvalidArgument,
                        MetadataChanged,
                    ) as no:
                        connection.execute("ROLLBACK TO one_append")
                        answers.append(no)
                    connection.execute("RELEASE one_append")
                connection.execute("COMMIT")
            finally:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
        return answers

    def _at_once(
        self, connection: sqlite3.Connection, batch: list[_Request], kept: dict[str, _Kept]
    ) -> list[int | None] | None:
        """A batch of new streams and appends in a few statements (a handful for the whole
        batch, not several for each request), answered as :meth:`_transaction` answers; or
        ``None``, having changed nothing, when any request needs the road of its own
        (:meth:`_create_one`, :meth:`_append_one`): an append with no events, to a stream
        whose metadata this object does not keep or keeps other than ``known``, or one refused
        (a name or an event position taken, a command id stored, the stream's version or
        metadata moved: the statements find these, and the transaction is rolled back and
        begun again; no savepoint, which would cost two statements more a batch).

        Each statement the sqlite3 module runs lets go of the interpreter's lock and takes it
        back: on a busy server each of those is a wait behind the event loop, so the writer's
        time went to waiting, a few statements a request, not to SQLite.
        """
        if not _AT_ONCE:
            return None
        ours: dict[str, _Kept] = {}
        streams: dict[str, list[Any]] = {}  # [stream, expected, text it holds, new, text after]
        created: list[Any] = []
        events: list[Any] = []
        commands: list[Any] = []
        answers: list[int | None] = []
        read = self._cold_metadata(connection, batch, kept)
        for request in batch:
            if isinstance(request, _Create):
                created.extend(request.row)
                answers.append(None)
                continue
            if not request.rows:
                return None
            stream = request.stream
            mine = (
                ours.get(stream) or kept.get(stream) or self._kept.get(stream) or read.get(stream)
            )
            if mine is None or (request.known is not None and mine[1] != request.known):
                return None
            chain = streams.get(stream)
            if chain is not None and chain[3] != request.expected:
                return None
            try:
                after = _merged(mine, request.update) if request.update else mine
            except InvalidArgument:
                return None
            new = request.expected + len(request.rows)
            if chain is None:
                streams[stream] = [stream, request.expected, mine[0], new, after[0]]
            else:
                chain[3], chain[4] = new, after[0]
            ours[stream] = after
            for row in request.rows:
                events.extend(row)
            if request.command_id is not None:
                commands.extend((stream, request.command_id, new, request.digest))
            answers.append(new)
        try:
            _insert(connection, "streams", 8, created)
            _insert(connection, "events", 4, events)
            _insert(connection, "commands", 4, commands)
            chains = list(streams.values())
            moved = 0
            for start in range(0, len(chains), _ROWS):
                part = chains[start : start + _ROWS]
                moved += connection.execute(
                    "UPDATE streams SET version = v.column4, updated = max(updated, ?), "
                    f"metadata = v.column5 FROM (VALUES {_row(5, len(part))}) AS v "
                    "WHERE streams.stream = v.column1 AND streams.version = v.column2 "
                    "AND streams.metadata = v.column3",
                    [time.time(), *[value for chain in part for value in chain]],
                ).rowcount
            if moved != len(chains):
                raise _Refused
        except (sqlite3.IntegrityError, _Refused):  # rare: begin again, for the road of each
            connection.execute("ROLLBACK")
            self._begin(connection)
            return None
        kept.update(ours)
        return answers

    def _cold_metadata(
        self, connection: sqlite3.Connection, batch: list[_Request], kept: dict[str, _Kept]
    ) -> dict[str, _Kept]:
        """The metadata of the streams of ``batch``'s appends that this object does not keep
        (a game's first command since it was created or read), in one query; a stream whose
        metadata is no JSON object is left out (its append, alone, reports it)."""
        cold = {
            request.stream
            for request in batch
            if isinstance(request, _Append)
            and request.stream not in kept
            and request.stream not in self._kept
        }
        if not cold:
            return {}
        rows = connection.execute(
            "SELECT stream, metadata FROM streams WHERE stream IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(cold)),),
        ).fetchall()
        read: dict[str, _Kept] = {}
        for stream, text in rows:
            with contextlib.suppress(StoreError):  # unreadable: its append, alone, says so
                read[stream] = (text, self._metadata(text))
        return read

    @staticmethod
    def _create_one(connection: sqlite3.Connection, request: _Create) -> None:
        """A new stream inside the writer's transaction; :class:`StreamExists` if taken."""
        try:
            connection.execute("INSERT INTO streams VALUES (?, ?, ?, ?, ?, ?, ?, ?)", request.row)
        except sqlite3.IntegrityError:
            raise StreamExists(request.row[0]) from None

    def _append_one(
        self, connection: sqlite3.Connection, request: _Append, kept: dict[str, _Kept]
    ) -> int:
        """One append inside the writer's transaction; its new version, or raises.

        With ``known`` equal to the metadata the writer knows the stream holds (``kept`` of
        this transaction, or the committed ones it keeps), the ``UPDATE`` itself compares the
        stored text with that text: no read, no parse. When it matches no row (another writer
        changed the metadata or the version), the append goes on as without it: read, parse,
        compare, so each refusal is the same."""
        stream, rows, expected_version = request.stream, request.rows, request.expected
        command_id, command_digest = request.command_id, request.digest
        if command_id is not None:
            done = connection.execute(
                "SELECT version, digest FROM commands WHERE stream = ? AND command_id = ?",
                (stream, command_id),
            ).fetchone()
            if done is not None:
                if None not in (done[1], command_digest) and done[1] != command_digest:
                    raise CommandIdReused(stream, command_id)
                return int(done[0])
        if not rows:
            current = self._version(connection, stream)
            if current != expected_version:
                raise VersionConflict(expected_version, current)
            return current
        try:
            connection.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", rows)
        except sqlite3.IntegrityError:
            # the key (stream, position) is taken, the position before is missing, or
            # the stream does not exist: the stored version tells which
            actual = self._version(connection, stream)
            raise VersionConflict(expected_version, actual) from None
        new = expected_version + len(rows)
        update, known = request.update, request.known
        after: _Kept | None = None  # the metadata the stream holds after this append
        moved = 0
        mine = None if known is None else (kept.get(stream) or self._kept.get(stream))
        if mine is not None and mine[1] == known:  # the text it holds decides, in the UPDATE
            try:
                after = _merged(mine, update) if update else mine
            except InvalidArgument:  # too big, unless it changed meanwhile: the read tells
                after = None
            else:
                moved = connection.execute(
                    "UPDATE streams SET version = ?, updated = max(updated, ?), metadata = ? "
                    "WHERE stream = ? AND version = ? AND metadata = ?",
                    (new, time.time(), after[0], stream, expected_version, mine[0]),
                ).rowcount
        if moved != 1:  # none known, or another writer changed it: read it
            after = None
            if update or known is not None:
                found = connection.execute(
                    "SELECT metadata FROM streams WHERE stream = ?", (stream,)
                ).fetchone()
                held = (cast(str, found[0]), self._metadata(found[0]))
                if known is not None and held[1] != known and held[1] != _plain(known):
                    raise MetadataChanged(stream)
                after = _merged(held, update) if update else held
            moved = connection.execute(
                "UPDATE streams SET version = ?, updated = max(updated, ?), "
                "metadata = coalesce(?, metadata) WHERE stream = ? AND version = ?",
                (
                    new,
                    time.time(),
                    None if after is None or not update else after[0],
                    stream,
                    expected_version,
                ),
            ).rowcount
            if moved != 1:
                raise VersionConflict(expected_version, self._version(connection, stream))
        if command_id is not None:
            connection.execute(
                "INSERT INTO commands VALUES (?, ?, ?, ?)",
                (stream, command_id, new, command_digest),
            )
        if after is not None:
            kept[stream] = after
        return new

    def _command_version(self, stream: str, command_id: str) -> int | None:
        with self._connection() as connection:
            row = connection.execute(
                "SELECT version FROM commands WHERE stream = ? AND command_id = ?",
                (stream, command_id),
            ).fetchone()
            if row is None:
                self._version(connection, stream)
                return None
            return int(row[0])

    def _read(self, stream: str, after: int) -> tuple[Recorded, ...]:
        with self._connection() as connection:
            connection.execute("BEGIN")  # one snapshot for the version and the rows
            version = self._version(connection, stream)
            rows = connection.execute(
                "SELECT position, data FROM events WHERE stream = ? AND position >= ? "
                "ORDER BY position",
                (stream, after),
            ).fetchall()
            connection.execute("COMMIT")
        if [row[0] for row in rows] != list(range(after, max(after, version))):
            raise self._corrupt(f"stream {stream!r} should hold {version} events in order")
        try:  # one parse for the whole list is several times faster than one per event
            data = json.loads("[" + ",".join([row[1] for row in rows]) + "]")
        except (TypeError, ValueError):
            data = None
        if type(data) is not list or len(data) != len(rows):
            raise self._corrupt(f"an event of stream {stream!r} is not JSON")
        return tuple(map(Recorded, [row[0] for row in rows], data))

    def _stream(self, stream: str) -> StoredStream:
        with self._connection() as connection:
            row = connection.execute(_RECORD + "FROM streams WHERE stream = ?", (stream,))
            found = row.fetchone()
        if found is None:
            raise UnknownStream(stream)
        return self._records([found])[0]

    def _streams(
        self, format: str | None, limit: int, after: float | None
    ) -> tuple[StoredStream, ...]:
        with self._connection() as connection:
            rows = connection.execute(
                _listing(format, after), {"format": format, "after": after, "limit": limit}
            ).fetchall()
        return self._records(rows)

    def _set_metadata(
        self, stream: str, metadata: str, expected: dict[str, JSONValue] | None
    ) -> StoredStream:
        """Replace the metadata; with ``expected``, compare it first, in the same transaction."""
        with self._writing, self._connection(own=True) as connection:
            self._begin(connection)
            try:
                if expected is not None:
                    found = connection.execute(
                        "SELECT metadata FROM streams WHERE stream = ?", (stream,)
                    ).fetchone()
                    if found is None:
                        raise UnknownStream(stream)
                    try:
                        current = json.loads(found[0])
                    except ValueError:
                        raise self._corrupt("a stream record is not well formed") from None
                    if current != expected:
                        raise MetadataChanged(stream)
                row = connection.execute(
                    "UPDATE streams SET metadata = ?, updated = max(updated, ?) WHERE stream = ? "
                    "RETURNING stream, format, format_version, setup, metadata, version, "
                    "created, updated",
                    (metadata, time.time(), stream),
                ).fetchone()
                connection.execute("COMMIT")
            finally:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
        if row is None:
            raise UnknownStream(stream)
        return self._records([row])[0]

    def _wait_any(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        """Appends through this object wake the waiter at once, which finds their versions in
        memory; appends by other connections or processes are seen by polling the streams'
        versions in one query, at most 10 ms apart (one thread watches every game of a server
        process: its own appends must not make it query the file each time)."""
        names = json.dumps(list(versions))
        deadline = time.monotonic() + seconds
        pause = 0.001
        poll_at = -math.inf
        while True:
            now = time.monotonic()
            if now >= poll_at:
                rows = self._versions(names, versions)
                poll_at = now + pause
                pause = min(pause * 1.5, 0.01)
            else:
                with self._changed:
                    rows = [(name, self._written.get(name, -1)) for name in versions]
            moved = {stream: int(version) for stream, version in rows if version > versions[stream]}
            left = deadline - time.monotonic()
            if moved or left <= 0:
                return moved
            with self._changed:
                self._changed.wait(max(0.0, min(poll_at - time.monotonic(), left)))

    def _versions(self, names: str, versions: Mapping[str, int]) -> list[tuple[str, int]]:
        """The stored version of each stream of ``versions`` (``names``: their names as a
        JSON array), in one query; :class:`UnknownStream` for one that does not exist."""
        with self._connection() as connection:
            rows: list[tuple[str, int]] = connection.execute(
                "SELECT stream, version FROM streams WHERE stream IN "
                "(SELECT value FROM json_each(?))",
                (names,),
            ).fetchall()
        if len(rows) < len(versions):
            found = {row[0] for row in rows}
            raise UnknownStream(next(name for name in versions if name not in found))
        return rows

    def _wait_others(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        """Appends through this object neither wake the waiter nor count: at most 10 ms apart,
        the waiter asks whether another connection committed since it last looked (``PRAGMA
        data_version`` of the connection this object writes on, which its own commits leave
        as it is), and only then polls the streams' versions, in one query; a version this
        object committed last is no news."""
        names = json.dumps(list(versions))
        deadline = time.monotonic() + seconds
        pause = 0.001
        looked: int | None = None  # the data version the last query began after
        while True:
            left = deadline - time.monotonic()
            seen = self._data_version(left)
            if seen is None or seen != looked:
                looked = seen
                rows = self._versions(names, versions)
                with self._changed:
                    written = self._written
                    moved = {
                        stream: int(version)
                        for stream, version in rows
                        if version > versions[stream] and version > written.get(stream, -1)
                    }
                if moved:
                    return moved
            left = deadline - time.monotonic()
            if left <= 0 or self._closed:
                return {}
            self._stopping.wait(min(pause, left))
            pause = min(pause * 1.5, 0.01)

    def _data_version(self, seconds: float) -> int | None:
        """``PRAGMA data_version`` of the connection this object writes on: it changes only when
        another connection (another object or process) commits. ``None`` when the writes took
        the connection for longer than ``seconds``."""
        if not self._writing.acquire(timeout=max(0.0, seconds)):
            return None
        try:
            with self._connection(own=True) as connection:
                return int(connection.execute("PRAGMA data_version").fetchone()[0])
        finally:
            self._writing.release()

    def close(self) -> None:
        """Close every connection; the store refuses work afterwards."""
        with self._lock:
            self._closed = True
            self._stopping.set()
            if self._writer is not None and self._writer_pid == os.getpid():
                self._requests.put(None)  # the writer answers what is queued, then stops
            # Connections in use are closed when they come back (``_release``), not under
            # the thread still using them.
            connections, self._all, self._idle = self._idle, [], []
            if self._own is not None and not self._own_busy:  # else closed when it is back
                connections.append(self._own)
                self._own = None
        for connection in connections:
            with contextlib.suppress(sqlite3.Error):
                connection.close()
        with self._changed:
            self._changed.notify_all()

    def __repr__(self) -> str:
        return f"<SQLiteEventStore {self.path}>"

    # -- helpers -------------------------------------------------------------------------------

    def _records(self, rows: Sequence[Sequence[Any]]) -> tuple[StoredStream, ...]:
        try:
            return tuple(_record(row) for row in rows)
        except (TypeError, ValueError):
            raise self._corrupt("a stream record is not well formed") from None

    def _metadata(self, text: object) -> dict[str, JSONValue]:
        """A stored metadata column as a dict; a :class:`StoreError` if it is not one."""
        try:
            metadata = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            metadata = None
        if not isinstance(metadata, dict):
            raise self._corrupt("a stream record is not well formed")
        return metadata

    @staticmethod
    def _version(connection: sqlite3.Connection, stream: str) -> int:
        row = connection.execute("SELECT version FROM streams WHERE stream = ?", (stream,))
        found = row.fetchone()
        if found is None:
            raise UnknownStream(stream)
        return int(found[0])


_AT_ONCE = sqlite3.sqlite_version_info >= (3, 33, 0)
"""Whether SQLite has ``UPDATE ... FROM`` (3.33), which :meth:`SQLiteEventStore._at_once`
uses to move many streams in one statement."""

_ROWS = 200
"""The most rows one statement of :meth:`SQLiteEventStore._at_once` writes (at most 1,600
values: well within the 32,766 that SQLite binds to one statement since 3.32)."""


class _Refused(Exception):
    """An append of a batch written at once did not match its stream's version or metadata."""


def _row(columns: int, rows: int) -> str:
    """``(?, ?), (?, ?)``: ``rows`` rows of ``columns`` placeholders."""
    one = "(" + ", ".join("?" * columns) + ")"
    return ", ".join([one] * rows)


def _insert(connection: sqlite3.Connection, table: str, columns: int, values: list[Any]) -> None:
    """Insert ``values`` (``columns`` a row, one after the other) into ``table``, in
    statements of at most :data:`_ROWS` rows."""
    for start in range(0, len(values), columns * _ROWS):
        part = values[start : start + columns * _ROWS]
        rows = _row(columns, len(part) // columns)
        connection.execute(f"INSERT INTO {table} VALUES {rows}", part)


def _merged(current: _Kept, update: Mapping[str, JSONValue]) -> _Kept:
    """``current`` with the top-level keys of ``update`` set: its text (as
    :func:`~avanti.store.base.merge_metadata` writes it, within the limit) and its dict."""
    merged = {**current[1], **update}
    return merge_metadata(current[1], update, checked=True), merged


def _plain(value: Mapping[str, JSONValue]) -> Mapping[str, JSONValue]:
    """``value`` as JSON gives it back (tuples become lists), as :meth:`EventStore.append`
    copies ``expected_metadata``."""
    plain: Mapping[str, JSONValue] = json.loads(dump_json(value, "expected"))
    return plain


def _listing(format: str | None, after: float | None) -> str:
    """The query of :meth:`SQLiteEventStore.streams`: its conditions written out (not ``:x IS
    NULL OR ...``), so that one format's records are read by the index of that format."""
    where = [
        *(("format = :format",) if format is not None else ()),
        *(("updated > :after",) if after is not None else ()),
    ]
    condition = f"WHERE {' AND '.join(where)} " if where else ""
    return f"{_RECORD}FROM streams {condition}ORDER BY updated DESC, stream LIMIT :limit"


def _tag(event: JSONValue) -> str | None:
    """The ``type`` of an event written by a codec, kept in its own column for queries."""
    if isinstance(event, dict):
        tag = event.get("type")
        return tag if isinstance(tag, str) else None
    return None


_SETUPS: dict[str, JSONValue] = {}
"""Setups already parsed, by their text: a stream's setup never changes, and parsing it again
for every record read was the largest cost of reading one."""

_SETUPS_LOCK = threading.Lock()


def _setup(text: str) -> JSONValue:
    """A stored setup, parsed once (the same value is returned for the same text: read it,
    never change it)."""
    found = _SETUPS.get(text)
    if found is None:
        found = json.loads(text)
        with _SETUPS_LOCK:
            if len(_SETUPS) >= 1_024:
                _SETUPS.clear()
            _SETUPS[text] = found
    return found


def _record(row: Sequence[Any]) -> StoredStream:
    """A row of the ``streams`` table as a record; ``ValueError`` if it is not well formed."""
    stream, format, format_version, setup, metadata, version, created, updated = row
    record = StoredStream(
        stream=stream,
        format=format,
        format_version=format_version,
        setup=_setup(setup),
        metadata=json.loads(metadata),
        version=version,
        created=created,
        updated=updated,
    )
    if not isinstance(record.metadata, dict) or not isinstance(version, int):
        raise ValueError("not a stream record")
    return record
