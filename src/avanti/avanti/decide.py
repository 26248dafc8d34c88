"""``decide``: check a command against the state and return the events it causes.

Every refusal is an :class:`~avanti.core.errors.IllegalCommand` with a :class:`Reason` and the
rule id; the state is a value, so a refused command changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, NoReturn

from attrs import fields

from avanti.avanti.collection import after_round
from avanti.avanti.commands import Command, Drive, Invest, PlaceEventMarker, PlayCard, Quit
from avanti.avanti.deck import is_yellow
from avanti.avanti.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CarMoved,
    DeckShuffled,
    DrivingBegan,
    Event,
    EventMarkerPlaced,
    Invested,
    Pile,
    PlayerQuit,
    QuitReason,
)
from avanti.avanti.evolve import Log
from avanti.avanti.positions import drive_hops, turn_order
from avanti.avanti.reasons import Reason
from avanti.avanti.runend import end_game, next_run, reached_dream_island
from avanti.avanti.state import GameState, Phase, _StateLike
from avanti.core import IllegalCommand

__all__ = ["decide", "decide_and_evolve", "investment_cost"]

# Enum members read through their class cost a metaclass lookup; these are read every step.
_MARKER = Phase.MARKER
_PLANNING = Phase.PLANNING
_DRIVING = Phase.DRIVING
_INVESTING = Phase.INVESTING
_OVER = Phase.OVER
_VOLUNTARY = QuitReason.VOLUNTARY
_DISCARD = Pile.DISCARD


def _refuse(reason: Reason, rule: str, message: str, command: object) -> NoReturn:
    raise IllegalCommand(reason, message, rule=rule, command=command)


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``.

    :raises IllegalCommand: the command breaks a rule; ``reason`` (a :class:`Reason`) and
        ``rule`` say which. Nothing changes.
    """
    return tuple(_decide(state, command).events)


