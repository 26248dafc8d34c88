"""One test (or more) for every finding of the server's attack review: each one failed on the
server before the table core, and passes now.

1. one ``command_id`` racing with four different commands (SQLite across two processes,
   PostgreSQL across two processes, and over WebSockets); 2. the same id reused one after the
   other; 3. the store calls of one command; 4. a lobby that replays nothing, forgets old games
   and caps each address; 5. cross-site requests; 6. huge digit strings; 7. a token in a
   WebSocket URL; 8. slow clients under ``avanti serve``'s settings; 9. bots off the request
   path (10., a page that fetches nothing per change, is ``tests/browser/test_no_fetch.py``).

The file keeps its own small helpers (a server in a thread, ``avanti serve`` in a child process,
limits built from the fields the server knows) so that it also runs against an older server.
Nothing waits a fixed time: every wait ends when what it waits for happens (:data:`PATIENCE`
only stops a broken test from hanging).
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import multiprocessing
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
import types
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import httpx
import psycopg
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from avanti.server import ServerLimits, create_app
from avanti.store import EventStore, GameStore, SQLiteEventStore
from tests.server.support import answer
from tests.store.pg import Cluster, postgres_cluster, postgres_dsn

__all__ = ["postgres_cluster", "postgres_dsn"]

PATIENCE = 60.0
"""How long a test waits for something that should happen at once (a guard, never a measure)."""

_RUNNING = re.compile(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")


def limits(**changed: Any) -> ServerLimits:
    """Roomy limits with ``changed``, keeping only the limits this server knows."""
    known = attrs.fields_dict(ServerLimits)
    roomy: dict[str, Any] = {
        "commands_per_second": 10_000.0,
        "command_burst": 10_000,
        "games_per_second": 10_000.0,
        "games_burst": 10_000,
        "games_per_client": 10_000,
        "messages_per_second": 10_000.0,
        "message_burst": 10_000,
    }
    roomy.update(changed)
    return ServerLimits(**{name: value for name, value in roomy.items() if name in known})


def wait_for(condition: Callable[[], Any], what: str) -> None:
    """Wait until ``condition()`` holds; fail after :data:`PATIENCE` seconds."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.005)


def bearer(token: str) -> dict[str, str]:
    """The header that carries ``token``."""
    return {"Authorization": f"Bearer {token}"}


class InThread:
    """A uvicorn server in a thread of this process, on a free loopback port."""

    def __init__(self, config: uvicorn.Config) -> None:
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)
        self.thread.start()
        wait_for(lambda: self.server.started or not self.thread.is_alive(), "the server")
        assert self.server.started, "the server did not start"
        self.port: int = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=PATIENCE)

    def ws_url(self, game_id: str) -> str:
        """The address of a game's stream."""
        return f"ws://127.0.0.1:{self.port}/games/{game_id}/stream"

    def stop(self) -> None:
        """Stop the server gracefully."""
        self.http.close()
        self.server.should_exit = True
        self.thread.join(PATIENCE)


@contextlib.contextmanager
def serving(
    store: EventStore | GameStore, served_limits: ServerLimits | None = None, think: float = 5.0
) -> Iterator[InThread]:
    """The app over ``store`` (left open) under uvicorn in a thread; stopped on exit."""
    app = create_app(store, limits=served_limits or limits(), bot_think_seconds=think)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_config=None, access_log=False, lifespan="on"
    )
    running = InThread(config)
    try:
        yield running
    finally:
        running.stop()


class Serve:
    """``python -m avanti serve --database DATABASE --port 0`` in a child process, its JSON log
    lines in a file of ``folder``."""

    def __init__(self, database: str, folder: Path, name: str) -> None:
        self.log = folder / f"{name}.log"
        self._log = self.log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "avanti", "serve", "--database", database, "--port", "0"],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.port = 0
        self.url = ""

    def ready(self) -> Serve:
        """Wait until the server listens; itself."""
        found: list[int] = []

        def started() -> bool:
            match = _RUNNING.search(self.log.read_text(encoding="utf-8", errors="replace"))
            if match is not None:
                found.append(int(match.group(1)))
            return bool(found) or self.process.poll() is not None

        wait_for(started, "avanti serve to start")
        if not found:
            self.kill()
            raise AssertionError(f"avanti serve did not start:\n{self.log.read_text()[-2000:]}")
        self.port = found[0]
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    def kill(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL if it lingers)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(PATIENCE)
            except subprocess.TimeoutExpired:  # pragma: no cover - a server that hangs
                self.process.kill()
                self.process.wait(PATIENCE)
        self._log.close()


