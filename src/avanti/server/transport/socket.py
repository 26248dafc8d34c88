"""The WebSocket session, ``GET /games/{id}/stream``: a thin caller of the table core.

The first message names the seat (``{"token": ..., "after": n, "table": true}``); from then on
the server pushes one ``update`` per change to every connection, the mover's included, built
once per seat (with the seat's picture and history when the hello asked for ``table``). Each
``command`` is answered in order: a stored one by the mover's update, which carries it in
``"results"`` (a bare ``result`` when no update is due), a refused one by an ``error``. One
writer task per connection sends everything (:class:`~avanti.server.transport.push.Listener`);
the idle and send timeouts are timers armed once for many messages, not a cancel scope each. A
token is never taken from the URL (it would be written to logs): a URL with a query is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
from collections.abc import Callable

import anyio
from anyio import to_thread
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from avanti.core.codec import JSONValue, parse_json
from avanti.core.errors import DecodeError
from avanti.server.limits import ServerLimits, TokenBucket
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import CommandRequest, Hello
from avanti.server.protocol.wire import ApiError, dumps, game_id, refusal_of
from avanti.server.runtime import Server
from avanti.server.table.joining import OpenTable, described_for
from avanti.server.transport.push import Behind, Hub, Listener
from avanti.server.transport.uvicorn import WRITE_TEXT, WriteText
from avanti.store import StoreError

__all__ = ["CLOSE_CODES", "stream"]

CLOSE_CODES: dict[str, int] = {
    refusal.kind: refusal.close_code for refusal in Refusal if refusal.close_code is not None
}
"""The code a WebSocket is closed with, by the kind of the ``error`` message sent just before
(each :class:`~avanti.server.protocol.refusals.Refusal`'s ``close_code``); any other refusal that
ends a session, on the first message, closes it with 4400."""

OPEN_POLL_SECONDS = 0.5
"""How often a socket of a table with open seats looks whether a seat was taken (or a message
came)."""


async def _chat(server: Server, listener: Listener, message: dict[str, JSONValue]) -> None:
    """A chat message of the listener's seat: stored, then sent to every connection (the chat
    keeps the seat's rate, whichever connection sends)."""
    if set(message) != {"type", "text"}:
        raise ApiError(Refusal.INVALID_REQUEST, 'a chat message is {"type": "chat", "text": ...}')
    if listener.seat is None:
        raise ApiError(Refusal.FORBIDDEN, "a spectator reads the chat but does not write in it")
    await server.chat_post(listener.game_id, listener.seat, message["text"])


def error_message(error: ApiError) -> str:
    """An ``error`` message of the WebSocket."""
    return dumps({"type": "error", "status": error.status, **error.body()})


def _idle(seconds: float) -> ApiError:
    """The refusal that closes a socket that sent nothing for ``seconds``."""
    return ApiError(
        Refusal.IDLE_TIMEOUT,
        f"nothing was received for {seconds:g} seconds (send a ping to stay)",
    )


class _Idle:
    """A session's idle timeout, as one timer for many messages: each message notes when it
    came (:meth:`heard`); the timer, armed once per timeout, ends the session (``cancel``)
    when nothing came for ``seconds``."""

    def __init__(self, seconds: float, cancel: Callable[[], object]) -> None:
        self._seconds = seconds
        self._cancel = cancel
        self._loop = asyncio.get_running_loop()
        self._last = self._loop.time()
        self._timer = self._loop.call_at(self._last + seconds, self._check)
        self.expired = False
        """Whether the session ended for it."""

    def heard(self) -> None:
        """A message came now."""
        self._last = self._loop.time()

    def _check(self) -> None:
        if self._loop.time() - self._last >= self._seconds:
            self.expired = True
            log(logging.WARNING, "limit", limit="idle_timeout")
            self._cancel()
        else:
            self._timer = self._loop.call_at(self._last + self._seconds, self._check)

    def stop(self) -> None:
        """The session ended: the timer is not needed."""
        self._timer.cancel()


FINISH_SECONDS = 1.0
"""How long an ended session waits for its push task to finish the message it is sending
before cancelling it."""


class _Gone(Exception):
    """The WebSocket's client went away."""


class _Closing(Exception):
    """A refusal after which the socket is closed."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.message)
        self.error = error


class _Socket:
    """A server-side WebSocket, with the server's limits on what it receives."""

    def __init__(self, websocket: WebSocket, limits: ServerLimits) -> None:
        self._websocket = websocket
        self._limits = limits
        self._pace = TokenBucket(limits.messages_per_second, limits.message_burst)
        extensions = websocket.scope.get("extensions") or {}
        self.write: WriteText | None = extensions.get(WRITE_TEXT)
        """Writes a text message at once when the connection takes it now (see
        :data:`~avanti.server.transport.uvicorn.WriteText`), if the server offers it."""

    async def send(self, text: str) -> None:
        """Send a text message; :class:`_Gone` if the client has gone."""
        try:
            await self._websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):  # pragma: no cover - a race
            raise _Gone from None

    async def receive(self, timeout: float) -> JSONValue:
        """The next message, parsed (400 for one that is not JSON; the socket stays open).

        :raises _Closing: for a message too large or none within ``timeout`` seconds.
        :raises _Gone: the client went away.
        """
        await self._paced()
        with anyio.move_on_after(timeout) as scope:
            message = await self._websocket.receive()
        if scope.cancelled_caught:
            log(logging.WARNING, "limit", limit="idle_timeout")
            raise _Closing(_idle(timeout))
        return self._read(message)

    async def next(self) -> JSONValue:
        """:meth:`receive` with no timeout of its own (a session's :class:`_Idle` watches)."""
        await self._paced()
        return self._read(await self._websocket.receive())

    async def _paced(self) -> None:
        """Wait, before reading a message, until the connection's rate allows it
        (``messages_per_second``): a client that sends faster is read more slowly, and its
        further messages wait in its own socket."""
        pause = self._pace.take()
        if pause > 0.0:
            await anyio.sleep(pause)

    def _read(self, message: Message) -> JSONValue:
        if message["type"] == "websocket.disconnect":
            raise _Gone
        text = message.get("text")
        raw: str | bytes = text if isinstance(text, str) else message.get("bytes") or b""
        size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
        most = self._limits.max_message_bytes
        if size > most:
            log(logging.WARNING, "limit", limit="max_message_bytes")
            raise _Closing(ApiError(Refusal.TOO_LARGE, f"a message holds at most {most} bytes"))
        try:
            return parse_json(raw)
        except DecodeError as error:
            raise ApiError(Refusal.MALFORMED_JSON, "; ".join(error.errors)[:300]) from None

    async def hello(self) -> Hello:
        """The first message."""
        try:
            message = await self.receive(self._limits.hello_timeout)
        except _Closing as closing:
            raise closing.error from None
        return Hello.read(message)

    async def fail(self, error: ApiError) -> None:
        """Send an ``error`` message, then close the socket with the error's code; neither waits
        longer than the send timeout for a client that does not read."""
        with anyio.move_on_after(self._limits.send_timeout):
            with contextlib.suppress(_Gone):
                await self.send(error_message(error))
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                code = error.refusal.close_code
                await self._websocket.close(4400 if code is None else code)