def decide_and_evolve(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``command`` and the events it causes, in one pass.

    The same as ``decide`` followed by ``evolve`` over its events, without folding them twice:
    ``decide`` already folds each event to read the state the follow-on rules see.

    :raises IllegalCommand: as :func:`decide`.
    """
    log = _decide(state, command)
    return log.state.freeze(), tuple(log.events)


def _decide(state: GameState, command: Command) -> Log:
    kind = type(command)
    handler = _HANDLERS.get(kind)
    if handler is None:
        _refuse(Reason.UNKNOWN_COMMAND, "A31", f"{command!r} is not an Avanti command", command)
    if not _INTS.issuperset(map(type, _FIELDS[kind](command))):
        message = f"{command!r}: every field of a command is a whole number"
        _refuse(Reason.UNKNOWN_COMMAND, "A31", message, command)
    if state.phase is _OVER:
        _refuse(Reason.GAME_OVER, "A20", "the game is over; no command is accepted", command)
    if not 0 <= command.seat < state.table.players:
        message = f"there is no seat {command.seat}; seats run 0..{state.table.players - 1}"
        _refuse(Reason.NO_SUCH_SEAT, "A1", message, command)
    log = Log(state)
    handler(log, command)
    return log


def _place_marker(log: Log, command: PlaceEventMarker) -> None:
    """The starting player puts the event marker on any road space (A7)."""
    state = log.state
    if state.phase is not _MARKER:
        _refuse(Reason.WRONG_PHASE, "A7", "the event marker has already been placed", command)
    if command.seat != state.starting_seat:
        message = f"seat {state.starting_seat}, the starting player, places the event marker"
        _refuse(Reason.NOT_YOUR_TURN, "A7", message, command)
    length = state.table.track_length
    if not 0 <= command.space < length:
        message = f"there is no road space {command.space}; spaces run 0..{length - 1}"
        _refuse(Reason.NO_SUCH_SPACE, "A4", message, command)
    log.add(EventMarkerPlaced(command.seat, command.space))


def _play_card(log: Log, command: PlayCard) -> None:
    """Lay a card face down with a chosen number (A8); when all have, driving begins (A10)."""
    state = log.state
    seat = command.seat
    if state.phase is not _PLANNING:
        message = f"cards are laid in the planning step, not the {state.phase} step"
        _refuse(Reason.WRONG_PHASE, "A8", message, command)
    if state.quit[seat]:
        _refuse(Reason.HAS_QUIT, "A14", f"seat {seat} has quit this delivery run", command)
    if state.laid[seat] is not None:
        _refuse(Reason.ALREADY_PLAYED, "A8", f"seat {seat} has laid a card this round", command)
    if command.card not in state.hands[seat]:
        message = f"card {command.card} is not in seat {seat}'s hand"
        _refuse(Reason.CARD_NOT_IN_HAND, "A8", message, command)
    numbers = state.table.numbers[command.card]
    if command.number not in numbers:
        message = f"card {command.card} prints {numbers}, not {command.number}"
        _refuse(Reason.NUMBER_NOT_ON_CARD, "A3", message, command)
    log.add(CardPlayed(seat, command.card, command.number))
    after = log.state
    quit = after.quit
    for other, card in enumerate(after.laid):
        if card is None and not quit[other]:
            return  # someone still has to lay a card
    log.add(DrivingBegan(turn_order(after)))


def _check_turn(state: _StateLike, command: Drive | Quit) -> None:
    if state.phase is not _DRIVING:
        message = f"players drive or quit in the driving step, not the {state.phase} step"
        _refuse(Reason.WRONG_PHASE, "A9", message, command)
    to_act = state.order[state.turn]
    if command.seat != to_act:
        _refuse(Reason.NOT_YOUR_TURN, "A10", f"it is seat {to_act}'s turn to drive", command)


def _drive(log: Log, command: Drive) -> None:
    """Reveal the laid card, drive with leapfrogging (A11), discard and maybe draw (A13)."""
    state = log.state
    _check_turn(state, command)
    seat = command.seat
    laid = state.laid[seat]
    assert laid is not None  # every seat in the driving order has laid a card (A9)
    card, number = laid
    hops, bumped = drive_hops(state, seat, number)
    log.add(CarMoved(seat, card, number, state.distances[seat], hops, bumped))
    log.add(CardDiscarded(seat, card))
    if is_yellow(number):
        _draw(log, seat)
    _end_turn(log)


def _draw(log: Log, seat: int) -> None:
    """Draw one card; an empty draw pile is first refilled from the discard pile (A13, A29).

    The card just driven with is already on the discard pile, so the two piles are never both
    empty here; and a hand of at most two after laying a card never grows past three.
    """
    state = log.state
    if not state.draw:
        order = state.rng.stream().shuffled(state.discard)
        log.add(DeckShuffled(_DISCARD, len(order), order))
    log.add(CardDrawn(seat, log.state.draw[0]))


def _quit(log: Log, command: Quit) -> None:
    """Leave the run: the laid card goes unused to the discard pile (A9, A14)."""
    state = log.state
    _check_turn(state, command)
    laid = state.laid[command.seat]
    assert laid is not None  # every seat in the driving order has laid a card (A9)
    log.add(PlayerQuit(command.seat, _VOLUNTARY))
    log.add(CardDiscarded(command.seat, laid[0]))
    _end_turn(log)


def _end_turn(log: Log) -> None:
    state = log.state
    if state.turn >= len(state.order):
        after_round(log)


def investment_cost(state: _StateLike, seat: int, steps: int) -> tuple[int, Reason | None]:
    """The price of ``steps`` island spaces for ``seat`` (A22), or why they cannot be bought."""
    prices = state.table.prices
    start = state.island[seat]
    if start + steps > state.table.island_length:
        return 0, Reason.PAST_END_OF_PATH
    cost = 0
    for space in range(start + 1, start + steps + 1):
        price = prices[space]
        if price is None:
            return 0, Reason.UNPRICED_SPACE
        cost += price
    return cost, None


def _invest(log: Log, command: Invest) -> None:
    """Buy island steps, each at the price printed on the space entered (A22-A24)."""
    state = log.state
    seat = command.seat
    steps = command.steps
    if state.phase is not _INVESTING:
        message = f"players invest between delivery runs, not in the {state.phase} step"
        _refuse(Reason.WRONG_PHASE, "A22", message, command)
    if state.invested[seat]:
        message = f"seat {seat} has already invested or passed"
        _refuse(Reason.ALREADY_INVESTED, "A22", message, command)
    if steps < 0:
        _refuse(Reason.NEGATIVE_STEPS, "A22", f"cannot buy {steps} steps", command)
    cost, problem = investment_cost(state, seat, steps)
    start = state.island[seat]
    if problem is Reason.PAST_END_OF_PATH:
        message = f"{steps} steps from island space {start} go past the last space"
        _refuse(problem, "A22", message, command)
    if problem is not None:
        message = f"{steps} steps from island space {start} enter a space with no price"
        _refuse(problem, "A22", message, command)
    if cost > state.cash[seat]:
        message = f"{steps} steps cost {cost}, but seat {seat} has {state.cash[seat]}"
        _refuse(Reason.CANNOT_AFFORD, "A22", message, command)
    log.add(Invested(seat, steps, cost, start, start + steps))
    if not all(log.state.invested):
        return
    if reached_dream_island(log.state):
        end_game(log)
    else:
        next_run(log)


_HANDLERS: dict[type, Callable[[Log, Any], None]] = {
    PlaceEventMarker: _place_marker,
    PlayCard: _play_card,
    Drive: _drive,
    Quit: _quit,
    Invest: _invest,
}

_FIELDS: dict[type, Callable[[Any], tuple[object, ...]]] = {
    kind: attrgetter(*(a.name for a in fields(kind)), "seat") for kind in _HANDLERS
}
"""Every field of each command as a tuple (``seat`` twice, so one-field commands give one too)."""

_INTS = frozenset((int,))
