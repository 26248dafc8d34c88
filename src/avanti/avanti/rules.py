"""The rules of Avanti, as the core's :class:`~avanti.core.Ruleset` binds them (A1-A31).

Every game names the same functions in its ``rules`` module: ``start``, ``decide``, ``evolve``,
``fold``, ``execute``, ``legal_commands``, ``waiting``, ``outcome`` and ``cause``. Avanti's are
large, so most live in modules of their own (``decide``, ``evolve``, ``legal``, ``views``) and are
gathered here; the outcome, the command an event begins and the command that gives up for good
(quitting a run, A14) are written here.
"""

from __future__ import annotations

from attrs import frozen

from avanti.avanti.commands import Command, Drive, Invest, PlaceEventMarker, PlayCard
from avanti.avanti.commands import Quit as QuitCommand
from avanti.avanti.decide import decide
from avanti.avanti.decide import decide_and_evolve as execute
from avanti.avanti.events import (
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
from avanti.avanti.runend import final_ranking
from avanti.avanti.setup import start
from avanti.avanti.state import GameState, Phase
from avanti.avanti.views import waiting

__all__ = [
    "Outcome",
    "cause",
    "decide",
    "evolve",
    "execute",
    "fold",
    "gives_up",
    "legal_commands",
    "outcome",
    "start",
    "waiting",
]

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
    return Outcome(
        winner=winner,
        ranking=final_ranking(state),
        island=state.island,
        winners=(winner,),
        returns=returns,
    )


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


def gives_up(command: Command) -> bool:
    """Whether ``command`` gives up for good: quitting a delivery run cannot be taken back (the
    car stays, no more cards are laid this run, A14), so nobody standing in for an absent
    player quits for them while driving is legal (A9)."""
    return isinstance(command, QuitCommand)
