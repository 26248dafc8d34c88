"""Phase 3, selling vehicles (F14-F18), with the Lawyer and the Mechanic."""

from __future__ import annotations

import pytest

from avanti.autorama import (
    Bid,
    ChecksRevealed,
    DeclineMechanic,
    Game,
    GameEnded,
    LawyerDiscarded,
    MechanicUsed,
    Offer,
    OffersRevealed,
    OfferWithLawyer,
    Options,
    Phase,
    PlayAdvisor,
    Reason,
    Step,
    TakeBack,
    UseMechanic,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
    VehicleSold,
    describe,
    dumps,
    loads,
)
from avanti.autorama.terminal import explain
from avanti.core import CoreReason
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play, refused


def sale(
    checks: tuple[int, ...],
    vehicles: tuple[tuple[int, ...], ...],
    *,
    kept: tuple[tuple[int, ...], ...] = (),
    cash: tuple[int, ...] = (),
    options: Options = Options(),  # noqa: B008  Options is frozen
) -> Game:
    """Phase 3 with the given check deck (top first), vehicles in hand and kept advisors."""
    return build(
        phase=Phase.SELLING,
        check_deck=checks,
        vehicles=vehicles,
        kept=kept,
        cash=cash,
        options=options,
    )


def test_f14_offers_are_secret_until_all_are_in() -> None:
    game = sale((13, 7, 0), ((23,), (15,), (14,)))
    assert game.state.step is Step.OFFERING
    game = play(game, Offer(CHLOE, (14,)))  # any order
    assert game.view(CHLOE).offers == (None, None, (14,))
    assert game.view(ISAAC).offers == (None, None, None)
    assert game.view(ISAAC).offered == (False, False, True)
    assert game.events_for(ISAAC)[-1] == VehiclesOffered(CHLOE, None, None)
    game = play(game, Offer(ISAAC, (23,)), Offer(BECKY, (15,)))
    assert OffersRevealed(((23,), (15,), (14,))) in game.events


def test_f14_one_offer_of_vehicles_you_hold() -> None:
    game = play(sale((13, 7, 0, 2, 3, 4), ((23, 1), (15, 2), (14, 3))), Offer(ISAAC, (23,)))
    refused(game, Offer(ISAAC, (1,)), Reason.ALREADY_OFFERED, "F14")
    refused(game, Offer(BECKY, (14,)), Reason.VEHICLE_NOT_IN_HAND, "F14")
    refused(game, Offer(BECKY, ()), Reason.BAD_OFFER, "F14")
    refused(game, TakeBack(ISAAC, 23), CoreReason.WRONG_PHASE, "F15")
    refused(game, Bid(BECKY, 1), CoreReason.WRONG_PHASE, "F4")


def test_f14_two_vehicles_need_a_lawyer() -> None:
    game = sale((13, 7, 0, 2, 3, 4), ((23, 1), (15, 2), (14, 3)), kept=((20,), (), ()))
    refused(game, Offer(BECKY, (2, 15)), Reason.NO_LAWYER, "F15")
    refused(game, Offer(ISAAC, (23, 1)), Reason.BAD_OFFER, "F14")  # pairs go in ascending order
    refused(game, Offer(ISAAC, (1, 1)), Reason.BAD_OFFER, "F14")
    assert Offer(ISAAC, (1, 23)) in game.legal_commands()
    game = play(game, Offer(ISAAC, (1, 23)))
    assert game.events[-1] == VehiclesOffered(ISAAC, (1, 23), 20)


LAWYERS = sale(
    (15, 10, 4, 2, 3, 5),
    ((20, 25), (6, 7), (1, 30)),
    kept=((21,), (), (19,)),
)


