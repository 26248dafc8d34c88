"""What a finished session leaves behind: nothing the event loop holds on to. A listener's send
timer and an HTTP connection's header timer are stopped when their connection ends (armed,
they kept the connection's objects alive for 30 and 10 seconds: about three thousand timers
under the benchmark's load), and a seat's command is freed by reference counting, not left
for the garbage collector as a cycle. Nor are an ended session, a closed WebSocket, an ended
game's noted versions or the shared parts of a game no connection listens to any more."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from avanti import mare
from avanti.server import ServerLimits
from avanti.server.protocol.requests import CommandRequest
from avanti.server.table.master import Tables, _Command
from avanti.server.transport.push import Hub, Listener
from avanti.server.transport.uvicorn import guarded_protocol
from avanti.store import GameStore, MemoryEventStore
from tests.server.support import open_socket, receive, serving, wait_for


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cyclic garbage collector off for the test: what is freed is freed by counting."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_a_listener_that_leaves_stops_its_send_timer() -> None:
    """A send under a 30 s timeout arms the listener's timer; leaving the hub cancels it, so
    the loop no longer holds the listener."""
    store = GameStore(MemoryEventStore())
    store.create("g", mare.new_game(["Ann"], seed=3))
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def main() -> tuple[bool, bool]:
        hub = Hub(store, ServerLimits(), follow_seconds=0.01)
        async with anyio.create_task_group() as tasks:
            hub.start(tasks)
            listener = Listener("g", 0, 0, send, send_timeout=30.0)
            hub.join(listener)
            await listener.send("{}")
            timer = listener._timer
            armed = timer is not None and not timer.cancelled()
            hub.leave(listener)
            stopped = timer is not None and timer.cancelled() and listener._timer is None
            hub.stop()
            tasks.cancel_scope.cancel()
        return armed, stopped

    assert anyio.run(main) == (True, True)
    assert sent == ["{}"]


class _Transport(asyncio.Transport):
    """Just enough of a transport for uvicorn's HTTP protocol to open and lose a connection."""

    def __init__(self) -> None:
        super().__init__()
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:  # pragma: no cover
        pass


def test_an_http_connection_that_ends_stops_its_header_timer() -> None:
    """The header timeout is armed when a connection opens and stopped when it is lost (it
    used to stay armed for its 10 s, holding the connection's protocol and parser)."""
    import uvicorn

    from avanti.server.transport.uvicorn import uvicorn_config

    async def main() -> tuple[bool, bool]:
        async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
            pass

        config = uvicorn_config(app, ServerLimits())
        config.load()
        protocol_class: Any = guarded_protocol(10.0)
        protocol = protocol_class(
            config=config, server_state=uvicorn.server.ServerState(), app_state={}
        )
        protocol.connection_made(_Transport())
        guard = protocol._guard
        armed = guard is not None and not guard.cancelled()
        protocol.connection_lost(None)
        return armed, guard.cancelled() and protocol._guard is None

    assert asyncio.run(main()) == (True, True)


def test_a_command_is_freed_without_the_collector(no_collector: None) -> None:
    """A seat's command on its way to the store is no reference cycle: dropped, it is gone at
    once (its store arguments, with the bound method that summarizes, are made when asked)."""
    request = CommandRequest.read({"command": "roll", "expected_version": 0}, frozenset())
    command = _Command(None, "g", request, None, 0, False)  # type: ignore[arg-type]
    assert command.stored["summarize"].__self__ is command
    gone = weakref.ref(command)
    del command
    assert gone() is None


def test_an_ended_game_forgets_its_noted_versions() -> None:
    """A version noted for catching up is forgotten once the game ends: an ended game's seats
    send no commands, and a thousand finished games' versions kept every event they held."""
    store = GameStore(MemoryEventStore(), hold=True)
    game = mare.new_game(["Ann", "Bob"], seed=3)
    tables = Tables(store, ServerLimits())
    tables.note("g", game)
    assert tables.catching_up("g", game, 0, game.version)  # nothing changed since
    tables.ended("g")
    assert not tables.catching_up("g", game, 0, game.version)


def test_the_last_listener_leaving_lets_go_of_what_the_updates_shared() -> None:
    """The parts a version's updates share (:class:`~avanti.server.protocol.wire.Shared`, the
    game with every event) are kept while a connection of the game listens here, and let go
    of when the last one leaves, not when a thousand other games have pushed them out."""
    store = GameStore(MemoryEventStore())
    store.create("g", mare.new_game(["Ann", "Bob"], seed=3))
    game = store.load("g")

    async def send(text: str) -> None:
        pass

    async def main() -> tuple[bool, bool, bool]:
        hub = Hub(store, ServerLimits(), follow_seconds=0.01)
        async with anyio.create_task_group() as tasks:
            hub.start(tasks)
            first, second = Listener("g", 0, 0, send), Listener("g", 1, 0, send)
            hub.join(first)
            hub.join(second)
            hub.build("g", game, 0, 0, None)
            built = "g" in hub._shared
            hub.leave(first)
            kept = "g" in hub._shared
            hub.leave(second)
            gone = "g" not in hub._shared
            hub.stop()
            tasks.cancel_scope.cancel()
        return built, kept, gone

    assert anyio.run(main) == (True, True, True)


