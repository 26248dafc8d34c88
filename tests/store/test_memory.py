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
