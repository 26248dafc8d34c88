"""Phase 1, hiring advisors (F4-F8), with the Sales Associate and the Consultant."""

from __future__ import annotations

from avanti.autorama import (
    AdvisorHired,
    AdvisorsRevealed,
    Bid,
    ConsultantPaid,
    Game,
    Options,
    Pass,
    Phase,
    PlayAdvisor,
    Reason,
    VehiclesRevealed,
)
from avanti.core import CoreReason
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play, refused


def auction(
    advisors: tuple[int, ...],
    *,
    first: int = ISAAC,
    cash: tuple[int, ...] = (),
    options: Options = Options(),  # noqa: B008  Options is frozen
) -> Game:
    """Phase 1 with the given advisor deck (whole rounds of three), then as many vehicles."""
    rounds = len(advisors) // 3
    return build(
        first=first,
        advisor_deck=advisors,
        vehicle_deck=tuple(range(1, 3 * rounds + 1)),
        check_deck=(0, 0, 2, 2, 3, 3, 4, 4, 5)[: 3 * rounds],
        cash=cash,
        options=options,
    )


def test_f4_bids_go_clockwise_from_the_start_player_and_must_rise() -> None:
    game = auction((8, 11, 15), first=BECKY)
    assert game.state.turn == BECKY
    game = play(game, Bid(BECKY, 0))  # a first bid may be 0
    assert game.state.turn == CHLOE
    refused(game, Bid(CHLOE, 0), Reason.BID_TOO_LOW, "F4")
    game = play(game, Bid(CHLOE, 5))
    assert game.state.turn == ISAAC
    refused(game, Bid(ISAAC, 5), Reason.BID_TOO_LOW, "F4")
    refused(game, Bid(BECKY, 6), CoreReason.NOT_YOUR_TURN, "F4")
    game = play(game, Bid(ISAAC, 6))
    assert game.state.bids == (6, 0, 5)


def test_f4_the_start_player_may_pass_before_anyone_bids() -> None:
    """Our reading: the start player bids or passes like everyone else (open point, F4)."""
    game = auction((8, 11, 15))
    assert Pass(ISAAC) in game.legal_commands()
    game = play(game, Pass(ISAAC))
    assert AdvisorHired(ISAAC, 8, 0, 0) in game.events  # the lowest advisor, free
    assert game.state.turn == BECKY


def test_f4_a_bid_is_a_total_at_most_your_cash() -> None:
    game = auction((8, 11, 15), cash=(28, 10, 28))
    game = play(game, Bid(ISAAC, 4))
    refused(game, Bid(BECKY, 11), Reason.BID_OVER_CASH, "F4")
    game = play(game, Bid(BECKY, 10))
    assert game.state.cash[BECKY] == 10  # nothing is paid until the auction ends
    amounts = [c.amount for c in game.legal_commands() if isinstance(c, Bid)]
    assert amounts == list(range(11, 29))


def test_f4_passed_players_are_skipped() -> None:
    game = play(auction((1, 2, 3, 4, 5, 6)), Bid(ISAAC, 1), Pass(BECKY))
    assert game.state.turn == CHLOE
    game = play(game, Bid(CHLOE, 2))
    assert game.state.turn == ISAAC  # Becky is out


def test_f5_pass_returns_half_the_bid() -> None:
    game = auction((8, 11, 15))
    game = play(game, Bid(ISAAC, 5), Bid(BECKY, 6), Pass(CHLOE), Pass(ISAAC))
    hired = [e for e in game.events if isinstance(e, AdvisorHired)]
    assert hired[0] == AdvisorHired(CHLOE, 8, 0, 0)  # passing without a bid is free
    assert hired[1] == AdvisorHired(ISAAC, 11, 5, 3)  # half of 5 rounded down (2) comes back
    assert game.state.cash[ISAAC] == 25


def test_f5_sales_associate_returns_the_whole_bid() -> None:
    moves = (Bid(ISAAC, 5), Bid(BECKY, 6), Bid(CHLOE, 7), Pass(ISAAC))
    game = play(auction((2, 11, 15)), *moves)
    assert game.state.advisors[ISAAC] == (2,)
    assert game.events[-1] == AdvisorHired(ISAAC, 2, 5, 0)
    assert game.state.cash[ISAAC] == 28
    game = play(auction((8, 11, 15)), *moves)  # the same moves for a Mechanic cost 3
    assert game.state.cash[ISAAC] == 25


