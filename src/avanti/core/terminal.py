"""What a game tells the command line about drawing its table: a :class:`Drawing`.

A game's package offers one as ``DRAWING`` in its ``terminal`` module (``avanti.mare.terminal``).
The drawing works from a view, never from a state, so a seat's screen shows only what it may see
(A30, M1, F3). The renderables are those of `rich <https://rich.readthedocs.io>`_, which only the
``cli`` extra installs; nothing here imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import frozen

__all__ = ["Drawing", "always"]


def always(events: tuple[Any, ...]) -> bool:
    """Draw the table again after every command (for games with little to draw)."""
    return bool(events)


@frozen(kw_only=True)
class Drawing:
    """How to show one game in a terminal.

    ``draw(setup, view)`` returns a rich renderable of the table as the view's seat sees it;
    ``after(events)`` says whether a watcher wants to see the table again after those events;
    ``explain(setup, command)`` says in words what one of a seat's own legal commands does, shown
    beside its notation when a person picks a command ("card 8 (1/6/7), yellow: draw a card").
    """

    draw: Callable[[Any, Any], Any]
    after: Callable[[tuple[Any, ...]], bool] = always
    explain: Callable[[Any, Any], str] = lambda setup, command: ""
