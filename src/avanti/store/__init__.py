"""Durable games: event stores and the :class:`GameStore` that keeps games in them.

- :class:`MemoryEventStore`: in memory, for tests and a single process.
- :class:`SQLiteEventStore`: an SQLite file (or ``":memory:"``), the embedded default.
- ``PostgresEventStore``: PostgreSQL, for several servers on one
  database (``pip install avanti[postgres]``; imported from ``avanti.store.postgres``).

Every store keeps the contract of :class:`EventStore`; :class:`GameStore` works over any of them.
"""

from avanti.store.base import (
    MAX_APPEND_BYTES,
    MAX_APPEND_EVENTS,
    MAX_LIST_LIMIT,
    MAX_METADATA_BYTES,
    MAX_WAIT,
    MAX_WATCHED,
    CommandIdReused,
    EventStore,
    MetadataChanged,
    Recorded,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
    check_stream_name,
)
from avanti.store.games import Executed, GameStore, Turn
from avanti.store.memory import MemoryEventStore
from avanti.store.sqlite import SQLiteEventStore

__all__ = [
    "MAX_APPEND_BYTES",
    "MAX_APPEND_EVENTS",
    "MAX_LIST_LIMIT",
    "MAX_METADATA_BYTES",
    "MAX_WAIT",
    "MAX_WATCHED",
    "CommandIdReused",
    "EventStore",
    "Executed",
    "GameStore",
    "MemoryEventStore",
    "MetadataChanged",
    "Recorded",
    "SQLiteEventStore",
    "StoreError",
    "StoredStream",
    "StreamExists",
    "Turn",
    "UnknownStream",
    "check_stream_name",
]
