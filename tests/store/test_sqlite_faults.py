"""The SQLite store under faults, with real processes: racing writers, writers killed with
SIGKILL mid-append, and a locked, read-only, full or corrupt file."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from avanti import catalog
from avanti.core.errors import VersionConflict
from avanti.store import GameStore, SQLiteEventStore, StoreError
from tests.store import workers
from tests.store.contract import check_command_id_race, contested

ROOT = Path(__file__).parents[2]
SPAWN = multiprocessing.get_context("spawn")
FORK = multiprocessing.get_context("fork")


def new_game(name: str, seed: int) -> Any:
    info = catalog.game_info(name)
    return info.new_game(info.player_names(), seed=seed)


def check_every_stream(path: Path) -> dict[str, int]:
    """Open the file again and check every stream: its rows are 0..version-1 with nothing
    missing or doubled, and its game replays with the rules checking every event. Returns each
    stream's version."""
    versions: dict[str, int] = {}
    with SQLiteEventStore(path) as store:
        games = GameStore(store)
        for record in store.streams(limit=1000):
            rows = store.read(record.stream)
            assert [row.position for row in rows] == list(range(record.version))
            game = games.load(record.stream, verify=True)
            assert game.version == record.version
            versions[record.stream] = record.version
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return versions


def worker(*args: str) -> subprocess.Popen[str]:
    """Start ``python -m tests.store.workers ARGS`` from the repository's root."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store.workers", *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


# -- racing processes ----------------------------------------------------------------------------

RACERS = 4
RACES = 300
KINDS = ("autorama", "mare")


def racing_game(number: int) -> Any:
    """The ``number``-th game the racers play: For Sale: Autorama and Avanti mare! in turn."""
    return new_game(KINDS[number % 2], seed=100 + number)


def test_racing_processes_exactly_one_wins_each_race(tmp_path: Path) -> None:
    """Four processes load the same game, then execute a command each at the same expected
    version, 300 times over: one wins each race and the others are told of the conflict with
    the winner's version; the log is exactly the winners' commands and replays."""
    path = tmp_path / "race.db"
    with SQLiteEventStore(path) as store:
        games = GameStore(store)
        for number in range(60):
            games.create(f"race-{number}", racing_game(number))
    barrier = SPAWN.Barrier(RACERS)
    results = SPAWN.Queue()
    racers = [
        SPAWN.Process(target=workers.race, args=(str(path), w, RACES, barrier, results))
        for w in range(RACERS)
    ]
    for racer in racers:
        racer.start()
    told = dict(results.get(timeout=120) for _ in racers)
    for racer in racers:
        racer.join(timeout=30)
        assert racer.exitcode == 0
    winners: dict[int, tuple[Any, ...]] = {}
    for race in range(RACES):
        outcomes = [told[w][race] for w in range(RACERS)]
        won = [o for o in outcomes if o[2] == "won"]
        assert len(won) == 1, outcomes
        (_, number, _, before, after, _) = won[0]
        assert {o[1] for o in outcomes} == {number}
        conflicts = [o for o in outcomes if o[2] == "conflict"]
        assert len(conflicts) == RACERS - 1
        assert {(o[3], o[4]) for o in conflicts} == {(before, after)}
        winners[race] = won[0]
    # the stored games are exactly the winners' commands, in order
    expected = {number: racing_game(number) for number in range(60)}
    for race in range(RACES):
        (_, number, _, before, after, data) = winners[race]
        game = expected[number]
        assert game.version == before
        game = game.execute(type(game).rules.codec.command_from_data(data))
        assert game.version == after
        expected[number] = game
    versions = check_every_stream(path)
    with SQLiteEventStore(path) as store:
        games = GameStore(store)
        for number, game in expected.items():
            assert games.load(f"race-{number}") == game
            assert versions[f"race-{number}"] == game.version


def test_one_command_id_four_commands_in_two_processes_one_is_kept(tmp_path: Path) -> None:
    """The command-id attack across processes: two processes of two threads each send one
    command id with four different legal commands at once, 12 times over. Exactly one is
    acknowledged each time, the others get ``CommandIdReused``, and the file holds what the
    acknowledged writer was told, replaying with every event checked."""
    path = tmp_path / "ids.db"
    races = 12
    with SQLiteEventStore(path) as store:
        games = GameStore(store)
        for number in range(races):
            games.create(f"race-{number}", contested(number))
    barrier = SPAWN.Barrier(4)
    results = SPAWN.Queue()
    processes = [
        SPAWN.Process(
            target=workers.command_id_race,
            args=(("sqlite", str(path)), writers, races, barrier, results),
        )
        for writers in ([0, 1], [2, 3])
    ]
    for process in processes:
        process.start()
    told = dict(results.get(timeout=120) for _ in range(4))
    for process in processes:
        process.join(timeout=30)
        assert process.exitcode == 0
    with SQLiteEventStore(path) as store:
        for number in range(races):
            check_command_id_race(GameStore(store), number, [told[w][number] for w in range(4)])
    check_every_stream(path)


# -- SIGKILL in the middle of an append ----------------------------------------------------------


@pytest.mark.parametrize("point", list(workers.PAUSE_POINTS))
def test_a_writer_killed_inside_an_append_leaves_all_or_nothing(tmp_path: Path, point: str) -> None:
    """A child executes a command and is killed with SIGKILL right after one statement of the
    append's transaction: before the commit nothing of the command is visible (no event, no
    version, no command id) and the file takes the same command again; after the commit the
    whole command is there and a retry with its command id writes nothing."""
    path = tmp_path / "kill.db"
    game = new_game("avanti", seed=5)
    command = game.legal_commands()[0]
    after = game.execute(command)
    with SQLiteEventStore(path) as store:
        GameStore(store).create("g", game)
    data = type(game).rules.codec.command_to_data(command)
    mine, theirs = FORK.Pipe()
    child = SPAWN.Process(target=workers.paused_execute, args=(str(path), point, data, theirs))
    child.start()
    assert mine.poll(60), "the writer never reached its pause"
    assert mine.recv() == point
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)
    child.join(timeout=30)
    assert child.exitcode == -signal.SIGKILL
    committed = point == "committed"
    with SQLiteEventStore(path, timeout=5.0) as store:
        games = GameStore(store)
        assert store.stream("g").version == (after.version if committed else game.version)
        assert len(store.read("g")) == store.stream("g").version
        assert store.command_version("g", "c-1") == (after.version if committed else None)
        assert games.load("g", verify=True) == (after if committed else game)
        # the retry: executed now if the first try died, not again if it committed
        assert games.execute("g", command, command_id="c-1") == after
        assert games.execute("g", command, command_id="c-1") == after
        assert store.stream("g").version == after.version
    check_every_stream(path)


ROUNDS = 6


def test_writers_killed_at_random_moments_lose_nothing_acknowledged(tmp_path: Path) -> None:
    """A child plays three games (one of each kind) command after command and is killed with
    SIGKILL at a random moment, six times over on the same file: every command it was told
    had been stored is there under its command id, nothing is doubled, and every game loads."""
    path = tmp_path / "loop.db"
    names = ["avanti", "mare", "autorama"]
    chance = random.Random(2024)
    acknowledged: dict[tuple[str, str], int] = {}
    for round_ in range(ROUNDS):
        streams = [f"{name}-{round_}" for name in names]
        with SQLiteEventStore(path) as store:
            games = GameStore(store)
            for stream, name in zip(streams, names, strict=True):
                games.create(stream, new_game(name, seed=round_))
        child = worker("play_until_killed", str(path), json.dumps(streams))
        assert child.stdout is not None
        lines = [child.stdout.readline() for _ in range(chance.randrange(3, 40))]
        time.sleep(chance.uniform(0, 0.02))  # let it get going, then kill it at random
        child.send_signal(signal.SIGKILL)
        output, _ = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL
        lines += output.splitlines(keepends=True)
        for line in lines:
            if not line.endswith("\n"):
                continue  # the last line may be cut short by the kill
            stream, told, command_id = line.split()
            acknowledged[(stream, command_id)] = int(told)
        versions = check_every_stream(path)
        with SQLiteEventStore(path) as store:
            for (stream, command_id), version in acknowledged.items():
                assert store.command_version(stream, command_id) == version
                assert versions[stream] >= version
    assert len(acknowledged) >= ROUNDS * 3


# -- a locked, read-only, full or corrupt file ---------------------------------------------------


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A file holding one stream ``g`` with events 1, 2, 3."""
    path = tmp_path / "games.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={"seed": 1})
        store.append("g", [1, 2, 3], 0)
    return path


