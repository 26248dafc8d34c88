"""The event-store contract: records, errors, limits and :class:`EventStore`, every store's base.

A store keeps *streams*. Each stream has one record (:class:`StoredStream`: the game's format and
format version, its setup, free metadata, times) and an ordered list of events
(:class:`Recorded`), numbered from 0. Every store enforces the version check of
:meth:`EventStore.append` in the database itself where it has one (a unique key on stream and
position), so of several writers appending at the same version exactly one wins, also across
processes.
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures
import contextlib
import json
import math
import re
import threading
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Self, cast

from attrs import frozen

from avanti.core.codec import JSONValue
from avanti.core.errors import AvantiError, InvalidArgument

_orjson: Any
try:  # orjson (the server extra) writes JSON several times faster; the standard module else
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None

_POOL_LOCK = threading.Lock()
_POOL: concurrent.futures.ThreadPoolExecutor | None = None  # EventStore.append_soon's, made once

APPEND_THREADS = 8
"""How many worker threads run the appends of :meth:`EventStore.append_soon` for the stores that
have no writer of their own (all the stores of a process share them)."""

__all__ = [
    "APPEND_THREADS",
    "FORMAT_NAME",
    "MAX_APPEND_BYTES",
    "MAX_APPEND_EVENTS",
    "MAX_LIST_LIMIT",
    "MAX_METADATA_BYTES",
    "MAX_WAIT",
    "MAX_WATCHED",
    "STREAM_NAME",
    "CommandIdReused",
    "EventStore",
    "MetadataChanged",
    "Recorded",
    "StoreError",
    "StoredStream",
    "StreamExists",
    "UnknownStream",
    "check_append",
    "check_append_limits",
    "check_command_digest",
    "check_command_id",
    "check_expected_metadata",
    "check_format",
    "check_metadata",
    "check_metadata_update",
    "check_read",
    "check_stream_name",
    "check_streams",
    "check_wait",
    "check_wait_any",
    "dump_json",
    "merge_metadata",
]

STREAM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
"""What a stream name may look like: a letter or digit, then up to 127 letters, digits or
``.``, ``_``, ``:``, ``-``."""

MAX_APPEND_EVENTS = 1_000
"""The most events one :meth:`EventStore.append` may hold."""

MAX_APPEND_BYTES = 1 << 20
"""The most bytes of JSON (UTF-8) the events of one :meth:`EventStore.append` may hold."""

MAX_METADATA_BYTES = 64 << 10
"""The most bytes of JSON (UTF-8) a stream's metadata may hold."""

MAX_WAIT = 3_600.0
"""The longest :meth:`EventStore.wait` may block, in seconds."""

MAX_LIST_LIMIT = 1_000
"""The most stream records one :meth:`EventStore.streams` call returns."""

MAX_WATCHED = 10_000
"""The most streams one :meth:`EventStore.wait_any` call watches."""

FORMAT_NAME = re.compile(r"[a-z][a-z0-9._-]{0,63}")
"""What a document format name may look like (``"avanti"``, ``"avanti.mare"``)."""


@frozen(auto_exc=True, eq=False)
class StoreError(AvantiError):
    """The database failed: it is locked, read-only, full, corrupt, or the connection is lost.

    ``message`` names the problem and the store. Nothing that was acknowledged before is lost;
    the operation that raised may or may not have taken effect only where the message says so
    (a connection lost during a commit).
    """

    message: str

    def __str__(self) -> str:
        return self.message


@frozen(auto_exc=True, eq=False)
class UnknownStream(AvantiError, KeyError):
    """No stream of that name exists in the store."""

    stream: str

    def __str__(self) -> str:
        return f"no stream named {self.stream!r}"


@frozen(auto_exc=True, eq=False)
class MetadataChanged(AvantiError):
    """:meth:`EventStore.set_metadata` (or :meth:`EventStore.append`) was given the metadata it
    expected, and the stream holds other metadata now: somebody changed it meanwhile. Read it
    again and decide again."""

    stream: str

    def __str__(self) -> str:
        return f"the metadata of stream {self.stream!r} changed meanwhile: read it again"