def _sent_on_joining(recent: list[JSONValue], rematch: str | None, text: str) -> bool:
    """Whether a notice told to a joining connection (``text``) is one it is sent on joining:
    chat messages all among ``recent`` (the chat so far), or the ``rematch``."""
    notice = parse_json(text)
    if not isinstance(notice, dict):  # pragma: no cover - every notice is an object
        return False
    if notice.get("type") == "rematch":
        return rematch is not None and notice.get("game_id") == rematch
    messages = notice.get("messages")
    if notice.get("type") != "chat" or not isinstance(messages, list):
        return False
    ids = {message.get("id") for message in recent if isinstance(message, dict)}
    return all(isinstance(message, dict) and message.get("id") in ids for message in messages)


async def stream(websocket: WebSocket) -> None:
    """``GET /games/{id}/stream``: live updates of one seat's share of a game."""
    server: Server = websocket.app.state.server
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    socket = _Socket(websocket, server.limits)
    game = str(websocket.path_params["game_id"])
    listener: Listener | None = None
    try:
        if websocket.scope.get("query_string"):
            raise ApiError(
                Refusal.BAD_REQUEST,
                "a stream's URL takes no query: send the token in the first message",
            )
        hello = await socket.hello()
        with hub.expecting(game) as expected:
            try:
                seated = await server.read(game_id(game))
            except ApiError as error:
                if error.refusal is not Refusal.UNKNOWN_GAME:  # pragma: no cover - a store's
                    raise
                await _wait_open(server, socket, game, hello.token)
                seated = await server.read(game)
            seat = server.tables.seat_of(seated.table, hello.token)
            if hello.after > seated.game.version:
                raise ApiError(
                    Refusal.BAD_REQUEST,
                    f"'after' is beyond the game's version, {seated.game.version}",
                )
            table = seated.info if hello.table else None
            listener = Listener(
                game,
                seat,
                hello.after,
                socket.send,
                table,
                hello.layout,
                send_timeout=server.limits.send_timeout,
                outbox_bytes=server.limits.outbox_bytes,
                write=socket.write,
            )
            listener.clock = server.clock.of
            try:
                hub.join(listener)
            except ApiError as error:
                listener = None
                if error.refusal is Refusal.TOO_MANY_CONNECTIONS:
                    log(logging.WARNING, "limit", limit="connections_per_game", game=game)
                raise
        log(logging.DEBUG, "stream-open", game=game, seat=seat, after=hello.after)
        # What this process announced between the read and the join reached the listeners the
        # game had then, maybe none, and the follower reports only other processes' writes: a
        # newer version announced meanwhile is sent in place of the one read, and a message
        # told meanwhile (a rematch) has the record read once more. The chat so far is read now
        # that every message reaches this listener; what was told to it meanwhile and is sent
        # in the chat so far or as the rematch is not sent twice.
        recent = await to_thread.run_sync(server.chat.recent, seated.record.stream)
        later = seated.kept.rematch
        if expected.told:
            now = await to_thread.run_sync(server.tables.read, seated.record.stream)
            later = now.kept.rematch
        listener.forget_told(functools.partial(_sent_on_joining, recent, later))
        await listener.send_update(expected.newer(seated.game), always=True)
        if recent:  # the chat so far, right after the first update
            await listener.send(dumps({"type": "chat", "messages": recent}))
        if later is not None:
            await listener.send(dumps({"type": "rematch", "game_id": later}))
        raise await _listen(server, socket, listener)
    except _Closing as closing:
        await socket.fail(closing.error)
    except _Gone:
        pass
    except Exception as error:  # a refusal, a failing store, an unreadable game or a bug
        await socket.fail(refusal_of(error, game=game))
    finally:
        if listener is not None:
            hub.leave(listener)
            log(logging.DEBUG, "stream-closed", game=game, seat=listener.seat)