@pytest.mark.parametrize("mode", ["IMMEDIATE", "EXCLUSIVE"])
def test_a_file_locked_past_the_timeout_is_a_clear_error(stored: Path, mode: str) -> None:
    holder = worker("hold_lock", str(stored), mode)
    assert holder.stdout is not None
    try:
        assert holder.stdout.readline() == "locked\n"
        with SQLiteEventStore(stored, timeout=0.2) as store:
            for write in (
                lambda: store.append("g", [4], 3),
                lambda: store.create("h", format="toy", format_version=1, setup={}),
                lambda: store.set_metadata("g", {"x": 1}),
            ):
                with pytest.raises(StoreError, match=r"is locked by another connection.*0\.2 s"):
                    write()
            assert [r.data for r in store.read("g")] == [1, 2, 3]  # readers never wait
    finally:
        holder.communicate(input="", timeout=30)
    with SQLiteEventStore(stored) as store:
        assert store.append("g", [4], 3) == 4
        assert [r.data for r in store.read("g")] == [1, 2, 3, 4]


def _as_reader_only(path: Path) -> dict[str, object]:
    """Run :func:`workers.read_only` in a forked child; what it reported."""
    results = FORK.Queue()
    child = FORK.Process(target=workers.read_only, args=(str(path), results))
    child.start()
    told: dict[str, object] = results.get(timeout=60)
    child.join(timeout=30)
    return told


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder any user may enter (an unprivileged child must reach the file)."""
    folder = Path(tempfile.mkdtemp(prefix="avanti-store-"))
    folder.chmod(0o777)
    yield folder
    for item in folder.iterdir():
        item.unlink()
    folder.rmdir()


def test_a_read_only_file_reads_and_refuses_writes_clearly(shared_folder: Path) -> None:
    path = shared_folder / "games.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [1, 2, 3], 0)
    before = path.read_bytes()
    path.chmod(0o444)
    told = _as_reader_only(path)
    assert told["read"] == [1, 2, 3]
    assert told["stream"] == 3
    for write in ("append", "create", "set_metadata"):
        assert isinstance(told[write], str)
        assert str(told[write]).startswith("StoreError: SQLite file")
        assert "is read-only" in str(told[write])
    assert path.read_bytes() == before
    path.chmod(0o644)
    with SQLiteEventStore(path) as store:
        assert [r.data for r in store.read("g")] == [1, 2, 3]
        assert store.append("g", [4], 3) == 4


def test_a_read_only_file_in_a_read_only_folder_is_a_clear_error(
    shared_folder: Path,
) -> None:
    path = shared_folder / "games.db"
    with SQLiteEventStore(path) as store:
        store.create("g", format="toy", format_version=1, setup={})
        store.append("g", [1, 2, 3], 0)
    path.chmod(0o444)
    shared_folder.chmod(0o755)
    try:
        told = _as_reader_only(path)
    finally:
        shared_folder.chmod(0o777)
        path.chmod(0o644)
    # a WAL file needs its folder for the shared-memory index: either every call fails with a
    # StoreError naming the file, or reads work and writes are refused as read-only
    assert told, "the child reported nothing"
    for name, outcome in told.items():
        if name in ("read", "stream") and not isinstance(outcome, str):
            continue
        assert str(outcome).startswith(("StoreError: SQLite file", "SQLite file")), told
    with SQLiteEventStore(path) as store:
        assert [r.data for r in store.read("g")] == [1, 2, 3]


def test_a_full_file_refuses_the_append_and_keeps_everything_before(tmp_path: Path) -> None:
    """The file may grow to 64 KiB (SQLite's ``max_page_count``): appends go in until one does
    not fit; that one is refused whole with an error saying the file is full, and every
    acknowledged event is still there, also after the file is opened again."""
    path = tmp_path / "full.db"
    acknowledged = 0
    blob = "x" * 3000
    with SQLiteEventStore(path, max_bytes=64 * 1024) as store:
        store.create("g", format="toy", format_version=1, setup={})
        problem = ""
        for _ in range(100):
            try:
                acknowledged = store.append("g", [{"n": acknowledged, "blob": blob}], acknowledged)
            except StoreError as error:
                problem = str(error)
                break
        assert problem.startswith(f"SQLite file {path} is full")
        assert 5 < acknowledged < 100
        assert store.stream("g").version == acknowledged
        with pytest.raises(StoreError, match="is full"):
            store.create("h", format="toy", format_version=1, setup={"blob": blob * 30})
    with SQLiteEventStore(path) as store:
        rows = store.read("g")
        assert [row.data["n"] for row in rows] == list(range(acknowledged))
        assert store.append("g", [{"n": acknowledged}], acknowledged) == acknowledged + 1
    check_every_stream_raw(path)


def check_every_stream_raw(path: Path) -> None:
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(random.Random(1).randbytes(64 * 1024))
    with pytest.raises(StoreError, match="is corrupt: it is not an SQLite database") as caught:
        SQLiteEventStore(path)
    assert str(path) in str(caught.value)


def test_an_overwritten_header_is_a_clear_error(stored: Path) -> None:
    with stored.open("r+b") as file:
        file.write(b"garbage! " * 11)
    with pytest.raises(StoreError, match="is corrupt"):
        SQLiteEventStore(stored)


def test_garbage_inside_the_file_is_a_clear_error_never_a_crash(tmp_path: Path) -> None:
    """Random bytes over pages in the middle of a file with 40 streams: every call either
    returns what was stored or raises a StoreError saying the file is corrupt."""
    path = tmp_path / "games.db"
    with SQLiteEventStore(path) as store:
        for number in range(40):
            store.create(f"s{number}", format="toy", format_version=1, setup={"n": number})
            store.append(f"s{number}", [{"n": number, "pad": "p" * 200}] * 20, 0)
    size = path.stat().st_size
    chance = random.Random(7)
    with path.open("r+b") as file:
        for page in range(3, size // 4096, 3):
            file.seek(page * 4096 + chance.randrange(0, 3000))
            file.write(chance.randbytes(400))
    failures = []
    try:
        store = SQLiteEventStore(path)
    except StoreError as error:
        failures.append(str(error))
    else:
        with store:
            for number in range(40):
                try:
                    rows = store.read(f"s{number}")
                    assert [row.data for row in rows] == [{"n": number, "pad": "p" * 200}] * 20
                    assert store.stream(f"s{number}").setup == {"n": number}
                except StoreError as error:
                    failures.append(str(error))
            try:
                store.streams(limit=1000)
            except StoreError as error:
                failures.append(str(error))
    assert failures
    assert all("is corrupt" in failure for failure in failures), failures


# -- the database itself keeps the version -------------------------------------------------------


def test_the_database_refuses_a_taken_or_skipped_position(stored: Path) -> None:
    """Even a writer that bypasses the store cannot write a second event at a position, skip a
    position or write to a stream that does not exist."""
    with sqlite3.connect(stored) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        for row in (("g", 2, None, "9"), ("g", 5, None, "9"), ("nope", 0, None, "9")):
            with pytest.raises(sqlite3.IntegrityError):
                raw.execute("INSERT INTO events VALUES (?, ?, ?, ?)", row)
        raw.rollback()
    with SQLiteEventStore(stored) as store:
        assert [r.data for r in store.read("g")] == [1, 2, 3]
        with pytest.raises(VersionConflict) as caught:
            store.append("g", [4], 2)
        assert (caught.value.expected, caught.value.actual) == (2, 3)
