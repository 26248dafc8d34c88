"""Avanti mare!'s notation for commands (see :mod:`avanti.core.notation`).

The forms, notation first, then the variants a reader also accepts:

- ``Roll`` (M3): ``"roll"``; ``"roll the die"``, ``"roll die"``.
- ``MoveFish`` (M6): ``"move orange"``; ``"orange"``, ``"move the orange fish"``,
  ``"orange fish"``, and the fish's initial as the river is drawn (``"o"``, ``"move o"``).
- ``SkipMove`` (M6): ``"skip"``; ``"skip the move"``, ``"skip move"``, ``"decline"``,
  ``"decline the move"``, ``"no move"``, ``"pass"``.

Everything in Avanti mare! is public but the generator (M3), and only the seat on turn acts, so
each form is unique and hides nothing.
"""

from __future__ import annotations

import functools

from avanti.core.notation import spellings
from avanti.mare.commands import Command, Roll, SkipMove
from avanti.mare.state import GameState

__all__ = ["notations"]

_ROLL = ("roll", "roll the die", "roll die")
_SKIP = ("skip", "skip the move", "skip move", "decline", "decline the move", "no move", "pass")
"""Ways to decline the move after a free fish's colour (M6); none is a colour or an initial."""
_MOVE = (
    "move {fish}",
    "{fish}",
    "move the {fish} fish",
    "move {fish} fish",
    "{fish} fish",
    "move {initial}",
    "{initial}",
)
"""Ways to move a fish after a free fish's colour (M6): by colour, or by the initial the river
shows (the four colours start with different letters: b, o, y, p)."""


def notations(state: GameState, command: Command) -> tuple[str, ...]:
    """Every spelling of ``command``, the notation first (M3, M6)."""
    if isinstance(command, Roll):
        return _ROLL
    if isinstance(command, SkipMove):
        return _SKIP
    return _move(str(command.fish))


@functools.lru_cache(maxsize=64)
def _move(fish: str) -> tuple[str, ...]:
    return spellings(form.format(fish=fish, initial=fish[:1]) for form in _MOVE)
