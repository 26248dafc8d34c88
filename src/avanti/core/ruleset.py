"""The :class:`Ruleset` record: what a game provides to run on the core, stated once.

A ruleset is a handful of pure functions over immutable values, gathered in one frozen record
and bound to the game's :class:`~avanti.core.game.Game` class when that class is defined::

    RULES = Ruleset(codec=CODEC, start=start, decide=decide, evolve=evolve, ...)

    class Game(core.Game[Setup, GameState, Command, Event, View, Outcome], rules=RULES):
        __slots__ = ()

``decide`` checks a command against a state and returns the events it causes (or raises
:class:`~avanti.core.errors.IllegalCommand`); ``evolve`` folds one event into a state and never
checks anything. Everything else (the :class:`~avanti.core.game.Game` aggregate, replay, undo, JSON,
per-seat event streams, notation) is written once, in the core, on top of these.

Two functions are optional, for speed, and filled in once when the record is made:
``execute(state, command) -> (state, events)`` decides and folds in one pass (default: ``decide``
then ``fold``), and ``fold(state, events) -> state`` folds a whole log (default: ``evolve`` per
event). Each must give exactly what ``decide`` and ``evolve`` give (the games test that on random
play).

A command's *form* is checked here, once for every game, before the game's ``decide`` or
``execute`` sees it: it must be an instance of one of the codec's command classes, and every
field must hold exactly its declared type (``True`` is no card number, ``1.0`` no seat). The
record's ``decide`` and ``execute`` are those checked versions; the game's rules modules then hold
only rules.

A setup's form is checked the same way before the game's ``start`` sees it
(:meth:`~avanti.core.codec.Codec.setup_problem`): a setup built in Python meets exactly the
checks of one read from JSON, so whatever starts can be saved and read back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, Generic, NoReturn, TypeVar

from attrs import Factory, field, frozen

from avanti.core.codec import Codec
from avanti.core.errors import CoreReason, IllegalCommand, InvalidSetup

__all__ = ["Ruleset", "gives_nothing_up", "seats_of"]

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")
ViewT = TypeVar("ViewT")
OutcomeT = TypeVar("OutcomeT")


def _fold_each(
    evolve: Callable[[StateT, EventT], StateT], state: StateT, events: Iterable[EventT]
) -> StateT:
    for event in events:
        state = evolve(state, event)
    return state


def _decide_then_fold(
    decide: Callable[[StateT, CommandT], tuple[EventT, ...]],
    fold: Callable[[StateT, Iterable[EventT]], StateT],
    state: StateT,
    command: CommandT,
) -> tuple[StateT, tuple[EventT, ...]]:
    events = decide(state, command)
    return fold(state, events), events


def gives_nothing_up(command: object) -> bool:
    """The default :attr:`Ruleset.gives_up`: no command gives anything up for good."""
    return False


def seats_of(commands: Iterable[object]) -> tuple[int, ...]:
    """The seats that ``commands`` name, each once, lowest first: the default ``waiting``."""
    return tuple(sorted({command.seat for command in commands}))  # type: ignore[attr-defined]


@frozen(kw_only=True)
class Ruleset(Generic[SetupT, StateT, CommandT, EventT, ViewT, OutcomeT]):
    """The functions and facts that make a game, stated once.

    Type parameters: the setup (players, seed, options), the state, the command and event unions,
    a seat's view, and the outcome of a finished game.
    """

    codec: Codec[SetupT, CommandT, EventT]
    """The JSON codec for this game's setups, commands and events; it also names the command
    classes and their fields' exact types, which the form check uses."""
    rule: str
    """The rule a malformed command breaks: the one that says what a command is (``"A31"``)."""
    start: Callable[[SetupT], tuple[StateT, tuple[EventT, ...]]]
    """The state before anything happened, and the opening events (shuffles, deals); raises
    :class:`~avanti.core.errors.InvalidSetup` when the setup breaks a rule."""
    decide: Callable[[StateT, CommandT], tuple[EventT, ...]]
    """The events a command causes; raises ``IllegalCommand`` when it breaks a rule. The record
    holds it with the form check in front (see the module's docstring)."""
    evolve: Callable[[StateT, EventT], StateT]
    """The state after one event. Trusts the event; never checks, never draws."""
    legal_commands: Callable[[StateT], tuple[CommandT, ...]]
    """Every command that ``decide`` accepts in this state, for any seat; nothing else."""
    view: Callable[[StateT, int | None], ViewT]
    """What a seat may see (``None``: a spectator, who sees only public facts)."""
    redact: Callable[[EventT, int | None], EventT | None]
    """An event as a seat may see it: itself, a copy with hidden fields blanked, or ``None``."""
    outcome: Callable[[StateT], OutcomeT | None]
    """The result of a finished game, or ``None`` while it goes on."""
    cause: Callable[[EventT], CommandT | None]
    """The command an event is the first event of, or ``None`` for a follow-on event. The core
    uses it to find where each command's events begin (for undo) and to check a log on replay:
    it decides each command again and compares the events."""
    notations: Callable[[StateT, CommandT], tuple[str, ...]]
    """Every way to write a command in a state, the game's own notation first: short, unique
    among the legal commands of the moment, and a function of what the command's seat may see
    (see :mod:`avanti.core.notation`)."""
    public: Callable[[SetupT], object]
    """The part of a setup every seat may know (players, board, deck, options; never the seed
    or a scenario's hidden cards): what a front end needs to draw the table. A game's
    ``public_setup(setup)``; :attr:`avanti.core.Game.public_setup` calls it."""
    setup_rule: str = ""
    """The rule a setup of the wrong form breaks (the one that says what a game is set up with,
    ``"A1"``): named when a field of the setup does not hold its declared type."""
    gives_up: Callable[[CommandT], bool] = gives_nothing_up
    """Whether a command gives something up for its seat for good (Avanti's quitting a
    delivery run, A14): whoever stands in for an absent player (the server's clock) never
    chooses such a command while another is legal. Default: no command does."""
    waiting: Callable[[StateT], tuple[int, ...]] = field(
        default=Factory(lambda self: partial(_seats_waiting, self.legal_commands), takes_self=True)
    )
    """The seats that may issue a command now, lowest first: one on a turn, several in a
    simultaneous step, none once the game is over. Exactly the seats of ``legal_commands``
    (default: computed from them)."""
    fold: Callable[[StateT, Iterable[EventT]], StateT] = field(
        default=Factory(lambda self: partial(_fold_each, self.evolve), takes_self=True)
    )
    """The state after every event in turn (default: ``evolve`` per event)."""
    execute: Callable[[StateT, CommandT], tuple[StateT, tuple[EventT, ...]]] = field(
        default=Factory(
            lambda self: partial(_decide_then_fold, self.decide, self.fold), takes_self=True
        )
    )
    """``decide`` and ``fold`` in one pass: ``(new_state, events)``, form check in front
    (default: ``decide`` then ``fold``)."""

    well_formed: Callable[[object], bool] = field(init=False, repr=False, eq=False)
    """The form check: the codec's :meth:`~avanti.core.codec.Codec.well_formed`."""
    unchecked_execute: Callable[[StateT, CommandT], tuple[StateT, tuple[EventT, ...]]] = field(
        init=False, repr=False, eq=False
    )
    """The game's one-pass ``execute`` without the form check in front, for a caller that has
    checked the form itself (:meth:`avanti.core.Game.execute` does, one call fewer per step)."""

    unchecked_start: Callable[[SetupT], tuple[StateT, tuple[EventT, ...]]] = field(
        init=False, repr=False, eq=False
    )
    """The game's ``start`` without the setup's form check in front, for a setup already
    checked (:meth:`avanti.core.Game.undo` starts again from the game's own setup)."""

    def __attrs_post_init__(self) -> None:
        refuse = self.refuse
        well_formed = self.codec.well_formed
        put = object.__setattr__
        put(self, "unchecked_start", self.start)
        put(self, "start", _checked_setup(self.codec, self.setup_rule, self.start))
        put(self, "well_formed", well_formed)
        put(self, "unchecked_execute", self.execute)
        put(self, "decide", _checked(well_formed, refuse, self.decide))
        put(self, "execute", _checked(well_formed, refuse, self.execute))

    def check(self, command: object) -> None:
        """Refuse a command that is not of this game or whose fields are not of their exact types.

        :raises IllegalCommand: reason ``unknown-command`` or ``malformed-command``, naming the
            record's ``rule``; nothing else is looked at.
        """
        if not self.codec.well_formed(command):
            self.refuse(command)

    def refuse(self, command: object) -> NoReturn:
        """Raise the ``IllegalCommand`` for a command of the wrong kind or form."""
        reason = (
            CoreReason.UNKNOWN_COMMAND
            if type(command) not in self.codec.command_classes
            else CoreReason.MALFORMED_COMMAND
        )
        problem = self.codec.form_problem(command) or f"{command!r} is not a command"
        raise IllegalCommand(reason, problem, rule=self.rule, command=command)


