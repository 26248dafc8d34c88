"""Code that runs in child processes for the fault tests of the SQLite store.

Each function here is the whole life of one child: it opens its own store on the shared file,
does its part, and reports through a queue, a pipe or its standard output. Nothing here is
imported by the library.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from avanti.core.errors import VersionConflict
from avanti.store import GameStore, SQLiteEventStore, StoreError

PAUSE_POINTS = {
    "begun": "BEGIN IMMEDIATE",
    "events-inserted": "INSERT INTO events",
    "version-moved": "UPDATE streams SET version",
    "command-kept": "INSERT INTO commands",
    "committed": "COMMIT",
}
"""Where a paused writer stops, by the start of the statement it has just run."""


def race(path: str, writer: int, races: int, barrier: Any, results: Any) -> None:
    """Play ``races`` races: load the current game, wait for the others, execute at once.

    Games ``race-0``, ``race-1``, ... are played one after another; a finished game is left for
    the next. Each race's outcome goes to ``results`` as one tuple.
    """
    told: list[tuple[Any, ...]] = []
    with SQLiteEventStore(path, timeout=30.0) as store:
        games = GameStore(store)
        number = 0
        for index in range(races):
            barrier.wait(timeout=60)
            game = games.load(f"race-{number}")
            while game.is_over:
                number += 1
                game = games.load(f"race-{number}")
            legal = game.legal_commands()
            command = legal[(writer + index) % len(legal)]
            data = type(game).rules.codec.command_to_data(command)
            barrier.wait(timeout=60)
            try:
                after = games.execute(f"race-{number}", command, expected_version=game.version)
            except VersionConflict as conflict:
                told.append((index, number, "conflict", conflict.expected, conflict.actual))
            else:
                told.append((index, number, "won", game.version, after.version, data))
    results.put((writer, told))


def command_id_race(
    where: tuple[str, ...], writers: list[int], races: int, barrier: Any, results: Any
) -> None:
    """One process of a command-id race: a thread per writer of ``writers``, each with its own
    :class:`GameStore` on this process's store (``("sqlite", path)`` or ``("postgres", dsn,
    schema)``), plays :func:`tests.store.contract.race_command_id` on ``race-0`` to
    ``race-{races - 1}`` in turn. What each was answered goes to ``results`` as
    ``(writer, [answer, ...])``."""
    from tests.store.contract import race_command_id

    store: Any
    if where[0] == "sqlite":
        store = SQLiteEventStore(where[1], timeout=30.0)
    else:
        from avanti.store.postgres import PostgresEventStore

        store = PostgresEventStore(where[1], schema=where[2])
    told: dict[int, list[Any]] = {writer: [] for writer in writers}

    def play(writer: int) -> None:
        games = GameStore(store)
        for number in range(races):
            told[writer].append(race_command_id(games, f"race-{number}", writer, barrier))

    with store:
        threads = [threading.Thread(target=play, args=(writer,)) for writer in writers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for writer in writers:
        results.put((writer, told[writer]))


def paused_execute(path: str, point: str, command: dict[str, Any], signal: Any) -> None:
    """Execute ``command`` in game ``g`` (command id ``c-1``), stopping for good right after
    the statement of ``point`` ran inside the store's append: the parent then kills us."""
    real = sqlite3.connect
    start = PAUSE_POINTS[point]

    class Pausing(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            cursor = super().execute(sql, *args)
            self._maybe_pause(sql)
            return cursor

        def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
            cursor = super().executemany(sql, *args)
            self._maybe_pause(sql)
            return cursor

        def _maybe_pause(self, sql: str) -> None:
            if armed[0] and sql.startswith("BEGIN IMMEDIATE"):
                inside[0] = True  # the append's transaction (reads begin with a plain BEGIN)
            if inside[0] and sql.startswith(start):
                signal.send(point)
                time.sleep(3600)

    armed, inside = [False], [False]

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return real(*args, factory=Pausing, **kwargs)

    sqlite3.connect = connect  # type: ignore[assignment]  # this child only
    store = SQLiteEventStore(path)
    games = GameStore(store)
    game = games.load("g")
    armed[0] = True  # from here on, BEGIN IMMEDIATE is the append's
    games.execute("g", type(game).rules.codec.command_from_data(command), command_id="c-1")
    signal.send("returned")  # not reached when the pause works


def hold_lock(path: str, mode: str) -> None:
    """Hold the file's write lock (``BEGIN EXCLUSIVE`` after a write) until stdin closes."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute(f"BEGIN {mode}")
    connection.execute("UPDATE streams SET metadata = metadata")
    print("locked", flush=True)
    sys.stdin.read()
    connection.execute("ROLLBACK")
    connection.close()


def play_until_killed(path: str, names: list[str]) -> None:
    """Execute commands in the games ``names`` in turn, forever; after each one returns, print
    ``name version command_id`` (the acknowledgement) and flush."""
    with SQLiteEventStore(path) as store:
        games = GameStore(store)
        step = 0
        while True:
            name = names[step % len(names)]
            step += 1
            game = games.load(name)
            if game.is_over:
                continue
            legal = game.legal_commands()
            command_id = f"{name}@{game.version}"
            after = games.execute(name, legal[step % len(legal)], command_id=command_id)
            print(name, after.version, command_id, flush=True)


def read_only(path: str, results: Any) -> None:
    """As an unprivileged user (when started as root), try every operation on a file this
    user may only read; report what each did."""
    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)
    told: dict[str, object] = {}
    try:
        store = SQLiteEventStore(path, timeout=0.5)
    except StoreError as error:
        results.put({"open": str(error)})
        return
    calls: dict[str, Callable[[], object]] = {
        "read": lambda: [r.data for r in store.read("g")],
        "stream": lambda: store.stream("g").version,
        "append": lambda: store.append("g", [99], store.stream("g").version),
        "create": lambda: store.create("h", format="toy", format_version=1, setup={}),
        "set_metadata": lambda: store.set_metadata("g", {"x": 1}),
    }
    for name, call in calls.items():
        try:
            told[name] = call()
        except StoreError as error:
            told[name] = f"StoreError: {error}"
        except Exception as error:
            told[name] = f"{type(error).__name__}: {error}"
    results.put(told)


def main() -> None:
    """``python -m tests.store.workers FUNCTION ARG...`` runs one of the functions above."""
    name, *args = sys.argv[1:]
    if name == "hold_lock":
        hold_lock(*args)
    elif name == "play_until_killed":
        play_until_killed(args[0], json.loads(args[1]))
    else:
        raise SystemExit(f"unknown worker {name}")


if __name__ == "__main__":
    main()
