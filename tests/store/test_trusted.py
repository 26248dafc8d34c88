"""The GameStore's own road to an append (``EventStore._append_trusted``): the same refusals as
``append_soon``, answered on the caller's event loop, one wake-up of the loop for each batch the
SQLite writer commits; and the SQLite writer's metadata compared in its ``UPDATE``."""

from __future__ import annotations

import asyncio
import datetime
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import InvalidArgument, VersionConflict
from avanti.store import (
    MAX_APPEND_BYTES,
    MAX_APPEND_EVENTS,
    MAX_METADATA_BYTES,
    EventStore,
    GameStore,
    MemoryEventStore,
    MetadataChanged,
    SQLiteEventStore,
    StoredStream,
    StoreError,
)
from avanti.store.base import dump_json, merge_metadata
from tests.store.contract import in_thread
from tests.store.test_sqlite import Holding, writing


def trusted(
    store: EventStore,
    stream: str,
    events: list[JSONValue],
    expected: int,
    *,
    update: dict[str, JSONValue] | None = None,
    known: dict[str, JSONValue] | None = None,
    command_id: str | None = None,
    digest: str | None = None,
) -> int:
    """One append by the trusted road, awaited on an event loop of its own."""

    async def append() -> int:
        texts = tuple(dump_json(event, "an event") for event in events)
        return await store._append_trusted(
            stream, events, texts, expected, command_id, digest, update, known
        )

    return asyncio.run(append())


async def _answered_once_queued(
    store: SQLiteEventStore, holding: Holding, begun: list[Any]
) -> list[object]:
    """Once every append of ``begun`` waits in the writer's queue (behind ``holding``), let
    the file go; each append's answer or refusal."""
    while store._requests.qsize() < len(begun):
        await asyncio.sleep(0.001)
    holding.release()
    return list(await asyncio.gather(*begun, return_exceptions=True))


