"""A WebSocket's messages written straight to its socket: the server's WebSocket protocol frames
a text message itself and hands it to the transport, byte for byte the frame websockets would
have made, but only while the connection is open and its transport takes more; else it says
no, and the listener sends the message the ordinary way (ASGI's ``send``, which waits)."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Callable
from typing import Any

import pytest

from avanti.server import ServerLimits
from avanti.server.transport.push import Listener
from avanti.server.transport.uvicorn import WRITE_TEXT

uvicorn = pytest.importorskip(
    "uvicorn", reason="install the server extra: pip install avanti[server]"
)
frames = pytest.importorskip("websockets.frames")


class _Transport(asyncio.Transport):
    """A transport that keeps what is written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


UPGRADE = (
    b"GET /games/g/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
    + base64.b64encode(b"0123456789abcdef")
    + b"\r\n\r\n"
)

TEXTS = ["", "x", "y" * 125, "z" * 126, "é" * 30_000, "w" * 65_535, "v" * 65_536]
"""Text messages at each edge of the frame's three lengths (7 bits, 16 bits, 64 bits): the
sizes are bytes, so 30,000 é are 60,000 bytes."""


def test_a_text_written_at_once_is_the_frame_websockets_would_send() -> None:
    """Before the handshake is answered the protocol takes nothing; once open, each message is
    one final unmasked text frame, the same bytes as websockets' own; not while the transport
    is paused (the client does not read), after the client began to close, or once closed."""
    from avanti.server.transport.uvicorn import released_websocket, uvicorn_config

    async def main() -> dict[str, Any]:
        told: dict[str, Any] = {}
        opened = asyncio.Event()
        finish = asyncio.Event()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            write = scope["extensions"][WRITE_TEXT]
            await receive()
            told["before"] = write("early")
            await send({"type": "websocket.accept"})
            told["write"] = write
            opened.set()
            await finish.wait()

        config = uvicorn_config(app, ServerLimits())
        config.load()
        protocol_class: Any = released_websocket()
        protocol = protocol_class(
            config=config, server_state=uvicorn.server.ServerState(), app_state={}
        )
        transport = _Transport()
        protocol.connection_made(transport)
        protocol.data_received(UPGRADE)
        await opened.wait()
        write = told["write"]
        transport.written.clear()
        told["open"] = [write(text) for text in TEXTS]
        told["frames"] = list(transport.written)
        transport.written.clear()
        protocol.pause_writing()
        told["paused"] = write("paused")
        protocol.resume_writing()
        told["resumed"] = write("resumed")
        protocol.data_received(
            frames.Frame(frames.Opcode.CLOSE, b"\x03\xe8").serialize(mask=True, extensions=[])
        )
        told["closing"] = write("closing")
        told["after"] = transport.written[:1]
        finish.set()
        protocol.connection_lost(None)
        told["lost"] = write("lost")
        return told

    told = asyncio.run(main())
    assert told["before"] is False
    assert told["open"] == [True] * len(TEXTS)
    assert told["frames"] == [
        frames.Frame(frames.Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
        for text in TEXTS
    ]
    assert [
        len(frame) - len(text.encode()) for frame, text in zip(told["frames"], TEXTS, strict=True)
    ] == [
        2,
        2,
        2,
        4,
        4,
        4,
        10,
    ]
    assert (told["paused"], told["resumed"]) == (False, True)
    assert told["after"] == [
        frames.Frame(frames.Opcode.TEXT, b"resumed").serialize(mask=False, extensions=[])
    ]
    assert (told["closing"], told["lost"]) == (False, False)


def test_a_listener_sends_the_ordinary_way_what_the_socket_does_not_take_at_once() -> None:
    """A listener writes each message at once while the socket takes it, and sends (awaiting)
    each one it refuses, in order: none is lost or sent twice."""
    taken: list[str] = []
    sent: list[str] = []
    refuse = {"b"}

    def write(text: str) -> bool:
        if text in refuse:
            return False
        taken.append(text)
        return True

    async def send(text: str) -> None:
        sent.append(text)

    async def main() -> None:
        listener = Listener("g", 0, 0, send, write=write, send_timeout=5.0)
        for text in ("a", "b", "c"):
            await listener.send(text)
        listener.stop()

    asyncio.run(main())
    assert (taken, sent) == (["a", "c"], ["b"])


class _Game:
    """Just a version, for a listener whose updates are built by the test."""

    def __init__(self, version: int) -> None:
        self.version = version


def _built(game_id: str, game: Any, seat: int | None, after: int, table: Any, layout: str) -> str:
    return json.dumps({"type": "update", "version": game.version, "after": after})


class _Direct:
    """A socket's two roads as a listener sees them: a direct write that takes a message at
    once while ``takes`` holds (``written``), and the ordinary send (``sent``)."""

    def __init__(self, takes: bool) -> None:
        self.takes = takes
        self.written: list[str] = []
        self.sent: list[str] = []

    def write(self, text: str) -> bool:
        if self.takes:
            self.written.append(text)
        return self.takes

    async def send(self, text: str) -> None:
        self.sent.append(text)

    async def listening(self) -> tuple[Listener, asyncio.Future[None]]:
        """A listener on this socket with its task running, once the task waits for news."""
        listener = Listener("g", 0, 0, self.send, write=self.write, send_timeout=5.0)
        listener.build = _built
        task = asyncio.ensure_future(listener.run())
        while not listener._idle:
            await asyncio.sleep(0)
        return listener, task

    async def sent_at_least(self, count: int) -> None:
        """Wait until ``count`` messages went the ordinary way."""
        while len(self.sent) < count:
            await asyncio.sleep(0)


async def _finished(listener: Listener, task: asyncio.Future[None]) -> None:
    listener.finish()
    await task
    listener.stop()


def test_a_listener_writes_a_change_without_waking_its_task() -> None:
    """A change offered to an idle listener, and the answer to its seat's command queued in
    the same turn of the loop, are written as one message, the update carrying the answer,
    at the next turn, by a callback: the listener's task is not woken. Written once the
    socket stops taking messages at once, the rest is left to the task, which sends it the
    ordinary way in order, from the first message not written."""
    socket = _Direct(takes=True)

    async def main() -> tuple[bool, list[str]]:
        listener, task = await socket.listening()
        listener.offer(_Game(1))  # type: ignore[arg-type]
        listener.answer(_Game(1), "c1")  # type: ignore[arg-type]
        await asyncio.sleep(0)
        woken = listener._wake.is_set() or not listener._idle
        socket.takes = False
        listener.tell('{"type":"chat"}')
        listener.offer(_Game(2))  # type: ignore[arg-type]
        await socket.sent_at_least(2)
        await _finished(listener, task)
        return woken, list(socket.written)

    woken, first = asyncio.run(main())
    assert woken is False
    assert [json.loads(text) for text in first] == [
        {
            "type": "update",
            "version": 1,
            "after": 0,
            "results": [{"version": 1, "command_id": "c1"}],
        }
    ]
    assert [json.loads(text) for text in socket.sent] == [
        {"type": "chat"},
        {"type": "update", "version": 2, "after": 1},
    ]


def test_the_answer_to_a_command_whose_update_was_written_goes_bare_and_in_order() -> None:
    """A command stored before (a retry) is answered after its version's update went out: the
    answer is written bare (a ``result``), at once while the socket takes it; one the socket
    refuses is sent by the listener's task, bare as well, and nothing is sent twice."""
    socket = _Direct(takes=True)

    async def main() -> None:
        listener, task = await socket.listening()
        listener.offer(_Game(1))  # type: ignore[arg-type]
        await asyncio.sleep(0)
        listener.answer(_Game(1), "c1")  # type: ignore[arg-type]
        await asyncio.sleep(0)
        socket.takes = False
        listener.answer(_Game(1), "c2")  # type: ignore[arg-type]
        await socket.sent_at_least(1)
        await _finished(listener, task)

    asyncio.run(main())
    assert [json.loads(text) for text in socket.written] == [
        {"type": "update", "version": 1, "after": 0},
        {"type": "result", "version": 1, "command_id": "c1"},
    ]
    assert [json.loads(text) for text in socket.sent] == [
        {"type": "result", "version": 1, "command_id": "c2"}
    ]


def test_what_a_socket_refuses_at_once_is_sent_by_the_task_message_for_message() -> None:
    """A socket that takes nothing at once: a notice, an update carrying an answer and a bare
    update are each refused by the direct write and sent by the listener's task, each once, in
    the order they came, the update carrying the answer as it would have been written."""
    socket = _Direct(takes=False)

    async def main() -> None:
        listener, task = await socket.listening()
        steps: list[Callable[[], None]] = [
            lambda: listener.tell('{"type":"chat"}'),
            lambda: listener.answer(_Game(1), "c1"),  # type: ignore[arg-type]
            lambda: listener.offer(_Game(2)),  # type: ignore[arg-type]
        ]
        for phase, step in enumerate(steps, start=1):
            while not listener._idle:
                await asyncio.sleep(0)
            step()
            await socket.sent_at_least(phase)
        await _finished(listener, task)

    asyncio.run(main())
    assert [json.loads(text) for text in socket.sent] == [
        {"type": "chat"},
        {
            "type": "update",
            "version": 1,
            "after": 0,
            "results": [{"version": 1, "command_id": "c1"}],
        },
        {"type": "update", "version": 2, "after": 1},
    ]
