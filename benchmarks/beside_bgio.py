"""The game server beside boardgame.io's, in one sitting, under the same load.

boardgame.io's anchor (``../shared/anchors/boardgameio``: a hidden-hand card race, its server in
memory, and ``load.js``, the load: 201 seats at 67 three-player tables, every seat answering at
once, a new match as one ends, 10 s of warm-up then 40 s measured) and a load of the same shape
on ``avanti serve`` are run in turn, ``--rounds`` times (2): boardgame.io, then each of avanti's
configurations (``--configurations``; by default one SQLite process, two with a game's seats
spread over them, two with each game on one, and one PostgreSQL process), then the transport
floor, then boardgame.io again, and so on, so that all see
the same machine. avanti's load comes from ``benchmarks/load.js`` (``--load node``, the
default): ``serverload.py``'s clients, seat for seat, written for Node's ``ws``, a load process
as light as boardgame.io's own runs, near enough (its CPU a move is in the table); ``--load
python`` plays
``serverload.py``'s clients instead (``websockets`` on asyncio, heavier: on two cores they can
hold the server back). Either way the servers are started, measured (their CPU and memory from
``/proc``) and replay-checked as ``serverload.py`` does. The anchor and ``load.js`` are each
copied to a cache folder and ``npm ci`` is run there once (again only when a
``package-lock.json`` changes).

The transport floor (``../shared/anchors/transport-floor``, ``--floor``: a bare Starlette and
uvicorn WebSocket fan-out, no rules, no store, under the same load shape from Node's ``ws``) is
run as its ``run.sh`` runs it, for the measured window's length, when its folder is there.

The table gives, for each server, the median over the rounds (and the range) of accepted moves a
second, the latency from the mover's send to the new state reaching each other seat (p50, p99),
the server's CPU per move, the load process's own CPU per move (so that one sees the client is
no heavier than boardgame.io's) and the server's memory, and each figure as a ratio of
boardgame.io's from the same sitting; then the commands each of avanti's loads kept under way
(their mean over the window) and the errors each load counted. ``--json FILE`` writes every
round's figures.

By Little's law the mean latency is the commands under way divided by the rate. boardgame.io's
card race has one move a match under way at a time; Avanti lets several seats act at once (the
cards laid face down, A8), so its tables keep more commands under way and each waits longer at
the same rate. ``--one-at-a-time`` has each of avanti's tables keep at most one under way, as
the anchor's matches do (seats that may act at once act one after another), for latencies
measured at the anchor's shape.

Run it with ``nox -s serverbench`` or ``python benchmarks/beside_bgio.py`` (``--games all``: the
three games in turn instead of Avanti alone; ``--seats``, ``--warmup``, ``--duration``;
``--anchor DIR``; ``--floor DIR``; ``--cache DIR``).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import serverload  # benchmarks/serverload.py, beside this file
from run import machine

from avanti.store import EventStore

ROOT = Path(__file__).resolve().parent.parent
"""The repository."""

ANCHOR = ROOT.parent / "shared" / "anchors" / "boardgameio"
"""Where the anchor's folder is looked for unless ``--anchor`` says otherwise."""

FLOOR = ROOT.parent / "shared" / "anchors" / "transport-floor"
"""Where the transport floor's folder is looked for unless ``--floor`` says otherwise."""

LOAD = Path(__file__).resolve().parent
"""This folder: ``load.js``, its ``package.json`` and ``package-lock.json``."""

BGIO = "boardgame.io, in memory"
"""The reference row."""

FLOOR_ROW = "transport floor (no rules, no store)"
"""The transport floor's row."""

CONFIGURATIONS = ("sqlite-1", "sqlite-2", "sqlite-2-by-game", "postgres-1")
"""avanti's configurations of a sitting unless ``--configurations`` says otherwise: two SQLite
processes both with a game's seats spread over them and with each game's seats on the process
its id hashes to (as a load balancer routing by the stream's path sends them)."""

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "avanti-serverbench"
"""Where the anchor is copied and its packages installed."""

COLUMNS = (
    ("moves / s", "moves_per_second", "{:,.0f}", True),
    ("p50 ms", "p50_ms", "{:.1f}", False),
    ("p99 ms", "p99_ms", "{:.1f}", False),
    ("CPU ms / move", "cpu_ms_per_move", "{:.2f}", False),
    ("load CPU ms / move", "load_cpu_ms_per_move", "{:.2f}", False),
    ("RSS MiB", "rss_mib", "{:.0f}", False),
)
"""The table's figures: heading, key, format, and whether more is better."""


class Missing(Exception):
    """Something the side-by-side run needs is not on this machine (a one-line reason)."""


