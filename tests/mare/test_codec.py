"""JSON documents: their shape, and a precise DecodeError for each malformed one."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from avanti.mare import (
    CODEC,
    CaughtFishRoll,
    DecodeError,
    DieRolled,
    Face,
    Fish,
    Game,
    MoveDeclined,
    MoveFish,
    MoveOffered,
    Options,
    Roll,
    Side,
    SkipMove,
    dumps,
    loads,
    new_game,
)

from .helpers import play_until

GAME = new_game(["Ann", "Bob"], seed=4)
for _ in range(6):
    GAME = GAME.execute(GAME.legal_commands()[0])


def document() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(GAME))
    return data


def test_the_document_names_its_format_and_version() -> None:
    data = document()
    assert (data["format"], data["version"]) == ("mare", 2)
    assert data["setup"] == {
        "players": ["Ann", "Bob"],
        "sides": ["fish-friends", "fisher-fans"],
        "first": 0,
        "seed": 4,
        "options": {
            "boat_faces": ["red", "green"],
            "caught_fish_roll": "boat",
            "free_fish_roll": "other-fish",
            "free_fish_move_owed": False,
        },
        "scenario": None,
    }
    first = GAME.events[0]
    assert isinstance(first, DieRolled)
    assert data["events"][0] == {"type": "DieRolled", "seat": 0, "face": first.face.value}


def test_commands_and_events_are_tagged_objects() -> None:
    assert CODEC.command_to_data(MoveFish(1, Fish.PINK)) == {
        "type": "MoveFish",
        "seat": 1,
        "fish": "pink",
    }
    assert CODEC.command_from_data({"type": "Roll", "seat": 0}) == Roll(0)
    assert CODEC.command_to_data(SkipMove(1)) == {"type": "SkipMove", "seat": 1}
    assert CODEC.command_from_data({"type": "SkipMove", "seat": 1}) == SkipMove(1)
    assert CODEC.event_to_data(MoveDeclined(1)) == {"type": "MoveDeclined", "seat": 1}
    assert CODEC.event_from_data({"type": "MoveDeclined", "seat": 1}) == MoveDeclined(1)
    assert CODEC.event_from_data({"type": "DieRolled", "seat": 1, "face": "green"}) == DieRolled(
        1, Face.GREEN
    )


def _errors(data: object) -> tuple[str, ...]:
    with pytest.raises(DecodeError) as caught:
        loads(json.dumps(data))
    return caught.value.errors


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (("events", 0, "face"), "purple", "$.events[0].face"),
        (("events", 0, "seat"), "0", "$.events[0].seat"),
        (("events", 0, "seat"), True, "$.events[0].seat"),
        (("setup", "players"), "Ann", "$.setup.players"),
        (("setup", "sides", 1), "fishers", "$.setup.sides[1]"),
        (("setup", "options", "caught_fish_roll"), "sometimes", "$.setup.options.caught_fish_roll"),
        (("setup", "options", "boat_faces", 0), 5, "$.setup.options.boat_faces[0]"),
        (("setup", "options", "free_fish_move_owed"), 1, "$.setup.options.free_fish_move_owed"),
        (("setup", "options", "free_fish_move_owed"), "no", "$.setup.options.free_fish_move_owed"),
    ],
)
def test_a_bad_field_is_named_by_its_path(
    path: tuple[str | int, ...], value: object, where: str
) -> None:
    data = document()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    errors = _errors(data)
    assert any(where in error for error in errors), errors


def test_an_unknown_event_type_is_named() -> None:
    data = document()
    data["events"][2] = {"type": "FishFlew", "fish": "blue"}
    errors = _errors(data)
    assert any("$.events[2]" in e and "'type' must be one of" in e for e in errors), errors
    assert not any("FishFlew" in e for e in errors), errors  # the document's text is not echoed


def test_extra_and_missing_keys_are_refused() -> None:
    data = document()
    data["events"][1]["colour"] = "red"
    del data["setup"]["players"]
    errors = _errors(data)
    assert any("$.events[1]" in e for e in errors), errors
    assert any("$.setup.players" in e for e in errors), errors


def test_a_setup_that_breaks_a_rule_is_a_decode_error() -> None:
    data = document()
    data["setup"]["first"] = 5
    errors = _errors(data)
    assert errors == ("M2: the first seat must be from 0 to 1, got 5 @ $.setup",)


def test_not_json_at_all() -> None:
    with pytest.raises(DecodeError) as caught:
        loads("{not json")
    assert caught.value.errors[0].startswith("not valid JSON")


def test_options_and_sides_round_trip() -> None:
    options = Options(boat_faces=(Face.GREEN,), caught_fish_roll=CaughtFishRoll.REROLL)
    game = new_game(["Ann"], sides=(Side.FISHER_FANS,), options=options)
    again = loads(dumps(game))
    assert again == game
    assert again.setup.options.caught_fish_roll is CaughtFishRoll.REROLL
    assert again.setup.sides == (Side.FISHER_FANS,)


# -- version 1 documents: written before SkipMove, played with the M6 move owed ------------------


def _version_1(game: Game) -> dict[str, Any]:
    """``game``'s document as version 1 wrote it: no ``free_fish_move_owed`` in the options."""
    data: dict[str, Any] = json.loads(dumps(game))
    assert data["setup"]["options"].pop("free_fish_move_owed") is True
    data["version"] = 1
    return data


def _owed_game(stop: Callable[[Game], bool]) -> Game:
    return play_until(stop, options=Options(free_fish_move_owed=True))


def _offered_and_over(game: Game) -> bool:
    return game.is_over and any(isinstance(e, MoveOffered) for e in game.events)


def test_a_version_1_document_reads_as_the_owed_move_it_was_played_with() -> None:
    # The whole log of a finished game, with MoveFish after every MoveOffered, replays (M6, M9).
    over = _owed_game(_offered_and_over)
    again = loads(json.dumps(_version_1(over)))
    assert again == over
    assert again.setup.options.free_fish_move_owed is True
    assert json.loads(dumps(again))["version"] == 2  # written back in the current version


def test_a_version_1_game_goes_on_under_its_own_reading() -> None:
    offered = _owed_game(lambda game: game.state.move_due)
    again = loads(json.dumps(_version_1(offered)))
    assert again.legal_commands() == offered.legal_commands()
    assert SkipMove(again.state.turn) not in again.legal_commands()


def test_a_version_1_setup_without_options_reads_as_owed() -> None:
    data = _version_1(_owed_game(lambda game: game.version > 0))
    del data["setup"]["options"]
    assert loads(json.dumps(data)).setup.options == Options(free_fish_move_owed=True)


def test_a_version_1_document_with_bad_options_is_still_refused_by_path() -> None:
    data = _version_1(_owed_game(lambda game: game.version > 0))
    data["setup"]["options"] = "rulebook"
    assert any("$.setup.options" in e for e in _errors(data))
    data["setup"] = []
    assert any("$.setup" in e for e in _errors(data))


def test_a_version_2_document_keeps_its_reading() -> None:
    for owed in (False, True):
        game = new_game(["Ann"], seed=3, options=Options(free_fish_move_owed=owed))
        assert loads(dumps(game)).setup.options.free_fish_move_owed is owed
