"""The event-store interface, and an in-memory store for tests and small servers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from avanti.core.errors import VersionConflict

__all__ = ["EventStore", "MemoryEventStore"]

EventT = TypeVar("EventT")


class EventStore(Protocol[EventT]):
    """Somewhere to keep event logs, one stream per game, with optimistic concurrency."""

    def append(self, stream: str, events: Sequence[EventT], expected_version: int) -> int:
        """Add events to a stream that holds exactly ``expected_version`` events.

        Returns the new version; raises :class:`~avanti.core.errors.VersionConflict` otherwise.
        """
        ...

    def read(self, stream: str) -> tuple[EventT, ...]:
        """Every event of a stream, oldest first (empty for an unknown stream)."""
        ...


class MemoryEventStore(Generic[EventT]):
    """An :class:`EventStore` in a dict; not shared between processes."""

    def __init__(self) -> None:
        self._streams: dict[str, tuple[EventT, ...]] = {}

    def append(self, stream: str, events: Sequence[EventT], expected_version: int) -> int:
        """Add events if the stream is at ``expected_version``; return the new version."""
        current = self._streams.get(stream, ())
        if len(current) != expected_version:
            raise VersionConflict(expected_version, len(current))
        self._streams[stream] = current + tuple(events)
        return len(self._streams[stream])

    def read(self, stream: str) -> tuple[EventT, ...]:
        """Every event of the stream, oldest first."""
        return self._streams.get(stream, ())
