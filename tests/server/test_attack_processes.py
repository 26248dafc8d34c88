"""Findings 8 and 10 of the server's security review; each test failed on the server before the
fix, and passes now.

8. The server's own streams of a game, its open table ``table.{id}`` and its chat ``chat.{id}``,
   were reachable as games through every URL that takes a game id: a 500 and an error log line
   on every request, and a 500 against a 404 told whether a game's chat had a message. Now each
   such name is refused with the same 404 ``unknown-game``, whether the stream exists or not,
   and nothing is logged as an error.
10. After a SIGKILL of ``avanti serve``, its bot worker processes (the forkserver and its child)
    lived on as orphans. Now every process the server started ends with it.

Nothing waits a fixed time: every wait ends when what it waits for happens (:data:`PATIENCE`
only stops a broken test from hanging).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from avanti.store import UnknownStream
from tests.server.processes import ServeProcess
from tests.server.support import PATIENCE, Served, open_socket, receive, serving

UNKNOWN_GAME = {"error": {"kind": "unknown-game", "message": "there is no such game"}}
"""The one answer to every id that is no game's."""

NOBODY = "0123456789abcdef"
"""A game id no game has."""


def _bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def _next(socket: Any, kind: str) -> Any:
    """The next message of type ``kind`` on ``socket``."""
    while True:
        message = receive(socket)
        if message["type"] == kind:
            return message


def _over_http(served: Served, game: str, token: str | None) -> list[tuple[str, int, Any]]:
    """Every HTTP endpoint that takes a game id, asked about ``game``: what each answered."""
    auth = _bearer(token)
    http = served.http
    replies: dict[str, Callable[[], httpx.Response]] = {
        "GET game": lambda: http.get(f"/games/{game}", headers=auth),
        "GET table": lambda: http.get(f"/games/{game}/table", headers=auth),
        "POST command": lambda: http.post(
            f"/games/{game}/commands", json={"notation": "roll"}, headers=auth
        ),
        "PUT bot": lambda: http.put(
            f"/games/{game}/seats/0/bot", json={"bot": "random"}, headers=auth
        ),
        "DELETE bot": lambda: http.delete(f"/games/{game}/seats/0/bot", headers=auth),
        "POST seats": lambda: http.post(f"/games/{game}/seats", json={"name": "Cy"}),
        "POST start": lambda: http.post(
            f"/games/{game}/start", json={"bot": "random"}, headers=auth
        ),
        "POST rematch": lambda: http.post(f"/games/{game}/rematch", headers=auth),
        "GET play page": lambda: http.get(f"/play/{game}"),
    }
    answers = []
    for name, ask in replies.items():
        reply = ask()
        try:
            body = reply.json()
        except ValueError:
            body = reply.text[:80]
        answers.append((name, reply.status_code, body))
    return answers


def _over_a_socket(served: Served, game: str, token: str | None) -> tuple[str, int, Any]:
    """The socket's answer to a hello for ``game``: the error's status and body (the endpoint
    names the code the socket is closed with)."""
    with open_socket(served.ws_url(game), token) as socket:
        first = receive(socket)
        with pytest.raises(ConnectionClosed) as closed:
            _next(socket, "never")
    code = closed.value.rcvd.code if closed.value.rcvd is not None else None
    body = {"error": first["error"]} if first["type"] == "error" else first["type"]
    return f"socket hello, closed with {code},", first.get("status", 200), body


