"""``legal_commands``: exactly the commands ``decide`` accepts now, for every seat.

Bots call this every step, so it reads the state directly instead of trying each command.
"""

from __future__ import annotations

from avanti.game.commands import Command, Drive, Invest, PlaceEventMarker, PlayCard, Quit
from avanti.game.state import GameState, Phase

__all__ = ["affordable_steps", "legal_commands"]


def legal_commands(state: GameState) -> tuple[Command, ...]:
    """Every command any seat may issue in ``state``; each executes, nothing else does.

    Marker step: each road space for the starting player (A7). Planning: each (card, number)
    pair of each seat still to lay a card (A8). Driving: ``Drive`` and ``Quit`` for the seat to
    act (A9). Investing: each affordable number of steps, 0 included, for each seat still to
    invest (A22). A finished game: nothing.
    """
    phase = state.phase
    if phase is Phase.PLANNING:
        numbers = state.table.numbers
        return tuple(
            PlayCard(seat, card, number)
            for seat in range(state.table.players)
            if not state.quit[seat] and state.laid[seat] is None
            for card in state.hands[seat]
            for number in numbers[card]
        )
    if phase is Phase.DRIVING:
        seat = state.order[state.turn]
        return (Drive(seat), Quit(seat))
    if phase is Phase.INVESTING:
        return tuple(
            Invest(seat, steps)
            for seat in range(state.table.players)
            if not state.invested[seat]
            for steps in range(affordable_steps(state, seat) + 1)
        )
    if phase is Phase.MARKER:
        seat = state.starting_seat
        return tuple(PlaceEventMarker(seat, space) for space in range(state.table.track_length))
    return ()


def affordable_steps(state: GameState, seat: int) -> int:
    """The most island steps ``seat`` can buy now (A22): priced spaces it can pay for in a row."""
    prices = state.table.prices
    last = state.table.island_length
    cash = state.cash[seat]
    at = state.island[seat]
    steps = 0
    while at + steps < last:
        price = prices[at + steps + 1]
        if price is None or price > cash:
            break
        cash -= price
        steps += 1
    return steps
