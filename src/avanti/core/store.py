"""Deprecated: the first event-store interface and its in-memory store.

The event stores live in ``avanti.store`` now: ``avanti.store.MemoryEventStore``,
``avanti.store.SQLiteEventStore`` and the PostgreSQL store, all keeping the contract of
``avanti.store.EventStore`` (a stream record with the setup, JSON events, listing, waiting),
and ``avanti.store.GameStore`` over any of them. This module stays for code written against
it; :class:`MemoryEventStore` warns when it is made.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from avanti.core.errors import VersionConflict

__all__ = ["EventStore", "MemoryEventStore"]

EventT = TypeVar("EventT")


class EventStore(Protocol[EventT]):
    """Deprecated (see ``avanti.store.EventStore``): somewhere to keep event logs, one
    stream per game, with optimistic concurrency."""

    def append(self, stream: str, events: Sequence[EventT], expected_version: int) -> int:
        """Add events to a stream that holds exactly ``expected_version`` events.

        Returns the new version; raises :class:`~avanti.core.errors.VersionConflict` otherwise.
        """
        ...

    def read(self, stream: str) -> tuple[EventT, ...]:
        """Every event of a stream, oldest first (empty for an unknown stream)."""
        ...


class MemoryEventStore(Generic[EventT]):
    """Deprecated (use ``avanti.store.MemoryEventStore``): an :class:`EventStore` in a
    dict; safe to share between threads, not between processes.

    The check of ``expected_version`` and the write happen under one lock, so of several threads
    appending at the same version exactly one succeeds and the others get ``VersionConflict``.
    """

    def __init__(self) -> None:
        warnings.warn(
            "avanti.core.MemoryEventStore is deprecated and will be removed in 0.3: use "
            "avanti.store.MemoryEventStore, "
            "or avanti.store.SQLiteEventStore to keep games on disk",
            DeprecationWarning,
            stacklevel=2,
        )
        self._streams: dict[str, tuple[EventT, ...]] = {}
        self._lock = threading.Lock()

    def append(self, stream: str, events: Sequence[EventT], expected_version: int) -> int:
        """Add events if the stream is at ``expected_version``; return the new version."""
        added = tuple(events)
        with self._lock:
            current = self._streams.get(stream, ())
            if len(current) != expected_version:
                raise VersionConflict(expected_version, len(current))
            self._streams[stream] = after = current + added
        return len(after)

    def read(self, stream: str) -> tuple[EventT, ...]:
        """Every event of the stream, oldest first."""
        return self._streams.get(stream, ())
