"""The server's one vocabulary of refusals: every error it sends is one :class:`Refusal`.

Each member carries its ``kind`` (the string the wire carries), its HTTP ``status``, the
``close_code`` of a WebSocket closed after it, and its ``meaning``, so a refusal is raised by
naming a member (``ApiError(Refusal.UNKNOWN_GAME, "no game of that id")``, see
:class:`~avanti.server.protocol.wire.ApiError`) and a kind nobody documented cannot be sent. The
errors table of the docs page, :data:`~avanti.server.protocol.shapes.ERROR_KINDS`, the OpenAPI
document's ``Error.kind`` and :data:`~avanti.server.transport.socket.CLOSE_CODES` are all read from
here.
"""

from __future__ import annotations

import enum

__all__ = ["Refusal"]


class Refusal(enum.Enum):
    """A kind of refusal the server sends: ``kind`` on the wire, ``status`` over HTTP (and in a
    WebSocket's ``error`` message), ``close_code`` when a WebSocket is closed after it (``None``
    for one the socket answers and stays open after; met before the session starts, on the
    first message, such a refusal closes the socket with 4400 all the same), and ``meaning``,
    the line of the docs page's errors table.

    ``also`` holds the few other statuses a kind is sent with, each for a case its ``meaning``
    names (``unknown-game`` is 400 where a body or a query names the game, 404 where a path
    does); :class:`~avanti.server.protocol.wire.ApiError` takes one of them as ``status=`` and
    refuses any other. A member's ``value`` is its kind.
    """

    kind: str
    status: int
    close_code: int | None
    meaning: str
    also: tuple[int, ...]

    def __new__(
        cls,
        kind: str,
        status: int,
        close_code: int | None,
        meaning: str,
        also: tuple[int, ...] = (),
    ) -> Refusal:
        """A member from its kind, status, close code, meaning and other statuses."""
        member = object.__new__(cls)
        member._value_ = kind
        member.kind = kind
        member.status = status
        member.close_code = close_code
        member.meaning = meaning
        member.also = also
        return member

    @property
    def statuses(self) -> tuple[int, ...]:
        """Every status the kind is sent with, from the lowest."""
        return tuple(sorted({self.status, *self.also}))

    BAD_REQUEST = (
        "bad-request",
        400,
        4400,
        "the body, query or message is not of the protocol's shape (the message says what)",
    )
    MALFORMED_JSON = (
        "malformed-json",
        400,
        4400,
        "the body or message is not JSON, or repeats a key in an object",
    )
    UNKNOWN_GAME = (
        "unknown-game",
        404,
        4404,
        "no such game: 400 for `POST /games` and `GET /games?game=`, else 404",
        (400,),
    )
    UNKNOWN_BOT = "unknown-bot", 400, None, "no bot of that name"
    UNAUTHORIZED = (
        "unauthorized",
        401,
        4401,
        "the token is no seat's of this game (the same reply for every wrong token)",
    )
    FORBIDDEN = (
        "forbidden",
        403,
        None,
        "a spectator's command, another seat's command, a seat a bot plays, another seat's bot",
    )
    NOT_FOUND = "not-found", 404, None, "no such path, or no step of a replay at that version"
    METHOD_NOT_ALLOWED = "method-not-allowed", 405, None, "the path does not take that method"
    CROSS_ORIGIN = (
        "cross-origin",
        403,
        None,
        "a request made by a page of another site (its `Origin` is not this server)",
    )
    IDLE_TIMEOUT = "idle-timeout", 408, 4408, "(WebSocket) nothing received for too long"
    TOO_SLOW = (
        "too-slow",
        408,
        4408,
        "(WebSocket) the client did not take the server's messages in time (`send_timeout`, "
        "`outbox_bytes`)",
    )
    REQUEST_TIMEOUT = (
        "request-timeout",
        408,
        None,
        "the request's body did not arrive within `body_timeout`",
    )
    COMMAND_ID_REUSED = (
        "command-id-reused",
        409,
        None,
        "the `command_id` was already used by this seat for another command",
    )
    VERSION_CONFLICT = (
        "version-conflict",
        409,
        None,
        "`expected_version` is not the game's version (`expected`, `actual`)",
    )
    CONFLICT = (
        "conflict",
        409,
        None,
        "a seat's hand-over to a bot met other hand-overs of the same game three times running "
        "(try again); (WebSocket) a chat message to a finished game, or to a chat that holds "
        "`chat_per_game` messages",
    )
    TABLE_FULL = "table-full", 409, None, "every seat of the table is taken"
    TABLE_EXPIRED = (
        "table-expired",
        410,
        None,
        "nobody sat down at the table for `open_table_seconds`: it is closed",
    )
    NOT_OVER = (
        "not-over",
        409,
        None,
        "a rematch or a replay asked for before the game is over",
    )
    TOO_LARGE = (
        "too-large",
        413,
        1009,
        "the body or message is too big, or a rules lab answer or a replay would be "
        "(`lab_answer_bytes`)",
    )
    UNSUPPORTED_MEDIA_TYPE = (
        "unsupported-media-type",
        415,
        None,
        "a request body that is not sent as `application/json`",
    )
    INVALID_SETUP = (
        "invalid-setup",
        422,
        None,
        "the game refuses the players (`rule`), or a table with open seats names none of its "
        "creator's",
    )
    INVALID_NAME = (
        "invalid-name",
        422,
        None,
        "a name that may not take a seat: its length or characters, or a name already at the table",
    )
    INVALID_REQUEST = (
        "invalid-request",
        400,
        None,
        "(WebSocket) a chat message that may not be sent: blank, too long, control characters",
    )
    INVALID_OPTIONS = "invalid-options", 422, None, "the game's codec cannot read the options"
    INVALID_COMMAND = "invalid-command", 422, None, "the game's codec cannot read the command"
    ILLEGAL_COMMAND = (
        "illegal-command",
        422,
        None,
        "the rules refuse the command (`reason`, `rule`)",
    )
    INVALID_CASE = (
        "invalid-case",
        422,
        None,
        "(rules lab) `POST /lab/compare`'s body is no case the library takes, or its `seen_by` "
        "is no seat of the case",
    )
    INVALID_DOCUMENT = (
        "invalid-document",
        422,
        None,
        "(rules lab) `POST /lab/replay`'s document is no saved game the library reads, or a "
        "longer one than the lab steps through, or its `seen_by` is no seat of the game",
    )
    RATE_LIMITED = (
        "rate-limited",
        429,
        None,
        "too many commands or chat messages from one seat, or new games (rematches too), seats "
        "or rules lab requests (replays too) from one address",
    )
    TOO_MANY_CONNECTIONS = (
        "too-many-connections",
        429,
        1013,
        "(WebSocket) the game has as many connections as one server process takes",
    )
    INTERNAL = "internal", 500, 1011, "the server failed; it was logged"
    UNAVAILABLE = "unavailable", 503, 1011, "the game store is unavailable; try again"
    BUSY = (
        "busy",
        503,
        None,
        "the rules lab works on as many cases (and replays) as it takes (`lab_workers`, "
        "`lab_queue`); try again in a moment",
    )
