"""Avanti mare!'s commands in words: the long label a front end shows beside a command's
notation (M3, M6). Everything in Avanti mare! is public, so a label may say anything it knows."""

from __future__ import annotations

from avanti.mare.commands import Command, MoveFish, SkipMove
from avanti.mare.setup import PublicSetup, Setup
from avanti.mare.views import View

__all__ = ["explain"]


def explain(setup: Setup | PublicSetup, command: Command, view: View | None = None) -> str:
    """What ``command`` does, in words, for a menu beside its notation (M3, M6).

    ``view`` (the seat's view) is accepted as by every game's ``explain``; Avanti mare!'s
    labels need nothing from it.

    >>> from avanti.mare import Fish, MoveFish, explain, new_game
    >>> explain(new_game(["Ann"], seed=1).setup, MoveFish(0, Fish.BLUE))
    'move the blue fish one piece toward the sea (M6)'
    """
    if isinstance(command, MoveFish):
        return f"move the {command.fish} fish one piece toward the sea (M6)"
    if isinstance(command, SkipMove):
        return "move no fish: every fish stays where it is (M6)"
    return "roll the die"
