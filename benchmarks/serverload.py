"""The game server under load: many seats playing over WebSockets, then every game replayed.

The load is boardgame.io's anchor load (``../shared/anchors/boardgameio/load.js``): 201 seats at
67 three-player tables (``--seats``, ``--tables``), every seat answering each update at once, a
table creating its next game as soon as one ends. The tables play Avanti alone
(``--games avanti``) or the three games in turn (``--games all``, the default: Avanti mare!,
Avanti, For Sale: Autorama), or any one of them. For each configuration (``--configurations``:
SQLite with one or two ``avanti serve`` processes, PostgreSQL with one or two) the script starts
the servers as child processes on free loopback ports, plays a warm-up (``--warmup``, 10 s), then
a measured window (``--seconds``, 40 s), as ``load.js`` does.

Each seat is one client: it opens ``/games/{id}/stream``, sends its token in the first message,
and acts on ``update`` messages: on every update in which it has legal commands at a version it
has not answered, it picks one at random and sends it on the socket
(``{"type": "command", "command": ..., "expected_version": v}``), unless its last command is
still unanswered: then, as the browser's page and ``load.js`` do (one command under way a seat),
it waits for that answer and answers the newest update it has then. The server answers each
command of a socket in order: in the ``results`` of the seat's next update, with a bare
``result`` (a command stored before), or with an ``error``, so the client works the same whether
the mover gets a ``result`` and an ``update`` or one ``update`` like everyone. A stale command
(409 ``version-conflict``: with two processes, the other process's write) counts as an error of
that kind; with one process there should be none. A refused command of another kind lets the
seat choose again at the same version; five in a row and it gives up. A client never
sends faster than the server's default rate per connection allows (10 commands a second, 20 at
once): it waits before sending instead, inside the latency.

The figures of the window, for the commands sent inside it: accepted commands a second (results
received in the window), the latency from the mover's send to the new state reaching each other
seat of the game (one sample per command and other seat, as ``load.js`` measures) and to the
mover itself (p50, p90, p99), the servers' CPU (user + system from ``/proc``) over the window
divided by the commands accepted in it, and the servers' largest resident memory.

With two server processes the seats of every game are split between them (seat ``i`` of table
``k`` on process ``(i + k) % 2``), so each command reaches some of its game's seats through the
store (SQLite: the file the two share, polled; PostgreSQL: LISTEN/NOTIFY).

Then the servers are stopped (SIGTERM) and the script checks, from the store itself: every game
created replays with ``GameStore.load(verify=True)``; every command acknowledged is in it; and
every seat's pushed events, in the order received, are exactly ``events_for(seat)`` of the stored
game at the last version that seat was pushed (none lost, none duplicated, none changed, none
extra).

Everything runs on loopback. Each table creates its games from an address of its own
(``127.0.x.y``; Linux routes the whole of ``127.0.0.0/8`` to loopback), as separate players
would, so the server's limit of new games per address (one a second, 20 at once) does not throttle
the tables; where such an address cannot be used, every table uses ``127.0.0.1`` and waits when
refused. PostgreSQL runs on a private server started in a temporary folder (``fsync`` on, as in
production; Debian's ``postgresql`` package, see ``tests/store/pg.py``); without it the report
says so in one line and measures SQLite.

Run it with ``nox -s serverload`` or ``python benchmarks/serverload.py`` (``--small``: a run of
a few seconds a configuration, which the test gate makes; ``--think S``: each seat thinks about
``S`` seconds before it answers, as people do; ``--json FILE``: the figures as JSON;
``--profile DIR``: each server runs under ``py-spy record``, its raw profile written to ``DIR``).
``benchmarks/beside_bgio.py`` runs this load beside boardgame.io's in one sitting.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from run import machine  # benchmarks/run.py, beside this file
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

import avanti
from avanti.core.errors import AvantiError
from avanti.store import EventStore, GameStore, SQLiteEventStore

ROOT = Path(__file__).resolve().parent.parent
"""The repository, whose ``tests/store/pg.py`` starts the private PostgreSQL server."""

GAMES = ("mare", "avanti", "autorama")
"""The games the tables play in turn, table ``k`` playing ``GAMES[k % 3]``."""

PATIENCE = 30.0
"""Seconds a client waits for the server before it gives up (a hung server, not a slow one)."""

KEEP_ALIVE = 2.0
"""Seconds a table's HTTP client keeps an idle connection for its next ``POST /games``: less than
the server's ``keep_alive_timeout`` (5 s), so that a client never sends on a connection the
server is closing at that moment (which fails as ``create-failed``; ``load.js`` opens a
connection a request)."""

RATE, BURST = 9.0, 18
"""Commands a client sends per second and at once: under the server's default limit per
connection (10 and 20), so that the client's pauses, not the server's refusals, keep it there."""

DEFAULT_SEATS, DEFAULT_TABLES, DEFAULT_WARMUP, DEFAULT_SECONDS = 201, 67, 10.0, 40.0
"""boardgame.io's anchor load: seats, tables, seconds of warm-up and of the measured window."""
SMALL_SEATS, SMALL_TABLES, SMALL_WARMUP, SMALL_SECONDS = 18, 6, 1.0, 2.0
"""The same for ``--small``, the test gate's run."""

