"""What decide shares between the phases: collecting events, refusing, ending rounds."""

from __future__ import annotations

from avanti.autorama.events import (
    AdvisorsRevealed,
    ChecksRevealed,
    Event,
    GameEnded,
    VehiclesRevealed,
)
from avanti.autorama.evolve import apply
from avanti.autorama.scoring import score
from avanti.autorama.state import Draft, GameState

__all__ = ["Emitter"]


class Emitter:
    """Collects the events of one command, folding each so the next sees its effect.

    Each phase's ``decide_*`` returns its emitter: the events, and in ``state`` the state they
    fold to, so executing a command need not fold them again.
    """

    __slots__ = ("events", "state")

    def __init__(self, state: GameState) -> None:
        self.state = Draft(state)
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        """Record ``event`` and apply it to ``state``, a draft: read it afresh after emitting."""
        self.events.append(event)
        apply(self.state, event)

    def result(self) -> tuple[Event, ...]:
        """The events, in order."""
        return tuple(self.events)

    def next_advisors(self, start: int) -> None:
        """F8: after an auction, the next one (``start`` bids first) or phase 2 (F9)."""
        state, n = self.state, self.state.players
        if state.advisor_deck:
            self.emit(AdvisorsRevealed(state.round + 1, start, state.advisor_deck[:n]))
        else:
            self.emit(VehiclesRevealed(1, start, state.vehicle_deck[:n]))

    def next_vehicles(self, start: int) -> None:
        """F13: after a round of buying, the next one (``start`` plays first) or phase 3."""
        state, n = self.state, self.state.players
        if state.vehicle_deck:
            self.emit(VehiclesRevealed(state.round + 1, start, state.vehicle_deck[:n]))
        else:
            self.emit(ChecksRevealed(1, state.check_deck[:n]))

    def next_checks(self) -> None:
        """F18: after a round of selling, the next one, or the end and the scores (F19, F20)."""
        state, n = self.state, self.state.players
        if state.check_deck:
            self.emit(ChecksRevealed(state.round + 1, state.check_deck[:n]))
        else:
            result = score(state)
            scores = result.scores
            self.emit(
                GameEnded(
                    tuple(s.total for s in scores),
                    result.winners,
                    tuple(s.check_total for s in scores),
                    tuple(s.cash for s in scores),
                )
            )
