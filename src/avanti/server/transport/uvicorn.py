"""Serving under uvicorn: the connection limits of :class:`~avanti.server.limits.ServerLimits`
that only the HTTP server can enforce, and a log filter that keeps queries out of its lines.

``avanti serve`` uses :func:`uvicorn_config`. It closes a connection whose request headers have
not all arrived ``header_timeout`` seconds after its first byte (or after the previous response),
keeps idle connections ``keep_alive_timeout`` seconds, answers 503 beyond ``max_connections``
open connections, sends WebSocket messages uncompressed (they are small, and compressing them
cost more CPU than anything else on the socket path), and uses uvloop and httptools where
installed (the ``server`` extra brings them).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import socket
import struct
from collections.abc import Callable
from typing import Any

import uvicorn

from avanti.server.limits import ServerLimits
from avanti.server.log import log

__all__ = [
    "RECEIVE_BUFFER_BYTES",
    "SEND_BUFFER_BYTES",
    "WRITE_TEXT",
    "RedactQueries",
    "WriteText",
    "guarded_protocol",
    "released_websocket",
    "uvicorn_config",
]


def _base_protocol() -> type[asyncio.Protocol]:
    if importlib.util.find_spec("httptools") is not None:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        return HttpToolsProtocol
    from uvicorn.protocols.http.h11_impl import H11Protocol  # pragma: no cover - without httptools

    return H11Protocol  # pragma: no cover


def guarded_protocol(seconds: float, base: type[Any] | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (``base``; httptools where installed) with a header timeout: a
    connection that has not sent a whole request's headers ``seconds`` after it opened, or after
    its last response, is closed."""
    parent: Any = base if base is not None else _base_protocol()

    class Guarded(parent):  # type: ignore[misc]
        _guard: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()  # the WebSocket's own limits take over
            super().handle_websocket_upgrade(*args)
            # the HTTP parser is done (it refers back to this object through its callbacks: a
            # cycle that would keep both for the garbage collector once the socket closes)
            self.parser = None

        def _arm(self) -> None:
            self._disarm()
            self._guard = self.loop.call_later(seconds, self._expire, self.cycle)

        def _disarm(self) -> None:
            # a timer left armed keeps the connection's objects alive until it fires
            if self._guard is not None:
                self._guard.cancel()
                self._guard = None

        def _expire(self, cycle: Any) -> None:
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or upgraded to a WebSocket
            if self.cycle is cycle and (cycle is None or cycle.response_complete):
                log(logging.WARNING, "limit", limit="header_timeout")
                transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{parent.__name__}"
    return Guarded


WRITE_TEXT = "avanti.write_text"
"""The key, in a WebSocket's ASGI scope's ``extensions``, of its :data:`WriteText` (set by the
protocol :func:`released_websocket` makes)."""

WriteText = Callable[[str], bool]
"""Writes one text message on a WebSocket at once, without awaiting, and says whether it did:
``False`` when the connection cannot take it now (its client is not reading and the transport's
buffer is past its high-water mark, or the socket is closing), and the message is then to be
sent the ordinary way (ASGI's ``websocket.send``, which waits)."""


SEND_BUFFER_BYTES = 64 * 1024
"""The system's send buffer of a WebSocket connection (``SO_SNDBUF``; Linux doubles it for its
own bookkeeping). Left to itself the system grows it to several megabytes for a client that
does not read; bounded, such a client stops taking messages sooner, and what waits for it is
the app's to bound (``outbox_bytes``, ``send_timeout``)."""

RECEIVE_BUFFER_BYTES = 64 * 1024
"""The system's receive buffer of a WebSocket connection (``SO_RCVBUF``, doubled as above).
Left to itself the system grows it to several megabytes for a client that sends while the
server does not read it (a connection read at its pace, or paused while its pongs wait); a
message is at most ``max_message_bytes``, which the window carries in pieces all the same."""


