"""Event stores side by side: the memory store, SQLite (``synchronous`` FULL and NORMAL) and
PostgreSQL, measured in one run.

For each store it prints:

- appends per second, each append one command's events in one transaction, the commands of
  random Avanti games (4 players, explicit seeds);
- appends per second with 1, 8 and 40 writer threads appending at once, each to a stream of
  its own (as the tables of a server do), released together;
- the time to ``read`` a stream of 10, 1,000 and 100,000 events (a real game's event JSON,
  repeated to fill the longer streams);
- ``GameStore.load`` of a whole Avanti game of about 500 events (5 players, seed 271, random
  legal play), with the ``GameStore``'s cache off and on;
- ``GameStore.execute`` against a bare ``Game.execute`` of the same command, timed side by side,
  command after command, through random games.

and the time of an ``fsync`` of a small file in the SQLite store's folder, to compare with. The
verdict lines check the aims: SQLite executes a command in under 10x a bare ``Game.execute``
plus the fsync, and loads a whole Avanti game (about 500 events) in under 2 ms.

PostgreSQL runs on a private server started for the run in a temporary folder (``fsync`` on, as
in production; PostgreSQL's server binaries needed, e.g. Debian's ``postgresql`` package), or on
an existing server with ``--postgres DSN`` (the figures then go in a schema of their own, dropped
at the end). Without a server or without ``psycopg`` the report says so in one line and measures
the other stores.

Times are wall-clock (``time.perf_counter``): an append waits for the disk, and that wait is
what is measured. Each figure is the median over ``--repeats`` rounds, the stores taking turns
in each round, so drift in the machine's load falls on every store alike. Nothing here is a
test; ``--small`` runs every figure at a small size (the test gate does that).
Run it with ``nox -s storebench`` or ``python benchmarks/store.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from run import machine  # benchmarks/run.py, beside this file

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.game import Game
from avanti.core.rng import Rng
from avanti.store import (
    MAX_APPEND_EVENTS,
    EventStore,
    GameStore,
    MemoryEventStore,
    SQLiteEventStore,
    StoreError,
)

AnyGame = Game[Any, Any, Any, Any, Any, Any]

ROOT = Path(__file__).resolve().parent.parent
"""The repository, whose ``tests/store/pg.py`` starts the private PostgreSQL server."""

PLAYERS = 4
"""Players in the games whose commands are appended and executed."""
LOAD_PLAYERS, LOAD_SEED = 5, 271
"""The whole game that is loaded: random legal play of this table and seed ends after about
500 events (502 with the rules of this release)."""

EXECUTE_TARGET = 10.0
"""SQLite's ``GameStore.execute`` may cost at most this many bare ``Game.execute`` plus an
fsync."""
LOAD_TARGET = 0.002
"""Seconds SQLite may take to load a whole Avanti game of about 500 events."""

FSYNC_BYTES = 3 * (4096 + 24)
"""Bytes written before each fsync that is timed: what one append of a command's events writes
to SQLite's write-ahead log (three 4 KiB pages, each with its 24-byte frame header), then syncs
with one ``fdatasync``."""

STORES = ("memory", "SQLite FULL", "SQLite NORMAL", "PostgreSQL")
"""The columns of the report, in order."""


class Plan:
    """How much to measure: the sizes of a full run or of a small one, and the repeats."""

    def __init__(self, small: bool, repeats: int) -> None:
        self.small = small
        self.repeats = repeats
        self.lengths = (10, 100, 1_000) if small else (10, 1_000, 100_000)
        """Log lengths whose ``read`` is timed."""
        self.append_games = 1 if small else 6
        """Random games per round whose commands are appended."""
        self.execute_games = 1 if small else 3
        """Random games per round played through ``GameStore.execute``."""
        self.loads = 5 if small else 20
        """Loads of the whole game per round, each way."""
        self.reads = 3 if small else 10
        """Reads per round of each of the shorter logs (one of the longest)."""
        self.fsyncs = 10 if small else 50
        """Fsyncs of a small file per round."""
        self.writer_appends = 5 if small else 50
        """Appends of each writer thread per round, in the figures of concurrent writers."""

    def append_seeds(self, round: int) -> range:
        """The seeds of the games whose commands round ``round`` appends."""
        return range(1 + round * self.append_games, 1 + (round + 1) * self.append_games)

    def execute_seeds(self, round: int) -> range:
        """The seeds of the games round ``round`` plays through ``GameStore.execute``."""
        first = 1001 + round * self.execute_games
        return range(first, first + self.execute_games)


# -- games ---------------------------------------------------------------------------------------


def new_game(players: int, seed: int) -> AnyGame:
    """A new Avanti game of ``players`` seats and this seed."""
    game: AnyGame = catalog.game_info("avanti").new_game(
        [f"P{i}" for i in range(players)], seed=seed
    )
    return game


def random_game(players: int, seed: int) -> AnyGame:
    """An Avanti game played to its end by random legal commands (chosen with ``seed`` too)."""
    game = new_game(players, seed)
    choose = Rng(seed).stream().choice
    while not game.is_over:
        game = game.execute(choose(game.legal_commands()))
    return game


def command_chunks(game: AnyGame) -> list[list[JSONValue]]:
    """A game's events as its codec writes them, one list per command (the first list: the
    opening events the setup deals)."""
    rules = type(game).rules
    chunks: list[list[JSONValue]] = [[]]
    for event in game.events:
        if rules.cause(event) is not None:
            chunks.append([])
        chunks[-1].append(rules.codec.event_to_data(event))
    return [chunk for chunk in chunks if chunk]


def setup_data(game: AnyGame) -> JSONValue:
    """A game's setup as its codec writes it, and as a store gives it back (JSON lists)."""
    document = type(game).rules.codec.document(game.setup, ())
    setup: JSONValue = json.loads(json.dumps(document["setup"]))
    return setup


