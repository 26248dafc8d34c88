"""``evolve``: the state after one event. It trusts the event: no checks, no random draws."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from avanti.avanti.events import (
    AtmWithdrawn,
    BankPaid,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsDealt,
    CarMoved,
    DeckShuffled,
    DrivingBegan,
    Event,
    EventMarkerPlaced,
    FigureAdvanced,
    FigureRetreated,
    GameEnded,
    Invested,
    Pile,
    PlayerQuit,
    QuitReason,
    RoundStarted,
    RunEnded,
    RunStarted,
    TollPaid,
)
from avanti.avanti.state import Draft, GameState, Phase

__all__ = ["Log", "evolve", "fold"]

# Enum members read through their class cost a metaclass lookup; these are read every step.
_MARKER = Phase.MARKER
_PLANNING = Phase.PLANNING
_DRIVING = Phase.DRIVING
_INVESTING = Phase.INVESTING
_OVER = Phase.OVER
_VOLUNTARY = QuitReason.VOLUNTARY
_ALL = Pile.ALL


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    changed = list(values)  # a list copy and one store beat slicing for a handful of seats
    changed[index] = value
    return tuple(changed)


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    changed = list(values)
    changed[index] += amount
    return tuple(changed)


def _run_started(draft: Draft, event: RunStarted) -> None:
    n = draft.table.players
    draft.phase = _MARKER
    draft.run = event.run
    draft.round = 1
    draft.starting_seat = event.starting_seat
    draft.distances = (0,) * n
    draft.laid = (None,) * n
    draft.quit = (False,) * n
    draft.order = ()
    draft.turn = 0
    draft.invested = (False,) * n


def _marker_placed(draft: Draft, event: EventMarkerPlaced) -> None:
    draft.phase = _PLANNING
    draft.marker = event.space


def _deck_shuffled(draft: Draft, event: DeckShuffled) -> None:
    if event.pile is _ALL:
        n = draft.table.players
        draft.hands = ((),) * n
        draft.laid = (None,) * n
    draft.draw = event.order if event.order is not None else ()
    draft.discard = ()
    draft.rng = draft.rng.advanced()


def _cards_dealt(draft: Draft, event: CardsDealt) -> None:
    draw = draft.draw
    hands = draft.hands
    draft.hands = _set(hands, event.seat, hands[event.seat] + draw[: event.count])
    draft.draw = draw[event.count :]


def _card_played(draft: Draft, event: CardPlayed) -> None:
    seat = event.seat
    card = event.card
    hands = draft.hands
    draft.hands = _set(hands, seat, tuple([c for c in hands[seat] if c != card]))
    draft.laid = _set(draft.laid, seat, (card, event.number))


def _driving_began(draft: Draft, event: DrivingBegan) -> None:
    draft.phase = _DRIVING
    draft.order = event.order
    draft.turn = 0


def _car_moved(draft: Draft, event: CarMoved) -> None:
    draft.distances = _set(draft.distances, event.seat, event.hops[-1])
    draft.turn += 1


def _card_discarded(draft: Draft, event: CardDiscarded) -> None:
    draft.laid = _set(draft.laid, event.seat, None)
    draft.discard = (*draft.discard, event.card)


def _card_drawn(draft: Draft, event: CardDrawn) -> None:
    draw = draft.draw
    hands = draft.hands
    draft.hands = _set(hands, event.seat, (*hands[event.seat], draw[0]))
    draft.draw = draw[1:]


def _player_quit(draft: Draft, event: PlayerQuit) -> None:
    draft.quit = _set(draft.quit, event.seat, True)
    if event.reason is _VOLUNTARY:
        draft.turn += 1


def _toll_paid(draft: Draft, event: TollPaid) -> None:
    draft.cash = _add(_add(draft.cash, event.payer, -event.amount), event.payee, event.amount)


def _figure_retreated(draft: Draft, event: FigureRetreated) -> None:
    draft.island = _set(draft.island, event.seat, event.to_space)


def _bank_paid(draft: Draft, event: BankPaid) -> None:
    draft.cash = _add(draft.cash, event.seat, event.amount)


def _round_started(draft: Draft, event: RoundStarted) -> None:
    draft.phase = _PLANNING
    draft.round = event.round
    draft.order = ()
    draft.turn = 0


def _run_ended(draft: Draft, event: RunEnded) -> None:
    draft.phase = _INVESTING
    draft.ranking = event.ranking
    draft.order = ()
    draft.turn = 0
    draft.invested = (False,) * draft.table.players


def _figure_advanced(draft: Draft, event: FigureAdvanced) -> None:
    draft.island = _set(draft.island, event.seat, event.to_space)


def _atm_withdrawn(draft: Draft, event: AtmWithdrawn) -> None:
    draft.cash = _add(draft.cash, event.seat, event.amount)


def _invested(draft: Draft, event: Invested) -> None:
    seat = event.seat
    draft.cash = _add(draft.cash, seat, -event.cost)
    draft.island = _set(draft.island, seat, event.to_space)
    draft.invested = _set(draft.invested, seat, True)


def _game_ended(draft: Draft, event: GameEnded) -> None:
    draft.phase = _OVER
    draft.winner = event.winner


_APPLY: dict[type, Callable[[Draft, Any], None]] = {
    RunStarted: _run_started,
    EventMarkerPlaced: _marker_placed,
    DeckShuffled: _deck_shuffled,
    CardsDealt: _cards_dealt,
    CardPlayed: _card_played,
    DrivingBegan: _driving_began,
    CarMoved: _car_moved,
    CardDiscarded: _card_discarded,
    CardDrawn: _card_drawn,
    PlayerQuit: _player_quit,
    TollPaid: _toll_paid,
    FigureRetreated: _figure_retreated,
    BankPaid: _bank_paid,
    RoundStarted: _round_started,
    RunEnded: _run_ended,
    FigureAdvanced: _figure_advanced,
    AtmWithdrawn: _atm_withdrawn,
    Invested: _invested,
    GameEnded: _game_ended,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``; trusts it, checks nothing and never draws (A29).

    A shuffle's event stores the generator advanced by one (``state.rng.advanced()``).
    """
    draft = Draft(state)
    _APPLY[type(event)](draft, event)
    return draft.freeze()


def fold(state: GameState, events: Iterable[Event]) -> GameState:
    """The state after every event in turn: ``evolve`` over a log, one frozen state at the end."""
    draft: Draft | None = None
    apply = _APPLY
    for event in events:
        if draft is None:
            draft = Draft(state)
        apply[type(event)](draft, event)
    return state if draft is None else draft.freeze()


class Log:
    """The events of one command as ``decide`` builds them, with the state they fold to.

    Follow-on rules (collection, end of run, next run) read ``state`` after each event, so they
    are written against states rather than against the events before them. ``state`` is a
    ``Draft`` that each event updates in place: read it afresh after adding an event.
    """

    __slots__ = ("events", "state")

    def __init__(self, state: GameState) -> None:
        self.state = Draft(state)
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        """Record ``event`` and fold it into ``state``."""
        self.events.append(event)
        _APPLY[type(event)](self.state, event)
