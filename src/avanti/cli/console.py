"""The rich console the command line writes to, and small helpers for plain lines."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from avanti.core.errors import DecodeError

__all__ = ["make_console", "problems", "say"]

WIDTH = 100
"""The width used when the output is not a terminal (files, pipes, tests)."""


def make_console(out: TextIO) -> Console:
    """A console writing to ``out``: colours on a terminal, plain text of fixed width elsewhere."""
    terminal = out.isatty() if hasattr(out, "isatty") else False
    return Console(
        file=out,
        width=None if terminal else WIDTH,
        force_terminal=terminal,
        no_color=not terminal,
        highlight=False,
        emoji=False,
    )


def say(console: Console, line: str | RenderableType = "", style: str | None = None) -> None:
    """Print one line as it is (no markup is read from it; long lines are not broken)."""
    text = Text(line, style=style or "") if isinstance(line, str) else line
    console.print(text, soft_wrap=True)


def problems(error: DecodeError, width: int = 120) -> str:
    """The problems of a :class:`DecodeError` in one line: the first, in parentheses (cut to
    about ``width`` characters, its JSON path kept), and how many more there are.

    ``"(extra fields found (sides) @ $.setup) and 104 more problems"``
    """
    first = error.errors[0] if error.errors else "no problem named"
    text, at, where = first.rpartition(" @ ")
    if not at:
        text, where = where, ""
    if len(text) > width:
        text = text[: width - 3].rstrip() + "..."
    line = f"({text} @ {where})" if at else f"({text})"
    more = len(error.errors) - 1
    return line + (f" and {more} more problem{'s' if more != 1 else ''}" if more > 0 else "")
