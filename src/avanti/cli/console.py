"""The rich console the command line writes to, and small helpers for plain lines."""

from __future__ import annotations

import enum
from typing import TextIO

import attrs
from rich.console import Console, RenderableType
from rich.text import Text

__all__ = ["command_text", "make_console", "say"]

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


def command_text(command: object) -> str:
    """A command in a few words: its kind and its fields but the seat (``MoveFish fish=blue``)."""
    parts = [type(command).__name__]
    kind = type(command)
    if attrs.has(kind):
        for field in attrs.fields(kind):
            if field.name != "seat":
                value = getattr(command, field.name)
                shown = value.value if isinstance(value, enum.Enum) else value
                parts.append(f"{field.name}={shown}")
    return " ".join(parts)