def _for_a_command() -> bool:
    """Whether the calling thread is serving a command (inside the table core's ``act``), not
    pushing updates (the hub's watcher may load a game it was told of meanwhile)."""
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_name in ("act", "act_soon", "_execute") and code.co_filename.endswith(
            ("tables.py", "master.py", "app.py")
        ):
            return True
        frame = frame.f_back
    return False


def counted(store: Any) -> collections.Counter[str]:
    """Count the calls of ``store``'s public methods (wrapped on the instance) made for a
    command (see :func:`_for_a_command`), with the ``GameStore``'s own road to an append
    (``_append_trusted``)."""
    calls: collections.Counter[str] = collections.Counter()
    appends = ("append_soon", "_append_trusted")  # begun now and answered later: one append
    for name in dir(type(store)):
        method = getattr(store, name)
        if (name.startswith("_") and name not in appends) or not callable(method):
            continue

        def wrapper(*args: Any, _name: str = name, _method: Any = method, **kw: Any) -> Any:
            if _for_a_command():
                calls["append" if _name in appends else _name] += 1
            return _method(*args, **kw)

        setattr(store, name, wrapper)
    return calls


def seen_by(url: str, game_id: str, token: str) -> Any:
    """What a seat is served: its version, view, legal commands and events."""
    reply = httpx.get(f"{url}/games/{game_id}", headers=bearer(token), timeout=PATIENCE)
    assert reply.status_code == 200, reply.text
    body = reply.json()
    return {key: body[key] for key in ("version", "view", "legal", "events", "outcome")}


def avanti_game(url: str) -> tuple[str, list[str], list[str]]:
    """A new game of Avanti for three people: its id, its seats' tokens, and four of the first
    seat's
    legal commands (A-rules: the first seat places its marker, several places being legal)."""
    reply = httpx.post(
        f"{url}/games",
        json={"game": "avanti", "players": ["Ann", "Bob", "Cy"]},
        timeout=PATIENCE,
    )
    assert reply.status_code == 201, reply.text
    created = reply.json()
    tokens = [seat["token"] for seat in created["seats"]]
    legal = [item["notation"] for item in seen_by(url, created["id"], tokens[0])["legal"]]
    assert len(legal) >= 4, legal
    return created["id"], tokens, legal[:4]


def race(urls: list[str], game_id: str, token: str, notations: list[str]) -> list[Any]:
    """Four concurrent POSTs of one seat with one ``command_id`` and different commands, sent
    to ``urls`` in turn; each (status, body)."""
    gate = threading.Barrier(len(notations))
    replies: list[Any] = [None] * len(notations)

    def send(index: int) -> None:
        with httpx.Client(timeout=PATIENCE) as client:
            gate.wait(PATIENCE)
            reply = client.post(
                f"{urls[index % len(urls)]}/games/{game_id}/commands",
                json={"notation": notations[index], "command_id": "same-id"},
                headers=bearer(token),
            )
            replies[index] = (reply.status_code, reply.json())

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(notations))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(PATIENCE)
    return replies


def check_race(replies: list[Any], stored: Any, served: Any) -> None:
    """Exactly one command was acknowledged, the others refused as a reused id; the stored log
    verifies and ends with what was acknowledged, and the server serves what is stored."""
    statuses = sorted(status for status, _ in replies)
    assert statuses == [200, 409, 409, 409], replies
    kinds = [body["error"]["kind"] for status, body in replies if status == 409]
    assert kinds == ["command-id-reused"] * len(kinds)
    accepted = [body for status, body in replies if status == 200]
    assert all(body == accepted[0] for body in accepted), "two commands acknowledged"
    assert stored.version == accepted[0]["version"]
    codec = type(stored).rules.codec
    events = [json.loads(json.dumps(codec.event_to_data(event))) for event in stored.events]
    assert [item["event"] for item in accepted[0]["events"]] == events[-1:]
    assert served["version"] == stored.version
    assert served["view"] == json.loads(json.dumps(codec.unstructure(stored.view(0))))


