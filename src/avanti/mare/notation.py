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

from avanti.core import CoreReason, refuse
from avanti.core.notation import spellings
from avanti.mare.commands import Command, MoveFish, Roll, SkipMove
from avanti.mare.setup import FISH, Fish
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
    """Every spelling of ``command``, the notation first (M3, M6).

    :raises IllegalCommand: ``command`` is not one of this game's commands, or a ``MoveFish``
        names no fish (reason ``unknown-command`` or ``malformed-command``, rule M2).
    """
    given: object = command  # a caller may pass anything: checked, not trusted
    if isinstance(given, Roll):
        return _ROLL
    if isinstance(given, SkipMove):
        return _SKIP
    if not isinstance(given, MoveFish):
        message = f"a {type(given).__name__} is not a command of Avanti mare!"
        refuse(CoreReason.UNKNOWN_COMMAND, message, rule="M2", command=given)
    fish: object = given.fish
    if type(fish) is not Fish:
        message = f"MoveFish.fish must be a Fish, not {type(fish).__name__}"
        refuse(CoreReason.MALFORMED_COMMAND, message, rule="M2", command=given)
    return _MOVES[fish]


_MOVES: dict[Fish, tuple[str, ...]] = {
    fish: spellings(form.format(fish=fish.value, initial=fish.value[:1]) for form in _MOVE)
    for fish in FISH
}
"""Every spelling of each fish's move, built once from the four fish (M1): no cache to fill."""