PROBLEMS = ("lost", "duplicated", "corrupted", "out of order", "acknowledged lost")
"""What the replay check counts, each of which must be zero: events a seat was not pushed,
pushed twice, pushed other than stored (or not its to see), pushed out of order; and commands
acknowledged that the stored game does not hold."""

_RUNNING = re.compile(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")


@dataclass(frozen=True)
class Configuration:
    """One way to run the servers: the store, the number of processes, and how a game's seats
    reach them."""

    store: str
    """``sqlite`` or ``postgres``."""
    processes: int
    """How many ``avanti serve`` processes share the store."""
    route: str = "seat"
    """With several processes, which one a seat's WebSocket goes to: ``seat``, spread by seat
    (seat i of table k on process (i + k) mod n: every process takes commands for every game),
    or ``game``, the process its game's id hashes to (:func:`process_of`), as a load balancer
    routing by the stream's path would (one process holds each game)."""

    @property
    def key(self) -> str:
        """The configuration's name on the command line (``sqlite-1``, ``sqlite-2-by-game``)."""
        return f"{self.store}-{self.processes}" + ("-by-game" if self.route == "game" else "")

    @property
    def name(self) -> str:
        """The configuration's name in the report."""
        store = {"sqlite": "SQLite", "postgres": "PostgreSQL"}[self.store]
        routed = ", routed by game" if self.route == "game" else ""
        return f"{store}, {self.processes} process{'es' if self.processes > 1 else ''}{routed}"


CONFIGURATIONS = (
    Configuration("sqlite", 1),
    Configuration("sqlite", 2),
    Configuration("postgres", 1),
    Configuration("postgres", 2),
    Configuration("sqlite", 2, "game"),
    Configuration("postgres", 2, "game"),
)
"""Every configuration the script knows."""


def process_of(game_id: str, table: int, seat: int, processes: int, route: str) -> int:
    """The process (0 to ``processes`` - 1) a seat's WebSocket goes to (see
    :attr:`Configuration.route`); by game, FNV-1a of the id's characters, as ``load.js``
    hashes it."""
    if route == "seat":
        return (table + seat) % processes
    hashed = 2166136261
    for character in game_id:
        hashed = ((hashed ^ ord(character)) * 16777619) & 0xFFFFFFFF
    return hashed % processes


DEFAULT_CONFIGURATIONS = ("sqlite-1", "sqlite-2", "postgres-1")
"""The configurations measured unless ``--configurations`` says otherwise."""


@dataclass(frozen=True)
class Plan:
    """What one run plays: the seats, the tables, their games, the seconds, the configurations."""

    seats: int
    tables: int
    games: tuple[str, ...]
    """The games the tables take in turn."""
    warmup: float
    """Seconds of play before the measured window."""
    seconds: float
    """Seconds of the measured window."""
    configurations: tuple[Configuration, ...]
    small: bool
    json: Path | None = None
    """Where to write the figures as JSON, if anywhere."""
    think: float = 0.0
    """Each seat's mean think time before it answers an update, in seconds (0: at once)."""
    profile: Path | None = None
    """A folder for ``py-spy`` profiles of the servers, or ``None`` to run them bare."""

    def table_seats(self) -> list[int]:
        """The seats at each table: as even as can be, the first tables taking one more."""
        base, extra = divmod(self.seats, self.tables)
        return [base + (1 if table < extra else 0) for table in range(self.tables)]

    def table_games(self) -> list[str]:
        """The game each table plays."""
        return [self.games[table % len(self.games)] for table in range(self.tables)]


# -- the servers ---------------------------------------------------------------------------------


def proc_cpu_seconds(pid: int) -> float | None:
    """A process's user + system CPU time so far (Linux's ``/proc``), or ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def proc_rss_bytes(pid: int) -> int | None:
    """A process's resident memory now (Linux's ``/proc``), or ``None``."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def child_environment() -> dict[str, str]:
    """The environment of a server process: this one's, with the folder of the ``avanti`` this
    script imported first on ``PYTHONPATH`` (the server runs in a temporary folder, where a
    relative path would find nothing, or another checkout's package)."""
    source = str(Path(avanti.__file__).resolve().parent.parent)
    paths = [
        str(Path(path).resolve()) for path in os.environ.get("PYTHONPATH", "").split(":") if path
    ]
    return {**os.environ, "PYTHONPATH": ":".join([source, *paths]), "PYTHONUNBUFFERED": "1"}


