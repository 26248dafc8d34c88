"""The core, tested on the toy race in tests/toy.py (no real game involved)."""

from __future__ import annotations

import json
import random
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avanti import core
from avanti.core.values import Replacer
from avanti.store import MemoryEventStore
from tests import toy


def play(seed: int, choices: list[int]) -> toy.Game:
    """Play the toy race, picking each move by index from ``choices`` (cycled)."""
    game = toy.new_game(["Ann", "Bob"], seed=seed)
    step = 0
    while not game.is_over and step < 200:
        legal = game.legal_commands()
        game = game.execute(legal[choices[step % len(choices)] % len(legal)])
        step += 1
    return game


def test_new_game_folds_the_opening_events() -> None:
    game = toy.new_game(["Ann", "Bob", "Cy"], seed=5)
    assert game.version == 3
    assert [type(e) for e in game.events] == [toy.BonusDealt] * 3
    assert game.state.rng == core.Rng(5, 3)  # three random events drawn


def test_execute_returns_a_new_game_and_leaves_the_old_one() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=1)
    after = game.execute(toy.Wait(0))
    assert game.version == 2
    assert game.state.turn == 0
    assert after.version == 3
    assert after.state.turn == 1
    assert after.events[:2] == game.events


def test_illegal_command_names_reason_and_rule_and_changes_nothing() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=1)
    before = toy.Game.replay(game.setup, game.events)
    with pytest.raises(core.IllegalCommand) as info:
        game.execute(toy.Roll(1))
    assert info.value.reason is core.CoreReason.NOT_YOUR_TURN
    assert str(info.value.reason) == "not-your-turn"
    assert info.value.rule == "T2"
    assert str(info.value) == "T2: it is seat 0's turn"
    assert isinstance(info.value, ValueError)
    assert game == before


def test_legal_commands_for_one_seat() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=1)
    assert game.legal_commands() == (toy.Roll(0), toy.Wait(0))
    assert game.legal_commands(0) == (toy.Roll(0), toy.Wait(0))
    assert game.legal_commands(1) == ()


def test_version_conflict() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=1)
    game.execute(toy.Wait(0), expected_version=2)
    with pytest.raises(core.VersionConflict) as info:
        game.execute(toy.Wait(0), expected_version=1)
    assert (info.value.expected, info.value.actual) == (1, 2)


def test_undo_steps_back_one_command_and_keeps_the_dice() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=9)
    rolled = game.execute(toy.Roll(0))
    assert rolled.undo() == game
    # Undo does not re-draw: the same command gives the same roll again.
    assert rolled.undo().execute(toy.Roll(0)) == rolled
    with pytest.raises(core.IllegalCommand) as info:
        game.undo()
    assert info.value.reason is core.CoreReason.NOTHING_TO_UNDO


def test_undo_takes_back_all_events_of_a_command() -> None:
    game = play(seed=4, choices=[0])
    assert isinstance(game.events[-1], toy.Won)
    before = game.undo()
    assert before.version == game.version - 2  # Rolled + Won
    assert not before.is_over


def test_rng_is_a_value_and_reproducible() -> None:
    a = core.Rng(42).stream()
    b = core.Rng(42).stream()
    assert [a.below(6) for _ in range(20)] == [b.below(6) for _ in range(20)]
    assert core.Rng(42).advanced() == core.Rng(42, 1)
    shuffled = core.Rng(3).stream().shuffled(range(10))
    assert sorted(shuffled) == list(range(10))
    with pytest.raises(ValueError, match="positive"):
        core.Rng(1).stream().below(0)


def test_rng_bits_are_splitmix64_and_results_never_change() -> None:
    # A saved game is checked by re-drawing its shuffles, so the generator's results must stay
    # exactly these. SplitMix64 from state 1234567 gives the reference outputs published with
    # the algorithm (Vigna's splitmix64.c).
    stream = core.Rng(0).stream()
    stream._state = 1234567
    assert [stream.bits64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]
    # Stream (seed, counter) start, rejection sampling and Fisher-Yates, as first released.
    assert core.Rng(7).stream().shuffled(range(10)) == (1, 6, 8, 2, 4, 9, 3, 0, 7, 5)
    assert core.Rng(7, 3).stream().below(6) == 2
    assert core.Rng(2**70 + 5, 9).stream().below(1000) == 131
    stream = core.Rng(11).stream()
    bounds = (1, 2, 3, 5, 7, 10, 52, 1000, 2**63 + 1)
    assert [stream.below(n) for n in bounds] == [0, 1, 0, 2, 1, 2, 44, 51, 4021786931413237486]
    assert core.Rng(11).stream().choice("abcdef") == "f"
    assert "".join(core.Rng(5, 2).stream().shuffled("abcdefgh")) == "hdabfceg"


def test_rng_is_roughly_uniform() -> None:
    stream = core.Rng(2024).stream()
    counts = [0] * 6
    for _ in range(6000):
        counts[stream.below(6)] += 1
    # 1000 expected per face; 5 standard deviations is about 144.
    assert all(abs(c - 1000) < 150 for c in counts), counts


