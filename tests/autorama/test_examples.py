"""The rulebook's worked examples, built with the scenario builder, with the rulebook's numbers."""

from __future__ import annotations

from avanti.autorama import (
    AdvisorHired,
    Assignment,
    Bid,
    BonusReceived,
    Game,
    MechanicUsed,
    Offer,
    Pass,
    Phase,
    PlayAdvisor,
    UseMechanic,
    VehicleBought,
    VehicleSold,
)
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play


def test_example_phase_one_auction_isaac_becky_chloe() -> None:
    """Isaac bids 3, Becky 4; Chloe passes for the Mechanic, Isaac passes for the Controller
    taking 1 back, and Becky pays her whole 4 for the Fleet Manager."""
    game = build(advisor_deck=(8, 11, 15), vehicle_deck=(1, 2, 3), check_deck=(0, 2, 3))
    game = play(game, Bid(ISAAC, 3), Bid(BECKY, 4), Pass(CHLOE), Pass(ISAAC))
    hired = [e for e in game.events if isinstance(e, AdvisorHired)]
    assert hired == [
        AdvisorHired(CHLOE, 8, 0, 0),  # Mechanic, for nothing
        AdvisorHired(ISAAC, 11, 3, 2),  # Controller; 1 of his 3 comes back
        AdvisorHired(BECKY, 15, 4, 4),  # Fleet Manager, the full 4
    ]
    assert game.state.cash == (26, 24, 28)


def test_example_phase_two_fleet_manager_raised_to_33() -> None:
    """Chloe reveals 9, 12 and 30 and plays General Manager 29; Isaac plays Lawyer 21; Becky
    plays Fleet Manager 15 and pays 3 to make it 33."""
    game = build(
        phase=Phase.BUYING,
        first=CHLOE,
        vehicle_deck=(9, 12, 30),
        check_deck=(0, 2, 3),
        advisors=((21,), (15,), (29,)),
    )
    game = play(
        game,
        PlayAdvisor(CHLOE, 29),
        PlayAdvisor(ISAAC, 21),
        PlayAdvisor(BECKY, 15, boost=True),
    )
    assert [e for e in game.events if isinstance(e, VehicleBought)] == [
        VehicleBought(BECKY, 30, 15),
        VehicleBought(CHLOE, 12, 29),
        VehicleBought(ISAAC, 9, 21),
    ]
    assert BonusReceived(CHLOE, 29, 4) in game.events
    assert game.state.cash == (28, 25, 32)
    assert game.state.kept[ISAAC] == (21,)  # the Lawyer stays for phase 3


def test_example_phase_three_mechanic() -> None:
    """Checks 13, 7 and 0; Becky offers 15, Isaac 23, Chloe 14 and uses a Mechanic."""
    game = build(
        phase=Phase.SELLING,
        check_deck=(13, 7, 0),
        vehicles=((23,), (15,), (14,)),
        kept=((), (), (7, 8)),
    )
    game = play(game, Offer(CHLOE, (14,)), Offer(ISAAC, (23,)), Offer(BECKY, (15,)))
    game = play(game, UseMechanic(CHLOE))
    assert MechanicUsed(CHLOE, 7) in game.events
    assert [e for e in game.events if isinstance(e, VehicleSold)] == [
        VehicleSold(ISAAC, 23, 13),
        VehicleSold(BECKY, 15, 0),
        VehicleSold(CHLOE, 14, 7),
    ]
    assert game.state.kept[CHLOE] == (8,)


def test_example_mechanic_advisor_card() -> None:
    """Checks 15, 10 and 4; your 6 against 25 and 27: the Mechanic gets you the 10, and the 25
    gets the 4."""
    game = build(
        phase=Phase.SELLING,
        check_deck=(15, 10, 4),
        vehicles=((6,), (25,), (27,)),
        kept=((9,), (), ()),
    )
    game = play(game, Offer(ISAAC, (6,)), Offer(BECKY, (25,)), Offer(CHLOE, (27,)))
    game = play(game, UseMechanic(ISAAC))
    assert game.state.checks == ((10,), (4,), (15,))


def final_round() -> Game:
    """The last round of a game: Becky's 30 takes the 12, Isaac's 20 the 10, Chloe's 1 the 2.

    Isaac then holds checks 0, 5, 7, 10 and Controllers 10 and 12; Becky checks 0, 2, 8, 12 and
    two Restoration Specialists; Chloe all three Financial Advisors and 2 in cash.
    """
    game = build(
        phase=Phase.SELLING,
        check_deck=(12, 10, 2),
        vehicles=((20,), (30,), (1,)),
        checks=((0, 5, 7), (0, 2, 8), ()),
        kept=((10, 12), (22, 23), (25, 26, 27)),
        cash=(0, 0, 2),
    )
    return play(game, Offer(ISAAC, (20,)), Offer(BECKY, (30,)), Offer(CHLOE, (1,)))


def test_example_controller_scoring() -> None:
    """Checks 0, 5, 7, 10 and Controllers 10 and 12: the 0 counts 10 and the 5 counts 12."""
    result = final_round().outcome
    assert result is not None
    isaac = result.scores[ISAAC]
    assert isaac.checks == (0, 5, 7, 10)
    assert isaac.assignments == (Assignment(10, 0, 10), Assignment(12, 5, 12))
    assert isaac.check_total == 10 + 12 + 7 + 10


def test_example_restoration_specialist_scoring() -> None:
    """Checks 0, 2, 8, 12 and two Restoration Specialists: the 2 counts 4 and the 8 counts 16."""
    result = final_round().outcome
    assert result is not None
    becky = result.scores[BECKY]
    assert becky.checks == (0, 2, 8, 12)
    assert becky.assignments == (Assignment(22, 2, 4), Assignment(23, 8, 16))
    assert becky.check_total == 0 + 4 + 16 + 12


def test_example_financial_advisor_bonus() -> None:
    """2 in cash and all three Financial Advisors: a bonus of 6 besides the 2."""
    result = final_round().outcome
    assert result is not None
    chloe = result.scores[CHLOE]
    assert chloe.cash == 2
    assert chloe.bonus == 6
    assert chloe.total == 2 + 2 + 6  # her check of 2, her cash, the bonus