def test_f15_lowest_lawyer_takes_back_first() -> None:
    game = play(LAWYERS, Offer(ISAAC, (20, 25)), Offer(CHLOE, (1, 30)), Offer(BECKY, (6,)))
    assert game.state.step is Step.TAKING_BACK
    assert game.state.turn == CHLOE  # Lawyer 19 before Lawyer 21
    refused(game, TakeBack(ISAAC, 20), CoreReason.NOT_YOUR_TURN, "F15")
    refused(game, TakeBack(CHLOE, 20), Reason.NOT_OFFERED, "F15")
    game = play(game, TakeBack(CHLOE, 30))
    assert game.state.turn == ISAAC
    game = play(game, TakeBack(ISAAC, 20))
    sold = [e for e in game.events if isinstance(e, VehicleSold)]
    assert sold == [VehicleSold(ISAAC, 25, 15), VehicleSold(BECKY, 6, 10), VehicleSold(CHLOE, 1, 4)]
    assert game.state.vehicles == ((20,), (7,), (30,))
    assert game.state.kept == ((21,), (), (19,))  # Lawyers are kept by default


def test_f15_a_lawyer_may_be_used_again_in_a_later_round() -> None:
    hands = ((20, 25, 26), (6, 7, 8), (1, 2, 30))
    game = sale((15, 10, 4, 2, 3, 5, 0, 6, 9), hands, kept=((21,), (), ()))
    game = play(game, Offer(ISAAC, (20, 25)), Offer(BECKY, (6,)), Offer(CHLOE, (1,)))
    game = play(game, TakeBack(ISAAC, 25))
    assert game.events[-1] == ChecksRevealed(2, (2, 3, 5))
    game = play(game, Offer(ISAAC, (25, 26)))
    assert game.state.lawyers[ISAAC] == 21


def test_f15_option_lawyer_single_use_discards_it() -> None:
    hands = ((20, 25, 26), (6, 7, 8), (1, 2, 30))
    game = sale(
        (15, 10, 4, 2, 3, 5, 0, 6, 9),
        hands,
        kept=((21,), (), ()),
        options=Options(lawyer_single_use=True),
    )
    game = play(game, Offer(ISAAC, (20, 25)), Offer(BECKY, (6,)), Offer(CHLOE, (1,)))
    game = play(game, TakeBack(ISAAC, 25))
    assert LawyerDiscarded(ISAAC, 21) in game.events
    assert game.state.kept[ISAAC] == ()
    refused(game, Offer(ISAAC, (25, 26)), Reason.NO_LAWYER, "F15")


MECHANICS = sale((15, 10, 4), ((25,), (27,), (6,)), kept=((), (), (7, 9)))


def test_f16_mechanic_swaps_the_two_lowest_checks() -> None:
    game = play(MECHANICS, Offer(ISAAC, (25,)), Offer(BECKY, (27,)), Offer(CHLOE, (6,)))
    assert game.state.step is Step.MECHANIC
    assert game.legal_commands() == (UseMechanic(CHLOE), DeclineMechanic(CHLOE))
    game = play(game, UseMechanic(CHLOE))
    assert MechanicUsed(CHLOE, 7) in game.events
    assert game.state.checks == ((4,), (15,), (10,))
    assert game.state.kept[CHLOE] == (9,)  # the used Mechanic is discarded


def test_f16_mechanic_used_by_the_wrong_player_is_refused() -> None:
    game = play(MECHANICS, Offer(ISAAC, (25,)), Offer(BECKY, (27,)), Offer(CHLOE, (6,)))
    refused(game, UseMechanic(ISAAC), Reason.NOT_LOWEST, "F16")
    refused(game, DeclineMechanic(BECKY), Reason.NOT_LOWEST, "F16")
    refused(MECHANICS, UseMechanic(CHLOE), CoreReason.WRONG_PHASE, "F16")


def test_f16_declining_keeps_the_mechanic_and_takes_the_lowest_check() -> None:
    game = play(MECHANICS, Offer(ISAAC, (25,)), Offer(BECKY, (27,)), Offer(CHLOE, (6,)))
    game = play(game, DeclineMechanic(CHLOE))
    assert game.state.checks == ((10,), (15,), (4,))
    assert game.state.kept[CHLOE] == (7, 9)


