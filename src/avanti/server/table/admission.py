"""Admission: who may create a table now. An address creates at most
:attr:`~avanti.server.limits.ServerLimits.games_per_second` tables a second (a burst of
:attr:`~avanti.server.limits.ServerLimits.games_burst`) and has at most
:attr:`~avanti.server.limits.ServerLimits.games_per_client` games and open tables in play at
once, counted from the records of the recent games (read at most once every
:data:`ADMIT_SECONDS`) and from what this process did since. The address itself is never kept:
a record holds its hash. Every creation (a game, an open table, a rematch) is admitted here.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

from avanti.server.limits import Buckets, ServerLimits
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.wire import ApiError
from avanti.server.table.lobby import (
    TABLE_FORMAT,
    game_formats,
    in_play_of,
    kept_or_none,
    recent,
    table_expired,
)
from avanti.server.table.record import TableRecord, token_hash
from avanti.store import GameStore, StoredStream

__all__ = ["ADMIT_SECONDS", "Admission"]

ADMIT_SECONDS = 1.0
"""How long the records of the recent games are counted from for :meth:`Admission.in_play`
before they are read again (what this process does meanwhile counts at once)."""


class Admission:
    """The creation rate and the tables in play of each address (see the module's docstring).
    Its methods may block on the store: call them from a worker thread in an event loop."""

    def __init__(self, games: GameStore, limits: ServerLimits, now: Callable[[], float]) -> None:
        self.games = games
        """The games, whose recent records are counted."""
        self.limits = limits
        """The limits."""
        self.now = now
        """The clock (Unix time) of the open tables' closing (the table core's)."""
        self.monotonic: Callable[[], float] = time.monotonic
        """The clock (seconds) of :data:`ADMIT_SECONDS`; a test sets another."""
        self._buckets = Buckets(limits.games_per_second, limits.games_burst)
        self._lock = threading.Lock()  # the buckets, what was made and what ended
        self._admitting = threading.Lock()  # one read of the records at a time
        self._admitted_at = -math.inf
        self._records: list[tuple[StoredStream, TableRecord | None]] = []
        self._made: dict[str, dict[str, tuple[float, bool]]] = {}
        self._ended: set[str] = set()

    def admit(self, client: str) -> str:
        """The hash kept of ``client`` (an address) that may create a table now; 429 when it
        creates too fast or has
        :attr:`~avanti.server.limits.ServerLimits.games_per_client` tables in play."""
        with self._lock:
            allowed = self._buckets.allow(client)
        if not allowed:
            log(logging.WARNING, "limit", limit="games_per_second")
            raise ApiError(
                Refusal.RATE_LIMITED, "too many games created from this address: wait a moment"
            )
        client = token_hash(client)[:16]  # the address itself is not kept
        open_games = self.in_play(client)
        if open_games >= self.limits.games_per_client:
            log(logging.WARNING, "limit", limit="games_per_client")
            raise ApiError(
                Refusal.RATE_LIMITED,
                f"this address has {open_games} games in play already: finish one first",
            )
        return client

    def in_play(self, client: str) -> int:
        """How many games and open tables ``client`` (the hash kept of an address) has in play.

        Counted from the records of the recent games, read from the store at most once every
        :data:`ADMIT_SECONDS`, and from what this process did since: the tables it created
        (:meth:`made`) and the games it saw end. Another process's new games and ends count
        from the next read.
        """
        now = self.monotonic()
        with self._admitting:
            if now - self._admitted_at >= ADMIT_SECONDS:
                with self._lock:  # what happens from now on is kept beside what is read now
                    self._made, self._ended = {}, set()
                formats = (TABLE_FORMAT, *game_formats(None))
                at = self.now()
                seconds = self.limits.lobby_seconds
                limit = self.limits.list_limit
                found = recent(self.games, formats, limit, seconds, lambda: at)
                self._records = [(record, kept_or_none(record)) for record in found]  # read once
                self._admitted_at = now
            records = self._records
        at, closing = self.now(), self.limits.open_table_seconds
        ids = {
            record.stream
            for record, kept in records
            if in_play_of(kept, client) and not table_expired(record, closing, at, kept)
        }
        read = {record.stream for record, _ in records}
        with self._lock:
            ended = set(self._ended)
            made = dict(self._made.get(client, {}))
        for stream, (since, table) in made.items():
            if stream not in read and not (table and at - since > closing):  # a record decides
                ids.add(stream)
        return len(ids - ended)

    def ended(self, stream: str) -> None:
        """Count the game or open table ``stream`` as in play no more in :meth:`in_play` (this
        process saw it end, or a table start its game)."""
        with self._lock:
            self._ended.add(stream)

    def made(self, client: str, stream: str, *, table: bool = False) -> None:
        """Count the game or open table (``table``) ``stream`` that this process just created
        as ``client``'s (the hash kept of an address) in :meth:`in_play`; a table until it
        closes (:attr:`~avanti.server.limits.ServerLimits.open_table_seconds`)."""
        at = self.now()
        with self._lock:
            self._made.setdefault(client, {})[stream] = (at, table)
