"""What the server sends: JSON of a seat's share of a game, and errors.

Everything a seat receives is built here from the calls that are a function of what that seat
may know (see the docs page "Running untrusted games"): :attr:`~avanti.core.game.Game.public_setup`,
:meth:`~avanti.core.game.Game.view`, :meth:`~avanti.core.game.Game.events_for` with positions,
:attr:`~avanti.core.game.Game.waiting`, the seat's own
:meth:`~avanti.core.game.Game.legal_commands` with their notation, and the outcome. A spectator
(seat ``None``) gets no legal commands: the full list is the server's.
"""

from __future__ import annotations

import json
from typing import Any, cast

from avanti.core.codec import JSONValue
from avanti.core.game import Game

__all__ = [
    "AnyGame",
    "ApiError",
    "dumps",
    "error_body",
    "events_data",
    "legal_data",
    "outcome_data",
    "public_setup_data",
    "update",
    "view_data",
]

AnyGame = Game[Any, Any, Any, Any, Any, Any]
"""A game of any kind in the catalog."""


class ApiError(Exception):
    """A refusal to send a client: an HTTP ``status``, a ``kind``, a ``message`` and fields.

    Sent as ``{"error": {"kind": ..., "message": ..., **fields}}`` with the status (over HTTP), or
    as ``{"type": "error", "status": ..., "error": {...}}`` (over a WebSocket).
    """

    def __init__(self, status: int, kind: str, message: str, **fields: JSONValue) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
        self.fields = fields

    def body(self) -> dict[str, JSONValue]:
        """The error's JSON body."""
        return error_body(self.kind, self.message, **self.fields)


def error_body(kind: str, message: str, **fields: JSONValue) -> dict[str, JSONValue]:
    """``{"error": {"kind": kind, "message": message, **fields}}``."""
    return {"error": {"kind": kind, "message": message, **fields}}


def dumps(value: object) -> str:
    """Compact JSON text (no NaN, Unicode kept)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _plain(value: object) -> JSONValue:
    """A codec's plain data, typed as the JSON value it is: dicts with string keys, tuples and
    lists, strings, numbers, booleans and ``None``, which :func:`dumps` writes as they are (a
    tuple as an array), so no copy is made."""
    return cast(JSONValue, value)


def events_data(game: AnyGame, seat: int | None, after: int) -> list[JSONValue]:
    """The events ``seat`` may see from position ``after`` on: ``[{"position", "event"}]``."""
    to_data = type(game).rules.codec.event_to_data
    return [
        {"position": position, "event": _plain(to_data(event))}
        for position, event in game.events_for(seat, after=after)
    ]


def legal_data(game: AnyGame, seat: int | None) -> list[JSONValue]:
    """``seat``'s legal commands with their notation; none for a spectator."""
    if seat is None:
        return []
    to_data = type(game).rules.codec.command_to_data
    return [
        {"command": _plain(to_data(command)), "notation": game.notation(command)}
        for command in game.legal_commands(seat)
    ]


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


def update(game: AnyGame, seat: int | None, after: int) -> dict[str, JSONValue]:
    """The WebSocket ``update`` for ``seat``, with the events after version ``after``."""
    return {
        "type": "update",
        "version": game.version,
        "events": events_data(game, seat, after),
        "view": view_data(game, seat),
        "legal": legal_data(game, seat),
        "waiting": list(game.waiting),
        "outcome": outcome_data(game),
    }