def races_across_two_processes(database: str, folder: Path, open_store: Any) -> None:
    """Three races on two ``avanti serve`` processes of ``database`` (each request of a race to
    one of them in turn); then each stored log against what was acknowledged and served, and
    what a seat sees after a restart."""
    first = Serve(database, folder, "first")
    second = Serve(database, folder, "second")  # both start at once
    raced = []
    try:
        first.ready()
        second.ready()
        for _ in range(3):
            game_id, (token, *_), notations = avanti_game(first.url)
            replies = race([first.url, second.url], game_id, token, notations)
            served = seen_by(first.url, game_id, token)
            assert seen_by(second.url, game_id, token) == served
            raced.append((game_id, token, replies, served))
    finally:
        first.kill()
        second.kill()
    with contextlib.closing(open_store(database)) as store:
        for game_id, _, replies, served in raced:
            check_race(replies, GameStore(store).load(game_id, verify=True), served)
    again = Serve(database, folder, "again").ready()  # a restart changes nothing a seat sees
    try:
        for game_id, token, _, served in raced:
            assert seen_by(again.url, game_id, token) == served
    finally:
        again.kill()


def test_racing_commands_with_one_id_across_two_sqlite_processes(tmp_path: Path) -> None:
    races_across_two_processes(str(tmp_path / "games.db"), tmp_path, SQLiteEventStore)


def _uri(cluster: Cluster, name: str) -> str:
    params = psycopg.conninfo.conninfo_to_dict(cluster.dsn_for(name))
    query = urllib.parse.urlencode({"host": params["host"], "port": params["port"]})
    return f"postgresql://{params['user']}@/{params['dbname']}?{query}"


def test_racing_commands_with_one_id_across_two_postgresql_processes(
    postgres_cluster: Cluster, tmp_path: Path
) -> None:
    from avanti.cli.serve import open_store

    postgres_cluster.create_database("findings_race")
    races_across_two_processes(_uri(postgres_cluster, "findings_race"), tmp_path, open_store)


def socket_race(served: InThread, store: EventStore) -> None:
    """Four sockets of one seat send one ``command_id`` with different commands at once."""
    game_id, (token, *_), notations = avanti_game(served.url)
    with contextlib.ExitStack() as opened:
        sockets = [
            opened.enter_context(connect(served.ws_url(game_id), open_timeout=PATIENCE))
            for _ in notations
        ]
        for client in sockets:
            client.send(json.dumps({"token": token, "after": 0}))
            assert json.loads(client.recv(timeout=PATIENCE))["type"] == "update"
        for client, notation in zip(sockets, notations, strict=True):
            client.send(json.dumps({"type": "command", "notation": notation, "command_id": "s"}))
        replies = []
        for client in sockets:
            replies.append(answer(client))
    seen = seen_by(served.url, game_id, token)
    stored = GameStore(store).load(game_id, verify=True)
    # as in check_race: exactly one result, the one stored command's; every error a reused id
    errors = [reply for reply in replies if reply["type"] == "error"]
    assert {(e["status"], e["error"]["kind"]) for e in errors} <= {(409, "command-id-reused")}
    results = [reply for reply in replies if reply["type"] == "result"]
    assert len(results) == 1, replies
    assert len(results) + len(errors) == len(replies)
    assert all(result == results[0] for result in results), "two commands acknowledged"
    assert results[0]["version"] == stored.version == seen["version"]
    assert stored.version == 6  # five opening events, then the one command (A-rules)
    codec = type(stored).rules.codec
    assert seen["view"] == json.loads(json.dumps(codec.unstructure(stored.view(0))))


def test_racing_commands_with_one_id_over_websockets(tmp_path: Path) -> None:
    with (
        contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store,
        serving(store) as served,
    ):
        for _ in range(3):  # three games, three races
            socket_race(served, store)


def test_an_id_reused_for_another_command_later_is_refused_and_a_retry_answered_alike(
    tmp_path: Path,
) -> None:
    with contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store:
        with serving(store) as served:
            game_id, (token, *_), notations = avanti_game(served.url)
            url = f"/games/{game_id}/commands"

            def post(notation: str) -> httpx.Response:
                body = {"notation": notation, "command_id": "once"}
                return served.http.post(url, json=body, headers=bearer(token))

            first = post(notations[0])
            assert first.status_code == 200, first.text
            legal_now = first.json()["legal"][0]["notation"]  # A-rules: a card to play next
            other = post(legal_now)
            assert other.status_code == 409, other.text
            assert other.json()["error"]["kind"] == "command-id-reused"
            retry = post(notations[0])
            assert retry.status_code == 200
            assert retry.json() == first.json()
        assert GameStore(store).load(game_id).version == first.json()["version"]


