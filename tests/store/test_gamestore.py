"""What the GameStore does beyond the contract: old format versions, an interrupted create,
audits, corrupt rows, other games than the catalog's, and the ids it refuses."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from avanti import autorama, core, mare
from avanti.core.errors import (
    CorruptLog,
    DecodeError,
    InvalidArgument,
    UnknownGame,
    VersionConflict,
)
from avanti.store import (
    CommandIdReused,
    EventStore,
    GameStore,
    MemoryEventStore,
    Recorded,
    SQLiteEventStore,
    StoredStream,
    UnknownStream,
)
from tests import toy


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    made: EventStore = (
        MemoryEventStore() if request.param == "memory" else SQLiteEventStore(tmp_path / "g.db")
    )
    with made:
        yield made


def mare_game(commands: int = 3) -> Any:
    game = mare.new_game(["Ann", "Bob"], seed=7)
    for _ in range(commands):
        game = game.execute(game.legal_commands()[0])
    return game


def test_a_game_stored_at_an_older_format_version_loads_upcast(store: EventStore) -> None:
    """A game of Avanti mare! stored at format version 1 (before the option
    ``free_fish_move_owed``) loads with the option set as version 1 games were played (M6)."""
    game = mare_game()
    setup = mare.CODEC.document(game.setup, ())["setup"]
    del setup["options"]["free_fish_move_owed"]
    store.create("old", format="mare", format_version=1, setup=setup)
    store.append("old", [mare.CODEC.event_to_data(e) for e in game.events], 0)
    games = GameStore(store)
    loaded = games.load("old", verify=True)
    assert loaded.setup.options.free_fish_move_owed is True
    assert loaded.events == game.events


def test_an_old_game_is_not_appended_to_but_copied_forward(store: EventStore) -> None:
    game = mare_game()
    setup = mare.CODEC.document(game.setup, ())["setup"]
    del setup["options"]["free_fish_move_owed"]
    store.create("old", format="mare", format_version=1, setup=setup, metadata={"seat": "Ann"})
    store.append("old", [mare.CODEC.event_to_data(e) for e in game.events], 0)
    games = GameStore(store)
    loaded = games.load("old")
    with pytest.raises(InvalidArgument, match=r"format version 1.*GameStore\.upgrade"):
        games.execute("old", loaded.legal_commands()[0])
    assert store.stream("old").version == game.version
    assert games.upgrade("old", "new") == loaded
    record = store.stream("new")
    assert (record.format_version, dict(record.metadata)) == (2, {"seat": "Ann"})
    played = games.execute("new", loaded.legal_commands()[0])
    assert played == loaded.execute(loaded.legal_commands()[0])
    assert games.load("new", verify=True) == played


def test_a_create_cut_short_before_the_opening_events_still_plays(store: EventStore) -> None:
    """A writer that stopped between creating the stream and appending the opening events left
    a stream with a setup and no events: the game loads as new, and the next command stores
    the opening events with its own, in one append."""
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=9)
    assert game.version == 2  # the shuffle and the first round's deal
    setup = autorama.CODEC.document(game.setup, ())["setup"]
    store.create("cut", format="autorama", format_version=autorama.CODEC.version, setup=setup)
    games = GameStore(store)
    assert games.load("cut") == game
    command = game.legal_commands()[0]
    after = game.execute(command)
    assert games.execute("cut", command, expected_version=2) == after
    assert store.stream("cut").version == after.version
    assert games.load("cut", verify=True) == after


def test_an_audit_finds_a_forged_event(store: EventStore) -> None:
    game = mare_game(4)
    data = [mare.CODEC.event_to_data(e) for e in game.events]
    rolled = next(i for i, d in enumerate(data) if d["type"] == "DieRolled" and i > 2)
    faces = ["blue", "orange", "yellow", "pink", "red", "green"]
    data[rolled] = {**data[rolled], "face": next(f for f in faces if f != data[rolled]["face"])}
    store.create(
        "forged", format="mare", format_version=2, setup=mare.CODEC.unstructure(game.setup)
    )
    store.append("forged", data, 0)
    games = GameStore(store)
    games.load("forged")  # trusted: the store holds what a GameStore wrote
    with pytest.raises(CorruptLog) as caught:
        games.load("forged", verify=True)
    assert caught.value.index == rolled


def test_a_row_that_is_no_event_of_the_game_is_a_decode_error(store: EventStore) -> None:
    game = mare_game(1)
    store.create("bad", format="mare", format_version=2, setup=mare.CODEC.unstructure(game.setup))
    store.append("bad", [{"type": "DieRolled", "seat": 0, "face": "purple"}], 0)
    with pytest.raises(DecodeError) as caught:
        GameStore(store).load("bad")
    assert caught.value.errors[0] == "stored game 'bad' cannot be read"
    assert caught.value.errors[1].endswith("got another string @ $.events[0].face")


def test_a_stream_of_an_unknown_format_is_refused(store: EventStore) -> None:
    store.create("chess", format="chess", format_version=1, setup={})
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        GameStore(store).load("chess")


def test_a_game_store_keeps_the_games_it_is_given(store: EventStore) -> None:
    """Any game built on the core, given by format name: here the tests' toy game."""
    games = GameStore(store, games={"toy": toy.Game})
    game = toy.new_game(["Ann", "Bob"], seed=3)
    games.create("t", game)
    after = games.execute("t", game.legal_commands()[0])
    assert games.load("t", verify=True) == after
    with pytest.raises(InvalidArgument, match="does not keep games of"):
        games.create("m", mare_game())
    with pytest.raises(InvalidArgument, match="does not keep games of"):
        GameStore(store).create("t2", game)  # the catalog's store has no toy game


