"""The rulebook's illustrations, replayed with the rulebook's numbers.

The rulebook does not print the board positions behind its examples, and its board is not ours.
Each test builds a position on the default board, unchanged, that gives the rulebook's numbers;
the players are Jack, Isabella, Tina, Steve and William in seats 0-4.
"""

from __future__ import annotations

from typing import Any

import pytest

import avanti
from avanti import (
    DEFAULT_BOARD,
    AtmWithdrawn,
    BankPaid,
    BankPayment,
    CarMoved,
    Drive,
    FigureAdvanced,
    FigureRetreated,
    GameEnded,
    Invest,
    Phase,
    Reason,
    TollPaid,
)
from tests.avanti.support import (
    ISABELLA,
    JACK,
    STEVE,
    TINA,
    WILLIAM,
    drive_round,
    hands_for,
    lay,
    new_events,
    of_type,
    scenario_game,
)

# Illus. 3-7 and 9 are one first round of a five-player run with the marker on road space 31:
# Jack 3, Isabella 2, Tina 3, Steve 6, William 3.
FIRST_ROUND: dict[str, Any] = {
    "marker": 31,
    "distances": (0, 0, 0, 0, 0),
    "hands": hands_for((3, 1, 2), (2, 1, 3), (3, 1, 2), (6, 1, 2), (3, 1, 2)),
}


def first_round_moves() -> tuple[avanti.Game, list[CarMoved]]:
    game = scenario_game(**FIRST_ROUND)
    game = lay(game, (JACK, 3), (ISABELLA, 2), (TINA, 3), (STEVE, 6), (WILLIAM, 3))
    after = drive_round(game)
    return after, of_type(new_events(game, after), CarMoved)


def test_illus_3_jack_drives_3_and_isabella_2() -> None:
    """Illus. 3: in the first round Jack moves 3 spaces ahead, Isabella 2."""
    _, moves = first_round_moves()
    assert (moves[0].seat, moves[0].hops) == (JACK, (3,))
    assert (moves[1].seat, moves[1].hops) == (ISABELLA, (2,))


def test_illus_4_tina_meets_jack_and_drives_another_3() -> None:
    """Illus. 4: Tina moves 3, finds Jack's car there and drives 3 more."""
    game, moves = first_round_moves()
    assert (moves[2].seat, moves[2].hops, moves[2].bumped) == (TINA, (3, 6), (JACK,))
    line = avanti.describe(moves[2], game.setup)
    assert line.endswith("bumps into Jack's car at 3 and goes on to 6.")


def test_illus_5_steve_plays_6_meets_tina_and_goes_in_front() -> None:
    """Illus. 5: Steve plays the 6, meets Tina and goes on 6 more, to the front."""
    _, moves = first_round_moves()
    assert (moves[3].seat, moves[3].number, moves[3].hops, moves[3].bumped) == (
        STEVE,
        6,
        (6, 12),
        (TINA,),
    )


def test_illus_6_william_meets_jack_then_tina_and_stops_3_behind_steve() -> None:
    """Illus. 6: William's 3 meets Jack, then Tina, and ends 3 spaces behind Steve."""
    game, moves = first_round_moves()
    assert (moves[4].seat, moves[4].hops, moves[4].bumped) == (WILLIAM, (3, 6, 9), (JACK, TINA))
    assert game.state.distances[STEVE] - game.state.distances[WILLIAM] == 3


def test_illus_7_steve_leads_and_collects_1000_100_300_tina_on_a_lot_pays_nothing() -> None:
    """Illus. 7: Steve leads; William pays 1,000, Jack 100, Isabella 300; Tina is parked.

    With the marker on space 31: William stands on space 6 (toll 1,000), Jack on 0 (100),
    Isabella on 33 (300) and Tina on the parking lot at 3. Payments go clockwise from Steve.
    """
    game, _ = first_round_moves()
    paid = of_type(game.events, TollPaid)
    assert [(t.payer, t.payee, t.amount) for t in paid] == [
        (WILLIAM, STEVE, 1000),
        (JACK, STEVE, 100),
        (ISABELLA, STEVE, 300),
    ]
    assert game.state.cash == (4900, 4700, 5000, 6400, 4000)


