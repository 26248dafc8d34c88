"""The table's record: one typed reader and writer of every key the server stores, and the one
compare-and-swap helper every change of a record goes through."""

from __future__ import annotations

import ast
import asyncio
import functools
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st

from avanti import mare
from avanti.server.limits import ServerLimits
from avanti.server.protocol.requests import CommandRequest, NewGame
from avanti.server.protocol.wire import ApiError
from avanti.server.table.master import MAX_RETRIES, Tables
from avanti.server.table.record import (
    KEYS,
    BadRecord,
    GameSummary,
    OpenSeats,
    OpenSummary,
    Seat,
    Started,
    Table,
    TableRecord,
)
from avanti.store import GameStore, MemoryEventStore, MetadataChanged, StoredStream

SERVER = Path(__file__).parents[2] / "src" / "avanti" / "server"

texts = st.text(max_size=8)
hashes = st.none() | st.text("0123456789abcdef", min_size=64, max_size=64)
bots = st.none() | st.sampled_from(["random", "heuristic", "search"])
seats = st.builds(Seat, texts, hashes, bots)
tables = st.builds(Table, texts, st.lists(seats, max_size=4).map(tuple))
opens = st.builds(
    OpenSeats,
    texts,
    st.lists(st.none() | seats, max_size=4).map(tuple),
    hashes,
    st.booleans(),
    st.none() | st.lists(st.none() | texts, min_size=1, max_size=4).map(tuple),
)
summaries = (
    st.none()
    | st.builds(
        GameSummary,
        st.lists(texts, max_size=3).map(tuple),
        st.none() | st.integers(0, 99),
        st.none() | st.lists(texts, max_size=3).map(tuple),
    )
    | st.builds(OpenSummary, st.integers(0, 9), st.integers(0, 9))
)
finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)
records = st.builds(
    TableRecord,
    table=st.none() | tables,
    open=st.none() | opens,
    client=st.none() | texts,
    summary=summaries,
    clock=st.none() | st.floats(min_value=0.5, max_value=1e6),
    clock_started=st.none() | st.builds(Started, st.integers(0, 10**6), finite),
    rematch=st.none() | texts,
    outcome=st.none() | st.fixed_dictionaries({"winners": st.lists(st.integers(0, 3))}),
    others=st.dictionaries(texts.filter(lambda key: key not in KEYS), st.integers(), max_size=2),
)


@given(records)
def test_every_field_of_a_record_round_trips_through_its_stored_json(record: TableRecord) -> None:
    stored = json.loads(json.dumps(record.to_metadata()))
    assert TableRecord.from_metadata(stored) == record
    assert TableRecord.from_metadata(stored).to_metadata() == stored


@given(records, records, st.data())
def test_a_record_updated_by_some_keys_is_the_record_of_the_merged_metadata(
    record: TableRecord, other: TableRecord, data: st.DataObject
) -> None:
    """What a command's append leaves (the stored keys it sets merged into the record) is read
    from the keys it set alone, as the whole would be read."""
    stored = json.loads(json.dumps(record.to_metadata()))
    theirs = json.loads(json.dumps(other.to_metadata()))
    keys = data.draw(
        st.lists(st.sampled_from(sorted(theirs)), unique=True) if theirs else st.just([])
    )
    update = {key: theirs[key] for key in keys}
    merged = TableRecord.from_metadata({**stored, **update})
    assert TableRecord.from_metadata(stored).updated(update) == merged


def test_the_tables_read_only_the_keys_an_append_set() -> None:
    """The table core reads a record once; the next version of it, the same keys but those an
    append set, is read from those keys alone (the others are the same objects)."""
    tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
    table = Table("mare", (Seat("Ann", "a" * 64, None), Seat("Bob", None, "random")))
    first = {**TableRecord(table=table, summary=GameSummary(("Ann", "Bob"), 1, None)).to_metadata()}
    stream = StoredStream("g", "mare", 1, {}, first, 3, 0.0, 0.0)
    kept = tables.record_of(stream)
    reads: list[object] = []
    real = TableRecord.from_metadata

    def counting(metadata: Any) -> TableRecord:
        reads.append(sorted(metadata))
        return real(metadata)

    summary = {"summary": {"turn": ["Ann"], "round": 2, "winners": None}}
    then = evolve(stream, version=4, metadata={**first, **summary})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TableRecord, "from_metadata", staticmethod(counting))
        after = tables.record_of(then)
        assert tables.record_of(then) is after  # the same version: not read again
    assert reads == [["summary"]]
    assert after == evolve(kept, summary=GameSummary(("Ann",), 2, None))
    assert after == real(then.metadata)


