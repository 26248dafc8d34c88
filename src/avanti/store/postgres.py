"""An event store in PostgreSQL (psycopg 3), for several server processes on one database.

Three tables, created on first use if missing: ``streams`` (one record per stream: format,
format version, setup, metadata, version, times), ``events`` (one row per event, primary key
``(stream, position)``) and ``commands`` (the command ids of idempotent appends with the digest
of their command, primary key ``(stream, command_id)``). The version check of
:meth:`~avanti.store.base.EventStore.append` is the database's: the events are inserted at
positions ``expected_version, expected_version + 1, ...`` in one transaction, and a writer that
finds a position taken is told of the conflict by the primary key. Each append sends a
``NOTIFY`` in its transaction; :meth:`~avanti.store.base.EventStore.wait` listens for it (and
polls now and then, in case a notification was missed).

Install the driver with the ``postgres`` extra: ``pip install "avanti[postgres]"``.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, cast

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg import sql
    from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout
except ImportError as missing:  # pragma: no cover - depends on the environment
    raise ImportError(
        'PostgresEventStore needs psycopg 3: pip install "avanti[postgres]"'
    ) from missing

from avanti.core.codec import JSONValue
from avanti.core.errors import InvalidArgument, VersionConflict
from avanti.store.base import (
    MAX_METADATA_BYTES,
    CommandIdReused,
    EventStore,
    MetadataChanged,
    Recorded,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
    _answer_futures,
    check_metadata,
    check_trusted,
    dump_json,
)

__all__ = ["PostgresEventStore"]

_Connection = psycopg.Connection[tuple[Any, ...]]

SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,47}")
"""What a schema name may look like (lowercase, so it needs no quoting in SQL by hand)."""

_NOW = "extract(epoch FROM clock_timestamp())::float8"
"""The database's clock as unix time: one clock for every process that shares the database."""

