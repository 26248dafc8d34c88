"""The errors every game raises.

All errors derive from :class:`AvantiError`, so ``except avanti.AvantiError`` catches anything the
library raises on purpose. Each error is a frozen attrs class: it carries its facts as fields, so a
program can act on them without parsing the message.
"""

from __future__ import annotations

import enum
from typing import NoReturn

from attrs import field, frozen

__all__ = [
    "AvantiError",
    "CoreReason",
    "CorruptLog",
    "DecodeError",
    "IllegalCommand",
    "InvalidArgument",
    "InvalidBoard",
    "InvalidSetup",
    "UnknownGame",
    "VersionConflict",
    "refuse",
]


class AvantiError(Exception):
    """Base class of every error the library raises on purpose."""

    __slots__ = ()


class CoreReason(enum.StrEnum):
    """Reasons for rejecting a command that every game shares.

    Each game adds its own enum of reasons (its ``Reason``); all of them
    are :class:`enum.StrEnum` members, so ``error.reason == "game-over"`` works for any game.
    """

    GAME_OVER = "game-over"
    """The game has ended; no command is accepted."""
    NO_SUCH_SEAT = "no-such-seat"
    """The command, or a call of ``Game.view`` or ``Game.events_for``, names a seat that is not
    at the table."""
    NOT_YOUR_TURN = "not-your-turn"
    """The seat exists but it is not its move."""
    WRONG_PHASE = "wrong-phase"
    """This kind of command is not accepted in the current step of the game."""
    UNKNOWN_COMMAND = "unknown-command"
    """The object is not a command of this game."""
    MALFORMED_COMMAND = "malformed-command"
    """A command of this game with a field not of its exact declared type (``True`` or ``1.0``
    where a number belongs), refused by the core before the rules see it."""
    NOTHING_TO_UNDO = "nothing-to-undo"
    """:meth:`Game.undo` was called before any command was executed."""
    UNKNOWN_NOTATION = "unknown-notation"
    """:meth:`Game.parse_notation` was given text that names no legal command."""
    AMBIGUOUS_NOTATION = "ambiguous-notation"
    """:meth:`Game.parse_notation` was given text that names commands of several seats."""


@frozen(auto_exc=True, eq=False)
class IllegalCommand(AvantiError, ValueError):
    """A command broke a rule; the game it was given to is unchanged.

    ``reason`` is machine-readable (a :class:`enum.StrEnum` member), ``rule`` the id of the rule
    that was broken (``"M4"``, ``"A13"``, ...), and ``message`` a sentence for people.
    ``str(error)`` reads ``"A13: ..."``.
    """

    reason: enum.StrEnum
    message: str
    rule: str = ""
    command: object = field(default=None, repr=False)

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" if self.rule else self.message


def refuse(reason: enum.StrEnum, message: str, *, rule: str, command: object = None) -> NoReturn:
    """Raise :class:`IllegalCommand`: the one refusal helper every game's rules use.

    ``reason`` is machine-readable, ``message`` a sentence for people, ``rule`` the id of the
    rule the command breaks (``"A13"``), ``command`` the command refused.
    """
    raise IllegalCommand(reason, message, rule=rule, command=command)


@frozen(auto_exc=True, eq=False)
class InvalidSetup(AvantiError, ValueError):
    """The parameters of a new game (players, seed, options, scenario) do not fit the rules."""

    message: str
    rule: str = ""

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" if self.rule else self.message


@frozen(auto_exc=True, eq=False)
class InvalidArgument(AvantiError, ValueError):
    """A function or tool was asked for something it does not offer: an unknown bot or policy,
    a count out of range, a version the log does not have, a file that holds no game of the
    catalog. ``message`` says what and why."""

    message: str

    def __str__(self) -> str:
        return self.message


@frozen(auto_exc=True, eq=False)
class InvalidBoard(AvantiError, ValueError):
    """A board or deck (from code or from a file) is malformed.

    ``field`` is the path of the bad field (``"track[3].toll"``), ``value`` what was found there.
    """

    field: str
    value: object
    message: str

    def __str__(self) -> str:
        return f"{self.field} = {self.value!r}: {self.message}"


@frozen(auto_exc=True, eq=False)
class DecodeError(AvantiError, ValueError):
    """A JSON document could not be read.

    ``errors`` lists every problem found, each starting with the JSON path of the bad field
    (``$.events[3].face``).
    """

    errors: tuple[str, ...]

    def __str__(self) -> str:
        return "cannot decode document:\n  " + "\n  ".join(self.errors)


@frozen(auto_exc=True, eq=False)
class VersionConflict(AvantiError):
    """``execute(..., expected_version=n)`` was called but the log has moved on to ``actual``."""

    expected: int
    actual: int

    def __str__(self) -> str:
        return (
            f"expected the game at version {self.expected}, but it is at version {self.actual}; "
            "reload the game and decide again"
        )


@frozen(auto_exc=True, eq=False)
class CorruptLog(AvantiError, ValueError):
    """An event log does not fit its setup; ``index`` is the position of the first bad event."""

    index: int
    message: str

    def __str__(self) -> str:
        return f"event {self.index}: {self.message}"


@frozen(auto_exc=True, eq=False)
class UnknownGame(AvantiError, KeyError):
    """A game name (or a document's ``format``) that the catalog does not know.

    ``name`` is what was asked for, ``known`` the names the catalog has.
    """

    name: str
    known: tuple[str, ...]

    def __str__(self) -> str:
        return f"unknown game {self.name!r}; known: {', '.join(self.known)}"
