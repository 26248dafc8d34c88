"""The game server under load: many seats playing over WebSockets, then every game replayed.

For each configuration (SQLite or PostgreSQL, one or two ``avanti serve`` processes) the script
starts the servers as child processes on free loopback ports, and plays for ``--seconds``:
``--seats`` WebSocket clients at ``--games`` tables, 3 or 4 seats a table, the tables taking the
three games in turn (Avanti mare!, Avanti, For Sale: Autorama). Each table creates a game with
``POST /games``, its seats play it to the end, and it creates the next, until the time is up.

Each seat is one client: it opens ``/games/{id}/stream``, sends its token in the first message,
and on every ``update`` in which it has legal commands it picks one of them at random and sends
it on the socket (``{"type": "command", "command": ..., "expected_version": v}``). Its latency
runs from the send to the first pushed ``update`` past ``v`` (the one holding the command's
events); a command another seat beat (409 ``version-conflict``, in a simultaneous step) counts as
an error of that kind and has no latency. A second latency runs to the moment every seat of the
game has been pushed the command's events. A client never sends faster than the server's
default rate per connection allows (10 commands a second, 20 at once): it waits before sending
instead, outside the latency.

With two server processes the seats of every game are split between them (seat ``i`` of table
``k`` on process ``(i + k) % 2``), so each command reaches half of its game's seats through the
store (SQLite: the file the two share, polled; PostgreSQL: LISTEN/NOTIFY).

Then the servers are stopped (SIGTERM) and the script checks, from the store itself: every game
created replays with ``GameStore.load(verify=True)``; every command acknowledged is in it; and
every seat's pushed events, in the order received, are exactly ``events_for(seat)`` of the stored
game at the last version that seat was pushed (none lost, none duplicated, none changed, none
extra). The verdict line judges the aim: p99 under 50 ms at that load, zero lost.

Everything runs on loopback. Each table creates its games from an address of its own
(``127.0.x.y``; Linux routes the whole of ``127.0.0.0/8`` to loopback), as separate players
would, so the server's limit of new games per address (one a second, 20 at once) does not throttle
the tables; where such an address cannot be used, every table uses ``127.0.0.1`` and waits when
refused. PostgreSQL runs on a private server started in a temporary folder (``fsync`` on, as in
production; Debian's ``postgresql`` package, see ``tests/store/pg.py``); without it the report
says so in one line and measures SQLite.

Run it with ``nox -s serverload`` or ``python benchmarks/serverload.py`` (``--small``: a run of
a few seconds a configuration, which the test gate makes; ``--think S``: each seat thinks about
``S`` seconds before it answers, as people do, instead of answering at once; ``--json``: the
figures as JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from run import machine  # benchmarks/run.py, beside this file
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from avanti.core.errors import AvantiError
from avanti.store import EventStore, GameStore, SQLiteEventStore

ROOT = Path(__file__).resolve().parent.parent
"""The repository, whose ``tests/store/pg.py`` starts the private PostgreSQL server."""

GAMES = ("mare", "avanti", "autorama")
"""The games the tables play, table ``k`` playing ``GAMES[k % 3]``."""

AIM_P99 = 0.050
"""The aim: the 99th percentile of the latency, in seconds, under this."""

PATIENCE = 30.0
"""Seconds a client waits for the server before it gives up (a hung server, not a slow one)."""

RATE, BURST = 9.0, 18
"""Commands a client sends per second and at once: under the server's default limit per
connection (10 and 20), so that the client's pauses, not the server's refusals, keep it there."""

DEFAULT_SEATS, DEFAULT_GAMES, DEFAULT_SECONDS = 200, 60, 60.0
"""The seats, tables and seconds of play a configuration of a full run."""
SMALL_SEATS, SMALL_GAMES, SMALL_SECONDS = 20, 6, 3.0
"""The same for ``--small``, the test gate's run."""

PROBLEMS = ("lost", "duplicated", "corrupted", "out of order", "acknowledged lost")
"""What the replay check counts, each of which the aim wants at zero: events a seat was not
pushed, pushed twice, pushed other than stored (or not its to see), pushed out of order; and
commands acknowledged that the stored game does not hold."""