_DDL = (
    "CREATE SCHEMA IF NOT EXISTS {schema}",
    """CREATE TABLE IF NOT EXISTS {streams} (
        stream text PRIMARY KEY,
        format text NOT NULL,
        format_version integer NOT NULL,
        setup jsonb NOT NULL,
        metadata jsonb NOT NULL,
        version bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
        created float8 NOT NULL,
        updated float8 NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS streams_by_updated ON {streams} (updated DESC, stream)",
    """CREATE INDEX IF NOT EXISTS streams_by_format_updated
        ON {streams} (format, updated DESC, stream)""",
    """CREATE TABLE IF NOT EXISTS {events} (
        stream text NOT NULL REFERENCES {streams} (stream),
        position bigint NOT NULL CHECK (position >= 0),
        data jsonb NOT NULL,
        PRIMARY KEY (stream, position)
    )""",
    """CREATE TABLE IF NOT EXISTS {commands} (
        stream text NOT NULL REFERENCES {streams} (stream),
        command_id text NOT NULL,
        version bigint NOT NULL,
        digest text,
        PRIMARY KEY (stream, command_id)
    )""",
    "ALTER TABLE {commands} ADD COLUMN IF NOT EXISTS digest text",
)

_MAX_VERSION = 2**63 - 1
"""The largest version a ``bigint`` holds."""

_RECORD = "stream, format, format_version, setup, metadata, version, created, updated"

_QUERIES = {
    "exists": """SELECT EXISTS (SELECT 1 FROM information_schema.columns
        WHERE table_schema = %s AND table_name = 'commands' AND column_name = 'digest')""",
    "create": f"""INSERT INTO {{streams}} AS s
        (stream, format, format_version, setup, metadata, version, created, updated)
        SELECT %s, %s, %s, %s::jsonb, %s::jsonb, 0, clock.t, clock.t FROM (SELECT {_NOW} AS t) clock
        ON CONFLICT (stream) DO NOTHING
        RETURNING {_RECORD}""",
    "record": f"SELECT {_RECORD} FROM {{streams}} WHERE stream = %s",
    "list": f"SELECT {_RECORD} FROM {{streams}}",
    "version": "SELECT version FROM {streams} WHERE stream = %s",
    "versions": "SELECT stream, version FROM {streams} WHERE stream = ANY(%s)",
    "command": "SELECT version, digest FROM {commands} WHERE stream = %s AND command_id = %s",
    "command_version": """SELECT
        (SELECT version FROM {commands} WHERE stream = %s AND command_id = %s),
        EXISTS (SELECT 1 FROM {streams} WHERE stream = %s)""",
    "insert": """INSERT INTO {events} (stream, position, data)
        SELECT %s, %s::bigint + t.n - 1, t.data
        FROM unnest(%s::jsonb[]) WITH ORDINALITY AS t(data, n)""",
    "advance": f"""WITH moved AS (
            UPDATE {{streams}} SET version = %(new)s, updated = greatest(updated, {_NOW}),
                metadata = coalesce(metadata || %(update)s::jsonb, metadata)
            WHERE stream = %(stream)s AND version = %(expected)s
                AND (%(known)s::jsonb IS NULL OR metadata = %(known)s::jsonb)
            RETURNING stream, version,
                CASE WHEN %(update)s::jsonb IS NULL THEN NULL ELSE metadata END AS metadata
        ), kept AS (
            INSERT INTO {{commands}} (stream, command_id, version, digest)
            SELECT stream, %(command)s, version, %(digest)s FROM moved
            WHERE %(command)s::text IS NOT NULL
        )
        SELECT version, metadata, pg_notify(%(channel)s, stream || ' ' || version)
        FROM moved""",
    "insert_many": """INSERT INTO {events} (stream, position, data)
        SELECT e.stream, e.position, e.data
        FROM jsonb_to_recordset(%s::jsonb) AS e(stream text, position bigint, data jsonb)""",
    "advance_many": f"""WITH batch AS (
            SELECT * FROM jsonb_to_recordset(%s::jsonb) AS b(stream text, expected bigint,
                new bigint, command text, digest text, update jsonb, known jsonb)
        ), moved AS (
            UPDATE {{streams}} AS s SET version = b.new, updated = greatest(s.updated, {_NOW}),
                metadata = coalesce(s.metadata || b.update, s.metadata)
            FROM batch b
            WHERE s.stream = b.stream AND s.version = b.expected
                AND (b.known IS NULL OR s.metadata = b.known)
            RETURNING s.stream, s.version, b.command, b.digest
        ), kept AS (
            INSERT INTO {{commands}} (stream, command_id, version, digest)
            SELECT stream, command, version, digest FROM moved WHERE command IS NOT NULL
        )
        SELECT count(pg_notify(%s, stream || ' ' || version) IS NULL)
            / (count(*) = %s)::int
        FROM moved""",
    "read": """SELECT s.version, (
            SELECT string_agg(e.data::text, ',' ORDER BY e.position)
            FROM {events} e WHERE e.stream = s.stream AND e.position >= %s
        ) FROM {streams} s WHERE s.stream = %s""",
    "metadata": f"""UPDATE {{streams}}
        SET metadata = %s::jsonb, updated = greatest(updated, {_NOW})
        WHERE stream = %s
        RETURNING {_RECORD}""",
    "swap_metadata": f"""UPDATE {{streams}}
        SET metadata = %s::jsonb, updated = greatest(updated, {_NOW})
        WHERE stream = %s AND metadata = %s::jsonb
        RETURNING {_RECORD}""",
    "listen": "LISTEN {channel}",
}


def _within(seconds: object, most: float) -> bool:
    """Whether ``seconds`` is a number (not a bool) above 0 and at most ``most``."""
    return (
        isinstance(seconds, int | float) and not isinstance(seconds, bool) and 0 < seconds <= most
    )


def _record(row: tuple[Any, ...]) -> StoredStream:
    """A stream record from a row of ``_RECORD``'s columns."""
    stream, format, format_version, setup, metadata, version, created, updated = row
    return StoredStream(
        stream=stream,
        format=format,
        format_version=format_version,
        setup=cast(JSONValue, setup),
        metadata=cast(Mapping[str, JSONValue], metadata),
        version=version,
        created=created,
        updated=updated,
    )


def _repeated(stream: str, command_id: str, digest: str | None, done: tuple[Any, ...]) -> int:
    """The version after the earlier append of ``command_id`` (a row of ``version, digest``);
    :class:`CommandIdReused` when it carried another command."""
    if None not in (done[1], digest) and done[1] != digest:
        raise CommandIdReused(stream, command_id)
    return cast(int, done[0])


def _rounds(batch: list[_Soon]) -> list[list[_Soon]]:
    """``batch`` in rounds that name each stream once: the first append of every stream, then
    the second of every stream that has two, and so on (each stream's appends in their order)."""
    rounds: list[list[_Soon]] = []
    seen: dict[str, int] = {}
    for request in batch:
        index = seen.get(request.append[0], 0)
        seen[request.append[0]] = index + 1
        if index == len(rounds):
            rounds.append([])
        rounds[index].append(request)
    return rounds


def _fits(known: str | None, update: str) -> bool:
    """Whether a metadata update (JSON text) surely keeps the metadata within
    :data:`~avanti.store.MAX_METADATA_BYTES`: it is made on metadata that must hold ``known``
    (the stored metadata is then that one), and the two texts together are no shorter than the
    merged one."""
    return known is not None and len(known.encode()) + len(update.encode()) <= MAX_METADATA_BYTES


MAX_BATCH = 64
"""The most appends the writer of :meth:`PostgresEventStore.append_soon` commits together."""

WRITTEN = 4_096
"""How many streams' newest versions a store keeps of what it committed itself (for
:meth:`~avanti.store.base.EventStore.wait_any` with ``others``)."""


class _Soon:
    """An append waiting for the writer thread, and the future that answers it."""

    __slots__ = ("append", "future", "known", "loop", "update")

    def __init__(
        self,
        append: tuple[str, tuple[str, ...], int, tuple[str | None, str | None]],
        update: str | None,
        known: str | None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.append = append
        self.update = update
        self.known = known
        self.loop = loop
        """The event loop ``future`` belongs to (answered there), or ``None``."""
        self.future: Future[int] | asyncio.Future[int] = (
            Future() if loop is None else loop.create_future()
        )


class _Conflict(Exception):
    """Raised inside an append's transaction to roll it back: the stream is not at the version."""

    def __init__(self, actual: int | None) -> None:
        super().__init__(actual)
        self.actual = actual


class _Watch:
    """What the listener has heard of one stream that somebody waits on."""

    __slots__ = ("heard", "waiters")

    def __init__(self) -> None:
        self.waiters = 0
        self.heard = -1


class PostgresEventStore(EventStore):
    """An :class:`~avanti.store.EventStore` in a PostgreSQL database, shared by any number of
    processes.

    ``dsn`` is a libpq connection string or URI (``"postgresql://user@host/games"``). The store
    keeps its three tables in ``schema`` (created if missing, safely when several processes start
    at once); two stores on different schemas of one database know nothing of each other.

    Connections come from a pool (``psycopg_pool``) of at most ``max_connections``, opened as
    they are needed and kept for reuse; an operation that finds them all busy waits for one up
    to ``connect_timeout`` seconds, then raises :class:`~avanti.store.StoreError`. One more
    connection, opened by the first :meth:`wait` that must block, listens for the notifications
    of appends. Create one store per process (a connection does not survive a ``fork``) and
    :meth:`close` it at the end.

    Every failure of the database or of the connection to it raises
    :class:`~avanti.store.StoreError`; the next call connects again. An append whose connection
    broke while it committed may or may not have been written: retry it with the same
    ``command_id``, and it is written at most once.
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str = "public",
        connect_timeout: float = 10.0,
        poll_interval: float = 1.0,
        max_connections: int = 32,
    ) -> None:
        if not isinstance(schema, str) or SCHEMA_NAME.fullmatch(schema) is None:
            raise InvalidArgument(
                f"invalid schema name {schema!r:.80}: 1 to 48 lowercase letters, digits and _, "
                "not starting with a digit"
            )
        if type(max_connections) is not int or not 1 <= max_connections <= 1_000:
            raise InvalidArgument(
                f"max_connections must be an int from 1 to 1000, not {max_connections!r}"
            )
        if not (_within(poll_interval, 60) and _within(connect_timeout, 3_600)):
            raise InvalidArgument(
                "poll_interval must be above 0 and at most 60 seconds, connect_timeout above 0 "
                f"and at most 3600 seconds, not {poll_interval!r} and {connect_timeout!r}"
            )
        try:
            params = psycopg.conninfo.conninfo_to_dict(dsn) if isinstance(dsn, str) else None
        except psycopg.Error as error:
            raise InvalidArgument(f"invalid PostgreSQL connection string: {error}") from None
        if params is None:
            raise InvalidArgument(f"the connection string must be a str, not {dsn!r:.80}")
        self._dsn = dsn
        self._connect_timeout = max(1, round(connect_timeout))
        self._poll = float(poll_interval)
        self._where = (
            f"PostgreSQL database {params.get('dbname', '(default)')!s} "
            f"on {params.get('host', '(default host)')!s}, schema {schema}"
        )
        self.schema = schema
        """The schema that holds the store's tables."""
        self.channel = f"avanti_store.{schema}"
        """The channel of the notifications that appends send (the payload: stream, version)."""
        names = {
            "schema": sql.Identifier(schema),
            "streams": sql.Identifier(schema, "streams"),
            "events": sql.Identifier(schema, "events"),
            "commands": sql.Identifier(schema, "commands"),
            "channel": sql.Identifier(self.channel),
        }
        self._sql = {name: sql.SQL(text).format(**names) for name, text in _QUERIES.items()}
        self._ddl = [sql.SQL(text).format(**names) for text in _DDL]
        self._lock = threading.Lock()
        self._closed = False
        self._pool: ConnectionPool[_Connection] = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True, "connect_timeout": self._connect_timeout},
            open=False,
            timeout=self._connect_timeout,
            name=f"avanti-store-{schema}",
        )
        # the listener: one thread and connection, started by the first wait that blocks
        self._heard = threading.Condition(self._lock)
        self._watches: dict[str, _Watch] = {}
        self._written: OrderedDict[str, int] = OrderedDict()  # versions committed here
        self._listener: threading.Thread | None = None
        self._listening = threading.Event()
        self._stop = threading.Event()
        # the writer thread of append_soon (group commit), started by its first append
        self._requests: queue.SimpleQueue[_Soon | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_pid = 0
        try:
            self._setup_schema()
            self._pool.open()  # its first connection is opened in the background
        except BaseException:
            self.close()
            raise

    # -- the protocol --------------------------------------------------------------------------

    def _create(
        self, stream: str, format: str, format_version: int, setup: str, metadata: str
    ) -> StoredStream:
        with self._connection() as connection:
            row = connection.execute(
                self._sql["create"], (stream, format, format_version, setup, metadata)
            ).fetchone()
        if row is None:
            raise StreamExists(stream)
        return _record(row)

    def _append(
        self,
        stream: str,
        events: Sequence[JSONValue],
        texts: tuple[str, ...],
        expected_version: int,
        command_id: str | None,
        command_digest: str | None,
        update: dict[str, JSONValue] | None,
        known: dict[str, JSONValue] | None = None,
    ) -> int:
        """Add events to a stream at ``expected_version``, atomically; return the new version.

        The events go in at positions ``expected_version`` and on, in one transaction with the
        stream's new version, the command id with its digest, the metadata update (``jsonb``'s
        ``||``, key by key) and a notification. If another writer took those positions (or the
        command id) first, the primary key refuses the insert: the stored command id, if it is
        this one, decides between an idempotent retry and :class:`CommandIdReused`, and
        otherwise :class:`~avanti.core.errors.VersionConflict` tells the actual version. With
        ``known``, the stream's new version is set only while its metadata equals it (``jsonb``
        equality): a stream found at ``expected_version`` with other metadata raises
        :class:`MetadataChanged`.
        """
        with self._connection() as connection:
            try:
                with connection.transaction():
                    version = self._append_in(
                        connection,
                        stream,
                        texts,
                        expected_version,
                        (command_id, command_digest),
                        None if not update else dump_json(update, "metadata_update"),
                        None if known is None else dump_json(known, "expected_metadata"),
                    )
                self._note_written([(stream, version)])
                return version
            except _Conflict as conflict:
                actual = conflict.actual
            except pg_errors.UniqueViolation:  # another writer took a position, or the id
                actual = None
            except pg_errors.ForeignKeyViolation:
                raise UnknownStream(stream) from None
            if command_id is not None:
                done = self._fetch(connection, "command", (stream, command_id))
                if done is not None:  # the same command id won the race
                    return _repeated(stream, command_id, command_digest, done)
            if actual is None:
                actual = self._current(connection, stream)
        if known is not None and actual == expected_version and texts:
            raise MetadataChanged(stream)
        raise VersionConflict(expected_version, actual)

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
        """Queue the append for the writer thread, which commits the appends waiting together
        (one transaction, one flush of the log); its future is answered after the commit."""
        request = _Soon(
            (stream, texts, expected, (command_id, digest)),
            None if not update else dump_json(update, "metadata_update"),
            None if known is None else dump_json(known, "expected_metadata"),
        )
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
        commit. ``update`` and ``known`` are written as JSON text as :meth:`_append_soon` writes
        their copies (the same text: ``jsonb`` compares and merges them alike)."""
        check_trusted(texts, digest, update)
        loop = asyncio.get_running_loop()
        request = _Soon(
            (stream, texts, expected, (command_id, digest)),
            None if not update else dump_json(update, "metadata_update"),
            None if known is None else dump_json(known, "expected_metadata"),
            loop,
        )
        self._submit(request)
        return cast(asyncio.Future[int], request.future)

    def _submit(self, request: _Soon) -> None:
        """Queue an append for the writer thread (started by the first of each process)."""
        with self._lock:
            if self._closed:
                raise StoreError("the event store is closed")
            if self._writer is None or self._writer_pid != os.getpid():
                self._requests = queue.SimpleQueue()
                self._writer_pid = os.getpid()
                self._writer = threading.Thread(
                    target=self._write,
                    args=(self._requests,),
                    name="avanti-postgres-writer",
                    daemon=True,
                )
                self._writer.start()
            self._requests.put(request)

    def _write(self, requests: queue.SimpleQueue[_Soon | None]) -> None:
        """The writer thread: take every append waiting, commit them in one transaction, answer
        each; until :meth:`close` sends ``None``."""
        while True:
            first = requests.get()
            if first is None:
                return
            batch = [first]
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
                _answer_futures([(request.future, request.loop, error) for request in batch])
            if stop:
                return

    def _commit(self, batch: list[_Soon]) -> None:
        """Commit ``batch`` in one transaction and answer each append: first as if none were
        refused (:meth:`_at_once`), else each append in a savepoint of its own (one refused is
        rolled back alone); if the database fails, try each alone."""
        answers = self._at_once(batch)
        if answers is None:
            try:
                with self._connection() as connection, connection.transaction():
                    answers = [self._one(connection, request) for request in batch]
            except Exception as error:
                if len(batch) == 1:
                    _answer_futures([(batch[0].future, batch[0].loop, error)])
                    return
                for request in batch:
                    self._commit([request])
                return
        self._note_written(
            [
                (request.append[0], answer)
                for request, answer in zip(batch, answers, strict=True)
                if isinstance(answer, int)
            ]
        )
        _answer_futures(
            [
                (request.future, request.loop, answer)
                for request, answer in zip(batch, answers, strict=True)
            ]
        )

    def _at_once(self, batch: list[_Soon]) -> list[int | Exception] | None:
        """``batch`` in one transaction with no savepoints (each costs the database a
        subtransaction and the writer two round trips): every append's new version once
        committed, or ``None`` when one was refused or the database failed (then nothing of the
        batch is kept, and :meth:`_commit` writes it again with a savepoint each).

        A batch whose appends all add events is written in rounds of two statements each
        (:meth:`_together`): the first append of each stream, then the second of each (one
        table's commands decided one after another before the first was written), and so on; any
        other batch an append at a time."""
        together = all(
            request.append[1]
            and request.append[2] + len(request.append[1]) <= _MAX_VERSION
            and (request.update is None or _fits(request.known, request.update))
            for request in batch
        )
        try:
            if together:
                with self._connection() as connection:
                    self._together(connection, batch)
                return [request.append[2] + len(request.append[1]) for request in batch]
            with self._connection() as connection, connection.transaction():
                return [
                    self._append_in(connection, *request.append, request.update, request.known)
                    for request in batch
                ]
        except Exception:
            return None

    def _together(self, connection: _Connection, batch: list[_Soon]) -> None:
        """Write ``batch`` (appends with events, whose metadata updates fit) in one round trip:
        one query of several statements, which the database runs as one transaction and commits
        before it answers. For each round of the batch (:func:`_rounds`: each stream once), one
        statement inserts every event, and one moves every stream on at its expected version
        (with its metadata update, compared with the metadata it must hold), keeps every command
        id, sends a notification for each and divides by zero unless it moved every stream, so
        that an append it would refuse rolls the whole query back. A position or a command id
        taken is refused by the primary keys. Streams are taken in the order of their names, as
        in every such batch, so that two writers lock them in the same order.

        Each statement takes the whole round as one JSON parameter, built by joining texts (the
        events and metadata are JSON text already): the database parses it, where a parameter
        per column would have the driver convert every element in Python. No command id is
        looked up first: one stored before is a primary key the batch cannot take, and the road
        an append at a time answers it as a retry. The writer waits for the database once a
        batch (on a busy server each wait is a wait for the interpreter too), whatever its
        size."""
        statements: list[sql.Composable] = []
        params: list[object] = []
        for round_ in _rounds(batch):
            events: list[str] = []
            moves: list[str] = []
            for request in sorted(round_, key=lambda request: request.append[0]):
                stream, texts, expected, (command, digest) = request.append
                name = json.dumps(stream)
                events += [
                    f'{{"stream":{name},"position":{position},"data":{text}}}'
                    for position, text in enumerate(texts, expected)
                ]
                moves.append(
                    f'{{"stream":{name},"expected":{expected},"new":{expected + len(texts)},'
                    f'"command":{json.dumps(command)},"digest":{json.dumps(digest)},'
                    f'"update":{request.update or "null"},"known":{request.known or "null"}}}'
                )
            statements += [self._sql["insert_many"], self._sql["advance_many"]]
            params += [f"[{','.join(events)}]", f"[{','.join(moves)}]", self.channel, len(round_)]
        with psycopg.ClientCursor(connection) as cursor:
            cursor.execute(sql.SQL("; ").join(statements), params)

    def _note_written(self, written: list[tuple[str, int]]) -> None:
        """Note the versions this object committed (the newest of at most :data:`WRITTEN`
        streams), so a waiter for other writers' appends takes them for no news."""
        with self._lock:
            for stream, version in written:
                self._written[stream] = max(version, self._written.get(stream, -1))
                self._written.move_to_end(stream)
            while len(self._written) > WRITTEN:
                self._written.popitem(last=False)

    def _one(self, connection: _Connection, request: _Soon) -> int | Exception:
        """One append of a batch, in a savepoint: its new version, or its refusal (as
        :meth:`_append` would raise it)."""
        stream, texts, expected, command = request.append
        try:
            with connection.transaction():
                return self._append_in(
                    connection, stream, texts, expected, command, request.update, request.known
                )
        except _Conflict as conflict:
            actual = conflict.actual
        except pg_errors.UniqueViolation:  # another writer took a position, or the id
            actual = None
        except pg_errors.ForeignKeyViolation:
            return UnknownStream(stream)
        except (CommandIdReused, InvalidArgument) as refused:
            return refused
        try:
            command_id, digest = command
            if command_id is not None:
                done = self._fetch(connection, "command", (stream, command_id))
                if done is not None:  # the same command id won the race
                    return _repeated(stream, command_id, digest, done)
            if actual is None:
                actual = self._current(connection, stream)
        except (CommandIdReused, UnknownStream) as refused:
            return refused
        if request.known is not None and actual == expected and texts:
            return MetadataChanged(stream)
        return VersionConflict(expected, actual)

    def _command_version(self, stream: str, command_id: str) -> int | None:
        with self._connection() as connection:
            row = self._fetch(connection, "command_version", (stream, command_id, stream))
        assert row is not None
        version, exists = row
        if not exists:
            raise UnknownStream(stream)
        return cast(int | None, version)

    def _read(self, stream: str, after: int) -> tuple[Recorded, ...]:
        """The events in one consistent snapshot. The database joins them into one JSON array,
        so a long stream is one value to send and to parse rather than a row per event."""
        with self._connection() as connection:
            row = self._fetch(connection, "read", (after, stream))
        if row is None:
            raise UnknownStream(stream)
        version, joined = row
        if joined is None:
            return ()
        data = json.loads(f"[{joined}]")
        if len(data) != version - after:
            raise StoreError(
                f"stream {stream!r} in the {self._where} is corrupt: it has version {version} "
                f"but {len(data)} events from position {after}"
            )
        return tuple([Recorded(after + index, item) for index, item in enumerate(data)])

    def _stream(self, stream: str) -> StoredStream:
        with self._connection() as connection:
            row = self._fetch(connection, "record", (stream,))
        if row is None:
            raise UnknownStream(stream)
        return _record(row)

    def _streams(
        self, format: str | None, limit: int, after: float | None
    ) -> tuple[StoredStream, ...]:
        where: list[sql.Composable] = []
        params: list[object] = []
        if format is not None:
            where.append(sql.SQL("format = %s"))
            params.append(format)
        if after is not None:
            where.append(sql.SQL("updated > %s"))
            params.append(after)
        composed = sql.SQL("{list} {where} ORDER BY updated DESC, stream LIMIT %s").format(
            list=self._sql["list"],
            where=sql.SQL("WHERE ") + sql.SQL(" AND ").join(where) if where else sql.SQL(""),
        )
        with self._connection() as connection:
            rows = connection.execute(composed, (*params, limit)).fetchall()
        return tuple(_record(row) for row in rows)

    def _set_metadata(
        self, stream: str, metadata: str, expected: dict[str, JSONValue] | None
    ) -> StoredStream:
        """``expected`` is compared as ``jsonb`` in the same statement."""
        text, before = metadata, expected
        with self._connection() as connection:
            if before is None:
                row = self._fetch(connection, "metadata", (text, stream))
            else:
                row = self._fetch(
                    connection, "swap_metadata", (text, stream, dump_json(before, "expected"))
                )
                if row is None and self._fetch(connection, "version", (stream,)) is not None:
                    raise MetadataChanged(stream)
        if row is None:
            raise UnknownStream(stream)
        return _record(row)

    def _wait_any(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        """Woken by the ``NOTIFY`` of an append to any of the streams from any process; reads
        the versions again (in one query) at least every ``poll_interval`` seconds."""
        deadline = time.monotonic() + seconds
        moved = self._moved(versions)
        if moved or seconds == 0:
            return moved
        self._start_listener(deadline)
        with self._lock:
            watches = [
                (self._watches.setdefault(stream, _Watch()), v) for stream, v in versions.items()
            ]
            for watch, _ in watches:
                watch.waiters += 1
        try:
            while True:
                moved = self._moved(versions)  # after LISTEN: no append slips between
                remaining = deadline - time.monotonic()
                if moved or remaining <= 0:
                    return moved
                with self._heard:
                    self._heard.wait_for(
                        lambda: self._closed or any(w.heard > v for w, v in watches),
                        min(remaining, self._poll),
                    )
        finally:
            with self._lock:
                for stream, (held, _) in zip(versions, watches, strict=True):
                    held.waiters -= 1
                    if held.waiters == 0:
                        del self._watches[stream]

    def _wait_others(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        """Woken by the ``NOTIFY`` of an append by another writer (one of this object's, whose
        version it committed itself, neither wakes the waiter nor counts), or every
        ``poll_interval`` seconds."""
        deadline = time.monotonic() + seconds
        self._start_listener(deadline)
        with self._lock:
            watches = [
                (stream, self._watches.setdefault(stream, _Watch()), v)
                for stream, v in versions.items()
            ]
            for _, watch, _ in watches:
                watch.waiters += 1
        written = self._written

        def news() -> bool:  # under the lock
            return self._closed or any(
                watch.heard > v and watch.heard > written.get(stream, -1)
                for stream, watch, v in watches
            )

        try:
            while True:
                found = self._moved(versions)  # after LISTEN: no append slips between
                with self._lock:
                    moved = {
                        stream: version
                        for stream, version in found.items()
                        if version > written.get(stream, -1)
                    }
                remaining = deadline - time.monotonic()
                if moved or remaining <= 0:
                    return moved
                with self._heard:
                    self._heard.wait_for(news, min(remaining, self._poll))
        finally:
            with self._lock:
                for stream, held, _ in watches:
                    held.waiters -= 1
                    if held.waiters == 0:
                        del self._watches[stream]

    def _moved(self, versions: Mapping[str, int]) -> dict[str, int]:
        """The streams of ``versions`` whose version is greater, with it; UnknownStream for
        a stream that does not exist."""
        with self._connection() as connection:
            rows = connection.execute(self._sql["versions"], (list(versions),)).fetchall()
        if len(rows) < len(versions):
            found = {row[0] for row in rows}
            raise UnknownStream(next(name for name in versions if name not in found))
        return {stream: int(version) for stream, version in rows if version > versions[stream]}

    def close(self) -> None:
        """Close every connection and stop the listener; waiters wake with a ``StoreError``."""
        with self._lock:
            self._closed = True
            self._heard.notify_all()
        self._stop.set()
        writer = self._writer
        if writer is not None and self._writer_pid == os.getpid():
            self._requests.put(None)  # the batch under way commits; those queued are refused
            writer.join(timeout=10.0)
        self._pool.close()
        listener = self._listener
        if listener is not None:
            listener.join(timeout=1.0)  # a daemon: one still connecting ends by itself

    def __repr__(self) -> str:
        return f"<PostgresEventStore: {self._where}>"

    # -- connections and the one translation of driver errors ----------------------------------

    @contextmanager
    def _connection(self) -> Iterator[_Connection]:
        """A connection for one operation, borrowed from the pool (``psycopg_pool``).

        Every error of the driver becomes a library error here, in one place: a value PostgreSQL
        cannot hold an :class:`InvalidArgument`, anything else a :class:`StoreError`. A broken
        connection is dropped by the pool, which then checks its idle ones (they most likely
        went down with it), so the next operation gets a working one or a new one.
        """
        with self._lock:
            self._check_open()
        try:
            with self._pool.connection(timeout=self._connect_timeout) as connection:
                try:
                    yield connection
                except psycopg.Error as error:
                    broken = connection.broken or connection.closed
                    translated = self._translate(error, connection)
                    if broken:
                        self._pool.check()
                    raise translated from error
        except PoolTimeout as timeout:
            raise StoreError(f"cannot connect to the {self._where}: {timeout}") from None
        except PoolClosed:  # pragma: no cover - a close() racing this call
            raise StoreError(f"the PostgreSQL event store ({self._where}) is closed") from None

    def _translate(self, error: psycopg.Error, connection: _Connection | None) -> Exception:
        """The library's error for a driver's error."""
        if isinstance(error, pg_errors.DataError):
            return InvalidArgument(f"PostgreSQL cannot store this value: {error}")
        text = " ".join(str(error).split())
        if connection is None:
            return StoreError(f"cannot connect to the {self._where}: {text}")
        if connection.broken or connection.closed:
            return StoreError(
                f"lost the connection to the {self._where}: {text}; an append under way may or "
                "may not have been written (read the stream, or retry with the same command_id)"
            )
        return StoreError(f"the {self._where} failed: {text}")

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the PostgreSQL event store ({self._where}) is closed")

    def _fetch(
        self, connection: _Connection, query: str, params: Sequence[object] | Mapping[str, object]
    ) -> tuple[Any, ...] | None:
        """The first row of one of the store's queries, or ``None``."""
        return connection.execute(self._sql[query], params).fetchone()

    # -- the parts ---------------------------------------------------------------------------

    def _setup_schema(self) -> None:
        """Create the schema, tables and indexes if missing, under an advisory lock (so two
        processes starting at once do not trip over each other)."""
        try:
            connection = psycopg.connect(
                self._dsn, autocommit=True, connect_timeout=self._connect_timeout
            )
        except psycopg.Error as error:
            raise self._translate(error, None) from error
        with connection:
            try:
                self._make_tables(connection)
            except psycopg.Error as error:
                raise self._translate(error, connection) from error

    def _make_tables(self, connection: _Connection) -> None:
        """The body of :meth:`_setup_schema`, on its own connection."""
        exists = self._fetch(connection, "exists", (self.schema,))
        if exists is not None and exists[0]:
            return
        with connection.transaction():
            connection.execute(
                "SELECT pg_advisory_xact_lock(hashtext('avanti.store'), hashtext(%s))",
                (self.schema,),
            )
            for statement in self._ddl:
                connection.execute(statement)

    def _append_in(
        self,
        connection: _Connection,
        stream: str,
        texts: tuple[str, ...],
        expected: int,
        command: tuple[str | None, str | None],
        update: str | None,
        known: str | None = None,
    ) -> int:
        """The body of an append's transaction; raises :class:`_Conflict` to roll it back.

        ``command`` is the command id and digest; ``update`` the metadata update as JSON text;
        ``known`` the metadata the stream must still hold, as JSON text (or ``None``).
        """
        command_id, digest = command
        if command_id is not None:
            done = self._fetch(connection, "command", (stream, command_id))
            if done is not None:
                return _repeated(stream, command_id, digest, done)
        if not texts:
            actual = self._current(connection, stream)
            if actual != expected:
                raise _Conflict(actual)
            return expected
        if expected + len(texts) > _MAX_VERSION:  # no stream is that long
            raise _Conflict(None)
        connection.execute(self._sql["insert"], (stream, expected, list(texts)))
        moved = self._fetch(
            connection,
            "advance",
            {
                "new": expected + len(texts),
                "stream": stream,
                "expected": expected,
                "command": command_id,
                "digest": digest,
                "update": update,
                "known": known,
                "channel": self.channel,
            },
        )
        if moved is None:  # the stream is behind expected_version: no gap may open
            raise _Conflict(None)
        if moved[1] is not None:  # raising rolls the transaction back
            check_metadata(cast(Mapping[str, JSONValue], moved[1]))
        return cast(int, moved[0])

    def _current(self, connection: _Connection, stream: str) -> int:
        """The stream's version; :class:`UnknownStream` if there is none."""
        row = self._fetch(connection, "version", (stream,))
        if row is None:
            raise UnknownStream(stream)
        return cast(int, row[0])

    def _start_listener(self, deadline: float) -> None:
        """Start the listening thread if it is not running; wait (until ``deadline`` at most)
        for its ``LISTEN`` to be in place."""
        with self._lock:
            self._check_open()
            if self._listener is None:
                self._listener = threading.Thread(
                    target=self._listen, name=f"avanti-store-listener-{self.schema}", daemon=True
                )
                self._listener.start()
        self._listening.wait(max(0.0, min(deadline - time.monotonic(), self._connect_timeout)))

    def _listen(self) -> None:
        """The listener thread: ``LISTEN`` on the store's channel and wake the waiters of each
        stream a notification names; on a lost connection, connect again (waiters poll)."""
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self._dsn, autocommit=True, connect_timeout=self._connect_timeout
                ) as connection:
                    connection.execute(self._sql["listen"])
                    self._listening.set()
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.2):
                            self._hear(note.payload)
            except psycopg.Error:
                self._listening.clear()
                with self._heard:
                    self._heard.notify_all()  # waiters read the version themselves
                self._stop.wait(self._poll)

    def _hear(self, payload: str) -> None:
        """Note one notification (``"stream version"``) and wake that stream's waiters."""
        stream, _, version = payload.rpartition(" ")
        with self._heard:
            watch = self._watches.get(stream)
            if watch is not None and version.isdigit():
                watch.heard = max(watch.heard, int(version))
                self._heard.notify_all()
