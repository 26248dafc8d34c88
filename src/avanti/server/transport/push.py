"""Live updates: every change to a game reaches every WebSocket listening to it, from any process.

The :class:`Hub` runs one watcher task that blocks in the store's
:meth:`~avanti.store.GameStore.follow_any` (in one worker thread, for every game with listeners
at once) until another writer (another server process on the same database) moves a game past
the newest version its listeners were offered, then loads that game and offers it to every
listener. Changes made in this process are offered at once (:meth:`Hub.publish`): they neither
wake the watcher (``others``) nor are loaded again.

Each :class:`Listener` is one connection bound to one seat (or a spectator). It remembers the
last version it sent and, when offered a newer game, sends that seat's ``update``: the events
after its last version as the seat sees them, its view and legal commands. A slow connection
never holds up the others: offers to it are coalesced, and it catches up with one update
holding everything it has not yet been sent.

What a connection is owed is bounded: its newest game (one, however many versions were
offered), and its notices (chat messages, a rematch) in one queue of at most
:attr:`~avanti.server.limits.ServerLimits.outbox_bytes`. A connection that falls further behind,
or whose client takes more than :attr:`~avanti.server.limits.ServerLimits.send_timeout` to take
one message (it does not read), is cut (:class:`Behind`): its session closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import threading
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterator
from typing import cast

import anyio
import anyio.abc
from anyio import to_thread

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import AvantiError
from avanti.server.limits import ServerLimits
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.wire import AnyGame, ApiError, Shared, dumps, update
from avanti.server.table.changes import Change, Changes, Moved
from avanti.store import GameStore

__all__ = ["FOLLOW_SECONDS", "Behind", "Expected", "Hub", "Listener"]

FOLLOW_SECONDS = 0.25
"""How long one :meth:`~avanti.store.GameStore.follow_any` call blocks before it is made again
(with the games listened to by then: a game that gains its first listener is watched from the
next call on; the listener is sent the game as it is when it joins)."""

RETRY_SECONDS = 1.0
"""How long a follower waits after the store failed before it tries again."""

PAYLOADS = 4_096
"""How many built ``update`` messages a hub keeps, so that the seats of a change (and every
connection of one seat, and every spectator) share one payload: built once, sent to each."""

SHARED = 1_024
"""How many games' :class:`~avanti.server.protocol.wire.Shared` a hub keeps (the newest version
of each: what the seats' updates of one version share, built once)."""

Build = Callable[[str, AnyGame, "int | None", int, "catalog.GameInfo | None", str], str]
"""Builds the text of an ``update``: game id, game, seat, the version sent before, table, and
the picture's layout."""


def build_update(
    game_id: str,
    game: AnyGame,
    seat: int | None,
    after: int,
    table: catalog.GameInfo | None,
    layout: str = "wide",
) -> str:
    """The text of ``seat``'s ``update`` (see :func:`avanti.server.protocol.wire.update`), its
    picture drawn in ``layout``."""
    return dumps(update(game, seat, after, table, layout=layout))