def test_f16_only_asked_when_the_lowest_player_holds_a_mechanic() -> None:
    game = sale((15, 10, 4), ((25,), (27,), (6,)), kept=((8,), (), ()))
    game = play(game, Offer(ISAAC, (25,)), Offer(BECKY, (27,)), Offer(CHLOE, (6,)))
    assert game.state.checks == ((10,), (15,), (4,))  # Isaac's Mechanic does not help him here


def test_f17_highest_vehicle_takes_highest_check_and_sold_vehicles_leave() -> None:
    game = sale((13, 7, 0, 2, 3, 4), ((23, 1), (15, 2), (14, 3)))
    game = play(game, Offer(ISAAC, (23,)), Offer(BECKY, (15,)), Offer(CHLOE, (14,)))
    assert game.state.checks == ((13,), (7,), (0,))
    assert game.state.sold == (14, 15, 23)
    assert game.state.vehicles == ((1,), (2,), (3,))
    assert game.view(None).sold == (14, 15, 23)


def test_f18_the_game_ends_when_every_vehicle_is_sold() -> None:
    game = sale((13, 7, 0, 2, 3, 4), ((23, 1), (15, 2), (14, 3)))
    game = play(game, Offer(ISAAC, (23,)), Offer(BECKY, (15,)), Offer(CHLOE, (14,)))
    assert not game.is_over
    game = play(game, Offer(ISAAC, (1,)), Offer(BECKY, (2,)), Offer(CHLOE, (3,)))
    assert game.is_over
    assert game.state.phase is Phase.OVER
    assert isinstance(game.events[-1], GameEnded)
    assert game.legal_commands() == ()
    assert game.state.checks == ((2, 13), (3, 7), (0, 4))
    refused(game, Offer(ISAAC, (1,)), CoreReason.GAME_OVER, "F18")
    refused(game, Bid(ISAAC, 1), CoreReason.GAME_OVER, "F18")


def test_f15_a_player_with_two_lawyers_uses_the_highest() -> None:
    """Without ``lawyer_single_use`` or ``lawyer_choice`` an offer of two names no Lawyer."""
    game = sale(
        (15, 10, 4, 2, 3, 5),
        ((20, 25), (6, 7), (1, 30)),
        kept=((19, 21), (), (20,)),
    )
    game = play(game, Offer(ISAAC, (20, 25)), Offer(CHLOE, (1, 30)), Offer(BECKY, (6,)))
    assert game.state.lawyers == (21, None, 20)
    assert game.state.turn == CHLOE  # her Lawyer 20 is below Isaac's 21


def test_f12_a_mechanic_played_in_phase_two_works_in_phase_three() -> None:
    game = build(
        phase=Phase.BUYING,
        vehicle_deck=(3, 9, 27),
        check_deck=(15, 10, 4),
        advisors=((20,), (12,), (8,)),
    )
    game = play(game, PlayAdvisor(ISAAC, 20), PlayAdvisor(BECKY, 12), PlayAdvisor(CHLOE, 8))
    assert game.state.kept[CHLOE] == (8,)
    game = play(game, Offer(ISAAC, (27,)), Offer(BECKY, (9,)), Offer(CHLOE, (3,)))
    assert game.legal_commands() == (UseMechanic(CHLOE), DeclineMechanic(CHLOE))
    game = play(game, UseMechanic(CHLOE))
    assert game.state.checks == ((15,), (4,), (10,))
    assert game.is_over


SINGLE_USE = Options(lawyer_single_use=True)


def two_lawyers(options: Options = SINGLE_USE, chloe: tuple[int, ...] = ()) -> Game:
    """Isaac holds Lawyers 19 and 21 and vehicles 20 and 25; two rounds of checks."""
    return sale(
        (15, 10, 4, 2, 3, 5),
        ((20, 25), (6, 7), (1, 30)),
        kept=((19, 21), (), chloe),
        options=options,
    )


