"""The games and table sizes every adapter test runs over: each game of the catalog, each count of
players it takes."""

from __future__ import annotations

from avanti.catalog import GAMES


def tables() -> list[tuple[str, int]]:
    """Every ``(game, players)`` pair of the catalog."""
    return [
        (name, players)
        for name, info in GAMES.items()
        for players in range(info.min_players, info.max_players + 1)
    ]
