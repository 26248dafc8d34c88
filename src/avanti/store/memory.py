"""An event store in memory: for tests, notebooks and a single process that may lose its games."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping, Sequence

from avanti.core.codec import JSONValue
from avanti.core.errors import VersionConflict
from avanti.store.base import (
    Closing,
    CommandIdReused,
    MetadataChanged,
    Recorded,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
    check_append,
    check_command_digest,
    check_command_id,
    check_expected_metadata,
    check_format,
    check_metadata,
    check_metadata_update,
    check_read,
    check_stream_name,
    check_streams,
    check_wait,
    check_wait_any,
    dump_json,
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


class MemoryEventStore(Closing):
    """An :class:`~avanti.store.base.EventStore` in a dict, safe to share between threads.

    Every check and write happens under one lock, so of several threads appending at the same
    version exactly one wins. Values are kept as JSON text and parsed on every read, so what
    comes back is what a database would give: fresh lists and dicts, never the caller's objects.
    The games live only as long as the process.
    """

    def __init__(self) -> None:
        self._streams: dict[str, _Stream] = {}
        self._changed = threading.Condition()
        self._closed = False

    # -- the protocol --------------------------------------------------------------------------

    def create(
        self,
        stream: str,
        *,
        format: str,
        format_version: int,
        setup: JSONValue,
        metadata: Mapping[str, JSONValue] = {},
    ) -> StoredStream:
        """Create an empty stream with its record; :class:`StreamExists` if the name is taken."""
        check_stream_name(stream)
        check_format(format, format_version)
        setup_text = dump_json(setup, "the setup")
        metadata_text = check_metadata(metadata)
        with self._changed:
            self._check_open()
            if stream in self._streams:
                raise StreamExists(stream)
            record = _Stream(format, format_version, setup_text, metadata_text, time.time())
            self._streams[stream] = record
            return self._record(stream, record)

    def append(
        self,
        stream: str,
        events: Sequence[JSONValue],
        expected_version: int,
        *,
        command_id: str | None = None,
        command_digest: str | None = None,
        metadata_update: Mapping[str, JSONValue] | None = None,
    ) -> int:
        """Add events to a stream at ``expected_version``, atomically; return the new version."""
        check_stream_name(stream)
        texts = check_append(events, expected_version)
        check_command_id(command_id)
        check_command_digest(command_digest)
        update = check_metadata_update(metadata_update)
        with self._changed:
            record = self._get(stream)
            if command_id is not None and command_id in record.commands:
                done, digest = record.commands[command_id]
                if digest is not None and command_digest is not None and digest != command_digest:
                    raise CommandIdReused(stream, command_id)
                return done
            actual = len(record.events)
            if actual != expected_version:
                raise VersionConflict(expected_version, actual)
            if not texts:
                return actual
            if update:
                record.metadata = merge_metadata(json.loads(record.metadata), update)
            record.events.extend(texts)
            version = len(record.events)
            if command_id is not None:
                record.commands[command_id] = (version, command_digest)
            record.updated = max(record.updated, time.time())
            self._changed.notify_all()
            return version

    def command_version(self, stream: str, command_id: str) -> int | None:
        """The version right after the append that carried ``command_id``, or ``None``."""
        check_stream_name(stream)
        check_command_id(command_id)
        with self._changed:
            done = self._get(stream).commands.get(command_id)
            return None if done is None else done[0]

    def read(self, stream: str, after: int = 0) -> tuple[Recorded, ...]:
        """The stream's events at positions ``>= after``, in order."""
        check_stream_name(stream)
        check_read(after)
        with self._changed:
            texts = self._get(stream).events[after:]
        data = json.loads("[" + ",".join(texts) + "]")  # one parse: faster than one per event
        return tuple(map(Recorded, range(after, after + len(texts)), data))

    def stream(self, stream: str) -> StoredStream:
        """The stream's record."""
        check_stream_name(stream)
        with self._changed:
            return self._record(stream, self._get(stream))

    def streams(
        self,
        *,
        format: str | None = None,
        limit: int = 100,
        updated_after: float | None = None,
    ) -> tuple[StoredStream, ...]:
        """Up to ``limit`` records, the most recently updated first (ties by name)."""
        after = check_streams(format, limit, updated_after)
        with self._changed:
            self._check_open()
            found = [
                (name, record)
                for name, record in self._streams.items()
                if (format is None or record.format == format)
                and (after is None or record.updated > after)
            ]
            found.sort(key=lambda item: item[0])
            found.sort(key=lambda item: item[1].updated, reverse=True)
            return tuple(self._record(name, record) for name, record in found[:limit])

    def set_metadata(
        self,
        stream: str,
        metadata: Mapping[str, JSONValue],
        *,
        expected: Mapping[str, JSONValue] | None = None,
    ) -> StoredStream:
        """Replace a stream's metadata (if it is still ``expected``); return the new record."""
        check_stream_name(stream)
        text = check_metadata(metadata)
        before = check_expected_metadata(expected)
        with self._changed:
            record = self._get(stream)
            if before is not None and json.loads(record.metadata) != before:
                raise MetadataChanged(stream)
            record.metadata = text
            record.updated = max(record.updated, time.time())
            return self._record(stream, record)

    def wait(self, stream: str, after: int, timeout: float) -> int:
        """Block until the stream's version exceeds ``after`` or ``timeout`` seconds pass."""
        check_stream_name(stream)
        seconds = check_wait(after, timeout)
        with self._changed:
            record = self._get(stream)
            self._changed.wait_for(lambda: self._closed or len(record.events) > after, seconds)
            self._check_open()
            return len(record.events)

    def wait_any(self, after: Mapping[str, int], timeout: float) -> dict[str, int]:
        """Block until any named stream's version exceeds the one it is mapped to, or
        ``timeout`` seconds pass; every stream that moved, with its version."""
        versions, seconds = check_wait_any(after, timeout)
        with self._changed:
            records = [(stream, self._get(stream), version) for stream, version in versions.items()]
            moved: dict[str, int] = {}

            def any_moved() -> bool:
                moved.update(
                    (stream, len(record.events))
                    for stream, record, version in records
                    if len(record.events) > version
                )
                return self._closed or bool(moved) or not records

            self._changed.wait_for(any_moved, seconds)
            self._check_open()
            return moved

    def close(self) -> None:
        """Forget every stream; waiters wake with :class:`StoreError`."""
        with self._changed:
            self._closed = True
            self._streams.clear()
            self._changed.notify_all()

    def __repr__(self) -> str:
        return f"<MemoryEventStore: {len(self._streams)} streams>"

    # -- helpers -------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the memory event store is closed")

    def _get(self, stream: str) -> _Stream:
        self._check_open()
        try:
            return self._streams[stream]
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