def installed(source: Path, cache: Path, name: str, files: Sequence[str]) -> Path:
    """``files`` of ``source`` copied into a folder of the cache, its packages installed there
    once (``npm ci`` from its ``package-lock.json``, or ``npm install`` where it has none); the
    files are copied again each time, the packages only when the lock (or the manifest) changes."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise Missing(f"{tool} is not on PATH: the Node.js loads need it")
    locked = (source / "package-lock.json").is_file()
    manifest = source / ("package-lock.json" if locked else "package.json")
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()[:16]
    folder = cache / f"{name}-{digest}"
    done = folder / ".installed"
    if not done.is_file():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for file in files:
            shutil.copyfile(source / file, folder / file)
        for path in [folder, *folder.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)
        command = "ci" if locked else "install"
        print(f"npm {command} in {folder} (once)", file=sys.stderr, flush=True)
        subprocess.run(
            ["npm", command, "--no-audit", "--no-fund"],
            cwd=folder,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        done.write_text(digest + "\n", encoding="utf-8")
    else:
        for file in files:
            shutil.copyfile(source / file, folder / file)
    return folder


def stop(server: subprocess.Popen[Any]) -> None:
    """Stop a server as SIGTERM asks, killing it when it has not stopped within 10 s."""
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def prepare(anchor: Path, cache: Path) -> Path:
    """The anchor copied into the cache with its packages installed (``npm ci``, once)."""
    if not (anchor / "load.js").is_file() or not (anchor / "package-lock.json").is_file():
        raise Missing(f"the boardgame.io anchor is not at {anchor} (give its folder with --anchor)")
    files = ("package.json", "package-lock.json", "game.js", "server.js", "load.js")
    return installed(anchor, cache, "boardgameio", files)


def prepare_load(cache: Path) -> Path:
    """``load.js`` copied into the cache with ``ws`` installed (``npm ci``, once)."""
    return installed(LOAD, cache, "load", ("package.json", "package-lock.json", "load.js"))


def prepare_floor(floor: Path, cache: Path) -> Path | None:
    """The transport floor copied into the cache with its packages installed, or ``None`` (with
    a line saying why) where its folder is not there."""
    if not all((floor / name).is_file() for name in ("server.py", "load.js", "package.json")):
        print(f"beside_bgio: no transport floor at {floor} (--floor): its row is left out")
        return None
    return installed(floor, cache, "transport-floor", ("package.json", "server.py", "load.js"))


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def run_bgio(folder: Path, plan: serverload.Plan, out: Path) -> dict[str, Any]:
    """One measurement of boardgame.io in memory under ``load.js``: its figures."""
    port = free_port()
    environment = {**os.environ, "NODE_ENV": "production"}
    log = out.with_suffix(".server.log")
    with log.open("wb") as written:
        server = subprocess.Popen(
            ["node", "server.js", "--port", str(port), "--storage", "memory"],
            cwd=folder,
            stdout=written,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=environment,
        )
        try:
            deadline = time.monotonic() + serverload.PATIENCE
            while "READY" not in log.read_text(errors="replace"):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"server.js did not start: {log.read_text()[-500:]}")
                time.sleep(0.05)
            subprocess.run(
                [
                    *("node", "load.js", "--port", str(port), "--seats", str(plan.seats)),
                    *("--warmup", f"{plan.warmup:g}", "--duration", f"{plan.seconds:g}"),
                    *("--out", str(out)),
                ],
                cwd=folder,
                check=True,
                stdout=subprocess.DEVNULL,
                env=environment,
                timeout=plan.warmup + plan.seconds + 120,
            )
        finally:
            stop(server)
    found: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    moves = found["acceptedMoves"]
    return {
        "moves_per_second": found["movesPerS"],
        "p50_ms": found["p50ms"],
        "p90_ms": found["p90ms"],
        "p99_ms": found["p99ms"],
        "cpu_ms_per_move": (
            found["serverCpuPct"] / 100 * found["windowS"] * 1000 / moves if moves else None
        ),
        "load_cpu_ms_per_move": (
            found["loadCpuPct"] / 100 * found["windowS"] * 1000 / moves if moves else None
        ),
        "rss_mib": found["serverRssMaxMiB"],
        "note": "(in memory)",
        "errors": {
            key: found[key]
            for key in ("httpErrors", "stallRetries", "matchesAborted")
            if found.get(key)
        },
        "raw": found,
    }


def avanti_figures(measured: dict[str, Any]) -> dict[str, Any]:
    """A configuration's figures (``serverload.measure``'s, or :func:`measure_with_node`'s) in
    the table's terms."""
    accepted = measured["accepted"]
    return {
        "moves_per_second": measured["accepted_per_second"],
        "p50_ms": measured["p50_ms"],
        "p90_ms": measured["p90_ms"],
        "p99_ms": measured["p99_ms"],
        "cpu_ms_per_move": measured["cpu_ms_per_command"],
        "load_cpu_ms_per_move": (
            1000 * measured["client_cpu_seconds"] / accepted if accepted else None
        ),
        "rss_mib": measured["server_rss_mib"],
        "under_way": measured.get("under_way"),
        "replay_problems": measured["replay_problems"],
        "note": f"{measured['replay_problems']} lost/dup/corrupt",
        "errors": measured["errors"],
        "raw": measured,
    }