def _ours(garbage: list[object]) -> list[str]:
    """The objects of the server's transport among the garbage: its frames, and the
    exceptions that end a session."""
    found = []
    for thing in garbage:
        if type(thing).__name__ == "frame":
            name = thing.f_code.co_filename  # type: ignore[attr-defined]
            if "avanti/server/transport" in name.replace("\\", "/"):
                found.append(f"{name.rsplit('/', 1)[-1]}:{thing.f_code.co_name}")  # type: ignore[attr-defined]
        elif type(thing).__name__ in ("_Gone", "CancelledError"):
            found.append(type(thing).__name__)
    return found


def test_a_session_that_ends_leaves_no_cycle(tmp_path: Path, no_collector: None) -> None:
    """A seat's socket opened, pushed its update and closed by the client: the session's task
    and its push task end without leaving an exception whose traceback holds their frames in
    a cycle (under load, about five thousand objects a second for the collector)."""
    with serving(tmp_path / "games.db") as served:
        created = served.create("mare", ["Ann", "Bob"])
        game_id, token = created["id"], created["seats"][0]["token"]
        app: Any = served.server.config.app
        hub: Hub = app.state.hub
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(3):
                with open_socket(served.ws_url(game_id), token) as socket:
                    assert receive(socket)["type"] == "update"
                wait_for(lambda: game_id not in hub._channels, "the session to end")
            gc.collect()
            left = _ours(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert left == []


def test_a_closed_websocket_is_freed_without_the_collector(
    tmp_path: Path, no_collector: None
) -> None:
    """A seat's socket opened and closed by its client: the server's WebSocket protocol (and
    with it websockets' connection, its transport, queues and frames: about 46 objects) is
    freed by reference counting once the session ends. Its scope held the protocol's direct
    writer, a method of the protocol, in a cycle that the collector alone freed: about 2,500
    connections at a time under the benchmark's load, collected in one pause of 300 ms."""
    with serving(tmp_path / "games.db", as_served=True) as served:
        created = served.create("mare", ["Ann", "Bob"])
        game_id, token = created["id"], created["seats"][0]["token"]
        app: Any = served.server.config.app
        hub: Hub = app.state.hub
        with open_socket(served.ws_url(game_id), token) as socket:
            assert receive(socket)["type"] == "update"
            protocols = [
                weakref.ref(thing)
                for thing in gc.get_objects()
                if type(thing).__name__ == "Released"
            ]
            assert len(protocols) == 1
        wait_for(lambda: game_id not in hub._channels, "the session to end")
        wait_for(lambda: protocols[0]() is None, "the closed connection's protocol to be freed")


def test_a_lost_websocket_closes_its_frame_parser(no_collector: None) -> None:
    """websockets' frame parser is a generator that refers back to its connection; the
    server's WebSocket protocol closes it when the connection is lost, so the connection's
    objects are freed at once, not left to the collector."""
    import uvicorn

    from avanti.server.transport.uvicorn import released_websocket, uvicorn_config

    async def main() -> tuple[bool, bool]:
        async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
            pass

        config = uvicorn_config(app, ServerLimits())
        config.load()
        protocol_class: Any = released_websocket()
        protocol = protocol_class(
            config=config, server_state=uvicorn.server.ServerState(), app_state={}
        )
        protocol.connection_made(_Transport())
        parser = protocol.conn.parser
        running = parser.gi_frame is not None
        protocol.connection_lost(None)
        return running, parser.gi_frame is None

    assert asyncio.run(main()) == (True, True)
    assert getattr(uvicorn_config(None, ServerLimits()).ws, "__name__", None) == "Released"


def test_an_upgraded_connection_lets_go_of_its_http_parser() -> None:
    """Once a connection is upgraded to a WebSocket, its HTTP protocol drops its parser (whose
    callbacks refer back to it: a cycle that outlived every closed WebSocket)."""
    import uvicorn

    from avanti.server.transport.uvicorn import uvicorn_config

    async def main() -> tuple[bool, bool]:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()

        config = uvicorn_config(app, ServerLimits())
        config.load()
        http: Any = config.http_protocol_class
        protocol: Any = http(config=config, server_state=uvicorn.server.ServerState(), app_state={})
        protocol.connection_made(_Transport())
        before = protocol.parser is not None
        protocol.data_received(
            b"GET /games/g/stream HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        return before, protocol.parser is None

    assert asyncio.run(main()) == (True, True)