def test_illus_9_last_car_isabella_acts_first_then_clockwise() -> None:
    """Illus. 9: in the next round Isabella, whose car is last, acts first; Tina follows."""
    game, _ = first_round_moves()
    assert game.state.phase is Phase.PLANNING
    game = lay(game, (JACK, 1), (ISABELLA, 1), (TINA, 1), (STEVE, 1), (WILLIAM, 1))
    assert game.state.order == (ISABELLA, TINA, STEVE, WILLIAM, JACK)


def test_illus_8_steve_owes_1000_has_300_retreats_for_500_bank_pays_200() -> None:
    """Illus. 8: Steve owes Isabella 1,000 with 300 in hand.

    He steps back off island space 1 (price 1,000) for 500, pays all his 800, and the bank pays
    Isabella the last 200. Marker on 31; Steve stands on space 6 (toll 1,000), everyone else on
    a parking lot; Isabella drives last, from 25 (space 22) to 30 (space 27), into the lead.
    """
    game = scenario_game(
        marker=31,
        distances=(6, 25, 10, 9, 15),
        hands=hands_for((1,), (1,), (1,), (1,), (1,)),
        cash=(5000, 5000, 5000, 300, 5000),
        island=(0, 0, 0, 1, 0),
        phase=Phase.DRIVING,
        laid=(None, (12, 5), None, None, None),
        to_act=(ISABELLA,),
        round=2,
    )
    after = game.execute(Drive(ISABELLA))
    events = new_events(game, after)
    money = [e for e in events if isinstance(e, TollPaid | BankPaid | FigureRetreated)]
    assert money == [
        FigureRetreated(STEVE, 1, 0),
        BankPaid(STEVE, 500, BankPayment.RETREAT, None),
        TollPaid(STEVE, ISABELLA, 800),
        BankPaid(ISABELLA, 200, BankPayment.SHORTFALL, STEVE),
    ]
    assert after.state.cash[STEVE] == 0
    assert after.state.cash[ISABELLA] == 6000
    assert after.state.island[STEVE] == 0


# Illus. 11-13 are one position: the last round of a run, then its standings and its ATMs.
# Marker on road space 22 (a parking lot). Isabella has quit on the lot at space 3 (15 out) and
# Steve on space 18 (30 out, toll 300). Tina (28 out, space 16), Jack (29, space 17) and William
# (31, space 19) still drive: Tina plays a 3, William a 3, Jack a 1.
END_OF_RUN: dict[str, Any] = {
    "marker": 22,
    "distances": (29, 15, 28, 30, 31),
    "hands": ((), (), (), (), ()),
    "quit": (False, True, False, True, False),
    "laid": ((0, 1), None, (18, 3), None, (19, 3)),
    "phase": Phase.DRIVING,
    "round": 5,
}


def end_of_run() -> tuple[avanti.Game, tuple[avanti.Event, ...]]:
    """The last round of Illus. 11, played: the game after it and the events of the round."""
    game = scenario_game(**END_OF_RUN)
    after = drive_round(game)
    return after, new_events(game, after)


def test_illus_11_tina_reaches_the_marker_william_passes_jack_uses_steves_car() -> None:
    """Illus. 11: Tina reaches the marker, William passes her, Jack hops over parked Steve.

    Tina (last car, so first to act) drives 3 to 31, meets William and goes on to 34: the
    marker. William drives 3 to 34, meets Tina and goes on to 37 (space 25), into the lead. Jack
    drives 1 to 30, meets Steve's parked car and goes on to 31 (space 19): third place. William
    collects 100 from Jack (space 19) and 300 from Steve (space 18); Isabella (space 3) and Tina
    (space 22) stand on lots. The run ends because a car reached the marker (A18).
    """
    game = scenario_game(**END_OF_RUN)
    assert game.state.order == (TINA, WILLIAM, JACK)
    _, events = end_of_run()
    moves = [(m.seat, m.hops, m.bumped) for m in of_type(events, CarMoved)]
    assert moves == [
        (TINA, (31, 34), (WILLIAM,)),
        (WILLIAM, (34, 37), (TINA,)),
        (JACK, (30, 31), (STEVE,)),
    ]
    paid = [(t.payer, t.payee, t.amount) for t in of_type(events, TollPaid)]
    assert paid == [(JACK, WILLIAM, 100), (STEVE, WILLIAM, 300)]
    ended = of_type(events, avanti.RunEnded)
    assert ended == [avanti.RunEnded(1, (WILLIAM, TINA, JACK, STEVE, ISABELLA))]