def _frame_header(size: int) -> bytes:
    """The header of a final, unmasked text frame of ``size`` bytes (RFC 6455, 5.2)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size)
    return struct.pack("!BBQ", 0x81, 127, size)


def released_websocket() -> type[asyncio.Protocol] | None:
    """uvicorn's WebSocket protocol (websockets' sans-I/O one) that lets go of a closed
    connection's objects at once, and writes a text message straight to its socket.

    Its frame parser (a generator that refers back to its connection) is closed when the
    connection is lost, so that what the connection held is freed by reference counting
    instead of waiting for the garbage collector. And its scope's ``extensions`` hold a
    :data:`WriteText` under :data:`WRITE_TEXT`: a message written with it is framed here (one
    uncompressed text frame, as the server's WebSockets are) and handed to the transport,
    without ASGI's ``send`` and its framing objects, when the connection is open and its
    transport takes more; else it says so and the caller sends the ordinary way."""
    if importlib.util.find_spec("websockets") is None:  # pragma: no cover - the server extra has it
        return None
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.protocol import State

    class Released(WebSocketsSansIOProtocol):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            if sock is not None:  # the system's own buffers grow to megabytes left to themselves
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER_BYTES)

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            parser = getattr(self.conn, "parser", None)
            if parser is not None:
                parser.close()
            scope = getattr(self, "scope", None)
            if scope is not None:  # the scope held this protocol through its writer: a cycle
                scope["extensions"].pop(WRITE_TEXT, None)

        _owed_pong: bytes | None = None

        def handle_ping(self) -> None:
            # a client that pings and never reads would make the transport's buffer grow
            # without end: while the transport takes no more, only the newest ping's pong is
            # owed (RFC 6455, 5.5.3), sent once it does, and the client is not read meanwhile
            pong = b"".join(self.conn.data_to_send())
            if self.writable.is_set():
                self.transport.write(pong)
                return
            if not self.read_paused:  # else the app's reads resume it, and the next ping pauses
                self.transport.pause_reading()
            self._owed_pong = pong

        def resume_writing(self) -> None:
            super().resume_writing()
            pong, self._owed_pong = self._owed_pong, None
            if pong is not None and not self.transport.is_closing():
                self.transport.write(pong)
                if not self.read_paused:
                    self.transport.resume_reading()

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None and not self.conn.extensions:  # compressed: framed by websockets
                scope["extensions"][WRITE_TEXT] = self.write_text

        def write_text(self, text: str) -> bool:
            if (
                not self.handshake_complete
                or self.close_sent
                or self.disconnected
                or self.initial_response is not None
                or self.conn.state is not State.OPEN
                or not self.writable.is_set()
                or self.transport.is_closing()
            ):
                return False
            data = text.encode()
            self.transport.write(_frame_header(len(data)) + data)
            return True

    return Released


class RedactQueries(logging.Filter):
    """Cuts the query off every address in uvicorn's log lines (a client may put a secret in a
    URL: the server refuses it, and no log keeps it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, with its query strings cut."""
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(
                arg.split("?", 1)[0] if isinstance(arg, str) and "?" in arg else arg
                for arg in record.args
            )
        return True


def uvicorn_config(app: Any, limits: ServerLimits, **options: Any) -> uvicorn.Config:
    """A uvicorn configuration for the app with the server's connection limits; ``options``
    (host, port, ...) are passed on."""
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(kept, RedactQueries) for kept in errors.filters):  # once a process
        errors.addFilter(RedactQueries())
    has_uvloop = importlib.util.find_spec("uvloop") is not None
    return uvicorn.Config(
        app,
        http=guarded_protocol(limits.header_timeout),
        ws=released_websocket() or "auto",
        loop="uvloop" if has_uvloop else "asyncio",
        ws_per_message_deflate=False,
        ws_max_size=4 * limits.max_message_bytes,  # the app refuses beyond the limit
        timeout_keep_alive=max(1, round(limits.keep_alive_timeout)),
        limit_concurrency=limits.max_connections,
        log_config=None,
        access_log=False,
        server_header=False,
        **options,
    )