def recorded_run(record: dict[str, Any]) -> serverload.Run:
    """What ``load.js --record`` wrote, as the record ``serverload.replay_check`` reads."""
    run = serverload.Run([], 0.0, random.Random(0))
    run.games = dict(record["games"])
    run.logs = [
        serverload.SeatLog(
            seat["game"], seat["seat"], [(position, event) for position, event in seat["events"]]
        )
        for seat in record["seats"]
    ]
    for log, seat in zip(run.logs, record["seats"], strict=True):
        log.version = seat["version"]
    run.acked = [
        serverload.Acked(run.logs[command["seat"]], command["version"], 0.0, 0.0)
        for command in record["acked"]
    ]
    return run


def measure_with_node(
    load: Path,
    plan: serverload.Plan,
    configuration: serverload.Configuration,
    folder: Path,
    database: str,
    store: EventStore,
    *,
    one_at_a_time: bool = False,
) -> dict[str, Any]:
    """One configuration of avanti under ``load.js`` (in the cache folder ``load``): the servers
    started and stopped, and the replay check made, as ``serverload.measure`` does; its figures
    in ``serverload.measure``'s terms, with ``load.js``'s own under ``load``. With
    ``one_at_a_time``, each table keeps at most one command under way (``load.js
    --one-at-a-time``)."""
    out, record = folder / "load.json", folder / "record.json"
    with serverload.servers_on(database, folder, configuration.processes, None) as servers:
        subprocess.run(
            [
                *("node", "load.js", "--port", ",".join(str(server.port) for server in servers)),
                *("--pid", ",".join(str(server.pid) for server in servers)),
                *("--seats", str(plan.seats), "--tables", str(plan.tables)),
                *("--warmup", f"{plan.warmup:g}", "--duration", f"{plan.seconds:g}"),
                *("--game", ",".join(plan.games), "--label", configuration.key),
                *("--route", configuration.route),
                *("--out", str(out), "--record", str(record)),
                *(("--one-at-a-time",) if one_at_a_time else ()),
            ],
            cwd=load,
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=plan.warmup + plan.seconds + 240,
        )
        codes = [server.stop() for server in servers]
        logged: Counter[str] = Counter()
        messages: dict[str, str] = {}
        for server in servers:
            logged.update(server.log_counts(messages))
    found: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    unreadable: dict[str, str] = {}
    recorded = recorded_run(json.loads(record.read_text("utf-8")))
    check = serverload.replay_check(store, recorded, unreadable)
    messages.update({f"error:unreadable {game}": text for game, text in unreadable.items()})
    record.unlink()
    problems = sum(check[name] for name in serverload.PROBLEMS) + check.get("games unreadable", 0)
    return {
        "configuration": configuration.name,
        "store": configuration.store,
        "processes": configuration.processes,
        "route": configuration.route,
        "load": found,
        "accepted": found["accepted"],
        "accepted_per_second": found["moves_per_second"],
        "p50_ms": found["p50_ms"],
        "p90_ms": found["p90_ms"],
        "p99_ms": found["p99_ms"],
        "under_way": found["under_way"],
        "cpu_ms_per_command": found["server_cpu_ms_per_move"],
        "server_rss_mib": found["server_rss_max_mib"],
        "client_cpu_seconds": found["client_cpu_s"],
        "errors": found["errors"],
        "server_log": dict(sorted(logged.items())),
        "server_log_messages": messages,
        "exit_codes": codes,
        "games_created": found["games_created"],
        "games_finished": found["games_finished"],
        "replay": check,
        "replay_problems": problems,
    }


