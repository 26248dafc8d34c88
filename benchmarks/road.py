"""The road of one WebSocket command through ``src/``: the files it passes, and where it turns.

A real server (the app under ``uvicorn_config``, on a loopback port, a fresh SQLite file) seats
three players at an Avanti table, each on a socket of its own. After one warm-up command, one
seat's command is traced from the moment it is sent until every seat has its update: every
function of ``src/avanti`` called meanwhile, in any thread (the event loop, the store's writer,
the worker threads), is noted with the file it is in and the file of ``src/`` nearest below it
on the stack (its caller). Printed:

- the files passed, by wing (the server's transport, runtime, table and protocol; the store;
  the core; the game's own package), each with the functions called in it;
- the calls between files, and each pair of files that call each other both ways (where the
  road turns back).

The page the command starts and ends in (``server/web/play.js``) is a file of the road too: the
count adds it. Nothing here is a test; ``tests/test_benchmarks.py`` runs it once. Run with
``python benchmarks/road.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

import avanti
from avanti.server import create_app
from avanti.server.limits import ServerLimits
from avanti.server.transport.uvicorn import uvicorn_config
from avanti.store import GameStore, SQLiteEventStore

SOURCE = Path(avanti.__file__).resolve().parent
"""``src/avanti``: the files counted."""

PAGE = "server/web/play.js"
"""The page a command starts from and comes back to (not traced: it runs in the browser)."""

PATIENCE = 30.0
"""Seconds to wait for the server or a message."""

WINGS = (
    ("the page", ("server/web/",)),
    ("server: transport", ("server/transport/",)),
    ("server: runtime and shared", ("server/runtime.py", "server/limits.py", "server/log.py")),
    ("server: table", ("server/table/",)),
    ("server: protocol", ("server/protocol/",)),
    ("store", ("store/",)),
    ("core", ("core/",)),
    ("the game's package", ("",)),
)
"""Where each file of the road stands, by the start of its path under ``src/avanti``."""


class Road:
    """The functions of ``src/avanti`` called while :attr:`on`, from every thread."""

    def __init__(self) -> None:
        self.on = False
        self.functions: dict[str, set[str]] = defaultdict(set)
        self.calls: dict[tuple[str, str], int] = defaultdict(int)
        self.order: list[str] = []
        self._lock = threading.Lock()

    def profile(self, frame: FrameType, event: str, arg: object) -> None:
        """A ``setprofile`` hook: note each call into a file of ``src/avanti``."""
        if not self.on or event != "call":
            return
        name = _name(frame)
        if name is None:
            return
        caller = frame.f_back
        while caller is not None and _name(caller) is None:
            caller = caller.f_back
        with self._lock:
            if name not in self.functions:
                self.order.append(name)
            self.functions[name].add(frame.f_code.co_name)
            if caller is not None:
                source = _name(caller)
                if source is not None and source != name:
                    self.calls[(source, name)] += 1


def _name(frame: FrameType) -> str | None:
    """The path under ``src/avanti`` of a frame's file, or ``None`` for a file outside it."""
    filename = frame.f_code.co_filename
    if not filename.startswith(str(SOURCE)):
        return None
    return Path(filename).resolve().relative_to(SOURCE).as_posix()


def wing(name: str) -> str:
    """The part of ``src/avanti`` a file of the road stands in."""
    for title, starts in WINGS:
        if any(name.startswith(start) for start in starts):
            return title
    raise AssertionError(name)  # pragma: no cover - the last wing takes every name


def _receive(socket: ClientConnection) -> Any:
    return json.loads(socket.recv(timeout=PATIENCE))


def _updated(socket: ClientConnection, version: int) -> Any:
    """The seat's first update of ``version`` or later (answers and notices skipped)."""
    while True:
        message = _receive(socket)
        if message.get("type") == "update" and message["version"] >= version:
            return message


def trace(folder: Path) -> Road:
    """Seat three players at a new Avanti table of a real server and trace one command."""
    road = Road()
    threading.setprofile(road.profile)  # every thread started from now on: the server's
    store = SQLiteEventStore(folder / "games.db")
    limits = ServerLimits()
    server = uvicorn.Server(
        uvicorn_config(
            create_app(GameStore(store, hold=True), limits=limits),
            limits,
            host="127.0.0.1",
            port=0,
        )
    )
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + PATIENCE
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not server.started:
            raise RuntimeError("the server did not start")
        port = server.servers[0].sockets[0].getsockname()[1]
        _play(road, port)
    finally:
        threading.setprofile(None)
        server.should_exit = True
        thread.join(PATIENCE)
        store.close()
    return road


def _play(road: Road, port: int) -> None:
    """Create the table over HTTP, open the three sockets, send two commands, the second
    traced until every seat has its update (the legal command sent as the page sends a click:
    its JSON)."""
    import httpx

    reply = httpx.post(
        f"http://127.0.0.1:{port}/games",
        json={"game": "avanti", "players": ["Ann", "Bob", "Cy"]},
        timeout=PATIENCE,
    )
    reply.raise_for_status()
    created = reply.json()
    url = f"ws://127.0.0.1:{port}/games/{created['id']}/stream"
    with contextlib.ExitStack() as opened:
        sockets = [
            opened.enter_context(connect(url, open_timeout=PATIENCE)) for _ in created["seats"]
        ]
        for socket, seat in zip(sockets, created["seats"], strict=True):
            socket.send(json.dumps({"token": seat["token"], "after": 0}))
        updates = [_receive(socket) for socket in sockets]
        for traced in (False, True):
            mover = next(i for i, update in enumerate(updates) if update["legal"])
            update = updates[mover]
            command = {
                "type": "command",
                "expected_version": update["version"],
                "command": update["legal"][0]["command"],
            }
            road.on = traced
            sockets[mover].send(json.dumps(command))
            updates = [_updated(socket, update["version"] + 1) for socket in sockets]
            road.on = False


def report(road: Road) -> list[str]:
    """The lines printed: the files by wing, the calls between files, the turns."""
    names = [PAGE, *road.order]
    by_wing: dict[str, list[str]] = defaultdict(list)
    for name in names:
        by_wing[wing(name)].append(name)
    plumbing = [name for name in names if wing(name) not in ("core", "the game's package")]
    lines = [
        "One WebSocket command of Avanti, from the page to the store and back to every seat:",
        f"files of src/avanti passed: {len(names)} ({len(plumbing)} of the page, the server "
        f"and the store; {len(names) - len(plumbing)} of the core and the game's rules)",
    ]
    for title, _ in WINGS:
        if by_wing[title]:
            lines.append(f"  {title} ({len(by_wing[title])})")
            for name in by_wing[title]:
                called = sorted(road.functions.get(name, {"send, and every message"}))
                lines.append(f"    {name}: {', '.join(called)}")
    lines.append("calls between files (caller -> callee: calls):")
    for (source, target), count in sorted(road.calls.items()):
        lines.append(f"  {source} -> {target}: {count}")
    turns = sorted(
        (source, target)
        for source, target in road.calls
        if source < target and (target, source) in road.calls
    )
    lines.append(f"pairs of files that call each other (the road turns back): {len(turns)}")
    lines.extend(f"  {source} <-> {target}" for source, target in turns)
    return lines


def main(argv: list[str] | None = None) -> int:
    """Trace one command and print its road."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        road = trace(Path(folder))
    print("\n".join(report(road)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
