"""The contract, races between processes and faults on the PostgreSQL store, on a private cluster.

The session starts its own PostgreSQL server (tests/store/pg.py) and stops it at the end; without
PostgreSQL's server binaries these tests fail with one line saying what to install. Run them
alone with ``python -m pytest tests/store/test_postgres.py`` (the ``test`` and ``postgres``
extras installed).

Writers in other processes come from a fork server that has imported this module once (so each
starts in a moment), and each opens its own store, as a server process would.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection as Pipe
from typing import Any, cast

import psycopg
import pytest
from psycopg import sql

from avanti.core.errors import InvalidArgument, VersionConflict
from avanti.store import (
    MAX_APPEND_BYTES,
    MAX_METADATA_BYTES,
    CommandIdReused,
    EventStore,
    GameStore,
    MetadataChanged,
    StoreError,
    UnknownStream,
)
from avanti.store.postgres import PostgresEventStore
from tests.store import workers
from tests.store.contract import (
    StoreContract,
    check_command_id_race,
    contested,
    new_game,
    play,
)
from tests.store.pg import Cluster, pg, postgres_cluster, postgres_dsn, schema
from tests.store.test_trusted import trusted

__all__ = ["pg", "postgres_cluster", "postgres_dsn", "schema"]

PROCESSES = multiprocessing.get_context("forkserver")
PROCESSES.set_forkserver_preload([__name__])

PATIENCE = 60.0
"""How long a test waits for another process to reach a point before it fails (not a timing
assertion: only a guard against hanging forever)."""


class TestPostgresStore(StoreContract):
    @pytest.fixture
    def store(self, postgres_dsn: str, schema: str) -> Iterator[EventStore]:
        with PostgresEventStore(postgres_dsn, schema=schema) as store:
            yield store

    @pytest.fixture
    def second(self, store: EventStore, postgres_dsn: str, schema: str) -> Iterator[EventStore]:
        with PostgresEventStore(postgres_dsn, schema=schema) as other:
            yield other


# -- helpers ---------------------------------------------------------------------------------------


def named(dsn: str, application: str) -> str:
    """``dsn`` with an application name, so a test can find that session on the server."""
    return psycopg.conninfo.make_conninfo(dsn, application_name=application)


def until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after :data:`PATIENCE`."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.01)


def receive(pipe: Pipe, what: str) -> Any:
    """The next message on ``pipe``; fail naming ``what`` if none comes within PATIENCE."""
    if not pipe.poll(PATIENCE):
        pytest.fail(f"gave up waiting for {what}")
    return pipe.recv()


def session_state(dsn: str, application: str) -> tuple[str | None, ...] | None:
    """``(wait_event_type, state)`` of the server session of that application at work (or an
    idle one), if there is one."""
    with psycopg.connect(dsn, autocommit=True) as connection:
        return connection.execute(
            "SELECT wait_event_type, state FROM pg_stat_activity WHERE application_name = %s "
            "ORDER BY state = 'idle'",  # the session at work first (a pool may hold idle ones)
            (application,),
        ).fetchone()


def listening(dsn: str, channel: str) -> bool:
    """Whether a session on the server listens on ``channel``."""
    with psycopg.connect(dsn, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE query = %s",
            (f'LISTEN "{channel}"',),
        ).fetchone()
    return row is not None and row[0] > 0


def tagged(race: int, writer: int, part: int, of: int) -> dict[str, int]:
    """One event of a racing writer's append: which race, which writer, which part of it."""
    return {"race": race, "writer": writer, "part": part, "of": of}


# -- process races -----------------------------------------------------------------------------


def race_writer(dsn: str, schema: str, writer: int, races: int, start: Any, results: Pipe) -> None:
    """Race the other writers ``races`` times on stream ``race``, in its own process.

    Each race: wait for everyone (``start``), then append at the version the last race left,
    which every writer knows from what it was told. Even races append this writer's own events
    (one to three); odd races append the same two events under one shared command id, as
    retries of one client's command.
    """
    told: list[tuple[str, int, int]] = []
    version = 0
    with PostgresEventStore(dsn, schema=schema) as store:
        for race in range(races):
            start.wait(PATIENCE)
            try:
                if race % 2:
                    events = [tagged(race, -1, part, 2) for part in range(2)]
                    new = store.append("race", events, version, command_id=f"r{race}")
                    told.append(("same", version, new))
                else:
                    size = 1 + (writer + race) % 3
                    events = [tagged(race, writer, part, size) for part in range(size)]
                    new = store.append("race", events, version)
                    told.append(("won", version, new))
            except VersionConflict as conflict:
                new = conflict.actual
                told.append(("lost", conflict.expected, new))
            version = new
    results.send(told)