def run_floor(folder: Path, seconds: float) -> dict[str, Any]:
    """One measurement of the transport floor, as its ``run.sh`` makes it: the bare server
    under uvicorn (uvloop, ``websockets-sansio``), its CPU from ``/proc`` around ``load.js``'s
    run, the commands it counted, the load's own CPU."""
    from websockets.sync.client import connect

    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as written:
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "uvicorn", "server:app", "--port", str(port)),
                *("--log-level", "warning", "--loop", "uvloop", "--ws", "websockets-sansio"),
            ],
            cwd=folder,
            stdout=written,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=serverload.child_environment(),
        )
        try:
            deadline = time.monotonic() + serverload.PATIENCE
            while True:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the transport floor did not start: {log.read_text()}")
                time.sleep(0.05)
            before = serverload.proc_cpu_seconds(server.pid)
            done = subprocess.run(
                ["node", "load.js", str(port), f"{seconds:g}"],
                cwd=folder,
                check=True,
                capture_output=True,
                text=True,
                timeout=seconds + 60,
            )
            after = serverload.proc_cpu_seconds(server.pid)
            rss = serverload.proc_rss_bytes(server.pid)
            with connect(f"ws://127.0.0.1:{port}/stats") as stats:
                commands = int(stats.recv())
        finally:
            stop(server)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = None if before is None or after is None else after - before
    return {
        "moves_per_second": commands / seconds,
        "p50_ms": None,
        "p90_ms": None,
        "p99_ms": None,
        "cpu_ms_per_move": None if cpu is None or not commands else 1000 * cpu / commands,
        "load_cpu_ms_per_move": 1000 * found["client_cpu_s"] / max(found["sent"], 1),
        "rss_mib": None if rss is None else rss / 2**20,
        "note": "(no store)",
        "errors": {},
        "raw": {**found, "commands": commands, "server_cpu_seconds": cpu},
    }


def sitting(
    plan: serverload.Plan,
    folder: Path,
    rounds: int,
    scratch: Path,
    load: Path | None,
    floor: Path | None,
    one_at_a_time: bool = False,
) -> dict[str, list[dict[str, Any]]]:
    """Every round: boardgame.io, then each of avanti's configurations (under ``load.js`` in
    the folder ``load``, or ``serverload.py``'s clients when ``None``), then the transport
    floor (when its folder is there)."""
    runs: dict[str, list[dict[str, Any]]] = {BGIO: []}
    for configuration in plan.configurations:
        runs[f"avanti, {configuration.name}"] = []
    if floor is not None:
        runs[FLOOR_ROW] = []
    measure_one: serverload.Measure = (
        serverload.measure
        if load is None
        else functools.partial(measure_with_node, load, one_at_a_time=one_at_a_time)
    )
    for number in range(rounds):
        print(f"round {number + 1}: boardgame.io", file=sys.stderr, flush=True)
        runs[BGIO].append(run_bgio(folder, plan, scratch / f"bgio-r{number}.json"))
        print(f"round {number + 1}: avanti", file=sys.stderr, flush=True)
        measured = serverload.measure_all(plan, round_=number, measure_one=measure_one)
        for name, figures in measured["configurations"].items():
            runs[f"avanti, {name}"].append(avanti_figures(figures))
        if floor is not None:
            print(f"round {number + 1}: the transport floor", file=sys.stderr, flush=True)
            runs[FLOOR_ROW].append(run_floor(floor, plan.seconds))
    return runs


def median(runs: list[dict[str, Any]], key: str) -> float | None:
    """The median of a figure over the rounds, or ``None`` if any round lacks it."""
    values = [run[key] for run in runs]
    if not values or any(value is None for value in values):
        return None
    return float(statistics.median(values))