# -- measurements --------------------------------------------------------------------------------


def fsync_times(folder: Path, count: int) -> list[float]:
    """Seconds of each of ``count`` fsyncs of a small file in ``folder``, each after a write of
    :data:`FSYNC_BYTES` to its end, as an SQLite append grows and syncs its log."""
    times: list[float] = []
    descriptor, name = tempfile.mkstemp(prefix="fsync-", dir=folder)
    try:
        for _ in range(count):
            os.write(descriptor, b"x" * FSYNC_BYTES)
            start = time.perf_counter()
            os.fsync(descriptor)
            times.append(time.perf_counter() - start)
    finally:
        os.close(descriptor)
        os.unlink(name)
    return times


def create(store: EventStore, stream: str, game: AnyGame) -> None:
    """Create an empty stream for ``game``'s events."""
    codec = type(game).rules.codec
    store.create(stream, format=codec.format, format_version=codec.version, setup=setup_data(game))


def append_times(store: EventStore, stream: str, game: AnyGame) -> list[float]:
    """Seconds of each append of ``game``'s events to a new stream, one command's per append
    (the opening events the setup deals are appended first, untimed)."""
    create(store, stream, game)
    opening, *commands = command_chunks(game)
    version = store.append(stream, opening, 0)
    times: list[float] = []
    for chunk in commands:
        start = time.perf_counter()
        version = store.append(stream, chunk, version)
        times.append(time.perf_counter() - start)
    return times


WRITERS = (1, 8, 40)
"""The numbers of writer threads appending at once."""


def concurrent_rate(store: EventStore, name: str, writers: int, appends: int) -> float:
    """Appends per second, wall-clock, of ``writers`` threads released together, each making
    ``appends`` appends (one small command's events each) to a stream of its own."""
    chunk: list[JSONValue] = [{"type": "Rolled", "seat": 1, "face": 4}, {"type": "Passed"}]
    for writer in range(writers):
        store.create(f"{name}-{writer}", format="toy", format_version=1, setup={})
    barrier = threading.Barrier(writers + 1)
    failures: list[BaseException] = []

    def write(writer: int) -> None:
        stream = f"{name}-{writer}"
        barrier.wait()
        try:
            for index in range(appends):
                store.append(stream, chunk, 2 * index)
        except BaseException as error:  # reported after the timing
            failures.append(error)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    if failures:
        raise failures[0]
    return writers * appends / elapsed