def test_f15_single_use_lists_one_offer_per_lawyer_choice() -> None:
    game = two_lawyers()
    assert game.legal_commands(ISAAC) == (
        Offer(ISAAC, (20,)),
        Offer(ISAAC, (25,)),
        Offer(ISAAC, (20, 25)),
        OfferWithLawyer(ISAAC, (20, 25), 19),
        OfferWithLawyer(ISAAC, (20, 25), 21),
    )
    assert game.legal_commands(BECKY) == (Offer(BECKY, (6,)), Offer(BECKY, (7,)))


@pytest.mark.parametrize(("chosen", "other"), [(19, 21), (21, 19)])
def test_f15_single_use_discards_the_lawyer_the_player_names(chosen: int, other: int) -> None:
    game = play(
        two_lawyers(),
        OfferWithLawyer(ISAAC, (20, 25), chosen),
        Offer(BECKY, (6,)),
        Offer(CHLOE, (1,)),
    )
    assert VehiclesOfferedWithLawyer(ISAAC, (20, 25), chosen) in game.events
    assert game.state.lawyers[ISAAC] == chosen
    game = play(game, TakeBack(ISAAC, 20))
    assert LawyerDiscarded(ISAAC, chosen) in game.events
    assert game.state.kept[ISAAC] == (other,)  # the other Lawyer is kept
    assert chosen in game.state.spent
    assert game.state.checks == ((15,), (10,), (4,))  # 25 > 6 > 1
    assert loads(dumps(game)) == game  # the named Lawyer replays from the log


@pytest.mark.parametrize(("chosen", "first"), [(19, ISAAC), (21, CHLOE)])
def test_f15_the_named_lawyer_sets_the_order_of_take_backs(chosen: int, first: int) -> None:
    game = play(
        two_lawyers(chloe=(20,)),
        OfferWithLawyer(ISAAC, (20, 25), chosen),
        Offer(CHLOE, (1, 30)),
        Offer(BECKY, (6,)),
    )
    assert game.state.lawyers == (chosen, None, 20)
    assert game.state.turn == first  # the lowest Lawyer takes back first


def test_f15_an_offer_of_two_without_a_name_still_uses_the_highest() -> None:
    """Games logged before a Lawyer could be named replay as they were played."""
    game = play(two_lawyers(), Offer(ISAAC, (20, 25)), Offer(BECKY, (6,)), Offer(CHLOE, (1,)))
    assert VehiclesOffered(ISAAC, (20, 25), 21) in game.events
    game = play(game, TakeBack(ISAAC, 25))
    assert LawyerDiscarded(ISAAC, 21) in game.events
    assert game.state.kept[ISAAC] == (19,)
    assert loads(dumps(game)) == game


def test_f15_option_lawyer_choice_names_a_lawyer_that_is_kept() -> None:
    game = two_lawyers(Options(lawyer_choice=True), chloe=(20,))
    assert OfferWithLawyer(ISAAC, (20, 25), 19) in game.legal_commands()
    game = play(
        game, OfferWithLawyer(ISAAC, (20, 25), 19), Offer(CHLOE, (1, 30)), Offer(BECKY, (6,))
    )
    assert game.state.turn == ISAAC  # Lawyer 19 before Chloe's 20
    game = play(game, TakeBack(ISAAC, 20), TakeBack(CHLOE, 30))
    assert not any(isinstance(e, LawyerDiscarded) for e in game.events)
    assert game.state.kept == ((19, 21), (), (20,))


def test_f15_naming_a_lawyer_is_refused_where_there_is_no_choice() -> None:
    kept = refused(
        two_lawyers(Options()),
        OfferWithLawyer(ISAAC, (20, 25), 19),
        Reason.NO_LAWYER_CHOICE,
        "F15",
    )
    assert "without lawyer_single_use or lawyer_choice" in kept.message
    assert "offer 20 and 25" in kept.message
    hands = ((20, 25), (6, 7), (1, 30))
    one = sale((15, 10, 4, 2, 3, 5), hands, kept=((21,), (), ()), options=SINGLE_USE)
    alone = refused(one, OfferWithLawyer(ISAAC, (20, 25), 21), Reason.NO_LAWYER_CHOICE, "F15")
    assert "you hold one Lawyer, 21" in alone.message