def test_four_processes_race_240_times_and_exactly_one_wins_each_race(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    writers, races = 4, 240
    pg.create("race", format="toy", format_version=1, setup={})
    start = PROCESSES.Barrier(writers)
    pipes = [PROCESSES.Pipe(duplex=False) for _ in range(writers)]
    processes = [
        PROCESSES.Process(
            daemon=True,
            target=race_writer,
            args=(postgres_dsn, pg.schema, writer, races, start, pipes[writer][1]),
        )
        for writer in range(writers)
    ]
    for process in processes:
        process.start()
    told = [receive(pipe, f"writer {n}") for n, (pipe, _) in enumerate(pipes)]
    for process in processes:
        process.join()
        assert process.exitcode == 0
    log = pg.read("race")
    by_race: dict[int, list[dict[str, int]]] = {}
    for recorded in log:
        assert isinstance(recorded.data, dict)
        by_race.setdefault(recorded.data["race"], []).append(recorded.data)
    assert sorted(by_race) == list(range(races))
    for race in range(races):
        results = [told[writer][race] for writer in range(writers)]
        before = results[0][1]
        assert all(r[1] == before for r in results)  # all raced at the same version
        events = by_race[race]
        after = before + len(events)
        if race % 2:  # one command id: written once, every writer told the same version
            assert results == [("same", before, after)] * writers
            assert events == [tagged(race, -1, part, 2) for part in range(2)]
        else:
            winners = [w for w, r in enumerate(results) if r[0] == "won"]
            assert len(winners) == 1
            (winner,) = winners
            assert results[winner] == ("won", before, after)
            assert sorted(results) == sorted(
                [("won", before, after)] + [("lost", before, after)] * 3
            )
            size = 1 + (winner + race) % 3
            assert events == [tagged(race, winner, part, size) for part in range(size)]
        assert [r.position for r in log[before:after]] == list(range(before, after))
    assert pg.stream("race").version == len(log)


def game_racer(
    dsn: str, schema: str, writer: int, rounds: int, start: Any, go: Any, results: Pipe
) -> None:
    """Race the other writers on a real game through :class:`GameStore`, ``rounds`` times:
    each loads the game, then all execute a different legal command at the version they saw."""
    told: list[tuple[str, int]] = []
    with PostgresEventStore(dsn, schema=schema) as store:
        games = GameStore(store)
        for _ in range(rounds):
            start.wait(PATIENCE)
            game = games.load("table")
            legal = [c for c in game.legal_commands() if type(c).__name__ != "Quit"]
            go.wait(PATIENCE)
            try:
                after = games.execute("table", legal[writer % len(legal)], game.version)
                told.append(("won", after.version))
            except VersionConflict as conflict:
                told.append(("lost", conflict.expected))
    results.send(told)


def test_four_processes_race_a_real_game_and_it_replays_cleanly(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    writers, rounds = 4, 25
    games = GameStore(pg)
    games.create("table", new_game("avanti", seed=21))
    start, go = PROCESSES.Barrier(writers), PROCESSES.Barrier(writers)
    pipes = [PROCESSES.Pipe(duplex=False) for _ in range(writers)]
    processes = [
        PROCESSES.Process(
            daemon=True,
            target=game_racer,
            args=(postgres_dsn, pg.schema, writer, rounds, start, go, pipes[writer][1]),
        )
        for writer in range(writers)
    ]
    for process in processes:
        process.start()
    told = [receive(pipe, f"racer {n}") for n, (pipe, _) in enumerate(pipes)]
    for process in processes:
        process.join()
        assert process.exitcode == 0
    for round_ in range(rounds):
        assert sorted(t[round_][0] for t in told) == ["lost", "lost", "lost", "won"]
    game = games.load("table", verify=True)  # every event checked against the rules
    assert game.version == pg.stream("table").version == len(pg.read("table"))
    won = sorted(t[round_][1] for t in told for round_ in range(rounds) if t[round_][0] == "won")
    assert won[-1] == game.version
    assert len(set(won)) == rounds


def test_one_command_id_four_commands_in_two_processes_one_is_kept(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    """The command-id attack across processes: two processes of two threads each send one
    command id with four different legal commands at once, 12 times over. Exactly one is
    acknowledged each time, the others get ``CommandIdReused``, and the database holds what
    the acknowledged writer was told, replaying with every event checked."""
    races = 12
    games = GameStore(pg)
    for number in range(races):
        games.create(f"race-{number}", contested(number))
    barrier = PROCESSES.Barrier(4)
    results = PROCESSES.Queue()
    processes = [
        PROCESSES.Process(
            daemon=True,
            target=workers.command_id_race,
            args=(("postgres", postgres_dsn, pg.schema), writers, races, barrier, results),
        )
        for writers in ([0, 1], [2, 3])
    ]
    for process in processes:
        process.start()
    told = dict(results.get(timeout=PATIENCE * 2) for _ in range(4))
    for process in processes:
        process.join(PATIENCE)
        assert process.exitcode == 0
    for number in range(races):
        check_command_id_race(GameStore(pg), number, [told[w][number] for w in range(4)])


def opener(dsn: str, schema: str, start: Any, results: Pipe) -> None:
    """Open a store on a new schema at the same moment as the other openers."""
    start.wait(PATIENCE)
    with PostgresEventStore(dsn, schema=schema) as store:
        results.send(store.streams())


def test_processes_opening_a_new_schema_at_once_all_succeed(postgres_dsn: str, schema: str) -> None:
    start = PROCESSES.Barrier(4)
    pipes = [PROCESSES.Pipe(duplex=False) for _ in range(4)]
    processes = [
        PROCESSES.Process(daemon=True, target=opener, args=(postgres_dsn, schema, start, p[1]))
        for p in pipes
    ]
    for process in processes:
        process.start()
    assert [receive(pipe, "an opener") for pipe, _ in pipes] == [()] * 4
    for process in processes:
        process.join()
        assert process.exitcode == 0


# -- SIGKILL -------------------------------------------------------------------------------------


def victim(dsn: str, schema: str, expected: int) -> None:
    """Append three events under command id ``cmd``; the test kills this process mid-way."""
    with PostgresEventStore(dsn, schema=schema) as store:
        store.append("g", [{"victim": n} for n in range(3)], expected, command_id="cmd")


BLOCKERS = {
    # the events' primary key: another transaction holds the same position
    "inserting the events": "INSERT INTO {schema}.events VALUES ('g', 2, '0')",
    # the stream's row: another transaction holds it, so the new version waits
    "moving the version": "SELECT 1 FROM {schema}.streams WHERE stream = 'g' FOR NO KEY UPDATE",
    # the command ids' primary key: another transaction holds the same id
    "keeping the command id": "INSERT INTO {schema}.commands VALUES ('g', 'cmd', 99)",
}


@pytest.mark.parametrize("point", sorted(BLOCKERS))
def test_a_writer_killed_inside_its_transaction_leaves_nothing(
    pg: PostgresEventStore, postgres_dsn: str, point: str
) -> None:
    """The writer is held inside its transaction by a lock the test holds, killed with SIGKILL
    there, and the lock released: the server rolls the writer's transaction back."""
    pg.create("g", format="toy", format_version=1, setup={})
    pg.append("g", [{"n": 0}, {"n": 1}], 0)
    application = f"victim-{pg.schema}"
    with psycopg.connect(postgres_dsn) as holder:  # a transaction, until rollback
        holder.execute(sql.SQL(BLOCKERS[point]).format(schema=sql.Identifier(pg.schema)))
        process = PROCESSES.Process(
            daemon=True, target=victim, args=(named(postgres_dsn, application), pg.schema, 2)
        )
        process.start()
        until(
            lambda: (session_state(postgres_dsn, application) or (None,))[0] == "Lock",
            f"the writer to block while {point}",
        )
        assert process.pid is not None
        os.kill(process.pid, signal.SIGKILL)
        process.join()
        assert process.exitcode == -signal.SIGKILL
        holder.rollback()
    until(lambda: session_state(postgres_dsn, application) is None, "the server to end the session")
    assert [r.data for r in pg.read("g")] == [{"n": 0}, {"n": 1}]
    assert pg.stream("g").version == 2
    assert pg.command_version("g", "cmd") is None
    assert pg.append("g", [{"n": 2}], 2, command_id="cmd") == 3  # the store carries on


def player(dsn: str, schema: str, commands: int, pipe: Pipe, most: int | None = None) -> None:
    """Play the stored game on, one command at a time (the first legal one, with a command id
    per version), telling the test each version acknowledged, until ``commands`` versions; with
    ``most``, after that many commands it waits (to be killed) instead of playing on."""
    with PostgresEventStore(dsn, schema=schema) as store:
        games = GameStore(store)
        pipe.send(("ready", 0))
        played = 0
        while True:
            if most is not None and played >= most:
                time.sleep(PATIENCE * 10)  # the test kills it meanwhile
            game = games.load("table")
            if game.version >= commands or game.is_over:
                break
            after = games.execute(
                "table", game.legal_commands()[0], command_id=f"at-{game.version}"
            )
            played += 1
            pipe.send(("ack", after.version))
    pipe.send(("done", game.version))


def test_writers_killed_at_random_moments_lose_nothing_acknowledged(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    """Eight players in turn are killed with SIGKILL at a random moment of their work (loading,
    deciding, appending, committing): each after a random number of acknowledged commands and a
    random fraction of the next one. The game ends exactly as one uninterrupted player ends it,
    and every version a player was told of is in it."""
    reference = play(new_game("avanti", seed=8), 80)
    boundaries = {0}
    game = new_game("avanti", seed=8)
    while game.version < reference.version:
        game = game.execute(game.legal_commands()[0])
        boundaries.add(game.version)
    games = GameStore(pg)
    games.create("table", new_game("avanti", seed=8))
    acknowledged: list[int] = []
    chance = random.Random(8)
    for round_ in range(9):
        told = chance.randint(0, 5) if round_ < 8 else 0
        reader, writer = PROCESSES.Pipe(duplex=False)
        process = PROCESSES.Process(
            daemon=True,
            target=player,
            # at most 8 commands a round (the ones after the acknowledged ones cut short or not):
            # the game is far from its 80th when the last player (round 8) plays it to the end
            args=(
                postgres_dsn,
                pg.schema,
                reference.version,
                writer,
                told + 3 if round_ < 8 else None,
            ),
        )
        process.start()
        assert receive(reader, "a player to start") == ("ready", 0)
        if round_ < 8:
            for _ in range(told):
                kind, version = receive(reader, "a player's acknowledgement")
                assert kind == "ack"
                acknowledged.append(version)
            time.sleep(chance.uniform(0.0, 0.03))
            assert process.pid is not None
            os.kill(process.pid, signal.SIGKILL)
        process.join()
        assert process.exitcode == (0 if round_ == 8 else -signal.SIGKILL)
        while reader.poll():
            kind, version = reader.recv()
            if kind == "ack":
                acknowledged.append(version)
    loaded = games.load("table", verify=True)
    assert loaded == reference
    assert set(acknowledged) <= boundaries
    assert acknowledged == sorted(acknowledged)
    assert len(acknowledged) == len(set(acknowledged))  # no command written twice
    assert [r.position for r in pg.read("table")] == list(range(reference.version))


# -- a server that goes away -----------------------------------------------------------------


def test_a_server_stopped_mid_write_is_a_store_error_and_loses_nothing_acknowledged(
    postgres_cluster: Cluster, schema: str
) -> None:
    """A writer appends one event at a time while the server is stopped as if it crashed
    (``pg_ctl -m immediate``) and started again: the writer is told ``StoreError``, retries each
    append under its command id until it is acknowledged, and the log holds every append once."""
    dsn = postgres_cluster.dsn
    total = 120
    errors: list[StoreError] = []
    acknowledged: list[int] = []
    failed = threading.Event()
    with PostgresEventStore(dsn, schema=schema, poll_interval=0.05) as store:
        store.create("g", format="toy", format_version=1, setup={})

        def write() -> None:
            version = 0
            while version < total:
                try:
                    version = store.append("g", [{"n": version}], version, command_id=f"w{version}")
                    acknowledged.append(version)
                except StoreError as error:
                    errors.append(error)
                    failed.set()
                    time.sleep(0.02)

        store.create("h", format="toy", format_version=1, setup={})
        followed: list[object] = []

        def follow() -> None:
            try:
                followed.append(store.wait("h", 0, PATIENCE))
            except StoreError as error:
                followed.append(error)

        follower = threading.Thread(target=follow)
        follower.start()
        until(lambda: listening(dsn, store.channel), "the store to listen")
        writer = threading.Thread(target=write)
        writer.start()
        try:
            until(lambda: len(acknowledged) >= 20, "the writer to get going")
            postgres_cluster.stop("immediate")
            until(failed.is_set, "the writer to notice")
        finally:
            postgres_cluster.start()
        writer.join()
        store.append("h", [0], 0)
        follower.join()
        # the follower was told of the outage, or (had its poll missed it) of the append
        assert len(followed) == 1
        assert followed[0] == 1 or "connect" in str(followed[0])
        assert errors
        assert all("connect" in str(e) and schema in str(e) for e in errors)
        assert acknowledged == list(range(1, total + 1))
        assert [r.data for r in store.read("g")] == [{"n": n} for n in range(total)]
        assert store.stream("g").version == total
        # waiting works again once the listener has found the server
        waiter = threading.Thread(target=lambda: acknowledged.append(store.wait("g", total, 30.0)))
        waiter.start()
        with PostgresEventStore(dsn, schema=schema) as other:
            other.append("g", [{"n": total}], total)
        waiter.join()
        assert acknowledged[-1] == total + 1


# -- following a stream ------------------------------------------------------------------------


def appender(dsn: str, schema: str, go: Any, pipe: Pipe) -> None:
    """Append one event when told to."""
    with PostgresEventStore(dsn, schema=schema) as store:
        pipe.send("ready")
        go.wait(PATIENCE)
        store.append("g", [{"from": "another process"}], 1)


def test_wait_wakes_on_an_append_from_another_process(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    pg.create("g", format="toy", format_version=1, setup={})
    pg.append("g", [{"n": 0}], 0)
    go = PROCESSES.Event()
    reader, writer = PROCESSES.Pipe(duplex=False)
    process = PROCESSES.Process(
        daemon=True, target=appender, args=(postgres_dsn, pg.schema, go, writer)
    )
    process.start()
    assert receive(reader, "the appender") == "ready"
    told: list[int] = []
    waiters = [
        threading.Thread(target=lambda: told.append(pg.wait("g", 1, PATIENCE))) for _ in range(2)
    ]
    for waiter in waiters:
        waiter.start()
    until(lambda: listening(postgres_dsn, pg.channel), "the store to listen")
    time.sleep(0.05)  # let the waiters block; they return the same either way
    go.set()
    for waiter in waiters:
        waiter.join()
    process.join()
    assert told == [2, 2]
    assert pg.read("g", after=1)[0].data == {"from": "another process"}


def test_wait_polls_when_no_notification_comes(postgres_dsn: str, schema: str) -> None:
    """A version moved without a NOTIFY (say, by hand) is still seen, by the poll."""
    with PostgresEventStore(postgres_dsn, schema=schema, poll_interval=0.02) as store:
        store.create("g", format="toy", format_version=1, setup={})
        told: list[int] = []
        waiter = threading.Thread(target=lambda: told.append(store.wait("g", 0, PATIENCE)))
        waiter.start()
        until(lambda: listening(postgres_dsn, store.channel), "the store to listen")
        with psycopg.connect(postgres_dsn, autocommit=True) as connection:
            streams = sql.Identifier(schema, "streams")
            channel = store.channel
            connection.execute("SELECT pg_notify(%s, 'not a version')", (channel,))
            connection.execute("SELECT pg_notify(%s, 'g x')", (channel,))
            connection.execute("SELECT pg_notify(%s, 'other 7')", (channel,))
            connection.execute(
                sql.SQL("INSERT INTO {} VALUES ('g', 0, '\"x\"')").format(
                    sql.Identifier(schema, "events")
                )
            )
            connection.execute(
                sql.SQL("UPDATE {} SET version = 1 WHERE stream = 'g'").format(streams)
            )
        waiter.join()
        assert told == [1]


def test_closing_the_store_wakes_its_waiters_with_a_store_error(pg: PostgresEventStore) -> None:
    pg.create("g", format="toy", format_version=1, setup={})
    told: list[object] = []

    def wait() -> None:
        try:
            told.append(pg.wait("g", 0, PATIENCE))
        except StoreError as error:
            told.append(error)

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.05)
    pg.close()
    waiter.join()
    assert len(told) == 1
    assert isinstance(told[0], StoreError)
    assert "closed" in str(told[0])


# -- errors --------------------------------------------------------------------------------------


def test_an_unreachable_server_is_a_store_error(tmp_path: Any) -> None:
    dsn = f"host={tmp_path} port=5432 dbname=nothing user=nobody"
    with pytest.raises(StoreError, match="cannot connect") as caught:
        PostgresEventStore(dsn, connect_timeout=2)
    assert "nothing" in str(caught.value)


@pytest.mark.parametrize(
    "arguments",
    [
        {"dsn": "host=/tmp port"},
        {"dsn": "not a connection string"},
        {"schema": "Public"},
        {"schema": "1st"},
        {"schema": "a; DROP TABLE events"},
        {"dsn": b"host=/tmp"},
        {"poll_interval": 0},
        {"poll_interval": "1"},
        {"connect_timeout": -1},
        {"connect_timeout": True},
        {"max_connections": 0},
        {"max_connections": True},
        {"max_connections": 1001},
    ],
)
def test_a_bad_configuration_is_refused(postgres_dsn: str, arguments: dict[str, Any]) -> None:
    dsn = arguments.pop("dsn", postgres_dsn)
    with pytest.raises(InvalidArgument):
        PostgresEventStore(dsn, **arguments)


def test_a_value_postgresql_cannot_hold_is_refused(pg: PostgresEventStore) -> None:
    pg.create("g", format="toy", format_version=1, setup={})
    with pytest.raises(InvalidArgument, match="PostgreSQL cannot store"):
        pg.append("g", [{"text": "nul\x00"}], 0)
    with pytest.raises(InvalidArgument, match="printable"):  # refused by every store
        pg.append("g", [1], 0, command_id="nul\x00")
    with pytest.raises(InvalidArgument, match="PostgreSQL cannot store"):
        pg.set_metadata("g", {"seat": "\x00"})
    assert pg.read("g") == ()
    assert pg.append("g", [{"text": "fine"}], 0) == 1  # the connection is still good


def test_versions_beyond_a_bigint_are_conflicts_not_errors(pg: PostgresEventStore) -> None:
    pg.create("g", format="toy", format_version=1, setup={})
    huge = 10**30
    with pytest.raises(VersionConflict) as caught:
        pg.append("g", [1], huge)
    assert (caught.value.expected, caught.value.actual) == (huge, 0)
    assert pg.read("g", after=huge) == ()
    assert pg.wait("g", huge, 0) == 0


def test_a_read_only_database_is_a_store_error_naming_it(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    pg.create("g", format="toy", format_version=1, setup={})
    read_only = psycopg.conninfo.make_conninfo(
        postgres_dsn, options="-c default_transaction_read_only=on"
    )
    with PostgresEventStore(read_only, schema=pg.schema) as store:
        assert store.stream("g").version == 0
        with pytest.raises(StoreError, match="read-only") as caught:
            store.append("g", [1], 0)
        assert pg.schema in str(caught.value)
        with pytest.raises(UnknownStream):
            store.read("other")
    assert pg.read("g") == ()


def test_a_stream_missing_an_event_is_reported_corrupt(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    pg.create("g", format="toy", format_version=1, setup={})
    pg.append("g", [0, 1, 2], 0)
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        events = sql.Identifier(pg.schema, "events")
        connection.execute(sql.SQL("DELETE FROM {} WHERE position = 1").format(events))
    with pytest.raises(StoreError, match="corrupt: it has version 3 but 2 events"):
        pg.read("g")
    assert [r.data for r in pg.read("g", after=2)] == [2]


def test_the_schema_and_its_tables_are_made_once(pg: PostgresEventStore, postgres_dsn: str) -> None:
    pg.create("g", format="toy", format_version=1, setup={"seed": 1})
    pg.append("g", [1, 2], 0)
    with PostgresEventStore(postgres_dsn, schema=pg.schema) as again:
        assert [r.data for r in again.read("g")] == [1, 2]
    with PostgresEventStore(postgres_dsn, schema=f"{pg.schema}_other") as elsewhere:
        assert elsewhere.streams() == ()
        with pytest.raises(UnknownStream):
            elsewhere.stream("g")
    assert "avanti_test" in repr(pg)
    assert pg.schema in repr(pg)


def test_tables_made_before_command_digests_get_the_column(
    pg: PostgresEventStore, postgres_dsn: str
) -> None:
    """A schema whose ``commands`` table has no ``digest`` (an older release) gets the column
    when a store opens it; the ids kept before have none, so any retry of them is a retry."""
    pg.create("g", format="toy", format_version=1, setup={})
    pg.append("g", [1], 0, command_id="old")
    with psycopg.connect(postgres_dsn, autocommit=True) as raw:
        raw.execute(
            sql.SQL("ALTER TABLE {} DROP COLUMN digest").format(
                sql.Identifier(pg.schema, "commands")
            )
        )
    with PostgresEventStore(postgres_dsn, schema=pg.schema) as again:
        assert again.append("g", [9], 1, command_id="old", command_digest="any") == 1
        assert again.append("g", [2], 1, command_id="new", command_digest="d") == 2
        with pytest.raises(CommandIdReused):
            again.append("g", [3], 2, command_id="new", command_digest="e")
        assert [r.data for r in again.read("g")] == [1, 2]


def test_an_operation_that_finds_every_connection_busy_waits_then_fails_clearly(
    postgres_dsn: str, schema: str
) -> None:
    """With ``max_connections=1`` and that connection in use, another operation waits up to
    ``connect_timeout`` for it, then raises a StoreError; once it is back, work goes on."""
    with PostgresEventStore(
        postgres_dsn, schema=schema, max_connections=1, connect_timeout=1
    ) as store:
        store.create("g", format="toy", format_version=1, setup={})
        with (
            store._connection(),
            pytest.raises(StoreError, match="cannot connect to the PostgreSQL database"),
        ):
            store.stream("g")
        assert store.append("g", [1], 0) == 1


def test_tables_that_cannot_be_made_are_a_store_error_naming_the_database(
    postgres_dsn: str, schema: str
) -> None:
    """A type named ``streams`` in the schema keeps the table from being created: the store
    does not open, and says what PostgreSQL refused."""
    with psycopg.connect(postgres_dsn, autocommit=True) as raw:
        raw.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        raw.execute(
            sql.SQL("CREATE TYPE {} AS (a integer)").format(sql.Identifier(schema, "streams"))
        )
    with pytest.raises(StoreError, match=f"schema {schema} failed: .*streams"):
        PostgresEventStore(postgres_dsn, schema=schema)


def test_the_trusted_road_answers_refuses_and_keeps_the_limits(pg: PostgresEventStore) -> None:
    """The GameStore's road (``_append_trusted``): metadata compared as JSON (a tuple is the
    list it is written as), the same refusals and limits as ``append_soon``."""
    pg.create("s", format="toy", format_version=1, setup={}, metadata={"a": [1, 2]})
    assert trusted(pg, "s", [{"type": "x"}], 0, known={"a": (1, 2)}, update={"b": (1,)}) == 1
    assert dict(pg.stream("s").metadata) == {"a": [1, 2], "b": [1]}
    with pytest.raises(MetadataChanged):
        trusted(pg, "s", [2], 1, known={"a": [1, 2]})
    with pytest.raises(VersionConflict):
        trusted(pg, "s", [2], 0, known={"a": [1, 2], "b": [1]})
    with pytest.raises(InvalidArgument, match=r"at most 1048576 bytes"):
        trusted(pg, "s", ["x" * (MAX_APPEND_BYTES // 2)] * 2, 1)
    with pytest.raises(InvalidArgument, match=r"metadata holds at most"):
        trusted(pg, "s", [2], 1, update={"big": "y" * MAX_METADATA_BYTES})
    assert pg.stream("s").version == 1
    assert trusted(pg, "s", [2], 1, command_id="c", digest="d") == 2
    assert trusted(pg, "s", [2], 1, command_id="c", digest="d") == 2  # a retry
    assert [r.data for r in pg.read("s")] == [{"type": "x"}, 2]


@contextlib.contextmanager
def behind_a_lock(pg: PostgresEventStore, postgres_dsn: str, schema: str) -> Iterator[None]:
    """Hold the row of stream ``first`` (created here if missing) while one append to it waits
    for the writer thread; what the block queues meanwhile waits behind it, and is committed as
    one batch once the block ends and the lock is let go."""
    if "first" not in {record.stream for record in pg.streams()}:
        pg.create("first", format="toy", format_version=1, setup={})
    with psycopg.connect(postgres_dsn, autocommit=True) as holder:
        holder.execute("BEGIN")
        holder.execute(
            sql.SQL("SELECT 1 FROM {}.streams WHERE stream = 'first' FOR UPDATE").format(
                sql.Identifier(schema)
            )
        )
        first = pg.append_soon("first", [1], pg.stream("first").version)
        until(
            lambda: bool(
                cast(
                    tuple[int],
                    holder.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone(),
                )[0]
            ),
            "the first append to wait for the lock",
        )
        yield
        holder.execute("COMMIT")
    first.result(timeout=PATIENCE)


def queued(pg: PostgresEventStore, count: int) -> None:
    """Wait until ``count`` appends wait for the writer thread."""
    until(lambda: pg._requests.qsize() >= count, f"{count} appends to be queued")


def answers(futures: list[Any]) -> list[object]:
    """Each future's result, or the refusal it raised."""
    told: list[object] = []
    for future in futures:
        try:
            told.append(future.result(timeout=PATIENCE))
        except (VersionConflict, CommandIdReused, MetadataChanged, InvalidArgument) as refused:
            told.append(refused)
    return told


def test_appends_of_one_batch_are_answered_with_one_wake_up_of_the_loop(
    pg: PostgresEventStore, postgres_dsn: str, schema: str
) -> None:
    """Six appends queued behind one that waits for a row lock: the writer commits them in one
    transaction and wakes their event loop once for them all, after the commit."""
    names = [f"s{i}" for i in range(6)]
    for name in names:
        pg.create(name, format="toy", format_version=1, setup={})

    async def appends() -> tuple[int, list[int]]:
        loop = asyncio.get_running_loop()
        real, main, calls = loop.call_soon_threadsafe, threading.current_thread(), [0]

        def counted(*args: Any, **kw: Any) -> Any:
            if threading.current_thread() is not main:
                calls[0] += 1
            return real(*args, **kw)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
        with behind_a_lock(pg, postgres_dsn, schema):
            begun = [
                pg._append_trusted(name, [0], ("0",), 0, None, None, None, None) for name in names
            ]
            while pg._requests.qsize() < len(names):
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.05)
            assert not any(future.done() for future in begun)  # nothing before the commit
        told = list(await asyncio.gather(*begun))
        return calls[0], told

    calls, told = asyncio.run(appends())
    assert (calls, told) == (1, [1] * len(names))


def test_a_batch_is_written_without_savepoints_unless_one_append_is_refused(
    pg: PostgresEventStore, postgres_dsn: str, schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Appends queued behind one that waits for a row lock are committed together: when none
    is refused, in one transaction with no savepoint per append (the savepoint road is never
    taken); when one is stale, the batch is written again with a savepoint each, so the stale
    one alone is refused and the others are stored once."""
    names = [f"s{i}" for i in range(4)]
    for name in names:
        pg.create(name, format="toy", format_version=1, setup={})
    one = pg._one
    savepointed: list[str] = []

    def counted(connection: Any, request: Any) -> Any:
        savepointed.append(request.append[0])
        return one(connection, request)

    monkeypatch.setattr(pg, "_one", counted)

    def batch(versions: dict[str, int]) -> list[object]:
        """Queue one append of each stream at its version behind the lock; their answers."""
        with behind_a_lock(pg, postgres_dsn, schema):
            futures = [pg.append_soon(name, [v], v) for name, v in versions.items()]
            queued(pg, len(futures))
        return answers(futures)

    assert batch(dict.fromkeys(names, 0)) == [1, 1, 1, 1]
    assert savepointed == []
    told = batch({"s0": 1, "s1": 0, "s2": 1, "s3": 1})  # s1 is stale: it holds one event
    assert told[0] == told[2] == told[3] == 2
    assert isinstance(told[1], VersionConflict)
    assert sorted(savepointed) == ["s0", "s1", "s2", "s3"]
    assert [pg.stream(name).version for name in names] == [2, 1, 2, 2]
    assert [r.data for r in pg.read("s1")] == [0]


def test_a_batch_is_one_query_of_two_statements_a_round(
    pg: PostgresEventStore, postgres_dsn: str, schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five appends to five streams (events, command ids, metadata updates on the metadata they
    must hold) are written by the writer in one query of two statements, each stored as one at
    a time would store it: events at their positions, versions, metadata, command ids a retry
    finds. Two appends of one stream in a batch are two rounds of two statements in that query,
    the second checked against the metadata the first wrote. A batch with one append the store
    refuses (a stored command id, a gap, other metadata, metadata beyond the limit) is answered
    append by append, each as alone."""
    names = [f"s{i}" for i in range(5)]
    for name in names:
        pg.create(name, format="toy", format_version=1, setup={}, metadata={"n": 0})
    statements: list[list[str]] = []  # each query of the writer naming it: its statements
    watched = '"stream":"s0"'
    execute = psycopg.Cursor.execute

    def counted(self: Any, query: Any, *args: Any, **kw: Any) -> Any:
        if threading.current_thread() is pg._writer and watched in repr(args):
            text = query.as_string(self) if isinstance(query, sql.Composable) else str(query)
            statements.append(re.findall(r"(?:^|; )\s*([A-Z]+)", text.strip()))
        return execute(self, query, *args, **kw)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    with behind_a_lock(pg, postgres_dsn, schema):
        futures = [
            pg.append_soon("s0", [{"a": 1}, {"a": 2}], 0, command_id="c0"),
            pg.append_soon("s1", [1], 0, metadata_update={"n": 1}, expected_metadata={"n": 0}),
            pg.append_soon("s2", [2], 0, expected_metadata={"n": 0}),
            pg.append_soon("s3", [3, 4, 5], 0, command_id="c3"),
            pg.append_soon("s4", [6], 0),
        ]
        queued(pg, len(futures))
    assert answers(futures) == [2, 1, 1, 3, 1]
    assert statements == [["INSERT", "WITH"]]
    assert [pg.stream(name).version for name in names] == [2, 1, 1, 3, 1]
    assert [r.data for r in pg.read("s3")] == [3, 4, 5]
    assert [r.position for r in pg.read("s3", after=1)] == [1, 2]
    assert dict(pg.stream("s1").metadata) == {"n": 1}
    assert pg.append("s0", [9, 9], 0, command_id="c0") == 2  # a retry finds the command id
    assert [r.data for r in pg.read("s0")] == [{"a": 1}, {"a": 2}]

    with behind_a_lock(pg, postgres_dsn, schema):  # c3 again, beside a new append
        futures = [
            pg.append_soon("s3", [3, 4, 5], 0, command_id="c3"),
            pg.append_soon("s4", [7], 1, command_id="c4"),
        ]
        queued(pg, len(futures))
    assert answers(futures) == [3, 2]
    statements.clear()
    watched = '"stream":"s4"'
    with behind_a_lock(pg, postgres_dsn, schema):  # s4 twice, the second knowing the first
        futures = [
            pg.append_soon("s4", [8], 2, metadata_update={"n": 8}, expected_metadata={"n": 0}),
            pg.append_soon("s4", [9], 3, metadata_update={"n": 9}, expected_metadata={"n": 8}),
            pg.append_soon("s1", [2], 1),
        ]
        queued(pg, len(futures))
    assert answers(futures) == [3, 4, 2]
    assert statements == [["INSERT", "WITH", "INSERT", "WITH"]]
    assert [r.data for r in pg.read("s4")] == [6, 7, 8, 9]
    assert dict(pg.stream("s4").metadata) == {"n": 9}
    assert pg.stream("s3").version == 3
    assert pg.append("s4", [7], 1, command_id="c4") == 2  # kept once, by the savepoint road

    with behind_a_lock(pg, postgres_dsn, schema):  # a gap and other metadata: moved on by none
        futures = [
            pg.append_soon("s2", [5], 5),
            pg.append_soon("s3", [5], 3, metadata_update={"n": 5}, expected_metadata={"n": 9}),
            pg.append_soon("s4", [5], 4),
        ]
        queued(pg, len(futures))
    told = answers(futures)
    assert isinstance(told[0], VersionConflict)
    assert told[0].actual == 1
    assert isinstance(told[1], MetadataChanged)
    assert told[2] == 5
    assert [pg.stream(name).version for name in ("s2", "s3", "s4")] == [1, 3, 5]
    assert [r.position for r in pg.read("s2")] == [0]

    half = MAX_METADATA_BYTES // 2  # known and update together beyond the limit, merged within
    big = {"n": "y" * half}
    pg.set_metadata("s0", big)
    replaced = pg.append_soon(
        "s0", [1], 2, metadata_update={"n": "z" * half}, expected_metadata=big
    )
    assert replaced.result(PATIENCE) == 3
    with pytest.raises(InvalidArgument, match=r"metadata holds at most"):
        pg.append_soon("s0", [1], 3, metadata_update={"m": "z" * half}).result(PATIENCE)
    assert pg.stream("s0").version == 3
    assert pg.stream("s0").metadata["n"] == "z" * half
