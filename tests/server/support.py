"""Real servers and real clients for the server's tests.

- :func:`serving`: the app on a real uvicorn, on a free loopback port, in a thread of the test
  process, over an SQLite file (or any store given).
- :class:`Player`: one WebSocket client bound to a seat (or a spectator), in a thread of its own,
  that plays random commands from its own ``legal`` lists (over the socket, by notation, or over
  HTTP) until the game is over, reconnecting with the last version it saw when its server goes
  away, and keeps every message it received.
- :func:`check_received`: every message a player received against the stored game:
  ``events_for(seat)`` and ``view(seat)`` at each version, the legal commands with notation,
  whose move it was and the outcome, and nothing of another seat's.

Nothing here waits a fixed time: every wait ends when what it waits for happens, and
:data:`PATIENCE` only stops a broken test from hanging forever.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from avanti.server import ServerLimits, create_app
from avanti.server.transport.uvicorn import uvicorn_config
from avanti.store import EventStore, GameStore, SQLiteEventStore

__all__ = [
    "PATIENCE",
    "Player",
    "Served",
    "check_received",
    "open_socket",
    "plain",
    "serving",
    "wait_for",
]

PATIENCE = 60.0
"""How long a test waits for something that should happen at once, before it fails (a guard
against hanging forever, never a measure of speed)."""

ROOMY = ServerLimits(
    commands_per_second=10_000.0,
    command_burst=10_000,
    games_per_second=10_000.0,
    games_burst=10_000,
    games_per_client=10_000,
    seats_per_second=10_000.0,
    seats_burst=10_000,
    messages_per_second=10_000.0,
    message_burst=10_000,
)
"""Limits no well-behaved test client reaches."""


def plain(value: Any) -> Any:
    """A codec's plain data as JSON values (tuples become lists), to compare with the wire."""
    return json.loads(json.dumps(value))


def wait_for(condition: Any, what: str) -> None:
    """Wait until ``condition()`` holds; fail after :data:`PATIENCE` seconds."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.005)


class Served:
    """A running server: its address and an HTTP client for it."""

    def __init__(self, server: uvicorn.Server, thread: threading.Thread, store: EventStore) -> None:
        self.server = server
        self.thread = thread
        self.store = store
        sockets = server.servers[0].sockets
        self.port: int = sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=PATIENCE)

    def ws_url(self, game_id: str) -> str:
        """The address of a game's stream."""
        return f"ws://127.0.0.1:{self.port}/games/{game_id}/stream"

    def create(self, game: str, players: list[str], bots: Mapping[str, str] = {}) -> Any:
        """Create a game; the reply's JSON."""
        reply = self.http.post("/games", json={"game": game, "players": players, "bots": bots})
        assert reply.status_code == 201, reply.text
        return reply.json()

    def stop(self) -> None:
        """Stop the server as SIGTERM would: gracefully."""
        self.http.close()
        self.server.should_exit = True
        self.thread.join(PATIENCE)
        assert not self.thread.is_alive()


@contextlib.contextmanager
def serving(
    database: Path | EventStore,
    *,
    limits: ServerLimits = ROOMY,
    think: float = 5.0,
    lifespan: str = "on",
    as_served: bool = True,
) -> Iterator[Served]:
    """A real uvicorn with the app, on a free loopback port, in a thread; stopped on exit.

    ``database`` is an SQLite file (opened here and closed on exit) or a store (left open).
    ``lifespan="off"`` serves the app as a host that never runs its lifespan would.
    ``as_served`` (the default) configures uvicorn as ``avanti serve`` does (``uvicorn_config``:
    its HTTP and WebSocket protocols, the direct write of messages, uvloop where installed);
    ``as_served=False`` serves with uvicorn's own defaults, as an app embedding ``create_app``
    under its own uvicorn would be.
    """
    given = not isinstance(database, Path)
    store = (
        SQLiteEventStore(database, synchronous="NORMAL") if isinstance(database, Path) else database
    )
    app = create_app(GameStore(store, hold=True), limits=limits, bot_think_seconds=think)
    config = (
        uvicorn_config(app, limits, host="127.0.0.1", port=0, lifespan=lifespan)
        if as_served
        else uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            log_config=None,
            access_log=False,
            lifespan=lifespan,  # type: ignore[arg-type]
            ws_max_size=4 * limits.max_message_bytes,
        )
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    wait_for(lambda: server.started or not thread.is_alive(), "the server to start")
    assert server.started, "the server did not start"
    served = Served(server, thread, store)
    try:
        yield served
    finally:
        if thread.is_alive():
            served.stop()
        if not given:
            store.close()


