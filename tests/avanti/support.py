"""Helpers for the Avanti tests: scenario games, card lookups and command drivers."""

from __future__ import annotations

import random
from typing import Any

import avanti
from avanti import DEFAULT_DECK, Drive, Game, PlayCard, Scenario

NAMES = ("Jack", "Isabella", "Tina", "Steve", "William")
"""The rulebook's players, seated in the order its illustrations suggest (Illus. 9)."""

JACK, ISABELLA, TINA, STEVE, WILLIAM = range(5)


def cards_with(number: int, *, exclude: tuple[int, ...] = ()) -> list[int]:
    """The ids of default-deck cards printing ``number``, lowest first, minus ``exclude``."""
    return [c.id for c in DEFAULT_DECK.cards if number in c.numbers and c.id not in exclude]


def hands_for(*numbers: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Hands of distinct default-deck cards: the i-th card printing the i-th wanted number."""
    used: list[int] = []
    hands = []
    for wanted in numbers:
        hand = []
        for number in wanted:
            card = cards_with(number, exclude=tuple(used))[0]
            used.append(card)
            hand.append(card)
        hands.append(tuple(hand))
    return tuple(hands)


def scenario_game(
    players: int = 5, *, starting_seat: int = 0, seed: int = 1, **fields: Any
) -> Game:
    """A game of the rulebook's first ``players`` names started from a scenario."""
    return avanti.new_game(
        NAMES[:players], seed, starting_seat=starting_seat, scenario=Scenario(**fields)
    )


MAX_COMMANDS = 3000
"""A bound no random game comes near (they take about 70 commands on average)."""


def play_randomly(players: int, seed: int, commands: int = MAX_COMMANDS) -> Game:
    """A game of ``players`` after up to ``commands`` uniform choices from the legal commands.

    Both the deal and the choices follow ``seed``. With the default bound the game must end.
    """
    game = avanti.new_game(NAMES[:players], seed)
    rnd = random.Random(seed)
    for _ in range(commands):
        if game.is_over:
            return game
        game = game.execute(rnd.choice(game.legal_commands()))
    assert commands < MAX_COMMANDS or game.is_over, "a random game did not end"
    return game


def lay(game: Game, *plays: tuple[int, int]) -> Game:
    """Each ``(seat, number)`` lays that seat's first hand card that prints the number (A8)."""
    for seat, number in plays:
        card = next(c for c in game.state.hands[seat] if number in DEFAULT_DECK.cards[c].numbers)
        game = game.execute(PlayCard(seat, card, number))
    return game


def drive_round(game: Game) -> Game:
    """Every seat in the driving order drives (A9)."""
    for _ in range(len(game.state.order) - game.state.turn):
        seat = game.state.to_act()
        assert seat is not None
        game = game.execute(Drive(seat))
    return game


def new_events(before: Game, after: Game) -> tuple[avanti.Event, ...]:
    """The events ``after`` added to ``before``'s log."""
    assert after.events[: before.version] == before.events
    return after.events[before.version :]


def of_type(events: tuple[avanti.Event, ...], kind: type) -> list[Any]:
    """The events of one class, in order."""
    return [event for event in events if type(event) is kind]