class Behind(Exception):
    """A connection fell behind: its client did not take a message within the send timeout, or
    more than the outbox's bytes waited for it. Its session closes it."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
        """What happened, in words a client may read."""


class Listener:
    """One connection's subscription to a game, for one seat (``None``: a spectator).

    ``send`` sends one text message on the connection; ``write``, when given, writes one at
    once if the connection takes it now (else ``False``, and ``send`` sends it, waiting for
    the client). Once :meth:`run` runs, it alone sends:
    the session queues its answers (:meth:`reply`, :meth:`answer`) and the hub its notices
    (:meth:`tell`) and games (:meth:`offer`), so messages never interleave and nobody waits
    for a slow client but its own writer. A command the seat's session accepted is answered by
    the seat's next ``update``, which carries it (``"results"``): one message per change. Every
    send must end within ``send_timeout`` seconds, and at most ``outbox_bytes`` of queued
    messages wait: past either, the listener is cut (:attr:`behind`; :meth:`run` and
    :meth:`send` raise :class:`Behind`) and ``on_cut`` is called (the session ends).
    """

    def __init__(
        self,
        game_id: str,
        seat: int | None,
        after: int,
        send: Callable[[str], Awaitable[None]],
        table: catalog.GameInfo | None = None,
        layout: str = "wide",
        *,
        send_timeout: float = math.inf,
        outbox_bytes: int = 1 << 20,
        write: Callable[[str], bool] | None = None,
    ) -> None:
        self.game_id = game_id
        """The game listened to."""
        self.seat = seat
        """The seat whose share of the game is sent."""
        self.last = after
        """The version up to which this connection has been sent the game."""
        self.table = table
        """The game's catalog entry when each update carries the seat's table, else ``None``."""
        self.layout = layout
        """The layout of the table's picture: ``"wide"`` or ``"narrow"`` (a phone's)."""
        self.build: Build = build_update
        """How the listener's updates are built (a hub shares one payload among its seats)."""
        self.clock: Callable[[str, AnyGame], object] | None = None
        """The ``clock`` each update carries (``...``: none), if the game may have one."""
        self.on_cut: Callable[[], None] | None = None
        """Called once when the listener is cut (its session ends then)."""
        self._send = send
        self._write = write
        self._send_timeout = send_timeout
        self._outbox_bytes = outbox_bytes
        self._newest: AnyGame | None = None
        self._outbox: deque[str | _Result] = deque()
        self._waiting = 0  # the characters of the messages waiting
        self._behind: str | None = None
        self._wake = asyncio.Event()  # the loop's own: set for every message, cheaply
        self._sending_since: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._finished = False
        self._idle = False  # run() waits for news with nothing left to send
        self._flushing: asyncio.Handle | None = None  # a _flush to come

    @property
    def behind(self) -> str | None:
        """Why the connection was cut (see :class:`Behind`), or ``None``."""
        return self._behind

    def offer(self, game: AnyGame) -> None:
        """Note a version of the game; the listener's :meth:`run` sends it if it is news."""
        if self._newest is None or game.version > self._newest.version:
            self._newest = game
            self._poke()

    def tell(self, text: str) -> None:
        """Queue a notice (a chat message, a rematch) for :meth:`run` to send, in order; a
        connection with more than ``outbox_bytes`` waiting is cut instead."""
        self._queue(text, len(text))

    def forget_told(self, covered: Callable[[str], bool]) -> None:
        """Take back the notices queued by :meth:`tell` that ``covered`` says the connection is
        sent otherwise (a joining connection's chat so far and rematch, read after it joined)."""
        kept = [item for item in self._outbox if not (isinstance(item, str) and covered(item))]
        self._waiting -= sum(len(item) for item in self._outbox if isinstance(item, str))
        self._waiting += sum(len(item) for item in kept if isinstance(item, str))
        self._outbox.clear()
        self._outbox.extend(kept)

    def reply(self, text: str) -> None:
        """Queue the session's answer to one of its messages (an ``error``, a ``pong``), sent
        in order with everything queued before it."""
        self._queue(text, len(text))

    def answer(self, game: AnyGame, command_id: str | None) -> None:
        """Queue the answer to a command of the seat's that was stored: the seat's ``update``
        at ``game``'s version (or a newer one) carries it in ``"results"``; a bare ``result``
        when that update was sent already (a retry of a command stored before)."""
        self.offer(game)
        self._queue(_Result(game.version, command_id), 64)

    def _queue(self, item: str | _Result, size: int) -> None:
        if self._behind is not None:
            return
        if self._waiting + size > self._outbox_bytes:
            self._cut(f"more than {self._outbox_bytes} bytes waited to be sent to this connection")
            return
        self._outbox.append(item)
        self._waiting += size
        self._poke()

    def _poke(self) -> None:
        """News for :meth:`run`: written at once by :meth:`_flush`, soon after the caller's
        turn of the event loop (so that a command's answer joins the update its announcement
        offered), when the writer is idle and the connection takes messages at once; else
        the writer task is woken."""
        if self._idle and self._write is not None and self.table is None:
            if self._flushing is None:
                self._flushing = asyncio.get_running_loop().call_soon(self._flush)
        else:
            self._wake.set()

    def _flush(self) -> None:
        """What :meth:`run` would send, written without waking it, message by message while
        the connection takes each at once; what it does not take is left to :meth:`run`
        (woken), from the first message not written, so none is lost or sent twice."""
        self._flushing = None
        write = self._write
        if not self._idle or write is None or self._behind is not None or self._finished:
            self._wake.set()
            return
        outbox = self._outbox
        while outbox:
            item = outbox[0]
            if isinstance(item, str):
                if not write(item):
                    self._wake.set()
                    return
                outbox.popleft()
                self._waiting -= len(item)
                continue
            results: list[_Result] = []
            for waiting in outbox:
                if not isinstance(waiting, _Result):
                    break
                results.append(waiting)
            game = self._newest
            if game is None or game.version <= self.last:  # bare, one by one
                for result in results:
                    if not write(dumps(result.message("result"))):
                        self._wake.set()
                        return
                    outbox.popleft()
                    self._waiting -= 64
                continue
            if not write(self._answered(game, results)):
                self._wake.set()
                return
            for _ in results:
                outbox.popleft()
            self._waiting -= 64 * len(results)
            self.last = max(self.last, game.version)
        game = self._newest
        if game is not None and game.version > self.last:
            if not write(self._update(game, min(self.last, game.version))):
                self._wake.set()
                return
            self.last = max(self.last, game.version)

    def _cut(self, why: str) -> None:
        if self._behind is not None:
            return
        self._behind = why
        self._outbox.clear()
        self._waiting = 0
        self._newest = None
        self._wake.set()
        if self.on_cut is not None:
            self.on_cut()

    def _overdue(self) -> None:
        """The send timer: cut the listener if the send under way began more than
        ``send_timeout`` ago, else wait for that one's deadline."""
        self._timer = None
        since = self._sending_since
        if since is None or self._behind is not None:
            return
        loop = asyncio.get_running_loop()
        if loop.time() - since >= self._send_timeout:
            self._cut(f"the client took more than {self._send_timeout:g} s to take a message")
        else:
            self._timer = loop.call_at(since + self._send_timeout, self._overdue)

    def finish(self) -> None:
        """The session ended: :meth:`run` returns at its next turn, after the message it is
        sending (a task ended so, not cancelled, leaves no exception with its frames behind
        for the garbage collector)."""
        self._finished = True
        self._wake.set()

    def stop(self) -> None:
        """The session ended: stop the send timer (armed, it would keep the listener and its
        connection alive until it fires)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._flushing is not None:
            self._flushing.cancel()
            self._flushing = None

    async def _timed(self, text: str) -> None:
        """Send within the send timeout, else :class:`Behind`: a timer (armed once for many
        sends) cuts the listener when a send outlasts it."""
        if self._behind is not None:
            raise Behind(self._behind)
        if self._write is not None and self._write(text):  # taken at once
            return
        if math.isinf(self._send_timeout):
            await self._send(text)
            return
        loop = asyncio.get_running_loop()
        self._sending_since = now = loop.time()
        if self._timer is None:
            self._timer = loop.call_at(now + self._send_timeout, self._overdue)
        try:
            await self._send(text)
        finally:
            self._sending_since = None
        if self._behind is not None:
            raise Behind(self._behind)

    async def send(self, text: str) -> None:
        """Send one message on the connection before :meth:`run` runs (its first messages); a
        client that takes none within the send timeout is cut."""
        with anyio.move_on_after(self._send_timeout) as scope:
            await self._timed(text)
        if scope.cancelled_caught:
            self._cut(f"the client took more than {self._send_timeout:g} s to take a message")
            raise Behind(self._behind or "")

    def _update(self, game: AnyGame, after: int) -> str:
        """The seat's ``update`` for ``game`` holding everything after version ``after``."""
        message = self.build(self.game_id, game, self.seat, after, self.table, self.layout)
        clock = ... if self.clock is None else self.clock(self.game_id, game)
        if clock is not ...:  # a timed game: its deadline, added to the shared payload
            message = f'{message[:-1]},"clock":{dumps(clock)}}}'
        return message

    async def _built(self, game: AnyGame) -> str:
        after = min(self.last, game.version)
        if self.table is None:
            return self._update(game, after)
        # a table (a picture drawn, the history in words) is built off the event loop
        return await to_thread.run_sync(self._update, game, after)

    async def send_update(self, game: AnyGame, *, always: bool = False) -> None:
        """Send the seat's ``update`` for ``game`` if it is newer than what was sent (or
        ``always``), holding everything after the last version sent (before :meth:`run`)."""
        if game.version <= self.last and not always:
            return
        await self.send(await self._built(game))
        self.last = max(self.last, game.version)

    async def run(self) -> None:
        """Send what is queued and every newer version offered, until :meth:`finish`, cancelled,
        the connection fails, or it falls behind (:class:`Behind`)."""
        outbox = self._outbox
        while True:
            self._idle = True
            try:
                await self._wake.wait()
            finally:
                self._idle = False
            self._wake.clear()
            if self._finished:
                return
            if self._behind is not None:
                raise Behind(self._behind)
            while outbox:
                item = outbox.popleft()
                if isinstance(item, str):
                    self._waiting -= len(item)
                    await self._timed(item)
                    continue
                results = [item]
                while outbox and isinstance(outbox[0], _Result):
                    results.append(cast(_Result, outbox.popleft()))
                self._waiting -= 64 * len(results)
                await self._answer(results)
            game = self._newest
            if game is not None and game.version > self.last:
                await self._timed(await self._built(game))
                self.last = max(self.last, game.version)

    async def _answer(self, results: list[_Result]) -> None:
        """Send the answers to stored commands: in the seat's update at (or past) their
        versions, or bare when that update went out already."""
        game = self._newest
        if game is None or game.version <= self.last:
            for result in results:
                await self._timed(dumps(result.message("result")))
            return
        if self.table is None:
            message = self._answered(game, results)
        else:
            answers = dumps([result.message() for result in results])
            built = await self._built(game)
            message = f'{built[:-1]},"results":{answers}}}'
        await self._timed(message)
        self.last = max(self.last, game.version)

    def _answered(self, game: AnyGame, results: list[_Result]) -> str:
        """The seat's update for ``game`` carrying the answers ``results`` (no table)."""
        answers = dumps([result.message() for result in results])
        message = self._update(game, min(self.last, game.version))
        return f'{message[:-1]},"results":{answers}}}'