def test_ids_and_command_ids_are_checked_before_anything_is_read(store: EventStore) -> None:
    games = GameStore(store)
    games.create("g", mare_game())
    with pytest.raises(InvalidArgument, match="stream name"):
        games.execute("../g", mare.Roll(seat=0))
    with pytest.raises(InvalidArgument, match="command_id"):
        games.execute("g", mare.Roll(seat=0), command_id="")
    with pytest.raises(InvalidArgument, match="stream name"):
        games.create("a b", mare_game())
    with pytest.raises(core.IllegalCommand):
        games.execute("g", mare.Roll(seat=5))


def test_a_cached_game_is_reused_until_any_writer_moves_it(store: EventStore) -> None:
    mine, theirs = GameStore(store), GameStore(store, cache=0)
    game = mare_game(1)
    mine.create("g", game)
    loaded = mine.load("g")
    assert mine.load("g") is loaded  # nothing new stored: not replayed again
    played = mine.execute("g", loaded.legal_commands()[0])
    assert mine.load("g") is played
    theirs_now = theirs.execute("g", played.legal_commands()[0])
    assert theirs.load("g") is not theirs.load("g")  # no cache: replayed each time
    again = mine.load("g")
    assert again == theirs_now
    assert again is not played
    assert mine.load("g", verify=True) == again


def test_a_small_cache_forgets_the_oldest_game(store: EventStore) -> None:
    games = GameStore(store, cache=1)
    games.create("a", mare_game(1))
    games.create("b", mare_game(2))
    a = games.load("a")
    b = games.load("b")
    assert games.load("b") is b
    assert games.load("a") is not a
    assert games.load("a") == a
    with pytest.raises(InvalidArgument, match="cache"):
        GameStore(store, cache=-1)


def test_a_game_longer_than_one_append_is_created_in_whole_commands() -> None:
    """A log of more than MAX_APPEND_EVENTS events is written in several appends, each cut
    where a command begins, and loads back whole."""
    store = MemoryEventStore()
    games = GameStore(store, games={"toy": toy.Game})
    game = toy.new_game(["Ann", "Bob"], seed=3, goal=10**6)
    for _ in range(1_500):
        game = game.execute(game.legal_commands()[-1])  # Wait: one event each
    assert game.version == 1_502
    games.create("long", game)
    assert games.load("long") == game
    assert store.stream("long").version == 1_502


class Counting(EventStore):
    """An event store that counts the calls made to it (by the name of the public method)
    and passes them on to another store's hooks."""

    def __init__(self, inner: EventStore) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()

    def _create(self, *args: Any) -> StoredStream:
        self.calls["create"] += 1
        return self.inner._create(*args)

    def _append(self, *args: Any) -> int:
        self.calls["append"] += 1
        return self.inner._append(*args)

    def _command_version(self, stream: str, command_id: str) -> int | None:
        self.calls["command_version"] += 1
        return self.inner._command_version(stream, command_id)

    def _read(self, stream: str, after: int) -> tuple[Recorded, ...]:
        self.calls["read"] += 1
        return self.inner._read(stream, after)

    def _stream(self, stream: str) -> StoredStream:
        self.calls["stream"] += 1
        return self.inner._stream(stream)

    def _streams(self, *args: Any) -> tuple[StoredStream, ...]:
        self.calls["streams"] += 1
        return self.inner._streams(*args)

    def _set_metadata(self, *args: Any) -> StoredStream:
        self.calls["set_metadata"] += 1
        return self.inner._set_metadata(*args)

    def _wait_any(self, versions: dict[str, int], seconds: float) -> dict[str, int]:
        self.calls["wait_any"] += 1
        return self.inner._wait_any(versions, seconds)

    def close(self) -> None:
        self.inner.close()


