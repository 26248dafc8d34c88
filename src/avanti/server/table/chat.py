"""A chat per table: plain text from its seats, kept with the game but never in its event log.

Each game's chat is a stream of its own, ``chat.{id}`` (format :data:`CHAT_FORMAT`), one event
per message: ``{"seat", "name", "text", "at", "system"}``; a message's ``id`` is its position.
A message is appended at the version read (a writer that lost the race reads again), so the
ids of a chat are 0, 1, 2, ... with no gap and no repeat.

The text is kept exactly as sent (HTML, scripts and bidi overrides such as U+202E are plain
characters here; the page sets it as text, never as markup), within
:attr:`~avanti.server.limits.ServerLimits.chat_length` characters, not empty or blank, with no
control character but a line break or a tab. Seats write; spectators read but do not write (a
spectator has no name, and an open door for anonymous text is one a table cannot close). The
server writes system messages (``seat`` and ``name`` ``None``, ``system`` true), such as a
clock that ran out.

The limits hold per seat and per game, never per connection, so a seat that reconnects starts
where it left off: a seat sends at most
:attr:`~avanti.server.limits.ServerLimits.chat_per_second` messages a second
(:attr:`~avanti.server.limits.ServerLimits.chat_burst` at once) over all its connections of
this process (429 ``rate-limited``); a chat keeps at most
:attr:`~avanti.server.limits.ServerLimits.chat_per_game` messages, and a finished game (its
outcome set) takes none from its seats (409 ``conflict`` both). System messages are never
refused.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import unicodedata
from collections.abc import Callable

from avanti.core.codec import JSONValue
from avanti.core.errors import VersionConflict
from avanti.server.limits import Buckets
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.wire import ApiError
from avanti.server.table.master import Tables
from avanti.store import StreamExists, UnknownStream

__all__ = ["CHAT_FORMAT", "RECENT", "Chat", "chat_stream", "check_text"]

CHAT_FORMAT = "avanti-chat"
"""The format of a chat's stream."""

RECENT = 50
"""How many of the newest messages a connection gets right after its first update."""


def chat_stream(game: str) -> str:
    """The stream of a game's chat."""
    return f"chat.{game}"


def check_text(text: object, most: int) -> str:
    """``text`` if it may be sent as a chat message; else the 400 ``invalid-request`` refusal,
    which never repeats the text."""
    if not isinstance(text, str):
        raise ApiError(Refusal.INVALID_REQUEST, "a chat message's 'text' is a string")
    if not text.strip():
        raise ApiError(Refusal.INVALID_REQUEST, "a chat message holds some text")
    if len(text) > most:
        raise ApiError(Refusal.INVALID_REQUEST, f"a chat message holds at most {most} characters")
    if any(unicodedata.category(char) in ("Cc", "Cs") and char not in "\n\t" for char in text):
        raise ApiError(
            Refusal.INVALID_REQUEST,
            "a chat message holds no control characters (but line breaks and tabs)",
        )
    return text


class Chat:
    """The chats of the server's games (see the module's docstring)."""

    def __init__(self, tables: Tables, now: Callable[[], float] = time.time) -> None:
        self.tables = tables
        """The table core."""
        self._now = now
        limits = tables.limits
        self._buckets = Buckets(limits.chat_per_second, limits.chat_burst)
        self._lock = threading.Lock()

    def post(
        self,
        game: str,
        seat: int | None,
        text: object,
        *,
        system: bool = False,
        rate: bool = False,
    ) -> dict[str, JSONValue]:
        """Append a message of ``seat`` (its name read from the game's seats) or, with
        ``system``, of the server; the message as every connection is sent it. ``rate``
        applies the seat's chat rate, kept per game and seat (not per connection).

        :raises ApiError: 403 for a spectator, 400 ``invalid-request`` for a text that may
            not be sent, 409 ``conflict`` once the game is over or its chat is full, 429
            ``rate-limited`` for a seat that sends too fast, 404 for an unknown game.
        """
        record, kept = self.tables.stored(game)
        table = kept.table
        limits = self.tables.limits
        if system:
            name = None
            seat = None
            checked = str(text)
        else:
            if seat is None or table is None:
                raise ApiError(
                    Refusal.FORBIDDEN, "a spectator reads the chat but does not write in it"
                )
            checked = check_text(text, limits.chat_length)
            name = table.seats[seat].name
            if kept.over:
                raise ApiError(
                    Refusal.CONFLICT, "the game is over: its chat takes no more messages"
                )
            self._check_room(record.stream, self._count(record.stream))
            if rate and not self._allow(record.stream, seat):
                log(logging.WARNING, "limit", limit="chat_per_second", game=game, seat=seat)
                raise ApiError(
                    Refusal.RATE_LIMITED,
                    f"at most {limits.chat_per_second:g} chat messages a second from one seat",
                )
        message: dict[str, JSONValue] = {
            "seat": seat,
            "name": name,
            "text": checked,
            "at": int(self._now()),
            "system": system,
        }
        events = self.tables.games.events
        stream = chat_stream(record.stream)
        while True:
            try:
                version = events.stream(stream).version
            except UnknownStream:
                with contextlib.suppress(StreamExists):  # another message created it first
                    events.create(stream, format=CHAT_FORMAT, format_version=1, setup=None)
                continue
            if not system:  # the messages that went in meanwhile may have filled it
                self._check_room(record.stream, version)
            try:
                events.append(stream, [message], version)
            except VersionConflict:  # another message went in first: after it
                continue
            return {"id": version, **message}

    def _count(self, game: str) -> int:
        """How many messages a game's chat holds."""
        try:
            return self.tables.games.events.stream(chat_stream(game)).version
        except UnknownStream:
            return 0

    def _check_room(self, game: str, count: int) -> None:
        """Refuse a seat's message to a chat that holds ``count`` messages, once it is full."""
        most = self.tables.limits.chat_per_game
        if count >= most:
            log(logging.WARNING, "limit", limit="chat_per_game", game=game)
            raise ApiError(
                Refusal.CONFLICT,
                f"this game's chat holds {most} messages, the most it keeps: it takes no more",
            )

    def _allow(self, game: str, seat: int) -> bool:
        """Take one of the seat's chat tokens; whether there was one."""
        with self._lock:
            return self._buckets.allow((game, seat))

    def recent(self, game: str, count: int = RECENT) -> list[JSONValue]:
        """The newest ``count`` messages of a game's chat, oldest first (none for a game
        without a chat)."""
        events = self.tables.games.events
        stream = chat_stream(game)
        try:
            version = events.stream(stream).version
            found = events.read(stream, max(0, version - count))
        except UnknownStream:
            return []
        messages: list[JSONValue] = []
        for recorded in found:
            if isinstance(recorded.data, dict):
                messages.append({"id": recorded.position, **recorded.data})
        return messages
