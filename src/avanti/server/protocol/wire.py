"""What the server sends: JSON of a seat's share of a game, and errors.

Everything a seat receives is built here from the calls that are a function of what that seat
may know (see the docs page "Running untrusted games"): :attr:`~avanti.core.game.Game.public_setup`,
:meth:`~avanti.core.game.Game.view`, :meth:`~avanti.core.game.Game.events_for` with positions,
:attr:`~avanti.core.game.Game.waiting`, the seat's own
:meth:`~avanti.core.game.Game.legal_commands` with their notation, and the outcome. A spectator
(seat ``None``) gets no legal commands: the full list is the server's.
"""

from __future__ import annotations

import logging
from typing import Any, cast

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import DecodeError, UnknownGame
from avanti.core.game import Game
from avanti.server.log import LOGGER, log
from avanti.server.protocol.refusals import Refusal
from avanti.store.base import STREAM_NAME, StoreError, dump_json

__all__ = [
    "AnyGame",
    "ApiError",
    "Shared",
    "conflict",
    "dumps",
    "error_body",
    "events_data",
    "game_id",
    "legal_data",
    "outcome_data",
    "public_setup_data",
    "refusal_of",
    "table_data",
    "unauthorized",
    "unknown_game",
    "update",
    "view_data",
]

AnyGame = Game[Any, Any, Any, Any, Any, Any]
"""A game of any kind in the catalog."""


class ApiError(Exception):
    """A refusal to send a client: a :class:`~avanti.server.protocol.refusals.Refusal`, a
    ``message`` and fields; its ``kind`` and HTTP ``status`` are the refusal's.

    Sent as ``{"error": {"kind": ..., "message": ..., **fields}}`` with the status (over HTTP), or
    as ``{"type": "error", "status": ..., "error": {...}}`` (over a WebSocket). ``status`` may name
    one of the refusal's other statuses (its ``also``, each for a case its meaning names).

    :raises ValueError: ``status`` is none of the refusal's.
    """

    def __init__(
        self, refusal: Refusal, message: str, *, status: int | None = None, **fields: JSONValue
    ) -> None:
        super().__init__(message)
        if status is not None and status not in refusal.statuses:
            raise ValueError(f"{refusal.kind} is never sent with status {status}")
        self.refusal = refusal
        self.status = refusal.status if status is None else status
        self.kind = refusal.kind
        self.message = message
        self.fields = fields

    def body(self) -> dict[str, JSONValue]:
        """The error's JSON body."""
        return error_body(self.refusal, self.message, **self.fields)


def error_body(refusal: Refusal, message: str, **fields: JSONValue) -> dict[str, JSONValue]:
    """``{"error": {"kind": refusal.kind, "message": message, **fields}}``."""
    return {"error": {"kind": refusal.kind, "message": message, **fields}}


def refusal_of(error: Exception, **where: JSONValue) -> ApiError:
    """The refusal a client is sent for ``error``, whichever transport it came through: an
    :class:`ApiError` as it is, a failing store 503 ``unavailable``, a stored game this library
    cannot read 500 ``internal``, and a bug 500 ``internal`` too. The failures are logged
    (``store-failed``, ``unreadable-game``, ``internal error`` with the traceback), each with
    the fields ``where`` (the request's path, or the socket's game)."""
    if isinstance(error, ApiError):
        return error
    if isinstance(error, StoreError):
        log(logging.ERROR, "store-failed", **where, message=str(error))
        return ApiError(Refusal.UNAVAILABLE, "the game store is unavailable; try again")
    if isinstance(error, DecodeError | UnknownGame):  # a stored game this library cannot read
        log(logging.ERROR, "unreadable-game", **where, message=str(error))
    else:  # pragma: no cover - a bug, answered and logged
        LOGGER.error(
            "internal error",
            exc_info=(type(error), error, error.__traceback__),
            extra={"avanti_fields": where},
        )
    return ApiError(Refusal.INTERNAL, "the server failed; this was logged")


def unauthorized() -> ApiError:
    """The one refusal of every bad token: the same whatever the token."""
    return ApiError(Refusal.UNAUTHORIZED, "that is no seat's token in this game")


def unknown_game() -> ApiError:
    """The refusal of a game id no stored game has."""
    return ApiError(Refusal.UNKNOWN_GAME, "there is no such game")