def fill(store: EventStore, stream: str, game: AnyGame, length: int) -> None:
    """Create a stream of ``length`` events: ``game``'s event JSON, repeated as often as needed
    (the events of a long stream that no game reaches)."""
    create(store, stream, game)
    data = [item for chunk in command_chunks(game) for item in chunk]
    version = 0
    while version < length:
        count = min(MAX_APPEND_EVENTS, length - version)
        batch = [data[(version + i) % len(data)] for i in range(count)]
        version = store.append(stream, batch, version)


def timed(work: Callable[[], object], count: int) -> list[float]:
    """Seconds of each of ``count`` calls of ``work``."""
    times: list[float] = []
    for _ in range(count):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def load_parts(game: AnyGame, count: int) -> dict[str, list[float]]:
    """Seconds of each of ``count`` runs of each part of ``GameStore.load`` that is the same
    whatever the store: decoding the setup, decoding the events, replaying them (``evolve``
    only, as a load does)."""
    game_class = type(game)
    codec = game_class.rules.codec
    setup = setup_data(game)
    data = [item for chunk in command_chunks(game) for item in chunk]
    events = tuple(codec.event_from_data(item) for item in data)
    return {
        "decode_setup": timed(
            lambda: codec.structure(setup, codec.setup_type, path="$.setup"), count
        ),
        "decode_events": timed(lambda: [codec.event_from_data(item) for item in data], count),
        "replay": timed(lambda: game_class.replay(game.setup, events, verify=False), count),
    }


def execute_times(
    store: EventStore, game_id: str, players: int, seed: int
) -> tuple[list[float], list[float]]:
    """Seconds of each bare ``Game.execute`` and of each ``GameStore.execute`` (the default
    cache on) of the same commands, through a random game; which of the two runs first
    alternates from one command to the next."""
    games = GameStore(store)
    game = new_game(players, seed)
    games.create(game_id, game)
    choose = Rng(seed).stream().choice
    bare: list[float] = []
    stored: list[float] = []
    clock = time.perf_counter
    step = 0
    while not game.is_over:
        command = choose(game.legal_commands())
        if step % 2:
            start = clock()
            after = game.execute(command)
            middle = clock()
            kept = games.execute(game_id, command)
            end = clock()
            bare.append(middle - start)
            stored.append(end - middle)
        else:
            start = clock()
            kept = games.execute(game_id, command)
            middle = clock()
            after = game.execute(command)
            end = clock()
            stored.append(middle - start)
            bare.append(end - middle)
        if kept.version != after.version:
            raise RuntimeError(f"the store's game is at {kept.version}, not {after.version}")
        game = after
        step += 1
    return bare, stored


class Figures:
    """One store's timings, gathered over the rounds."""

    def __init__(self, lengths: Sequence[int]) -> None:
        self.appends: list[float] = []
        self.append_rates: list[float] = []
        self.writer_rates: dict[int, list[float]] = {writers: [] for writers in WRITERS}
        self.reads: dict[int, list[float]] = {length: [] for length in lengths}
        self.loads_off: list[float] = []
        self.loads_on: list[float] = []
        self.bare: list[float] = []
        self.stored: list[float] = []

    def summary(self) -> dict[str, Any]:
        """The medians, in seconds (appends per second as a rate)."""
        median = statistics.median
        bare, stored = median(self.bare), median(self.stored)
        return {
            "appends_per_second": median(self.append_rates),
            "append_seconds": median(self.appends),
            "appends": len(self.appends),
            "writers_appends_per_second": {
                str(writers): median(rates) for writers, rates in self.writer_rates.items()
            },
            "read_seconds": {str(length): median(times) for length, times in self.reads.items()},
            "load_seconds_cache_off": median(self.loads_off),
            "load_seconds_cache_on": median(self.loads_on),
            "bare_execute_seconds": bare,
            "store_execute_seconds": stored,
            "execute_ratio": stored / bare,
            "commands_executed": len(self.stored),
        }


