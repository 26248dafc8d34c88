"""The generic, immutable :class:`Game` aggregate: a setup, an event log and their state.

Each game subclasses it once, binding its :class:`~avanti.core.ruleset.Ruleset` record when the
class is defined (``class Game(core.Game[...], rules=RULES)``). Every method returns a new
``Game`` and leaves the old one as it was, so a program may keep any earlier game around (for
undo, for search, for display).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Generic, NamedTuple, Self, TypeVar, overload

import attrs
from attrs import frozen

from avanti.core.errors import (
    CoreReason,
    CorruptLog,
    DecodeError,
    IllegalCommand,
    InvalidArgument,
    InvalidSetup,
    VersionConflict,
)
from avanti.core.notation import parse
from avanti.core.ruleset import Ruleset

__all__ = ["Game", "LegalCommands", "Seen", "execute", "fold"]

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")
ViewT = TypeVar("ViewT")
OutcomeT = TypeVar("OutcomeT")


def fold(
    rules: Ruleset[SetupT, StateT, CommandT, EventT, ViewT, OutcomeT],
    state: StateT,
    events: Iterable[EventT],
) -> StateT:
    """Fold ``events`` into ``state`` with the ruleset (no checks): ``rules.fold``."""
    return rules.fold(state, events)


def execute(
    rules: Ruleset[SetupT, StateT, CommandT, EventT, ViewT, OutcomeT],
    state: StateT,
    command: CommandT,
) -> tuple[StateT, tuple[EventT, ...]]:
    """Functional form of a checked command: ``(new_state, events)``; raises ``IllegalCommand``.

    The same as ``rules.execute``: the form check, then the game's one-pass ``execute``.
    """
    return rules.execute(state, command)


class LegalCommands(tuple[CommandT, ...]):
    """The legal commands of a moment: a tuple whose ``in`` means "would be accepted".

    Commands compare field by field with ``==``, and ``True == 1`` in Python, so in a plain tuple
    ``Roll(True)`` would be found where ``Roll(1)`` is listed, though ``execute`` refuses it.
    Here ``command in legal`` also asks that every field has its exact declared type, which,
    with the list holding exactly the legal commands, is the same as :meth:`Game.is_legal`.
    """

    __slots__ = ()

    well_formed: ClassVar[Any] = staticmethod(lambda command: True)
    """The game's form check (its codec's ``well_formed``), set per game class."""

    def __contains__(self, command: object) -> bool:
        return type(self).well_formed(command) and tuple.__contains__(self, command)


class Seen(NamedTuple, Generic[EventT]):
    """One event of a seat's stream and its position in the whole log (see
    :meth:`Game.events_for`)."""

    position: int
    """The event's index in the full log: a client that has seen up to here resumes after it."""
    event: EventT
    """The event as the seat may see it."""


