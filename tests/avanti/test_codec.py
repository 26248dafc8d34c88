"""JSON: games round-trip, documents are strict, and a tampered log is caught."""

from __future__ import annotations

import json
import random

import attrs
import pytest

import avanti
from avanti import CODEC, DEFAULT_BOARD, CorruptLog, DecodeError, Space
from tests.avanti.support import play_randomly, scenario_game


def played(seed: int = 5, commands: int = 40) -> avanti.Game:
    return play_randomly(4, seed, commands)


def test_a_game_round_trips_through_json() -> None:
    game = played()
    text = avanti.dumps(game, indent=2)
    document = json.loads(text)
    assert document["format"] == "avanti"
    assert document["version"] == 1
    assert document["events"][0] == {"type": "RunStarted", "run": 1, "starting_seat": 0}
    assert avanti.loads(text) == game


def test_a_custom_board_options_and_scenario_round_trip() -> None:
    track = (*DEFAULT_BOARD.track[:-1], Space.parking(900))
    board = attrs.evolve(DEFAULT_BOARD, track=track)
    scenario = avanti.Scenario(
        marker=3,
        distances=(1, 2, 4),
        hands=((0,), (1,), (2,)),
        laid=((3, 5), None, None),
        phase=avanti.Phase.DRIVING,
        to_act=(0,),
    )
    game = avanti.new_game(
        ("A", "B", "C"),
        3,
        board=board,
        options=avanti.RuleOptions(atm_last_car_wraps=False),
        scenario=scenario,
    )
    game = game.execute(avanti.Drive(0))
    again = avanti.loads(avanti.dumps(game))
    assert again == game
    assert again.setup.board.track[-1] == Space.parking(900)
    assert again.setup.scenario == scenario


def test_a18_a21_a_document_from_before_the_newer_options_loads_with_their_defaults() -> None:
    """A document written when ``RuleOptions`` had only ``atm_last_car_wraps`` still loads: the
    options added since (A21 ``atm_behind_in_race_order``, A18 ``quitters_cards_keep_run_going``)
    take their defaults, and the game replays as saved."""
    game = avanti.new_game(("A", "B", "C"), 5, options=avanti.RuleOptions(atm_last_car_wraps=False))
    game = play_randomly_from(game, 40)
    document = json.loads(avanti.dumps(game))
    assert document["setup"]["options"] == {
        "atm_last_car_wraps": False,
        "atm_behind_in_race_order": False,
        "quitters_cards_keep_run_going": False,
    }
    document["setup"]["options"] = {"atm_last_car_wraps": False}
    again = avanti.loads(json.dumps(document))
    assert again.setup.options == avanti.RuleOptions(atm_last_car_wraps=False)
    assert again == game


def play_randomly_from(game: avanti.Game, commands: int) -> avanti.Game:
    """``game`` after up to ``commands`` seeded uniform choices of legal commands."""
    rnd = random.Random(5)
    for _ in range(commands):
        if game.is_over:
            break
        game = game.execute(rnd.choice(game.legal_commands()))
    return game


def test_commands_and_events_as_tagged_json() -> None:
    command = avanti.PlayCard(1, 4, 5)
    data = CODEC.command_to_data(command)
    assert data == {"type": "PlayCard", "seat": 1, "card": 4, "number": 5}
    assert CODEC.command_from_data(data) == command
    event = avanti.PlayerQuit(2, avanti.QuitReason.OUT_OF_CARDS)
    assert CODEC.event_from_data(CODEC.event_to_data(event)) == event


def test_decoding_is_strict_and_names_every_bad_field() -> None:
    document = json.loads(avanti.dumps(played(commands=5)))
    document["setup"]["seed"] = "5"
    document["events"][0]["run"] = True
    document["events"][1]["pile"] = "some"
    document["events"][2]["extra"] = 1
    with pytest.raises(DecodeError) as error:
        avanti.loads(json.dumps(document))
    text = str(error.value)
    assert "$.setup.seed" in text
    assert "$.events[0].run" in text
    assert "$.events[1].pile" in text
    assert "$.events[2]" in text


def test_an_invalid_setup_in_a_document_is_a_decode_error() -> None:
    document = json.loads(avanti.dumps(played(commands=0)))
    document["setup"]["players"] = ["A", "B"]
    with pytest.raises(DecodeError, match="A1"):
        avanti.loads(json.dumps(document))


def test_a_tampered_log_is_a_corrupt_log() -> None:
    game = played(commands=12)
    document = json.loads(avanti.dumps(game))
    index = next(i for i, e in enumerate(document["events"]) if e["type"] == "CarMoved")
    event = document["events"][index]
    event["hops"] = [event["hops"][-1] + 1]
    with pytest.raises(CorruptLog) as error:
        avanti.loads(json.dumps(document))
    assert error.value.index == index


def test_a_cash_change_added_to_a_log_is_caught() -> None:
    game = played(commands=12)
    events = (*game.events, avanti.BankPaid(0, 1000, avanti.BankPayment.RETREAT, None))
    with pytest.raises(CorruptLog):
        avanti.replay(game.setup, events)


def test_views_unstructure_to_plain_data() -> None:
    game = scenario_game(3, marker=0, distances=(1, 2, 3), hands=((0,), (1,), (2,)), round=2)
    data = CODEC.unstructure(game.view(0))
    assert data["hand"] == [0]
    assert json.loads(json.dumps(data))["phase"] == "planning"