def measure_round(store: EventStore, plan: Plan, round: int, figures: Figures) -> None:
    """One round of every measurement on one store, adding to ``figures``."""
    times: list[float] = []
    for seed in plan.append_seeds(round):
        times += append_times(store, f"append-{round}-{seed}", random_game(PLAYERS, seed))
    figures.appends += times
    figures.append_rates.append(len(times) / sum(times))
    for writers in WRITERS:
        figures.writer_rates[writers].append(
            concurrent_rate(store, f"writers-{round}-{writers}", writers, plan.writer_appends)
        )
    for length in plan.lengths:
        stream = f"log-{length}"
        count = 1 if length > 10_000 else plan.reads
        figures.reads[length] += timed(functools.partial(store.read, stream), count)
    cold = GameStore(store, cache=0)
    figures.loads_off += timed(lambda: cold.load("whole"), plan.loads)
    warm = GameStore(store)
    warm.load("whole")
    figures.loads_on += timed(lambda: warm.load("whole"), plan.loads)
    for seed in plan.execute_seeds(round):
        bare, stored = execute_times(store, f"execute-{round}-{seed}", PLAYERS, seed)
        figures.bare += bare
        figures.stored += stored


def prepare(store: EventStore, plan: Plan, whole: AnyGame) -> None:
    """The streams every round reads: the logs by length and the whole game; and one append
    and read before any timing (connections opened, tables cached)."""
    for length in plan.lengths:
        fill(store, f"log-{length}", whole, length)
    GameStore(store).create("whole", whole)
    append_times(store, "warm-up", random_game(PLAYERS, 999))
    store.read("warm-up")


# -- the stores ----------------------------------------------------------------------------------


