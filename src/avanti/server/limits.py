"""The server's limits (:class:`ServerLimits`) and the token buckets that enforce the rates.

Every limit refuses with a clear error (an HTTP status and an ``{"error": {"kind", "message"}}``
body, or a WebSocket ``error`` message) and a log line naming the limit; nothing a refused request
asked for is done.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

from attrs import Attribute, field, frozen

from avanti.bots import BOT_KINDS
from avanti.core.errors import InvalidArgument
from avanti.store.base import MAX_LIST_LIMIT

__all__ = ["Buckets", "ServerLimits", "TokenBucket"]


def _positive(value: object, what: str, *, whole: bool = False) -> None:
    """Refuse a value that is not a positive finite number (an ``int`` where ``whole``)."""
    if whole:
        if type(value) is not int or value < 1:
            raise InvalidArgument(f"{what} must be an int >= 1, not {value!r}")
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value <= 0
    ):
        raise InvalidArgument(
            f"{what} must be a number of seconds or a rate above 0, not {value!r}"
        )


def _whole_at_least(least: int) -> Callable[[object, Attribute[int], object], None]:
    """An attrs validator refusing a value that is not an ``int`` >= ``least``."""

    def check(instance: object, attribute: Attribute[int], value: object) -> None:
        if type(value) is not int or value < least:
            raise InvalidArgument(f"{attribute.name} must be an int >= {least}, not {value!r}")

    return check


@frozen(kw_only=True)
class ServerLimits:
    """What the server accepts from one client; pass your own to
    :func:`avanti.server.create_app`.

    Each limit, when hit, is refused with the status (or WebSocket error) named below and logged
    as one line with ``"event": "limit"`` and the limit's name.
    """

    max_body_bytes: int = 64 * 1024
    """The longest HTTP request body, in bytes (413 ``too-large``)."""
    max_message_bytes: int = 64 * 1024
    """The longest WebSocket message from a client, in bytes (``error`` ``too-large``, then the
    socket is closed with code 1009)."""
    commands_per_second: float = 10.0
    """Commands a seat may send per second over HTTP, and a WebSocket connection over its socket,
    on average (429 ``rate-limited``)."""
    command_burst: int = 20
    """Commands a seat or connection may send at once before the rate applies."""
    games_per_second: float = 1.0
    """Games one client address may create per second, on average (429 ``rate-limited``). Behind
    a proxy every client has the proxy's address: raise it there."""
    games_burst: int = 20
    """Games one client address may create at once before the rate applies."""
    games_per_client: int = 20
    """Games in play (not over, moved in within :attr:`lobby_seconds`) one client address may
    have created; it creates another once one is over (429 ``rate-limited``). So a flood from
    one address cannot push the others' games out of the lobby. A server process counts them
    from the recent games' records, read at most once a second, and from its own creations and
    ends at once; another process's count from its next read."""
    seats_per_second: float = 1.0
    """Open seats one client address may take per second, on average (429 ``rate-limited``)."""
    seats_burst: int = 10
    """Open seats one client address may take at once before the rate applies."""
    chat_length: int = 500
    """The most characters (code points) of one chat message (``error`` ``invalid-request``):
    at most four times as many bytes in UTF-8."""
    chat_per_second: float = 1.0
    """Chat messages one seat may send per second, on average, over all its connections and
    reconnections (``error`` ``rate-limited``)."""
    chat_burst: int = 5
    """Chat messages one seat may send at once before the rate applies."""
    messages_per_second: float = 50.0
    """Messages of any kind (commands, chat, pings, and messages refused) one WebSocket
    connection is read per second, on average: beyond it the server waits before it reads the
    next one (the client's further messages wait in its own socket), so that one connection
    makes the server spend a bounded share of its time. Not refused."""
    message_burst: int = 100
    """Messages one WebSocket connection is read at once before the rate applies."""
    connections_per_game: int = 64
    """Open WebSocket connections to one game in one server process (``error``
    ``too-many-connections``, then close code 1013)."""
    idle_timeout: float = 300.0
    """Seconds a WebSocket may stay silent before the server closes it (``error``
    ``idle-timeout``, close code 4408); a client keeps a quiet socket open with ``{"type":
    "ping"}``."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to send its first message (the token) before it is closed."""
    header_timeout: float = 10.0
    """Seconds a client has to send a request's headers, from its first byte (``avanti serve``
    closes the connection then: a client that trickles its headers holds nothing for long)."""
    body_timeout: float = 10.0
    """Seconds a client has to send a request's body once its headers are in (408
    ``request-timeout``)."""
    keep_alive_timeout: float = 5.0
    """Seconds an idle HTTP connection is kept open between requests (``avanti serve``)."""
    max_connections: int = 800
    """Open connections one ``avanti serve`` process takes; beyond them it answers 503 at once
    (below a common limit of 1,024 open files, so the store and the logs keep theirs)."""
    list_limit: int = 100
    """The most games ``GET /games`` returns (``?limit=`` may ask for fewer)."""
    lobby_seconds: float = 3_600.0
    """A game leaves the lobby when it is over or when nobody moved in it for this long (it
    stays in the store: ``GET /games/{id}`` still reads it)."""
    watched_games: int = 1_000
    """The most games one process watches in the store for its WebSocket listeners (all in one
    worker thread); listeners of further games get the changes made by this process at once,
    and those of other processes once fewer games are watched."""
    bot_kinds: tuple[str, ...] = BOT_KINDS
    """The bots a game may seat (of :data:`avanti.bots.BOT_KINDS`)."""
    chat_per_game: int = 1_000
    """The most chat messages one game's chat keeps; once it holds them, a seat's message is
    refused (``error`` 409 ``conflict``). With :attr:`chat_length` it bounds a chat's size in
    the store (2 MB of text at most by default)."""
    open_table_seconds: float = 3_600.0
    """Seconds a table with open seats waits for its next player: when nobody created it or took
    a seat at it for this long it is closed, leaves ``GET /games``, and its seats, its start and
    ``GET /games/{id}`` are refused (410 ``table-expired``). The store keeps its record (a store
    deletes nothing): the table is closed by its age alone."""
    lobby_per_client: int = 5
    """The most tables one client address created that ``GET /games`` lists in each of its parts
    (open tables, games in play, finished games); not refused: the others are not listed, and
    ``GET /games/{id}`` still reads them. Within each part every address's newest table comes
    before any address's second, so a flood from many addresses cannot hide another address's
    table. Behind a proxy every client has the proxy's address: raise it there."""
    lobby_scan: int = MAX_LIST_LIMIT
    """The most records of open tables, and of games, ``GET /games`` reads to choose its entries
    (from :attr:`list_limit` to the store's ``MAX_LIST_LIMIT``); not refused: older ones are
    not listed."""
    send_timeout: float = 30.0
    """Seconds a message to a WebSocket may take to go out (a client that does not read takes
    forever): past them the connection is closed (``error`` 408 ``too-slow``, close code 4408).
    A client that reads is never near it."""
    outbox_bytes: int = 1 << 20
    """The most characters of chat messages and notices waiting to be sent to one WebSocket
    connection (its game's updates wait as one, the newest); a connection that falls further
    behind is closed (``error`` 408 ``too-slow``, close code 4408)."""
    lab_workers: int = field(default=1, validator=_whole_at_least(1))
    """Rules lab jobs (``POST /lab/compare``, ``POST /lab/replay``) one process works on at
    once, each in a worker thread, whoever asked: the lab's budget of CPU, so that the game
    endpoints keep theirs. A job keeps its worker until it is done, even if its client left;
    further jobs wait (:attr:`lab_queue`, beyond it 503 ``busy``)."""
    lab_queue: int = field(default=8, validator=_whole_at_least(0))
    """Lab jobs one process holds waiting for a worker, whoever asked (0: none waits); a job
    beyond them is refused at once (503 ``busy``)."""
    lab_jobs_per_client: int = field(default=2, validator=_whole_at_least(1))
    """Lab jobs one client address may have running or waiting at once; another is refused at
    once (429 ``rate-limited``). Behind a proxy every client has the proxy's address: raise it
    there."""
    lab_answer_bytes: int = field(default=8 * 1024 * 1024, validator=_whole_at_least(1))
    """The longest answer of the lab, in bytes (413 ``too-large``, naming its size). The
    pictures, one per step and reading, make nearly all of it: a whole five-seat Avanti game
    under two readings is about 6.4 MB."""

    def __attrs_post_init__(self) -> None:
        for name in (
            "max_body_bytes",
            "max_message_bytes",
            "command_burst",
            "games_burst",
            "games_per_client",
            "seats_burst",
            "chat_length",
            "chat_burst",
            "message_burst",
            "connections_per_game",
            "watched_games",
            "max_connections",
            "chat_per_game",
        ):
            _positive(getattr(self, name), name, whole=True)
        for name in (
            "commands_per_second",
            "games_per_second",
            "seats_per_second",
            "chat_per_second",
            "messages_per_second",
            "idle_timeout",
            "hello_timeout",
            "header_timeout",
            "body_timeout",
            "keep_alive_timeout",
            "lobby_seconds",
            "send_timeout",
        ):
            _positive(getattr(self, name), name)
        _positive(self.outbox_bytes, "outbox_bytes", whole=True)
        if type(self.list_limit) is not int or not 1 <= self.list_limit <= MAX_LIST_LIMIT:
            raise InvalidArgument(
                f"list_limit must be an int from 1 to {MAX_LIST_LIMIT}, not {self.list_limit!r}"
            )
        if not isinstance(self.bot_kinds, tuple) or not set(self.bot_kinds) <= set(BOT_KINDS):
            raise InvalidArgument(
                f"bot_kinds must be a tuple of {', '.join(BOT_KINDS)}, not {self.bot_kinds!r}"
            )
        _positive(self.open_table_seconds, "open_table_seconds")
        _positive(self.lobby_per_client, "lobby_per_client", whole=True)
        if (
            type(self.lobby_scan) is not int
            or not self.list_limit <= self.lobby_scan <= MAX_LIST_LIMIT
        ):
            raise InvalidArgument(
                f"lobby_scan must be an int from list_limit ({self.list_limit}) to "
                f"{MAX_LIST_LIMIT}, not {self.lobby_scan!r}"
            )


