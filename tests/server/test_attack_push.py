"""Finding 2 of the attack review: what a WebSocket that never reads can make the server keep.

Before, every chat message (and rematch notice) started one task per connection, each waiting
for the connection's lock behind a send that never ended: five spectator sockets that never read
took the server from 55 to 135 MB in 12 s, and a socket that sent a ping now and then was never
closed. Now each connection owes at most its newest update and ``outbox_bytes`` of notices, and
a send that takes longer than ``send_timeout`` cuts it: its session closes it and forgets it.

The sockets here speak WebSocket by hand on a plain TCP socket with a small receive buffer, so
that "never reads" is exactly that. Nothing waits a fixed time: each wait ends when the server
has forgotten the socket (:data:`~tests.server.support.PATIENCE` only stops a broken test).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import select
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from websockets.sync.client import ClientConnection

from avanti.server import ServerLimits
from avanti.server.transport.push import Hub, Listener
from avanti.server.transport.uvicorn import RECEIVE_BUFFER_BYTES, SEND_BUFFER_BYTES
from tests.server.support import (
    PATIENCE,
    ROOMY,
    Served,
    open_socket,
    receive,
    serving,
    wait_for,
)

LIMITS = attrs.evolve(
    ROOMY,
    chat_per_second=10_000.0,
    chat_burst=10_000,
    chat_per_game=100_000,
    chat_length=50_000,
    outbox_bytes=200_000,
    send_timeout=2.0,
)
"""Roomy, with long chat messages (what a deaf socket is sent must fill the system's socket
buffers, several MB on loopback, before anything waits), but a connection may owe 200 kB of
notices (five messages) and take 2 s to take one message."""


def frame(payload: bytes, opcode: int = 1) -> bytes:
    """One masked client frame (RFC 6455): text by default."""
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def deaf_socket(served: Served, game_id: str, token: str | None) -> socket.socket:
    """A WebSocket to the game's stream that sends its hello and then never reads again: its
    receive buffer is as small as the system allows, so the server's sends back up at once."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.settimeout(30)
    raw.connect(("127.0.0.1", served.port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # byte by byte: nothing after the handshake is read
    assert answer.startswith(b"HTTP/1.1 101"), answer
    raw.sendall(frame(json.dumps({"token": token, "after": 0, "table": True}).encode()))
    return raw


def read_frame(raw: socket.socket) -> bytes:
    """The payload of the next frame the server sent (unmasked, RFC 6455), read exactly."""

    def exactly(size: int) -> bytes:
        data = b""
        while len(data) < size:
            piece = raw.recv(size - len(data))
            assert piece, "the server closed the connection"
            data += piece
        return data

    size = exactly(2)[1] & 0x7F
    if size == 126:
        size = struct.unpack("!H", exactly(2))[0]
    elif size == 127:
        size = struct.unpack("!Q", exactly(8))[0]
    return exactly(size)


def hub_of(served: Served) -> Hub:
    """The running app's hub."""
    app: Any = served.server.config.app
    hub: Hub = app.state.hub
    return hub


def listeners(served: Served, game_id: str) -> int:
    """The connections this server keeps listening to the game."""
    channel = hub_of(served)._channels.get(game_id)
    return 0 if channel is None else len(channel.listeners)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A server with :data:`LIMITS`."""
    with serving(tmp_path / "games.db", limits=LIMITS) as running:
        yield running


def said(client: ClientConnection, number: int) -> None:
    """Wait until the talker is sent its own chat message ``number`` back (so the server has
    stored it and told every connection: the talker reads, it is no deaf socket)."""
    while True:
        message = receive(client)
        if message["type"] == "chat" and message["messages"][0]["text"].startswith(f"{number:04d}"):
            return


def test_2_spectators_that_never_read_are_cut_while_the_chat_goes_on(served: Served) -> None:
    created = served.create("mare", ["Ann", "Bob"])
    game_id, ann = created["id"], created["seats"][0]["token"]
    deaf = [deaf_socket(served, game_id, None) for _ in range(5)]
    try:
        with open_socket(served.ws_url(game_id), ann) as talker:
            assert receive(talker)["type"] == "update"
            wait_for(lambda: listeners(served, game_id) == 6, "every socket to listen")
            sent = 0
            while listeners(served, game_id) > 1:  # until every deaf socket is cut
                assert sent < 1_000, f"{listeners(served, game_id) - 1} deaf sockets still kept"
                talker.send(json.dumps({"type": "chat", "text": f"{sent:04d} " + "x" * 40_000}))
                said(talker, sent)
                sent += 1
            # the talker, which reads, is still served: its next message is answered
            talker.send(json.dumps({"type": "ping"}))
            assert receive(talker)["type"] == "pong"
    finally:
        for raw in deaf:
            raw.close()
    wait_for(lambda: listeners(served, game_id) == 0, "the server to forget every socket")


@pytest.fixture
def as_served(tmp_path: Path) -> Iterator[Served]:
    """A server configured as ``avanti serve`` configures uvicorn, with :data:`LIMITS` and no
    pace on a connection's messages (a socket that never reads is to fill its buffers fast)."""
    limits = attrs.evolve(LIMITS, messages_per_second=1e6, message_burst=1_000_000)
    with serving(tmp_path / "games.db", limits=limits, as_served=True) as running:
        yield running


def test_2_a_socket_that_pings_and_never_reads_is_closed(as_served: Served) -> None:
    served = as_served
    created = served.create("mare", ["Ann", "Bob"])
    game_id = created["id"]
    raw = deaf_socket(served, game_id, None)
    try:
        wait_for(lambda: listeners(served, game_id) == 1, "the socket to listen")
        raw.setblocking(False)  # each send says how much the system took: no frame is cut
        pings = memoryview(frame(b'{"type":"ping"}') * 100)
        sent = 0
        deadline = time.monotonic() + PATIENCE
        while listeners(served, game_id):  # the pongs pile up on a socket that never reads
            assert time.monotonic() < deadline, "a socket that pings and never reads is kept"
            try:
                sent += raw.send(pings[sent % len(pings) :])
            except BlockingIOError:  # the server stopped reading it: it waits on a pong
                select.select([], [raw], [], 0.01)  # until the client may send, or a new look
            except OSError:  # closed by the server
                break
        wait_for(lambda: listeners(served, game_id) == 0, "the server to forget the socket")
    finally:
        raw.close()


def test_2_a_socket_that_sends_protocol_pings_and_never_reads_is_no_longer_read(
    as_served: Served,
) -> None:
    """WebSocket pings (control frames, answered by the protocol, not the app) from a client
    that never reads: the server owes only the newest pong once its transport takes no more,
    and stops reading the client meanwhile, so neither its memory nor its time grows."""
    served = as_served
    game_id = served.create("mare", ["Ann", "Bob"])["id"]
    raw = deaf_socket(served, game_id, None)
    try:
        wait_for(lambda: listeners(served, game_id) == 1, "the socket to listen")
        listener = next(iter(hub_of(served)._channels[game_id].listeners))
        writer: Any = listener._write
        transport = writer.__self__.transport
        # the first update taken (else it would wait behind the pongs and cut the socket at
        # send_timeout), and the client's own buffer small: little waits in it for the server
        assert json.loads(read_frame(raw))["type"] == "update"
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
        ping = frame(b"p" * 125, opcode=9)
        pings = memoryview(ping * 1_000)  # 131 kB: 1,000 pings, 127 kB of pongs
        raw.setblocking(False)  # each send says how much the system took: whole frames are known
        sent = 0
        while True:
            assert sent < 64_000_000, f"the server read {sent:,} bytes of pings and still reads"
            try:
                sent += raw.send(pings[sent % len(pings) :])
            except BlockingIOError:  # nothing taken: the server is slow, or reads no more
                if not transport.is_reading():
                    break
                select.select([], [raw], [], 0.01)  # until the client may send, or a new look
        assert transport.get_write_buffer_size() <= 128 * 1024
        # and what waits in the system's buffers of the connection is bounded too (Linux keeps
        # twice what is asked, for its own bookkeeping)
        server_side = transport.get_extra_info("socket")
        assert server_side.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) == 2 * SEND_BUFFER_BYTES
        assert server_side.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) == (
            2 * RECEIVE_BUFFER_BYTES
        )
        # once the client reads again the server reads it again: a last ping is answered
        heard = bytearray()

        def read() -> None:
            deadline = time.monotonic() + PATIENCE
            while b"\x8a\x04last" not in heard[-65_536:] and time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    heard.extend(raw.recv(1 << 16))

        raw.settimeout(PATIENCE)
        reader = threading.Thread(target=read)
        reader.start()
        rest = ping[sent % len(ping) :] if sent % len(ping) else b""  # the frame begun, whole
        raw.sendall(rest + frame(b"last", opcode=9))
        reader.join()
        assert b"\x8a\x04last" in heard
    finally:
        raw.close()
    wait_for(lambda: listeners(served, game_id) == 0, "the server to forget the socket")


