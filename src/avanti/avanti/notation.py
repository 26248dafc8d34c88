"""Avanti's notation for commands (see :mod:`avanti.core.notation`).

The forms, notation first, then the variants a reader also accepts:

- ``PlaceEventMarker`` (A7): ``"marker 12"``; ``"marker on 12"``, ``"place marker on 12"``,
  ``"put the event marker on 12"``, ``"start at 12"``, ...
- ``PlayCard`` (A8): ``"play 19 for 4"``, naming the card by its id (two cards may print the
  same numbers); ``"play card 19 for 4"``, ``"lay 19 for 4"``, ``"lay card 19 to drive 4"``,
  ``"19 for 4"``, ...
- ``Drive`` (A9, A11): ``"drive"``; ``"go"``, ``"reveal"``, ``"reveal and drive"``.
- ``Quit`` (A9, A14): ``"quit"``; ``"quit run"``, ``"quit the run"``, ``"leave the run"``.
- ``Invest`` (A22): ``"invest 2"``; ``"invest 2 steps"``, ``"invest in 2 island steps"``,
  ``"buy 2"``, ``"buy 2 steps"``; for no step also ``"pass"``, ``"no"``, ``"invest nothing"``.

Each is made of the command's own fields only: a seat's command names its own choices, so the
notation shows that seat nothing it may not see (A30). Every seat still to lay a card or to
invest has commands of its own at once (A8, A22): cards are told apart by their ids, but two
seats may both ``"invest 1"``, and reading that needs the seat.
"""

from __future__ import annotations

import functools

from avanti.avanti.commands import Command, Drive, Invest, PlayCard, Quit
from avanti.avanti.deck import HIGHEST_NUMBER
from avanti.avanti.setup import MAX_DECK_SIZE, MAX_ISLAND_LENGTH, MAX_TRACK_LENGTH
from avanti.avanti.state import GameState
from avanti.core.notation import spellings

__all__ = ["notations"]

_MARKER = (
    "marker {space}",
    "marker on {space}",
    "marker on space {space}",
    "event marker on {space}",
    "place marker on {space}",
    "place the marker on {space}",
    "place the event marker on {space}",
    "put the marker on {space}",
    "put the event marker on {space}",
    "start at {space}",
    "start on space {space}",
)
"""Ways to put the event marker on a road space (A7)."""
_PLAY = (
    "play {card} for {number}",
    "play card {card} for {number}",
    "lay {card} for {number}",
    "lay card {card} for {number}",
    "play {card} to drive {number}",
    "play card {card} to drive {number}",
    "lay card {card} to drive {number}",
    "{card} for {number}",
    "card {card} for {number}",
)
"""Ways to lay a card, named by its id, for one of its numbers (A8)."""
_DRIVE = ("drive", "go", "reveal", "reveal and drive", "drive on")
_QUIT = ("quit", "quit run", "quit the run", "leave the run", "leave run")
_NO_STEP = ("pass", "no", "invest nothing", "buy nothing", "no steps")


def notations(state: GameState, command: Command) -> tuple[str, ...]:
    """Every spelling of ``command``, the notation first (A7, A8, A9, A22)."""
    if isinstance(command, PlayCard):
        card, number = command.card, command.number
        if _within(card, MAX_DECK_SIZE - 1) and _within(number, HIGHEST_NUMBER):
            return _play(card, number)
        return _spell_play(card, number)
    if isinstance(command, Drive):
        return _DRIVE
    if isinstance(command, Quit):
        return _QUIT
    if isinstance(command, Invest):
        steps = command.steps
        return _invest(steps) if _within(steps, MAX_ISLAND_LENGTH) else _spell_invest(steps)
    space = command.space
    return _marker(space) if _within(space, MAX_TRACK_LENGTH - 1) else _spell_marker(space)


def _within(value: int, highest: int) -> bool:
    """Whether ``value`` is an ``int`` from 0 to ``highest``: a value some accepted setup may
    name, whose spellings may be remembered."""
    return type(value) is int and 0 <= value <= highest


def _spell_marker(space: int) -> tuple[str, ...]:
    return spellings(form.format(space=space) for form in _MARKER)


def _spell_play(card: int, number: int) -> tuple[str, ...]:
    return spellings(form.format(card=card, number=number) for form in _PLAY)


def _spell_invest(steps: int) -> tuple[str, ...]:
    unit = "step" if steps == 1 else "steps"
    forms = [f"invest {steps}", f"invest {steps} {unit}", f"invest in {steps} {unit}"]
    forms += [f"invest in {steps} island {unit}", f"buy {steps}", f"buy {steps} {unit}"]
    return spellings(forms + list(_NO_STEP if steps == 0 else ()))


# Each is remembered: a reader asks for the spellings of every legal command at every move. Only
# values within the setup's bounds are remembered (``_within``), so every key is a small int and
# the caches hold at most one entry per value an accepted setup can name: a command of any other
# value, legal in no game, is spelt afresh and leaves nothing behind.
_marker = functools.lru_cache(maxsize=MAX_TRACK_LENGTH)(_spell_marker)
_play = functools.lru_cache(maxsize=MAX_DECK_SIZE * HIGHEST_NUMBER)(_spell_play)
_invest = functools.lru_cache(maxsize=MAX_ISLAND_LENGTH + 1)(_spell_invest)
