"""``legal_commands``: exactly the commands ``decide`` accepts now, for every seat.

Bots call this every step, so it reads the state directly instead of trying each command, and
hands out the commands the game's table built once (DESIGN "Performance principles").
"""

from __future__ import annotations

from avanti.avanti.commands import Command
from avanti.avanti.state import GameState, Phase

__all__ = ["affordable_steps", "legal_commands"]

# Enum members read through their class cost a metaclass lookup; these are read every step.
_MARKER = Phase.MARKER
_PLANNING = Phase.PLANNING
_DRIVING = Phase.DRIVING
_INVESTING = Phase.INVESTING


def legal_commands(state: GameState) -> tuple[Command, ...]:
    """Every command any seat may issue in ``state``; each executes, nothing else does.

    Marker step: each road space for the starting player (A7). Planning: each (card, number)
    pair of each seat still to lay a card (A8). Driving: ``Drive`` and ``Quit`` for the seat to
    act (A9). Investing: each affordable number of steps, 0 included, for each seat still to
    invest (A22). A finished game: nothing.
    """
    phase = state.phase
    table = state.table
    commands: list[Command] = []
    if phase is _PLANNING:
        quit = state.quit
        laid = state.laid
        hands = state.hands
        for seat, plays in enumerate(table.plays):
            if not quit[seat] and laid[seat] is None:
                for card in hands[seat]:
                    commands += plays[card]
        return tuple(commands)
    if phase is _DRIVING:
        return table.turns[state.order[state.turn]]
    if phase is _INVESTING:
        invested = state.invested
        for seat, investments in enumerate(table.investments):
            if not invested[seat]:
                commands += investments[: affordable_steps(state, seat) + 1]
        return tuple(commands)
    if phase is _MARKER:
        return table.markers[state.starting_seat]
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
