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
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from avanti.mare import CAUGHT, FISH, PIECES, SEA, Fish, Setup, View

__all__ = ["Board", "board_for", "fields_table"]


@frozen
class Board:
    """How to draw one game: ``draw(setup, view)``, and ``after(events)``: draw it again now?"""

    draw: Callable[[Any, Any], RenderableType]
    after: Callable[[tuple[Any, ...]], bool]


def fields_table(view: Any) -> RenderableType:
    """Every field of a view, one per row: the fallback drawing of any game."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for field in attrs.fields(type(view)):
        table.add_row(field.name, str(getattr(view, field.name)))
    return table


_FISH_STYLE = {
    Fish.BLUE: "bold blue",
    Fish.ORANGE: "bold dark_orange",
    Fish.YELLOW: "bold yellow",
    Fish.PINK: "bold magenta",
}


def _mare_board(setup: Setup, view: View) -> RenderableType:
    """The river of Avanti mare!: taken pieces, the boat, each piece with its fish, the sea."""
    river = Text()
    river.append("taken " + "x" * view.boat + " " if view.boat else "", style="dim")
    river.append("[boat]", style="bold red")
    for piece in range(view.boat + 1, PIECES + 1):
        here = [fish for fish in FISH if view.fish[fish.slot] == piece]
        river.append(f" {piece}:")
        if not here:
            river.append("-", style="dim")
        for fish in here:
            river.append(fish.value[0].upper(), style=_FISH_STYLE[fish])
    river.append("  ~sea~", style="bold cyan")
    free = [fish.value for fish in FISH if view.fish[fish.slot] == SEA]
    caught = [fish.value for fish in FISH if view.fish[fish.slot] == CAUGHT]
    summary = Text(
        f"free: {', '.join(free) or 'none'}; caught: {', '.join(caught) or 'none'}; "
        f"{PIECES - view.boat} pieces left",
        style="dim",
    )
    return Group(river, summary)


def _always(events: tuple[Any, ...]) -> bool:
    return bool(events)


def _imported(module: str) -> Callable[[], Board]:
    def load() -> Board:
        board: Board = importlib.import_module(module).BOARD
        return board

    return load


_BOARDS: dict[str, Callable[[], Board]] = {
    "mare": lambda: Board(_mare_board, _always),
    "avanti": _imported("avanti.cli.flagship"),
    "autorama": _imported("avanti.cli.forsale"),
}
"""Boards by game name; each is built on first use (games in other modules load lazily)."""


def board_for(game: str) -> Board:
    """The drawing of ``game``: its own, or a plain list of its view's fields."""
    if game in _BOARDS:
        return _BOARDS[game]()
    return Board(lambda setup, view: fields_table(view), _always)