class _Result:
    """A stored command's answer, waiting in a listener's outbox."""

    __slots__ = ("command_id", "version")

    def __init__(self, version: int, command_id: str | None) -> None:
        self.version = version
        self.command_id = command_id

    def message(self, kind: str | None = None) -> dict[str, JSONValue]:
        """The answer as JSON: ``{"version": v, "command_id": ...}``, with ``"type"``: kind."""
        message: dict[str, JSONValue] = {} if kind is None else {"type": kind}
        message["version"] = self.version
        if self.command_id is not None:
            message["command_id"] = self.command_id
        return message


class _Channel:
    """The listeners of one game and the newest version of it offered to them."""

    __slots__ = ("known", "listeners", "newest")

    def __init__(self, known: int) -> None:
        self.listeners: set[Listener] = set()
        self.known = known
        self.newest: AnyGame | None = None

    def offer(self, game: AnyGame) -> None:
        """Offer a version of the game to every listener, and keep it for those who join."""
        self.known = max(self.known, game.version)
        if self.newest is None or game.version > self.newest.version:
            self.newest = game
        for listener in list(self.listeners):
            listener.offer(game)


class Expected:
    """What this process announced for a game while a socket read it and joined its listeners
    (:meth:`Hub.expecting`): that reached the listeners the game had then, maybe none."""

    __slots__ = ("newest", "sockets", "told")

    def __init__(self) -> None:
        self.sockets = 0
        self.newest: AnyGame | None = None
        """The newest version of the game announced meanwhile, if any."""
        self.told = False
        """Whether a message (a chat message, a rematch) was told to the game meanwhile."""

    def offer(self, game: AnyGame) -> None:
        """Note a version of the game announced meanwhile (the newest is kept)."""
        if self.newest is None or game.version > self.newest.version:
            self.newest = game

    def newer(self, game: AnyGame) -> AnyGame:
        """``game`` (as a socket read it), or the newer version announced meanwhile."""
        newest = self.newest
        return newest if newest is not None and newest.version > game.version else game


