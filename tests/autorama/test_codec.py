"""JSON documents, bad commands, and the one-line descriptions of events."""

from __future__ import annotations

import json

import pytest

from avanti.autorama import (
    CODEC,
    Bid,
    BidPlaced,
    GameEnded,
    Offer,
    OfferWithLawyer,
    Options,
    Pass,
    Phase,
    PlayAdvisor,
    Setup,
    UseMechanic,
    decide,
    describe,
    dumps,
    loads,
    new_game,
)
from avanti.core import CoreReason, DecodeError, IllegalCommand
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play, refused
from tests.autorama.test_examples import final_round


def test_document_names_its_format_and_version() -> None:
    game = play(new_game(["Ann", "Bob", "Cy"], seed=4), Pass(0))
    data = json.loads(dumps(game))
    assert data["format"] == "autorama"
    assert data["version"] == 1
    assert loads(dumps(game)) == game


def test_a_scenario_round_trips_through_json() -> None:
    game = final_round()
    assert loads(dumps(game)) == game
    assert game.setup.scenario is not None
    assert game.setup.scenario.phase is Phase.SELLING


def test_decoding_is_strict() -> None:
    data = json.loads(
        dumps(build(advisor_deck=(8, 11, 15), vehicle_deck=(1, 2, 3), check_deck=(0, 2, 3)))
    )
    data["setup"]["scenario"]["phase"] = "bidding"
    data["setup"]["seed"] = "4"
    with pytest.raises(DecodeError) as info:
        loads(json.dumps(data))
    text = str(info.value)
    assert "$.setup.scenario.phase" in text
    assert "$.setup.seed" in text
    with pytest.raises(DecodeError):
        CODEC.command_from_data({"type": "Bid", "seat": 0, "amount": 3, "extra": 1})
    assert CODEC.command_from_data({"type": "Bid", "seat": 0, "amount": 3}) == Bid(0, 3)
    assert CODEC.command_from_data({"type": "Offer", "seat": 1, "vehicles": [2, 5]}) == Offer(
        1, (2, 5)
    )


def test_f15_offer_with_lawyer_is_read_strictly() -> None:
    data = {"type": "OfferWithLawyer", "seat": 0, "vehicles": [20, 25], "lawyer": 19}
    assert CODEC.command_from_data(data) == OfferWithLawyer(0, (20, 25), 19)
    assert CODEC.command_to_data(OfferWithLawyer(0, (20, 25), 19)) == data
    with pytest.raises(DecodeError):
        CODEC.command_from_data({"type": "OfferWithLawyer", "seat": 0, "vehicles": [20, 25]})
    assert CODEC.command_to_data(Offer(1, (2, 5))) == {
        "type": "Offer",
        "seat": 1,
        "vehicles": [2, 5],
    }  # an offer is written as before: no Lawyer field


def test_f15_a_document_written_before_option_lawyer_choice_still_loads() -> None:
    game = play(new_game(["Ann", "Bob", "Cy"], seed=4, options=Options(lawyer_single_use=True)))
    data = json.loads(dumps(game))
    assert data["setup"]["options"].pop("lawyer_choice") is False
    assert loads(json.dumps(data)) == game


def test_a_bad_setup_in_a_document_is_a_decode_error() -> None:
    text = CODEC.dumps(Setup(("Ann", "Bob"), 0), ())
    with pytest.raises(DecodeError):
        loads(text)


def test_unknown_commands_and_seats_are_refused() -> None:
    game = new_game(["Ann", "Bob", "Cy"], seed=4)
    refused(game, Bid(3, 1), CoreReason.NO_SUCH_SEAT, "F1")
    refused(game, Pass(-1), CoreReason.NO_SUCH_SEAT, "F1")
    with pytest.raises(IllegalCommand) as info:
        decide(game.state, "Bid 3")  # type: ignore[arg-type]  # not a command on purpose
    assert info.value.reason == CoreReason.UNKNOWN_COMMAND


def test_describe_writes_one_line_per_event_in_dollars() -> None:
    game = build(advisor_deck=(8, 11, 15), vehicle_deck=(9, 12, 30), check_deck=(0, 2, 3))
    game = play(game, Bid(ISAAC, 3), Bid(BECKY, 4), Pass(CHLOE), Pass(ISAAC))
    game = play(game, PlayAdvisor(BECKY, 15, boost=True))
    lines = [describe(e, game.setup) for e in game.events]
    assert lines == [
        "Phase 1, round 1: advisors Mechanic 8, Controller 11, Fleet Manager 15 are up; "
        "Isaac bids first.",
        "Isaac bid $3,000.",
        "Becky bid $4,000.",
        "Chloe passed.",
        "Chloe took Mechanic 8 and paid $0.",
        "Isaac passed.",
        # F5: half of the $3,000 bid comes back, so $2,000 is what taking it cost.
        "Isaac took Controller 11 and paid $2,000 in all ($1,000 of the $3,000 bid came back).",
        "Becky took Fleet Manager 15 and paid $4,000.",
        "Phase 2, round 1: vehicles 9, 12, 30 are up; Becky plays first.",
        "Becky played Fleet Manager 15, paying $3,000 to count as 33.",
    ]
    assert all("\n" not in line for line in lines)


def test_describe_covers_every_event_of_a_whole_game() -> None:
    game = final_round()
    lines = [describe(e, game.setup) for e in game.events]
    # F19: Chloe's $2,000 of cash counts three times more for her three Financial Advisors.
    assert lines[-1] == (
        "Game over: Isaac $39,000 ($39,000 in checks + $0 cash), "
        "Becky $32,000 ($32,000 in checks + $0 cash), "
        "Chloe $10,000 ($2,000 in checks + $2,000 cash + $6,000 bonus). Isaac wins."
    )
    old = GameEnded((39, 32, 10), (ISAAC,))  # a document written before the breakdown
    assert describe(old, game.setup) == (
        "Game over: Isaac $39,000, Becky $32,000, Chloe $10,000. Isaac wins."
    )
    assert describe(game.events[-1], game.setup, seat=ISAAC).startswith("Game over: you $39,000")
    assert describe(BidPlaced(ISAAC, 3), game.setup, seat=ISAAC) == "You bid $3,000."
    for seat in (ISAAC, None):
        for event in game.events_for(seat):
            assert describe(event, game.setup)


def test_use_mechanic_outside_phase_three_is_refused() -> None:
    game = new_game(["Ann", "Bob", "Cy"], seed=4)
    refused(game, UseMechanic(0), CoreReason.WRONG_PHASE, "F16")


def test_a_bid_in_dollars_is_refused_naming_the_unit() -> None:
    """F2, F4: the library counts money in thousands; a bid of 3000 (meant as $3,000) is more
    than the 28 (thousand) a seat starts with, and the refusal says how to bid $3,000."""
    game = build(advisor_deck=(8, 11, 15), vehicle_deck=(9, 12, 30), check_deck=(0, 2, 3))
    with pytest.raises(IllegalCommand) as info:
        game.execute(Bid(ISAAC, 3000))
    assert info.value.message.endswith(
        "the bid cannot exceed your cash ($28,000); amounts are counted in thousands: "
        f"Bid({ISAAC}, 3) bids $3,000"
    )
    with pytest.raises(IllegalCommand) as info:
        game.execute(Bid(ISAAC, 29))
    assert "thousands" not in info.value.message
