"""Scoring (F19) and winning (F20)."""

from __future__ import annotations

from avanti.autorama import Assignment, Offer, Phase, best_assignment
from avanti.autorama.scoring import score_seat
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play


def test_f19_score_is_checks_plus_cash_plus_bonuses() -> None:
    game = build(
        phase=Phase.SELLING,
        check_deck=(9, 4, 0),
        vehicles=((30,), (2,), (12,)),
        checks=((3,), (15,), ()),
        kept=((25,), (11,), ()),
        cash=(5, 1, 7),
    )
    game = play(game, Offer(ISAAC, (30,)), Offer(BECKY, (2,)), Offer(CHLOE, (12,)))
    result = game.outcome
    assert result is not None
    assert [s.total for s in result.scores] == [
        3 + 9 + 5 + 5,  # checks 3 and 9, cash 5, one Financial Advisor: +5
        15 + 11 + 1,  # checks 15 and 0 (the 0 counts 11 with Controller 11), cash 1
        4 + 7,  # check 4, cash 7
    ]
    assert result.winners == (BECKY,)


def test_f19_controller_only_where_it_raises_the_value() -> None:
    assert best_assignment((12, 15), (10,)) == ()
    assert best_assignment((12, 15, 9), (10, 11)) == (Assignment(11, 9, 11),)


def test_f19_each_advisor_on_a_different_check() -> None:
    assert best_assignment((0,), (10, 12)) == (Assignment(12, 0, 12),)
    assert best_assignment((5,), (22, 23)) == (Assignment(22, 5, 10),)


def test_f19_restoration_specialist_doubles_only_2_to_9() -> None:
    assert best_assignment((0, 10, 15), (22,)) == ()
    assert best_assignment((2, 9), (24,)) == (Assignment(24, 9, 18),)


def test_f19_best_assignment_mixes_controllers_and_restorers() -> None:
    # Controller 10 on the 8 (+2) and the Restoration Specialist on the 9 (+9) beats the
    # other way round (+1 and +8).
    assert best_assignment((8, 9), (10, 22)) == (Assignment(10, 8, 10), Assignment(22, 9, 18))
    score = score_seat(ISAAC, (8, 9), (10, 22), 0)
    assert score.check_total == 28


def test_f19_financial_advisors_multiply_cash() -> None:
    assert score_seat(ISAAC, (), (25,), 7).bonus == 7
    assert score_seat(ISAAC, (), (25, 26), 7).bonus == 14
    assert score_seat(ISAAC, (), (25, 26), 7).total == 21


def test_f20_tie_goes_to_most_cash() -> None:
    game = build(
        phase=Phase.SELLING,
        check_deck=(5, 3, 2),
        vehicles=((30,), (20,), (1,)),
        cash=(10, 12, 5),
    )
    game = play(game, Offer(ISAAC, (30,)), Offer(BECKY, (20,)), Offer(CHLOE, (1,)))
    result = game.outcome
    assert result is not None
    assert [s.total for s in result.scores] == [15, 15, 7]
    assert result.winners == (BECKY,)


def test_f20_still_tied_is_a_shared_victory() -> None:
    game = build(
        phase=Phase.SELLING,
        check_deck=(3, 3, 2),
        vehicles=((30,), (20,), (1,)),
        cash=(12, 12, 5),
    )
    game = play(game, Offer(ISAAC, (30,)), Offer(BECKY, (20,)), Offer(CHLOE, (1,)))
    result = game.outcome
    assert result is not None
    assert [s.total for s in result.scores] == [15, 15, 7]
    assert result.winners == (ISAAC, BECKY)