def drop_schema(dsn: str, schema: str) -> None:
    """Drop the benchmark's schema from an existing PostgreSQL database."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def postgres_store(stack: contextlib.ExitStack, dsn: str | None) -> tuple[EventStore | None, str]:
    """The PostgreSQL store and where it runs, or ``None`` and why it is not measured."""
    try:
        from avanti.store.postgres import PostgresEventStore
    except ImportError as error:
        return None, f"psycopg is not installed ({error}): pip install 'avanti[postgres]'"
    where = "an existing server (a schema of its own, dropped at the end)"
    dsn_given = dsn is not None
    if dsn is None:
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        try:
            from tests.store.pg import ClusterError, private_cluster, server_binaries
        except ImportError as error:
            return None, f"the private server needs tests/store/pg.py and pytest ({error})"
        if server_binaries() is None:
            from tests.store.pg import SERVER_NOT_FOUND

            return None, SERVER_NOT_FOUND
        try:
            cluster = stack.enter_context(private_cluster(durable=True))
        except ClusterError as error:
            return None, f"the private server did not start: {error}"
        dsn = cluster.dsn
        where = f"a private server, fsync on, in {cluster.folder}"
    schema = f"avanti_bench_{os.getpid()}"
    try:
        store = PostgresEventStore(dsn, schema=schema)
    except StoreError as error:
        return None, f"the database cannot be used: {error}"
    if dsn_given:
        stack.callback(drop_schema, dsn, schema)  # after the store is closed
    stack.callback(store.close)
    return store, where


@contextlib.contextmanager
def open_stores(
    folder: Path, dsn: str | None
) -> Iterator[tuple[dict[str, EventStore], dict[str, str]]]:
    """Every store to measure by its column name, and a note on each (where it runs, or why it
    is not measured); closed on exit."""
    with contextlib.ExitStack() as stack:
        stores: dict[str, EventStore] = {"memory": stack.enter_context(MemoryEventStore())}
        notes = {"memory": "in this process"}
        for mode in ("FULL", "NORMAL"):
            path = folder / f"games-{mode.lower()}.db"
            stores[f"SQLite {mode}"] = stack.enter_context(
                SQLiteEventStore(path, synchronous="FULL" if mode == "FULL" else "NORMAL")
            )
            notes[f"SQLite {mode}"] = f"{path}, WAL, synchronous={mode}"
        postgres, note = postgres_store(stack, dsn)
        if postgres is not None:
            stores["PostgreSQL"] = postgres
        notes["PostgreSQL"] = note
        yield stores, notes


# -- the report ----------------------------------------------------------------------------------


def measure(plan: Plan, folder: Path, dsn: str | None) -> dict[str, Any]:
    """Every figure of every store, with the machine and the verdicts."""
    results: dict[str, Any] = {"machine": machine(), "small": plan.small, "repeats": plan.repeats}
    whole = random_game(LOAD_PLAYERS, LOAD_SEED)
    results["whole_game"] = {
        "players": LOAD_PLAYERS,
        "seed": LOAD_SEED,
        "events": len(whole.events),
        "commands": len(command_chunks(whole)) - 1,
    }
    last = plan.repeats - 1
    results["append_games"] = {
        "players": PLAYERS,
        "seeds": [plan.append_seeds(0)[0], plan.append_seeds(last)[-1]],
    }
    results["execute_games"] = {
        "players": PLAYERS,
        "seeds": [plan.execute_seeds(0)[0], plan.execute_seeds(last)[-1]],
    }
    results["lengths"] = list(plan.lengths)
    fsyncs: list[float] = []
    parts: dict[str, list[float]] = {"decode_setup": [], "decode_events": [], "replay": []}
    with open_stores(folder, dsn) as (stores, notes):
        results["notes"] = notes
        for store in stores.values():
            prepare(store, plan, whole)
        figures = {name: Figures(plan.lengths) for name in stores}
        for round in range(plan.repeats):
            fsyncs += fsync_times(folder, plan.fsyncs)
            for part, times in load_parts(whole, plan.loads).items():
                parts[part] += times
            for name, store in stores.items():
                measure_round(store, plan, round, figures[name])
    results["fsync_seconds"] = statistics.median(fsyncs)
    results["folder"] = str(folder)
    results["load_parts_seconds"] = {part: statistics.median(t) for part, t in parts.items()}
    results["stores"] = {name: figures[name].summary() for name in figures}
    results["machine"]["load_average_after"] = machine()["load_average"]
    results["verdicts"] = verdicts(results)
    return results


def verdicts(results: dict[str, Any]) -> dict[str, Any]:
    """The aims, judged on the SQLite figures."""
    fsync = results["fsync_seconds"]
    found: dict[str, Any] = {}
    for name in ("SQLite FULL", "SQLite NORMAL"):
        figures = results["stores"][name]
        bound = EXECUTE_TARGET * figures["bare_execute_seconds"] + fsync
        found[f"{name} execute"] = {
            "seconds": figures["store_execute_seconds"],
            "bound_seconds": bound,
            "met": figures["store_execute_seconds"] < bound,
        }
    load = results["stores"]["SQLite FULL"]["load_seconds_cache_off"]
    found["SQLite load"] = {
        "seconds": load,
        "bound_seconds": LOAD_TARGET,
        "met": load < LOAD_TARGET,
    }
    return found


def _number(value: float) -> str:
    """A figure in 9 characters, three significant digits or so."""
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def _read(length: int) -> Callable[[dict[str, Any]], float]:
    """How to take the time to read ``length`` events from a store's summary, in ms."""
    return lambda summary: summary["read_seconds"][str(length)] * 1e3


def _writers(writers: int) -> Callable[[dict[str, Any]], float]:
    """How to take the appends per second of ``writers`` threads from a store's summary."""
    return lambda summary: summary["writers_appends_per_second"][str(writers)]


def rows(results: dict[str, Any]) -> list[tuple[str, Callable[[dict[str, Any]], float]]]:
    """The figure lines of the table: a label and how to take the figure from a store's
    summary."""
    events = results["whole_game"]["events"]
    found: list[tuple[str, Callable[[dict[str, Any]], float]]] = [
        ("appends / s (one command each)", lambda s: s["appends_per_second"]),
        ("append, median (ms)", lambda s: s["append_seconds"] * 1e3),
    ]
    found += [(f"appends / s, {writers} writer threads", _writers(writers)) for writers in WRITERS]
    found += [(f"read {length:,} events (ms)", _read(length)) for length in results["lengths"]]
    found += [
        (f"load {events}-event game, cache off (ms)", lambda s: s["load_seconds_cache_off"] * 1e3),
        (f"load {events}-event game, cache on (ms)", lambda s: s["load_seconds_cache_on"] * 1e3),
        ("bare Game.execute (us)", lambda s: s["bare_execute_seconds"] * 1e6),
        ("GameStore.execute (us)", lambda s: s["store_execute_seconds"] * 1e6),
        ("GameStore.execute / bare", lambda s: s["execute_ratio"]),
    ]
    return found


