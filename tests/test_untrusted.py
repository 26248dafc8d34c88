"""The core against untrusted input: bounded documents, errors that quote no hidden value,
setups built in Python checked as JSON ones are, typed seats and versions (issue: ready for
untrusted players). The games' own limits are tested beside each game."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import avanti
from avanti import autorama, core, mare
from avanti.core import limits
from avanti.core.codec import parse_json
from tests import toy


def _long_avanti_game() -> avanti.Game:
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=11)
    for _ in range(40):
        game = game.execute(game.legal_commands()[0])
    return game


# -- errors that name where, never what -----------------------------------------------------------


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_replaying_a_seats_stream_names_the_bad_event_without_its_values(seat: int | None) -> None:
    """A seat's stream has the deck order and other hands blanked, so it does not replay; the
    error used to quote the whole shuffled deck. Now it names index, type and field only."""
    game = _long_avanti_game()
    with pytest.raises(core.CorruptLog) as refused:
        avanti.replay(game.setup, game.events_for(seat))
    message = str(refused.value)
    assert message.startswith(f"event {refused.value.index}: ")
    after_index = message.removeprefix(f"event {refused.value.index}: ")
    assert not re.search(r"\d", after_index), message  # no card, number or seed
    assert "DeckShuffled" in message
    assert "'order'" in message


def test_a_tampered_event_is_named_by_index_type_and_field() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    game = game.execute(toy.Roll(0))
    events = list(game.events)
    rolled = events[2]
    assert isinstance(rolled, toy.Rolled)
    events[2] = toy.Rolled(0, rolled.pips % 6 + 1)
    with pytest.raises(core.CorruptLog) as refused:
        toy.replay(game.setup, tuple(events))
    assert str(refused.value) == (
        "event 2: a Rolled event differs in field 'pips': it does not follow from its Roll command"
    )
    events[2] = toy.BonusDealt(0, 1)
    with pytest.raises(core.CorruptLog) as refused:
        toy.replay(game.setup, tuple(events))
    assert str(refused.value) == "event 2: a BonusDealt event does not begin a command"
    events[2:] = [toy.Waited(0)]
    with pytest.raises(core.CorruptLog) as refused:
        toy.replay(game.setup, (events[0], toy.Rolled(1, 2), *events[1:]))
    assert str(refused.value) == (
        "event 1: expected a BonusDealt event, found a Rolled event: "
        "the opening events do not match the setup"
    )


def test_a_log_recording_an_illegal_command_names_the_reason_not_the_message() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    with pytest.raises(core.CorruptLog) as refused:
        toy.replay(game.setup, (*game.events, toy.Rolled(1, 4)))
    assert str(refused.value) == (
        "event 2: it records a Roll command that the rules refuse (not-your-turn, rule T2)"
    )


def test_decode_errors_name_the_kind_found_not_the_value() -> None:
    document = json.loads(toy.dumps(toy.new_game(["Ann", "Bob"], seed=3)))
    document["events"][0]["bonus"] = "secret-value-123"
    document["setup"]["goal"] = [7, 8]
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(json.dumps(document))
    assert refused.value.errors == (
        "expected an integer, got a list @ $.setup.goal",
        "expected an integer, got a string @ $.events[0].bonus",
    )


def test_a_decode_error_lists_at_most_the_limit_of_problems_then_counts() -> None:
    document = json.loads(toy.dumps(toy.new_game(["Ann", "Bob"], seed=3)))
    document["events"] = [{"type": "Rolled", "seat": "x", "pips": 1}] * 5_000
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(json.dumps(document))
    errors = refused.value.errors
    assert len(errors) == limits.MAX_PROBLEMS + 1
    assert errors[0] == "expected an integer, got a string @ $.events[0].seat"
    assert errors[-1] == f"... and {5_000 - limits.MAX_PROBLEMS:,} later events not checked"
    document["events"] = [{"type": "Rolled", "seat": "x", "pip": 1}] * 5_000  # three problems each
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(json.dumps(document))
    assert refused.value.errors[-2:] == (
        "... and 1 more problems",  # the 7th event's third problem is the 21st
        "... and 4,993 later events not checked",
    )


def test_every_problem_is_cut_short() -> None:
    document = json.loads(toy.dumps(toy.new_game(["Ann", "Bob"], seed=3)))
    document["setup"]["x" * 100_000] = 1
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(json.dumps(document))
    assert all(len(problem) < 300 for problem in refused.value.errors)


# -- bounded documents ---------------------------------------------------------------------------


def test_a_document_over_the_size_limit_is_refused_before_it_is_parsed() -> None:
    text = "[" * (limits.MAX_DOCUMENT_BYTES + 1)  # would be a recursion error if parsed
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(text)
    assert refused.value.errors == (
        f"a document may be at most {limits.MAX_DOCUMENT_BYTES:,} bytes long, "
        f"not {limits.MAX_DOCUMENT_BYTES + 1:,} @ $",
    )
    with pytest.raises(core.DecodeError):
        toy.loads(text.encode())


def test_a_document_with_too_many_events_is_refused_with_one_problem() -> None:
    document = json.loads(toy.dumps(toy.new_game(["Ann", "Bob"], seed=3)))
    document["events"] = [{}] * (limits.MAX_EVENTS + 1)
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(json.dumps(document))
    assert refused.value.errors == (
        f"a game document holds at most {limits.MAX_EVENTS:,} events, "
        f"not {limits.MAX_EVENTS + 1:,} @ $.events",
    )


def test_a_setup_holding_too_many_values_is_refused_before_it_is_read() -> None:
    document = json.loads(toy.dumps(toy.new_game(["Ann", "Bob"], seed=3)))
    document["setup"]["players"] = ["P"] * limits.MAX_SETUP_VALUES
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(json.dumps(document))
    assert refused.value.errors == (
        f"a setup holds at most {limits.MAX_SETUP_VALUES:,} JSON values "
        "(numbers, strings, lists, objects) @ $.setup",
    )


def test_deep_nesting_is_a_decode_error() -> None:
    with pytest.raises(core.DecodeError) as refused:
        parse_json("[" * 200_000 + "]" * 200_000)
    assert refused.value.errors[0].startswith("not valid JSON")


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "toy", "format": "avanti", "version": 1, "setup": {}, "events": []}',
        '{"a": {"b": 1, "b": 2}}',
    ],
)
def test_duplicate_keys_are_refused(text: str) -> None:
    with pytest.raises(core.DecodeError) as refused:
        parse_json(text)
    assert refused.value.errors[0].startswith("an object repeats the key")


def test_a_document_with_a_duplicate_seed_does_not_load() -> None:
    text = toy.dumps(toy.new_game(["Ann", "Bob"], seed=3))
    forged = text.replace('"seed": 3', '"seed": 3, "seed": 4')
    assert forged != text
    with pytest.raises(core.DecodeError) as refused:
        toy.loads(forged)
    assert refused.value.errors == ('an object repeats the key "seed" @ $',)


def test_json_that_is_not_text_is_a_decode_error() -> None:
    with pytest.raises(core.DecodeError):
        parse_json(12)  # type: ignore[arg-type]  # what an untyped caller might pass


# -- setups built in Python, checked as JSON ones are ----------------------------------------------


@pytest.mark.parametrize(
    ("setup", "problem"),
    [
        (toy.Setup(["Ann", "Bob"], 3), "setup.players must be a tuple, not list"),  # type: ignore[arg-type]
        (toy.Setup(("Ann", "Bob"), True), "setup.seed must be int, not bool"),
        (toy.Setup(("Ann", "Bob"), 1.5), "setup.seed must be int, not float"),  # type: ignore[arg-type]
        (toy.Setup(("Ann", 7), 3), "setup.players[1] must be str, not int"),  # type: ignore[arg-type]
        (toy.Setup(("Ann", "Bob"), 3, goal=None), "setup.goal must be int, not NoneType"),  # type: ignore[arg-type]
    ],
)
def test_a_setup_of_the_wrong_form_is_refused_before_the_rules_see_it(
    setup: toy.Setup, problem: str
) -> None:
    with pytest.raises(core.InvalidSetup) as refused:
        toy.Game.new(setup)
    assert refused.value.rule == "T1"
    assert refused.value.message == problem
    with pytest.raises(core.InvalidSetup):
        toy.Game.replay(setup, ())


def test_every_setup_that_starts_can_be_saved_and_read_back() -> None:
    for players in (("Ann",), ("Ann", "Bob", "Cy", "Di")):
        game = toy.new_game(list(players), seed=2**63, goal=3)
        text = toy.dumps(game)
        text.encode("utf-8")
        assert toy.loads(text) == game


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("\ud800", "a name must be printable (no control characters or line breaks)"),
        ("Ann\n", "a name must be printable (no control characters or line breaks)"),
        ("A" * 41, "a name must have 1 to 40 characters, not 41"),
        ("", "a name must have 1 to 40 characters, not 0"),
        (" Ann", "a name must not begin or end with a space"),
    ],
)
def test_names_that_cannot_be_saved_or_shown_are_refused(name: str, problem: str) -> None:
    assert limits.name_problem(name) == problem
    with pytest.raises(core.InvalidSetup) as refused:
        toy.new_game(["Bob", name], seed=1)
    assert refused.value.message == f"seat 1: {problem}"


def test_names_may_be_any_printable_unicode() -> None:
    game = toy.new_game(["Zoë", "李", "A" * 40], seed=1)
    assert toy.loads(toy.dumps(game).encode("utf-8")) == game


def test_new_seeds_are_64_random_bits() -> None:
    seeds = {limits.new_seed() for _ in range(16)}
    assert len(seeds) == 16
    assert all(0 <= seed < 2**64 for seed in seeds)


# -- typed seats and versions ---------------------------------------------------------------------


@pytest.mark.parametrize("version", [2.0, True, "2", [2]])
def test_an_expected_version_that_is_no_int_is_a_library_error(version: Any) -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    with pytest.raises(core.InvalidArgument) as refused:
        game.execute(toy.Roll(0), expected_version=version)
    assert str(refused.value).startswith("expected_version must be an int")


@pytest.mark.parametrize("seat", [1.0, True, "0", -1, 2])
def test_a_seat_that_is_no_seat_is_refused_everywhere(seat: Any) -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    for look in (game.view, game.events_for, game.legal_commands):
        with pytest.raises(core.IllegalCommand) as refused:
            look(seat)
        assert refused.value.reason == core.CoreReason.NO_SUCH_SEAT
    with pytest.raises(core.InvalidArgument):
        game.events_for(0, after=1.0)  # type: ignore[call-overload]  # what a hostile caller sends


def test_an_overlong_notation_is_refused_without_being_read() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    with pytest.raises(core.IllegalCommand) as refused:
        game.parse_notation("roll " * 1_000_000, seat=0)
    assert refused.value.reason == core.CoreReason.UNKNOWN_NOTATION
    assert len(str(refused.value)) < 100


def test_a_public_setup_holds_no_seed() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=123_456_789)
    public = game.public_setup
    assert public == toy.PublicSetup(("Ann", "Bob"), 10)
    assert "123456789" not in json.dumps(toy.Game.rules.codec.unstructure(public))


def test_the_notation_of_a_malformed_command_is_refused_before_the_game_writes_it() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    with pytest.raises(core.IllegalCommand) as refused:
        game.notation(toy.Roll(True))
    assert refused.value.reason == core.CoreReason.MALFORMED_COMMAND
    with pytest.raises(core.IllegalCommand) as refused:
        game.notation("roll")  # type: ignore[arg-type]  # what an untyped caller might pass
    assert refused.value.reason == core.CoreReason.UNKNOWN_COMMAND
    assert game.notation(toy.Roll(0)) == "roll"


@pytest.mark.parametrize("module", [avanti, mare, autorama], ids=lambda m: m.__name__)
def test_a_document_must_name_its_seed(module: Any) -> None:
    """A setup built in Python without a seed draws a secret one; a document read without one
    would deal a game nobody played, so it is refused."""
    players = ["Ann", "Bob", "Cy"]
    document = json.loads(module.dumps(module.new_game(players, seed=5)))
    del document["setup"]["seed"]
    with pytest.raises(core.DecodeError) as refused:
        module.loads(json.dumps(document))
    assert refused.value.errors == ("required field missing @ $.setup.seed",)
