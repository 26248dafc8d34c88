"""Bots cannot slow people: the server's answers while many games of bots play.

Starts ``avanti serve`` (the ``avanti`` this script imports, or ``--src DIR``: another checkout's
``src``, to measure an older server beside this one) on an SQLite file in a temporary folder,
creates ``--games`` games of five search bots each (19 by default: within one address's creation
limits), and for ``--seconds`` asks, ten times a second, ``GET /health`` and ``GET
/games/{id}`` of one of the games. It prints the latency of those answers (p50, p99, max), how
many bot commands were stored meanwhile, and how many bot choices overran their time (the
server's ``bot-timeout`` log lines).

Run it with ``nox -s botflood`` or ``python benchmarks/botflood.py [--src ../old/src]``; it is
not part of the test gate. The figures are on the performance page.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(src: Path | None, games: int, seconds: float, kind: str) -> dict[str, Any]:
    """One measurement; the figures."""
    import avanti

    source = src if src is not None else Path(avanti.__file__).resolve().parent.parent
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PYTHONPATH": str(source)}
        log_path = Path(folder) / "serve.log"
        with log_path.open("w") as log:
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "avanti",
                    "serve",
                    "--database",
                    f"{folder}/games.db",
                    "--port",
                    str(port),
                ],
                env=env,
                cwd=folder,
                stderr=log,
                stdout=subprocess.DEVNULL,
            )
            try:
                return _measure(port, games, seconds, kind, log_path)
            finally:
                server.terminate()
                server.wait(30)


def _measure(port: int, games: int, seconds: float, kind: str, log: Path) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=30) as http:
        deadline = time.monotonic() + 30
        while True:
            try:
                if http.get("/health").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("avanti serve did not start")
            time.sleep(0.05)
        players = ["Ann", "Bob", "Cy", "Dee", "Eve"]
        ids = []
        for _ in range(games):
            body = {"game": "avanti", "players": players, "bots": dict.fromkeys("01234", kind)}
            reply = http.post("/games", json=body, headers={"Content-Type": "application/json"})
            reply.raise_for_status()
            ids.append(reply.json()["id"])
        started_versions = sum(http.get(f"/games/{i}").json()["version"] for i in ids)
        health: list[float] = []
        reads: list[float] = []
        end = time.monotonic() + seconds
        turn = 0
        while time.monotonic() < end:
            tick = time.monotonic()
            http.get("/health")
            health.append((time.monotonic() - tick) * 1000)
            tick = time.monotonic()
            http.get(f"/games/{ids[turn % len(ids)]}")
            reads.append((time.monotonic() - tick) * 1000)
            turn += 1
            time.sleep(max(0.0, 0.1 - (time.monotonic() - tick)))
        versions = sum(http.get(f"/games/{i}").json()["version"] for i in ids)
    timeouts = sum(1 for line in log.read_text().splitlines() if '"event":"bot-timeout"' in line)
    return {
        "games": games,
        "seconds": seconds,
        "health_ms": _summary(health),
        "read_ms": _summary(reads),
        "events_stored": versions - started_versions,
        "bot_timeouts": timeouts,
    }


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(statistics.median(values), 1),
        "p99": round(percentile(values, 0.99), 1),
        "max": round(max(values), 1),
        "n": len(values),
    }


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, help="the src folder of the avanti to serve")
    parser.add_argument("--games", type=int, default=19, help="games of five bots (19)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds measured (20)")
    parser.add_argument("--bot", default="search", help="the bots' kind (search)")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    args = parser.parse_args()
    figures = run(args.src, args.games, args.seconds, args.bot)
    where = args.src or "this checkout"
    print(f"{args.games} games of five {args.bot} bots, {args.seconds:g} s, served from {where}")
    for name in ("health_ms", "read_ms"):
        found = figures[name]
        print(
            f"  {name[:-3]:<7} p50 {found['p50']:7.1f} ms  p99 {found['p99']:7.1f} ms  "
            f"max {found['max']:7.1f} ms  ({found['n']} requests)"
        )
    print(f"  events stored by the bots meanwhile: {figures['events_stored']}")
    print(f"  bot choices over their time: {figures['bot_timeouts']}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