class TokenBucket:
    """``rate`` actions per second on average, ``burst`` at once: :meth:`allow` takes one."""

    __slots__ = ("_burst", "_clock", "_rate", "_stamp", "_tokens")

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._rate = float(rate)
        self._burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()

    def allow(self) -> bool:
        """Take one token if there is one; whether there was."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def take(self) -> float:
        """Take one token, borrowing it when there is none: the seconds until it would have been
        there (0.0 when there was one). A caller that waits that long before its next
        :meth:`take` goes at ``rate`` at most."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate) - 1.0
        self._stamp = now
        return 0.0 if self._tokens >= 0.0 else -self._tokens / self._rate

    @property
    def full(self) -> bool:
        """Whether the bucket has filled up again (so forgetting it changes nothing)."""
        now = self._clock()
        return self._tokens + (now - self._stamp) * self._rate >= self._burst


class Buckets:
    """One :class:`TokenBucket` per key (a seat, a client address), at most ``most`` of them.

    When there are too many, full buckets are forgotten first (a full bucket is the same as a
    new one); if none is full, the oldest goes.
    """

    def __init__(self, rate: float, burst: int, most: int = 10_000) -> None:
        self._rate = rate
        self._burst = burst
        self._most = most
        self._buckets: OrderedDict[Hashable, TokenBucket] = OrderedDict()

    def allow(self, key: Hashable) -> bool:
        """Take one token from ``key``'s bucket; whether there was one."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._most:
                self._forget()
            bucket = self._buckets[key] = TokenBucket(self._rate, self._burst)
        else:
            self._buckets.move_to_end(key)
        return bucket.allow()

    def _forget(self) -> None:
        for key in [key for key, bucket in self._buckets.items() if bucket.full]:
            del self._buckets[key]
        while len(self._buckets) >= self._most:
            self._buckets.popitem(last=False)
