"""Bugs the hardening machines found, each pinned by the smallest example."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from avanti import CoreReason, IllegalCommand, InvalidBoard, autorama
from avanti.avanti.board import board_from_data
from avanti.avanti.deck import deck_from_data
from tests import toy


def autorama_until(found: Callable[[autorama.Game], bool]) -> autorama.Game:
    """A three-player Autorama game played by first legal commands until ``found``."""
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=0)
    while not found(game):
        game = game.execute(game.legal_commands()[0])
    return game


def refused_as_malformed(game: Any, command: object) -> None:
    with pytest.raises(IllegalCommand) as refused:
        game.execute(command)
    assert refused.value.reason is CoreReason.MALFORMED_COMMAND
    assert command not in game.legal_commands()  # `in` means "would be accepted"


@pytest.mark.parametrize("amount", [None, "3", 2.5, 1.0, True])
def test_autorama_refuses_a_bid_that_is_no_whole_number(amount: object) -> None:
    # Bid(0, None) raised TypeError; Bid(0, True) and Bid(0, 1.0) were accepted and logged as
    # BidPlaced(0, True), whose JSON ("amount": true) could not be read back (F1, F4).
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=0)
    assert autorama.Bid(0, 1) in game.legal_commands()
    refused_as_malformed(game, autorama.Bid(0, amount))  # type: ignore[arg-type]  # on purpose


def test_autorama_refuses_lookalike_fields_in_phases_2_and_3() -> None:
    buying = autorama_until(lambda g: bool(g.state.phase is autorama.Phase.BUYING))
    play = next(c for c in buying.legal_commands() if isinstance(c, autorama.PlayAdvisor))
    assert isinstance(play, autorama.PlayAdvisor)
    for bad in (
        autorama.PlayAdvisor(play.seat, float(play.advisor), play.boost),  # type: ignore[arg-type]
        autorama.PlayAdvisor(play.seat, play.advisor, int(play.boost)),  # type: ignore[arg-type]
    ):
        assert bad == play
        refused_as_malformed(buying, bad)
    selling = autorama_until(lambda g: bool(g.state.phase is autorama.Phase.SELLING))
    offer = next(c for c in selling.legal_commands() if isinstance(c, autorama.Offer))
    assert isinstance(offer, autorama.Offer)
    refused_as_malformed(selling, autorama.Offer(offer.seat, list(offer.vehicles)))  # type: ignore[arg-type]
    floats = tuple(float(v) for v in offer.vehicles)
    refused_as_malformed(selling, autorama.Offer(offer.seat, floats))  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [False, 0.0])
def test_the_toy_refuses_a_seat_that_is_no_whole_number(seat: object) -> None:
    # Roll(False) was logged as Rolled(False, ...), whose JSON could not be read back; Roll(0.0)
    # raised TypeError.
    game = toy.new_game(["Ann", "Bob"], seed=1)
    with pytest.raises(IllegalCommand) as refused:
        game.execute(toy.Roll(seat))  # type: ignore[arg-type]  # on purpose
    assert refused.value.reason is CoreReason.MALFORMED_COMMAND


@pytest.mark.parametrize(
    ("read", "data"),
    [
        (board_from_data, {"": None}),
        (deck_from_data, {"": None}),
        (deck_from_data, {"cards": [], "": 1}),
    ],
)
def test_an_empty_key_in_a_board_or_deck_file_is_named(
    read: Callable[[object], object], data: dict[str, Any]
) -> None:
    # The error had field "" and read " = None: unknown key; ...", naming no field at all.
    with pytest.raises(InvalidBoard) as refused:
        read(data)
    assert refused.value.field == '""'
    assert str(refused.value).startswith('"" = ')


@pytest.mark.parametrize("seat", [-1, -3, 3, 9])
def test_autorama_shows_a_seat_not_at_the_table_no_hand(seat: int) -> None:
    # view(-1) was the last seat's view, cash and hand included; view(3) raised IndexError.
    # Game.view now refuses such a seat; the ruleset's view still shows it no hand.
    game = autorama_until(lambda g: bool(g.state.phase is autorama.Phase.BUYING))
    view = game.rules.view(game.state, seat)
    assert view.cash is None
    assert view.advisors == view.vehicles == view.checks == ()
    assert view.seat == seat
    with pytest.raises(IllegalCommand) as refused:
        game.view(seat)
    assert refused.value.reason is CoreReason.NO_SUCH_SEAT


@pytest.mark.parametrize("seat", [-1, 2])
def test_the_toy_shows_a_seat_not_at_the_table_no_bonus(seat: int) -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    assert game.rules.view(game.state, seat).bonus is None
    with pytest.raises(IllegalCommand, match=f"there is no seat {seat}: the seats are 0 to 1"):
        game.view(seat)