def report(results: dict[str, Any]) -> None:
    """Print the table, the notes and the verdicts."""
    info = results["machine"]
    whole = results["whole_game"]
    before, after = (
        " ".join(f"{x:.2f}" for x in load) if load else "unknown"
        for load in (info["load_average"], info["load_average_after"])
    )
    print(
        f"Event stores ({info['python']}, {info['cores']} cores, {info['cpu']}; load average "
        f"{before} before, {after} after)"
    )
    appended, executed = results["append_games"], results["execute_games"]
    print(
        "appends: each command of random Avanti games "
        f"({appended['players']} players, seeds {'-'.join(map(str, appended['seeds']))}); "
        f"execute: random Avanti games ({executed['players']} players, seeds "
        f"{'-'.join(map(str, executed['seeds']))})"
    )
    print(
        f"whole game loaded: Avanti, {whole['players']} players, seed {whole['seed']}, random "
        f"legal play: {whole['events']} events, {whole['commands']} commands"
    )
    print(
        f"fsync of a small file in {results['folder']} after writing {FSYNC_BYTES:,} bytes to "
        f"its end: {results['fsync_seconds'] * 1e3:.2f} ms; each figure the median over "
        f"{results['repeats']} round(s), wall-clock"
    )
    parts = results["load_parts_seconds"]
    print(
        f"a load's parts that are the same in every store: decode the setup "
        f"{parts['decode_setup'] * 1e3:.2f} ms, decode {whole['events']} events "
        f"{parts['decode_events'] * 1e3:.2f} ms, replay them {parts['replay'] * 1e3:.2f} ms"
    )
    for name in STORES:
        if name not in results["stores"]:
            print(f"{name}: not measured: {results['notes'][name]}")
        else:
            print(f"{name}: {results['notes'][name]}")
    names = [name for name in STORES if name in results["stores"]]
    print()
    print(f"{'figure':<40}" + "".join(f"{name:>15}" for name in names))
    for label, take in rows(results):
        print(
            f"{label:<40}"
            + "".join(f"{_number(take(results['stores'][name])):>15}" for name in names)
        )
    print()
    for name in ("SQLite FULL", "SQLite NORMAL"):
        verdict = results["verdicts"][f"{name} execute"]
        figures = results["stores"][name]
        print(
            f"{name} executes a command in {verdict['seconds'] * 1e6:.0f} us; aim: under 10x a "
            f"bare Game.execute ({figures['bare_execute_seconds'] * 1e6:.1f} us) plus the fsync "
            f"({results['fsync_seconds'] * 1e6:.0f} us) = {verdict['bound_seconds'] * 1e6:.0f} "
            f"us: {'met' if verdict['met'] else 'MISSED'}"
        )
    verdict = results["verdicts"]["SQLite load"]
    on = results["stores"]["SQLite FULL"]["load_seconds_cache_on"]
    print(
        f"SQLite loads a whole Avanti game ({whole['events']} events) in "
        f"{verdict['seconds'] * 1e3:.2f} ms with the cache off ({on * 1e3:.2f} ms on); aim: "
        f"under {LOAD_TARGET * 1e3:.0f} ms: {'met' if verdict['met'] else 'MISSED'}"
    )


def main(argv: list[str] | None = None) -> None:
    """Measure and print the report (``--json`` for machine-readable output)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="small sizes: a quick run")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of every measurement")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--postgres", metavar="DSN", help="an existing PostgreSQL database instead of a private one"
    )
    parser.add_argument(
        "--folder", type=Path, help="where the SQLite files go (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    plan = Plan(args.small, args.repeats)
    with tempfile.TemporaryDirectory(prefix="avanti-storebench-", dir=args.folder) as folder:
        results = measure(plan, Path(folder), args.postgres)
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
    else:
        report(results)


if __name__ == "__main__":
    main()
