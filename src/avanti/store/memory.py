"""An event store in memory: for tests, notebooks and a single process that may lose its games."""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time
from collections.abc import Sequence

from avanti.core.codec import JSONValue
from avanti.core.errors import VersionConflict
from avanti.store.base import (
    CommandIdReused,
    EventStore,
    MetadataChanged,
    Recorded,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
    merge_metadata,
)

__all__ = ["MemoryEventStore"]


class _Stream:
    """One stream's record and events, every value kept as JSON text (as a database would)."""

    __slots__ = (
        "commands",
        "created",
        "events",
        "format",
        "format_version",
        "metadata",
        "setup",
        "updated",
    )

    def __init__(
        self, format: str, format_version: int, setup: str, metadata: str, now: float
    ) -> None:
        self.format = format
        self.format_version = format_version
        self.setup = setup
        self.metadata = metadata
        self.created = now
        self.updated = now
        self.events: list[str] = []
        self.commands: dict[str, tuple[int, str | None]] = {}


class MemoryEventStore(EventStore):
    """An :class:`~avanti.store.base.EventStore` in a dict, safe to share between threads.

    Every check and write happens under one lock, so of several threads appending at the same
    version exactly one wins. Values are kept as JSON text and parsed on every read, so what
    comes back is what a database would give: fresh lists and dicts, never the caller's objects.
    The games live only as long as the process.
    """

    def __init__(self) -> None:
        self._kept: dict[str, _Stream] = {}
        self._changed = threading.Condition()
        self._closed = False

    # -- the hooks of EventStore: the arguments are checked ------------------------------------

    def _create(
        self, stream: str, format: str, format_version: int, setup: str, metadata: str
    ) -> StoredStream:
        with self._changed:
            self._check_open()
            if stream in self._kept:
                raise StreamExists(stream)
            record = _Stream(format, format_version, setup, metadata, time.time())
            self._kept[stream] = record
            return self._record(stream, record)

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
    ) -> concurrent.futures.Future[int]:
        """Append at once (memory waits for no disk): a future already answered."""
        future: concurrent.futures.Future[int] = concurrent.futures.Future()
        try:
            future.set_result(
                self._append(stream, events, texts, expected, command_id, digest, update, known)
            )
        except Exception as error:
            future.set_exception(error)
        return future

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
        with self._changed:
            record = self._get(stream)
            if command_id is not None and command_id in record.commands:
                done, kept = record.commands[command_id]
                if kept is not None and digest is not None and kept != digest:
                    raise CommandIdReused(stream, command_id)
                return done
            actual = len(record.events)
            if actual != expected:
                raise VersionConflict(expected, actual)
            if not texts:
                return actual
            if known is not None and json.loads(record.metadata) != known:
                raise MetadataChanged(stream)
            if update:
                record.metadata = merge_metadata(json.loads(record.metadata), update, checked=True)
            record.events.extend(texts)
            version = len(record.events)
            if command_id is not None:
                record.commands[command_id] = (version, digest)
            record.updated = max(record.updated, time.time())
            self._changed.notify_all()
            return version

    def _command_version(self, stream: str, command_id: str) -> int | None:
        with self._changed:
            done = self._get(stream).commands.get(command_id)
            return None if done is None else done[0]

    def _read(self, stream: str, after: int) -> tuple[Recorded, ...]:
        with self._changed:
            texts = self._get(stream).events[after:]
        data = json.loads("[" + ",".join(texts) + "]")  # one parse: faster than one per event
        return tuple(map(Recorded, range(after, after + len(texts)), data))

    def _stream(self, stream: str) -> StoredStream:
        with self._changed:
            return self._record(stream, self._get(stream))

    def _streams(
        self, format: str | None, limit: int, after: float | None
    ) -> tuple[StoredStream, ...]:
        with self._changed:
            self._check_open()
            found = [
                (name, record)
                for name, record in self._kept.items()
                if (format is None or record.format == format)
                and (after is None or record.updated > after)
            ]
            found.sort(key=lambda item: item[0])
            found.sort(key=lambda item: item[1].updated, reverse=True)
            return tuple(self._record(name, record) for name, record in found[:limit])

    def _set_metadata(
        self, stream: str, metadata: str, expected: dict[str, JSONValue] | None
    ) -> StoredStream:
        with self._changed:
            record = self._get(stream)
            if expected is not None and json.loads(record.metadata) != expected:
                raise MetadataChanged(stream)
            record.metadata = metadata
            record.updated = max(record.updated, time.time())
            return self._record(stream, record)

    def _wait_any(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        with self._changed:
            records = [(stream, self._get(stream), version) for stream, version in versions.items()]
            moved: dict[str, int] = {}

            def any_moved() -> bool:
                moved.update(
                    (stream, len(record.events))
                    for stream, record, version in records
                    if len(record.events) > version
                )
                return self._closed or bool(moved)

            self._changed.wait_for(any_moved, seconds)
            self._check_open()
            return moved

    def close(self) -> None:
        """Forget every stream; waiters wake with :class:`StoreError`."""
        with self._changed:
            self._closed = True
            self._kept.clear()
            self._changed.notify_all()

    def __repr__(self) -> str:
        return f"<MemoryEventStore: {len(self._kept)} streams>"

    # -- helpers -------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the memory event store is closed")

    def _get(self, stream: str) -> _Stream:
        self._check_open()
        try:
            return self._kept[stream]
        except KeyError:
            raise UnknownStream(stream) from None

    @staticmethod
    def _record(name: str, record: _Stream) -> StoredStream:
        return StoredStream(
            stream=name,
            format=record.format,
            format_version=record.format_version,
            setup=json.loads(record.setup),
            metadata=json.loads(record.metadata),
            version=len(record.events),
            created=record.created,
            updated=record.updated,
        )
