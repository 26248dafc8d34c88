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
    assert line == "Tina drives 3 (card 5): bumps into Jack's car at 6 and goes on to 9."


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
