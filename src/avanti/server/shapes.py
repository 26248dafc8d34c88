"""The shapes of the protocol's bodies and WebSocket messages, as JSON Schemas for the OpenAPI
document (:mod:`avanti.server.openapi`); those that hold a game's values are each game's own."""

from __future__ import annotations

from avanti.core.codec import JSONValue
from avanti.core.limits import MAX_NOTATION_LENGTH
from avanti.server.schema import _SEAT, _VERSION, _nullable, _obj, _ref

__all__ = ["ERROR_KINDS", "game_protocol", "protocol_schemas"]

_COMMAND_FIELDS: dict[str, JSONValue] = {
    "notation": {"type": "string", "maxLength": MAX_NOTATION_LENGTH},
    "expected_version": _nullable(_VERSION),
    "command_id": _nullable({"type": "string", "minLength": 1, "maxLength": 100}),
}
"""The fields of a command request beside ``command``."""

_COMMAND_OR_NOTATION: JSONValue = [{"required": ["command"]}, {"required": ["notation"]}]


def game_protocol(game: str) -> dict[str, JSONValue]:
    """The protocol's shapes that hold one game's values, named ``<game>.<shape>``."""

    def own(shape: str) -> dict[str, JSONValue]:
        return _ref(f"{game}.{shape}")

    legal = {"type": "array", "items": own("LegalCommand")}
    seen = {"type": "array", "items": own("SeenEvent")}
    result: dict[str, JSONValue] = {
        "version": _VERSION,
        "events": seen,
        "legal": legal,
        "view": own("View"),
    }
    return {
        f"{game}.LegalCommand": _obj(
            {"command": own("Command"), "notation": _STRING},
            description="One of the seat's legal commands, with its notation.",
        ),
        f"{game}.SeenEvent": _obj(
            {"position": _VERSION, "event": own("Event")},
            description="An event as the seat sees it, at its position in the whole log.",
        ),
        f"{game}.SeatState": _obj(
            {
                "id": _STRING,
                "game": {"const": game},
                "seat": _nullable(_SEAT),
                "version": _VERSION,
                "public_setup": own("PublicSetup"),
                "view": own("View"),
                "waiting": {"type": "array", "items": _SEAT},
                "legal": legal,
                "events": seen,
                "outcome": _nullable(own("Outcome")),
            },
            description=f"A game of {game} as one seat (or the spectator) may see it.",
        ),
        f"{game}.CommandRequest": {
            **_obj(
                {"command": own("Command"), **_COMMAND_FIELDS},
                (),
                description="Exactly one of `command` and `notation`.",
            ),
            "oneOf": _COMMAND_OR_NOTATION,
        },
        f"{game}.CommandResult": _obj(
            result,
            description="The game after a command, as the seat that sent it sees it: its "
            "events from the version the command was decided at.",
        ),
        f"{game}.StreamCommand": {
            **_obj(
                {"type": {"const": "command"}, "command": own("Command"), **_COMMAND_FIELDS},
                ("type",),
                description="A command sent on the WebSocket, as to POST /games/{id}/commands.",
            ),
            "oneOf": _COMMAND_OR_NOTATION,
        },
        f"{game}.StreamUpdate": _obj(
            {
                "type": {"const": "update"},
                **result,
                "waiting": {"type": "array", "items": _SEAT},
                "outcome": _nullable(own("Outcome")),
                "table": _ref("SeatTable"),
            },
            ("type", "version", "events", "legal", "view", "waiting", "outcome"),
            description="Sent at once after the first message (the events after its "
            "`after`), then after every change to the game, to every connection (the mover's "
            "too); with `table` when the first message asked for it.",
        ),
    }


def _any_game(shape: str, names: list[str], description: str) -> dict[str, JSONValue]:
    """``shape`` of any game: one of the games' own (each client knows its game)."""
    return {"anyOf": [_ref(f"{name}.{shape}") for name in names], "description": description}