def _seats_waiting(legal_commands: Callable[[Any], tuple[Any, ...]], state: Any) -> tuple[int, ...]:
    return seats_of(legal_commands(state))


def _checked_setup(
    codec: Codec[Any, Any, Any], rule: str, start: Callable[[Any], Any]
) -> Callable[[Any], Any]:
    """``start`` with the setup's form check in front (see :meth:`Codec.setup_problem`)."""

    def checked(setup: Any) -> Any:
        problem = codec.setup_problem(setup)
        if problem is not None:
            raise InvalidSetup(problem, rule=rule)
        return start(setup)

    return functools.wraps(start)(checked)


def _checked(
    well_formed: Callable[[object], bool],
    refuse: Callable[[object], NoReturn],
    step: Callable[[Any, Any], Any],
) -> Callable[[Any, Any], Any]:
    """``step`` with the form check in front."""

    def checked(state: Any, command: Any) -> Any:
        if not well_formed(command):
            refuse(command)
        return step(state, command)

    if hasattr(step, "__name__"):
        return functools.wraps(step)(checked)
    checked.__doc__ = (  # a default filled in by the record: ``decide``, then ``fold``
        "The state after ``command`` and the events it causes: ``decide``, then ``fold``.\n\n"
        ":raises IllegalCommand: the command breaks a rule; ``state`` is unchanged."
    )
    checked.__name__ = checked.__qualname__ = "execute"
    return checked