class _Watch:
    """An open table this process's sockets wait for: read from the store at most once every
    :data:`OPEN_POLL_SECONDS`, however many sockets wait for it (each describes it for its own
    seat from the one read)."""

    def __init__(self) -> None:
        self.sockets = 0
        self.lock = anyio.Lock()
        self.table: OpenTable | None = None
        self.read_at = -math.inf

    async def fresh(self, server: Server, game: str) -> OpenTable:
        """The table, read again if the last read is older than the poll."""
        async with self.lock:
            if self.table is None or anyio.current_time() - self.read_at >= OPEN_POLL_SECONDS:
                self.table = await to_thread.run_sync(server.joining.poll, game)
                self.read_at = anyio.current_time()
            return self.table


async def _wait_open(server: Server, socket: _Socket, game: str, token: str | None) -> None:
    """While ``game`` is a table with open seats, send its public state (a ``table`` message)
    whenever a seat is taken, and answer pings; return once its game has started."""
    limits = server.limits
    watch = server.waiting.get(game)
    if watch is not None and watch.sockets >= limits.connections_per_game:
        log(logging.WARNING, "limit", limit="connections_per_game", game=game)
        raise ApiError(
            Refusal.TOO_MANY_CONNECTIONS,
            f"this table has {limits.connections_per_game} connections already, the most one "
            "server takes",
        )
    if watch is None:
        watch = server.waiting[game] = _Watch()
    watch.sockets += 1
    try:
        await _wait_started(server, socket, game, token, watch)
    finally:
        watch.sockets -= 1
        if not watch.sockets:
            del server.waiting[game]


