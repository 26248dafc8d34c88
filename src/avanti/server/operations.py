"""More of the OpenAPI document's operations (see :mod:`avanti.server.openapi`): the open
tables (taking a seat, the creator's start), the rematch, and the rules lab."""

from __future__ import annotations

from avanti.core.codec import JSONValue
from avanti.server.schema import _error, _json, _ref

__all__ = ["more_operations"]


def more_operations(
    game_id: JSONValue,
    other: dict[str, JSONValue],
    bad_token: JSONValue,
    no_game: JSONValue,
    too_large: JSONValue,
) -> dict[str, dict[str, dict[str, JSONValue]]]:
    """The operations of the open tables, the rematch and the lab, by path and method, with
    the parameter and the answers :func:`avanti.server.openapi.openapi` shares with them."""
    seen_by: JSONValue = {
        "name": "seen_by",
        "in": "query",
        "required": False,
        "description": "Whose view the pictures draw: a seat number, or spectator (the default).",
        "schema": {"type": "string", "default": "spectator"},
    }
    return {
        "/games/{id}/seats": {
            "post": {
                "summary": "Take the next open seat of a table by name",
                "parameters": [game_id],
                "requestBody": {"required": True, **_json(_ref("SeatRequest"), "The name.")},
                "responses": {
                    "201": _json(_ref("TakenSeat"), "The seat and its token (given once)."),
                    "400": _error("bad-request, malformed-json."),
                    "404": _error("unknown-game: no table with open seats has that id."),
                    "409": _error("table-full: every seat is taken."),
                    "410": _error("table-expired: the table waited too long and is closed."),
                    "413": too_large,
                    "422": _error(
                        "invalid-name: the name's length or characters, or a twin (in case or "
                        "Unicode form); invalid-options, invalid-setup: the game refuses to start "
                        "with the last seat taken (the seat stays open)."
                    ),
                    "429": _error("rate-limited: too many seats taken from this address."),
                    **other,
                },
            }
        },
        "/lab/compare": {
            "post": {
                "summary": "Play a rules case under two readings",
                "description": (
                    "Stateless: the body is a case (game, players, seed, setup fields, two "
                    "readings of option fields, commands in the game's notation). The answer "
                    "holds, per reading, the picture and the events in words after each "
                    "command, or the library's refusal naming its rule; the differences; the "
                    "case's link fragment, JSON and pytest test. The pictures are drawn as "
                    "seen_by sees the table (a seat's own hand face up)."
                ),
                "parameters": [seen_by],
                "requestBody": {"required": True, **_json({"type": "object"}, "The case.")},
                "responses": {
                    "200": _json({"type": "object"}, "Both readings played out."),
                    "400": _error("bad-request, malformed-json."),
                    "413": too_large,
                    "422": _error("invalid-case: the case is not one (its JSON paths named)."),
                    "429": _error("rate-limited: too many lab requests from this address."),
                    **other,
                },
            }
        },
        "/games/{id}/start": {
            "post": {
                "summary": "The creator has bots take every open seat; the game starts",
                "security": [{"seat": []}],
                "parameters": [game_id],
                "requestBody": {"required": True, **_json(_ref("BotRequest"), "The bot.")},
                "responses": {
                    "200": _json(_ref("StartedTable"), "The game has started."),
                    "400": _error("bad-request, malformed-json, unknown-bot."),
                    "401": bad_token,
                    "403": _error("forbidden: the token is not the creator's."),
                    "404": _error("unknown-game: no table with open seats has that id."),
                    "409": _error("table-full: every seat is taken already."),
                    "410": _error("table-expired: the table waited too long and is closed."),
                    **other,
                },
            }
        },
        "/games/{id}/rematch": {
            "post": {
                "summary": "The token's seat in the rematch of a finished game",
                "description": "The first call creates the rematch (the same players in the "
                "same seats, a fresh seed, the bots kept); a call by each seat gives it its "
                "own token there, the same on every call. No body.",
                "security": [{"seat": []}],
                "parameters": [game_id],
                "responses": {
                    "200": _json(_ref("RematchSeat"), "The seat in the rematch."),
                    "401": bad_token,
                    "403": _error("forbidden: no token (a spectator)."),
                    "404": no_game,
                    "409": _error("not-over: the game is not over."),
                    "429": _error("rate-limited: too many games created from this address."),
                    **other,
                },
            }
        },
        "/lab/replay": {
            "post": {
                "summary": "Step through a saved game command by command",
                "description": (
                    'Stateless: the body is {"document": text}, a saved game document. The '
                    "answer holds the picture and the events in words at every command, every "
                    "hidden fact shown (the lab is for one person's own games): the lines "
                    "tell every card dealt, and the pictures are drawn as seen_by sees the "
                    "table (a seat's own hand face up)."
                ),
                "parameters": [seen_by],
                "requestBody": {
                    "required": True,
                    **_json({"type": "object"}, "The saved game, as text."),
                },
                "responses": {
                    "200": _json({"type": "object"}, "Each step of the game."),
                    "400": _error("bad-request, malformed-json, a seen_by that is no number."),
                    "413": too_large,
                    "422": _error(
                        "invalid-document: not a game document of the catalog, or seen_by "
                        "no seat of it."
                    ),
                    "429": _error("rate-limited: too many lab requests from this address."),
                    **other,
                },
            }
        },
    }
