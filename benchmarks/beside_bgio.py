"""The game server beside boardgame.io's, in one sitting, under the same load.

boardgame.io's anchor (``../shared/anchors/boardgameio``: a hidden-hand card race, its server in
memory, and ``load.js``, the load: 201 seats at 67 three-player tables, every seat answering at
once, a new match as one ends, 10 s of warm-up then 40 s measured) and ``serverload.py``'s load
of the same shape on ``avanti serve`` are run in turn, ``--rounds`` times (2): boardgame.io, then
each of avanti's configurations, then boardgame.io again, and so on, so that both see the same
machine. The anchor is copied to a cache folder and ``npm ci`` is run there once (again only when
its ``package-lock.json`` changes).

The table gives, for each server, the median over the rounds (and the range) of accepted moves a
second, the latency from the mover's send to the new state reaching each other seat (p50, p99),
the server's CPU per move and its memory, and each of avanti's figures as a ratio of
boardgame.io's from the same sitting. ``--json FILE`` writes every round's figures.

Run it with ``nox -s serverbench`` or ``python benchmarks/beside_bgio.py`` (``--games all``: the
three games in turn instead of Avanti alone; ``--anchor DIR``; ``--cache DIR``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import serverload  # benchmarks/serverload.py, beside this file
from run import machine

ROOT = Path(__file__).resolve().parent.parent
"""The repository."""

ANCHOR = ROOT.parent / "shared" / "anchors" / "boardgameio"
"""Where the anchor's folder is looked for unless ``--anchor`` says otherwise."""

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "avanti-serverbench"
"""Where the anchor is copied and its packages installed."""

COLUMNS = (
    ("moves / s", "moves_per_second", "{:,.0f}", True),
    ("p50 ms", "p50_ms", "{:.1f}", False),
    ("p99 ms", "p99_ms", "{:.1f}", False),
    ("CPU ms / move", "cpu_ms_per_move", "{:.2f}", False),
    ("RSS MiB", "rss_mib", "{:.0f}", False),
)
"""The table's figures: heading, key, format, and whether more is better."""


class Missing(Exception):
    """Something the side-by-side run needs is not on this machine (a one-line reason)."""


def prepare(anchor: Path, cache: Path) -> Path:
    """The anchor copied into the cache with its packages installed (``npm ci``, once)."""
    if not (anchor / "load.js").is_file() or not (anchor / "package-lock.json").is_file():
        raise Missing(f"the boardgame.io anchor is not at {anchor} (give its folder with --anchor)")
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise Missing(f"{tool} is not on PATH: the boardgame.io anchor needs Node.js")
    lock = hashlib.sha256((anchor / "package-lock.json").read_bytes()).hexdigest()[:16]
    folder = cache / f"boardgameio-{lock}"
    done = folder / ".installed"
    if not done.is_file():
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(anchor, folder, ignore=shutil.ignore_patterns("node_modules", "results"))
        for path in [folder, *folder.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)
        print(f"npm ci in {folder} (once)", file=sys.stderr, flush=True)
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=folder,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        done.write_text(lock + "\n", encoding="utf-8")
    else:
        for name in ("game.js", "server.js", "load.js"):
            shutil.copyfile(anchor / name, folder / name)
    return folder


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
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
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
        "rss_mib": found["serverRssMaxMiB"],
        "raw": found,
    }


def avanti_figures(measured: dict[str, Any]) -> dict[str, Any]:
    """A configuration's figures from ``serverload.measure`` in the table's terms."""
    return {
        "moves_per_second": measured["accepted_per_second"],
        "p50_ms": measured["p50_ms"],
        "p90_ms": measured["p90_ms"],
        "p99_ms": measured["p99_ms"],
        "cpu_ms_per_move": measured["cpu_ms_per_command"],
        "rss_mib": measured["server_rss_mib"],
        "replay_problems": measured["replay_problems"],
        "raw": measured,
    }


def sitting(plan: serverload.Plan, folder: Path, rounds: int, scratch: Path) -> dict[str, Any]:
    """Every round: boardgame.io, then each of avanti's configurations."""
    runs: dict[str, list[dict[str, Any]]] = {"boardgame.io, in memory": []}
    for configuration in plan.configurations:
        runs[f"avanti, {configuration.name}"] = []
    for number in range(rounds):
        print(f"round {number + 1}: boardgame.io", file=sys.stderr, flush=True)
        runs["boardgame.io, in memory"].append(
            run_bgio(folder, plan, scratch / f"bgio-r{number}.json")
        )
        print(f"round {number + 1}: avanti", file=sys.stderr, flush=True)
        measured = serverload.measure_all(plan, round_=number)
        for name, figures in measured["configurations"].items():
            runs[f"avanti, {name}"].append(avanti_figures(figures))
    return runs


def median(runs: list[dict[str, Any]], key: str) -> float | None:
    """The median of a figure over the rounds, or ``None`` if any round lacks it."""
    values = [run[key] for run in runs]
    if not values or any(value is None for value in values):
        return None
    return float(statistics.median(values))


def table(runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The side-by-side table, medians (ranges) and ratios to boardgame.io."""
    base = runs["boardgame.io, in memory"]
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
        if measured is base:
            row.append("(in memory)")
        else:
            problems = sum(run["replay_problems"] for run in measured)
            row.append(f"{problems} lost/dup/corrupt")
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sitting and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    serverload.add_load_arguments(parser)
    parser.set_defaults(games="avanti")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each server (2)")
    parser.add_argument("--anchor", type=Path, default=ANCHOR, help=f"default {ANCHOR}")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"default {CACHE}")
    args = parser.parse_args(argv)
    args.think = 0.0
    plan = serverload.plan_from(parser, args)
    if not 1 <= args.rounds <= 10:
        parser.error(f"--rounds must be 1 to 10, not {args.rounds}")
    try:
        folder = prepare(args.anchor.resolve(), args.cache)
    except Missing as missing:
        print(f"beside_bgio: not measured: {missing}", file=sys.stderr)
        return 1
    before = machine()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="avanti-serverbench-") as scratch:
        runs = sitting(plan, folder, args.rounds, Path(scratch))
    took = time.monotonic() - started
    after = machine()
    games = ", ".join(plan.games)
    print(
        f"Side by side: {plan.seats} seats at {plan.tables} tables, every seat answering at once,"
        f" {plan.warmup:g} s warm-up + {plan.seconds:g} s measured, {args.rounds} round(s) "
        f"alternating; boardgame.io {runs['boardgame.io, in memory'][0]['raw']['boardgameio']} "
        f"(card race) beside avanti ({games})"
    )
    print(
        f"machine: {before['cpu']}, {before['cores']} cores, {before['python']}; load average "
        f"{before['load_average']} before, {after['load_average']} after; {took / 60:.1f} min"
    )
    print("medians over the rounds (range), avanti's as a ratio of boardgame.io's:")
    print("\n".join(table(runs)))
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
            },
            "runs": runs,
        }
        plan.json.write_text(json.dumps(written, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
