"""The codec's fast reading path gives exactly what the strict cattrs path gives.

Every command, event and setup of random games of each game is read by the fast path (it must
not fall back), and equals the strict reading. Values that are slightly off fall back, and then
the strict path reports them exactly as it did without a fast path.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from attrs import define, frozen

from avanti.catalog import GAMES
from avanti.core.codec import _MISS, Codec, _fast, _fast_reader
from avanti.core.errors import DecodeError

PLAYERS = {"avanti": 4, "mare": 3, "autorama": 4}


def _games(name: str, count: int) -> tuple[list[Any], list[Any]]:
    """Random games of ``name``, and every command that was legal along the way."""
    info = GAMES[name]
    games = []
    commands = []
    for seed in range(count):
        game = info.new_game([f"P{i}" for i in range(PLAYERS[name])], seed)
        rnd = random.Random(seed)
        while not game.is_over:
            legal = game.legal_commands()
            commands.extend(legal)
            game = game.execute(rnd.choice(legal))
        games.append(game)
    return games, commands


def _strict_or_error(codec: Codec[Any, Any, Any], data: Any, type_: Any) -> Any:
    try:
        return ("ok", codec._strict(data, type_, "$"))
    except DecodeError as error:
        return ("error", error.errors)


def _read(codec: Codec[Any, Any, Any], data: Any, type_: Any) -> Any:
    try:
        return ("ok", codec.structure(data, type_))
    except DecodeError as error:
        return ("error", error.errors)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_command_and_setup_is_read_fast_and_the_same(name: str) -> None:
    games, commands = _games(name, 4)
    codec = games[0].rules.codec
    fast_event = codec._fast[codec._event]
    fast_command = codec._fast[codec._command]
    fast_setup = codec._fast[codec.setup_type]
    for game in games:
        data = json.loads(game.dumps())
        setup = fast_setup(data["setup"])
        assert setup is not _MISS
        assert setup == codec._strict(data["setup"], codec.setup_type, "$") == game.setup
        for raw, event in zip(data["events"], game.events, strict=True):
            read = fast_event(raw)
            assert read is not _MISS, raw
            assert read == codec._strict(raw, codec._event, "$") == event
            assert type(read) is type(event)
        assert type(game).loads(game.dumps()) == game
    for command in commands:
        raw = json.loads(json.dumps(codec.command_to_data(command)))
        read = fast_command(raw)
        assert read is not _MISS, raw
        assert read == codec._strict(raw, codec._command, "$") == command


_ODD_VALUES: tuple[object, ...] = (
    True,
    False,
    "1",
    1.5,
    None,
    [],
    {},
    [1, "2"],
    "nope",
    -1,
    10**30,
)


def _perturbations(data: dict[str, Any], rnd: random.Random) -> list[dict[str, Any]]:
    """Copies of a tagged object with one key dropped, added, or given an odd value."""
    out = []
    for key in data:
        if key == "type":
            continue
        dropped = dict(data)
        del dropped[key]
        out.append(dropped)
        for value in rnd.sample(_ODD_VALUES, 4):
            changed = copy.deepcopy(data)
            changed[key] = value
            out.append(changed)
        if isinstance(data[key], list) and data[key]:
            inner = copy.deepcopy(data)
            inner[key][0] = rnd.choice(_ODD_VALUES)
            out.append(inner)
    out.append({**data, "extra": 1})
    out.append({**data, "type": "NoSuchEvent"})
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_values_slightly_off_are_judged_by_the_strict_path(name: str) -> None:
    games, _ = _games(name, 2)
    codec = games[0].rules.codec
    rnd = random.Random(7)
    seen: set[str] = set()
    for game in games:
        data = json.loads(game.dumps())
        for raw in data["events"]:
            if raw["type"] in seen:
                continue
            seen.add(raw["type"])
            for odd in _perturbations(raw, rnd):
                assert _read(codec, odd, codec._event) == _strict_or_error(
                    codec, odd, codec._event
                ), odd
        setup = data["setup"]
        for key in setup:
            for value in _ODD_VALUES:
                odd = {**setup, key: value}
                assert _read(codec, odd, codec.setup_type) == _strict_or_error(
                    codec, odd, codec.setup_type
                )


@frozen
class _Inner:
    pair: tuple[int, str]
    ratio: float


@frozen
class _Outer:
    inner: _Inner
    inners: tuple[_Inner, ...]
    flag: bool
    other: dict[str, int]


def test_a_fast_reader_reads_exact_shapes_and_leaves_the_rest() -> None:
    read = _fast(_fast_reader(_Outer, tagged=False))
    inner = {"pair": [1, "a"], "ratio": 0.5}
    good: dict[str, Any] = {"inner": inner, "inners": [inner], "flag": True, "other": {}}
    # a dict field has no fast reading: the whole object goes to the strict path
    assert read(good) is _MISS
    read_inner = _fast(_fast_reader(_Inner, tagged=False))
    assert read_inner(inner) == _Inner((1, "a"), 0.5)
    assert read_inner({"pair": [1, "a", 2], "ratio": 0.5}) is _MISS
    assert read_inner({"pair": [1, "a"], "ratio": 1}) is _MISS  # strict turns 1 into 1.0
    assert read_inner({"pair": (1, "a"), "ratio": 0.5}) is _MISS
    assert read_inner({"pair": [1, "a"], "ratio": 0.5, "type": "x"}) is _MISS


@define(init=False)
class _OwnInit:
    first: int
    second: int

    def __init__(self, second: int, first: int) -> None:
        self.first = first
        self.second = second


def test_a_class_with_its_own_init_is_left_to_the_strict_path() -> None:
    assert _fast(_fast_reader(_OwnInit, tagged=False))({"first": 1, "second": 2}) is _MISS
