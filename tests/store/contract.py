"""The one contract every event store keeps, as an abstract pytest class.

A store's test module subclasses :class:`StoreContract` and provides the fixture ``store`` (a
fresh, empty store, closed after the test). Where the store lives in a database that a second
connection can open, it also overrides ``second`` to open another store on the same database, so
the tests of racing writers and of ``wait`` cross connections (and, for PostgreSQL, LISTEN and
NOTIFY):

.. code-block:: python

    class TestSQLite(StoreContract):
        @pytest.fixture
        def store(self, tmp_path: Path) -> Iterator[EventStore]:
            with SQLiteEventStore(tmp_path / "games.db") as store:
                yield store
"""

from __future__ import annotations

import asyncio
import collections
import functools
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from avanti import catalog, core
from avanti.core.errors import InvalidArgument, VersionConflict
from avanti.store import (
    MAX_APPEND_BYTES,
    MAX_APPEND_EVENTS,
    MAX_METADATA_BYTES,
    CommandIdReused,
    EventStore,
    Executed,
    GameStore,
    MetadataChanged,
    Recorded,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
)

GAMES = ("avanti", "mare", "autorama")

HOSTILE_NAMES: tuple[object, ...] = (
    "",
    "-starts-with-a-dash",
    ".hidden",
    "a" * 129,
    "a/b",
    "../etc/passwd",
    "a b",
    "tab\there",
    "new\nline",
    "nul\x00byte",
    "x'; DROP TABLE events; --",
    "caf\u00e9",
    "\u0430dmin",  # a Cyrillic a
    None,
    7,
    b"bytes",
)

SETUP = {
    "players": ["Ann", "Bob"],
    "seed": 2**63 + 1,
    "options": {"x": [1.5, None, True, "\u00fc"]},
}


def event(number: int) -> dict[str, Any]:
    """A small event as a codec writes one."""
    return {"type": "Rolled", "seat": number % 3, "face": number}


def make(store: EventStore, name: str = "g1", **metadata: Any) -> StoredStream:
    """Create a stream of a made-up format."""
    return store.create(name, format="toy", format_version=1, setup=SETUP, metadata=metadata)


def new_game(name: str, seed: int = 11) -> Any:
    """A new game of the catalog's ``name``, its default table, an explicit seed."""
    info = catalog.game_info(name)
    return info.new_game(info.player_names(), seed=seed)


def play(game: Any, commands: int) -> Any:
    """``game`` after ``commands`` more commands, always the first legal one (deterministic)."""
    for _ in range(commands):
        if game.is_over:
            break
        game = game.execute(game.legal_commands()[0])
    return game


def choices(game: Any) -> list[Any]:
    """The legal commands of ``game`` but quitting, in the rules' order."""
    return [c for c in game.legal_commands() if type(c).__name__ != "Quit"]


def contested(number: int) -> Any:
    """The ``number``-th game of a command-id race: Avanti or For Sale: Autorama (in turn),
    played on with the first choice until at least four commands are legal."""
    game = new_game(("avanti", "autorama")[number % 2], seed=40 + number)
    while len(choices(game)) < 4:
        game = game.execute(choices(game)[0])
    return game


def race_command_id(
    games: GameStore, name: str, writer: int, barrier: Any
) -> tuple[str, Any, int, int, bool]:
    """Load ``name``, wait for the others, then run this writer's own legal command (the
    ``writer``-th choice) under the command id ``"same"``. What the caller was answered:
    ``("acked", command data, before, version, repeated)`` or ``("reused", command data, ...)``.
    """
    seen = games.load(name)
    command = choices(seen)[writer]
    data = type(seen).rules.codec.command_to_data(command)
    barrier.wait(timeout=60)
    try:
        done = games.run(name, lambda record, game: command, command_id="same")
    except CommandIdReused as reused:
        told = (reused.stream, reused.command_id)
        return ("reused" if told == (name, "same") else f"reused {told}", data, -1, -1, False)
    assert done.record.version == done.game.version
    return ("acked", data, done.before, done.game.version, done.repeated)


def check_command_id_race(games: GameStore, number: int, told: list[Any]) -> None:
    """Exactly one writer of the race on ``race-{number}`` was acknowledged and the others were
    refused; the store holds the acknowledged command alone, and its log replays checked."""
    acked = [t for t in told if t[0] == "acked"]
    assert len(acked) == 1, told
    assert sorted(t[0] for t in told) == ["acked"] + ["reused"] * (len(told) - 1)
    _, data, before, version, repeated = acked[0]
    start = contested(number)
    expected = start.execute(type(start).rules.codec.command_from_data(data))
    assert (before, version, repeated) == (start.version, expected.version, False)
    stored = games.load(f"race-{number}", verify=True)  # every event checked by the rules
    assert stored == expected
    assert games.events.stream(f"race-{number}").version == expected.version