def table(runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The side-by-side table, medians (ranges) and ratios to boardgame.io."""
    base = runs[BGIO]
    header = ["server"] + [heading for heading, *_ in COLUMNS] + ["replay check"]
    rows = [header]
    for name, measured in runs.items():
        row = [name]
        for _, key, form, _ in COLUMNS:
            value = median(measured, key)
            if value is None:
                row.append("n/a")
                continue
            low = min(run[key] for run in measured)
            high = max(run[key] for run in measured)
            cell = form.format(value)
            if len(measured) > 1:
                cell += f" ({form.format(low)}-{form.format(high)})"
            if measured is not base:
                reference = median(base, key)
                if reference:
                    cell += f" = {value / reference:.2f}x"
            row.append(cell)
        if "replay_problems" in measured[0]:
            problems = sum(run["replay_problems"] for run in measured)
            row.append(f"{problems} lost/dup/corrupt")
        else:
            row.append(measured[0]["note"])
        rows.append(row)
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = []
    for index, row in enumerate(rows):
        lines.append(
            "| "
            + " | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            + " |"
        )
        if index == 0:
            lines.append("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    return lines


def error_lines(runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """What each load counted as errors, over the rounds (for avanti: the server's refusals by
    kind, ``version-conflict`` being the stale commands of simultaneous steps, and the client's
    own: ``connect-failed``, ``closed-<code>``, ``no-reply``, ``gave-up``, ``create-<kind>``)."""
    lines = []
    for name, measured in runs.items():
        counted: Counter[str] = Counter()
        for run in measured:
            counted.update(run["errors"])
        found = ", ".join(f"{kind} {number:,}" for kind, number in sorted(counted.items()))
        lines.append(f"  {name}: {found or 'none'}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sitting and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    serverload.add_load_arguments(parser, games="avanti", configurations=CONFIGURATIONS)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each server (2)")
    parser.add_argument("--anchor", type=Path, default=ANCHOR, help=f"default {ANCHOR}")
    parser.add_argument("--floor", type=Path, default=FLOOR, help=f"default {FLOOR}")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"default {CACHE}")
    parser.add_argument(
        "--load",
        choices=("node", "python"),
        default="node",
        help="what plays avanti's seats: benchmarks/load.js on Node's ws (node, the default) "
        "or serverload.py's clients in this process (python)",
    )
    parser.add_argument(
        "--one-at-a-time",
        action="store_true",
        help="each of avanti's tables keeps at most one command under way, as the anchor's game "
        "does (one card a turn): seats that may act at once act one after another (node load)",
    )
    args = parser.parse_args(argv)
    if args.one_at_a_time and args.load != "node":
        parser.error("--one-at-a-time needs --load node")
    args.think = 0.0
    plan = serverload.plan_from(parser, args)
    if not 1 <= args.rounds <= 10:
        parser.error(f"--rounds must be 1 to 10, not {args.rounds}")
    try:
        folder = prepare(args.anchor.resolve(), args.cache)
        load = prepare_load(args.cache) if args.load == "node" else None
        floor = prepare_floor(args.floor.resolve(), args.cache)
    except Missing as missing:
        print(f"beside_bgio: not measured: {missing}", file=sys.stderr)
        return 1
    before = machine()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="avanti-serverbench-") as scratch:
        runs = sitting(plan, folder, args.rounds, Path(scratch), load, floor, args.one_at_a_time)
    took = time.monotonic() - started
    after = machine()
    games = ", ".join(plan.games)
    first = next(iter(runs.values()))[0]["raw"]
    client = "serverload.py's clients (Python websockets)"
    if load is not None:
        locked = json.loads((load / "package-lock.json").read_text(encoding="utf-8"))
        client = f"load.js on Node's ws {locked['packages']['node_modules/ws']['version']}"
    print(
        f"Side by side: {plan.seats} seats at {plan.tables} tables, "
        + (
            "one command a table at a time,"
            if args.one_at_a_time
            else "every seat answering at once,"
        )
        + f" {plan.warmup:g} s warm-up + {plan.seconds:g} s measured, {args.rounds} round(s) "
        f"alternating; boardgame.io {first['boardgameio']} (card race) beside avanti ({games}, "
        f"its load from {client})"
    )
    print(
        f"machine: {before['cpu']}, {before['cores']} cores, {before['python']}; load average "
        f"{before['load_average']} before, {after['load_average']} after; {took / 60:.1f} min"
    )
    print("medians over the rounds (range), avanti's as a ratio of boardgame.io's:")
    print("\n".join(table(runs)))
    print(
        "load CPU: the load process's own CPU (user + system) in the window per accepted move"
        + (
            f"; the transport floor: its fixed 201 seats at 67 tables, {plan.seconds:g} s, "
            "no warm-up, CPU per command sent"
            if floor is not None
            else ""
        )
    )
    under_way = [
        f"{name} {value:.1f}"
        for name, measured in runs.items()
        if (value := median(measured, "under_way") if "under_way" in measured[0] else None)
        is not None
    ]
    if under_way:
        print(
            "commands under way, the mean over the window (load.js; by Little's law the rate "
            "times the mean latency): " + ", ".join(under_way) + "; boardgame.io's card race "
            "has one move a match at a time, at most one for each of its matches"
        )
    print("errors counted by each load, over the rounds:")
    print("\n".join(error_lines(runs)))
    if plan.json is not None:
        written = {
            "machine": before,
            "load_average_after": after["load_average"],
            "seconds_taken": took,
            "plan": {
                "seats": plan.seats,
                "tables": plan.tables,
                "games": list(plan.games),
                "warmup": plan.warmup,
                "seconds": plan.seconds,
                "rounds": args.rounds,
                "load": args.load,
            },
            "runs": runs,
        }
        plan.json.write_text(json.dumps(written, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
