"""Phase 2, buying vehicles (F9-F13), with the Fleet Manager, Sales Director and GM."""

from __future__ import annotations

import pytest

from avanti.autorama import (
    AdvisorPlayed,
    BonusReceived,
    ChecksRevealed,
    Game,
    Offer,
    Phase,
    PlayAdvisor,
    Reason,
    VehicleBought,
    VehiclesRevealed,
)
from avanti.core import CoreReason
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play, refused


def market(
    vehicles: tuple[int, ...],
    advisors: tuple[tuple[int, ...], ...],
    *,
    first: int = ISAAC,
    cash: tuple[int, ...] = (),
) -> Game:
    """Phase 2 with the given vehicle deck (top first) and advisors in hand."""
    return build(
        phase=Phase.BUYING,
        first=first,
        vehicle_deck=vehicles,
        check_deck=(0, 0, 2, 2, 3, 3, 4, 4, 5)[: len(vehicles)],
        advisors=advisors,
        cash=cash,
    )


def test_f9_advisors_are_played_clockwise_from_the_start_player() -> None:
    game = market((3, 9, 27), ((5,), (20,), (12,)), first=BECKY)
    assert game.events[-1] == VehiclesRevealed(1, BECKY, (3, 9, 27))
    refused(game, PlayAdvisor(ISAAC, 5), CoreReason.NOT_YOUR_TURN, "F9")
    game = play(game, PlayAdvisor(BECKY, 20))
    assert game.state.turn == CHLOE
    assert game.view(ISAAC).played == (None, 20, None)  # played face up


def test_f9_only_an_advisor_in_hand_can_be_played() -> None:
    game = market((3, 9, 27), ((5,), (20,), (12,)))
    refused(game, PlayAdvisor(ISAAC, 20), Reason.ADVISOR_NOT_IN_HAND, "F9")
    refused(game, Offer(ISAAC, (3,)), CoreReason.WRONG_PHASE, "F14")


def test_f10_fleet_manager_boost_pays_three_and_counts_as_31_to_33() -> None:
    game = market((3, 9, 27), ((13,), (29,), (12,)))
    game = play(game, PlayAdvisor(ISAAC, 13, boost=True))
    assert game.state.cash[ISAAC] == 25
    game = play(game, PlayAdvisor(BECKY, 29), PlayAdvisor(CHLOE, 12))
    assert game.state.vehicles == ((27,), (9,), (3,))  # 31 beats the General Manager's 29


def test_f10_fleet_manager_boost_needs_three_in_cash() -> None:
    game = market((3, 9, 27), ((13,), (29,), (12,)), cash=(2, 28, 28))
    refused(game, PlayAdvisor(ISAAC, 13, boost=True), Reason.BOOST_UNAFFORDABLE, "F10")
    assert PlayAdvisor(ISAAC, 13) in game.legal_commands()


def test_f10_only_a_fleet_manager_can_be_boosted() -> None:
    game = market((3, 9, 27), ((12,), (29,), (13,)))
    refused(game, PlayAdvisor(ISAAC, 12, boost=True), Reason.NOT_A_FLEET_MANAGER, "F10")


def test_f11_highest_advisor_takes_highest_vehicle() -> None:
    game = play(
        market((9, 27, 3), ((5,), (20,), (12,))),
        PlayAdvisor(ISAAC, 5),
        PlayAdvisor(BECKY, 20),
        PlayAdvisor(CHLOE, 12),
    )
    bought = [e for e in game.events if isinstance(e, VehicleBought)]
    assert bought == [
        VehicleBought(BECKY, 27, 20),
        VehicleBought(CHLOE, 9, 12),
        VehicleBought(ISAAC, 3, 5),
    ]


@pytest.mark.parametrize(
    ("director", "vehicle", "bonus"), [(16, 16, 3), (17, 17, 3), (18, 30, 3), (17, 16, 0)]
)
def test_f11_sales_director_gains_three_on_a_vehicle_of_its_number(
    director: int, vehicle: int, bonus: int
) -> None:
    game = market((1, 2, vehicle), ((director,), (4,), (5,)))
    game = play(game, PlayAdvisor(ISAAC, director), PlayAdvisor(BECKY, 4), PlayAdvisor(CHLOE, 5))
    assert game.state.vehicles[ISAAC] == (vehicle,)
    assert game.state.cash[ISAAC] == 28 + bonus
    paid = BonusReceived(ISAAC, director, 3) in game.events
    assert paid == (bonus == 3)


def test_f11_general_manager_gains_four_when_it_misses_the_highest_vehicle() -> None:
    game = market((5, 10, 20), ((28,), (15,), (4,)))
    game = play(
        game, PlayAdvisor(ISAAC, 28), PlayAdvisor(BECKY, 15, boost=True), PlayAdvisor(CHLOE, 4)
    )
    assert game.state.vehicles[ISAAC] == (10,)
    assert BonusReceived(ISAAC, 28, 4) in game.events
    assert game.state.cash == (32, 25, 28)
    game = market((5, 10, 20), ((30,), (15,), (4,)))
    game = play(game, PlayAdvisor(ISAAC, 30), PlayAdvisor(BECKY, 15), PlayAdvisor(CHLOE, 4))
    assert game.state.vehicles[ISAAC] == (20,)
    assert game.state.cash == (28, 28, 28)


@pytest.mark.parametrize(
    ("advisors", "kept"),
    [
        ((8, 14, 20), ((8,), (), (20,))),  # Mechanic and Lawyer stay for phase 3
        ((11, 23, 26), ((11,), (23,), (26,))),  # Controller, Restoration, Financial: scoring
        ((1, 5, 17), ((), (), ())),  # Sales Associate, Consultant, Sales Director: spent
    ],
)
def test_f12_played_advisors_are_kept_or_spent_by_kind(
    advisors: tuple[int, ...], kept: tuple[tuple[int, ...], ...]
) -> None:
    a, b, c = advisors
    game = market((1, 2, 3), ((a,), (b,), (c,)))
    game = play(game, PlayAdvisor(ISAAC, a), PlayAdvisor(BECKY, b), PlayAdvisor(CHLOE, c))
    assert game.state.kept == kept
    assert game.state.spent == tuple(x for x in advisors if (x,) not in kept)
    assert game.view(None).kept == kept  # kept face up, for all to see


def test_f13_the_buyer_of_the_highest_vehicle_starts_the_next_round() -> None:
    game = market((3, 9, 27, 1, 2, 4), ((5, 6), (20, 21), (12, 13)))
    game = play(game, PlayAdvisor(ISAAC, 5), PlayAdvisor(BECKY, 20), PlayAdvisor(CHLOE, 12))
    assert game.events[-1] == VehiclesRevealed(2, BECKY, (1, 2, 4))
    assert game.state.turn == BECKY
    game = play(game, PlayAdvisor(BECKY, 21), PlayAdvisor(CHLOE, 13), PlayAdvisor(ISAAC, 6))
    assert game.events[-1] == ChecksRevealed(1, (0, 0, 2))
    assert game.state.phase is Phase.SELLING
    assert AdvisorPlayed(ISAAC, 6, False) in game.events