@contextlib.contextmanager
def open_socket(url: str, token: str | None, after: int = 0) -> Iterator[ClientConnection]:
    """A WebSocket to a game's stream, its first message (the token) sent; closed on exit."""
    with connect(url, open_timeout=PATIENCE, close_timeout=PATIENCE) as socket:
        socket.send(json.dumps({"token": token, "after": after}))
        yield socket


def receive(socket: ClientConnection) -> Any:
    """The next message, parsed (waits at most :data:`PATIENCE`)."""
    return json.loads(socket.recv(timeout=PATIENCE))


def answer(socket: ClientConnection) -> Any:
    """The answer to the next command sent on ``socket`` (updates before it skipped): an
    ``error``, or the stored command's answer as a ``result`` message, whether it came in the
    ``results`` of the seat's update or on its own."""
    while True:
        message = receive(socket)
        if message["type"] in ("result", "error"):
            return message
        if message["type"] == "update" and message.get("results"):
            return {"type": "result", **message["results"][0]}


class Player:
    """A client of one seat (``token``) or a spectator (``token=None``), in its own thread.

    ``how`` says how it sends commands: ``"socket"`` (the command's JSON on its WebSocket),
    ``"notation"`` (the notation on its WebSocket) or ``"http"`` (POST, by notation, to
    ``http_url`` or the server it listens to). A spectator only watches. It always sends the
    version it saw as ``expected_version``. Set :attr:`paused` to stop it sending commands.
    """

    def __init__(
        self,
        url: str,
        token: str | None,
        seat: int | None,
        *,
        how: str = "socket",
        seed: int = 0,
        http_url: str | None = None,
    ) -> None:
        self.url = url
        self.token = token
        self.seat = seat
        self.how = how
        self.http_url = http_url
        self.rng = random.Random(seed)
        self.messages: list[Any] = []
        """Every message received, in order (``update``, which carries the answers to the
        seat's stored commands in ``results``, ``result``, ``error``)."""
        self.replies: list[tuple[int, Any, int]] = []
        """Every HTTP command reply: status, JSON, and the expected version sent."""
        self.sent: list[Any] = []
        """Every command message sent on the socket."""
        self.closes: list[int] = []
        """The close code of every connection the server ended before the game did."""
        self.last = 0
        """The version of the last update received."""
        self.paused = threading.Event()
        """Set (by :meth:`pause`): send no more commands."""
        self.reconnect = threading.Event()
        """Set to connect again (to :attr:`url`) after the server went away."""
        self._acting = threading.Lock()
        self.failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=f"player-{seat}", daemon=True)

    def start(self) -> Player:
        """Start playing."""
        self._thread.start()
        return self

    def pause(self) -> None:
        """Stop sending commands; every command sent before is in :attr:`sent` or has its
        reply in :attr:`replies` when this returns."""
        with self._acting:
            self.paused.set()

    @property
    def answered(self) -> bool:
        """Whether every command sent on the socket has had its reply."""
        replies = sum(
            len(message.get("results", ())) if message["type"] == "update" else 1
            for message in self.messages
            if message["type"] in ("update", "result", "error")
        )
        return replies == len(self.sent)

    def join(self) -> None:
        """Wait until the game is over for this player; re-raise what went wrong in it."""
        self._thread.join(PATIENCE * 4)
        assert not self._thread.is_alive(), f"player {self.seat} did not finish"
        if self.failure is not None:
            raise self.failure

    @property
    def updates(self) -> list[Any]:
        """The ``update`` messages received."""
        return [message for message in self.messages if message["type"] == "update"]

    def _run(self) -> None:
        try:
            while not self._session():
                if not self.reconnect.wait(PATIENCE):
                    raise AssertionError(f"player {self.seat} was never told to reconnect")
                self.reconnect.clear()
        except BaseException as error:  # handed to the test by join()
            self.failure = error

    def _session(self) -> bool:
        """One connection: play until the game is over (True) or the server goes (False)."""
        try:
            with (
                open_socket(self.url, self.token, self.last) as socket,
                httpx.Client(timeout=PATIENCE) as http,
            ):
                while True:
                    try:
                        message = receive(socket)
                    except TimeoutError:  # say who waited, and since which version
                        raise AssertionError(
                            f"player {self.seat} ({self.how}, {self.url}) was sent nothing for "
                            f"{PATIENCE:g} s after version {self.last}"
                        ) from None
                    self.messages.append(message)
                    if message["type"] == "error":
                        assert message["status"] == 409, message
                    if message["type"] != "update":
                        continue
                    self.last = message["version"]
                    if message["outcome"] is not None:
                        return True
                    if message["legal"] and self.seat is not None:
                        with self._acting:
                            if not self.paused.is_set():
                                self._act(socket, http, message)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            self.closes.append(code)
            return False

    def _act(self, socket: ClientConnection, http: httpx.Client, update: Any) -> None:
        choice = self.rng.choice(update["legal"])
        version = update["version"]
        if self.how == "http":
            base = self.http_url or self.url.replace("ws://", "http://").rsplit("/", 1)[0]
            reply = http.post(
                f"{base}/commands",
                json={"notation": choice["notation"], "expected_version": version},
                headers={"Authorization": f"Bearer {self.token}"},
            )
            self.replies.append((reply.status_code, reply.json(), version))
            assert reply.status_code in (200, 409), reply.text
            return
        message: dict[str, Any] = {"type": "command", "expected_version": version}
        if self.how == "notation":
            message["notation"] = choice["notation"]
        else:
            message["command"] = choice["command"]
        self.sent.append(message)
        socket.send(json.dumps(message))