def test_global_random_state_is_untouched() -> None:
    random.seed(1234)
    expected = random.getstate()
    play(seed=7, choices=[0, 1])
    assert random.getstate() == expected


def test_redacted_event_stream_hides_other_bonuses() -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    mine = game.events_for(0)
    assert mine[0] == game.events[0]
    assert mine[1] == toy.BonusDealt(1, None)
    assert game.view(1).bonus == game.state.bonuses[1]
    assert game.view(None).bonus is None


@pytest.mark.parametrize("seat", [2, 7, -1, True, 1.0, "0"])
def test_view_and_events_for_refuse_a_seat_not_at_the_table(seat: object) -> None:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    for look in (game.view, game.events_for):
        with pytest.raises(core.IllegalCommand) as refused:
            look(seat)  # type: ignore[call-overload,arg-type]  # not a seat, on purpose
        assert refused.value.reason is core.CoreReason.NO_SUCH_SEAT
        assert str(refused.value) == (
            f"there is no seat {seat!r}: the seats are 0 to 1, or None for a spectator"
        )
    assert game.view(None).bonus is None  # a spectator stays welcome
    assert game.events_for(None) == game.events_for()


def test_replay_detects_a_tampered_roll() -> None:
    game = play(seed=11, choices=[0])
    index = next(i for i, e in enumerate(game.events) if isinstance(e, toy.Rolled))
    event = game.events[index]
    assert isinstance(event, toy.Rolled)
    forged = (*game.events[:index], toy.Rolled(event.seat, event.pips % 6 + 1))
    with pytest.raises(core.CorruptLog) as info:
        toy.Game.replay(game.setup, forged + game.events[index + 1 :])
    assert info.value.index == index


def test_replay_detects_a_truncated_command_and_a_stray_event() -> None:
    game = play(seed=4, choices=[0])
    with pytest.raises(core.CorruptLog) as info:
        toy.Game.replay(game.setup, game.events[:-1])  # Won missing after the last Rolled
    assert info.value.index == game.version - 1
    with pytest.raises(core.CorruptLog) as info:
        toy.Game.replay(game.setup, (*game.events[:2], toy.Won(0)))
    assert info.value.index == 2
    with pytest.raises(core.CorruptLog) as info:
        toy.Game.replay(game.setup, (toy.BonusDealt(0, 9), *game.events[1:]))
    assert info.value.index == 0


def test_unverified_replay_trusts_the_log() -> None:
    game = play(seed=4, choices=[0, 1])
    assert toy.Game.replay(game.setup, game.events, verify=False) == game


def test_json_document_shape() -> None:
    game = toy.new_game(["Ann"], seed=2).execute(toy.Wait(0))
    data = json.loads(game.dumps())
    assert data == {
        "format": "toy",
        "version": 1,
        "setup": {"players": ["Ann"], "seed": 2, "goal": 10},
        "events": [
            {"type": "BonusDealt", "seat": 0, "bonus": game.state.bonuses[0]},
            {"type": "Waited", "seat": 0},
        ],
    }


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d["setup"].__setitem__("seed", "2"), "$.setup.seed"),
        (lambda d: d["setup"].__setitem__("seed", True), "$.setup.seed"),
        (lambda d: d["setup"].__setitem__("players", "Ann"), "$.setup.players"),
        (lambda d: d["setup"].pop("players"), "$.setup.players"),
        (lambda d: d["events"][1].__setitem__("extra", 1), "$.events[1]"),
        (lambda d: d["events"][1].__setitem__("type", "Flew"), "$.events[1]"),
        (lambda d: d["events"][0].__setitem__("bonus", 1.5), "$.events[0].bonus"),
        (lambda d: d.__setitem__("format", "chess"), "$.format"),
        (lambda d: d.__setitem__("version", 99), "$.version"),
        (lambda d: d.__setitem__("events", {}), "$.events"),
    ],
)
def test_decode_errors_name_the_json_path(mutate: object, path: str) -> None:
    game = toy.new_game(["Ann"], seed=2).execute(toy.Wait(0))
    data = json.loads(game.dumps())
    assert callable(mutate)
    mutate(data)
    with pytest.raises(core.DecodeError) as info:
        toy.Game.loads(json.dumps(data))
    assert any(error.endswith(path) or f"{path}." in error for error in info.value.errors), (
        info.value.errors
    )


def test_decode_error_lists_every_bad_field() -> None:
    data = json.loads(toy.new_game(["Ann"], seed=2).execute(toy.Wait(0)).dumps())
    data["setup"]["seed"] = "x"
    data["events"][1]["seat"] = None
    with pytest.raises(core.DecodeError) as info:
        toy.Game.loads(json.dumps(data))
    assert len(info.value.errors) == 2


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "[" * 100_000, '{"a": 1e999999}'])
def test_malformed_json_raises_decode_error(text: str) -> None:
    with pytest.raises(core.DecodeError):
        toy.Game.loads(text)