@frozen(repr=False)
class Game(Generic[SetupT, StateT, CommandT, EventT, ViewT, OutcomeT]):
    """A game in progress or finished: its setup, its event log and its current state.

    Make one with the game module's ``new_game``, ``replay`` or ``loads``; do not build one from
    its fields, which would skip every check. Two games are equal when their setups, logs and
    states are equal.
    """

    setup: SetupT
    """The parameters the game was started with (players, seed, options, board, ...)."""
    events: tuple[EventT, ...]
    """Everything that happened, oldest first. Holds hidden facts: use :meth:`events_for`."""
    state: StateT
    """The state the events fold to. Holds hidden facts: show players :meth:`view` instead."""

    rules: ClassVar[Ruleset[Any, Any, Any, Any, Any, Any]]
    """The ruleset record this kind of game runs on, bound when the class is defined."""
    _legal: ClassVar[type[LegalCommands[Any]]] = LegalCommands

    def __init_subclass__(
        cls, *, rules: Ruleset[Any, Any, Any, Any, Any, Any] | None = None, **kwargs: Any
    ) -> None:
        """Bind ``rules`` to the new game class: ``class Game(core.Game[...], rules=RULES)``."""
        super().__init_subclass__(**kwargs)
        if rules is not None:
            cls.rules = rules
            cls._legal = type(
                "LegalCommands",
                (LegalCommands,),
                {"__slots__": (), "well_formed": staticmethod(rules.codec.well_formed)},
            )

    # -- making games ------------------------------------------------------------------------

    @classmethod
    def new(cls, setup: SetupT) -> Self:
        """Start a game; raises :class:`~avanti.core.errors.InvalidSetup` for a bad setup."""
        rules = cls.rules
        state, opening = rules.start(setup)
        return cls(setup, opening, rules.fold(state, opening))

    @classmethod
    def replay(cls, setup: SetupT, events: Iterable[EventT], *, verify: bool = True) -> Self:
        """Rebuild a game from its setup and event log.

        With ``verify`` (the default) the log is checked against the rules: the opening events
        must be those the setup deals, and each later command's events must be exactly what the
        command causes. The first event that does not fit raises
        :class:`~avanti.core.errors.CorruptLog` with its index. ``verify=False`` only folds
        ``evolve`` over the log, for logs you wrote yourself and trust.
        """
        rules = cls.rules
        log = tuple(events)
        state, opening = rules.start(setup)
        if not verify:
            return cls(setup, log, rules.fold(state, log))
        _expect(log, 0, opening, "the opening events do not match the setup")
        state = rules.fold(state, opening)
        index = len(opening)
        while index < len(log):
            command = rules.cause(log[index])
            if command is None:
                raise CorruptLog(index, f"{_a(log[index])} event does not begin a command")
            try:
                after, caused = rules.execute(state, command)
            except IllegalCommand as error:
                raise CorruptLog(
                    index,
                    f"it records {_a(command)} command that the rules refuse "
                    f"({error.reason}{', rule ' + error.rule if error.rule else ''})",
                ) from None
            _expect(log, index, caused, f"it does not follow from its {_name(command)} command")
            state = after
            index += len(caused)
        return cls(setup, log, state)

    # -- playing -----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of events in the log; pass it as ``expected_version`` to detect races."""
        return len(self.events)

    def execute(self, command: CommandT, expected_version: int | None = None) -> Self:
        """The game after a command.

        :raises IllegalCommand: the command breaks a rule (``reason`` and ``rule`` say which);
            this game is unchanged.
        :raises VersionConflict: ``expected_version`` is given and the log has another length.
        :raises InvalidArgument: ``expected_version`` is neither ``None`` nor an ``int``.
        """
        log = self.events
        if expected_version is not None and (
            type(expected_version) is not int or expected_version != len(log)
        ):
            if type(expected_version) is not int:
                raise InvalidArgument(
                    "expected_version must be an int (a version) or None, "
                    f"not {type(expected_version).__name__}"
                )
            raise VersionConflict(expected_version, len(log))
        rules = self.rules
        if not rules.well_formed(command):
            rules.refuse(command)
        state, events = rules.unchecked_execute(self.state, command)
        return type(self)(self.setup, log + events, state)

    def legal_commands(self, seat: int | None = None) -> LegalCommands[CommandT]:
        """The commands that execute now: every one listed does, nothing else does.

        With ``seat``, only that seat's commands. Show a player only their own seat's list: the
        full list is for trusted code (bots running on the true state, tests), since what another
        seat may do can reveal what it holds.

        The result is a tuple whose ``in`` asks whether a command would be accepted
        (:class:`LegalCommands`): ``Roll(True) in game.legal_commands()`` is false although
        ``Roll(True) == Roll(1)``.

        :raises IllegalCommand: with reason ``no-such-seat`` for a seat not at the table.
        """
        commands = self.rules.legal_commands(self.state)
        if seat is not None:
            self._check_seat(seat)
            commands = tuple(c for c in commands if c.seat == seat)
        return self._legal(commands)

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats that may issue a command now, lowest first: one on a turn, several in a
        simultaneous step (laying cards, investing, offering), none once the game is over."""
        return self.rules.waiting(self.state)

    def is_legal(self, command: CommandT) -> bool:
        """Whether ``execute(command)`` would succeed."""
        try:
            self.rules.decide(self.state, command)
        except IllegalCommand:
            return False
        return True

    def notation(self, command: CommandT) -> str:
        """``command`` in the game's notation (``"play 19 for 4"``, ``"bid 5"``, ``"roll"``).

        Short, unique among the legal commands of this moment, and a function of what the
        command's seat may see, so it is safe to show that seat. :meth:`parse_notation` reads it
        back.

        :raises IllegalCommand: ``command`` is not a well-formed command of this game (reasons
            ``unknown-command`` and ``malformed-command``, as :meth:`execute` refuses it).
        """
        rules = self.rules
        if not rules.well_formed(command):
            rules.refuse(command)
        return rules.notations(self.state, command)[0]

    def parse_notation(self, text: str, seat: int | None = None) -> CommandT:
        """The legal command that ``text`` names, in the game's notation (see :meth:`notation`).

        Case, spacing and money signs do not matter. With ``seat``, only that seat's commands
        are candidates (pass it for a player's input: another seat's command is refused).

        :raises IllegalCommand: ``text`` names no legal command (reason ``unknown-notation``;
            the message lists the legal ones of ``seat``), or, without ``seat``, commands of
            several seats (``ambiguous-notation``).
        """
        rules = self.rules
        state = self.state
        return parse(
            text,
            self.legal_commands(seat),
            lambda command: rules.notations(state, command),
            seat=seat,
        )

    def undo(self) -> Self:
        """The game as it was before the last command (opening events are never undone).

        Randomness is not re-drawn: executing the same command again gives the same result.

        :raises IllegalCommand: with reason ``nothing-to-undo`` when no command was executed.
        """
        rules = self.rules
        state, opening = rules.unchecked_start(self.setup)
        for index in range(len(self.events) - 1, len(opening) - 1, -1):
            if rules.cause(self.events[index]) is not None:
                log = self.events[:index]
                return type(self)(self.setup, log, rules.fold(state, log))
        raise IllegalCommand(CoreReason.NOTHING_TO_UNDO, "no command has been executed yet")

    # -- looking -----------------------------------------------------------------------------

    def view(self, seat: int | None = None) -> ViewT:
        """What ``seat`` may see now; ``None`` for a spectator who sees only public facts.

        :raises IllegalCommand: with reason ``no-such-seat`` when ``seat`` is not at the table
            (``-1``, ``7``) or not a plain ``int`` (``True``, ``1.0``).
        """
        self._check_seat(seat)
        view: ViewT = self.rules.view(self.state, seat)
        return view

    @overload
    def events_for(self, seat: int | None = None) -> tuple[EventT, ...]: ...

    @overload
    def events_for(self, seat: int | None = None, *, after: int) -> tuple[Seen[EventT], ...]: ...

    def events_for(
        self, seat: int | None = None, *, after: int | None = None
    ) -> tuple[EventT, ...] | tuple[Seen[EventT], ...]:
        """The event log as ``seat`` may see it: hidden facts blanked, private events left out.

        With ``after=n``, the events from position ``n`` of the full log on (``n`` is a
        :attr:`version`: ``after=0`` is the whole log), each as a :class:`Seen` pair of its
        position and the event as ``seat`` sees it. A client that has seen up to version ``n``
        asks for ``after=n`` and gets exactly what it has not seen; positions let it drop
        anything it receives twice.

        :raises IllegalCommand: with reason ``no-such-seat``, as :meth:`view` does.
        :raises InvalidArgument: ``after`` is not an ``int`` from 0 to :attr:`version`.
        """
        self._check_seat(seat)
        redact = self.rules.redact
        if after is None:
            seen = (redact(event, seat) for event in self.events)
            return tuple(event for event in seen if event is not None)
        if type(after) is not int or not 0 <= after <= len(self.events):
            raise InvalidArgument(
                f"after must be a version from 0 to {len(self.events)}, "
                f"not {after if type(after) is int else type(after).__name__}"
            )
        pairs = ((i, redact(self.events[i], seat)) for i in range(after, len(self.events)))
        return tuple(Seen(i, event) for i, event in pairs if event is not None)

    def last_events(self, seat: int | None = None) -> tuple[EventT, ...]:
        """The events of the last command as ``seat`` sees them (hidden facts blanked, private
        events left out); ``()`` before the first command. What a picture draws as the last
        move, and what a front end animates.

        The command is found in the whole log (a seat's own stream may no longer show where
        another seat's command began), then only what ``seat`` may see of it is returned.

        :raises IllegalCommand: with reason ``no-such-seat``, as :meth:`view` does.
        """
        self._check_seat(seat)
        events, cause = self.events, self.rules.cause
        for index in range(len(events) - 1, -1, -1):
            if cause(events[index]) is not None:
                return tuple(pair.event for pair in self.events_for(seat, after=index))
        return ()

    def _check_seat(self, seat: object) -> None:
        """Refuse a seat that is neither ``None`` nor an ``int`` from 0 to the last seat.

        The seats are counted from the setup's ``players``, which every game's setup has; a
        setup without them is checked only for the type of ``seat``.
        """
        if seat is None:
            return
        players = getattr(self.setup, "players", None)
        count = len(players) if players is not None else None
        if type(seat) is int and (count is None or 0 <= seat < count):
            return
        seats = f"the seats are 0 to {count - 1}" if count else "a seat is an int"
        raise IllegalCommand(
            CoreReason.NO_SUCH_SEAT,
            f"there is no seat {seat!r}: {seats}, or None for a spectator",
        )

    @property
    def public_setup(self) -> object:
        """The setup as every seat may know it: players, board, deck, options; no seed, no hidden
        card of a scenario. Send a front end this, never :attr:`setup` (whose seed deals every
        hand and shuffle to come)."""
        return self.rules.public(self.setup)

    @property
    def outcome(self) -> OutcomeT | None:
        """The result once the game has ended, else ``None``."""
        return self.rules.outcome(self.state)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.rules.outcome(self.state) is not None

    # -- JSON --------------------------------------------------------------------------------

    def dumps(self, *, indent: int | None = None) -> str:
        """The game as a JSON document: format name and version, setup, and event log."""
        return self.rules.codec.dumps(self.setup, self.events, indent=indent)

    @classmethod
    def loads(cls, text: str | bytes) -> Self:
        """Read a game written by :meth:`dumps`, checking the log against the rules.

        :raises DecodeError: the document is malformed (every bad field is listed).
        :raises CorruptLog: the document is well formed but its log does not fit its setup.
        """
        setup, events = cls.rules.codec.loads(text)
        try:
            return cls.replay(setup, events)
        except InvalidSetup as error:
            raise DecodeError((f"{error} @ $.setup",)) from error

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__qualname__} version={len(self.events)}>"


def _expect(log: tuple[EventT, ...], start: int, expected: tuple[EventT, ...], why: str) -> None:
    """Raise :class:`CorruptLog` at the first event of ``log`` from ``start`` on that is not
    the ``expected`` one. The message names the event's index, type and differing fields, never
    their values (a log's values may be hidden from whoever reads the error)."""
    for offset, event in enumerate(expected):
        index = start + offset
        if index >= len(log):
            raise CorruptLog(index, f"the log ends early: {why}")
        found = log[index]
        if found != event:
            if type(found) is not type(event):
                difference = f"expected {_a(event)} event, found {_a(found)} event"
            else:
                difference = f"{_a(found)} event differs in {_differing(event, found)}"
            raise CorruptLog(index, f"{difference}: {why}")


def _name(value: object) -> str:
    return type(value).__name__


def _a(value: object) -> str:
    """``"a CardDrawn"``, ``"an Invested"``: the type of ``value`` with its article."""
    name = _name(value)
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


def _differing(expected: object, found: object) -> str:
    """The fields in which two events of one type differ, by name."""
    if not attrs.has(type(found)):  # pragma: no cover - every game's events are attrs classes
        return "its value"
    names = [
        a.name
        for a in attrs.fields(type(found))  # type: ignore[arg-type]  # an attrs class, checked
        if getattr(expected, a.name) != getattr(found, a.name)
    ]
    return ("fields " if len(names) > 1 else "field ") + ", ".join(map(repr, names))