class ServeProcess:
    """``python -m avanti serve --database DATABASE --port 0`` as a child process (under
    ``py-spy record`` when ``profile`` names a file); its JSON log goes to a file, where the port
    it listens on is read."""

    def __init__(self, database: str, folder: Path, name: str, profile: Path | None = None):
        self.log = folder / f"{name}.log"
        self._log = self.log.open("wb")
        command = [sys.executable, "-m", "avanti", "serve", "--database", database, "--port", "0"]
        if profile is not None:
            spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            command = [
                *(spy, "record", "--nonblocking", "--threads", "--rate", "100"),
                *(("--idle",) if os.environ.get("AVANTI_PROFILE_IDLE") else ()),
                *("-f", "raw", "-o", str(profile), "--", *command),
            ]
        self.process = subprocess.Popen(
            command,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            env=child_environment(),
        )
        self.port = self._wait_for_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.pid = self._server_pid(profile is not None)

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

    def _server_pid(self, profiled: bool) -> int:
        """The server's own process: the child itself, or the child of ``py-spy``."""
        if not profiled:
            return self.process.pid
        tasks = Path(f"/proc/{self.process.pid}/task")
        for task in tasks.iterdir():
            children = (task / "children").read_text().split()
            if children:
                return int(children[0])
        return self.process.pid  # pragma: no cover - py-spy gone

    def ws_url(self, game_id: str) -> str:
        """The address of a game's stream on this server."""
        return f"ws://127.0.0.1:{self.port}/games/{game_id}/stream"

    def cpu_seconds(self) -> float | None:
        """The CPU time the server has used so far, or ``None``."""
        return proc_cpu_seconds(self.pid)

    def rss_bytes(self) -> int | None:
        """The server's resident memory now, or ``None``."""
        return proc_rss_bytes(self.pid)

    def stop(self) -> int:
        """Stop the server with SIGTERM, as a service manager does; its exit code."""
        os.kill(self.pid, signal.SIGTERM)
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
    """A command the server accepted: who sent it, when, and the version it made."""

    log: SeatLog
    """The sender's log."""
    version: int
    """The game's version after it (the ``result``'s)."""
    sent: float
    """When it was sent (``time.perf_counter``)."""
    answered: float
    """When its ``result`` came."""


@dataclass
class Window:
    """The measured window and what the servers did in it."""

    start: float = float("inf")
    """When it opens (``time.perf_counter``)."""
    end: float = float("inf")
    """When it closes."""
    cpu: list[float | None] = field(default_factory=list)
    """Each server's CPU seconds in the window."""
    rss: int | None = None
    """The largest resident memory of the servers together, sampled in the window."""
    machine_busy: float | None = None
    """The share of the machine's cores busy in the window."""
    client_cpu: float = 0.0
    """This process's CPU seconds in the window (the clients)."""

    def holds(self, moment: float) -> bool:
        """Whether ``moment`` is inside the window."""
        return self.start <= moment < self.end


