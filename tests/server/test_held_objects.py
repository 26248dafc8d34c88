"""What a finished session leaves behind: nothing the event loop holds on to. A listener's send
timer and an HTTP connection's header timer are stopped when their connection ends (armed,
they kept the connection's objects alive for 30 and 10 seconds: about three thousand timers
under the benchmark's load), and a seat's command is freed by reference counting, not left
for the garbage collector as a cycle."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from avanti import mare
from avanti.server import ServerLimits
from avanti.server.protocol.requests import CommandRequest
from avanti.server.table.master import _Command
from avanti.server.transport.push import Hub, Listener
from avanti.server.transport.uvicorn import guarded_protocol
from avanti.store import GameStore, MemoryEventStore


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