def game_id(value: object) -> str:
    """A game id from a path or a socket's hello; 404 for one no game can have.

    A game id is a stream name without a dot. The names with a dot are the server's own streams
    of a game (its open table ``table.{id}``, its chat ``chat.{id}``), never a game: they are
    refused here, before the store is asked, so the answer is the same whether such a stream
    exists or not (the server's ids are 16 hexadecimal digits; a game another program stored
    under a name without a dot is served as far as it can be).
    """
    if not isinstance(value, str) or "." in value or STREAM_NAME.fullmatch(value) is None:
        raise unknown_game()
    return value


def conflict(expected: int, actual: int) -> ApiError:
    """The 409 refusal of a command decided on a version the game has left."""
    return ApiError(
        Refusal.VERSION_CONFLICT,
        "the game has moved on: look at it again and decide again",
        expected=expected,
        actual=actual,
    )


def dumps(value: object) -> str:
    """Compact JSON text (Unicode kept) of a message made of JSON values (a codec's data, JSON
    text parsed, the server's own fields), written as :func:`~avanti.store.base.dump_json`
    writes what it is told is JSON: by orjson where it is installed."""
    return dump_json(value, "a message", checked=True)


def _plain(value: object) -> JSONValue:
    """A codec's plain data, typed as the JSON value it is: dicts with string keys, tuples and
    lists, strings, numbers, booleans and ``None``, which :func:`dumps` writes as they are (a
    tuple as an array), so no copy is made."""
    return cast(JSONValue, value)


def events_data(
    game: AnyGame, seat: int | None, after: int, shared: Shared | None = None
) -> list[JSONValue]:
    """The events ``seat`` may see from position ``after`` on: ``[{"position", "event"}]``.

    With ``shared`` (the seats' :class:`Shared` of ``game``), an event every seat sees alike is
    written once for all of them."""
    if shared is not None:
        return shared.events(seat, after)
    to_data = type(game).rules.codec.event_to_data
    return [
        {"position": position, "event": _plain(to_data(event))}
        for position, event in game.events_for(seat, after=after)
    ]


def legal_data(game: AnyGame, seat: int | None, shared: Shared | None = None) -> list[JSONValue]:
    """``seat``'s legal commands with their notation; none for a spectator.

    With ``shared`` (the seats' :class:`Shared` of ``game``), the legal commands are listed once
    for every seat and each seat is given its own."""
    if seat is None:
        return []
    if shared is not None:
        return shared.legal(seat)
    to_data = type(game).rules.codec.command_to_data
    return [
        {"command": _plain(to_data(command)), "notation": game.notation(command)}
        for command in game.legal_commands(seat)
    ]


class Shared:
    """What the ``update`` messages of one version of a game share, built once for every seat:
    the legal commands of all seats, listed once and split by seat (each seat is given only its
    own), and the data of each event as the seats see it, written once for the seats that see
    it alike (an event its redaction leaves as it is, :meth:`~avanti.core.game.Game.events_for`).

    Nothing in it passes from one seat to another: a seat's list and events are exactly what
    :func:`legal_data` and :func:`events_data` give it without one. Safe to use from several
    threads (a race only builds a part twice)."""

    __slots__ = ("_checked", "_events", "_game", "_legal", "_redacted")

    def __init__(self, game: AnyGame) -> None:
        self._game = game
        self._legal: dict[int, list[JSONValue]] | None = None
        self._events: dict[int, JSONValue] = {}  # position -> the data of the whole event
        self._redacted: dict[tuple[int, int | None], JSONValue] = {}  # as a seat sees it
        self._checked: set[tuple[type, object]] = set()  # the seats found at the table

    @property
    def version(self) -> int:
        """The version of the game it is of."""
        return self._game.version

    def legal(self, seat: int) -> list[JSONValue]:
        """``seat``'s legal commands with their notation (as :func:`legal_data`)."""
        game = self._game
        self._check(seat)
        by_seat = self._legal
        if by_seat is None:
            to_data = type(game).rules.codec.command_to_data
            by_seat = {}
            for command in game.legal_commands():
                by_seat.setdefault(command.seat, []).append(
                    {"command": _plain(to_data(command)), "notation": game.notation(command)}
                )
            self._legal = by_seat
        return list(by_seat.get(seat, ()))

    def _check(self, seat: int | None) -> None:
        """Refuse a seat not at the table, as the game does (once a seat for each version)."""
        key = (type(seat), seat)  # True is no seat 1
        if key not in self._checked:
            self._game.events_for(seat, after=self._game.version)
            self._checked.add(key)

    def events(self, seat: int | None, after: int) -> list[JSONValue]:
        """The events ``seat`` may see from position ``after`` on (as :func:`events_data`):
        each redacted for the seat; the data of an event the redaction leaves as it is (the
        same for every seat that sees it so) written once."""
        game = self._game
        events = game.events
        if type(after) is not int or not 0 <= after <= len(events):
            return events_data(game, seat, after)  # refused there, as without a Shared
        self._check(seat)
        rules = type(game).rules
        redact, to_data = rules.redact, rules.codec.event_to_data
        whole, redacted = self._events, self._redacted
        found: list[JSONValue] = []
        for position in range(after, len(events)):
            event = events[position]
            seen = redact(event, seat)
            if seen is None:
                continue
            if seen is event:
                data = whole.get(position)
                if data is None:
                    data = whole[position] = _plain(to_data(event))
            else:
                key = (position, seat)
                data = redacted.get(key)
                if data is None:
                    data = redacted[key] = _plain(to_data(seen))
            found.append({"position": position, "event": data})
        return found


