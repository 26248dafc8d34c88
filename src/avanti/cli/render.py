"""Drawings of a game's table for the terminal, one per game, from a view (what a seat sees).

Each game registers a :class:`Board`: how to draw the table from a view, and after which events
a watcher wants to see it again. A game without one gets a plain list of its view's fields.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import attrs
from attrs import frozen
from rich.console import RenderableType
from rich.table import Table

from avanti.cli.console import command_text

__all__ = ["Board", "always", "board_for", "fields_table"]


@frozen
class Board:
    """How to show one game: ``draw(setup, view)``; ``after(events)``: draw it again now?;
    ``command(setup, command)``: a command in words, for the numbered list a player picks from.
    """

    draw: Callable[[Any, Any], RenderableType]
    after: Callable[[tuple[Any, ...]], bool]
    command: Callable[[Any, Any], str] = lambda setup, command: command_text(command)


def fields_table(view: Any) -> RenderableType:
    """Every field of a view, one per row: the fallback drawing of any game."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for field in attrs.fields(type(view)):
        table.add_row(field.name, str(getattr(view, field.name)))
    return table


def always(events: tuple[Any, ...]) -> bool:
    """Draw the table again after every command (for games with little to draw)."""
    return bool(events)


def _imported(module: str) -> Callable[[], Board]:
    def load() -> Board:
        board: Board = importlib.import_module(module).BOARD
        return board

    return load


_BOARDS: dict[str, Callable[[], Board]] = {
    "mare": _imported("avanti.cli.mare"),
    "avanti": _imported("avanti.cli.flagship"),
    "autorama": _imported("avanti.cli.forsale"),
}
"""Boards by game name; each is built on first use (games in other modules load lazily)."""


def board_for(game: str) -> Board:
    """The drawing of ``game``: its own, or a plain list of its view's fields."""
    if game in _BOARDS:
        return _BOARDS[game]()
    return Board(lambda setup, view: fields_table(view), always)
