"""Where a server's CPU goes, by area, from a ``py-spy record -f raw`` profile.

``serverload.py --profile DIR`` runs each server under ``py-spy record --nonblocking --threads``
(``--idle`` too when ``AVANTI_PROFILE_IDLE`` is set) and writes one raw profile a server: one
line a distinct stack, ``thread (id): name;frame;...;frame count``. This script sorts the samples
into areas (WebSocket compression, WebSocket framing, HTTP and ASGI, Starlette, JSON, logging,
the store, payload building, the rules, task and thread machinery) by the innermost frame that
names one, and prints each area's share, split by thread (the event loop or a worker thread).
Given ``--cpu-ms`` (the server CPU per command that ``serverload.py`` measured in the same run),
each share is also given in milliseconds of CPU per command.

    python benchmarks/profile_areas.py DIR/sqlite-1-r0-serve-0.txt --cpu-ms 3.6

Samples of threads waiting (a lock, a queue, the event loop's ``select``) count as idle, and are
left out of the shares, when the profile was taken with ``--idle``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

LIBRARY_AREAS = (
    ("WebSocket deflate", ("permessage_deflate", "zlib")),
    ("WebSocket framing and protocol", ("websockets/", "uvicorn/protocols/websockets")),
    ("HTTP parsing (uvicorn)", ("uvicorn/protocols/http", "httptools", "h11/")),
    ("JSON", ("json/", "orjson")),
    ("logging", ("logging/", "avanti/server/log.py")),
    ("store (SQLite, PostgreSQL)", ("avanti/store/sqlite.py", "avanti/store/postgres.py")),
    ("store (GameStore, cache)", ("avanti/store/",)),
    ("Starlette and ASGI wrappers", ("starlette/",)),
    ("asyncio and anyio tasks, thread hops", ("anyio/", "asyncio/", "threading.py", "queue.py")),
)
"""Areas told by the innermost frame of their library, first match from the leaf."""

IDLE_LEAVES = (
    "Condition.wait",
    "Queue.get",
    "select (selectors.py",
    "epoll",
    "Runner.run (asyncio/runners.py",
)
"""Leaves that mean a thread waiting."""


def area_of(frames: Sequence[str]) -> str:
    """The area of one stack (root first)."""
    for frame in reversed(frames):
        for name, marks in LIBRARY_AREAS:
            if any(mark in frame for mark in marks):
                if name == "asyncio and anyio tasks, thread hops" and any(
                    "avanti/server/protocol/wire.py" in inner for inner in frames
                ):
                    break
                return name
        if "avanti/server/protocol/wire.py" in frame or "cattrs" in frame:
            return "payloads (view, events, legal commands)"
        if "avanti/" in frame and "avanti/server/" not in frame and "avanti/cli" not in frame:
            if any("avanti/server/protocol/wire.py" in outer for outer in frames):
                return "payloads (view, events, legal commands)"
            return "rules (execute, replay)"
        if "avanti/server/" in frame:
            return "server code (app, push, bots)"
    return "other (interpreter, imports)"


def read(path: Path, waits: Sequence[str] = ()) -> tuple[Counter[tuple[str, str]], int]:
    """Samples by (thread kind, area), and the idle samples (``waits``: more leaves that mean a
    thread waiting, such as a lock's line)."""
    found: Counter[tuple[str, str]] = Counter()
    idle = 0
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        thread = "event loop" if "MainThread" in frames[0] else "worker threads"
        leaf = frames[-1]
        if any(mark in leaf for mark in (*IDLE_LEAVES, *waits)) or (
            len(frames) == 1 and thread == "event loop"
        ):
            idle += int(count)
            continue
        found[thread, area_of(frames[1:])] += int(count)
    return found, idle


def report(path: Path, cpu_ms: float | None, waits: Sequence[str] = ()) -> str:
    """The table of areas."""
    found, idle = read(path, waits)
    total = sum(found.values())
    if not total:
        return f"{path}: no samples"
    areas: Counter[str] = Counter()
    for (_, area), count in found.items():
        areas[area] += count
    unit = "ms/command" if cpu_ms is not None else ""
    lines = [
        f"{path.name}: {total:,} active samples ({idle:,} idle left out)",
        f"{'area':<42} {'share':>6} {'loop':>6} {'workers':>8} {unit:>11}",
    ]
    for area, count in areas.most_common():
        loop = found["event loop", area] / total
        workers = found["worker threads", area] / total
        share = count / total
        cell = "" if cpu_ms is None else f"{share * cpu_ms:.2f}"
        lines.append(f"{area:<42} {share:>6.1%} {loop:>6.1%} {workers:>8.1%} {cell:>11}")
    loop_total = sum(count for (thread, _), count in found.items() if thread == "event loop")
    lines.append(
        f"{'all':<42} {1:>6.0%} {loop_total / total:>6.1%} {1 - loop_total / total:>8.1%} "
        + ("" if cpu_ms is None else f"{cpu_ms:>11.2f}")
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the areas of each profile given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profiles", type=Path, nargs="+", help="raw py-spy profiles")
    parser.add_argument("--cpu-ms", type=float, help="server CPU ms per command, measured")
    parser.add_argument(
        "--wait",
        action="append",
        default=[],
        help="a leaf frame (e.g. 'sqlite.py:294)') to count as waiting; may be repeated",
    )
    args = parser.parse_args(argv)
    print("\n\n".join(report(path, args.cpu_ms, args.wait) for path in args.profiles))
    return 0


if __name__ == "__main__":
    sys.exit(main())