def test_an_id_reused_for_a_command_no_longer_legal_is_refused(tmp_path: Path) -> None:
    with (
        contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store,
        serving(store) as served,
    ):
        game_id, (token, *_), notations = avanti_game(served.url)
        url = f"/games/{game_id}/commands"
        headers = bearer(token)
        first = served.http.post(
            url, json={"notation": notations[0], "command_id": "once"}, headers=headers
        )
        assert first.status_code == 200, first.text
        # another marker: no longer legal (the seat placed its marker), and not the retry
        other = served.http.post(
            url, json={"notation": notations[1], "command_id": "once"}, headers=headers
        )
        assert other.status_code == 409, other.text
        assert other.json()["error"]["kind"] == "command-id-reused"


def test_one_command_over_http_and_over_a_socket_makes_one_load(tmp_path: Path) -> None:
    """A command on a game the server holds (it created it, or read it once) costs one append
    and no read: the append itself checks that nobody else wrote meanwhile (the version and the
    record's metadata, in its transaction)."""
    with contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store:
        calls = counted(store)
        with serving(store) as served:
            game_id, tokens, notations = avanti_game(served.url)
            calls.clear()
            reply = served.http.post(
                f"/games/{game_id}/commands",
                json={"notation": notations[0], "command_id": "http-1"},
                headers=bearer(tokens[0]),
            )
            assert reply.status_code == 200, reply.text
            http_calls = dict(calls)
            waiting = served.http.get(f"/games/{game_id}").json()["waiting"]
            with connect(served.ws_url(game_id), open_timeout=PATIENCE) as client:
                client.send(json.dumps({"token": tokens[waiting[0]], "after": 0}))
                update = json.loads(client.recv(timeout=PATIENCE))
                notation = update["legal"][0]["notation"]
                calls.clear()
                message = {"type": "command", "notation": notation, "command_id": "socket-1"}
                client.send(json.dumps(message))
                assert answer(client)["type"] == "result"
                socket_calls = dict(calls)
    for made in (http_calls, socket_calls):
        assert made == {"append": 1}, made


def _for_the_lobby() -> bool:
    """Whether the calling thread is listing the lobby (inside ``lobby.py``'s ``lobby``), not
    pushing updates (the hub's follower may still load a game whose last move it was told of)."""
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "lobby" and code.co_filename.endswith("lobby.py"):
            return True
        frame = frame.f_back
    return False


class CountingGames(GameStore):
    """A game store that counts the loads made for the lobby."""

    loads = 0

    def load(self, game_id: str, *, verify: bool = False) -> Any:
        """Load, counted when the lobby asks."""
        if _for_the_lobby():
            CountingGames.loads += 1
        return super().load(game_id, verify=verify)


def test_the_lobby_replays_nothing_and_shows_finished_games_as_over(tmp_path: Path) -> None:
    with contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store:
        games = CountingGames(store)
        with serving(games, think=5.0) as served:
            bots = {"0": "random", "1": "random"}
            over = [
                served.http.post(
                    "/games", json={"game": "mare", "players": ["A", "B"], "bots": bots}
                )
                for _ in range(3)
            ]
            playing = [
                served.http.post("/games", json={"game": "mare", "players": ["A", "B"]})
                for _ in range(5)
            ]
            ids = [reply.json()["id"] for reply in over]

            def finished() -> bool:
                return all(served.http.get(f"/games/{i}").json()["outcome"] for i in ids)

            wait_for(finished, "the bots to finish their games")
            calls = counted(store)
            CountingGames.loads = 0
            lobby = served.http.get("/games").json()["games"]
            assert CountingGames.loads == 0
            assert calls["read"] == 0
        listed = {entry["id"]: entry["over"] for entry in lobby}
        assert {i: listed.get(i) for i in ids} == dict.fromkeys(ids, True)
        assert all(listed[reply.json()["id"]] is False for reply in playing)
        for game_id in ids:
            assert store.stream(game_id).metadata.get("outcome") is not None


def test_a_game_not_moved_in_lobby_seconds_leaves_the_lobby_and_is_still_served(
    tmp_path: Path,
) -> None:
    with (
        contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store,
        serving(store, limits(lobby_seconds=1.0)) as served,
    ):
        created = served.http.post("/games", json={"game": "mare", "players": ["A", "B"]})
        game_id = created.json()["id"]

        def listed() -> bool:
            return any(g["id"] == game_id for g in served.http.get("/games").json()["games"])

        wait_for(lambda: not listed(), "the game to leave the lobby")
        reply = served.http.get(f"/games/{game_id}")
        assert reply.status_code == 200
        assert reply.json()["id"] == game_id