@pytest.fixture
def served(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Iterator[Served]:
    """A server on an SQLite file of its own, its log captured."""
    caplog.set_level(logging.DEBUG, logger="avanti.server")
    with serving(tmp_path / "games.db") as running:
        yield running


def test_the_servers_own_streams_are_no_games_on_any_endpoint(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    game = served.create("mare", ["Ann", "Bob"])
    ann = game["seats"][0]["token"]
    with open_socket(served.ws_url(game["id"]), ann) as socket:
        assert receive(socket)["type"] == "update"
        socket.send(json.dumps({"type": "chat", "text": "hello"}))
        assert [m["text"] for m in _next(socket, "chat")["messages"]] == ["hello"]
    reply = served.http.post("/games", json={"game": "mare", "players": ["Tina", None]})
    assert reply.status_code == 201, reply.text
    table = reply.json()
    tina = table["seats"][0]["token"]
    stored = {f"chat.{game['id']}": ann, f"table.{table['id']}": tina}
    assert served.store.stream(f"chat.{game['id']}").version == 1  # the message
    assert served.store.stream(f"table.{table['id']}").format == "avanti-table"
    absent = {
        f"table.{game['id']}": ann,
        f"chat.{table['id']}": tina,
        f"chat.{NOBODY}": None,
        f"table.{NOBODY}": None,
    }
    for name in absent:
        with pytest.raises(UnknownStream):
            served.store.stream(name)
    caplog.clear()
    wrong = []
    for name, token in {**stored, **absent}.items():
        answers = [*_over_http(served, name, token), _over_a_socket(served, name, token)]
        for endpoint, status, body in answers:
            if (status, body) != (404, UNKNOWN_GAME):
                wrong.append(f"{endpoint} /games/{name}: {status} {body}")
        if answers[-1][0] != "socket hello, closed with 4404,":
            wrong.append(f"{answers[-1][0]} /games/{name}")
    assert not wrong, "\n".join(wrong)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert errors == []
    # the game and the open table are still served as themselves
    assert served.http.get(f"/games/{game['id']}", headers=_bearer(ann)).json()["seat"] == 0
    assert served.http.get(f"/games/{table['id']}").json()["state"] == "open"


# -- finding 10 ----------------------------------------------------------------------------------

Process = tuple[int, str]
"""A process: its id and its start time (so that a reused id is no survivor)."""


def _processes() -> dict[Process, int]:
    """Every live process (zombies are gone) with its parent's id, read from ``/proc``."""
    found: dict[Process, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path("/proc", entry, "stat").read_text()
        except OSError:  # it ended meanwhile
            continue
        fields = text[text.rindex(")") + 2 :].split()
        state, parent, started = fields[0], int(fields[1]), fields[19]
        if state not in ("Z", "X"):
            found[(int(entry), started)] = parent
    return found


def _descendants(root: int) -> dict[Process, int]:
    """The live processes descended from ``root``, with their parents' ids."""
    processes = _processes()
    ids, found = {root}, {}
    grew = True
    while grew:
        grew = False
        for process, parent in processes.items():
            if parent in ids and process not in found:
                found[process] = parent
                ids.add(process[0])
                grew = True
    return found


def _describe(processes: set[Process]) -> str:
    lines = []
    for pid, _ in sorted(processes):
        with contextlib.suppress(OSError):
            command = Path("/proc", str(pid), "cmdline").read_bytes().replace(b"\0", b" ")
            lines.append(f"{pid}: {command.decode(errors='replace')[:160]}")
    return "\n".join(lines)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes in /proc")
def test_bot_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    server = ServeProcess(str(tmp_path / "games.db"), tmp_path, "serve")
    started: set[Process] = set()
    try:
        reply = httpx.post(
            f"{server.url}/games",
            json={"game": "mare", "players": ["Ann", "Bob"], "bots": {"0": "random"}},
            timeout=PATIENCE,
        )
        assert reply.status_code == 201, reply.text
        deadline = time.monotonic() + PATIENCE
        while True:  # the bot has thought: a worker, a child of the forkserver, is running
            family = _descendants(server.process.pid)
            started = set(family)
            if any(parent != server.process.pid for parent in family.values()):
                break
            assert time.monotonic() < deadline, "no bot worker started"
            time.sleep(0.02)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(PATIENCE)
        deadline = time.monotonic() + PATIENCE
        while survivors := started & set(_processes()):
            if time.monotonic() > deadline:
                raise AssertionError(
                    "processes of the killed server are alive:\n" + _describe(survivors)
                )
            time.sleep(0.02)
    finally:
        server.kill()
        for pid, _ in started & set(_processes()):  # never leave them behind
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