class Hub:
    """The games this process pushes to WebSocket listeners (see the module's docstring)."""

    def __init__(
        self,
        games: GameStore,
        limits: ServerLimits,
        follow_seconds: float = FOLLOW_SECONDS,
        changes: Changes | None = None,
    ) -> None:
        self._changes = Changes() if changes is None else changes
        self._changes.hear(self.hear)
        self._games = games
        self._limits = limits
        self._follow_seconds = follow_seconds
        self._channels: dict[str, _Channel] = {}
        self._tasks: anyio.abc.TaskGroup | None = None
        self._joined = anyio.Event()
        self._payloads: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self._payloads_lock = threading.Lock()
        self._shared: OrderedDict[str, Shared] = OrderedDict()  # by game: its newest version's
        self._expected: dict[str, Expected] = {}  # by game, while sockets read it and join

    def build(
        self,
        game_id: str,
        game: AnyGame,
        seat: int | None,
        after: int,
        table: catalog.GameInfo | None,
        layout: str = "wide",
    ) -> str:
        """The text of an ``update``, built once for every listener that needs the same one."""
        key = (game_id, game.version, seat, after, table is not None, layout)
        with self._payloads_lock:
            text = self._payloads.get(key)
            shared = self._shared.get(game_id)
            if shared is None or shared.version < game.version:
                shared = self._shared[game_id] = Shared(game)
                if len(self._shared) > SHARED:
                    self._shared.popitem(last=False)
            elif shared.version > game.version:  # an older version (a late listener): its own
                shared = Shared(game)
        if text is None:
            text = dumps(update(game, seat, after, table, layout=layout, shared=shared))
            with self._payloads_lock:
                self._payloads[key] = text
                if len(self._payloads) > PAYLOADS:
                    self._payloads.popitem(last=False)
        return text

    def start(self, tasks: anyio.abc.TaskGroup) -> None:
        """Run the watcher in ``tasks`` (the server's lifespan task group)."""
        self._tasks = tasks
        tasks.start_soon(self._watch)

    def stop(self) -> None:
        """Forget the task group: no listener joins any more."""
        self._tasks = None

    def join(self, listener: Listener) -> None:
        """Add a listener; its game is watched from now on.

        :raises ApiError: 429 ``too-many-connections`` when the game has
            :attr:`~avanti.server.limits.ServerLimits.connections_per_game` already; 503
            ``unavailable`` before the server has started or after it stopped.
        """
        if self._tasks is None:
            raise ApiError(Refusal.UNAVAILABLE, "the server is not running (start its lifespan)")
        channel = self._channels.get(listener.game_id)
        if channel is None:
            channel = self._channels[listener.game_id] = _Channel(listener.last)
            self._joined.set()
        if len(channel.listeners) >= self._limits.connections_per_game:
            raise ApiError(
                Refusal.TOO_MANY_CONNECTIONS,
                f"this game has {self._limits.connections_per_game} connections already, the "
                "most one server takes",
            )
        listener.build = self.build
        channel.listeners.add(listener)
        channel.known = max(channel.known, listener.last)
        if channel.newest is not None:  # offered while the listener was loading the game
            listener.offer(channel.newest)

    @contextlib.contextmanager
    def expecting(self, game_id: str) -> Iterator[Expected]:
        """Note what this process announces for a game while the block runs: a socket reads
        the game, then joins its listeners (:meth:`join`), and an announcement made between the
        two reached the listeners the game had then, maybe none (the follower reports only
        other processes' writes). Kept only while a socket is inside the block: as many as the
        connections."""
        expected = self._expected.get(game_id)
        if expected is None:
            expected = self._expected[game_id] = Expected()
        expected.sockets += 1
        try:
            yield expected
        finally:
            expected.sockets -= 1
            if not expected.sockets:
                del self._expected[game_id]

    def leave(self, listener: Listener) -> None:
        """Remove a listener that joined (and stop watching its game after the last, whose
        :class:`~avanti.server.protocol.wire.Shared` is let go); its send timer is stopped."""
        listener.stop()
        channel = self._channels[listener.game_id]
        channel.listeners.discard(listener)
        if not channel.listeners:
            del self._channels[listener.game_id]
            with self._payloads_lock:  # what its updates shared is needed by nobody here now
                self._shared.pop(listener.game_id, None)

    def tell(self, game_id: str, text: str) -> None:
        """Queue one message (a chat message, a rematch) for every connection of a game in
        this process (:meth:`Listener.tell`): each sends it in its own task, in order, and a
        connection that fell behind is cut, so a slow or gone one holds up no other."""
        expected = self._expected.get(game_id)
        if expected is not None:
            expected.told = True
        channel = self._channels.get(game_id)
        if channel is None or self._tasks is None:
            return
        for listener in list(channel.listeners):
            listener.tell(text)

    def known(self, game_id: str) -> int:
        """The newest version of a game this hub has seen stored (0 for a game it does not
        watch): a command decided at an older version is stale without asking the store."""
        channel = self._channels.get(game_id)
        return 0 if channel is None else channel.known

    def hear(self, change: Change) -> None:
        """A change (:mod:`~avanti.server.table.changes`): a game's new version offered to its
        listeners in this process, a message told to each."""
        if isinstance(change, Moved):
            self.publish(change.game_id, change.game)
        else:
            self.tell(change.game_id, change.text)

    def publish(self, game_id: str, game: AnyGame) -> None:
        """Offer a version of a game to its listeners in this process."""
        expected = self._expected.get(game_id)
        if expected is not None:
            expected.offer(game)
        channel = self._channels.get(game_id)
        if channel is not None:
            channel.offer(game)

    async def _watch(self) -> None:
        """Offer each watched game to its listeners whenever its stored version passes the
        newest version they were offered, until cancelled: one worker thread blocks in the
        store's :meth:`~avanti.store.GameStore.follow_any` for every game at once."""
        while True:
            watched = {
                game_id: channel.known
                for game_id, channel in list(self._channels.items())[: self._limits.watched_games]
            }
            if not watched:
                await self._joined.wait()
                self._joined = anyio.Event()
                continue
            try:
                moved = await to_thread.run_sync(
                    functools.partial(
                        self._games.follow_any, watched, self._follow_seconds, others=True
                    ),
                    abandon_on_cancel=True,
                )
                news = {
                    game_id: version
                    for game_id, version in moved.items()
                    if game_id in self._channels and version > self._channels[game_id].known
                }
                if not news:
                    continue
                loaded = await to_thread.run_sync(self._load, list(news))
            except AvantiError as error:
                log(
                    logging.WARNING,
                    "follow-failed",
                    problem=type(error).__name__,
                    message=str(error),
                )
                await anyio.sleep(RETRY_SECONDS)
                continue
            except Exception:  # pragma: no cover - a bug: the server goes on
                logging.getLogger("avanti.server").exception("follower failed")
                await anyio.sleep(RETRY_SECONDS)
                continue
            for game_id, game in loaded.items():
                channel = self._channels.get(game_id)
                if channel is not None and game.version > channel.known:
                    self._changes.announce(Moved(game_id, game, here=False))

    def _load(self, game_ids: list[str]) -> dict[str, AnyGame]:
        """In a worker thread: the games that moved (a game that cannot be loaded is logged
        and left out, the others are offered)."""
        loaded: dict[str, AnyGame] = {}
        for game_id in game_ids:
            try:
                loaded[game_id] = self._games.load(game_id)
            except AvantiError as error:
                log(
                    logging.WARNING,
                    "follow-failed",
                    game=game_id,
                    problem=type(error).__name__,
                    message=str(error),
                )
        return loaded