def view_data(game: AnyGame, seat: int | None) -> JSONValue:
    """What ``seat`` sees now, as the game's codec writes it."""
    return _plain(type(game).rules.codec.unstructure(game.view(seat)))


def outcome_data(game: AnyGame) -> JSONValue:
    """The outcome once the game is over, else ``None``."""
    outcome = game.outcome
    return None if outcome is None else _plain(type(game).rules.codec.unstructure(outcome))


def public_setup_data(game: AnyGame) -> JSONValue:
    """The setup as every seat may know it (no seed)."""
    return _plain(type(game).rules.codec.unstructure(game.public_setup))


def table_data(
    game: AnyGame, info: catalog.GameInfo, seat: int | None, after: int, layout: str = "wide"
) -> JSONValue:
    """A seat's table: its picture of the game, the events it may see from position ``after``
    on in words (the game's ``narrate``, which names Avanti's road spaces and speaks to the seat
    of its own deeds), each of its legal commands in words (the game's ``explain``: what it
    does and what it costs) with, beside each, the question to ask before sending it or ``""``
    (``confirm``), and once the game is over the standings, every total broken down into its
    parts with their rules (``standings``; ``None`` before). All from the game's presentation
    (:class:`~avanti.core.presentation.Presentation`), built only from
    :meth:`~avanti.core.game.Game.view`, :meth:`~avanti.core.game.Game.last_events`,
    :meth:`~avanti.core.game.Game.events_for`, the seat's legal commands, the public setup and
    the outcome, which every seat is sent, so it holds nothing hidden from ``seat`` (A30).
    ``layout`` is the picture's (``"narrow"``: drawn for a phone's width)."""
    shown = info.load_presentation()
    public = game.public_setup
    view = game.view(seat)
    svg = shown.picture(view, table=public, last=game.last_events(seat), layout=layout)
    seen = game.events_for(seat, after=0)
    told = sum(1 for position, _ in seen if position < after)
    texts = shown.narrate([event for _, event in seen], public, seat=seat, after=told)
    history: list[JSONValue] = [
        {"position": position, "text": str(text)}
        for (position, _), text in zip(seen[told:], texts, strict=True)
    ]
    labels: list[JSONValue] = []
    confirm: list[JSONValue] = []
    if seat is not None:
        for command in game.legal_commands(seat):
            labels.append(str(shown.explain(public, command, view)))
            confirm.append(shown.confirm(public, command))
    outcome = game.outcome
    return {
        "version": game.version,
        "seat": seat,
        "svg": str(svg),
        "history": history,
        "labels": labels,
        "confirm": confirm,
        "standings": None if outcome is None else shown.standings(outcome, public).to_data(),
    }


def update(
    game: AnyGame,
    seat: int | None,
    after: int,
    table: catalog.GameInfo | None = None,
    *,
    layout: str = "wide",
    shared: Shared | None = None,
) -> dict[str, JSONValue]:
    """The WebSocket ``update`` for ``seat``, with the events after version ``after``; with
    ``table`` (the game's catalog entry), the seat's :func:`table_data` too, its picture drawn
    in ``layout``. ``shared``: what the seats' updates of this version share (:class:`Shared`),
    when several are built."""
    message: dict[str, JSONValue] = {
        "type": "update",
        "version": game.version,
        "events": events_data(game, seat, after, shared),
        "view": view_data(game, seat),
        "legal": legal_data(game, seat, shared),
        "waiting": list(game.waiting),
        "outcome": outcome_data(game),
    }
    if table is not None:
        message["table"] = table_data(game, table, seat, after, layout)
    return message