def test_f15_naming_a_lawyer_you_do_not_hold_is_refused() -> None:
    game = two_lawyers(chloe=(20,))
    error = refused(game, OfferWithLawyer(ISAAC, (20, 25), 20), Reason.NOT_YOUR_LAWYER, "F15")
    assert error.message == "you hold no Lawyer 20: name Lawyer 19 or 21"
    refused(game, OfferWithLawyer(ISAAC, (20, 25), 7), Reason.NOT_YOUR_LAWYER, "F15")
    refused(game, OfferWithLawyer(BECKY, (6, 7), 19), Reason.NO_LAWYER, "F15")
    refused(game, OfferWithLawyer(ISAAC, (25,), 19), Reason.BAD_OFFER, "F14")
    refused(game, OfferWithLawyer(ISAAC, (25, 20), 19), Reason.BAD_OFFER, "F14")
    refused(game, OfferWithLawyer(ISAAC, (20, 26), 19), Reason.VEHICLE_NOT_IN_HAND, "F14")
    offered = play(game, Offer(ISAAC, (25,)))
    refused(offered, OfferWithLawyer(ISAAC, (20, 25), 19), Reason.ALREADY_OFFERED, "F14")
    revealed = play(game, Offer(ISAAC, (20, 25)), Offer(BECKY, (6,)), Offer(CHLOE, (1,)))
    refused(revealed, OfferWithLawyer(ISAAC, (20, 25), 19), CoreReason.WRONG_PHASE, "F14")


def test_f15_the_named_lawyer_is_seen_and_said_but_the_vehicles_stay_hidden() -> None:
    game = play(two_lawyers(), OfferWithLawyer(ISAAC, (20, 25), 19))
    assert game.events_for(BECKY)[-1] == VehiclesOfferedWithLawyer(ISAAC, None, 19)
    assert game.view(BECKY).lawyers == (19, None, None)
    assert describe(game.events[-1], game.setup) == (
        "Isaac chose Lawyer 19 and offered two vehicles with it (20, 25)."
    )
    assert describe(game.events_for(BECKY)[-1], game.setup) == (
        "Isaac chose Lawyer 19 and offered two vehicles with it face down."
    )
    command = OfferWithLawyer(ISAAC, (20, 25), 19)
    assert (
        explain(game.setup, command) == "offer vehicles 20 and 25 with Lawyer 19, then discard it"
    )
    kept = two_lawyers(Options(lawyer_choice=True))
    assert explain(kept.setup, command) == "offer vehicles 20 and 25 with Lawyer 19"
    plain = Offer(ISAAC, (20, 25))
    assert explain(kept.setup, plain) == "offer vehicles 20 and 25 (with your highest Lawyer)"
    assert (
        explain(two_lawyers(Options()).setup, plain) == "offer vehicles 20 and 25 (with a Lawyer)"
    )


def test_f15_a_named_lawyer_has_a_notation_of_its_own() -> None:
    game = two_lawyers()
    named = OfferWithLawyer(ISAAC, (20, 25), 19)
    assert game.notation(named) == "offer 20 and 25 with lawyer 19"
    assert game.notation(Offer(ISAAC, (20, 25))) == "offer 20 and 25"
    assert game.parse_notation("Offer 25 & 20 using Lawyer 21") == OfferWithLawyer(
        ISAAC, (20, 25), 21
    )
    assert game.parse_notation("use lawyer 19 to offer 20 and 25") == named
    assert game.parse_notation("offer 25 and 20") == Offer(ISAAC, (20, 25))
    spelled = [game.notation(c) for c in game.legal_commands()]
    assert len(set(spelled)) == len(spelled)
