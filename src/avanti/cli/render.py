"""Drawings of a game's table for the terminal, from a view (what a seat sees).

Each game's package may offer a :class:`~avanti.core.terminal.Drawing` (``DRAWING`` in its
``terminal`` module); a game without one gets a plain list of its view's fields.
"""

from __future__ import annotations

from typing import Any

import attrs
from rich.console import RenderableType
from rich.table import Table

from avanti.catalog import GameInfo
from avanti.core.terminal import Drawing, always

__all__ = ["drawing_for", "fields_table"]


def fields_table(setup: Any, view: Any) -> RenderableType:
    """Every field of a view, one per row: the fallback drawing of any game."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for field in attrs.fields(type(view)):
        table.add_row(field.name, str(getattr(view, field.name)))
    return table


def drawing_for(info: GameInfo) -> Drawing:
    """The drawing of a game: its own, or a plain list of its view's fields."""
    return info.load_drawing() or Drawing(draw=fields_table, after=always)
