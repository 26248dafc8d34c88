"""The games this library knows, for tools that work with any of them (the CLI, bots, benchmarks).

Each entry names a game module that offers the common entry points (``new_game``, ``Game``,
``loads``, ``describe``, ...). Modules are imported only when asked for.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from attrs import frozen

from avanti.core.codec import parse_json
from avanti.core.errors import DecodeError

__all__ = ["DEFAULT_GAME", "GAMES", "GameInfo", "game_info", "info_for_document"]


EXTRA_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
"""Names for seats beyond a game's default table."""


@frozen
class GameInfo:
    """One game: its short name, title, module, seat limits, default player names and bot kit.

    ``kit`` names the module whose ``KIT`` (an :class:`avanti.bots.kit.GameKit`) holds the
    game's heuristic bot and its sampler of hidden states for the search bot.
    """

    name: str
    title: str
    module: str
    format: str
    min_players: int
    max_players: int
    default_players: tuple[str, ...]
    kit: str

    def load(self) -> ModuleType:
        """Import the game's module."""
        return importlib.import_module(self.module)

    def new_game(self, players: Sequence[str], seed: int) -> Any:
        """Start a game of this kind with default options."""
        return self.load().new_game(list(players), seed=seed)

    def describe(self, event: object, setup: object) -> str:
        """One line of plain English for an event."""
        text: str = self.load().describe(event, setup)
        return text

    def player_names(self, count: int | None = None) -> tuple[str, ...]:
        """``count`` distinct player names: the default table, then more names as needed.

        :raises ValueError: ``count`` is outside the game's seat limits.
        """
        wanted = len(self.default_players) if count is None else count
        if not self.min_players <= wanted <= self.max_players:
            raise ValueError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, not {wanted}"
            )
        extra = (name for name in EXTRA_NAMES if name not in self.default_players)
        return (*self.default_players, *extra)[:wanted]

    def load_kit(self) -> Any:
        """Import the game's bot kit (an :class:`avanti.bots.kit.GameKit`)."""
        return importlib.import_module(self.kit).KIT


GAMES: dict[str, GameInfo] = {
    "avanti": GameInfo(
        "avanti",
        "Avanti",
        "avanti",
        "avanti",
        3,
        5,
        ("Jack", "Isabella", "Tina", "Steve"),
        "avanti.bots.flagship",
    ),
    "mare": GameInfo(
        "mare",
        "Avanti mare!",
        "avanti.mare",
        "avanti.mare",
        1,
        6,
        ("Ann", "Bob", "Cy"),
        "avanti.bots.mare",
    ),
    "autorama": GameInfo(
        "autorama",
        "For Sale: Autorama",
        "avanti.autorama",
        "avanti.autorama",
        3,
        6,
        ("Isaac", "Becky", "Chloe", "Dave"),
        "avanti.bots.forsale",
    ),
}
"""Every game by its short name."""

DEFAULT_GAME = "avanti" if "avanti" in GAMES else "mare"
"""The game the command line plays when none is named: the flagship once it is here."""


def game_info(name: str) -> GameInfo:
    """The entry for a short name; raises ``KeyError`` listing the known names."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None


def info_for_document(text: str | bytes) -> GameInfo:
    """The game a JSON game document belongs to, from its ``format`` field."""
    data = parse_json(text)
    fmt = data.get("format") if isinstance(data, dict) else None
    for info in GAMES.values():
        if info.format == fmt:
            return info
    known = ", ".join(json.dumps(i.format) for i in GAMES.values())
    raise DecodeError((f"'format' must be one of {known}, got {json.dumps(fmt)[:40]} @ $.format",))
