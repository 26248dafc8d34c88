"""``evolve``: the state after one event. It trusts the event: no checks, no random draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from avanti.game.events import (
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
from avanti.game.state import GameState, Phase

__all__ = ["Log", "evolve"]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*values[:index], values[index] + amount, *values[index + 1 :])


def _run_started(state: GameState, event: RunStarted) -> GameState:
    n = state.table.players
    return state.but(
        phase=Phase.MARKER,
        run=event.run,
        round=1,
        starting_seat=event.starting_seat,
        distances=(0,) * n,
        laid=(None,) * n,
        quit=(False,) * n,
        order=(),
        turn=0,
        invested=(False,) * n,
    )


def _marker_placed(state: GameState, event: EventMarkerPlaced) -> GameState:
    return state.but(phase=Phase.PLANNING, marker=event.space)


def _deck_shuffled(state: GameState, event: DeckShuffled) -> GameState:
    order = event.order if event.order is not None else ()
    if event.pile is Pile.ALL:
        n = state.table.players
        return state.but(
            hands=((),) * n,
            draw=order,
            discard=(),
            laid=(None,) * n,
            rng=state.rng.advanced(),
        )
    return state.but(draw=order, discard=(), rng=state.rng.advanced())


def _cards_dealt(state: GameState, event: CardsDealt) -> GameState:
    dealt = state.draw[: event.count]
    hands = _set(state.hands, event.seat, state.hands[event.seat] + dealt)
    return state.but(hands=hands, draw=state.draw[event.count :])


def _card_played(state: GameState, event: CardPlayed) -> GameState:
    seat = event.seat
    card = event.card
    hand = tuple(c for c in state.hands[seat] if c != card)
    return state.but(
        hands=_set(state.hands, seat, hand),
        laid=_set(state.laid, seat, (card, event.number)),
    )


def _driving_began(state: GameState, event: DrivingBegan) -> GameState:
    return state.but(phase=Phase.DRIVING, order=event.order, turn=0)


def _car_moved(state: GameState, event: CarMoved) -> GameState:
    return state.but(
        distances=_set(state.distances, event.seat, event.hops[-1]),
        turn=state.turn + 1,
    )


def _card_discarded(state: GameState, event: CardDiscarded) -> GameState:
    return state.but(
        laid=_set(state.laid, event.seat, None),
        discard=(*state.discard, event.card),
    )


def _card_drawn(state: GameState, event: CardDrawn) -> GameState:
    hands = _set(state.hands, event.seat, (*state.hands[event.seat], state.draw[0]))
    return state.but(hands=hands, draw=state.draw[1:])


def _player_quit(state: GameState, event: PlayerQuit) -> GameState:
    quit = _set(state.quit, event.seat, True)
    if event.reason is QuitReason.VOLUNTARY:
        return state.but(quit=quit, turn=state.turn + 1)
    return state.but(quit=quit)


def _toll_paid(state: GameState, event: TollPaid) -> GameState:
    cash = _add(_add(state.cash, event.payer, -event.amount), event.payee, event.amount)
    return state.but(cash=cash)


def _figure_retreated(state: GameState, event: FigureRetreated) -> GameState:
    return state.but(island=_set(state.island, event.seat, event.to_space))


def _bank_paid(state: GameState, event: BankPaid) -> GameState:
    return state.but(cash=_add(state.cash, event.seat, event.amount))


def _round_started(state: GameState, event: RoundStarted) -> GameState:
    return state.but(phase=Phase.PLANNING, round=event.round, order=(), turn=0)


def _run_ended(state: GameState, event: RunEnded) -> GameState:
    n = state.table.players
    return state.but(
        phase=Phase.INVESTING,
        ranking=event.ranking,
        order=(),
        turn=0,
        invested=(False,) * n,
    )


def _figure_advanced(state: GameState, event: FigureAdvanced) -> GameState:
    return state.but(island=_set(state.island, event.seat, event.to_space))


def _atm_withdrawn(state: GameState, event: AtmWithdrawn) -> GameState:
    return state.but(cash=_add(state.cash, event.seat, event.amount))


def _invested(state: GameState, event: Invested) -> GameState:
    seat = event.seat
    return state.but(
        cash=_add(state.cash, seat, -event.cost),
        island=_set(state.island, seat, event.to_space),
        invested=_set(state.invested, seat, True),
    )


def _game_ended(state: GameState, event: GameEnded) -> GameState:
    return state.but(phase=Phase.OVER, winner=event.winner)


_EVOLVERS: dict[type, Callable[[GameState, Any], GameState]] = {
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
    return _EVOLVERS[type(event)](state, event)


class Log:
    """The events of one command as ``decide`` builds them, with the state they fold to.

    Follow-on rules (collection, end of run, next run) read ``state`` after each event, so they
    are written against states rather than against the events before them.
    """

    __slots__ = ("events", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        """Record ``event`` and fold it into ``state``."""
        self.events.append(event)
        self.state = _EVOLVERS[type(event)](self.state, event)