@frozen(auto_exc=True, eq=False)
class StreamExists(AvantiError):
    """:meth:`EventStore.create` was asked for a stream that already exists."""

    stream: str

    def __str__(self) -> str:
        return f"a stream named {self.stream!r} already exists"


@frozen(auto_exc=True, eq=False)
class CommandIdReused(AvantiError):
    """:meth:`EventStore.append` was given a command id that this stream already holds for
    another command (another ``command_digest``): a command id names one command. Nothing was
    written. Send the new command under a new id."""

    stream: str
    command_id: str

    def __str__(self) -> str:
        return (
            f"command id {self.command_id!r} of stream {self.stream!r} was already used "
            "for another command"
        )


@frozen
class StoredStream:
    """What a stream's record holds, apart from its events.

    ``setup`` is the setup as the game's codec writes it. It is a **secret**: it holds the seed,
    and with it every hand and every future shuffle. Never send it to a seat.
    """

    stream: str
    """The stream's name."""
    format: str
    """The game's document format name (``"avanti"``, ``"mare"``, ``"autorama"``)."""
    format_version: int
    """The codec's format version the setup and the events were written at."""
    setup: JSONValue
    """The setup as the codec writes it (a secret)."""
    metadata: Mapping[str, JSONValue]
    """A free JSON object for the caller: seat names, hashes of seat tokens, the outcome."""
    version: int
    """The number of events in the stream."""
    created: float
    """When the stream was created (unix time)."""
    updated: float
    """When the stream last changed: created, appended to, or given new metadata (unix time)."""


@frozen
class Recorded:
    """One stored event."""

    position: int
    """The event's 0-based index in its stream."""
    data: JSONValue
    """The event as the codec writes it (``codec.event_to_data``)."""