def test_records_the_server_wrote_before_are_read_as_they_are() -> None:
    game = {
        "server": {
            "game": "mare",
            "seats": [
                {"name": "Ann", "token_sha256": "a" * 64, "bot": None},
                {"name": "Bob", "token_sha256": None, "bot": "heuristic"},
            ],
        },
        "summary": {"turn": ["Ann"], "round": None, "winners": None},
        "client": "0123456789abcdef",
        "clock": 30,
        "clock_started": {"version": 3, "at": 1796069130.5},
        "rematch": "a1b2c3d4e5f60718",
        "outcome": {"winners": [0], "returns": [1, -1]},
        "note": "a key the server does not know",
    }
    record = TableRecord.from_metadata(game)
    assert record.table is not None
    assert record.table.seats[1].bot == "heuristic"
    assert record.clock == 30.0
    assert record.clock_started == Started(3, 1796069130.5)
    assert record.rematch == "a1b2c3d4e5f60718"
    assert record.over
    assert record.others == {"note": "a key the server does not know"}
    assert record.to_metadata() == {**game, "clock": 30.0}
    table = {  # an open table of the first format: no "started", no "sides", a client of null
        "open": {
            "game": "mare",
            "seats": [
                {"name": "Ann", "token_sha256": "b" * 64, "bot": None},
                {"name": None, "token_sha256": None, "bot": None},
            ],
            "host_sha256": "b" * 64,
        },
        "summary": {"taken": 1, "seats": 2},
        "client": None,
    }
    opened = TableRecord.from_metadata(table).open
    assert opened is not None
    assert opened.seats[1] is None
    assert (opened.started, opened.sides) == (False, None)
    assert TableRecord.from_metadata({}) == TableRecord()


@pytest.mark.parametrize(
    ("metadata", "problem"),
    [
        ({"server": []}, "expected an object, got list @ $.server"),
        ({"server": {"game": "mare", "seats": [{"name": 7}]}}, "@ $.server.seats[0].name"),
        ({"clock": -1}, "expected a finite number of seconds above 0 @ $.clock"),
        ({"clock": "30"}, "expected a number, got str @ $.clock"),
        ({"clock_started": {"version": -1, "at": 1.0}}, "@ $.clock_started"),
        ({"summary": 3}, "expected an object, got int @ $.summary"),
        ({"rematch": 7}, "@ $.rematch"),
        ({"open": {"game": "mare", "seats": [{"name": None, "bot": "x"}]}}, "@ $.open"),
    ],
)
def test_a_malformed_record_is_refused_with_every_problem_and_its_path(
    metadata: dict[str, Any], problem: str
) -> None:
    with pytest.raises(BadRecord) as raised:
        TableRecord.from_metadata(metadata)
    assert any(problem in found for found in raised.value.errors)
    assert str(raised.value).startswith("cannot read the table's record:")
    assert Table.from_metadata(metadata) is None


def test_a_record_refuses_a_clock_that_is_no_time_per_move() -> None:
    for wrong in (0.0, -5.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="seconds above 0"):
            TableRecord(clock=wrong)


def seated(store: MemoryEventStore) -> Tables:
    """A table core with one game of two people."""
    tables = Tables(GameStore(store), ServerLimits())
    table = Table("mare", (Seat("Ann", "a" * 64, None), Seat("Bob", "b" * 64, None)))
    tables.games.create("g", mare.new_game(["Ann", "Bob"], seed=1), table.to_metadata())
    return tables


def bot_at(seat: int, kind: str) -> Any:
    """A change that hands ``seat`` to a bot of ``kind``."""

    def change(record: TableRecord, _: int) -> TableRecord:
        assert record.table is not None
        return evolve(record, table=record.table.with_bot(seat, kind))

    return change


def test_two_interleaved_changes_through_the_helper_both_land() -> None:
    store = MemoryEventStore()
    tables = seated(store)
    real = store.set_metadata
    calls: list[int] = []

    def interleaved(stream: str, metadata: Any, *, expected: Any = None) -> StoredStream:
        calls.append(1)
        if len(calls) == 1:  # another writer changes the record between this read and write
            tables.change_record("g", bot_at(1, "heuristic"))
        return real(stream, metadata, expected=expected)

    store.set_metadata = interleaved  # type: ignore[method-assign]
    changed = tables.change_record("g", bot_at(0, "random"))
    assert len(calls) == 3  # the first write lost the race, was read, changed and written again
    assert changed.table is not None
    assert changed.table.bots == {"0": "random", "1": "heuristic"}
    assert TableRecord.from_metadata(store.stream("g").metadata) == changed