@pytest.fixture(params=["sqlite", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """A SQLite store in a file, or one in memory (the base class's road)."""
    made: EventStore = (
        SQLiteEventStore(tmp_path / "g.db") if request.param == "sqlite" else MemoryEventStore()
    )
    with made:
        yield made


def choose_first(record: StoredStream, game: Any) -> Any:
    """The first legal command of the game."""
    return game.legal_commands()[0]


def count_reads(store: EventStore) -> list[str]:
    """The reads of ``store`` from now on (``stream`` and ``read``, wrapped on the instance),
    in the order they are made."""
    reads: list[str] = []
    for name in ("stream", "read"):
        real = getattr(store, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
            reads.append(_name)
            return _real(*args, **kw)

        setattr(store, name, counted)
    return reads


def avanti_game(seed: int) -> Any:
    """A new game of Avanti, the catalog's default table."""
    info = catalog.game_info("avanti")
    return info.new_game(info.player_names(), seed=seed)


def test_the_trusted_road_answers_and_refuses_as_append_soon(store: EventStore) -> None:
    store.create("s", format="toy", format_version=1, setup={}, metadata={"a": [1, 2]})
    assert trusted(store, "s", [{"type": "x"}], 0, known={"a": [1, 2]}, update={"b": 1}) == 1
    assert dict(store.stream("s").metadata) == {"a": [1, 2], "b": 1}
    # equal as JSON: a tuple is the list it is written as
    assert trusted(store, "s", [2], 1, known={"a": (1, 2), "b": 1}, update={"c": (3,)}) == 2
    assert dict(store.stream("s").metadata) == {"a": [1, 2], "b": 1, "c": [3]}
    with pytest.raises(MetadataChanged):
        trusted(store, "s", [3], 2, known={"a": [1, 2]})
    with pytest.raises(VersionConflict):
        trusted(store, "s", [3], 1, known={"a": [1, 2], "b": 1, "c": [3]})
    assert trusted(store, "s", [3], 2, command_id="c", digest="d") == 3
    assert trusted(store, "s", [3], 2, command_id="c", digest="d") == 3  # a retry
    assert store.stream("s").version == 3


def test_the_trusted_road_keeps_the_limits(store: EventStore) -> None:
    """Beyond a limit (events, bytes, metadata) or with a malformed digest: the same
    InvalidArgument as append_soon's, at once, and nothing is written."""
    store.create("s", format="toy", format_version=1, setup={})
    big = "x" * (MAX_APPEND_BYTES // 2)
    with pytest.raises(InvalidArgument, match=r"at most 1048576 bytes"):
        trusted(store, "s", [big, big], 0)
    with pytest.raises(InvalidArgument, match=r"at most 1000 events"):
        trusted(store, "s", [0] * (MAX_APPEND_EVENTS + 1), 0)
    with pytest.raises(InvalidArgument, match=r"metadata holds at most"):
        trusted(store, "s", [0], 0, update={"big": "y" * MAX_METADATA_BYTES})
    with pytest.raises(InvalidArgument, match=r"command_digest"):
        trusted(store, "s", [0], 0, command_id="c", digest="d" * 129)
    assert store.stream("s").version == 0
    assert store.read("s") == ()
    assert dict(store.stream("s").metadata) == {}


def test_a_closed_store_refuses_the_trusted_road(store: EventStore) -> None:
    store.create("s", format="toy", format_version=1, setup={})
    store.close()
    with pytest.raises(StoreError):
        trusted(store, "s", [0], 0)


def test_held_commands_of_a_batch_are_answered_with_one_wake_up(tmp_path: Path) -> None:
    """Eight held games' commands queued behind an append that waits for the file: the writer
    commits them in one transaction and answers them all with one ``call_soon_threadsafe``;
    none before the commit, each readable from a second store object when it is answered."""
    path = tmp_path / "g.db"
    store, second = SQLiteEventStore(path, timeout=60.0), SQLiteEventStore(path)
    games = GameStore(store, hold=True)
    ids = [f"g{i}" for i in range(8)]
    for number, game_id in enumerate(ids):
        games.create(game_id, avanti_game(number + 1))
        games.run(game_id, choose_first)  # held from now on
    store.create("first", format="toy", format_version=1, setup={})
    holding = Holding(path)
    first = in_thread(lambda: store.append("first", [1], 0))
    writing()  # the writer waits for the file with the first append

    async def commands() -> tuple[int, list[tuple[int, int]]]:
        loop = asyncio.get_running_loop()
        real = loop.call_soon_threadsafe
        calls = 0
        main = threading.current_thread()

        def counted(*args: Any, **kw: Any) -> Any:
            nonlocal calls
            if threading.current_thread() is not main:
                calls += 1
            return real(*args, **kw)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]

        async def one(game_id: str) -> tuple[int, int]:
            executed = await games.run_soon(game_id, choose_first)
            return executed.game.version, second.stream(game_id).version

        tasks = [asyncio.ensure_future(one(game_id)) for game_id in ids]
        while store._requests.qsize() < len(ids):  # each queued behind the first
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.05)
        assert not any(task.done() for task in tasks)  # nothing answered before the commit
        holding.release()
        told = await asyncio.gather(*tasks)
        return calls, told

    calls, told = asyncio.run(commands())
    first[0].join()
    assert first[1] == [1]
    assert calls == 1
    assert all(version == stored for version, stored in told)
    for game_id, (version, _) in zip(ids, told, strict=True):
        assert GameStore(second).load(game_id).version == version
    store.close()
    second.close()


def test_a_held_append_compares_the_metadata_in_its_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer knows the text it wrote: the next append expecting that metadata reads none.
    Once another writer changed the metadata (or moved the version), the append is refused as
    before: MetadataChanged, VersionConflict; metadata equal as JSON in another text passes."""
    path = tmp_path / "g.db"
    store, other = SQLiteEventStore(path), SQLiteEventStore(path)
    store.create("s", format="toy", format_version=1, setup={}, metadata={"a": 1})
    reads = 0
    real = store._metadata

    def counted(text: object) -> dict[str, JSONValue]:
        nonlocal reads
        reads += 1
        return real(text)

    monkeypatch.setattr(store, "_metadata", counted)
    assert trusted(store, "s", [0], 0, known={"a": 1}, update={"n": 0}) == 1
    assert reads == 1  # nothing known yet: read
    for n in range(1, 4):
        assert trusted(store, "s", [n], n, known={"a": 1, "n": n - 1}, update={"n": n}) == n + 1
    assert store.append("s", [4], 4, expected_metadata={"a": 1, "n": 3}) == 5
    assert reads == 1  # compared in the UPDATE
    assert dict(other.stream("s").metadata) == {"a": 1, "n": 3}
    other.set_metadata("s", {"a": 2, "n": 3})
    with pytest.raises(MetadataChanged):
        trusted(store, "s", [5], 5, known={"a": 1, "n": 3}, update={"n": 5})
    with pytest.raises(MetadataChanged):
        store.append("s", [5], 5, expected_metadata={"a": 1, "n": 3})
    assert reads == 3
    assert other.stream("s").version == 5
    assert dict(other.stream("s").metadata) == {"a": 2, "n": 3}
    other.set_metadata("s", {"n": 3, "a": 2})  # the same JSON object, another text
    assert trusted(store, "s", [5], 5, known={"a": 2, "n": 3}, update={"n": 5}) == 6
    assert dict(other.stream("s").metadata) == {"a": 2, "n": 5}
    assert other.append("s", [6], 6) == 7  # another writer moves the version
    with pytest.raises(VersionConflict) as caught:
        trusted(store, "s", [6], 6, known={"a": 2, "n": 5}, update={"n": 6})
    assert caught.value.actual == 7
    assert trusted(store, "s", [7], 7, known={"a": 2, "n": 5}, update={"n": 7}) == 8
    assert dict(other.stream("s").metadata) == {"a": 2, "n": 7}
    assert [r.data for r in other.read("s")] == list(range(8))
    store.close()
    other.close()


def test_metadata_grown_beyond_the_limit_meanwhile_is_refused_as_changed(tmp_path: Path) -> None:
    """An update that would be too big with the metadata known, when another writer changed it
    meanwhile: MetadataChanged, as the read would have found."""
    path = tmp_path / "g.db"
    store, other = SQLiteEventStore(path), SQLiteEventStore(path)
    half = "y" * (MAX_METADATA_BYTES // 2)
    store.create("s", format="toy", format_version=1, setup={})
    assert trusted(store, "s", [0], 0, known={}, update={"a": half}) == 1
    other.set_metadata("s", {"b": 1})
    with pytest.raises(MetadataChanged):
        trusted(store, "s", [1], 1, known={"a": half}, update={"c": half})
    with pytest.raises(InvalidArgument, match="metadata holds at most"):
        trusted(store, "s", [1], 1, known={"b": 1}, update={"a": half, "c": half})
    assert other.stream("s").version == 1
    store.close()
    other.close()


def test_held_commands_with_a_summary_of_tuples_are_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A summary that holds tuples: the record after each command is the one before with the
    summary set, the stored metadata equal to it as JSON, and no command reads the game."""
    store = SQLiteEventStore(tmp_path / "g.db")
    games = GameStore(store, hold=True)
    games.create("g", avanti_game(5), {"seats": ["Ann", "Bob"]})

    def summarize(after: Any) -> dict[str, JSONValue]:
        return {"summary": {"turn": tuple(after.waiting), "at": (after.version,)}}

    games.run("g", choose_first, summarize=summarize)
    reads = []
    for method in ("stream", "read"):
        monkeypatch.setattr(store, method, lambda *a, _m=method, **k: reads.append(_m))

    async def commands() -> list[Any]:
        return [await games.run_soon("g", choose_first, summarize=summarize) for _ in range(5)]

    done = asyncio.run(commands())
    monkeypatch.undo()
    assert reads == []
    last = done[-1]
    assert dict(last.record.metadata) == {"seats": ["Ann", "Bob"], **summarize(last.game)}
    stored = dict(store.stream("g").metadata)
    assert stored == {
        "seats": ["Ann", "Bob"],
        "summary": {"turn": list(last.game.waiting), "at": [last.game.version]},
    }
    store.close()


@pytest.mark.parametrize("road", ["append_soon", "trusted"])
def test_an_append_whose_waiter_was_cancelled_leaves_the_others_answered(
    tmp_path: Path, road: str
) -> None:
    """A caller that stops waiting for its append (its future cancelled while queued): the
    append stands, and every other append of the batch is answered with its version."""
    path = tmp_path / "g.db"
    store = SQLiteEventStore(path, timeout=60.0)
    names = [f"s{i}" for i in range(4)]
    for name in ["first", *names]:
        store.create(name, format="toy", format_version=1, setup={})
    holding = Holding(path)
    first = in_thread(lambda: store.append("first", [1], 0))
    writing()

    async def appends() -> list[object]:
        if road == "append_soon":
            plain = [store.append_soon(name, [0], 0) for name in names]
            assert plain[1].cancel()
            begun = [asyncio.wrap_future(future) for future in plain]
        else:
            begun = [
                store._append_trusted(name, [0], ("0",), 0, None, None, None, None)
                for name in names
            ]
            begun[1].cancel()
        return await _answered_once_queued(store, holding, begun)

    told = asyncio.run(appends())
    first[0].join()
    assert isinstance(told[1], asyncio.CancelledError)
    assert [told[0], told[2], told[3]] == [1, 1, 1]
    assert all(store.stream(name).version == 1 for name in names)
    store.close()


def pipelined(tmp_path: Path, meanwhile: Any) -> tuple[list[int], list[Any], GameStore]:
    """Two commands of one held game sent while the file is locked by another connection: the
    versions each decision was made on, the two answers, and a second store's reading. Before
    the lock is released, ``meanwhile(connection)`` runs in its transaction."""
    path = tmp_path / "g.db"
    games = GameStore(SQLiteEventStore(path, timeout=60.0), hold=True)
    games.create("g", avanti_game(3), {"seats": 3})
    decided: list[int] = []

    def choose(record: StoredStream, game: Any) -> Any:
        decided.append(game.version)
        return game.legal_commands()[0]

    async def play() -> list[Any]:
        await games.run_soon("g", choose)  # the game is held from now on
        holding = Holding(path)
        try:
            first = asyncio.create_task(games.run_soon("g", choose))
            second = asyncio.create_task(games.run_soon("g", choose))
            for _ in range(10_000):  # until both are decided (the loop's turns, not a time)
                if len(decided) == 3:
                    break
                await asyncio.sleep(0)
            assert len(decided) == 3, "the second command waited for the first's append"
            assert not first.done()
            assert not second.done()  # nothing is answered before it is durable
            meanwhile(holding.raw)
        finally:
            holding.release()
        return [await first, await second]

    answers = asyncio.run(play())
    return decided, answers, GameStore(SQLiteEventStore(path))


def test_a_games_next_command_is_decided_while_the_append_before_is_on_its_way(
    tmp_path: Path,
) -> None:
    """The second command is decided on the game the first left, while the first's append
    still waits for the file; both are answered once committed, in order."""
    decided, (first, second), reader = pipelined(tmp_path, lambda connection: None)
    assert decided[1:] == [first.before, first.game.version]
    assert second.before == first.game.version
    assert second.game.version > first.game.version
    assert reader.load("g", verify=True) == second.game


def test_when_the_append_before_is_refused_the_next_command_is_read_and_decided_again(
    tmp_path: Path,
) -> None:
    """Another writer changes the record while both appends wait: the first is refused and
    decided again on a fresh read, and so is the second, decided on what the first would have
    left; both land, in order, beside the other writer's change."""

    def other_writer(connection: Any) -> None:
        connection.execute("UPDATE streams SET metadata = ? WHERE stream = 'g'", ('{"x": 1}',))
        connection.execute("COMMIT")
        connection.execute("BEGIN IMMEDIATE")

    decided, (first, second), reader = pipelined(tmp_path, other_writer)
    assert len(decided) == 5  # each decided again after the refusal
    assert second.before == first.game.version
    assert reader.load("g", verify=True) == second.game
    assert reader.events.stream("g").metadata["x"] == 1


def test_a_game_another_writer_moved_is_held_once_loaded(tmp_path: Path) -> None:
    """A server loads a game another process moved, to show its seats: the load holds it with
    its record, so the next command on it is decided and appended without a read."""
    path = tmp_path / "g.db"
    mine = GameStore(SQLiteEventStore(path), hold=True)
    theirs = GameStore(SQLiteEventStore(path), hold=True)
    mine.create("g", avanti_game(4), {"seats": 3})

    async def play() -> tuple[int, Any]:
        await mine.run_soon("g", choose_first)
        await theirs.run_soon("g", choose_first)  # another process moves the game on
        shown = mine.load("g")  # what the follower of this process does
        reads = count_reads(mine.events)
        executed = await mine.run_soon("g", choose_first)
        assert executed.before == shown.version
        return len(reads), executed

    reads, executed = asyncio.run(play())
    assert reads == 0
    assert GameStore(SQLiteEventStore(path)).load("g", verify=True) == executed.game


def _batch_behind_a_lock(path: Path, *, held: bool) -> dict[str, tuple[int, Any, list[Any]]]:
    """Eight games, each played once, then a batch of eleven requests: a command of each game,
    a second command of one of them (decided on the first), the first command of a game never
    played here, and a new stream. With ``held``, all queued behind an append that waits for
    the file (one batch of the writer); else one at a time. Each game's version, metadata and
    events as a second store object reads them."""
    store, second = SQLiteEventStore(path, timeout=60.0), SQLiteEventStore(path)
    games = GameStore(store, hold=True)
    ids = [f"g{i}" for i in range(9)]
    for number, game_id in enumerate(ids):
        if game_id == "g8":  # made by another store object: this one's writer never saw it
            GameStore(second).create(game_id, avanti_game(9), {"seats": ["Ann", "Bob", "Cy"]})
            continue
        games.create(game_id, avanti_game(number + 1), {"seats": ["Ann", "Bob", "Cy"]})
        games.run(game_id, choose_first, summarize=_summary)
    store.create("first", format="toy", format_version=1, setup={})
    holding = Holding(path) if held else None
    first = in_thread(lambda: store.append("first", [1], 0))
    if held:
        writing()  # the writer waits for the file with the first append
    else:
        first[0].join()

    async def commands() -> None:
        tasks = [
            asyncio.ensure_future(
                games.run_soon(
                    game_id, choose_first, summarize=_summary, command_id=f"c{number}-{game_id}"
                )
            )
            for number, game_id in enumerate([*ids, "g0"])
        ]
        made = in_thread(
            lambda: store.create("new", format="toy", format_version=1, setup={"n": 1})
        )
        if holding is not None:
            while store._requests.qsize() < len(tasks) + 1:  # each queued behind the first
                await asyncio.sleep(0.001)
            holding.release()
        await asyncio.gather(*tasks)
        made[0].join()
        assert isinstance(made[1][0], StoredStream)

    asyncio.run(commands())
    first[0].join()
    told: dict[str, tuple[int, Any, list[Any]]] = {
        name: (
            second.stream(name).version,
            dict(second.stream(name).metadata),
            [r.data for r in second.read(name)],
        )
        for name in [*ids, "new", "first"]
    }
    for number, game_id in enumerate([*ids, "g0"]):  # each command id names its command
        version = second._command_version(game_id, f"c{number}-{game_id}")
        told[f"c{number}"] = (version or 0, None, [])
    store.close()
    second.close()
    return told


def _summary(after: Any) -> dict[str, JSONValue]:
    return {"summary": {"version": after.version, "waiting": list(after.waiting)}}


def test_a_batch_is_written_in_a_few_statements_as_one_at_a_time_would_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer commits a batch of new streams and appends in a handful of statements, not
    several for each (each statement hands the interpreter's lock to the event loop and waits
    to take it back): eleven requests, seven statements. What it stores is what the same
    requests stored one at a time store: every version, metadata (the table's summary) and
    event and command id, g0 with its two commands, g8 with its first."""
    statements: list[str] = []
    connect = SQLiteEventStore._connect

    def traced(self: SQLiteEventStore) -> Any:
        connection = connect(self)
        connection.set_trace_callback(
            lambda sql: (
                statements.append(sql)
                if threading.current_thread().name == "avanti-sqlite-writer"
                else None
            )
        )
        return connection

    monkeypatch.setattr(SQLiteEventStore, "_connect", traced)
    together = _batch_behind_a_lock(tmp_path / "together.db", held=True)
    commits = [i for i, sql in enumerate(statements) if sql == "COMMIT"]
    # a statement's trigger runs are traced with the statement's text: counted once
    traced_batch = statements[commits[-2] + 1 : commits[-1] + 1]
    batch = [sql for n, sql in enumerate(traced_batch) if n == 0 or sql != traced_batch[n - 1]]
    assert [sql.split(" ", 3)[:3] for sql in batch] == [
        ["BEGIN", "IMMEDIATE"],
        ["SELECT", "stream,", "metadata"],  # g8's metadata, which this writer does not keep
        ["INSERT", "INTO", "streams"],  # the new stream
        ["INSERT", "INTO", "events"],  # every event of the ten commands
        ["INSERT", "INTO", "commands"],  # their ten command ids
        ["UPDATE", "streams", "SET"],  # the nine games' versions and records
        ["COMMIT"],
    ]
    alone = _batch_behind_a_lock(tmp_path / "alone.db", held=False)
    assert together == alone
    assert together["g0"][0] == together["g1"][0] + 1
    assert together["g8"][1]["summary"]["version"] == together["g8"][0]
    assert together["c0"][0] == together["g0"][0] - 1  # g0's first command, then c9 its second
    assert together["c9"][0] == together["g0"][0]


def test_a_batch_with_one_refused_append_answers_each_as_alone(tmp_path: Path) -> None:
    """Four appends behind one that waits for the file, one of them stale: the batch is written
    again an append at a time, so the stale one alone is refused (VersionConflict), the
    others are stored once with their metadata."""
    path = tmp_path / "g.db"
    store, second = SQLiteEventStore(path, timeout=60.0), SQLiteEventStore(path)
    names = [f"s{i}" for i in range(4)]
    for name in ["first", *names]:
        store.create(name, format="toy", format_version=1, setup={}, metadata={"n": 0})
        assert trusted(store, name, [0], 0, known={"n": 0}, update={"n": 1}) == 1
    holding = Holding(path)
    first = in_thread(lambda: store.append("first", [1], 1))
    writing()

    async def appends() -> list[object]:
        begun = [
            store._append_trusted(
                name, [1], ("1",), 0 if name == "s1" else 1, None, None, {"n": 2}, {"n": 1}
            )
            for name in names
        ]
        return await _answered_once_queued(store, holding, begun)

    told = asyncio.run(appends())
    first[0].join()
    assert told[0] == told[2] == told[3] == 2
    assert isinstance(told[1], VersionConflict)
    assert told[1].actual == 1
    assert [second.stream(name).version for name in names] == [2, 1, 2, 2]
    assert [dict(second.stream(name).metadata) for name in names] == [
        {"n": 2},
        {"n": 1},
        {"n": 2},
        {"n": 2},
    ]
    assert [[r.data for r in second.read(name)] for name in names] == [[0, 1], [0], [0, 1], [0, 1]]
    store.close()
    second.close()


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(_json_values, st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=3))
def test_json_known_to_be_json_is_written_as_the_standard_module_writes_it(
    value: Any, floats: list[float]
) -> None:
    """``dump_json(..., checked=True)`` (orjson, where installed) writes what the standard
    module writes (compact, Unicode kept, a tuple as an array): the same text, and with floats
    the same value (a small float's exponent may be written ``1e-7`` against ``1e-07``)."""
    assert dump_json(value, "v", checked=True) == dump_json(value, "v")
    both = {"value": value, "floats": floats}
    assert json.loads(dump_json(both, "v", checked=True)) == json.loads(dump_json(both, "v"))


@pytest.mark.parametrize(
    "value",
    [{"when": datetime.date(2026, 12, 6)}, {1: "a key not a string"}, {"n": 2**64}],
)
def test_json_known_to_be_json_refuses_and_writes_what_the_standard_module_does(
    value: object,
) -> None:
    """What the standard module refuses (a date, a key that is not a string) or writes in its
    own way (an int beyond 64 bits, which orjson does not take) goes the standard module's
    road: the same refusal or the same text."""
    try:
        expected: object = dump_json(value, "v")
    except InvalidArgument as error:
        expected = str(error)
    try:
        got: object = dump_json(value, "v", checked=True)
    except InvalidArgument as error:
        got = str(error)
    assert got == expected


def test_metadata_merged_unchecked_refuses_what_is_no_json() -> None:
    """``merge_metadata`` reads its inputs as unchecked unless told: a NaN or an infinity in
    an update is refused (JSON has neither), as ``check_metadata`` refuses it."""
    current: dict[str, JSONValue] = {"seats": [1, 2]}
    assert merge_metadata(current, {"round": 3}) == '{"seats":[1,2],"round":3}'
    for wrong in (float("nan"), float("inf")):
        with pytest.raises(InvalidArgument, match="metadata is not JSON"):
            merge_metadata(current, {"score": wrong})


def test_a_caller_that_decides_itself_appends_a_held_games_commands_without_a_read(
    tmp_path: Path,
) -> None:
    """A game server's master decides its commands itself, in the game's turn
    (``GameStore.turn``): three commands of one Avanti game (a card each, A8) sent at once are
    each decided on the game the one before left, with no read of the store and no callback
    into the caller; each is answered with the game it left, and a second store reads the same
    game from the file."""
    path = tmp_path / "g.db"
    games = GameStore(SQLiteEventStore(path), hold=True)
    games.create("g", avanti_game(5), {"seats": 3})
    start = games.load("g").version  # held from now on
    reads = count_reads(games.events)
    decided_on: list[int] = []

    def unused(record: StoredStream, game: Any) -> Any:
        raise AssertionError("a held game is decided by the caller, not read and chosen")

    async def one() -> Any:
        async with games.turn("g") as turn:
            async with turn.deciding() as held:
                assert held is not None
                _, game, stored = held
                assert stored == game.version
                decided_on.append(game.version)
                command = game.legal_commands()[0]
                turn.append(command, game.execute(command), metadata_update={"n": stored})
            return await turn.answer(lambda: games.run("g", unused))

    async def play() -> list[Any]:
        return list(await asyncio.gather(one(), one(), one()))

    answers = asyncio.run(play())
    assert reads == []
    assert decided_on == [start, answers[0].game.version, answers[1].game.version]
    assert [answer.before for answer in answers] == decided_on
    assert [answer.repeated for answer in answers] == [False, False, False]
    reader = GameStore(SQLiteEventStore(path))
    assert reader.load("g", verify=True) == answers[2].game
    assert reader.events.stream("g").metadata["n"] == decided_on[2]


def test_a_turn_is_refused_where_it_cannot_hold(tmp_path: Path) -> None:
    """``turn`` needs a store that holds its games; an append outside ``deciding``, or twice,
    and an answer before an append, are refused with a message naming the order."""
    unheld = GameStore(SQLiteEventStore(tmp_path / "u.db"))
    games = GameStore(SQLiteEventStore(tmp_path / "g.db"), hold=True)
    games.create("g", avanti_game(6), {"seats": 3})
    games.load("g")

    async def misuse() -> list[str]:
        refused: list[str] = []
        with pytest.raises(InvalidArgument, match="hold=True") as info:
            async with unheld.turn("g"):
                pass
        refused.append(str(info.value))
        async with games.turn("g") as turn:
            with pytest.raises(InvalidArgument, match="after an append"):
                await turn.answer(lambda: games.run("g", choose_first))
            game = games.load("g")
            command = game.legal_commands()[0]
            with pytest.raises(InvalidArgument, match="inside deciding"):
                turn.append(command, game.execute(command))
            async with turn.deciding() as held:
                assert held is not None
                turn.append(command, held[1].execute(command))
                with pytest.raises(InvalidArgument, match="once"):
                    turn.append(command, held[1].execute(command))
            done = await turn.answer(lambda: games.run("g", choose_first))
        assert done.game.version == game.version + len(done.game.events) - len(game.events)
        return refused

    assert asyncio.run(misuse()) == ["GameStore.turn needs a store made with hold=True and a cache"]