def test_invalid_setup_in_a_document_is_a_decode_error() -> None:
    data = json.loads(toy.new_game(["Ann"], seed=2).dumps())
    data["setup"]["players"] = []
    data["events"] = []
    with pytest.raises(core.DecodeError, match="T1"):
        toy.Game.loads(json.dumps(data))


def test_upcasters_bring_old_documents_forward() -> None:
    codec: core.Codec[toy.Setup, toy.Command, toy.Event] = core.Codec(
        format="toy",
        version=2,
        setup_type=toy.Setup,
        commands=toy.COMMANDS,
        events=toy.EVENTS,
        upcasters={1: lambda d: {**d, "version": 2, "setup": {**d["setup"], "goal": 12}}},
    )
    old = json.loads(toy.new_game(["Ann"], seed=2).dumps())
    del old["setup"]["goal"]
    setup, events = codec.read_document(old)
    assert setup.goal == 12
    assert len(events) == 1


def test_commands_and_events_as_tagged_json() -> None:
    codec = toy.CODEC
    assert codec.command_to_data(toy.Roll(1)) == {"type": "Roll", "seat": 1}
    assert codec.command_from_data({"type": "Wait", "seat": 0}) == toy.Wait(0)
    assert codec.event_from_data({"type": "Won", "seat": 1}) == toy.Won(1)
    with pytest.raises(core.DecodeError):
        codec.command_from_data({"type": "Won", "seat": 1})
    with pytest.raises(core.DecodeError):
        codec.command_from_data(["Roll", 1])


def test_the_core_memory_store_is_deprecated_and_still_works() -> None:
    """``avanti.core.MemoryEventStore`` (the first store, events as objects) still works for
    code written against it, and says where the stores live now."""
    with pytest.warns(DeprecationWarning, match=r"use avanti\.store\.MemoryEventStore"):
        store: core.MemoryEventStore[toy.Event] = core.MemoryEventStore()
    assert store.append("g1", [toy.Waited(0)], expected_version=0) == 1
    with pytest.raises(core.VersionConflict):
        store.append("g1", [toy.Waited(1)], expected_version=0)
    assert store.read("g1") == (toy.Waited(0),)
    assert store.read("nope") == ()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64), choices=st.lists(st.integers(0, 1), min_size=1, max_size=8))
def test_replay_and_json_round_trip(seed: int, choices: list[int]) -> None:
    game = play(seed, choices)
    assert toy.Game.replay(game.setup, game.events) == game
    assert toy.Game.loads(game.dumps()) == game
    assert play(seed, choices).dumps() == game.dumps()


def test_replacer_copies_a_frozen_value_with_some_fields_changed() -> None:
    replace = Replacer(toy.Setup)
    setup = toy.Setup(("Ann",), 3, 10)
    assert replace.names == ("players", "seed", "goal")
    assert replace(setup, {"goal": 12}) == toy.Setup(("Ann",), 3, 12)
    assert setup.goal == 10


def _race(store: MemoryEventStore, stream: str, writers: int) -> list[object]:
    """``writers`` threads append two events each at version 0 of ``stream``, released at once;
    what each was told: its new version, or the ``VersionConflict``."""
    store.create(stream, format="toy", format_version=2, setup={})
    barrier = threading.Barrier(writers)
    told: list[object] = []

    def write(writer: int) -> None:
        barrier.wait()
        try:
            told.append(store.append(stream, [writer, writer], expected_version=0))
        except core.VersionConflict as conflict:
            told.append(conflict)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return told


def test_the_memory_store_lets_exactly_one_of_racing_writers_win() -> None:
    """Eight threads append at the same version, 300 times over: one write wins each race, the
    other seven are told of the conflict, and the stream holds exactly the winner's events."""
    store = MemoryEventStore()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so an unlocked check-then-write loses
    try:
        results = [_race(store, f"game-{race}", 8) for race in range(300)]
    finally:
        sys.setswitchinterval(interval)
    for race, told in enumerate(results):
        assert told.count(2) == 1  # one writer was told the new version
        conflicts = [t for t in told if isinstance(t, core.VersionConflict)]
        assert len(conflicts) == 7
        assert {(c.expected, c.actual) for c in conflicts} == {(0, 2)}
        (first, second) = store.read(f"game-{race}")
        assert first.data == second.data


def test_last_events_are_the_last_commands_events_as_a_seat_sees_them() -> None:
    """Before any command there are none (the opening deal belongs to no command); after one,
    exactly its events. (Blanking for a seat: Avanti's laid card, tests/avanti/test_svg.py.)"""
    game = toy.new_game(["Ann", "Bob"], seed=3)
    assert game.last_events() == ()
    game = game.execute(toy.Roll(0))
    assert game.last_events() == game.last_events(1) == (game.events[-1],)
    game = game.execute(toy.Wait(1))
    assert game.last_events(0) == (toy.Waited(1),)
    with pytest.raises(core.IllegalCommand):
        game.last_events(2)
