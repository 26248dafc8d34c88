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

__all__ = ["Drawing", "NumberChoice", "always"]


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


def _no_field(command: Any) -> NumberChoice | None:
    return None


def _no_legend(setup: Any) -> tuple[str, ...]:
    return ()


@frozen
class NumberChoice:
    """Where a command stands among commands that differ only in one number a person chooses
    (a road space, an amount of money): the command line lists all of them as one line with the
    legal range, ``marker <space> (0-33)``, and reads the number typed.

    ``word`` and ``name`` make the line's form, ``"{word} <{name}>"``; ``value`` is the number
    a person types for this command, so that ``"{word} {value}"`` is one of its notations
    (``"bid 5000"``); ``words`` says in words what the line's commands do, alike for all of them.
    """

    word: str
    name: str
    value: int
    words: str = ""

    @property
    def form(self) -> str:
        """The line's command with a placeholder for the number: ``"bid <amount>"``."""
        return f"{self.word} <{self.name}>"


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
    name (the side an Avanti mare! player backs, M2), or ``""``; ``field(command)`` places a
    command that chooses a number among its like (:class:`NumberChoice`), so a menu of many
    numbers is one line with their range, or ``None`` for a command listed on its own;
    ``legend(setup)`` is a key to what the drawing abbreviates, one string per line, shown
    under the table, or ``()``.
    """

    draw: Callable[[Any, Any], Any]
    after: Callable[[tuple[Any, ...]], bool] = always
    explain: Callable[[Any, Any, Any], str] = _no_words
    examples: tuple[str, ...] = ()
    confirm: Callable[[Any, Any], str] = _no_question
    number: Callable[[Any], int | None] = _listed
    player: Callable[[Any, int], str] = _nobody
    field: Callable[[Any], NumberChoice | None] = _no_field
    legend: Callable[[Any], tuple[str, ...]] = _no_legend
