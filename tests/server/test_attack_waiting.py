"""Finding 11 (its last part) of the attack review: sockets that wait for an open table.

Before, each waiting socket read the table from the store every 0.5 s (about one core at the
800-connection maximum), and its wait counted loop turns, not seconds: every ping ended a turn,
so 595 pings closed a waiting socket as "timed out" after 0.2 s instead of 300 s. Now the
sockets of one table share one read every :data:`~avanti.server.transport.socket.OPEN_POLL_SECONDS`,
and the wait is measured in seconds.

Every test runs a real server and waits for conditions, never for a time.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from avanti.server.table.joining import Joining
from avanti.server.transport.socket import OPEN_POLL_SECONDS
from tests.server.support import Served, open_socket, receive, serving

OPEN_AVANTI = {"game": "avanti", "players": ["Ann", None, None]}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A server with roomy limits, on an SQLite file of its own."""
    with serving(tmp_path / "games.db") as running:
        yield running


def open_table(served: Served) -> Any:
    """A table of Avanti with two open seats; the reply."""
    reply = served.http.post("/games", json=OPEN_AVANTI)
    assert reply.status_code == 201, reply.text
    return reply.json()


def test_11_pings_do_not_use_up_a_waiting_sockets_time(served: Served) -> None:
    created = open_table(served)
    game_id, ann = created["id"], created["seats"][0]["token"]
    with open_socket(served.ws_url(game_id), ann) as socket:
        assert receive(socket)["type"] == "table"
        for _ in range(700):  # 700 turns of the old loop: 350 s counted, in about a second
            socket.send(json.dumps({"type": "ping"}))
            assert receive(socket) == {"type": "pong"}
        assert served.http.post(f"/games/{game_id}/seats", json={"name": "Bob"}).status_code == 201
        told = receive(socket)
        assert (told["type"], told["taken"]) == ("table", 2)  # still waiting, still told


def test_11_the_sockets_of_one_table_share_one_read_of_it(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = open_table(served)
    game_id, ann = created["id"], created["seats"][0]["token"]
    reads = 0
    lock = threading.Lock()
    real = Joining.poll

    def counted(self: Joining, game: str) -> Any:
        nonlocal reads
        with lock:
            reads += 1
        return real(self, game)

    monkeypatch.setattr(Joining, "poll", counted)
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(open_socket(served.ws_url(game_id), token))
            for token in [ann] * 10 + [None] * 10
        ]
        for socket in sockets:
            assert receive(socket)["type"] == "table"
        with lock:
            reads = 0
        counted_from = time.monotonic()
        for socket in sockets:  # each socket waits through a few polls, pinging meanwhile
            for _ in range(3):
                socket.send(json.dumps({"type": "ping"}))
                assert receive(socket) == {"type": "pong"}
        while time.monotonic() - counted_from < 4 * OPEN_POLL_SECONDS:
            sockets[0].send(json.dumps({"type": "ping"}))
            assert receive(sockets[0]) == {"type": "pong"}
        elapsed = time.monotonic() - counted_from
        with lock:
            made = reads
        # one read a poll for the whole table (20 sockets): before, one a poll for each socket
        assert made <= elapsed / OPEN_POLL_SECONDS + 2, (made, elapsed)
        assert made >= 1
        assert served.http.post(f"/games/{game_id}/seats", json={"name": "Bob"}).status_code == 201
        for socket in sockets:
            while (told := receive(socket))["type"] != "table" or told["taken"] != 2:
                assert told["type"] in ("table", "pong"), told