def test_illus_12_william_3_tina_2_jack_1_on_the_island() -> None:
    """Illus. 12: after that run William moves 3 island spaces, Tina 2 and Jack 1."""
    _, events = end_of_run()
    assert of_type(events, FigureAdvanced) == [
        FigureAdvanced(WILLIAM, 1, 0, 3),
        FigureAdvanced(TINA, 2, 0, 2),
        FigureAdvanced(JACK, 3, 0, 1),
    ]


def test_illus_13_atms_tina_400_steve_1100_isabella_300_500_200() -> None:
    """Illus. 13: William and Jack withdraw nothing, Tina 400, Steve 1,100, Isabella 300+500+200.

    The run of Illus. 11 has ended; on the default board, unchanged, the cars stand on road
    spaces 3 (Isabella, last), 18 (Steve), 19 (Jack), 22 (Tina) and 25 (William, the leader).
    Each lot pays the first car at or ahead of it (A21): Tina takes the 400 lot she stands on;
    William (23-25) and Jack (19) have no lot on their stretch; Steve takes the lots at 7, 12
    and 17 (400 + 500 + 200); Isabella, the last car, takes the lots at 26 and 31 past the leader
    and the one she stands on at 3: "300", "500" and "200". That is every lot: 2,500 in all.
    """
    _, events = end_of_run()
    atms = [(a.seat, a.space, a.amount) for a in of_type(events, AtmWithdrawn)]
    assert atms == [
        (ISABELLA, 3, 200),
        (STEVE, 7, 400),
        (STEVE, 12, 500),
        (STEVE, 17, 200),
        (TINA, 22, 400),
        (ISABELLA, 26, 300),
        (ISABELLA, 31, 500),
    ]
    totals = {seat: sum(a for s, _, a in atms if s == seat) for seat in range(5)}
    assert totals == {JACK: 0, ISABELLA: 1000, TINA: 400, STEVE: 1100, WILLIAM: 0}
    isabella = sorted((space - 25) % 34 for seat, space, _ in atms if seat == ISABELLA)
    assert [DEFAULT_BOARD.track[(25 + k) % 34].amount for k in isabella] == [300, 500, 200]


def investing_game() -> avanti.Game:
    return scenario_game(
        marker=0,
        distances=(3, 2, 6, 12, 9),
        hands=((), (), (), (), ()),
        phase=Phase.INVESTING,
        ranking=(STEVE, WILLIAM, TINA, JACK, ISABELLA),
        island=(0, 0, 0, 8, 0),
    )


def test_illus_14_unpriced_spaces_cannot_be_bought() -> None:
    """Illus. 14: a space with no price cannot be reached with money (space 9 on our board)."""
    game = investing_game()
    with pytest.raises(avanti.IllegalCommand) as error:
        game.execute(Invest(STEVE, 1))
    assert error.value.reason is Reason.UNPRICED_SPACE
    assert error.value.rule == "A22"


def test_illus_15_tina_pays_1000_then_2000_for_two_spaces() -> None:
    """Illus. 15: Tina moves two island spaces, paying 1,000 for the first, 2,000 for the next."""
    game = investing_game()
    after = game.execute(Invest(TINA, 2))
    assert new_events(game, after) == (avanti.Invested(TINA, 2, 3000, 0, 2),)
    assert after.state.cash[TINA] == 2000
    assert after.state.island[TINA] == 2


def test_illus_16_isabella_and_steve_reach_the_dream_island_steve_further_wins() -> None:
    """Illus. 16: Isabella and Steve reach the dream island in the same run; Steve is further.

    Steve (island 9) wins the run and moves 3 to space 12; Isabella (island 8) comes second and
    moves 2 to space 10. Both stand on the dream island (10-12); Steve is further ahead and wins
    (A20), and nobody withdraws money.
    """
    game = scenario_game(
        marker=0,
        distances=(3, 20, 6, 30, 9),
        hands=((), (), (), (), ()),
        island=(0, 8, 0, 9, 0),
        laid=(None, None, None, (0, 1), None),
        phase=Phase.DRIVING,
        round=4,
    )
    after = game.execute(Drive(STEVE))
    events = new_events(game, after)
    assert of_type(events, FigureAdvanced)[:2] == [
        FigureAdvanced(STEVE, 1, 9, 12),
        FigureAdvanced(ISABELLA, 2, 8, 10),
    ]
    assert of_type(events, GameEnded)[0].winner == STEVE
    assert after.outcome is not None
    assert after.outcome.winner == STEVE
    assert not of_type(events, AtmWithdrawn)