def test_a_flood_of_games_from_one_address_stops_at_its_cap(tmp_path: Path) -> None:
    with (
        contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store,
        serving(store, limits(games_per_client=3, list_limit=5)) as served,
    ):
        body = {"game": "mare", "players": ["A", "B"]}
        elsewhere = httpx.Client(
            base_url=served.url,
            timeout=PATIENCE,
            transport=httpx.HTTPTransport(local_address="127.0.0.2"),
        )
        with elsewhere:
            theirs = [elsewhere.post("/games", json=body).json()["id"] for _ in range(2)]
        statuses = [served.http.post("/games", json=body) for _ in range(6)]
        assert [reply.status_code for reply in statuses] == [201] * 3 + [429] * 3
        assert statuses[3].json()["error"]["kind"] == "rate-limited"
        listed = [game["id"] for game in served.http.get("/games").json()["games"]]
        assert set(theirs) <= set(listed)


def test_cross_site_requests_create_nothing(tmp_path: Path) -> None:
    body = json.dumps({"game": "mare", "players": ["A", "B"]})
    with (
        contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store,
        serving(store) as served,
    ):
        plain = served.http.post("/games", content=body, headers={"Content-Type": "text/plain"})
        assert plain.status_code == 415
        assert plain.json()["error"]["kind"] == "unsupported-media-type"
        evil = served.http.post(
            "/games",
            content=body,
            headers={"Content-Type": "application/json", "Origin": "http://evil.example"},
        )
        assert evil.status_code == 403
        assert evil.json()["error"]["kind"] == "cross-origin"
        assert served.http.get("/games").json()["games"] == []
        same = served.http.post(
            "/games",
            content=body,
            headers={"Content-Type": "application/json", "Origin": served.url},
        )
        assert same.status_code == 201, same.text
        assert len(served.http.get("/games").json()["games"]) == 1


@pytest.mark.parametrize("digits", [4_301, 10_000])
def test_a_bot_seat_of_thousands_of_digits_is_a_bad_request(tmp_path: Path, digits: int) -> None:
    with (
        contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store,
        serving(store) as served,
    ):
        body = {"game": "mare", "players": ["A", "B"], "bots": {"1" * digits: "random"}}
        reply = served.http.post("/games", json=body)
        assert reply.status_code == 400, reply.text
        assert reply.json()["error"]["kind"] == "bad-request"
        assert served.http.get("/games").json()["games"] == []


def test_a_token_in_a_stream_url_is_refused_and_never_logged(tmp_path: Path) -> None:
    server = Serve(str(tmp_path / "games.db"), tmp_path, "serve").ready()
    secret = "SECRET" + "x" * 26
    try:
        game_id, _, _ = avanti_game(server.url)
        address = f"ws://127.0.0.1:{server.port}/games/{game_id}/stream?token={secret}"
        with connect(address, open_timeout=PATIENCE) as client:  # refused before the hello
            message = json.loads(client.recv(timeout=PATIENCE))
            assert message["type"] == "error"
            assert message["error"]["kind"] == "bad-request"
            with pytest.raises(ConnectionClosed) as closed:
                client.recv(timeout=PATIENCE)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 4400
        reply = httpx.get(f"{server.url}/games/{game_id}?token={secret}", timeout=PATIENCE)
        assert reply.status_code == 200
        wait_for(lambda: "/stream" in server.log.read_text(), "the stream's log line")
    finally:
        server.kill()
    text = server.log.read_text()
    assert "/stream" in text
    assert secret not in text


@contextlib.contextmanager
def guarded(tmp_path: Path, **changed: Any) -> Iterator[InThread]:
    """The app under ``avanti serve``'s uvicorn configuration, in a thread."""
    from avanti.server.transport.uvicorn import uvicorn_config

    served_limits = limits(**changed)
    with contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store:
        app = create_app(store, limits=served_limits)
        running = InThread(uvicorn_config(app, served_limits, host="127.0.0.1", port=0))
        try:
            yield running
        finally:
            running.stop()


def closed_by_server(client: socket.socket) -> bool:
    """Whether the server closed ``client``'s connection (looked at without waiting)."""
    readable, _, _ = select.select([client], [], [], 0)
    if not readable:
        return False
    try:
        return client.recv(4096) == b""
    except OSError:
        return True


