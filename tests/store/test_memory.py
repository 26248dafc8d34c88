"""The contract on the in-memory store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from avanti.store import EventStore, MemoryEventStore
from tests.store.contract import StoreContract


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def store(self) -> Iterator[EventStore]:
        with MemoryEventStore() as store:
            yield store


def test_a_memory_store_counts_every_append_for_others() -> None:
    """Its writers share one object, so it cannot tell whose an append is: with ``others`` a
    waiter is told of every append, as without."""
    with MemoryEventStore() as store:
        store.create("g1", format="toy", format_version=1, setup={})
        store.append("g1", [{"n": 0}], 0)
        assert store.wait_any({"g1": 0}, 0, others=True) == {"g1": 1}