def in_thread(work: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    """Start ``work`` in a thread; the list receives its result or its exception."""
    told: list[object] = []

    def run() -> None:
        try:
            told.append(work())
        except Exception as error:
            told.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, told


def race_appends(handles: list[EventStore], name: str) -> list[object]:
    """One thread per handle appends two events at version 0 of ``name``, released at once;
    what each was told: its new version, or the ``VersionConflict``."""
    barrier = threading.Barrier(len(handles))
    told: list[object] = []
    lock = threading.Lock()

    def write(writer: int) -> None:
        barrier.wait()
        try:
            result: object = handles[writer].append(name, [event(writer), event(writer)], 0)
        except VersionConflict as conflict:
            result = conflict
        with lock:
            told.append(result)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(len(handles))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return told


class StoreContract:
    """What every event store does. Subclasses provide the ``store`` fixture."""

    @pytest.fixture
    def store(self) -> Iterator[EventStore]:
        """A fresh, empty store; subclasses must override this."""
        raise NotImplementedError("a store's test class provides the store fixture")

    @pytest.fixture
    def second(self, store: EventStore) -> EventStore:
        """Another handle on the same data (a second connection where there is a database)."""
        return store

    # -- empty stores and unknown streams ------------------------------------------------------

    def test_an_empty_store_lists_no_streams(self, store: EventStore) -> None:
        assert store.streams() == ()
        assert store.streams(format="toy", limit=1, updated_after=0.0) == ()

    @pytest.mark.parametrize(
        "call",
        [
            lambda s: s.read("nope"),
            lambda s: s.read("nope", after=3),
            lambda s: s.stream("nope"),
            lambda s: s.append("nope", [event(0)], 0),
            lambda s: s.append("nope", [event(0)], 0, command_id="c1"),
            lambda s: s.set_metadata("nope", {}),
            lambda s: s.wait("nope", 0, 0.0),
            lambda s: s.wait_any({"nope": 0}, 0.0),
            lambda s: s.command_version("nope", "c1"),
        ],
    )
    def test_an_unknown_stream_is_refused(
        self, store: EventStore, call: Callable[[EventStore], object]
    ) -> None:
        with pytest.raises(UnknownStream) as caught:
            call(store)
        assert caught.value.stream == "nope"
        assert isinstance(caught.value, KeyError)
        assert "nope" in str(caught.value)
        assert store.streams() == ()

    def test_a_new_stream_reads_empty(self, store: EventStore) -> None:
        make(store)
        assert store.read("g1") == ()
        assert store.read("g1", after=5) == ()
        assert store.stream("g1").version == 0

    # -- the stream record ---------------------------------------------------------------------

    def test_create_returns_the_record_and_stream_reads_it_back(self, store: EventStore) -> None:
        before = time.time()
        created = store.create(
            "game:1.a_b-c",
            format="avanti",
            format_version=3,
            setup=SETUP,
            metadata={"seats": ["Ann", "Bob"], "token": "0f" * 32, "n": 2},
        )
        assert created.stream == "game:1.a_b-c"
        assert created.format == "avanti"
        assert created.format_version == 3
        assert created.setup == SETUP
        assert created.setup["seed"] == 2**63 + 1  # a seed beyond 64 signed bits survives
        assert dict(created.metadata) == {"seats": ["Ann", "Bob"], "token": "0f" * 32, "n": 2}
        assert created.version == 0
        assert before - 1 <= created.created == created.updated <= time.time() + 1
        assert store.stream("game:1.a_b-c") == created

    def test_a_name_of_128_characters_is_accepted(self, store: EventStore) -> None:
        name = "Z" + "9" * 127
        make(store, name)
        assert store.stream(name).stream == name

    def test_create_on_an_existing_stream_is_refused_and_changes_nothing(
        self, store: EventStore
    ) -> None:
        first = make(store, seat="Ann")
        store.append("g1", [event(0)], 0)
        with pytest.raises(StreamExists) as caught:
            store.create("g1", format="other", format_version=2, setup={}, metadata={})
        assert caught.value.stream == "g1"
        assert "g1" in str(caught.value)
        now = store.stream("g1")
        assert (now.format, now.format_version, now.setup, dict(now.metadata)) == (
            "toy",
            1,
            SETUP,
            {"seat": "Ann"},
        )
        assert now.created == first.created
        assert [r.data for r in store.read("g1")] == [event(0)]

    def test_set_metadata_replaces_it_and_keeps_the_rest(self, store: EventStore) -> None:
        first = make(store, seat="Ann", old=True)
        store.append("g1", [event(0)], 0)
        changed = store.set_metadata("g1", {"seat": "Bob", "outcome": {"winners": [1]}})
        assert dict(changed.metadata) == {"seat": "Bob", "outcome": {"winners": [1]}}
        assert changed.version == 1
        assert changed.setup == SETUP
        assert changed.created == first.created
        assert changed.updated >= first.updated
        assert store.stream("g1") == changed

    def test_set_metadata_with_expected_replaces_it_only_if_unchanged(
        self, store: EventStore, second: EventStore
    ) -> None:
        make(store, seats=["Ann", "Bob"], bots={})
        read = store.stream("g1").metadata
        # another handle changes it first: the write that expected the old metadata is refused
        second.set_metadata("g1", {**read, "bots": {"1": "random"}}, expected=read)
        with pytest.raises(MetadataChanged, match="'g1' changed meanwhile"):
            store.set_metadata("g1", {**read, "bots": {"0": "random"}}, expected=read)
        assert dict(store.stream("g1").metadata)["bots"] == {"1": "random"}  # nothing lost
        again = store.stream("g1").metadata
        done = store.set_metadata(
            "g1", {**again, "bots": {"0": "r", "1": "random"}}, expected=again
        )
        assert dict(done.metadata)["bots"] == {"0": "r", "1": "random"}
        # equal as JSON is enough: key order does not matter
        reordered = dict(reversed(list(done.metadata.items())))
        assert store.set_metadata("g1", {"x": 1}, expected=reordered).metadata == {"x": 1}
        with pytest.raises(UnknownStream):
            store.set_metadata("nope", {}, expected={})

    def test_streams_lists_the_newest_updated_first(self, store: EventStore) -> None:
        for name in ("a", "b", "c"):
            make(store, name)
            time.sleep(0.005)  # distinct times, so the order has one answer
        assert [s.stream for s in store.streams()] == ["c", "b", "a"]
        store.append("a", [event(0)], 0)
        listed = store.streams()
        assert [s.stream for s in listed] == ["a", "c", "b"]
        assert listed[0].version == 1
        assert listed == tuple(store.stream(name) for name in ("a", "c", "b"))
        assert [s.stream for s in store.streams(limit=2)] == ["a", "c"]
        assert [s.stream for s in store.streams(updated_after=listed[1].updated)] == ["a"]
        assert store.streams(updated_after=listed[0].updated) == ()

    def test_streams_filters_by_format(self, store: EventStore) -> None:
        make(store, "t1")
        store.create("m1", format="mare", format_version=1, setup={})
        time.sleep(0.005)
        store.create("m2", format="mare", format_version=1, setup={})
        assert [s.stream for s in store.streams(format="mare")] == ["m2", "m1"]
        assert [s.stream for s in store.streams(format="toy")] == ["t1"]
        assert store.streams(format="autorama") == ()

    # -- appending and reading -----------------------------------------------------------------

    def test_append_returns_the_new_version_and_read_returns_positions(
        self, store: EventStore
    ) -> None:
        make(store)
        assert store.append("g1", [event(0), event(1)], 0) == 2
        assert store.append("g1", [event(2)], expected_version=2) == 3
        assert store.read("g1") == (
            Recorded(0, event(0)),
            Recorded(1, event(1)),
            Recorded(2, event(2)),
        )
        assert store.stream("g1").version == 3

    def test_read_after_a_version_returns_only_the_newer_events(self, store: EventStore) -> None:
        make(store)
        store.append("g1", [event(n) for n in range(5)], 0)
        assert [r.position for r in store.read("g1", after=3)] == [3, 4]
        assert [r.data for r in store.read("g1", after=4)] == [event(4)]
        assert store.read("g1", after=5) == ()
        assert store.read("g1", after=99) == ()
        assert store.read("g1", after=0) == store.read("g1")

    def test_events_round_trip_as_json(self, store: EventStore) -> None:
        make(store)
        odd = [
            {"type": "X", "text": "caf\u00e9 \u2603 \U0001f600", "big": 2**70, "f": 0.1},
            {"nested": [[[]], {}], "null": None, "t": True},
            "a bare string",
            17,
            None,
        ]
        store.append("g1", odd, 0)
        assert [r.data for r in store.read("g1")] == odd

    def test_an_empty_append_to_an_unknown_stream_is_refused(self, store: EventStore) -> None:
        with pytest.raises(UnknownStream):
            store.append("nowhere", [], 0)
        with pytest.raises(UnknownStream):
            store.append("nowhere", [], 0, command_id="c", command_digest="d")

    def test_an_empty_append_writes_nothing_but_checks_the_version(self, store: EventStore) -> None:
        make(store)
        store.append("g1", [event(0)], 0)
        assert store.append("g1", [], 1) == 1
        with pytest.raises(VersionConflict):
            store.append("g1", [], 0)
        assert store.stream("g1").version == 1

    def test_a_stale_append_is_a_version_conflict_and_writes_nothing(
        self, store: EventStore
    ) -> None:
        make(store)
        store.append("g1", [event(0), event(1)], 0)
        for expected in (0, 1, 3, 50):
            with pytest.raises(VersionConflict) as caught:
                store.append("g1", [event(9), event(9)], expected)
            assert (caught.value.expected, caught.value.actual) == (expected, 2)
        assert [r.data for r in store.read("g1")] == [event(0), event(1)]
        assert store.stream("g1").version == 2

    def test_streams_are_independent(self, store: EventStore) -> None:
        make(store, "a")
        make(store, "b")
        store.append("a", [event(0)], 0)
        assert store.append("b", [event(1), event(2)], 0) == 2
        assert [r.data for r in store.read("a")] == [event(0)]
        assert store.stream("a").version == 1

    def test_append_moves_updated_forward(self, store: EventStore) -> None:
        first = make(store)
        store.append("g1", [event(0)], 0)
        assert store.stream("g1").updated >= first.updated
        assert store.stream("g1").created == first.created

    def test_racing_writers_exactly_one_wins(self, store: EventStore, second: EventStore) -> None:
        """Eight threads (on two handles where there are two) append at the same version, 20
        times over: one wins each race, seven are told of the conflict."""
        for race in range(20):
            name = f"race-{race}"
            make(store, name)
            told = race_appends([store, second] * 4, name)
            assert told.count(2) == 1
            conflicts = [t for t in told if isinstance(t, VersionConflict)]
            assert {(c.expected, c.actual) for c in conflicts} == {(0, 2)}
            assert len(conflicts) == 7
            first, again = store.read(name)
            assert first.data == again.data

    # -- command ids ---------------------------------------------------------------------------

    def test_a_repeated_command_id_writes_nothing_and_returns_the_first_version(
        self, store: EventStore
    ) -> None:
        make(store)
        assert store.append("g1", [event(0)], 0, command_id="cmd-1") == 1
        assert store.command_version("g1", "cmd-1") == 1
        assert store.command_version("g1", "cmd-2") is None
        assert store.append("g1", [event(1), event(2)], 1, command_id="cmd-2") == 3
        assert store.append("g1", [event(3)], 3) == 4
        # retries: told the version right after the first append, whatever they carry
        assert store.append("g1", [event(0)], 0, command_id="cmd-1") == 1
        assert store.append("g1", [event(7)], 4, command_id="cmd-1") == 1
        assert store.append("g1", [event(1), event(2)], 1, command_id="cmd-2") == 3
        assert [r.data for r in store.read("g1")] == [event(n) for n in range(4)]
        assert store.command_version("g1", "cmd-2") == 3

    def test_a_command_id_belongs_to_one_stream(self, store: EventStore) -> None:
        make(store, "a")
        make(store, "b")
        store.append("a", [event(0)], 0, command_id="same")
        assert store.append("b", [event(1), event(1)], 0, command_id="same") == 2
        assert store.command_version("a", "same") == 1
        assert store.command_version("b", "same") == 2

    def test_a_conflicting_append_does_not_keep_its_command_id(self, store: EventStore) -> None:
        make(store)
        store.append("g1", [event(0)], 0)
        with pytest.raises(VersionConflict):
            store.append("g1", [event(1)], 0, command_id="late")
        assert store.command_version("g1", "late") is None
        assert store.append("g1", [event(1)], 1, command_id="late") == 2

    def test_the_same_command_id_sent_twice_at_once_is_written_once(
        self, store: EventStore, second: EventStore
    ) -> None:
        """A retry that overtakes the first try: both are told the same version."""
        for race in range(10):
            name = f"retry-{race}"
            make(store, name)
            barrier = threading.Barrier(4)

            def retry(handle: EventStore, name: str = name, b: threading.Barrier = barrier) -> int:
                b.wait()
                return handle.append(name, [event(1), event(2)], 0, command_id="once")

            runs = [in_thread(functools.partial(retry, h)) for h in (store, second) * 2]
            for thread, _ in runs:
                thread.join()
            assert [told for _, told in runs] == [[2]] * 4
            assert [r.data for r in store.read(name)] == [event(1), event(2)]

    def test_a_command_id_names_one_command(self, store: EventStore) -> None:
        make(store)
        assert store.append("g1", [event(0)], 0, command_id="c", command_digest="d1") == 1
        assert store.append("g1", [event(1)], 1) == 2
        # the same id and digest: a retry, told the version after the first append
        assert store.append("g1", [event(0)], 0, command_id="c", command_digest="d1") == 1
        assert store.append("g1", [event(5)], 2, command_id="c", command_digest="d1") == 1
        # another digest: refused wherever it is appended, and nothing is written
        for expected in (0, 1, 2, 7):
            with pytest.raises(CommandIdReused) as caught:
                store.append("g1", [event(9)], expected, command_id="c", command_digest="d2")
            assert (caught.value.stream, caught.value.command_id) == ("g1", "c")
            assert str(caught.value) == (
                "command id 'c' of stream 'g1' was already used for another command"
            )
        with pytest.raises(CommandIdReused):  # an empty append checks the id too
            store.append("g1", [], 2, command_id="c", command_digest="d2")
        assert store.append("g1", [], 0, command_id="c", command_digest="d1") == 1
        assert [r.data for r in store.read("g1")] == [event(0), event(1)]
        assert store.command_version("g1", "c") == 1

    def test_an_id_kept_without_a_digest_takes_any_digest_as_a_retry(
        self, store: EventStore
    ) -> None:
        make(store)
        assert store.append("g1", [event(0)], 0, command_id="old") == 1
        assert store.append("g1", [event(1)], 1, command_id="old", command_digest="x") == 1
        assert store.append("g1", [event(1)], 1, command_id="new", command_digest="x") == 2
        assert store.append("g1", [event(2)], 2, command_id="new") == 2  # no digest given
        assert store.stream("g1").version == 2

    @pytest.mark.parametrize("digest", ["", "a" * 129, "caf\u00e9", "tab\t", 7, b"x"])
    def test_a_malformed_digest_is_refused(self, store: EventStore, digest: Any) -> None:
        make(store)
        with pytest.raises(InvalidArgument, match="command_digest"):
            store.append("g1", [event(0)], 0, command_id="c", command_digest=digest)
        assert store.stream("g1").version == 0
        assert store.command_version("g1", "c") is None

    def test_one_id_four_commands_at_once_one_is_kept(
        self, store: EventStore, second: EventStore
    ) -> None:
        """Four appends race at one version with one command id and four digests: one is
        acknowledged, the other three are refused, and only its events are stored."""
        for race in range(8):
            name = f"ids-{race}"
            make(store, name)
            barrier = threading.Barrier(4)

            def write(writer: int, name: str = name, barrier: threading.Barrier = barrier) -> int:
                handle = (store, second)[writer % 2]
                barrier.wait()
                return handle.append(
                    name, [event(writer)], 0, command_id="one", command_digest=f"d{writer}"
                )

            runs = [in_thread(functools.partial(write, w)) for w in range(4)]
            for thread, _ in runs:
                thread.join()
            told = [told[0] for _, told in runs]
            winners = [w for w, t in enumerate(told) if t == 1]
            assert len(winners) == 1, told
            assert all(isinstance(t, CommandIdReused) for t in told if t != 1), told
            assert [r.data for r in store.read(name)] == [event(winners[0])]

    # -- metadata set by an append -----------------------------------------------------------

    def test_an_append_sets_metadata_keys_and_keeps_the_others(self, store: EventStore) -> None:
        make(store, seats=["Ann", "Bob"], outcome=None)
        version = store.append(
            "g1", [event(0)], 0, metadata_update={"outcome": {"winners": [1]}, "n": 2}
        )
        assert version == 1
        record = store.stream("g1")
        assert dict(record.metadata) == {
            "seats": ["Ann", "Bob"],
            "outcome": {"winners": [1]},
            "n": 2,
        }
        assert record.version == 1
        store.set_metadata("g1", {**record.metadata, "other": True})
        store.append("g1", [event(1)], 1, metadata_update={"n": 3})
        assert dict(store.stream("g1").metadata) == {
            "seats": ["Ann", "Bob"],
            "outcome": {"winners": [1]},
            "n": 3,
            "other": True,
        }

    def test_an_append_that_writes_nothing_sets_no_metadata(self, store: EventStore) -> None:
        make(store, a=1)
        store.append("g1", [event(0)], 0, command_id="c")
        with pytest.raises(VersionConflict):
            store.append("g1", [event(1)], 0, metadata_update={"a": 2})
        assert store.append("g1", [], 1, metadata_update={"a": 3}) == 1
        assert store.append("g1", [event(1)], 0, command_id="c", metadata_update={"a": 4}) == 1
        assert dict(store.stream("g1").metadata) == {"a": 1}

    def test_metadata_set_by_an_append_stays_within_the_limit(self, store: EventStore) -> None:
        half = "x" * (MAX_METADATA_BYTES // 2)
        make(store, big=half)
        with pytest.raises(InvalidArgument, match="metadata"):
            store.append("g1", [event(0)], 0, metadata_update={"more": half})
        assert store.stream("g1").version == 0
        assert dict(store.stream("g1").metadata) == {"big": half}
        with pytest.raises(InvalidArgument, match="metadata_update"):
            store.append("g1", [event(0)], 0, metadata_update=["not", "an", "object"])  # type: ignore[arg-type]
        with pytest.raises(InvalidArgument, match="metadata"):
            store.append("g1", [event(0)], 0, metadata_update={"x": float("nan")})
        assert store.read("g1") == ()

    def test_set_metadata_during_appends_that_set_metadata_loses_nothing(
        self, store: EventStore, second: EventStore
    ) -> None:
        """One thread appends 30 times, each setting key ``n``; another sets key ``m`` on the
        second handle meanwhile, key by key (read, add ``m``, compare-and-set): both survive."""
        make(store)

        def appends() -> None:
            for n in range(30):
                store.append("g1", [event(n)], n, metadata_update={"n": n})

        def sets() -> None:
            for m in range(30):
                while True:
                    seen = second.stream("g1").metadata
                    try:
                        second.set_metadata("g1", {**seen, "m": m}, expected=seen)
                        break
                    except MetadataChanged:
                        continue

        threads = [in_thread(appends), in_thread(sets)]
        for thread, told in threads:
            thread.join()
            assert told == [None]
        assert dict(store.stream("g1").metadata) == {"n": 29, "m": 29}

    # -- waiting -------------------------------------------------------------------------------

    def test_wait_returns_at_once_when_the_stream_is_ahead(self, store: EventStore) -> None:
        make(store)
        store.append("g1", [event(0), event(1)], 0)
        assert store.wait("g1", 0, 30.0) == 2
        assert store.wait("g1", 1, 30.0) == 2

    def test_wait_times_out_with_the_current_version(self, store: EventStore) -> None:
        make(store)
        store.append("g1", [event(0)], 0)
        assert store.wait("g1", 1, 0.05) == 1
        assert store.wait("g1", 1, 0) == 1

    def test_wait_wakes_on_an_append_from_another_thread(
        self, store: EventStore, second: EventStore
    ) -> None:
        make(store)
        waiter, told = in_thread(lambda: store.wait("g1", 0, 30.0))
        time.sleep(0.05)  # let the waiter block (it returns the same either way)
        second.append("g1", [event(0), event(1)], 0)
        waiter.join()
        assert told == [2]

    def test_a_waiter_on_the_second_handle_wakes_too(
        self, store: EventStore, second: EventStore
    ) -> None:
        make(store)
        store.append("g1", [event(0)], 0)
        waiter, told = in_thread(lambda: second.wait("g1", 1, 30.0))
        time.sleep(0.05)
        store.append("g1", [event(1)], 1)
        waiter.join()
        assert told == [2]

    def test_wait_any_names_every_stream_ahead_at_once(self, store: EventStore) -> None:
        make(store, "g1")
        make(store, "g2")
        make(store, "g3")
        store.append("g1", [event(0), event(1)], 0)
        store.append("g3", [event(0)], 0)
        assert store.wait_any({"g1": 1, "g2": 0, "g3": 1}, 30.0) == {"g1": 2}
        assert store.wait_any({"g1": 0, "g2": 0, "g3": 0}, 30.0) == {"g1": 2, "g3": 1}

    def test_wait_any_times_out_empty(self, store: EventStore) -> None:
        make(store, "g1")
        make(store, "g2")
        store.append("g1", [event(0)], 0)
        assert store.wait_any({"g1": 1, "g2": 0}, 0.05) == {}
        assert store.wait_any({"g1": 1, "g2": 0}, 0) == {}
        assert store.wait_any({}, 30.0) == {}  # nothing to watch: at once

    def test_wait_any_wakes_on_an_append_to_one_of_them_from_another_handle(
        self, store: EventStore, second: EventStore
    ) -> None:
        make(store, "g1")
        make(store, "g2")
        store.append("g1", [event(0)], 0)
        waiter, told = in_thread(lambda: store.wait_any({"g1": 1, "g2": 0}, 30.0))
        time.sleep(0.05)  # let the waiter block (it returns the same either way)
        second.append("g2", [event(0), event(1), event(2)], 0)
        waiter.join()
        assert told == [{"g2": 3}]

    def test_wait_any_for_others_leaves_out_the_appends_of_this_handle(
        self, store: EventStore, second: EventStore
    ) -> None:
        """A follower of the others' appends (a server process beside others) is woken by an
        append of another handle, never by its own, before or while it waits."""
        if second is store:
            pytest.skip("one handle on the data: every append is this handle's")
        make(store, "g1")
        make(store, "g2")
        store.append("g1", [event(0)], 0)
        assert store.wait_any({"g1": 0, "g2": 0}, 0, others=True) == {}
        assert store.wait_any({"g1": 0, "g2": 0}, 0) == {"g1": 1}
        waiter, told = in_thread(lambda: store.wait_any({"g1": 0, "g2": 0}, 30.0, others=True))
        store.append("g1", [event(1)], 1)  # its own: no news, however it lands
        second.append("g2", [event(0), event(1), event(2)], 0)
        waiter.join()
        assert told == [{"g2": 3}]
        second.append("g1", [event(2)], 2)  # another's append after its own: news
        assert store.wait_any({"g1": 0, "g2": 3}, 30.0, others=True) == {"g1": 3}

    def test_wait_any_refuses_an_others_that_is_no_bool(self, store: EventStore) -> None:
        make(store, "g1")
        with pytest.raises(InvalidArgument, match="others must be True or False"):
            store.wait_any({"g1": 0}, 0, others=1)  # type: ignore[arg-type]

    # -- hostile input -------------------------------------------------------------------------

    @pytest.mark.parametrize("name", HOSTILE_NAMES)
    def test_a_hostile_stream_name_is_refused_everywhere(
        self, store: EventStore, name: Any
    ) -> None:
        calls: list[Callable[[], object]] = [
            lambda: store.create(name, format="toy", format_version=1, setup={}),
            lambda: store.append(name, [event(0)], 0),
            lambda: store.read(name),
            lambda: store.stream(name),
            lambda: store.set_metadata(name, {}),
            lambda: store.wait(name, 0, 0.0),
            lambda: store.wait_any({name: 0}, 0.0),
            lambda: store.command_version(name, "c"),
        ]
        for call in calls:
            with pytest.raises(InvalidArgument, match="stream name"):
                call()
        assert store.streams() == ()

    def test_too_many_events_in_one_append_are_refused(self, store: EventStore) -> None:
        make(store)
        with pytest.raises(InvalidArgument, match=f"at most {MAX_APPEND_EVENTS} events"):
            store.append("g1", [1] * (MAX_APPEND_EVENTS + 1), 0)
        assert store.read("g1") == ()
        assert store.append("g1", [1] * MAX_APPEND_EVENTS, 0) == MAX_APPEND_EVENTS

    def test_too_many_bytes_in_one_append_are_refused(self, store: EventStore) -> None:
        make(store)
        big = ["x" * (MAX_APPEND_BYTES // 4)] * 4  # the quotes push it over
        with pytest.raises(InvalidArgument, match="bytes of JSON"):
            store.append("g1", big, 0)
        with pytest.raises(InvalidArgument, match="bytes of JSON"):
            store.append("g1", ["\u00e9" * (MAX_APPEND_BYTES // 2)], 0)  # two bytes each
        assert store.read("g1") == ()
        assert store.stream("g1").version == 0

    def test_metadata_beyond_the_limit_is_refused(self, store: EventStore) -> None:
        big = {"blob": "x" * MAX_METADATA_BYTES}
        with pytest.raises(InvalidArgument, match="metadata"):
            store.create("g1", format="toy", format_version=1, setup={}, metadata=big)
        assert store.streams() == ()
        make(store, seat="Ann")
        with pytest.raises(InvalidArgument, match="metadata"):
            store.set_metadata("g1", big)
        assert dict(store.stream("g1").metadata) == {"seat": "Ann"}

    @pytest.mark.parametrize(
        "call",
        [
            lambda s: s.append("g1", [{1, 2}], 0),
            lambda s: s.append("g1", [float("nan")], 0),
            lambda s: s.append("g1", "not a list", 0),
            lambda s: s.append("g1", [1], -1),
            lambda s: s.append("g1", [1], True),
            lambda s: s.append("g1", [1], 0, command_id=""),
            lambda s: s.append("g1", [1], 0, command_id="c" * 129),
            lambda s: s.append("g1", [1], 0, command_id="a\x00b"),  # PostgreSQL holds no NUL
            lambda s: s.append("g1", [1], 0, command_id=5),
            lambda s: s.read("g1", after=-1),
            lambda s: s.streams(limit=0),
            lambda s: s.streams(limit=10**9),
            lambda s: s.streams(updated_after=float("nan")),
            lambda s: s.wait("g1", 0, -1.0),
            lambda s: s.wait("g1", 0, float("inf")),
            lambda s: s.wait_any({"g1": 0}, -1.0),
            lambda s: s.wait_any({"g1": -1}, 0.0),
            lambda s: s.wait_any({"g1": True}, 0.0),
            lambda s: s.wait_any(["g1"], 0.0),
            lambda s: s.wait_any({"bad name!": 0}, 0.0),
            lambda s: s.set_metadata("g1", {1: 2}),
            lambda s: s.set_metadata("g1", ["not", "an", "object"]),
            lambda s: s.set_metadata("g1", {}, expected=["not", "an", "object"]),
            lambda s: s.set_metadata("g1", {}, expected={"x": float("nan")}),
            lambda s: s.create("g2", format="", format_version=1, setup={}),
            lambda s: s.create("g2", format="toy", format_version=0, setup={}),
            lambda s: s.create("g2", format="toy", format_version=1, setup={"x": {1, 2}}),
        ],
    )
    def test_malformed_arguments_are_refused_and_change_nothing(
        self, store: EventStore, call: Callable[[EventStore], object]
    ) -> None:
        make(store, seat="Ann")
        with pytest.raises(InvalidArgument):
            call(store)
        assert store.read("g1") == ()
        assert [s.stream for s in store.streams()] == ["g1"]
        assert dict(store.stream("g1").metadata) == {"seat": "Ann"}

    # -- closing -------------------------------------------------------------------------------

    def test_a_closed_store_refuses_work(self, store: EventStore) -> None:
        make(store)
        store.close()
        store.close()  # closing twice is harmless
        with pytest.raises(StoreError, match="closed"):
            store.read("g1")
        with pytest.raises(StoreError, match="closed"):
            store.append("g1", [event(0)], 0)

    # -- GameStore over this store ---------------------------------------------------------------

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_creates_and_loads_every_game(self, store: EventStore, name: str) -> None:
        games = GameStore(store)
        game = play(new_game(name, seed=11), 12)
        games.create("table-1", game, metadata={"seats": list(game.setup.players)})
        loaded = games.load("table-1")
        assert loaded == game
        assert type(loaded) is type(game)
        assert games.load("table-1", verify=True) == game
        record = store.stream("table-1")
        assert (record.format, record.version) == (name, game.version)
        assert record.format_version == type(game).rules.codec.version
        assert dict(record.metadata) == {"seats": list(game.setup.players)}
        assert [g.stream for g in games.games(format=name)] == ["table-1"]

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_executes_and_the_store_keeps_it(self, store: EventStore, name: str) -> None:
        games = GameStore(store)
        game = new_game(name, seed=12)
        games.create("t", game)
        for _ in range(10):
            command = game.legal_commands()[0]
            after = games.execute("t", command)
            game = game.execute(command)
            assert after == game
        assert games.load("t") == game
        assert store.stream("t").version == game.version

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_refuses_a_stale_expected_version(self, store: EventStore, name: str) -> None:
        games = GameStore(store)
        game = new_game(name, seed=13)
        games.create("t", game)
        command = game.legal_commands()[0]
        with pytest.raises(VersionConflict) as caught:
            games.execute("t", command, expected_version=game.version - 1 if game.version else 1)
        assert caught.value.actual == game.version
        assert games.load("t") == game
        moved = games.execute("t", command, expected_version=game.version)
        assert moved == game.execute(command)

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_a_second_writer_that_got_there_first_wins(
        self, store: EventStore, second: EventStore, name: str
    ) -> None:
        mine, theirs = GameStore(store), GameStore(second)
        game = new_game(name, seed=14)
        mine.create("t", game)
        seen = mine.load("t")
        command = seen.legal_commands()[0]
        theirs.execute("t", command, expected_version=seen.version)
        with pytest.raises(VersionConflict):
            mine.execute("t", command, expected_version=seen.version)
        assert mine.load("t") == game.execute(command)

    def test_an_append_expecting_metadata_is_refused_once_it_changed(
        self, store: EventStore, second: EventStore
    ) -> None:
        make(store, seats=["Ann", "Bob"], bots={})
        known = store.stream("g1").metadata
        assert store.append("g1", [event(0)], 0, expected_metadata=known) == 1
        # another handle hands a seat to a bot: an append that knew the old seats is refused
        second.set_metadata("g1", {**known, "bots": {"1": "random"}})
        with pytest.raises(MetadataChanged, match="'g1' changed meanwhile"):
            store.append("g1", [event(1)], 1, expected_metadata=known, metadata_update={"x": 1})
        assert store.stream("g1").version == 1  # nothing written: no event, no metadata
        assert [r.position for r in store.read("g1")] == [0]
        assert "x" not in store.stream("g1").metadata
        # the version is checked first; equal as JSON is enough (key order does not matter)
        now = dict(reversed(list(store.stream("g1").metadata.items())))
        with pytest.raises(VersionConflict):
            store.append("g1", [event(1)], 0, expected_metadata=now)
        assert store.append("g1", [event(1)], 1, expected_metadata=now) == 2
        with pytest.raises(InvalidArgument):
            store.append("g1", [event(2)], 2, expected_metadata=["not", "an", "object"])  # type: ignore[arg-type]

    def test_append_soon_answers_as_append_does(
        self, store: EventStore, second: EventStore
    ) -> None:
        """A future that holds what :meth:`append` returns or raises; the arguments checked at
        once."""
        make(store, seats=["Ann", "Bob"], bots={})
        known = store.stream("g1").metadata
        first = store.append_soon("g1", [event(0)], 0, command_id="c0", command_digest="d0")
        assert first.result(timeout=10) == 1
        again = store.append_soon("g1", [event(0)], 0, command_id="c0", command_digest="d0")
        assert again.result(timeout=10) == 1  # the retry of a stored command id
        with pytest.raises(CommandIdReused):
            store.append_soon("g1", [event(9)], 1, command_id="c0", command_digest="e").result(10)
        with pytest.raises(VersionConflict) as stale:
            store.append_soon("g1", [event(1)], 0).result(timeout=10)
        assert stale.value.actual == 1
        with pytest.raises(UnknownStream):
            store.append_soon("nowhere", [event(0)], 0).result(timeout=10)
        second.set_metadata("g1", {**known, "bots": {"1": "random"}})
        with pytest.raises(MetadataChanged):
            store.append_soon("g1", [event(1)], 1, expected_metadata=known).result(timeout=10)
        with pytest.raises(InvalidArgument):
            store.append_soon("g1", [event(1)], -1)  # refused before anything is queued
        moved = store.append_soon("g1", [event(1)], 1, metadata_update={"x": 2})
        assert moved.result(timeout=10) == 2
        assert store.stream("g1").metadata["x"] == 2
        assert [r.position for r in store.read("g1")] == [0, 1]

    def test_appends_begun_at_once_are_each_answered(self, store: EventStore) -> None:
        """Many appends of many streams begun before any is answered (a writer may commit them
        together): each gets its own answer, a refused one its refusal alone."""
        names = [f"s{number}" for number in range(20)]
        for name in names:
            store.create(name, format="toy", format_version=1, setup={})
        begun = [store.append_soon(name, [event(0)], 0) for name in names]
        refused = store.append_soon("s3", [event(5)], 7)  # beside them, at a wrong version
        assert [future.result(timeout=10) for future in begun] == [1] * len(names)
        with pytest.raises(VersionConflict):
            refused.result(timeout=10)
        assert all(store.stream(name).version == 1 for name in names)

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_run_soon_decides_a_held_game_on_the_loop(
        self, store: EventStore, name: str
    ) -> None:
        """:meth:`GameStore.run_soon` on an event loop: the commands of one game, sent at once,
        are decided one after the other, each on the game the one before left."""
        games = GameStore(store, hold=True)
        game = new_game(name, seed=21)
        games.create("t", game)

        async def three() -> list[Any]:
            def choose(record: StoredStream, loaded: Any) -> Any:
                return loaded.legal_commands()[0]

            return list(await asyncio.gather(*(games.run_soon("t", choose) for _ in range(3))))

        done = asyncio.run(three())
        for executed in done:
            game = game.execute(game.legal_commands()[0])
            assert executed.game == game
        assert [executed.before for executed in done] == [
            done[0].before,
            done[0].game.version,
            done[1].game.version,
        ]
        assert GameStore(store).load("t") == game

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_holding_a_game_decides_a_command_with_no_read(
        self, store: EventStore, name: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        games = GameStore(store, hold=True)
        game = new_game(name, seed=17)
        games.create("t", game)
        calls: collections.Counter[str] = collections.Counter()
        for method in ("stream", "read", "append", "streams", "command_version"):
            real = getattr(store, method)

            def counted(*args: Any, _real: Any = real, _name: str = method, **kw: Any) -> Any:
                calls[_name] += 1
                return _real(*args, **kw)

            monkeypatch.setattr(store, method, counted)
        for _ in range(5):
            command = game.legal_commands()[0]
            moved = games.execute("t", command, expected_version=game.version)
            game = game.execute(command)
            assert moved == game
        monkeypatch.undo()
        assert dict(calls) == {"append": 5}  # one append a command, and no read
        assert GameStore(store).load("t") == game

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_holding_a_game_reads_it_again_after_another_writer(
        self, store: EventStore, second: EventStore, name: str
    ) -> None:
        mine, theirs = GameStore(store, hold=True), GameStore(second)
        game = new_game(name, seed=18)
        mine.create("t", game)
        first = game.legal_commands()[0]
        game = game.execute(first)
        assert mine.execute("t", first) == game  # held from now on
        held_version = game.version
        other = game.legal_commands()[0]
        game = game.execute(other)
        theirs.execute("t", other)  # another writer moves on: the held game is behind
        third = game.legal_commands()[0]
        with pytest.raises(VersionConflict) as caught:  # named at the held version: stale
            mine.execute("t", third, expected_version=held_version)
        assert caught.value.actual == game.version
        # without a version, it is decided on the game as stored
        assert mine.execute("t", third) == game.execute(third)
        assert GameStore(second).load("t") == game.execute(third)

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_holding_a_game_sees_metadata_another_writer_set(
        self, store: EventStore, second: EventStore, name: str
    ) -> None:
        games = GameStore(store, hold=True)
        game = new_game(name, seed=19)
        games.create("t", game, {"seats": "as made"})
        seen: list[object] = []

        def choose(record: StoredStream, loaded: Any) -> Any:
            seen.append(dict(record.metadata).get("seats"))
            return loaded.legal_commands()[0]

        games.run("t", choose)
        second.set_metadata("t", {"seats": "handed over"})
        after = games.run("t", choose)
        # decided on the held record first, refused by the append, decided again on the new one
        assert seen == ["as made", "as made", "handed over"]
        assert dict(after.record.metadata)["seats"] == "handed over"
        assert store.stream("t").version == after.game.version

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_a_repeated_command_id_returns_the_game_of_then(
        self, store: EventStore, name: str
    ) -> None:
        games = GameStore(store)
        game = new_game(name, seed=15)
        games.create("t", game)
        command = game.legal_commands()[0]
        first = games.execute("t", command, command_id="req-1")
        assert first == game.execute(command)
        again = games.execute("t", command, command_id="req-1")
        assert again == first
        later = games.execute("t", first.legal_commands()[0], command_id="req-2")
        assert later.version > first.version
        # a retry long after, when the command is no longer legal: still the game of then
        assert games.execute("t", command, command_id="req-1") == first
        assert games.execute("t", command, expected_version=0, command_id="req-1") == first
        assert games.load("t") == later

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_an_illegal_command_writes_nothing(
        self, store: EventStore, name: str
    ) -> None:
        games = GameStore(store)
        game = new_game(name, seed=16)
        games.create("t", game)
        legal = game.legal_commands()[0]
        wrong_seat = attrs.evolve(legal, seat=99)
        with pytest.raises(core.IllegalCommand):
            games.execute("t", wrong_seat, command_id="bad")
        assert store.stream("t").version == game.version
        assert store.command_version("t", "bad") is None
        assert games.load("t") == game

    def test_gamestore_one_command_id_four_commands_at_once(
        self, store: EventStore, second: EventStore
    ) -> None:
        """The attack of four concurrent commands under one command id, in threads on two
        handles: exactly one is acknowledged, the others get ``CommandIdReused``, and the store
        holds what the acknowledged one was told."""
        games = [GameStore(store), GameStore(second), GameStore(store), GameStore(second)]
        for number in range(6):
            games[0].create(f"race-{number}", contested(number))
            barrier = threading.Barrier(4)
            runs = [
                in_thread(
                    functools.partial(race_command_id, games[w], f"race-{number}", w, barrier)
                )
                for w in range(4)
            ]
            for thread, _ in runs:
                thread.join()
            check_command_id_race(GameStore(store), number, [told[0] for _, told in runs])

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_the_same_id_with_another_command_later_is_refused(
        self, store: EventStore, name: str
    ) -> None:
        games = GameStore(store)
        game = new_game(name, seed=17)
        while len(game.legal_commands()) < 2:
            game = game.execute(game.legal_commands()[0])
        games.create("t", game)
        first, other = game.legal_commands()[:2]
        done = games.run("t", lambda record, game: first, command_id="c1")
        assert (done.repeated, done.before, done.game) == (False, game.version, game.execute(first))
        again = games.run("t", lambda record, game: first, command_id="c1")
        assert (again.game, again.before, again.repeated) == (done.game, done.before, True)
        assert again.record == attrs.evolve(done.record, updated=again.record.updated)
        for expected in (None, game.version, done.game.version):
            with pytest.raises(CommandIdReused):
                games.run(
                    "t", lambda record, game: other, expected_version=expected, command_id="c1"
                )
            with pytest.raises(CommandIdReused):
                games.execute("t", other, expected, command_id="c1")
        assert games.load("t") == done.game
        assert store.stream("t").version == done.game.version

    def test_gamestore_run_hands_choose_the_record_and_the_game(self, store: EventStore) -> None:
        games = GameStore(store)
        game = new_game("mare", seed=4)
        games.create("t", game, {"seats": ["Ann", "Bob"]})
        seen: list[tuple[Any, Any]] = []

        def choose(record: StoredStream, now: Any) -> Any:
            seen.append((record, now))
            return now.legal_commands()[0]

        done = games.run("t", choose)
        ((record, loaded),) = seen
        assert loaded == game
        assert (record.stream, record.version, dict(record.metadata)) == (
            "t",
            game.version,
            {"seats": ["Ann", "Bob"]},
        )
        after = game.execute(game.legal_commands()[0])
        assert isinstance(done, Executed)
        assert (done.game, done.before, done.repeated) == (after, game.version, False)
        assert done.record == attrs.evolve(record, version=after.version)

        def refuse(record: StoredStream, now: Any) -> Any:
            raise PermissionError("not your seat")

        with pytest.raises(PermissionError, match="not your seat"):
            games.run("t", refuse)
        with pytest.raises(VersionConflict) as caught:
            games.run("t", choose, expected_version=game.version)  # before choose is called
        assert (caught.value.expected, caught.value.actual) == (game.version, after.version)
        assert len(seen) == 1
        assert store.stream("t").version == after.version
        with pytest.raises(InvalidArgument, match="expected_version"):
            games.run("t", choose, expected_version=-1)

    def test_gamestore_decides_again_when_another_writer_got_there_first(
        self, store: EventStore, second: EventStore
    ) -> None:
        """Without an expected version, a lost race loads the game again and asks ``choose``
        again: here the other writer moves in between the first two calls."""
        mine, theirs = GameStore(store), GameStore(second)
        game = new_game("autorama", seed=5)
        mine.create("t", game)
        versions: list[int] = []

        def choose(record: StoredStream, now: Any) -> Any:
            versions.append(now.version)
            if len(versions) == 1:  # somebody else plays first, after our load
                theirs.execute("t", now.legal_commands()[1])
            return now.legal_commands()[0]

        done = mine.run("t", choose)
        between = game.execute(game.legal_commands()[1])
        assert versions == [game.version, between.version]
        assert done.before == between.version
        assert done.game == between.execute(between.legal_commands()[0])
        assert mine.load("t", verify=True) == done.game

    def test_gamestore_gives_up_after_the_retries(self, store: EventStore) -> None:
        games, other = GameStore(store), GameStore(store)
        game = new_game("autorama", seed=6)
        games.create("t", game)
        calls: list[int] = []

        def choose(record: StoredStream, now: Any) -> Any:
            calls.append(now.version)
            other.execute("t", now.legal_commands()[0])  # always one step ahead
            return now.legal_commands()[0]

        with pytest.raises(VersionConflict):
            games.run("t", choose)
        assert len(calls) == 9  # the first try and eight more

    @pytest.mark.parametrize("name", GAMES)
    def test_gamestore_the_command_that_ends_the_game_writes_its_outcome(
        self, store: EventStore, name: str
    ) -> None:
        games = GameStore(store)
        game = new_game(name, seed=18)
        games.create("t", game, {"seats": "kept"})
        last = None
        while not game.is_over:
            done = games.run("t", lambda record, now: now.legal_commands()[0])
            assert ("outcome" in done.record.metadata) == done.game.is_over
            game, last = done.game, done
        assert last is not None
        outcome = {"winners": list(game.outcome.winners), "returns": list(game.outcome.returns)}
        assert dict(last.record.metadata) == {"seats": "kept", "outcome": outcome}
        assert dict(store.stream("t").metadata) == {"seats": "kept", "outcome": outcome}

    def test_gamestore_refuses_a_second_create_and_an_unknown_game(self, store: EventStore) -> None:
        games = GameStore(store)
        game = new_game("mare")
        games.create("t", game)
        with pytest.raises(StreamExists):
            games.create("t", new_game("avanti"))
        assert games.load("t") == game
        with pytest.raises(UnknownStream):
            games.load("nope")
        with pytest.raises(UnknownStream):
            games.execute("nope", game.legal_commands()[0])

    def test_gamestore_follow_returns_the_new_version(
        self, store: EventStore, second: EventStore
    ) -> None:
        games = GameStore(store)
        game = new_game("mare", seed=3)
        games.create("t", game)
        assert games.follow("t", game.version, 0.01) == game.version
        waiter, told = in_thread(lambda: games.follow("t", game.version, 30.0))
        time.sleep(0.05)
        after = GameStore(second).execute("t", game.legal_commands()[0])
        waiter.join()
        assert told == [after.version]
