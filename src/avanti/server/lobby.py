"""The lobby: what ``GET /games`` lists, read from the stores' records alone (nothing replayed).

Every game the server creates carries a public ``"summary"`` in its record's metadata, written
by the same append as each command's events (:func:`summary_of`, through
:meth:`avanti.store.GameStore.run`'s ``summarize``): whose turn it is, the round, the winners.
It holds only what every seat may know (the seats awaited, the spectator's view, the outcome),
so the lobby shows it to anyone. :func:`lobby` lists, within
:attr:`~avanti.server.limits.ServerLimits.lobby_seconds`, the tables with open seats first
(:mod:`avanti.server.joining`), then the games in play, then the finished ones, each part the
most recently updated first. It never shows an event count.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.server.seats import Table
from avanti.server.wire import AnyGame
from avanti.store import GameStore, StoredStream

__all__ = ["TABLE_FORMAT", "client_tables", "game_formats", "lobby", "recent", "summary_of"]

TABLE_FORMAT = "avanti-table"
"""The format of an open table's record (:mod:`avanti.server.joining`)."""


def summary_of(game: AnyGame) -> dict[str, JSONValue]:
    """The public summary of ``game`` as its record's metadata keeps it (``{"summary": ...}``):
    the names of the seats it waits for, its round (``None`` for a game without rounds) and the
    names of its winners once it is over. Built from public facts only."""
    names = [str(name) for name in getattr(game.setup, "players", ())]

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    outcome = game.outcome
    round_ = getattr(game.view(None), "round", None)
    summary: dict[str, JSONValue] = {
        "turn": [name(seat) for seat in game.waiting],
        "round": round_ if isinstance(round_, int) else None,
        "winners": None if outcome is None else [name(seat) for seat in outcome.winners],
    }
    return {"summary": summary}


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


def _entry(record: StoredStream, table: Table) -> dict[str, JSONValue]:
    summary: Any = record.metadata.get("summary")
    summary = summary if isinstance(summary, dict) else {}
    winners = summary.get("winners")
    over = record.metadata.get("outcome") is not None
    return {
        "id": record.stream,
        "game": table.game,
        "state": "finished" if over else "playing",
        "players": list(table.players),
        "bots": dict(table.bots),
        "seats": len(table.seats),
        "taken": len(table.seats),
        "turn": summary.get("turn", []),
        "round": summary.get("round"),
        "winners": winners if over else None,
        "over": over,
        "created": record.created,
        "updated": record.updated,
    }


def lobby(
    games: GameStore,
    name: str | None,
    limit: int,
    *,
    list_limit: int,
    seconds: float,
    now: Callable[[], float] = time.time,
) -> list[JSONValue]:
    """The lobby (see the module's docstring): up to ``limit`` entries."""
    from avanti.server.joining import open_entry

    formats = game_formats(name)
    waiting: list[JSONValue] = []
    playing: list[JSONValue] = []
    finished: list[JSONValue] = []
    for record in recent(games, (TABLE_FORMAT, *formats), list_limit, seconds, now):
        if record.format == TABLE_FORMAT:
            entry = open_entry(record)
            if entry is not None and (name is None or entry["game"] == name):
                waiting.append(entry)
            continue
        table = Table.from_metadata(record.metadata)
        if table is None:
            continue
        entry = _entry(record, table)
        (finished if entry["over"] else playing).append(entry)
    return (waiting + playing + finished)[:limit]


def client_tables(records: list[StoredStream], client: str) -> int:
    """How many of ``records`` (recent ones) ``client`` created that are not over."""
    return sum(
        1
        for record in records
        if record.metadata.get("client") == client
        and record.metadata.get("outcome") is None
        and not _started(record.metadata)
    )


def _started(metadata: Mapping[str, JSONValue]) -> bool:
    """Whether an open table's record says its game has started (then the game counts)."""
    opened = metadata.get("open")
    return isinstance(opened, dict) and opened.get("started") is True