def test_a_change_that_changes_nothing_writes_nothing_and_a_storm_is_refused() -> None:
    store = MemoryEventStore()
    tables = seated(store)
    before = store.stream("g")
    assert tables.change_record("g", lambda record, _: record) == tables.record_of(before)
    assert store.stream("g").updated == before.updated

    def always_changed(stream: str, metadata: Any, *, expected: Any = None) -> StoredStream:
        raise MetadataChanged(stream)

    store.set_metadata = always_changed  # type: ignore[method-assign]
    with pytest.raises(ApiError) as raised:
        tables.change_record("g", bot_at(0, "random"), "the game's seats")
    assert raised.value.status == 409
    assert "the game's seats keeps changing" in str(raised.value.message)
    assert MAX_RETRIES > 1


STORED_ONLY = {"token_sha256", "host_sha256", "clock_started"}
"""Keys of a record that mean nothing anywhere else in the server."""


def test_only_the_record_module_names_a_stored_key() -> None:
    wrong = []
    for path in sorted(SERVER.rglob("*.py")):
        if path.name == "record.py" and path.parent.name == "table":
            continue
        table_core = path.parent.name == "table" or path.name == "runtime.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(SERVER)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Constant) and node.value in STORED_ONLY:
                wrong.append(f"{where} names {node.value!r}")
            if isinstance(node, ast.Subscript) and _is_metadata(node.value):
                wrong.append(f"{where} reads a key of a record's metadata")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and _is_metadata(node.func.value)
            ):
                wrong.append(f"{where} reads a key of a record's metadata")
            if isinstance(node, ast.Compare) and any(
                isinstance(op, ast.In | ast.NotIn) and _is_metadata(c)
                for op, c in zip(node.ops, node.comparators, strict=True)
            ):
                wrong.append(f"{where} looks for a key in a record's metadata")
            if table_core and isinstance(node, ast.Dict):
                for key in node.keys:
                    if isinstance(key, ast.Constant) and key.value in KEYS:
                        wrong.append(f"{where} writes the key {key.value!r}")
    assert wrong == []


ATTRS_FIELDS = frozenset({"field", "found"})
"""The names the protocol's modules give an attrs field, whose ``metadata`` is what the field
declares of itself (its wire type, its refusal), never a record's."""


def _is_metadata(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "metadata"
        and not (isinstance(node.value, ast.Name) and node.value.id in ATTRS_FIELDS)
    )


@pytest.mark.parametrize("seconds", [None, 30.0])
def test_the_record_a_command_leaves_is_the_record_its_metadata_holds(
    seconds: float | None,
) -> None:
    """A command's record (what the clock, the bots and the hub are told) is made from the
    record it was decided on and the keys its append set, not read; it is what a read of the
    stored metadata gives, for every command of a game to its end, timed or not (the append of
    a timed game's move writes when its new version began to wait)."""

    store = GameStore(MemoryEventStore(), hold=True)
    tables = Tables(store, ServerLimits())
    tables.clock_now = lambda: 1_000.0
    body: dict[str, Any] = {"game": "mare", "players": ["Ann", "Bob"]}
    if seconds is not None:
        body["seconds_per_move"] = seconds
    created = tables.create(NewGame.read(body, ()), "client")
    rng = random.Random(5)

    async def play() -> int:
        game, commands = created.game, 0
        assert game is not None
        while not game.is_over:
            seat = game.waiting[0]
            command = rng.choice(list(game.legal_commands(seat)))
            request = CommandRequest.read(
                {"command": type(game).rules.codec.command_to_data(command)}
            )
            if commands % 2:  # decided on the loop, or in a worker thread: both roads
                acted = await tables.act_soon(created.game_id, request, seat=seat)
            else:
                act = functools.partial(tables.act, created.game_id, request, seat=seat)
                acted = await asyncio.to_thread(act)
            stored = store.events.stream(created.game_id)
            assert acted.kept == TableRecord.from_metadata(stored.metadata)
            assert acted.kept == TableRecord.from_metadata(acted.executed.record.metadata)
            assert (acted.kept.clock_started is not None) is (seconds is not None)
            game, commands = acted.game, commands + 1
        return commands

    assert asyncio.run(play()) >= 2  # both roads (the game's length is its secret seed's)
