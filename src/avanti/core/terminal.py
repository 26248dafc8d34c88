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


def _no_words(setup: Any, command: Any, view: Any = None) -> str:
    return ""


def _no_question(setup: Any, command: Any) -> str:
    return ""


def _listed(command: Any) -> int | None:
    return None


def _nobody(setup: Any, seat: int) -> str:
    return ""


@frozen(kw_only=True)
class Drawing:
    """How to show one game in a terminal.

    ``draw(setup, view)`` returns a rich renderable of the table as the view's seat sees it;
    ``after(events)`` says whether a watcher wants to see the table again after those events;
    ``explain(setup, command, view)`` says in words what one of a seat's own legal commands
    does, given that seat's view, shown beside its notation when a person picks a command ("card
    8 (1/6/7), yellow: draw a card"); ``examples`` are inputs a person may type, for the help;
    ``confirm(setup, command)`` is a question to ask before a command that cannot be taken back
    (Avanti's quitting a run, A14), or ``""``; ``number(command)`` is the number a person types
    to pick a command when the game numbers it itself (a road space, A4), ``None`` to pick it by
    its place in the list; ``player(setup, seat)`` is what a header says of a player besides the
    name (the side an Avanti mare! player backs, M2), or ``""``.
    """

    draw: Callable[[Any, Any], Any]
    after: Callable[[tuple[Any, ...]], bool] = always
    explain: Callable[[Any, Any, Any], str] = _no_words
    examples: tuple[str, ...] = ()
    confirm: Callable[[Any, Any], str] = _no_question
    number: Callable[[Any], int | None] = _listed
    player: Callable[[Any, int], str] = _nobody