def test_f6_last_bidder_pays_the_whole_bid_for_the_highest_advisor() -> None:
    game = play(auction((8, 11, 15)), Bid(ISAAC, 3), Bid(BECKY, 9), Pass(CHLOE), Pass(ISAAC))
    assert game.state.advisors == ((11,), (15,), (8,))
    assert game.state.cash == (26, 19, 28)


def test_f6_last_player_who_never_bid_pays_nothing() -> None:
    game = play(auction((8, 11, 15)), Pass(ISAAC), Pass(BECKY))
    assert game.state.advisors == ((8,), (11,), (15,))
    assert game.state.cash == (28, 28, 28)


def test_f6_sales_associate_does_not_refund_the_winner_unless_the_option_says_so() -> None:
    moves = (Bid(ISAAC, 4), Pass(BECKY), Pass(CHLOE))
    game = play(auction((1, 2, 3)), *moves)
    assert game.state.advisors[ISAAC] == (3,)
    assert game.state.cash[ISAAC] == 24
    kind = Options(sales_associate_refunds_winner=True)
    game = play(auction((1, 2, 3), options=kind), *moves)
    assert game.state.cash[ISAAC] == 28


def test_f7_consultant_collects_one_from_the_player_to_the_right() -> None:
    # Becky passes first and takes Consultant 4; Isaac (to her right) pays her 1.
    game = play(auction((4, 11, 15)), Bid(ISAAC, 2), Pass(BECKY))
    assert game.events[-1] == ConsultantPaid(BECKY, 4, ISAAC, 1)
    assert game.state.cash == (27, 29, 28)


def test_f7_the_player_to_the_right_of_seat_0_is_the_last_seat() -> None:
    game = play(auction((4, 11, 15)), Pass(ISAAC), Pass(BECKY))
    assert ConsultantPaid(ISAAC, 4, CHLOE, 1) in game.events
    assert game.state.cash == (29, 28, 27)


def test_f7_consultant_collects_nothing_from_an_empty_pocket() -> None:
    game = play(auction((4, 11, 15), cash=(28, 28, 0)), Pass(ISAAC), Pass(BECKY))
    assert game.state.advisors[ISAAC] == (4,)
    assert not any(isinstance(e, ConsultantPaid) for e in game.events)
    assert game.state.cash == (28, 28, 0)


def test_f7_a_bid_in_front_of_the_payer_is_not_counted() -> None:
    game = play(auction((4, 11, 15), cash=(3, 28, 28)), Bid(ISAAC, 3), Pass(BECKY))
    # Isaac's 3 lies in front of him as a bid: he has no free cash for Becky's Consultant.
    assert not any(isinstance(e, ConsultantPaid) for e in game.events)
    assert game.state.cash == (3, 28, 28)


def test_f7_consultant_works_for_the_winner_too() -> None:
    game = play(auction((1, 2, 6)), Bid(ISAAC, 4), Pass(BECKY), Pass(CHLOE))
    assert game.state.advisors[ISAAC] == (6,)
    assert ConsultantPaid(ISAAC, 6, CHLOE, 1) in game.events
    assert game.state.cash == (25, 28, 27)


def test_f8_the_winner_starts_the_next_auction() -> None:
    game = play(
        auction((8, 11, 15, 1, 2, 3)), Bid(ISAAC, 1), Bid(BECKY, 2), Pass(CHLOE), Pass(ISAAC)
    )
    reveal = game.events[-1]
    assert reveal == AdvisorsRevealed(2, BECKY, (1, 2, 3))
    assert game.state.turn == BECKY


def test_f8_advisors_are_hidden_from_other_players() -> None:
    game = play(auction((8, 11, 15, 1, 2, 3)), Pass(ISAAC), Pass(BECKY))
    assert game.view(ISAAC).advisors == (8,)
    assert game.view(BECKY).advisors == (11,)
    assert game.view(None).advisors == ()
    assert game.view(ISAAC).advisor_counts == (1, 1, 1)


def test_f8_after_the_last_auction_phase_two_begins() -> None:
    game = play(auction((8, 11, 15)), Pass(ISAAC), Pass(BECKY))
    assert game.events[-1] == VehiclesRevealed(1, CHLOE, (1, 2, 3))
    assert game.state.phase is Phase.BUYING
    refused(game, Bid(CHLOE, 1), CoreReason.WRONG_PHASE, "F4")
    refused(game, Pass(CHLOE), CoreReason.WRONG_PHASE, "F5")


def test_phase_one_refuses_other_phases_commands() -> None:
    game = auction((8, 11, 15))
    refused(game, PlayAdvisor(ISAAC, 8), CoreReason.WRONG_PHASE, "F9")
