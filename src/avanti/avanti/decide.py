"""``decide``: check a command against the state and return the events it causes.

Every refusal is an :class:`~avanti.core.errors.IllegalCommand` with a :class:`Reason` and the
rule id; the state is a value, so a refused command changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
from avanti.avanti.state import GameState, Phase, StateLike
from avanti.core import refuse

__all__ = ["decide", "decide_and_evolve", "investment_cost"]

# Enum members read through their class cost a metaclass lookup; these are read every step.
_MARKER = Phase.MARKER
_PLANNING = Phase.PLANNING
_DRIVING = Phase.DRIVING
_INVESTING = Phase.INVESTING
_OVER = Phase.OVER
_VOLUNTARY = QuitReason.VOLUNTARY
_DISCARD = Pile.DISCARD


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
    """The rules every command meets (A1, A20), then its own. The core has checked its form:
    an Avanti command whose fields are all ``int`` (A31)."""
    if state.phase is _OVER:
        refuse(
            Reason.GAME_OVER,
            "the game is over; no command is accepted",
            rule="A20",
            command=command,
        )
    if not 0 <= command.seat < state.table.players:
        message = f"there is no seat {command.seat}; seats run 0..{state.table.players - 1}"
        refuse(Reason.NO_SUCH_SEAT, message, rule="A1", command=command)
    log = Log(state)
    _HANDLERS[type(command)](log, command)
    return log


def _place_marker(log: Log, command: PlaceEventMarker) -> None:
    """The starting player puts the event marker on any road space (A7)."""
    state = log.state
    if state.phase is not _MARKER:
        refuse(
            Reason.WRONG_PHASE,
            "the event marker has already been placed",
            rule="A7",
            command=command,
        )
    if command.seat != state.starting_seat:
        message = f"seat {state.starting_seat}, the starting player, places the event marker"
        refuse(Reason.NOT_YOUR_TURN, message, rule="A7", command=command)
    length = state.table.track_length
    if not 0 <= command.space < length:
        message = f"there is no road space {command.space}; spaces run 0..{length - 1}"
        refuse(Reason.NO_SUCH_SPACE, message, rule="A4", command=command)
    log.add(EventMarkerPlaced(command.seat, command.space))


def _play_card(log: Log, command: PlayCard) -> None:
    """Lay a card face down with a chosen number (A8); when all have, driving begins (A10)."""
    state = log.state
    seat = command.seat
    if state.phase is not _PLANNING:
        message = f"cards are laid in the planning step, not the {state.phase} step"
        refuse(Reason.WRONG_PHASE, message, rule="A8", command=command)
    if state.quit[seat]:
        refuse(
            Reason.HAS_QUIT, f"seat {seat} has quit this delivery run", rule="A14", command=command
        )
    if state.laid[seat] is not None:
        refuse(
            Reason.ALREADY_PLAYED,
            f"seat {seat} has laid a card this round",
            rule="A8",
            command=command,
        )
    if command.card not in state.hands[seat]:
        message = f"card {command.card} is not in seat {seat}'s hand"
        refuse(Reason.CARD_NOT_IN_HAND, message, rule="A8", command=command)
    numbers = state.table.numbers[command.card]
    if command.number not in numbers:
        message = f"card {command.card} prints {numbers}, not {command.number}"
        refuse(Reason.NUMBER_NOT_ON_CARD, message, rule="A3", command=command)
    log.add(CardPlayed(seat, command.card, command.number))
    after = log.state
    quit = after.quit
    for other, card in enumerate(after.laid):
        if card is None and not quit[other]:
            return  # someone still has to lay a card
    log.add(DrivingBegan(turn_order(after)))


def _check_turn(state: StateLike, command: Drive | Quit) -> None:
    if state.phase is not _DRIVING:
        message = f"players drive or quit in the driving step, not the {state.phase} step"
        refuse(Reason.WRONG_PHASE, message, rule="A9", command=command)
    to_act = state.order[state.turn]
    if command.seat != to_act:
        refuse(
            Reason.NOT_YOUR_TURN,
            f"it is seat {to_act}'s turn to drive",
            rule="A10",
            command=command,
        )


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


def investment_cost(state: StateLike, seat: int, steps: int) -> tuple[int, Reason | None]:
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
        refuse(Reason.WRONG_PHASE, message, rule="A22", command=command)
    if state.invested[seat]:
        message = f"seat {seat} has already invested or passed"
        refuse(Reason.ALREADY_INVESTED, message, rule="A22", command=command)
    if steps < 0:
        refuse(Reason.NEGATIVE_STEPS, f"cannot buy {steps} steps", rule="A22", command=command)
    cost, problem = investment_cost(state, seat, steps)
    start = state.island[seat]
    if problem is Reason.PAST_END_OF_PATH:
        message = f"{steps} steps from island space {start} go past the last space"
        refuse(problem, message, rule="A22", command=command)
    if problem is not None:
        message = f"{steps} steps from island space {start} enter a space with no price"
        refuse(problem, message, rule="A22", command=command)
    if cost > state.cash[seat]:
        message = f"{steps} steps cost {cost}, but seat {seat} has {state.cash[seat]}"
        refuse(Reason.CANNOT_AFFORD, message, rule="A22", command=command)
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