async def _wait_started(
    server: Server, socket: _Socket, game: str, token: str | None, watch: _Watch
) -> None:
    """The loop of :func:`_wait_open`: the table as it is told at most every
    :data:`OPEN_POLL_SECONDS`, and closed when it did not start within the idle timeout (in
    seconds, however many messages came meanwhile)."""
    limits = server.limits
    told: object = None
    closing = anyio.current_time() + limits.idle_timeout
    while True:
        described = described_for(await watch.fresh(server, game), token)
        if described["started"]:
            return
        if described != told:
            await socket.send(dumps({"type": "table", **described}))
            told = described
        left = closing - anyio.current_time()
        if left <= 0:
            raise _Closing(ApiError(Refusal.IDLE_TIMEOUT, "the table did not fill in time"))
        with anyio.move_on_after(min(OPEN_POLL_SECONDS, left)):
            message = await socket.receive(limits.idle_timeout)
            if isinstance(message, dict) and message.get("type") == "ping":
                await socket.send('{"type":"pong"}')
            else:
                await socket.send(
                    error_message(
                        ApiError(
                            Refusal.BAD_REQUEST, "the table waits for players: no commands yet"
                        )
                    )
                )


async def _listen(server: Server, socket: _Socket, listener: Listener) -> Exception:
    """Push updates to the socket while answering its messages, until the client goes, breaks
    a limit or falls behind; what ended it (raised by the caller, outside the task group)."""
    ended: Exception = _Gone()
    async with anyio.create_task_group() as tasks:
        listener.on_cut = tasks.cancel_scope.cancel  # it fell behind: end the session
        idle = _Idle(server.limits.idle_timeout, tasks.cancel_scope.cancel)

        async def push() -> None:
            with contextlib.suppress(_Gone, Behind):  # a client gone is seen by _serve
                await listener.run()

        tasks.start_soon(push)
        try:
            await _serve(server, socket, listener, idle)
        except Exception as error:
            ended = error
        finally:
            idle.stop()
        listener.finish()  # the push task returns (cancelling it would leave a cycle behind)
        tasks.cancel_scope.deadline = anyio.current_time() + FINISH_SECONDS
    if isinstance(ended, (_Gone, _Closing)):
        # an expected end: its traceback would hold this frame, and the frame it (a cycle that
        # only the garbage collector frees, with every frame of the session)
        ended.__traceback__ = None
    if listener.behind is not None:
        return _behind(listener, Behind(listener.behind))
    if idle.expired:
        return _Closing(_idle(server.limits.idle_timeout))
    return ended


def _behind(listener: Listener, behind: Behind) -> _Closing:
    """The end of a session whose client fell behind (see
    :class:`~avanti.server.transport.push.Behind`), logged as a limit hit."""
    limit = "outbox_bytes" if "bytes" in behind.why else "send_timeout"
    log(logging.WARNING, "limit", limit=limit, game=listener.game_id)
    return _Closing(ApiError(Refusal.TOO_SLOW, f"the connection fell behind: {behind.why}"))


async def _serve(server: Server, socket: _Socket, listener: Listener, idle: _Idle) -> None:
    """Answer the client's messages until it goes away or breaks a limit that closes the socket
    (:class:`ApiError` then). Answers are queued for the listener's writer, in order: an error
    or a pong as it is, a stored command in the seat's next update."""
    game, seat = listener.game_id, listener.seat
    limits = server.limits
    bucket = TokenBucket(limits.commands_per_second, limits.command_burst)
    # A cut listener ends the session here: its cancellation may never reach a reader whose
    # messages are all queued already (taking one from a full queue never waits).
    while listener.behind is None:
        try:
            message = await socket.next()
            idle.heard()
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                raise ApiError(Refusal.BAD_REQUEST, 'a message is an object with a "type"')
            if message["type"] == "ping":
                listener.reply('{"type":"pong"}')
                continue
            if message["type"] == "chat":
                await _chat(server, listener, message)
                continue
            if message["type"] != "command":
                raise ApiError(
                    Refusal.BAD_REQUEST, 'a message\'s "type" is "command", "chat" or "ping"'
                )
            request = CommandRequest.read(message, frozenset({"type"}))
            if seat is None:
                raise ApiError(Refusal.FORBIDDEN, "a spectator sends no commands")
            if not bucket.allow():
                log(logging.WARNING, "limit", limit="commands_per_second", game=game, seat=seat)
                raise ApiError(
                    Refusal.RATE_LIMITED,
                    f"at most {limits.commands_per_second:g} commands a second on one connection",
                )
            acted = await server.act(game, request, seat=seat)
            listener.answer(acted.game, request.command_id)
        except (ApiError, StoreError) as error:  # answered; the socket stays open
            listener.reply(error_message(refusal_of(error, game=game)))