def test_a_client_trickling_its_headers_is_cut_off(tmp_path: Path) -> None:
    with guarded(tmp_path, header_timeout=1.0, body_timeout=30.0) as served:
        request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 400 + b"\r\n\r\n"
        with socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE) as client:
            started = time.monotonic()
            sent = 0
            cut = False
            while sent < len(request) and not cut:
                try:
                    client.send(request[sent : sent + 1])
                except OSError:
                    cut = True
                    break
                sent += 1
                select.select([client], [], [], 0.05)  # one byte at a time, slowly
                cut = closed_by_server(client)
            assert cut, "the server kept the trickling client"
            assert sent < len(request)
            assert time.monotonic() - started >= 0.9
        assert served.http.get("/health").status_code == 200


def test_a_body_trickled_too_slowly_is_a_408(tmp_path: Path) -> None:
    with guarded(tmp_path, header_timeout=30.0, body_timeout=1.0) as served:
        head = (
            b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 2000\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE) as client:
            client.sendall(head)
            answered = False
            for _ in range(2000):
                readable, _, _ = select.select([client], [], [], 0.05)
                if readable:
                    answered = True
                    break
                client.send(b" ")
            assert answered, "the server waited for the whole trickled body"
            reply = b""
            while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
                chunk = client.recv(4096)
                if not chunk:
                    break
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
        assert json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]["kind"] == "request-timeout"
        assert served.http.get("/games").json()["games"] == []


def test_beyond_max_connections_the_next_request_gets_503_at_once(tmp_path: Path) -> None:
    with guarded(tmp_path, header_timeout=60.0, max_connections=4) as served:
        idle = [
            socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE) for _ in range(4)
        ]
        try:
            wait_for(
                lambda: len(served.server.server_state.connections) >= 4,
                "the idle connections to be taken",
            )
            with httpx.Client(base_url=served.url, timeout=PATIENCE) as fresh:
                assert fresh.get("/health").status_code == 503
        finally:
            for client in idle:
                client.close()
        wait_for(
            lambda: httpx.get(f"{served.url}/health", timeout=PATIENCE).status_code == 200,
            "a normal client to be served again",
        )


def test_search_bots_think_in_worker_processes_and_are_stopped_by_their_timer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="avanti.server")
    before = {child.pid for child in multiprocessing.active_children()}
    with contextlib.closing(SQLiteEventStore(tmp_path / "games.db")) as store:
        with serving(store, think=0.001) as served:
            bots = {"0": "search", "1": "search", "2": "search"}
            body = {"game": "avanti", "players": ["A", "B", "C"], "bots": bots}
            game_id = served.http.post("/games", json=body).json()["id"]
            wait_for(
                lambda: served.http.get(f"/games/{game_id}").json()["version"] >= 30,
                "the bots to play",
            )
            workers = {child.pid for child in multiprocessing.active_children()} - before
        game = GameStore(store).load(game_id, verify=True)
    assert game.version >= 30
    assert workers
    assert os.getpid() not in workers
    names = [record.getMessage() for record in caplog.records]
    assert "bot-timeout" in names, names[:20]


def test_think_gives_none_for_a_bot_that_takes_longer_than_its_time() -> None:
    from avanti import catalog
    from avanti.server.protocol.requests import new_game
    from avanti.server.table.bots import think

    game = new_game(catalog.GAMES["avanti"], ["A", "B", "C"], None)
    seat = game.waiting[0]
    legal = tuple(game.legal_commands(seat))
    choice = think("search", "avanti", game.setup, seat, game.view(seat), legal, 0.0001)
    assert choice is None
    quick = think("random", "avanti", game.setup, seat, game.view(seat), legal, 5.0)
    assert quick in legal


def test_think_never_lets_its_timer_escape() -> None:
    """The timer may ring before the bot starts or after it has chosen: ``think`` answers
    ``None`` or a legal command, never the timer's exception."""
    from avanti import catalog
    from avanti.server.protocol.requests import new_game
    from avanti.server.table.bots import think

    game = new_game(catalog.GAMES["avanti"], ["A", "B", "C"], None)
    seat = game.waiting[0]
    legal = tuple(game.legal_commands(seat))
    answers = [
        think("random", "avanti", game.setup, seat, game.view(seat), legal, 1e-6)
        for _ in range(300)
    ]
    assert all(answer is None or answer in legal for answer in answers)