def test_2_a_connection_is_read_at_its_pace(tmp_path: Path) -> None:
    """Fifty pings sent at once on a connection read at 20 messages a second after a burst of
    ten: the hello and the pings, 51 messages, take at least (51 - 10) / 20 = 2.05 s to be
    answered, from before the connection opened. Nothing is refused or lost."""
    limits = attrs.evolve(LIMITS, messages_per_second=20.0, message_burst=10)
    with serving(tmp_path / "games.db", limits=limits) as served:
        game_id = served.create("mare", ["Ann", "Bob"])["id"]
        began = time.monotonic()
        with open_socket(served.ws_url(game_id), None) as watcher:
            assert receive(watcher)["type"] == "update"
            for _ in range(50):
                watcher.send(json.dumps({"type": "ping"}))
            answers = [receive(watcher)["type"] for _ in range(50)]
            took = time.monotonic() - began
    assert answers == ["pong"] * 50
    assert took >= 2.05


class _Flood:
    """A client's socket whose messages are all there at once: a ping each time it is read,
    without waiting (the reader never gives the event loop a turn), up to ``most``."""

    def __init__(self, most: int) -> None:
        self.read = 0
        self._most = most

    async def next(self) -> Any:
        if self.read == self._most:
            raise ConnectionError("the flood is over")
        self.read += 1
        return {"type": "ping"}


def test_2_a_cut_connection_is_read_no_further() -> None:
    """A connection owing more than ``outbox_bytes`` is cut; its session stops reading at
    once, even when its messages are all queued (so that it never waits, and a cancellation
    would not reach it). With 150 bytes owed at most, the eleventh pong (15 bytes each) cuts
    it: eleven messages are read, not the flood's 10,000."""
    from avanti.server.transport.socket import _serve

    async def main() -> int:
        listener = Listener("g", None, 0, _never_sent, outbox_bytes=150)
        flood = _Flood(10_000)
        server: Any = attrs.make_class("FakeServer", ["limits"])(ServerLimits())
        idle: Any = attrs.make_class("FakeIdle", {"heard": attrs.field(default=lambda: None)})()
        with contextlib.suppress(ConnectionError):
            await _serve(server, flood, listener, idle)  # type: ignore[arg-type]
        assert listener.behind is not None
        return flood.read

    assert asyncio.run(main()) == 11


async def _never_sent(text: str) -> None:
    raise AssertionError("nothing is sent: the listener's writer does not run here")
