"""Corners of the core the game tests do not reach: float and fixed-length tuple fields, failing
upcasters, error messages, ``is_legal``, ``repr``, the generator's rejection step, the driver's
bound."""

from __future__ import annotations

import json

import pytest
from attrs import frozen

from avanti import core
from avanti.bots import RandomBot
from avanti.bots.driver import play
from tests import toy


@frozen
class Measure:
    """A value with the field types no game uses yet."""

    weight: float
    pair: tuple[int, str]


CODEC: core.Codec[toy.Setup, toy.Command, toy.Event] = core.Codec(
    format="toy",
    version=2,
    setup_type=toy.Setup,
    commands=toy.COMMANDS,
    events=toy.EVENTS,
    upcasters={1: lambda d: {**d, "version": 2, "setup": {**d["setup"], "goal": d["goal"]}}},
)


def test_floats_read_integers_and_numbers_only() -> None:
    assert CODEC.structure({"weight": 2, "pair": [1, "a"]}, Measure) == Measure(2.0, (1, "a"))
    assert CODEC.structure({"weight": 0.5, "pair": [1, "a"]}, Measure).weight == 0.5
    with pytest.raises(core.DecodeError) as refused:
        CODEC.structure({"weight": "2", "pair": [1, "a"]}, Measure)
    assert refused.value.errors == ("expected a number, got a string @ $.weight",)


@pytest.mark.parametrize("pair", [[1], [1, "a", 2], "1a", {"0": 1}, [1, 2]])
def test_a_fixed_length_tuple_needs_a_list_of_its_items(pair: object) -> None:
    with pytest.raises(core.DecodeError) as refused:
        CODEC.structure({"weight": 1.0, "pair": pair}, Measure)
    assert all("$.pair" in message for message in refused.value.errors)


def test_a_failing_upcaster_is_a_decode_error_naming_the_version() -> None:
    old = json.loads(toy.new_game(["Ann"], seed=2).dumps())  # version 1, no top-level "goal"
    with pytest.raises(core.DecodeError) as refused:
        CODEC.read_document(old)
    assert refused.value.errors == ("cannot upgrade a version 1 document (missing key 'goal') @ $",)


def test_every_error_reads_as_a_sentence() -> None:
    assert str(core.InvalidBoard("track[3].toll", -100, "a toll is never negative")) == (
        "track[3].toll = -100: a toll is never negative"
    )
    assert str(core.CorruptLog(4, "the log ends early")) == "event 4: the log ends early"
    assert str(core.InvalidSetup("no players")) == "no players"
    assert str(core.InvalidSetup("no players", rule="T1")) == "T1: no players"
    assert str(core.IllegalCommand(core.CoreReason.GAME_OVER, "over")) == "over"
    assert str(core.DecodeError(("a @ $", "b @ $.x"))) == (
        "cannot decode document:\n  a @ $\n  b @ $.x"
    )
    assert "reload the game" in str(core.VersionConflict(1, 2))


def test_is_legal_and_repr() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=1)
    assert game.is_legal(toy.Roll(0))
    assert not game.is_legal(toy.Roll(1))
    assert repr(game) == "<tests.toy.Game version=2>"


def test_membership_in_the_legal_commands_means_would_be_accepted() -> None:
    # Roll(False) == Roll(0), since False == 0; but `in` asks for exact types as well.
    game = toy.new_game(["Ann", "Bob"], seed=1)
    legal = game.legal_commands()
    assert toy.Roll(False) == toy.Roll(0)
    assert tuple.__contains__(legal, toy.Roll(False))  # a plain tuple would say yes
    assert toy.Roll(False) not in legal
    assert toy.Roll(0) in legal
    assert not game.is_legal(toy.Roll(False))
    with pytest.raises(core.IllegalCommand):
        game.execute(toy.Roll(False))


def test_below_rejects_draws_that_would_bias_it() -> None:
    # For n = 2**63 + 1 almost half of all 64-bit draws lie above the last whole multiple of n
    # and are drawn again; the results still all lie below n and repeat for the same seed.
    n = 2**63 + 1
    first = core.Rng(5).stream()
    second = core.Rng(5).stream()
    draws = [first.below(n) for _ in range(64)]
    assert draws == [second.below(n) for _ in range(64)]
    assert all(0 <= x < n for x in draws)
    assert len(set(draws)) == 64


def test_the_driver_stops_a_game_that_does_not_end() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=1, goal=10**6)
    steps = play(game, {0: RandomBot(), 1: RandomBot()}, seed=3, max_commands=5)
    with pytest.raises(RuntimeError, match="within 5 commands"):
        list(steps)


def test_a_document_without_setup_or_events_names_both() -> None:
    with pytest.raises(core.DecodeError) as refused:
        toy.CODEC.read_document({"format": "toy", "version": 1})
    assert refused.value.errors == (
        "required field missing @ $.setup",
        "expected a list of events, got null @ $.events",
    )
