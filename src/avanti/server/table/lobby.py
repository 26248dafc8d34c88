"""The lobby: what ``GET /games`` lists, read from the stores' records alone (nothing replayed).

Every game the server creates carries a public ``"summary"`` in its record's metadata, written
by the same append as each command's events
(:func:`~avanti.server.table.record.summary_of`, through
:meth:`avanti.store.GameStore.run`'s ``summarize``): whose turn it is, the round, the winners.
It holds only what every seat may know (the seats awaited, the spectator's view, the outcome),
so the lobby shows it to anyone. :func:`lobby` lists, within
:attr:`~avanti.server.limits.ServerLimits.lobby_seconds`, the tables with open seats first
(:mod:`avanti.server.table.joining`; not those closed by
:attr:`~avanti.server.limits.ServerLimits.open_table_seconds`), then the games in play, then the
finished ones. Each part is listed fairly among the client addresses that created its tables (the
hash each record keeps as ``"client"``): at most
:attr:`~avanti.server.limits.ServerLimits.lobby_per_client` tables of one address, every
address's most recently updated table before any address's second, and so on, each round the
most recently updated first; so neither one address nor many can hide another's table. It never
shows an event count.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.server.table.record import BadRecord, GameSummary, Table, TableRecord
from avanti.store import GameStore, StoredStream

__all__ = [
    "TABLE_FORMAT",
    "TABLE_VERSION",
    "client_tables",
    "fair",
    "game_formats",
    "in_play_of",
    "lobby",
    "recent",
    "table_expired",
]

TABLE_FORMAT = "avanti-table"
"""The format of an open table's record (:mod:`avanti.server.table.joining`)."""

TABLE_VERSION = 2
"""The format version of the open tables the server writes: from 2 on, the setup's
``"options"`` are the game's codec's own writing of the options it read when the table was
created (version 1 kept the client's JSON as it was sent, and the lobby does not show it)."""


def table_expired(
    record: StoredStream, seconds: float, now: float, kept: TableRecord | None = None
) -> bool:
    """Whether ``record`` is an open table that nobody created or sat down at for more than
    ``seconds`` before ``now`` (:attr:`~avanti.server.limits.ServerLimits.open_table_seconds`):
    closed then. A table whose game has started never is. ``kept``: the table's record
    ``record`` holds, when the caller read it already."""
    if record.format != TABLE_FORMAT or now - record.updated <= seconds:
        return False
    return not _started(kept_or_none(record) if kept is None else kept)


def kept_or_none(record: StoredStream) -> TableRecord | None:
    """The table's record ``record`` holds, or ``None`` for one the server cannot read (the
    lists skip it)."""
    try:
        return TableRecord.from_metadata(record.metadata)
    except BadRecord:
        return None


def game_formats(name: str | None) -> tuple[str, ...]:
    """The document formats games of ``name`` (``None``: of every game) are stored under."""
    infos = catalog.GAMES.values() if name is None else (catalog.GAMES[name],)
    return tuple(format for info in infos for format in (info.name, *info.formats))


def recent(
    games: GameStore,
    formats: tuple[str, ...],
    limit: int,
    seconds: float,
    now: Callable[[], float] = time.time,
) -> list[StoredStream]:
    """The records of ``formats`` updated within ``seconds``, newest first, at most ``limit``.

    One query per format, so that streams of other formats (chats) never push games out."""
    since = now() - seconds
    found: dict[str, StoredStream] = {}
    for name in formats:
        for record in games.games(format=name, limit=limit, updated_after=since):
            found[record.stream] = record
    ordered = sorted(found.values(), key=lambda record: (-record.updated, record.stream))
    return ordered[:limit]


def _entry(record: StoredStream, kept: TableRecord, table: Table) -> dict[str, JSONValue]:
    summary = kept.summary if isinstance(kept.summary, GameSummary) else GameSummary()
    over = kept.over
    return {
        "id": record.stream,
        "game": table.game,
        "state": "finished" if over else "playing",
        "players": list(table.players),
        "bots": dict(table.bots),
        "seats": len(table.seats),
        "taken": len(table.seats),
        "turn": list(summary.turn),
        "round": summary.round,
        "winners": list(summary.winners) if over and summary.winners is not None else None,
        "over": over,
        "created": record.created,
        "updated": record.updated,
    }


def fair(entries: list[tuple[object, JSONValue]], per_client: int | None) -> list[JSONValue]:
    """``entries`` (each with its creator's key, the most recently updated first) listed fairly:
    at most ``per_client`` of one key (``None``: no cap), every key's first before any key's
    second, and so on, keeping the order within each round."""
    seen: dict[object, int] = {}
    ranked: list[tuple[int, int, JSONValue]] = []
    for order, (key, entry) in enumerate(entries):
        rank = seen.get(key, 0)
        seen[key] = rank + 1
        if per_client is None or rank < per_client:
            ranked.append((rank, order, entry))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [entry for _, _, entry in ranked]


def _client(record: StoredStream) -> object:
    """Whose table ``record`` is, for :func:`fair`: the hash of the address that created it,
    or, for a record without one (a game the server did not create), the record's own name."""
    kept = kept_or_none(record)
    client = None if kept is None else kept.client
    return ("client", client) if client is not None else ("stream", record.stream)


def lobby(
    games: GameStore,
    name: str | None,
    limit: int,
    *,
    list_limit: int,
    seconds: float,
    now: Callable[[], float] = time.time,
    scan: int | None = None,
    per_client: int | None = None,
    open_seconds: float | None = None,
) -> list[JSONValue]:
    """The lobby (see the module's docstring): up to ``limit`` entries, chosen among at most
    ``scan`` (else ``list_limit``) records of open tables and as many of games; at most
    ``per_client`` tables of one address in each part (``None``: no cap); open tables unchanged
    for over ``open_seconds`` are closed (``None``: never)."""
    from avanti.server.table.joining import open_entry

    formats = game_formats(name)
    most = list_limit if scan is None else scan
    at = now()
    waiting: list[tuple[object, JSONValue]] = []
    playing: list[tuple[object, JSONValue]] = []
    finished: list[tuple[object, JSONValue]] = []
    for record in recent(games, (TABLE_FORMAT,), most, seconds, lambda: at):
        if open_seconds is not None and table_expired(record, open_seconds, at):
            continue
        entry = open_entry(record)
        if entry is not None and (name is None or entry["game"] == name):
            waiting.append((_client(record), entry))
    for record in recent(games, formats, most, seconds, lambda: at):
        kept = kept_or_none(record)
        table = None if kept is None else kept.table
        if kept is None or table is None:
            continue
        game = _entry(record, kept, table)
        (finished if game["over"] else playing).append((_client(record), game))
    parts = (fair(part, per_client) for part in (waiting, playing, finished))
    return [entry for part in parts for entry in part][:limit]


def client_tables(records: list[StoredStream], client: str) -> int:
    """How many of ``records`` (recent ones) ``client`` created that are not over."""
    return sum(1 for record in records if in_play_of(kept_or_none(record), client))


def in_play_of(kept: TableRecord | None, client: str) -> bool:
    """Whether a table's record (``None``: none the server can read) is one ``client`` created
    that is not over (:func:`client_tables`)."""
    return kept is not None and kept.client == client and not kept.over and not _started(kept)


def _started(kept: TableRecord | None) -> bool:
    """Whether an open table's record says its game has started (then the game counts)."""
    return kept is not None and kept.open is not None and kept.open.started