ERROR_KINDS: dict[str, str] = {
    "bad-request": "400: the request (body, query, message) is not of the protocol's shape",
    "malformed-json": "400: the body or message is not JSON (or repeats a key)",
    "unknown-game": "400 on POST /games and GET /games?game=, else 404: no such game",
    "unknown-bot": "400: no bot of that name",
    "unauthorized": "401: the token is no seat's of this game (the same refusal for every token)",
    "forbidden": "403: a spectator's command, another seat's command, or a bot's seat",
    "not-found": "404: no such path",
    "method-not-allowed": "405: that method is not allowed on the path",
    "idle-timeout": "408 (WebSocket): nothing was received for too long",
    "request-timeout": "408: the request's body did not arrive in time",
    "cross-origin": "403: a request made by a page of another site",
    "unsupported-media-type": "415: a request body that is not application/json",
    "command-id-reused": "409: the command_id was already used for another command",
    "version-conflict": "409: expected_version is not the game's version (expected, actual)",
    "conflict": "409: a seat's hand-over to a bot met other hand-overs three times running",
    "too-large": "413: the body or message is too big",
    "invalid-setup": "422: the game refuses the players (rule)",
    "invalid-options": "422: the game's codec cannot read the options",
    "invalid-command": "422: the game's codec cannot read the command",
    "illegal-command": "422: the rules refuse the command (reason, rule)",
    "rate-limited": "429: too many commands, or new games, in a short time",
    "too-many-connections": "429 (WebSocket): the game has as many connections as it may",
    "internal": "500: the server failed (logged)",
    "unavailable": "503: the game store is unavailable; try again",
}
"""Every ``kind`` of the server's errors, with its status and what it means."""

_STRING: dict[str, JSONValue] = {"type": "string"}