_RUNNING = re.compile(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")


@dataclass(frozen=True)
class Configuration:
    """One way to run the servers: the store and the number of processes."""

    store: str
    """``sqlite`` or ``postgres``."""
    processes: int
    """How many ``avanti serve`` processes share the store."""

    @property
    def name(self) -> str:
        """The configuration's name in the report."""
        store = {"sqlite": "SQLite", "postgres": "PostgreSQL"}[self.store]
        return f"{store}, {self.processes} process{'es' if self.processes > 1 else ''}"


CONFIGURATIONS = (
    Configuration("sqlite", 1),
    Configuration("sqlite", 2),
    Configuration("postgres", 1),
    Configuration("postgres", 2),
)


@dataclass(frozen=True)
class Plan:
    """What one run plays: the seats, the tables, the seconds, the configurations."""

    seats: int
    games: int
    seconds: float
    configurations: tuple[Configuration, ...]
    small: bool
    json: bool = False
    think: float = 0.0
    """Each seat's mean think time before it answers an update, in seconds (0: at once)."""

    def table_seats(self) -> list[int]:
        """The seats at each table: as even as can be, the first tables taking one more."""
        base, extra = divmod(self.seats, self.games)
        return [base + (1 if table < extra else 0) for table in range(self.games)]


# -- the servers ---------------------------------------------------------------------------------


class ServeProcess:
    """``python -m avanti serve --database DATABASE --port 0`` as a child process; its JSON log
    goes to a file, where the port it listens on is read."""

    def __init__(self, database: str, folder: Path, name: str) -> None:
        self.log = folder / f"{name}.log"
        self._log = self.log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "avanti", "serve", "--database", database, "--port", "0"],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.port = self._wait_for_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            found = _RUNNING.search(self.log.read_text(encoding="utf-8", errors="replace"))
            if found is not None:
                return int(found.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.kill()
        tail = self.log.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise RuntimeError(f"avanti serve did not start:\n{tail}")

    def ws_url(self, game_id: str) -> str:
        """The address of a game's stream on this server."""
        return f"ws://127.0.0.1:{self.port}/games/{game_id}/stream"

    def cpu_seconds(self) -> float | None:
        """The CPU time the server has used so far (Linux's ``/proc``), or ``None``."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> int:
        """Stop the server with SIGTERM, as a service manager does; its exit code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=PATIENCE + 30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self._log.close()
        return code

    def kill(self) -> None:
        """Kill the server if it still runs."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._log.close()

    def log_counts(self, messages: dict[str, str]) -> Counter[str]:
        """The limits hit and the errors logged: ``limit:<name>`` and ``error:<event>``; the
        first message of each error goes in ``messages``."""
        found: Counter[str] = Counter()
        with self.log.open(encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if '"limit"' not in line and '"level":"error"' not in line:
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if record.get("event") == "limit":
                    found[f"limit:{record.get('limit')}"] += 1
                elif record.get("level") == "error":
                    kind = f"error:{record.get('event')}"
                    found[kind] += 1
                    messages.setdefault(kind, str(record.get("message", ""))[:300])
        return found


def busy_cores() -> tuple[float, float] | None:
    """The machine's busy and total CPU time so far, in clock ticks (``/proc/stat``)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            numbers = [int(part) for part in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = numbers[3] + (numbers[4] if len(numbers) > 4 else 0)
    return float(sum(numbers) - idle), float(sum(numbers))


def table_addresses(count: int) -> list[str | None]:
    """A loopback address per table to create its games from (``None``: the default), or the
    default for all where another address of ``127.0.0.0/8`` cannot be bound."""
    addresses = [f"127.0.{1 + table // 250}.{2 + table % 250}" for table in range(count)]
    try:
        with socket.socket() as probe:
            probe.bind((addresses[-1] if addresses else "127.0.0.2", 0))
    except OSError:
        return [None] * count
    return list(addresses)


# -- the clients ---------------------------------------------------------------------------------


@dataclass
class SeatLog:
    """What one seat's client was pushed in one game."""

    game_id: str
    seat: int
    events: list[tuple[int, Any]] = field(default_factory=list)
    """Every ``(position, event)`` of its updates, in the order received."""
    updates: list[tuple[int, float]] = field(default_factory=list)
    """Each update's version and the time it arrived."""
    version: int = 0
    """The version of the last update."""


@dataclass
class Acked:
    """A command the server acknowledged: where it was sent from and when."""

    game_id: str
    version: int
    """The game's version after it (the ``result``'s)."""
    sent: float
    """When it was sent (``time.perf_counter``)."""
    latency: float
    """From the send to the first pushed update holding its events."""


class Run:
    """The shared record of one configuration's clients."""

    def __init__(
        self,
        servers: Sequence[ServeProcess],
        deadline: float,
        rng: random.Random,
        think: float = 0.0,
    ):
        self.servers = servers
        """The server processes, for the tables to share out."""
        self.deadline = deadline
        """When the clients stop sending (``time.perf_counter``)."""
        self.rng = rng
        """Where each client picks its commands."""
        self.think = think
        """The mean think time of a seat before each command (uniform from half to one and a
        half times it), outside the latency; 0: a seat answers at once."""
        self.errors: Counter[str] = Counter()
        """Problems by kind: the server's error kinds, and the clients' own."""
        self.acked: list[Acked] = []
        """Every command acknowledged and pushed."""
        self.sent = 0
        """Commands sent."""
        self.logs: list[SeatLog] = []
        """What each seat was pushed, a log per seat per game."""
        self.games: dict[str, str] = {}
        """Every game created: its kind by its id."""
        self.finished = 0
        """Games played to the end."""


class Pace:
    """A client's token bucket: it waits, rather than send faster than :data:`RATE`."""

    def __init__(self) -> None:
        self._tokens = float(BURST)
        self._stamp = time.perf_counter()

    async def take(self) -> None:
        """Wait until a command may be sent, and count it."""
        now = time.perf_counter()
        self._tokens = min(BURST, self._tokens + (now - self._stamp) * RATE)
        self._stamp = now
        if self._tokens < 1.0:
            await asyncio.sleep((1.0 - self._tokens) / RATE)
            self._tokens = 1.0
            self._stamp = time.perf_counter()
        self._tokens -= 1.0


class Seat:
    """One seat's client in one game (see the module's docstring)."""

    def __init__(self, run: Run, log: SeatLog) -> None:
        self.run = run
        self.log = log
        self.pace = Pace()
        self.latest: dict[str, Any] | None = None
        self.acted_at = -1
        self.pending: tuple[int, float] | None = None
        """The version a command in flight was sent at, and when."""
        self.pushed: float | None = None
        """When the first update past the pending command's version came."""
        self.result: int | None = None
        """The pending command's ``result`` version, once it came."""
        self.failures = 0
        self.act_at: float | None = None
        """When a thinking seat answers (it goes on reading its socket meanwhile)."""

    async def play(self, url: str, token: str) -> None:
        """Connect and play until the game is over or the time is up; problems are counted."""
        errors = self.run.errors
        try:
            async with connect(url, open_timeout=PATIENCE, max_size=2**23) as connection:
                await connection.send(json.dumps({"token": token, "after": 0}))
                await self._loop(connection)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            errors[f"closed-{code}"] += 1
        except (OSError, TimeoutError, WebSocketException):
            errors["connect-failed"] += 1

    async def _loop(self, connection: ClientConnection) -> None:
        while True:
            now = time.perf_counter()
            if self.pending is None:
                if now >= self.run.deadline or self.over():
                    return
                if self.act_at is not None and now >= self.act_at:
                    self.act_at = None
                    await self._act(connection)
                    continue
                wait = self.run.deadline - now
                if self.act_at is not None:
                    wait = min(wait, self.act_at - now)
            else:
                wait = self.pending[1] + PATIENCE - now
                if wait <= 0:
                    self.run.errors["no-reply"] += 1
                    return
            try:
                async with asyncio.timeout(wait):
                    raw = await connection.recv()
            except TimeoutError:
                continue
            self._receive(json.loads(raw), time.perf_counter())
            if self.failures >= 5:
                self.run.errors["gave-up"] += 1
                return
            if self.pending is None and time.perf_counter() < self.run.deadline:
                if not self.run.think:
                    await self._act(connection)
                elif self.act_at is None and self._may_act():
                    pause = self.run.think * self.run.rng.uniform(0.5, 1.5)
                    self.act_at = time.perf_counter() + pause

    def over(self) -> bool:
        """Whether the seat has been pushed the game's outcome."""
        return self.latest is not None and self.latest["outcome"] is not None

    def _receive(self, message: dict[str, Any], arrived: float) -> None:
        kind = message["type"]
        if kind == "update":
            version = message["version"]
            self.log.events.extend((item["position"], item["event"]) for item in message["events"])
            self.log.updates.append((version, arrived))
            self.log.version = version
            self.latest = message
            if self.pending is not None and self.pushed is None and version > self.pending[0]:
                self.pushed = arrived
        elif kind == "result" and self.pending is not None:
            self.result = message["version"]
        elif kind == "error":
            error = message["error"]["kind"]
            self.run.errors[error] += 1
            if error != "version-conflict":
                self.failures += 1
                self.acted_at = -1  # the seat may try again at this version
            self.pending = None
            return
        if self.pending is not None and self.result is not None and self.pushed is not None:
            version, sent = self.pending
            self.run.acked.append(Acked(self.log.game_id, self.result, sent, self.pushed - sent))
            self.pending = None
            self.failures = 0

    def _may_act(self) -> bool:
        """Whether the latest update asks this seat for a command it has not answered."""
        latest = self.latest
        return (
            latest is not None
            and latest["outcome"] is None
            and bool(latest["legal"])
            and latest["version"] > self.acted_at
        )

    async def _act(self, connection: ClientConnection) -> None:
        if not self._may_act():
            return
        latest = self.latest
        assert latest is not None
        version = latest["version"]
        await self.pace.take()
        choice = self.run.rng.choice(latest["legal"])
        message = {"type": "command", "command": choice["command"], "expected_version": version}
        self.pending, self.pushed, self.result = (version, time.perf_counter()), None, None
        self.acted_at = version
        self.run.sent += 1
        await connection.send(json.dumps(message))


async def create_game(
    run: Run, http: httpx.AsyncClient, server: ServeProcess, kind: str, seats: int
) -> dict[str, Any] | None:
    """``POST /games`` for a table: the reply, or ``None`` (counted) when refused or failed."""
    names = [f"Player {seat + 1}" for seat in range(seats)]
    try:
        reply = await http.post(f"{server.url}/games", json={"game": kind, "players": names})
    except httpx.HTTPError:
        run.errors["create-failed"] += 1
        return None
    if reply.status_code != 201:
        run.errors[f"create-{reply.json()['error']['kind']}"] += 1
        return None
    created: dict[str, Any] = reply.json()
    run.games[created["id"]] = kind
    return created


async def play_table(
    run: Run,
    table: int,
    kind: str,
    seats: int,
    http: httpx.AsyncClient,
    first: dict[str, Any] | None,
) -> None:
    """One table: play its first game with one client a seat, then create another and play
    it, until the time is up."""
    processes = len(run.servers)
    created = first
    while time.perf_counter() < run.deadline:
        if created is None:
            created = await create_game(run, http, run.servers[table % processes], kind, seats)
            if created is None:
                await asyncio.sleep(1.0)  # refused (the rate of new games): try again
                continue
        game_id = created["id"]
        players = []
        for entry in created["seats"]:
            log = SeatLog(game_id, entry["seat"])
            run.logs.append(log)
            player = Seat(run, log)
            url = run.servers[(table + entry["seat"]) % processes].ws_url(game_id)
            players.append((player, player.play(url, entry["token"])))
        await asyncio.gather(*(play for _, play in players))
        if all(player.over() for player, _ in players):
            run.finished += 1
        created = None


async def drive(plan: Plan, servers: Sequence[ServeProcess], seed: int) -> Run:
    """Warm the servers up (every game's package imported), create every table's first game,
    then play every table until ``plan.seconds`` have passed and every command in flight is
    answered."""
    async with httpx.AsyncClient(timeout=PATIENCE) as http:
        for server in servers:
            for kind in GAMES:
                (await http.get(f"{server.url}/schemas/{kind}")).raise_for_status()
    run = Run(servers, math.inf, random.Random(seed), plan.think)
    kinds = [GAMES[table % len(GAMES)] for table in range(plan.games)]
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for address in table_addresses(plan.games):
            transport = httpx.AsyncHTTPTransport(local_address=address, verify=False)
            clients.append(
                await stack.enter_async_context(
                    httpx.AsyncClient(transport=transport, timeout=PATIENCE, trust_env=False)
                )
            )
        firsts = await asyncio.gather(
            *(
                create_game(run, clients[table], servers[table % len(servers)], kind, seats)
                for table, (kind, seats) in enumerate(zip(kinds, plan.table_seats(), strict=True))
            )
        )
        run.deadline = time.perf_counter() + plan.seconds
        await asyncio.gather(
            *(
                play_table(run, table, kind, seats, clients[table], firsts[table])
                for table, (kind, seats) in enumerate(zip(kinds, plan.table_seats(), strict=True))
            )
        )
    return run


# -- the replay check ----------------------------------------------------------------------------


def plain(value: object) -> Any:
    """A codec's data as the wire carries it (tuples as lists)."""
    return json.loads(json.dumps(value))


def replay_check(store: EventStore, run: Run) -> dict[str, int]:
    """Every game replayed from the store, and every seat's pushed events checked against it."""
    games = GameStore(store, cache=0)
    found: Counter[str] = Counter()
    acked: dict[str, int] = {}
    for command in run.acked:
        acked[command.game_id] = max(acked.get(command.game_id, 0), command.version)
    logs: dict[str, list[SeatLog]] = {}
    for log in run.logs:
        logs.setdefault(log.game_id, []).append(log)
    for game_id in run.games:
        try:
            game = games.load(game_id, verify=True)
        except AvantiError:
            found["games unreadable"] += 1
            continue
        found["games"] += 1
        found["events"] += game.version
        if acked.get(game_id, 0) > game.version:
            found["acknowledged lost"] += 1
        codec = type(game).rules.codec
        for log in logs.get(game_id, []):
            found["seat streams"] += 1
            if log.version > game.version:
                found["lost"] += log.version - game.version
                continue
            at = game
            if log.version < game.version:
                at = type(game).replay(game.setup, game.events[: log.version], verify=False)
            expected = {
                position: plain(codec.event_to_data(event))
                for position, event in at.events_for(log.seat, after=0)
            }
            received = [position for position, _ in log.events]
            found["duplicated"] += len(received) - len(set(received))
            found["lost"] += len(set(expected) - set(received))
            found["corrupted"] += sum(
                1 for position, event in log.events if expected.get(position) != event
            )
            if received != sorted(set(received)):
                found["out of order"] += 1
            found["events pushed"] += len(received)
    for name in PROBLEMS:
        found.setdefault(name, 0)
    return dict(found)


# -- one configuration ---------------------------------------------------------------------------


def percentile(values: Sequence[float], share: float) -> float | None:
    """The ``share`` quantile (0.5, 0.99) of ``values``, by the nearest rank; ``None`` if empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def everyone_latencies(run: Run) -> list[float]:
    """For each acknowledged command, the time from its send until every seat of its game had
    been pushed its events (commands some seat never was pushed are left out)."""
    logs: dict[str, list[SeatLog]] = {}
    for log in run.logs:
        logs.setdefault(log.game_id, []).append(log)
    found = []
    for command in run.acked:
        last = command.sent
        for log in logs[command.game_id]:
            versions = [version for version, _ in log.updates]
            index = bisect.bisect_left(versions, command.version)
            if index == len(versions):
                break
            last = max(last, log.updates[index][1])
        else:
            found.append(last - command.sent)
    return found


@contextlib.contextmanager
def servers_on(database: str, folder: Path, count: int) -> Iterator[list[ServeProcess]]:
    """``count`` server processes on one database; killed on an error, else stopped by the
    caller."""
    started: list[ServeProcess] = []
    try:
        for number in range(count):
            started.append(ServeProcess(database, folder, f"serve-{number}"))
        yield started
    finally:
        for server in started:
            server.kill()


def measure(
    plan: Plan, configuration: Configuration, folder: Path, database: str, store: EventStore
) -> dict[str, Any]:
    """Play one configuration and check it; its figures."""
    with servers_on(database, folder, configuration.processes) as servers:
        cpu_before = [server.cpu_seconds() for server in servers]
        busy_before, client_before = busy_cores(), time.process_time()
        run = asyncio.run(drive(plan, servers, seed=CONFIGURATIONS.index(configuration)))
        busy_after, client_after = busy_cores(), time.process_time()
        cpu_after = [server.cpu_seconds() for server in servers]
        codes = [server.stop() for server in servers]
        logged: Counter[str] = Counter()
        messages: dict[str, str] = {}
        for server in servers:
            logged.update(server.log_counts(messages))
    latencies = [command.latency for command in run.acked]
    everyone = everyone_latencies(run)
    server_cpu = [
        None if before is None or after is None else after - before
        for before, after in zip(cpu_before, cpu_after, strict=True)
    ]
    machine_busy = None
    if busy_before is not None and busy_after is not None:
        total = busy_after[1] - busy_before[1]
        machine_busy = (busy_after[0] - busy_before[0]) / total if total else None
    check = replay_check(store, run)
    p99 = percentile(latencies, 0.99)
    lost = sum(check[name] for name in PROBLEMS) + check.get("games unreadable", 0)
    return {
        "configuration": configuration.name,
        "store": configuration.store,
        "processes": configuration.processes,
        "commands": len(latencies),
        "commands_sent": run.sent,
        "commands_per_second": len(latencies) / plan.seconds,
        "latency_p50_ms": _ms(percentile(latencies, 0.5)),
        "latency_p99_ms": _ms(p99),
        "latency_max_ms": _ms(max(latencies, default=None)),
        "everyone_p50_ms": _ms(percentile(everyone, 0.5)),
        "everyone_p99_ms": _ms(percentile(everyone, 0.99)),
        "errors": dict(sorted(run.errors.items())),
        "server_log": dict(sorted(logged.items())),
        "server_log_messages": messages,
        "exit_codes": codes,
        "games_created": len(run.games),
        "games_by_kind": dict(Counter(run.games.values())),
        "games_finished": run.finished,
        "client_cpu_seconds": client_after - client_before,
        "server_cpu_seconds": server_cpu,
        "machine_busy": machine_busy,
        "replay": check,
        "replay_problems": lost,
        "met": p99 is not None and p99 < AIM_P99 and lost == 0,
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


# -- the stores ----------------------------------------------------------------------------------


@contextlib.contextmanager
def postgres_cluster() -> Iterator[tuple[Any, str]]:
    """A private PostgreSQL server (``fsync`` on) and a note, or ``None`` and why not."""
    try:
        from avanti.store.postgres import PostgresEventStore  # noqa: F401
    except ImportError as error:
        yield (
            None,
            f"not measured: psycopg is not installed ({error}): pip install 'avanti[postgres]'",
        )
        return
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        from tests.store.pg import SERVER_NOT_FOUND, ClusterError, private_cluster, server_binaries
    except ImportError as error:
        yield None, f"not measured: the private server needs tests/store/pg.py and pytest ({error})"
        return
    if server_binaries() is None:
        yield None, f"not measured: {SERVER_NOT_FOUND}"
        return
    with contextlib.ExitStack() as stack:
        try:
            cluster = stack.enter_context(private_cluster(durable=True))
        except ClusterError as error:
            yield None, f"not measured: the private server did not start: {error}"
            return
        yield cluster, f"a private server, fsync on, in {cluster.folder}"


def postgres_uri(cluster: Any, database: str) -> str:
    """A ``postgresql://`` URI (what ``avanti serve --database`` takes) for a database of the
    private cluster, which listens on a Unix socket only."""
    host = urllib.parse.quote(str(cluster.folder), safe="")
    return f"postgresql://avanti@/{database}?host={host}&port=5432"


def measure_all(plan: Plan) -> dict[str, Any]:
    """Every configuration of the plan, with the machine and the verdict."""
    results: dict[str, Any] = {
        "machine": machine(),
        "small": plan.small,
        "seats": plan.seats,
        "games": plan.games,
        "seconds": plan.seconds,
        "think": plan.think,
        "tables": dict(
            Counter(f"{GAMES[t % 3]}, {n} seats" for t, n in enumerate(plan.table_seats()))
        ),
        "configurations": {},
        "notes": {},
    }
    wanted = {configuration.store for configuration in plan.configurations}
    with tempfile.TemporaryDirectory(prefix="avanti-serverload-") as temporary:
        folder = Path(temporary)
        for configuration in plan.configurations:
            if configuration.store != "sqlite":
                continue
            where = folder / f"sqlite-{configuration.processes}"
            where.mkdir()
            path = where / "games.db"
            with SQLiteEventStore(path) as store:
                figures = measure(plan, configuration, where, str(path), store)
            results["configurations"][configuration.name] = figures
        if "sqlite" in wanted:
            results["notes"]["SQLite"] = "a file in a temporary folder, WAL, synchronous=FULL"
        if "postgres" in wanted:
            with postgres_cluster() as (cluster, note):
                results["notes"]["PostgreSQL"] = note
                if cluster is not None:
                    from avanti.store.postgres import PostgresEventStore

                    for configuration in plan.configurations:
                        if configuration.store != "postgres":
                            continue
                        name = f"load_{configuration.processes}"
                        cluster.create_database(name)
                        where = folder / f"postgres-{configuration.processes}"
                        where.mkdir()
                        with PostgresEventStore(postgres_uri(cluster, name)) as store:
                            figures = measure(
                                plan, configuration, where, postgres_uri(cluster, name), store
                            )
                        results["configurations"][configuration.name] = figures
    results["machine"]["load_average_after"] = machine()["load_average"]
    return results


# -- the report ----------------------------------------------------------------------------------


def _count(counts: dict[str, int]) -> str:
    if not counts:
        return "none"
    return ", ".join(f"{kind} {number:,}" for kind, number in counts.items())


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


def report(results: dict[str, Any]) -> str:
    """The figures as text."""
    found = results["machine"]
    lines = [
        f"Game server under load: {results['seats']} seats at {results['games']} tables for "
        f"{results['seconds']:g} s a configuration" + (" (small)" if results["small"] else ""),
        "tables: " + ", ".join(f"{n} x {kind}" for kind, n in results["tables"].items()),
        "think time: "
        + (
            f"{results['think']:g} s on average before each command (uniform from "
            f"{results['think'] / 2:g} to {results['think'] * 1.5:g} s), outside the latency"
            if results["think"]
            else "none: every seat answers each update at once"
        ),
        f"machine: {found['cpu']}, {found['cores']} cores, {found['python']}; load average "
        f"{found['load_average']} before, {found['load_average_after']} after",
    ]
    for store, note in results["notes"].items():
        lines.append(f"{store}: {note}")
    verdicts = []
    for name, figures in results["configurations"].items():
        check = figures["replay"]
        busy = figures["machine_busy"]
        cpu = ", ".join("n/a" if c is None else f"{c:.1f} s" for c in figures["server_cpu_seconds"])
        lines += [
            "",
            f"{name}",
            f"  commands / s                 {figures['commands_per_second']:,.1f} "
            f"({figures['commands']:,} acknowledged and pushed, {figures['commands_sent']:,} sent)",
            f"  latency p50 / p99 (ms)       {_figure(figures['latency_p50_ms'])} / "
            f"{_figure(figures['latency_p99_ms'])} (max {_figure(figures['latency_max_ms'])})",
            f"  to every seat p50 / p99 (ms) {_figure(figures['everyone_p50_ms'])} / "
            f"{_figure(figures['everyone_p99_ms'])}",
            f"  errors                       {_count(figures['errors'])}",
            f"  server log                   {_count(figures['server_log'])}; exit codes "
            f"{figures['exit_codes']}",
            *(
                f"  {kind:<28} {message}"
                for kind, message in figures["server_log_messages"].items()
            ),
            f"  games                        {figures['games_created']:,} created "
            f"({_count(figures['games_by_kind'])}), {figures['games_finished']:,} finished",
            f"  CPU                          clients {figures['client_cpu_seconds']:.1f} s, "
            f"servers {cpu}; machine busy " + ("n/a" if busy is None else f"{100 * busy:.0f}%"),
            f"  replay check                 {check.get('games', 0):,} games replayed with "
            f"verify=True ({check.get('games unreadable', 0)} unreadable), "
            f"{check.get('seat streams', 0):,} seat streams, "
            f"{check.get('events pushed', 0):,} events pushed: {check['lost']} lost, "
            f"{check['duplicated']} duplicated, {check['corrupted']} corrupted, "
            f"{check['out of order']} out of order, "
            f"{check['acknowledged lost']} acknowledged commands missing",
        ]
        verdicts.append((name, figures))
    lines.append("")
    for name, figures in verdicts:
        p99 = figures["latency_p99_ms"]
        lines.append(
            f"verdict, {name}: p99 {_figure(p99)} ms at {results['seats']} seats, "
            f"{figures['replay_problems']} lost, duplicated or corrupted; aim: p99 under "
            f"{AIM_P99 * 1000:g} ms, zero lost: {'met' if figures['met'] else 'MISSED'}"
        )
    met = sum(1 for _, figures in verdicts if figures["met"])
    lines.append(
        f"verdict: p99 under {AIM_P99 * 1000:g} ms at {results['seats']} seats with zero lost "
        f"in {met} of {len(verdicts)} configurations"
    )
    return "\n".join(lines)


def parse(argv: Sequence[str] | None) -> Plan:
    """The plan the command line asks for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--small",
        action="store_true",
        help=f"{SMALL_SEATS} seats at {SMALL_GAMES} tables for {SMALL_SECONDS:g} s, every "
        "configuration (the test gate's run)",
    )
    parser.add_argument("--seats", type=int, help=f"seats in all (default {DEFAULT_SEATS})")
    parser.add_argument("--games", type=int, help=f"tables (default {DEFAULT_GAMES})")
    parser.add_argument(
        "--seconds",
        type=float,
        help=f"seconds of play a configuration (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--only",
        choices=("sqlite", "postgres"),
        help="measure one store only (default: both, with one and two processes)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="each seat's mean think time before it answers, in seconds (default 0: at once; "
        "each wait is uniform from half to one and a half times it)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    seats = args.seats or (SMALL_SEATS if args.small else DEFAULT_SEATS)
    games = args.games or (SMALL_GAMES if args.small else DEFAULT_GAMES)
    seconds = args.seconds or (SMALL_SECONDS if args.small else DEFAULT_SECONDS)
    if games < 1 or not 3 * games <= seats <= 5 * games:
        parser.error(f"--seats must be 3 to 5 times --games (3 to 5 seats a table), not {seats}")
    if not 0 <= args.think <= 60:
        parser.error(f"--think must be 0 to 60 seconds, not {args.think:g}")
    if not 0 < seconds <= 3600:
        parser.error(f"--seconds must be above 0 and at most 3600, not {seconds:g}")
    chosen = tuple(c for c in CONFIGURATIONS if args.only in (None, c.store))
    return Plan(seats, games, seconds, chosen, args.small, args.json, args.think)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    plan = parse(argv)
    results = measure_all(plan)
    if plan.json:
        print(json.dumps(results, indent=2))
    else:
        print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