class EventStore(abc.ABC):
    """Somewhere to keep games: one stream per game, a record and an ordered list of events.

    The one base of every store. Each public method checks its arguments here, once, and calls
    the store's hook of the same name with a leading underscore (``_create``, ``_append``,
    ``_read``, ...) with checked values; :meth:`wait` is :meth:`wait_any` on one stream. A
    ``with`` block closes the store.

    Every method raises :class:`StoreError` when the database fails, and
    :class:`~avanti.core.errors.InvalidArgument` for a stream name that does not match
    :data:`STREAM_NAME` or input beyond the limits.
    """

    __slots__ = ()

    def create(
        self,
        stream: str,
        *,
        format: str,
        format_version: int,
        setup: JSONValue,
        metadata: Mapping[str, JSONValue] = {},
    ) -> StoredStream:
        """Create an empty stream (version 0) with its record; :class:`StreamExists` if taken."""
        check_stream_name(stream)
        check_format(format, format_version)
        setup_text = dump_json(setup, "the setup")
        return self._create(stream, format, format_version, setup_text, check_metadata(metadata))

    def append(
        self,
        stream: str,
        events: Sequence[JSONValue],
        expected_version: int,
        *,
        command_id: str | None = None,
        command_digest: str | None = None,
        metadata_update: Mapping[str, JSONValue] | None = None,
        expected_metadata: Mapping[str, JSONValue] | None = None,
    ) -> int:
        """Add ``events`` to a stream that holds exactly ``expected_version`` events, atomically.

        Returns the new version. Raises :class:`~avanti.core.errors.VersionConflict` when the
        stream holds another number of events, :class:`UnknownStream` for an unknown stream.

        With ``command_id``: the id and ``command_digest`` (a digest of the command, such as
        :meth:`~avanti.store.games.GameStore.run` writes) are kept in the same transaction as
        the events. If that id was already appended to this stream, nothing is written: when
        the stored digest is the same (or either is ``None``) the version right after that
        earlier append is returned (an idempotent retry); when it differs,
        :class:`CommandIdReused` is raised. Both hold for appends that race, in any number of
        processes.

        ``metadata_update`` sets those top-level keys of the stream's metadata in the same
        transaction (the other keys stay, whoever set them); the merged metadata must stay
        within :data:`MAX_METADATA_BYTES`. An append of no events checks the command id and
        the version and writes nothing: no command id, no metadata.

        ``expected_metadata`` (the metadata as the caller last knew it) makes the append also
        depend on the stream's metadata: when it is no longer equal to that, as JSON, nothing
        is written and :class:`MetadataChanged` is raised, checked in the same transaction
        (after the command id and the version). A writer that keeps a stream's record in memory
        appends this way instead of reading the record before each append.
        """
        check_stream_name(stream)
        texts = check_append(events, expected_version)
        check_command_id(command_id)
        check_command_digest(command_digest)
        update = check_metadata_update(metadata_update)
        known = check_expected_metadata(expected_metadata)
        return self._append(
            stream, events, texts, expected_version, command_id, command_digest, update, known
        )

    def append_soon(
        self,
        stream: str,
        events: Sequence[JSONValue],
        expected_version: int,
        *,
        command_id: str | None = None,
        command_digest: str | None = None,
        metadata_update: Mapping[str, JSONValue] | None = None,
        expected_metadata: Mapping[str, JSONValue] | None = None,
    ) -> concurrent.futures.Future[int]:
        """:meth:`append`, begun now and answered later: a future that holds the new version,
        or the refusal :meth:`append` would raise, once the append is durable.

        For a caller that must not wait for a disk, such as an event loop (it awaits the future
        with ``asyncio.wrap_future``). The arguments are checked at once (a bad one raises
        here). A store that commits in a writer thread of its own (SQLite) queues the append
        there, where many appends share one commit; one in memory answers at once; any other
        runs :meth:`append` in a pool of :data:`APPEND_THREADS` worker threads. Appends of one
        stream begun before the one before is answered may be committed in either order (the
        version check refuses the second): await each before the next.
        """
        check_stream_name(stream)
        texts = check_append(events, expected_version)
        check_command_id(command_id)
        check_command_digest(command_digest)
        update = check_metadata_update(metadata_update)
        known = check_expected_metadata(expected_metadata)
        return self._append_soon(
            stream, events, texts, expected_version, command_id, command_digest, update, known
        )

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
        """The hook of :meth:`append_soon`, its arguments checked: by default :meth:`_append`
        in a worker thread of a pool the stores of the process share."""
        global _POOL
        with _POOL_LOCK:
            if _POOL is None:
                _POOL = concurrent.futures.ThreadPoolExecutor(APPEND_THREADS, "avanti-append")
            pool = _POOL
        future: concurrent.futures.Future[int] = pool.submit(
            self._append, stream, events, texts, expected, command_id, digest, update, known
        )
        return future

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
        """:meth:`append_soon` for :class:`~avanti.store.games.GameStore` alone, on its running
        event loop: an :class:`asyncio.Future` of that loop, answered once the append is durable.

        The arguments are what :meth:`append_soon` checks and copies, already in the form its
        checks give them: ``texts`` holds each of ``events`` as :func:`dump_json` writes it
        (compact, ``ensure_ascii=False``, dumped once by the caller), ``update`` and ``known``
        are JSON objects. That is why only the checks that can fail for such arguments are made
        (:func:`check_trusted`, each with the same :class:`~avanti.core.errors.InvalidArgument`:
        the limits, the command digest). The caller made every other argument itself. The
        stream name and the command id it checked on entry; ``expected`` is the number of
        events it holds; the events are its codec's data; ``update`` is the outcome and summary
        it built for this append, and ``known`` the metadata of the record this store returned
        (or that record merged with an earlier ``update``). No JSON round trip copies them: the
        caller never changes them afterwards, and a store compares them as it compares the
        copies :meth:`append_soon` makes (equal as JSON), so every refusal is the same. Must be
        called on the thread of a running event loop.

        By default the JSON copies :meth:`append_soon` makes of ``update`` and ``known`` (which
        the hooks of a store compare as plain dicts) are handed to :meth:`_append_soon`, its
        future awaited on the loop. A store with a writer of its own answers on the loop
        directly (its own ``_append_trusted``).
        """
        check_trusted(texts, digest, update)
        future = self._append_soon(
            stream,
            events,
            texts,
            expected,
            command_id,
            digest,
            check_metadata_update(update),
            check_expected_metadata(known),
        )
        return asyncio.wrap_future(future, loop=asyncio.get_running_loop())

    def command_version(self, stream: str, command_id: str) -> int | None:
        """The version right after the append that carried ``command_id`` in this stream, or
        ``None`` if no append did; :class:`UnknownStream` for an unknown stream."""
        check_stream_name(stream)
        check_command_id(command_id)
        return self._command_version(stream, command_id)

    def read(self, stream: str, after: int = 0) -> tuple[Recorded, ...]:
        """The stream's events at positions ``>= after``, in order; :class:`UnknownStream`."""
        check_stream_name(stream)
        return self._read(stream, check_read(after))

    def stream(self, stream: str) -> StoredStream:
        """The stream's record; :class:`UnknownStream` if there is none."""
        return self._stream(check_stream_name(stream))

    def streams(
        self,
        *,
        format: str | None = None,
        limit: int = 100,
        updated_after: float | None = None,
    ) -> tuple[StoredStream, ...]:
        """Up to ``limit`` (1 to :data:`MAX_LIST_LIMIT`) stream records, the most recently
        updated first (ties by stream name).

        ``format`` keeps only streams of that format; ``updated_after`` only streams updated
        strictly after that unix time.
        """
        after = check_streams(format, limit, updated_after)
        return self._streams(format, limit, after)

    def set_metadata(
        self,
        stream: str,
        metadata: Mapping[str, JSONValue],
        *,
        expected: Mapping[str, JSONValue] | None = None,
    ) -> StoredStream:
        """Replace a stream's metadata; return the new record.

        With ``expected`` (the metadata as it was read), the metadata is replaced only if it is
        still equal to it, as JSON, in the same transaction: otherwise nothing is written and
        :class:`MetadataChanged` is raised (read again, change again).
        """
        check_stream_name(stream)
        text = check_metadata(metadata)
        return self._set_metadata(stream, text, check_expected_metadata(expected))

    def wait(self, stream: str, after: int, timeout: float) -> int:
        """Block until the stream's version is greater than ``after``, or ``timeout`` seconds.

        Returns the stream's version then (``<= after`` when the time ran out): :meth:`wait_any`
        on this one stream.
        """
        check_stream_name(stream)
        seconds = check_wait(after, timeout)
        moved = self._wait_any({stream: after}, seconds)
        return moved[stream] if stream in moved else self._stream(stream).version

    def wait_any(
        self, after: Mapping[str, int], timeout: float, *, others: bool = False
    ) -> dict[str, int]:
        """Block until any of the streams named in ``after`` has a version greater than the
        one it is mapped to, or ``timeout`` seconds pass.

        Returns every named stream whose version is greater, with that version (empty when
        the time ran out, or at once for an empty ``after``). One thread watching every game
        a process serves, instead of a thread per game.

        With ``others``, the appends made through this object do not count (they neither wake
        the waiter nor are returned, unless another writer appended after them): for a writer
        that tells of its own appends itself and follows only the others' (a game server
        process beside others on one database), so that its own appends, many a second, do
        not wake the follower each time. A store that cannot tell whose an append is (one in
        memory, shared by its writers) counts every append.
        """
        if type(others) is not bool:
            raise InvalidArgument(f"others must be True or False, not {others!r}")
        versions, seconds = check_wait_any(after, timeout)
        if not versions:
            return {}
        return self._wait_others(versions, seconds) if others else self._wait_any(versions, seconds)

    @abc.abstractmethod
    def close(self) -> None:
        """Release the store's connections; the store is unusable afterwards (its methods
        raise :class:`StoreError`)."""

    def __enter__(self) -> Self:
        """Use the store in a ``with`` block, which closes it."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Close the store."""
        self.close()

    # -- the hooks: the arguments are checked -------------------------------------------------

    @abc.abstractmethod
    def _create(
        self, stream: str, format: str, format_version: int, setup: str, metadata: str
    ) -> StoredStream:
        """Create the stream; ``setup`` and ``metadata`` are JSON text."""

    @abc.abstractmethod
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
        """Append ``events`` (``texts``: each as JSON text) at ``expected``; with ``known``,
        only while the stream's metadata equals it (else :class:`MetadataChanged`)."""

    @abc.abstractmethod
    def _command_version(self, stream: str, command_id: str) -> int | None:
        """The version after the append of ``command_id``, or ``None``."""

    @abc.abstractmethod
    def _read(self, stream: str, after: int) -> tuple[Recorded, ...]:
        """The events at positions ``>= after``."""

    @abc.abstractmethod
    def _stream(self, stream: str) -> StoredStream:
        """The stream's record."""

    @abc.abstractmethod
    def _streams(
        self, format: str | None, limit: int, after: float | None
    ) -> tuple[StoredStream, ...]:
        """Up to ``limit`` records, the most recently updated first."""

    @abc.abstractmethod
    def _set_metadata(
        self, stream: str, metadata: str, expected: dict[str, JSONValue] | None
    ) -> StoredStream:
        """Replace the metadata (JSON text), if it is still ``expected`` when given."""

    @abc.abstractmethod
    def _wait_any(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        """Wait for any stream of ``versions`` (not empty) to pass its version."""

    def _wait_others(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        """:meth:`_wait_any` for the appends of other writers (:meth:`wait_any` with
        ``others``); a store that cannot tell them counts every append."""
        return self._wait_any(versions, seconds)


def check_stream_name(stream: object) -> str:
    """Return ``stream`` if it is a valid stream name; :class:`InvalidArgument` otherwise."""
    if not isinstance(stream, str) or STREAM_NAME.fullmatch(stream) is None:
        raise InvalidArgument(
            f"invalid stream name {stream!r}: a stream name is 1 to 128 characters, letters, "
            "digits and . _ : -, starting with a letter or digit"
        )
    return stream


_ORJSON_OPTIONS = (
    0
    if _orjson is None
    else _orjson.OPT_PASSTHROUGH_DATACLASS
    | _orjson.OPT_PASSTHROUGH_DATETIME
    | _orjson.OPT_PASSTHROUGH_SUBCLASS
)
"""orjson writes only what the standard module writes the same way: a dataclass, a date or time
and a subclass of ``str``, ``int``, ``dict`` or ``list`` go to the standard module."""


def dump_json(value: object, what: str, *, checked: bool = False) -> str:
    """``value`` as compact JSON text (``ensure_ascii=False``); :class:`InvalidArgument` if it
    is not JSON.

    ``checked=True`` says that ``value`` is JSON as this function reads it, known so by its
    making: JSON text parsed, a codec's data, parts written by this function before, merged;
    it is then written by orjson where it is installed (the server extra), several times
    faster, to the same text (a small float's exponent aside: ``1e-7``, not ``1e-07``); a value
    orjson does not take (an int beyond 64 bits) is written as without it.
    """
    if checked and _orjson is not None:
        try:
            text: str = _orjson.dumps(value, option=_ORJSON_OPTIONS).decode()
            return text
        except TypeError:
            pass
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidArgument(f"{what} is not JSON: {error}") from None


def check_append(events: Sequence[JSONValue], expected_version: int) -> tuple[str, ...]:
    """Check one append's arguments against the limits; return each event as JSON text."""
    if isinstance(events, (str, bytes, Mapping)) or not isinstance(events, Sequence):
        raise InvalidArgument(f"events must be a sequence of JSON values, not {events!r:.80}")
    if type(expected_version) is not int or expected_version < 0:
        raise InvalidArgument(
            f"expected_version must be a non-negative int, not {expected_version!r}"
        )
    check_append_limits(len(events), ())
    texts = tuple(dump_json(event, "an event") for event in events)
    check_append_limits(len(texts), texts)
    return texts


def check_append_limits(count: int, texts: Sequence[str]) -> None:
    """Refuse an append of more than :data:`MAX_APPEND_EVENTS` events (``count``) or of more
    than :data:`MAX_APPEND_BYTES` bytes of JSON (``texts``, each event's)."""
    if count > MAX_APPEND_EVENTS:
        raise InvalidArgument(f"one append holds at most {MAX_APPEND_EVENTS} events, not {count}")
    size = sum(len(text.encode()) for text in texts)
    if size > MAX_APPEND_BYTES:
        raise InvalidArgument(
            f"one append holds at most {MAX_APPEND_BYTES} bytes of JSON, not {size}"
        )


def check_trusted(
    texts: Sequence[str], digest: str | None, update: Mapping[str, JSONValue] | None
) -> None:
    """The checks of ``EventStore._append_trusted`` (the arguments a
    :class:`~avanti.store.games.GameStore` built itself): the append's limits, the command's
    digest, the size of the metadata it sets."""
    check_append_limits(len(texts), texts)
    check_command_digest(digest)
    if update is not None:
        check_metadata(update)


def check_expected_metadata(expected: object) -> dict[str, JSONValue] | None:
    """Check the ``expected`` metadata of :meth:`EventStore.set_metadata` (``None``, or a JSON
    object); return it as a plain dict."""
    if expected is None:
        return None
    if not isinstance(expected, Mapping) or not all(isinstance(k, str) for k in expected):
        raise InvalidArgument(f"expected must be a JSON object or None, not {expected!r:.80}")
    plain: dict[str, JSONValue] = json.loads(dump_json(dict(expected), "expected"))
    return plain


def check_metadata(metadata: Mapping[str, JSONValue], *, checked: bool = False) -> str:
    """Check metadata (a JSON object within :data:`MAX_METADATA_BYTES`); return it as JSON
    (``checked``: as :func:`dump_json` says)."""
    if not isinstance(metadata, Mapping) or not all(isinstance(k, str) for k in metadata):
        raise InvalidArgument(f"metadata must be a JSON object, not {metadata!r:.80}")
    text = dump_json(dict(metadata), "metadata", checked=checked)
    if len(text.encode()) > MAX_METADATA_BYTES:
        raise InvalidArgument(
            f"metadata holds at most {MAX_METADATA_BYTES} bytes of JSON, not {len(text.encode())}"
        )
    return text


def check_command_digest(command_digest: object) -> str | None:
    """Return ``command_digest`` if it is ``None`` or 1 to 128 printable ASCII characters (a hex
    SHA-256 is 64); otherwise refuse it."""
    if command_digest is None:
        return None
    if (
        not isinstance(command_digest, str)
        or not 0 < len(command_digest) <= 128
        or not command_digest.isascii()
        or not command_digest.isprintable()
    ):
        raise InvalidArgument(
            "command_digest must be a string of 1 to 128 printable ASCII characters, "
            f"not {command_digest!r:.80}"
        )
    return command_digest


def check_metadata_update(update: object) -> dict[str, JSONValue] | None:
    """Check the ``metadata_update`` of :meth:`EventStore.append` (``None``, or a JSON object
    within :data:`MAX_METADATA_BYTES`); return it as a plain dict."""
    if update is None:
        return None
    if not isinstance(update, Mapping) or not all(isinstance(k, str) for k in update):
        raise InvalidArgument(f"metadata_update must be a JSON object or None, not {update!r:.80}")
    plain: dict[str, JSONValue] = json.loads(check_metadata(update))
    return plain


def merge_metadata(
    current: Mapping[str, JSONValue], update: Mapping[str, JSONValue], *, checked: bool = False
) -> str:
    """``current`` with the top-level keys of ``update`` set, as JSON text;
    :class:`InvalidArgument` when the result is not JSON or beyond :data:`MAX_METADATA_BYTES`.
    ``checked=True`` says both are JSON objects already checked (read from JSON text, or by
    :func:`check_metadata`), written then as :func:`dump_json` says."""
    return check_metadata({**current, **update}, checked=checked)


def check_command_id(command_id: object) -> str | None:
    """Return ``command_id`` if it is ``None`` or 1 to 128 printable characters (so every store
    can hold it: PostgreSQL refuses a NUL); otherwise refuse it."""
    if command_id is None:
        return None
    if (
        not isinstance(command_id, str)
        or not 0 < len(command_id) <= 128
        or not command_id.isprintable()
    ):
        raise InvalidArgument(
            "command_id must be a string of 1 to 128 printable characters "
            f"(no control characters), not {command_id!r:.80}"
        )
    return command_id


def check_format(format: object, format_version: object) -> None:
    """Refuse a format name that does not match :data:`FORMAT_NAME` or a version below 1."""
    if not isinstance(format, str) or FORMAT_NAME.fullmatch(format) is None:
        raise InvalidArgument(
            f"invalid format name {format!r:.80}: 1 to 64 lowercase letters, digits and . _ -"
        )
    if type(format_version) is not int or not 1 <= format_version < 2**31:
        raise InvalidArgument(f"format_version must be a positive int, not {format_version!r:.80}")


def check_read(after: object) -> int:
    """Return ``after`` if it is a non-negative int; :class:`InvalidArgument` otherwise."""
    if type(after) is not int or after < 0:
        raise InvalidArgument(f"after must be a non-negative int, not {after!r:.80}")
    return after


def _seconds(value: object) -> float | None:
    """``value`` as a finite float, if it is a finite int or float (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def check_streams(format: object, limit: object, updated_after: object) -> float | None:
    """Check the arguments of :meth:`EventStore.streams`; return ``updated_after`` as a float."""
    if format is not None and not isinstance(format, str):
        raise InvalidArgument(f"format must be a string or None, not {format!r:.80}")
    if type(limit) is not int or not 1 <= limit <= MAX_LIST_LIMIT:
        raise InvalidArgument(f"limit must be an int from 1 to {MAX_LIST_LIMIT}, not {limit!r:.80}")
    if updated_after is None:
        return None
    seconds = _seconds(updated_after)
    if seconds is None:
        raise InvalidArgument(f"updated_after must be a unix time, not {updated_after!r:.80}")
    return seconds


def check_wait_any(after: object, timeout: object) -> tuple[dict[str, int], float]:
    """Check the arguments of :meth:`EventStore.wait_any`; return them as a dict and a float."""
    if not isinstance(after, Mapping):
        raise InvalidArgument(f"after must map stream names to versions, not {after!r:.80}")
    if len(after) > MAX_WATCHED:
        raise InvalidArgument(f"at most {MAX_WATCHED} streams can be watched at once")
    versions = {}
    for stream, version in after.items():
        check_stream_name(stream)
        versions[stream] = check_read(version)
    return versions, check_wait(0, timeout)


def check_wait(after: object, timeout: object) -> float:
    """Check the arguments of :meth:`EventStore.wait`; return the timeout as a float."""
    check_read(after)
    seconds = _seconds(timeout)
    if seconds is None or not 0 <= seconds <= MAX_WAIT:
        raise InvalidArgument(f"timeout must be 0 to {MAX_WAIT:g} seconds, not {timeout!r:.80}")
    return seconds


def _settle(future: concurrent.futures.Future[Any] | asyncio.Future[Any], answer: object) -> None:
    """Answer ``future`` with ``answer`` (an exception is raised by it), unless it is already
    answered or cancelled (its caller stopped waiting; the append stands)."""
    if future.done():
        return
    with contextlib.suppress(concurrent.futures.InvalidStateError, asyncio.InvalidStateError):
        if isinstance(answer, BaseException):
            future.set_exception(answer)
        else:
            future.set_result(answer)


def _settle_all(answers: list[tuple[asyncio.Future[Any], object]]) -> None:
    """On an event loop: answer each of its futures of one batch (one wake-up for them all)."""
    for future, answer in answers:
        _settle(future, answer)


def _answer_futures(
    answers: Sequence[
        tuple[
            concurrent.futures.Future[Any] | asyncio.Future[Any],
            asyncio.AbstractEventLoop | None,
            object,
        ]
    ],
) -> None:
    """For a store's writer thread: answer each future (with its value, or its exception) of a
    committed batch. A :class:`concurrent.futures.Future` (``None`` for its loop) is answered at
    once; the futures of an event loop with one ``call_soon_threadsafe`` for all of that loop's,
    one wake-up of the loop for the batch instead of one for each append. A future already
    answered or cancelled is skipped; a loop that is closed waits for nothing any more."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], object]]] = {}
    for future, loop, answer in answers:
        if loop is None:
            _settle(future, answer)
        else:
            loops.setdefault(loop, []).append((cast(asyncio.Future[Any], future), answer))
    for loop, settled in loops.items():
        with contextlib.suppress(RuntimeError):  # closed: nobody waits on it
            loop.call_soon_threadsafe(_settle_all, settled)