def protocol_schemas(names: list[str]) -> dict[str, JSONValue]:
    """The shapes of the protocol's bodies and messages; those that hold a game's values are
    one of the games' own shapes."""
    error_fields = _obj(
        {
            "kind": {"enum": list(ERROR_KINDS)},
            "message": _STRING,
            "reason": _STRING,
            "rule": _nullable(_STRING),
            "expected": _VERSION,
            "actual": _VERSION,
        },
        ("kind", "message"),
        description=(
            "What was refused: `kind` (one of the error kinds), `message` in words; an "
            "illegal command adds the library's `reason` and `rule`, a version conflict the "
            "`expected` and `actual` versions, an invalid setup its `rule`."
        ),
    )
    return {
        "Error": _obj({"error": error_fields}, description="Every refusal, with its status."),
        "NewGame": _obj(
            {
                "game": {"enum": names},
                "players": {"type": "array", "items": _STRING},
                "bots": {
                    "type": "object",
                    "propertyNames": {"pattern": "^(0|[1-9][0-9]*)$"},
                    "additionalProperties": _STRING,
                    "description": 'Bots by seat number (as a string): `{"1": "heuristic"}`.',
                },
                "options": {
                    "type": "object",
                    "description": "The game's options, as its codec reads them (the "
                    "`options` of the game's `PublicSetup`); left out, the defaults.",
                },
                "sides": {
                    "type": "array",
                    "items": _STRING,
                    "description": "Each seat's side, in a game with sides (Avanti mare!: "
                    "`fish-friends` or `fisher-fans`, M2); left out, the game's defaults.",
                },
            },
            ("game", "players"),
            description="A new game. A seed is never accepted: the server draws a secret one.",
        ),
        "Seat": _obj(
            {
                "seat": _SEAT,
                "name": _STRING,
                "token": _nullable(_STRING),
                "bot": _nullable(_STRING),
            },
            description="A seat of a new game and its secret token (`null` for a bot's seat).",
        ),
        "CreatedGame": _obj(
            {
                "id": _STRING,
                "game": {"enum": names},
                "seats": {"type": "array", "items": _ref("Seat")},
                "spectator": _STRING,
            },
            description="A new game: its id, each seat's token (given once), the spectator's path.",
        ),
        "GameSummary": _obj(
            {
                "id": _STRING,
                "game": _STRING,
                "players": {"type": "array", "items": _STRING},
                "bots": {"type": "object", "additionalProperties": _STRING},
                "version": _VERSION,
                "over": {"type": "boolean"},
                "created": {"type": "number", "description": "Unix time."},
                "updated": {"type": "number", "description": "Unix time."},
            },
            description="A game's public facts, as the lobby lists them.",
        ),
        "GameList": _obj({"games": {"type": "array", "items": _ref("GameSummary")}}),
        "SeatState": {
            "oneOf": [_ref(f"{name}.SeatState") for name in names],
            "discriminator": {
                "propertyName": "game",
                "mapping": {name: f"#/components/schemas/{name}.SeatState" for name in names},
            },
            "description": "The game as one seat (or the spectator: `seat` null, `legal` "
            "empty) may see it.",
        },
        "CommandRequest": _any_game("CommandRequest", names, "A command, or its notation."),
        "CommandResult": _any_game(
            "CommandResult", names, "The game after a command, as its seat sees it."
        ),
        "BotRequest": _obj({"bot": _STRING}),
        "SeatBot": _obj(
            {"seat": _SEAT, "bot": _nullable(_STRING)},
            description="Who plays a seat now: a bot, or (`null`) its person.",
        ),
        "Health": _obj({"status": {"const": "ok"}}),
        "Catalog": _obj(
            {
                "games": {
                    "type": "array",
                    "items": _obj(
                        {
                            "name": {"enum": names},
                            "title": _STRING,
                            "min_players": _SEAT,
                            "max_players": _SEAT,
                            "default_players": {"type": "array", "items": _STRING},
                            "sides": {"type": "array", "items": _STRING},
                        }
                    ),
                },
                "bots": {"type": "array", "items": _STRING},
            },
            description="The games this server serves and the bots a game may seat (the "
            "browser front end's lobby reads it).",
        ),
        "SeatTable": _obj(
            {
                "version": _VERSION,
                "seat": _nullable(_SEAT),
                "svg": _STRING,
                "history": {
                    "type": "array",
                    "items": _obj({"position": _VERSION, "text": _STRING}),
                },
                "labels": {"type": "array", "items": _STRING},
            },
            description="A seat's table for the browser front end: its picture of the game "
            "(SVG text), the events it may see from `after` on, each in words, and each of its "
            "legal commands in words (what it does and costs), in the order of `legal`.",
        ),
        "StreamHello": _obj(
            {
                "token": _nullable(_STRING),
                "after": _VERSION,
                "table": {
                    "oneOf": [
                        {"type": "boolean"},
                        _obj({"layout": {"enum": ["wide", "narrow"]}}, ()),
                    ]
                },
            },
            (),
            description="The client's first message on the WebSocket: a seat's token (`null` "
            "or left out: the spectator), the version it has seen (default 0), and whether "
            "each update should carry the seat's table (its picture and history; default "
            'false); `{"layout": "narrow"}` asks for it with the picture drawn for a phone.',
        ),
        "StreamCommand": _any_game("StreamCommand", names, "A command sent on the WebSocket."),
        "StreamPing": _obj(
            {"type": {"const": "ping"}},
            description="Keeps a quiet WebSocket open; answered with a StreamPong.",
        ),
        "StreamUpdate": _any_game("StreamUpdate", names, "An update of the seat's game."),
        "StreamResult": _obj(
            {"type": {"const": "result"}, "version": _VERSION, "command_id": _STRING},
            ("type", "version"),
            description="The reply to a StreamCommand: the game's version after it (and the "
            "command's id, if it had one). The command's events arrive in the StreamUpdate "
            "every seat is sent.",
        ),
        "StreamError": _obj(
            {"type": {"const": "error"}, "status": {"type": "integer"}, "error": error_fields},
            description="A refusal, with the status HTTP would give it; after a refusal of the "
            "first message, a limit or a failure the server closes the socket.",
        ),
        "StreamPong": _obj({"type": {"const": "pong"}}),
    }
