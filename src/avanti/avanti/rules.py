"""The Avanti ruleset: the object the core's :class:`~avanti.core.Game` runs on."""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from avanti.avanti.commands import COMMANDS, Command, Drive, Invest, PlaceEventMarker, PlayCard
from avanti.avanti.commands import Quit as QuitCommand
from avanti.avanti.decide import decide, decide_and_evolve
from avanti.avanti.events import (
    EVENTS,
    CardPlayed,
    CarMoved,
    Event,
    EventMarkerPlaced,
    Invested,
    PlayerQuit,
    QuitReason,
)
from avanti.avanti.evolve import evolve, fold
from avanti.avanti.legal import legal_commands
from avanti.avanti.notation import notations
from avanti.avanti.runend import final_ranking
from avanti.avanti.setup import Setup, start
from avanti.avanti.state import GameState, Phase
from avanti.avanti.views import View, redact, view
from avanti.core import Codec

__all__ = ["CODEC", "RULES", "AvantiRules", "Outcome", "cause", "outcome"]

# Enum members read through their class cost a metaclass lookup; these are read every step.
_OVER = Phase.OVER
_VOLUNTARY = QuitReason.VOLUNTARY


@frozen
class Outcome:
    """How a finished game came out (A20, A24).

    ``winner`` is the seat whose figure is furthest ahead; ``ranking`` lists every seat that
    way, ties going to the better rank in the last run; ``island`` is each figure's space.
    As in every game, ``winners`` lists the seats that won (here always the one ``winner``) and
    ``returns`` gives each seat 1.0 if it won and 0.0 if not.
    """

    winner: int
    ranking: tuple[int, ...]
    island: tuple[int, ...]
    winners: tuple[int, ...]
    returns: tuple[float, ...]


def outcome(state: GameState) -> Outcome | None:
    """The result once the game is over, else ``None``."""
    if state.phase is not _OVER or state.winner is None:
        return None
    winner = state.winner
    returns = tuple(1.0 if seat == winner else 0.0 for seat in range(len(state.island)))
    return Outcome(winner, final_ranking(state), state.island, (winner,), returns)


def cause(event: Event) -> Command | None:
    """The command ``event`` is the first event of, or ``None`` for a follow-on event.

    The core uses it to check a replayed log and to find command boundaries for undo.
    """
    if isinstance(event, CardPlayed):
        if event.card is None or event.number is None:
            return None
        return PlayCard(event.seat, event.card, event.number)
    if isinstance(event, CarMoved):
        return Drive(event.seat)
    if isinstance(event, PlayerQuit):
        return QuitCommand(event.seat) if event.reason is _VOLUNTARY else None
    if isinstance(event, Invested):
        return Invest(event.seat, event.steps)
    if isinstance(event, EventMarkerPlaced) and event.seat is not None:
        return PlaceEventMarker(event.seat, event.space)
    return None


CODEC: Codec[Setup, Command, Event] = Codec(
    format="avanti",
    version=1,
    setup_type=Setup,
    commands=COMMANDS,
    events=EVENTS,
)
"""JSON for Avanti setups, commands, events and game documents."""


class AvantiRules:
    """The Avanti rules A1-A31 as a :class:`~avanti.core.Ruleset`."""

    codec = CODEC

    def start(self, setup: Setup) -> tuple[GameState, tuple[Event, ...]]:
        """The state before anything happened, and the opening shuffle and deal (A6, A7)."""
        return start(setup)

    def decide(self, state: GameState, command: Command) -> tuple[Event, ...]:
        """The events ``command`` causes; raises ``IllegalCommand``."""
        return decide(state, command)

    def evolve(self, state: GameState, event: Event) -> GameState:
        """The state after ``event``."""
        return evolve(state, event)

    # A bot calls these three every step: they are the rules' functions themselves, one call
    # fewer than a method that forwards to them.
    execute = staticmethod(decide_and_evolve)
    legal_commands = staticmethod(legal_commands)
    outcome = staticmethod(outcome)
    notations = staticmethod(notations)

    def fold(self, state: GameState, events: Iterable[Event]) -> GameState:
        """The state after every event in turn."""
        return fold(state, events)

    def view(self, state: GameState, seat: int | None) -> View:
        """What ``seat`` may see (A30)."""
        return view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """``event`` as ``seat`` may see it (A30)."""
        return redact(event, seat)

    def cause(self, event: Event) -> Command | None:
        """The command ``event`` is the first event of, or ``None``."""
        return cause(event)


RULES = AvantiRules()
"""The one Avanti ruleset object."""
