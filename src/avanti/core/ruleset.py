"""The :class:`Ruleset` protocol: what a game must provide to run on the core.

A ruleset is a handful of pure functions over immutable values. ``decide`` checks a command
against a state and returns the events it causes (or raises
:class:`~avanti.core.errors.IllegalCommand`); ``evolve`` folds one event into a state and never
checks anything. Everything else (the :class:`~avanti.core.game.Game` aggregate, replay, undo, JSON,
per-seat event streams) is written once, in the core, on top of these.

Two more methods are optional, for speed, and the core uses them when a ruleset has them:
``execute(state, command) -> (state, events)`` decides and folds in one pass, and
``fold(state, events) -> state`` folds a whole log. Each must give exactly what ``decide`` and
``evolve`` give (the games test that on random play).
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from avanti.core.codec import Codec

__all__ = ["Ruleset"]

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")
ViewT = TypeVar("ViewT", covariant=True)
OutcomeT = TypeVar("OutcomeT", covariant=True)


class Ruleset(Protocol[SetupT, StateT, CommandT, EventT, ViewT, OutcomeT]):
    """The functions and facts that make a game.

    Type parameters: the setup (players, seed, options), the state, the command and event unions,
    a seat's view, and the outcome of a finished game.
    """

    @property
    def codec(self) -> Codec[SetupT, CommandT, EventT]:
        """The JSON codec for this game's setups, commands and events."""
        ...

    def start(self, setup: SetupT) -> tuple[StateT, tuple[EventT, ...]]:
        """The state before anything happened, and the opening events (shuffles, deals).

        Raises :class:`~avanti.core.errors.InvalidSetup` when the setup breaks a rule.
        """
        ...

    def decide(self, state: StateT, command: CommandT) -> tuple[EventT, ...]:
        """The events a command causes; raises ``IllegalCommand`` when it breaks a rule."""
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """The state after one event. Trusts the event; never checks, never draws."""
        ...

    def legal_commands(self, state: StateT) -> tuple[CommandT, ...]:
        """Every command that ``decide`` accepts in this state, for any seat."""
        ...

    def view(self, state: StateT, seat: int | None) -> ViewT:
        """What ``seat`` may see (``None``: a spectator, who sees only public facts)."""
        ...

    def redact(self, event: EventT, seat: int | None) -> EventT | None:
        """The event as ``seat`` may see it: itself, a copy with hidden fields blanked, or None."""
        ...

    def outcome(self, state: StateT) -> OutcomeT | None:
        """The result of a finished game, or ``None`` while it goes on."""
        ...

    def notations(self, state: StateT, command: CommandT) -> tuple[str, ...]:
        """Every way to write ``command`` in this state, the game's own notation first.

        The first is short, unique among the legal commands of the moment, and a function of
        what the command's seat may see only; the rest are variants a reader accepts ("play
        card 19 for 4" beside "play 19 for 4"). See :mod:`avanti.core.notation`.
        """
        ...

    def cause(self, event: EventT) -> CommandT | None:
        """The command that ``event`` is the first event of, or ``None`` for a follow-on event.

        The core uses this to find where each command's events begin (for :meth:`Game.undo`)
        and to check a log on replay: it re-decides each command and compares the events.
        """
        ...