def test_one_command_is_one_stream_at_most_one_read_and_one_append(store: EventStore) -> None:
    """Counted on a store: a command with a command id is decided on one load (``stream`` once,
    ``read`` at most once, none when the cached game is current) and written by one append."""
    counting = Counting(store)
    games = GameStore(counting)  # a proxy of the protocol
    games.create("g", mare_game(1))
    other = GameStore(store, cache=0)
    for step in range(6):
        counting.calls.clear()
        if step % 2:  # another writer moved the game: the cached one is stale
            other.execute("g", other.load("g").legal_commands()[0])
        done = games.run("g", lambda r, g: g.legal_commands()[0], command_id=f"c{step}")
        assert not done.repeated
        assert counting.calls == Counter(
            {"stream": 1, "append": 1} | ({"read": 1} if step % 2 else {})
        )
    counting.calls.clear()
    fresh = GameStore(counting)  # nothing cached: one whole read
    fresh.run("g", lambda r, g: g.legal_commands()[0], command_id="fresh")
    assert counting.calls == Counter({"stream": 1, "read": 1, "append": 1})
    assert fresh.load("g", verify=True) == GameStore(store).load("g")
    with Counting(store) as counted:  # the hooks behind the public methods
        assert counted.streams() == store.streams()
        counted.set_metadata("g", {"n": 1})
        assert counted.wait("g", 0, 0) == store.stream("g").version
        assert counted.command_version("g", "fresh") == store.stream("g").version
        counted.create("h", format="toy", format_version=1, setup={})
        assert counted.calls == Counter(
            {"streams": 1, "set_metadata": 1, "wait_any": 1, "command_version": 1, "create": 1}
        )


def test_a_command_id_reused_for_another_command_is_refused_and_writes_nothing(
    store: EventStore,
) -> None:
    games = GameStore(store)
    games.create("g", mare_game(0))
    game = games.load("g")
    first = game.legal_commands()[0]
    done = games.run("g", lambda r, g: first, command_id="once")
    after = done.game
    other = after.legal_commands()[0]
    assert other != first
    with pytest.raises(CommandIdReused, match="command id 'once' of stream 'g' was already used"):
        games.execute("g", other, command_id="once")
    assert store.stream("g").version == after.version
    # the digest is SHA-256 of the command in canonical JSON: the same command is a retry
    data = mare.CODEC.command_to_data(first)
    digest = hashlib.sha256(
        json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    assert store.append("g", [], 0, command_id="once", command_digest=digest) == after.version
    with pytest.raises(CommandIdReused):
        store.append("g", [], 0, command_id="once", command_digest=digest[::-1])


def test_a_retry_whose_command_is_still_legal_is_answered_from_the_store(
    store: EventStore,
) -> None:
    """A retry of a command that is still legal when it comes back (the toy's ``Roll`` of a
    seat whose turn it is again) is told of the earlier command, and nothing is written."""
    games = GameStore(store, games={"toy": toy.Game})
    game = toy.new_game(["Ann", "Bob"], seed=3, goal=10**6)
    games.create("t", game)
    done = games.run("t", lambda r, g: toy.Roll(0), command_id="ann-1")
    assert (done.before, done.repeated) == (game.version, False)
    moved = games.execute("t", toy.Wait(1))
    again = games.run("t", lambda r, g: toy.Roll(0), command_id="ann-1")
    assert (again.game, again.before, again.repeated) == (done.game, game.version, True)
    assert again.record.version == done.game.version
    assert store.stream("t").version == moved.version
    # with an expected version that has passed, too; and a stale one without an id conflicts
    late = games.run("t", lambda r, g: toy.Roll(0), expected_version=0, command_id="ann-1")
    assert (late.game, late.repeated) == (done.game, True)
    with pytest.raises(VersionConflict):
        games.run("t", lambda r, g: toy.Roll(0), expected_version=0, command_id="new")

    def broken(record: Any, now: Any) -> Any:
        raise RuntimeError("cannot decide")

    with pytest.raises(VersionConflict):  # the conflict, not the error of deciding
        games.run("t", broken, expected_version=0, command_id="ann-1")
    with pytest.raises(RuntimeError, match="cannot decide"):
        games.run("t", broken, command_id="ann-1")
    assert store.stream("t").version == moved.version


def test_a_cached_game_meets_an_event_it_cannot_read(store: EventStore) -> None:
    games = GameStore(store)
    games.create("g", mare_game(1))
    games.load("g")  # cached
    store.append("g", [{"type": "NoSuchEvent"}], store.stream("g").version)
    with pytest.raises(DecodeError, match="stored game 'g' cannot be read"):
        games.run("g", lambda r, g: g.legal_commands()[0])


def test_a_game_loaded_with_its_record_reads_the_record_once(store: EventStore) -> None:
    """``load_with_record`` on a holding store: the record and the game from one ``stream``
    (and one ``read`` when the game is not cached), the game's version the record's; a game
    another writer moved since is read up to the record's version. Without ``hold``: the
    record, then :meth:`~avanti.store.GameStore.load`."""
    counting = Counting(store)
    games = GameStore(counting, hold=True)
    games.create("g", mare_game(1))
    counting.calls.clear()
    record, game = games.load_with_record("g")
    assert counting.calls == Counter({"stream": 1})  # created here: cached
    assert record == store.stream("g")
    assert game.version == record.version
    other = GameStore(store, cache=0)
    moved = other.execute("g", other.load("g").legal_commands()[0])
    counting.calls.clear()
    record, game = games.load_with_record("g")
    assert counting.calls == Counter({"stream": 1, "read": 1})
    assert record.version == game.version == moved.version
    assert game == moved
    plain = Counting(store)
    record, game = GameStore(plain).load_with_record("g")
    assert plain.calls == Counter({"stream": 2, "read": 1})
    assert (record.version, game) == (moved.version, moved)
    with pytest.raises(UnknownStream):
        games.load_with_record("nothing")
