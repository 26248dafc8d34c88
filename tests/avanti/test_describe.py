"""``describe``: one plain English line per event, for transcripts."""

from __future__ import annotations

import pytest

import avanti
from avanti import (
    AtmWithdrawn,
    BankPaid,
    BankPayment,
    CarMoved,
    EventMarkerPlaced,
    Invested,
    PlayerQuit,
    QuitReason,
    Setup,
    TollPaid,
    describe,
)
from tests.avanti.support import NAMES, play_randomly

SETUP = Setup(NAMES)


def test_a_leapfrog_reads_like_the_rulebook() -> None:
    line = describe(CarMoved(2, 5, 3, 3, (6, 9), (0,)), Setup(("Jack", "Isabella", "Tina")))
    assert line == (
        "Tina drives 3 (card 5) from 3 past the event marker: "
        "bumps into Jack's car at 6 and goes on to 9."
    )


def test_a_move_names_the_road_spaces_of_the_board_once_the_marker_is_known() -> None:
    """A4, A12: the marker on road space 10; 3 driven is road space 13, 12 driven is 22."""
    setup = Setup(("Jack", "Isabella", "Tina"))
    assert describe(CarMoved(1, 25, 3, 9, (12,), ()), setup, marker=10) == (
        "Isabella drives 3 (card 25) from space 19 to space 22, 12 spaces this run."
    )
    # 34 road spaces: a car 30 past a marker on space 10 stands on space 6 (40 mod 34).
    assert describe(CarMoved(0, 22, 7, 23, (30,), ()), setup, marker=10) == (
        "Jack drives 7 (card 22) from space 33 to space 6, 30 spaces this run."
    )
    assert describe(CarMoved(2, 5, 3, 3, (6, 9), (0,)), setup, marker=10, seat=2) == (
        "You drive 3 (card 5) from space 13: bump into Jack's car on space 16 and go on to "
        "space 19, 9 spaces this run."
    )


def test_narrate_follows_the_marker_through_a_game() -> None:
    """A7, A25: every car move of a whole game names the road space the view shows it on."""
    game = play_randomly(3, 21)
    lines = avanti.narrate(game.events, game.setup)
    moves = [i for i, event in enumerate(game.events) if isinstance(event, CarMoved)]
    assert moves
    assert all(" space " in lines[i] and "this run" in lines[i] for i in moves)
    # The line of the last move names where the car stands, counted from the last marker.
    last = game.events[moves[-1]]
    assert isinstance(last, CarMoved)
    marker = [e for e in game.events[: moves[-1]] if isinstance(e, EventMarkerPlaced)][-1].space
    space = (marker + last.hops[-1]) % len(game.setup.board.track)
    assert f"to space {space}, {last.hops[-1]} spaces this run." in lines[moves[-1]]
    assert avanti.narrate(game.events, game.setup, after=len(lines) - 2) == tuple(lines[-2:])


def test_the_viewing_seat_reads_its_own_deeds_in_the_second_person() -> None:
    public = avanti.public_setup(SETUP)
    assert describe(avanti.CardDrawn(3, 7), public, seat=3) == "You draw card 7."
    assert describe(avanti.CardDrawn(3, 7), public, seat=1) == "Steve draws card 7."
    assert describe(avanti.CardsDealt(1, 3, (4, 5, 6)), public, seat=1) == (
        "You are dealt cards 4, 5, 6."
    )
    assert describe(TollPaid(3, 1, 800), public, seat=1) == "Steve pays 800 to you."
    assert describe(TollPaid(3, 1, 800), public, seat=3) == "You pay 800 to Isabella."
    assert describe(Invested(2, 0, 0, 0, 0), public, seat=2) == "You do not invest."
    assert describe(PlayerQuit(4, QuitReason.OUT_OF_CARDS), public, seat=4) == (
        "You have no cards left and quit this run."
    )


def test_money_lines() -> None:
    assert describe(TollPaid(3, 1, 800), SETUP) == "Steve pays 800 to Isabella."
    assert (
        describe(BankPaid(1, 200, BankPayment.SHORTFALL, 3), SETUP)
        == "The bank pays Isabella the last 200 Steve owes."
    )
    assert (
        describe(BankPaid(3, 500, BankPayment.RETREAT, None), SETUP) == "The bank pays Steve 500."
    )
    assert (
        describe(AtmWithdrawn(2, 22, 400), SETUP)
        == "Tina withdraws 400 at the ATM on road space 22."
    )
    assert describe(Invested(2, 0, 0, 0, 0), SETUP) == "Tina does not invest."
    assert describe(Invested(2, 2, 3000, 0, 2), SETUP) == (
        "Tina pays 3,000 to the bank and moves on the island from space 0 to 2."
    )


def test_island_lines() -> None:
    assert describe(avanti.FigureRetreated(3, 1, 0), SETUP) == (
        "Steve steps back on the island from space 1 to 0."
    )
    assert describe(avanti.CardDrawn(3, None), SETUP) == "Steve draws a card."
    assert describe(avanti.CardDrawn(3, 7), SETUP) == "Steve draws card 7."


def test_other_lines() -> None:
    assert describe(EventMarkerPlaced(None, 7), SETUP).startswith("The event marker goes")
    assert describe(PlayerQuit(4, QuitReason.OUT_OF_CARDS), SETUP) == (
        "William has no cards left and quits this run."
    )


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (4, 5), (5, 8)])
def test_every_event_of_a_whole_game_and_its_redacted_streams_have_a_line(
    players: int, seed: int
) -> None:
    game = play_randomly(players, seed)
    lines = [describe(event, game.setup) for event in game.events]
    assert lines[-1].startswith("The game ends:")
    for seat in (None, 1):
        lines += [describe(event, game.setup) for event in game.events_for(seat)]
    assert all(line.endswith(".") for line in lines)
    assert not [line for line in lines if "None" in line]


def test_a_move_without_its_marker_says_how_far_past_the_marker() -> None:
    assert describe(CarMoved(0, 22, 7, 0, (7,), ()), SETUP) == (
        "Jack drives 7 (card 22) from 0 to 7 past the event marker."
    )