class Expected:
    """What a seat should have been sent, computed from the stored game with the library."""

    def __init__(self, game: Any, seat: int | None) -> None:
        self.game = game
        self.seat = seat
        self.codec = type(game).rules.codec
        self._at: dict[int, Any] = {}

    def at(self, version: int) -> Any:
        """The stored game as it was at ``version``."""
        if version not in self._at:
            game = self.game
            self._at[version] = type(game).replay(game.setup, game.events[:version], verify=False)
        return self._at[version]

    def events(self, version: int, after: int) -> list[Any]:
        """``events_for(seat, after=...)`` at ``version``, as the wire writes it."""
        return [
            {"position": position, "event": plain(self.codec.event_to_data(event))}
            for position, event in self.at(version).events_for(self.seat, after=after)
        ]

    def view(self, version: int) -> Any:
        """``view(seat)`` at ``version``."""
        return plain(self.codec.unstructure(self.at(version).view(self.seat)))

    def legal(self, version: int) -> list[Any]:
        """The seat's legal commands at ``version`` with their notation (none: a spectator)."""
        if self.seat is None:
            return []
        game = self.at(version)
        return [
            {"command": plain(self.codec.command_to_data(c)), "notation": game.notation(c)}
            for c in game.legal_commands(self.seat)
        ]

    def outcome(self, version: int) -> Any:
        """The outcome at ``version``."""
        outcome = self.at(version).outcome
        return None if outcome is None else plain(self.codec.unstructure(outcome))


def check_received(game: Any, player: Player, first_after: int = 0) -> None:
    """Every message ``player`` received against the stored ``game``.

    Each update holds exactly the seat's events between the previous update's version (the
    version it connected with, for the first update of a connection) and its own, and the view,
    legal commands, waiting seats and outcome at its version; each answer to a stored command
    (in the ``results`` of the mover's update, or a bare ``result``) is the version after the
    command, no newer than the update carrying it: its events come in the update every seat
    gets. Together the updates hold every event of ``events_for(seat)`` and nothing else.
    """
    expected = Expected(game, player.seat)
    whole = {item["position"]: item["event"] for item in expected.events(game.version, 0)}
    seen: dict[int, Any] = {}
    after = first_after
    sent = iter(player.sent)
    for message in player.messages:
        if message["type"] == "error":
            assert message["status"] == 409
            assert message["error"]["kind"] == "version-conflict"
            next(sent)
            continue
        version = message["version"]
        if message["type"] == "result":  # bare: the command's events come in the update
            assert set(message) <= {"type", "version", "command_id"}
            sent_command = next(sent)
            assert version > sent_command["expected_version"]
            continue
        assert message["type"] == "update"
        for answer in message.get("results", ()):  # the mover's answers, in the order sent
            assert set(answer) <= {"version", "command_id"}
            sent_command = next(sent)
            assert sent_command["expected_version"] < answer["version"] <= version
        assert version >= after
        assert message["events"] == expected.events(version, after), (player.seat, version)
        assert message["waiting"] == list(expected.at(version).waiting)
        assert message["outcome"] == expected.outcome(version)
        after = version
        assert message["view"] == expected.view(version), (player.seat, version)
        assert message["legal"] == expected.legal(version), (player.seat, version)
        for item in message["events"]:
            assert seen.setdefault(item["position"], item["event"]) == item["event"]
    assert seen == whole
    for status, reply, since in player.replies:
        if status == 409:
            assert reply["error"]["kind"] == "version-conflict"
            assert reply["error"]["expected"] == since
            continue
        version = reply["version"]
        assert reply["events"] == expected.events(version, since)
        assert reply["view"] == expected.view(version)
        assert reply["legal"] == expected.legal(version)