class Run:
    """The shared record of one configuration's clients."""

    def __init__(
        self,
        servers: Sequence[ServeProcess],
        deadline: float,
        rng: random.Random,
        think: float = 0.0,
        route: str = "seat",
    ):
        self.servers = servers
        """The server processes, for the tables to share out."""
        self.route = route
        """Which process a seat's WebSocket goes to (:attr:`Configuration.route`)."""
        self.deadline = deadline
        """When the clients stop sending (``time.perf_counter``): the window's end."""
        self.window = Window()
        """The measured window."""
        self.rng = rng
        """Where each client picks its commands."""
        self.think = think
        """The mean think time of a seat before each command (uniform from half to one and a
        half times it), outside the latency; 0: a seat answers at once."""
        self.errors: Counter[str] = Counter()
        """Problems by kind: the server's error kinds, and the clients' own."""
        self.acked: list[Acked] = []
        """Every command accepted."""
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
        """The version of the update the seat last answered."""
        self.outstanding: deque[float] = deque()
        """When each command not yet answered was sent, oldest first (a socket's commands are
        answered in order)."""
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
            if self.outstanding:
                wait = self.outstanding[0] + PATIENCE - now
                if wait <= 0:
                    self.run.errors["no-reply"] += 1
                    return
            else:
                if now >= self.run.deadline or self.over():
                    return
                wait = self.run.deadline - now
            if self.act_at is not None:
                if now >= self.act_at:
                    self.act_at = None
                    await self._act(connection)
                    continue
                wait = min(wait, self.act_at - now)
            try:
                async with asyncio.timeout(wait):
                    raw = await connection.recv()
            except TimeoutError:
                continue
            if not self._receive(json.loads(raw), time.perf_counter()):
                continue
            if self.failures >= 5:
                self.run.errors["gave-up"] += 1
                return
            if time.perf_counter() < self.run.deadline:
                if not self.run.think:
                    await self._act(connection)
                elif self.act_at is None and self._may_act():
                    pause = self.run.think * self.run.rng.uniform(0.5, 1.5)
                    self.act_at = time.perf_counter() + pause

    def over(self) -> bool:
        """Whether the seat has been pushed the game's outcome."""
        return self.latest is not None and self.latest["outcome"] is not None

    def _receive(self, message: dict[str, Any], arrived: float) -> bool:
        """Note a message; whether the seat may have something new to answer."""
        kind = message["type"]
        if kind == "update":
            version = message["version"]
            self.log.events.extend((item["position"], item["event"]) for item in message["events"])
            self.log.updates.append((version, arrived))
            self.log.version = version
            self.latest = message
            for answer in message.get("results", ()):  # the mover's, carried by its update
                self._answered(answer, arrived)
            return True
        if kind == "result":
            self._answered(message, arrived)
            return True  # the seat may answer an update that came while its command was away
        if kind == "error":
            if self.outstanding:
                self.outstanding.popleft()
            error = message["error"]["kind"]
            self.run.errors[error] += 1
            if error != "version-conflict":
                self.failures += 1
                self.acted_at = -1  # the seat may try again at this version
            return True
        return False

    def _answered(self, answer: dict[str, Any], arrived: float) -> None:
        """Note the answer to the oldest command not yet answered: stored at its version."""
        if self.outstanding:
            sent = self.outstanding.popleft()
            self.run.acked.append(Acked(self.log, answer["version"], sent, arrived))
            self.failures = 0

    def _may_act(self) -> bool:
        """Whether the latest update asks this seat for a command it has not answered, and its
        last command has its answer (one command under way a seat, as the page keeps)."""
        latest = self.latest
        return (
            not self.outstanding
            and latest is not None
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
        self.acted_at = version
        sent = time.perf_counter()
        await self.pace.take()
        choice = self.run.rng.choice(latest["legal"])
        message = {"type": "command", "command": choice["command"], "expected_version": version}
        self.outstanding.append(sent)
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
            where = process_of(game_id, table, entry["seat"], processes, run.route)
            url = run.servers[where].ws_url(game_id)
            players.append((player, player.play(url, entry["token"])))
        await asyncio.gather(*(play for _, play in players))
        if all(player.over() for player, _ in players):
            run.finished += 1
        created = None


async def watch(run: Run, servers: Sequence[ServeProcess]) -> None:
    """Read the servers' CPU at the window's edges and their memory every quarter second in it,
    as ``load.js`` does."""
    window = run.window
    await asyncio.sleep(max(0.0, window.start - time.perf_counter()))
    cpu_before = [server.cpu_seconds() for server in servers]
    busy_before, client_before = busy_cores(), time.process_time()
    while time.perf_counter() < window.end:
        sizes = [server.rss_bytes() for server in servers]
        if all(size is not None for size in sizes):
            total = sum(size for size in sizes if size is not None)
            window.rss = max(window.rss or 0, total)
        await asyncio.sleep(min(0.25, max(0.0, window.end - time.perf_counter())))
    cpu_after = [server.cpu_seconds() for server in servers]
    busy_after, client_after = busy_cores(), time.process_time()
    window.cpu = [
        None if before is None or after is None else after - before
        for before, after in zip(cpu_before, cpu_after, strict=True)
    ]
    window.client_cpu = client_after - client_before
    if busy_before is not None and busy_after is not None:
        ticks = busy_after[1] - busy_before[1]
        window.machine_busy = (busy_after[0] - busy_before[0]) / ticks if ticks else None


async def drive(plan: Plan, servers: Sequence[ServeProcess], seed: int, route: str = "seat") -> Run:
    """Warm the servers up (every game's package imported), create every table's first game,
    then play every table through the warm-up and the window, until every command in flight is
    answered."""
    async with httpx.AsyncClient(timeout=PATIENCE) as http:
        for server in servers:
            for kind in sorted(set(plan.games)):
                (await http.get(f"{server.url}/schemas/{kind}")).raise_for_status()
    run = Run(servers, float("inf"), random.Random(seed), plan.think, route)
    kinds = plan.table_games()
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for address in table_addresses(plan.tables):
            transport = httpx.AsyncHTTPTransport(
                local_address=address,
                verify=False,
                limits=httpx.Limits(keepalive_expiry=KEEP_ALIVE),
            )
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
        started = time.perf_counter()
        run.window.start = started + plan.warmup
        run.window.end = run.deadline = run.window.start + plan.seconds
        watcher = asyncio.create_task(watch(run, servers))
        await asyncio.gather(
            *(
                play_table(run, table, kind, seats, clients[table], firsts[table])
                for table, (kind, seats) in enumerate(zip(kinds, plan.table_seats(), strict=True))
            )
        )
        await watcher
    return run


# -- the replay check ----------------------------------------------------------------------------


def plain(value: object) -> Any:
    """A codec's data as the wire carries it (tuples as lists)."""
    return json.loads(json.dumps(value))


def replay_check(store: EventStore, run: Run, why: dict[str, str] | None = None) -> dict[str, int]:
    """Every game replayed from the store, and every seat's pushed events checked against it;
    ``why`` is given the error of each game that could not be read (by the game's id)."""
    games = GameStore(store, cache=0)
    found: Counter[str] = Counter()
    acked: dict[str, int] = {}
    for command in run.acked:
        game_id = command.log.game_id
        acked[game_id] = max(acked.get(game_id, 0), command.version)
    logs: dict[str, list[SeatLog]] = {}
    for log in run.logs:
        logs.setdefault(log.game_id, []).append(log)
    for game_id in run.games:
        try:
            game = games.load(game_id, verify=True)
        except AvantiError as error:
            found["games unreadable"] += 1
            if why is not None:
                why[game_id] = f"{type(error).__name__}: {error}"[:300]
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
    """The ``share`` quantile (0.5, 0.99) of ``values``, by the nearest rank (as ``load.js``
    takes it); ``None`` if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = -int(-share * len(ordered) // 1)  # the ceiling of share * n
    return ordered[min(len(ordered) - 1, max(0, rank - 1))]


def first_reached(log: SeatLog, version: int) -> float | None:
    """When ``log``'s seat was first pushed an update at ``version`` or later, or ``None``."""
    versions = [at for at, _ in log.updates]
    index = bisect.bisect_left(versions, version)
    return None if index == len(versions) else log.updates[index][1]


def latencies(run: Run) -> tuple[list[float], list[float]]:
    """For the accepted commands sent inside the window: the latencies from the send to the new
    state reaching each other seat of the game (one a seat), and to the mover."""
    logs: dict[str, list[SeatLog]] = {}
    for log in run.logs:
        logs.setdefault(log.game_id, []).append(log)
    others, mover = [], []
    for command in run.acked:
        if not run.window.holds(command.sent):
            continue
        for log in logs[command.log.game_id]:
            reached = first_reached(log, command.version)
            if reached is None:
                continue
            if log is command.log:
                mover.append(reached - command.sent)
            else:
                others.append(reached - command.sent)
    return others, mover


@contextlib.contextmanager
def servers_on(
    database: str, folder: Path, count: int, profile: Path | None
) -> Iterator[list[ServeProcess]]:
    """``count`` server processes on one database; killed on an error, else stopped by the
    caller."""
    started: list[ServeProcess] = []
    try:
        for number in range(count):
            name = f"serve-{number}"
            where = None if profile is None else profile / f"{folder.name}-{name}.txt"
            started.append(ServeProcess(database, folder, name, where))
        yield started
    finally:
        for server in started:
            server.kill()


def measure(
    plan: Plan, configuration: Configuration, folder: Path, database: str, store: EventStore
) -> dict[str, Any]:
    """Play one configuration and check it; its figures."""
    with servers_on(database, folder, configuration.processes, plan.profile) as servers:
        seed = CONFIGURATIONS.index(configuration)
        run = asyncio.run(drive(plan, servers, seed, configuration.route))
        codes = [server.stop() for server in servers]
        logged: Counter[str] = Counter()
        messages: dict[str, str] = {}
        for server in servers:
            logged.update(server.log_counts(messages))
    window = run.window
    others, mover = latencies(run)
    accepted = sum(1 for command in run.acked if window.holds(command.answered))
    cpu = window.cpu
    cpu_total = None if None in cpu else sum(c for c in cpu if c is not None)
    unreadable: dict[str, str] = {}
    check = replay_check(store, run, unreadable)
    problems = sum(check[name] for name in PROBLEMS) + check.get("games unreadable", 0)
    messages.update({f"error:unreadable {game}": text for game, text in unreadable.items()})
    return {
        "configuration": configuration.name,
        "store": configuration.store,
        "processes": configuration.processes,
        "route": configuration.route,
        "games_played": sorted(set(plan.games)),
        "window_seconds": plan.seconds,
        "accepted": accepted,
        "accepted_per_second": accepted / plan.seconds,
        "commands_sent": run.sent,
        "commands_accepted": len(run.acked),
        "latency_samples": len(others),
        "p50_ms": _ms(percentile(others, 0.5)),
        "p90_ms": _ms(percentile(others, 0.9)),
        "p99_ms": _ms(percentile(others, 0.99)),
        "max_ms": _ms(max(others, default=None)),
        "mover_p50_ms": _ms(percentile(mover, 0.5)),
        "mover_p90_ms": _ms(percentile(mover, 0.9)),
        "mover_p99_ms": _ms(percentile(mover, 0.99)),
        "server_cpu_seconds": cpu,
        "cpu_ms_per_command": (
            None if cpu_total is None or not accepted else 1000 * cpu_total / accepted
        ),
        "server_cpu_percent": None if cpu_total is None else 100 * cpu_total / plan.seconds,
        "server_rss_mib": None if window.rss is None else window.rss / 2**20,
        "client_cpu_seconds": window.client_cpu,
        "machine_busy": window.machine_busy,
        "errors": dict(sorted(run.errors.items())),
        "server_log": dict(sorted(logged.items())),
        "server_log_messages": messages,
        "exit_codes": codes,
        "games_created": len(run.games),
        "games_by_kind": dict(Counter(run.games.values())),
        "games_finished": run.finished,
        "replay": check,
        "replay_problems": problems,
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


def heading(plan: Plan) -> dict[str, Any]:
    """What every run's figures start with: the machine and the plan."""
    return {
        "machine": machine(),
        "small": plan.small,
        "seats": plan.seats,
        "tables": plan.tables,
        "warmup": plan.warmup,
        "seconds": plan.seconds,
        "think": plan.think,
        "table_kinds": dict(
            Counter(
                f"{kind}, {n} seats"
                for kind, n in zip(plan.table_games(), plan.table_seats(), strict=True)
            )
        ),
        "configurations": {},
        "notes": {},
    }


Measure = Callable[[Plan, Configuration, Path, str, EventStore], dict[str, Any]]
"""What plays one configuration on its store and gives its figures, as :func:`measure` does
(``beside_bgio.py`` passes one that drives the servers from Node's ``load.js``)."""


def measure_all(plan: Plan, *, round_: int = 0, measure_one: Measure = measure) -> dict[str, Any]:
    """Every configuration of the plan, with the machine (``round_`` names the folders), each
    played by ``measure_one``."""
    results = heading(plan)
    wanted = {configuration.store for configuration in plan.configurations}
    with tempfile.TemporaryDirectory(prefix="avanti-serverload-") as temporary:
        folder = Path(temporary)
        for configuration in plan.configurations:
            if configuration.store != "sqlite":
                continue
            where = folder / f"{configuration.key}-r{round_}"
            where.mkdir()
            path = where / "games.db"
            with SQLiteEventStore(path) as store:
                figures = measure_one(plan, configuration, where, str(path), store)
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
                        name = "load_" + configuration.key.replace("-", "_")
                        cluster.create_database(name)
                        where = folder / f"{configuration.key}-r{round_}"
                        where.mkdir()
                        uri = postgres_uri(cluster, name)
                        with PostgresEventStore(uri) as store:
                            figures = measure_one(plan, configuration, where, uri, store)
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


def _latencies(figures: dict[str, Any], prefix: str) -> str:
    return " / ".join(_figure(figures[f"{prefix}p{share}_ms"]) for share in (50, 90, 99))


def configuration_lines(figures: dict[str, Any]) -> list[str]:
    """One configuration's block of the report."""
    check = figures["replay"]
    busy = figures["machine_busy"]
    cpu = ", ".join("n/a" if c is None else f"{c:.1f} s" for c in figures["server_cpu_seconds"])
    rss = figures["server_rss_mib"]
    return [
        f"{figures['configuration']}",
        f"  accepted commands / s             {figures['accepted_per_second']:,.1f} "
        f"({figures['accepted']:,} in the window; {figures['commands_accepted']:,} accepted of "
        f"{figures['commands_sent']:,} sent in all)",
        f"  to each other seat p50/p90/p99 ms {_latencies(figures, '')} "
        f"(max {_figure(figures['max_ms'])}, {figures['latency_samples']:,} samples)",
        f"  to the mover p50/p90/p99 ms       {_latencies(figures, 'mover_')}",
        f"  server CPU per command (ms)       {_figure(figures['cpu_ms_per_command'])} "
        f"(servers {cpu}, {_figure(figures['server_cpu_percent'])}% of a core)",
        f"  server RSS (MiB)                  {_figure(rss)}",
        f"  errors                            {_count(figures['errors'])}",
        f"  server log                        {_count(figures['server_log'])}; exit codes "
        f"{figures['exit_codes']}",
        *(f"  {kind:<33} {message}" for kind, message in figures["server_log_messages"].items()),
        f"  games                             {figures['games_created']:,} created "
        f"({_count(figures['games_by_kind'])}), {figures['games_finished']:,} finished",
        f"  CPU                               clients {figures['client_cpu_seconds']:.1f} s in "
        "the window; machine busy " + ("n/a" if busy is None else f"{100 * busy:.0f}%"),
        f"  replay check                      {check.get('games', 0):,} games replayed with "
        f"verify=True ({check.get('games unreadable', 0)} unreadable), "
        f"{check.get('seat streams', 0):,} seat streams, "
        f"{check.get('events pushed', 0):,} events pushed: {check['lost']} lost, "
        f"{check['duplicated']} duplicated, {check['corrupted']} corrupted, "
        f"{check['out of order']} out of order, "
        f"{check['acknowledged lost']} acknowledged commands missing",
    ]


def report(results: dict[str, Any]) -> str:
    """The figures as text."""
    found = results["machine"]
    lines = [
        f"Game server under load: {results['seats']} seats at {results['tables']} tables, "
        f"{results['warmup']:g} s of warm-up then {results['seconds']:g} s measured a "
        "configuration" + (" (small)" if results["small"] else ""),
        "tables: " + ", ".join(f"{n} x {kind}" for kind, n in results["table_kinds"].items()),
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
    for figures in results["configurations"].values():
        lines += ["", *configuration_lines(figures)]
    lines.append("")
    clean = sum(
        1 for figures in results["configurations"].values() if not figures["replay_problems"]
    )
    lines.append(
        f"replay check: nothing lost, duplicated or corrupted in {clean} of "
        f"{len(results['configurations'])} configurations"
    )
    return "\n".join(lines)


def add_load_arguments(
    parser: argparse.ArgumentParser,
    *,
    games: str = "all",
    configurations: Sequence[str] = DEFAULT_CONFIGURATIONS,
) -> None:
    """The options of the load, shared with ``beside_bgio.py``, which plays other defaults
    (``games``, ``configurations``: each script's help names its own)."""
    parser.add_argument(
        "--small",
        action="store_true",
        help=f"{SMALL_SEATS} seats at {SMALL_TABLES} tables, {SMALL_WARMUP:g} s + "
        f"{SMALL_SECONDS:g} s a configuration (the test gate's run)",
    )
    parser.add_argument("--seats", type=int, help=f"seats in all (default {DEFAULT_SEATS})")
    parser.add_argument("--tables", type=int, help=f"tables (default {DEFAULT_TABLES})")
    parser.add_argument(
        "--games",
        default=games,
        help="the games the tables play: all (the three in turn) or one of "
        + ", ".join(GAMES)
        + f" (default {games})",
    )
    parser.add_argument(
        "--warmup", type=float, help=f"seconds of warm-up (default {DEFAULT_WARMUP:g})"
    )
    parser.add_argument(
        "--seconds",
        "--duration",
        dest="seconds",
        type=float,
        help=f"seconds measured (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--configurations",
        default=",".join(configurations),
        help="the configurations, comma-separated, of "
        + ", ".join(c.key for c in CONFIGURATIONS)
        + f" (default {','.join(configurations)})",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures as JSON")


def plan_from(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Plan:
    """The plan the parsed options ask for (``parser.error`` on a bad one)."""
    seats = args.seats or (SMALL_SEATS if args.small else DEFAULT_SEATS)
    tables = args.tables or (SMALL_TABLES if args.small else DEFAULT_TABLES)
    warmup = args.warmup if args.warmup is not None else (SMALL_WARMUP if args.small else 10.0)
    seconds = args.seconds or (SMALL_SECONDS if args.small else DEFAULT_SECONDS)
    if tables < 1 or not 3 * tables <= seats <= 5 * tables:
        parser.error(f"--seats must be 3 to 5 times --tables (3 to 5 seats a table), not {seats}")
    if not 0 <= args.think <= 60:
        parser.error(f"--think must be 0 to 60 seconds, not {args.think:g}")
    if not 0 < seconds <= 3600 or not 0 <= warmup <= 3600:
        parser.error("--seconds must be above 0 and --warmup at least 0, both at most 3600")
    games = GAMES if args.games == "all" else (args.games,)
    if args.games != "all" and args.games not in GAMES:
        parser.error(f"--games must be all or one of {', '.join(GAMES)}, not {args.games!r}")
    keys = {c.key: c for c in CONFIGURATIONS}
    chosen = [key.strip() for key in args.configurations.split(",") if key.strip()]
    unknown = [key for key in chosen if key not in keys]
    if unknown or not chosen:
        parser.error(f"--configurations takes {', '.join(keys)}, not {args.configurations!r}")
    configurations = tuple(c for c in CONFIGURATIONS if c.key in chosen)
    return Plan(
        seats,
        tables,
        games,
        warmup,
        seconds,
        configurations,
        args.small,
        args.json,
        args.think,
        getattr(args, "profile", None),
    )


def parse(argv: Sequence[str] | None) -> Plan:
    """The plan the command line asks for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_load_arguments(parser)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="each seat's mean think time before it answers, in seconds (default 0: at once; "
        "each wait is uniform from half to one and a half times it)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="run each server under py-spy record (raw, --idle --threads) into DIR",
    )
    args = parser.parse_args(argv)
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
        args.profile = args.profile.resolve()
    return plan_from(parser, args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    plan = parse(argv)
    results = measure_all(plan)
    print(report(results))
    if plan.json is not None:
        plan.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
