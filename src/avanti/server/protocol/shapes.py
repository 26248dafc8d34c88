"""The shapes of the protocol's bodies and WebSocket messages, as JSON Schemas for the OpenAPI
document (:mod:`avanti.server.protocol.openapi`); those that hold a game's values are each game's
own."""

from __future__ import annotations

from collections.abc import Callable

from avanti.core.codec import JSONValue
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import (
    CONVERTER,
    CommandRequest,
    Hello,
    NewGame,
    SeatRequest,
)
from avanti.server.protocol.schema import (
    SEAT_SCHEMA,
    VERSION_SCHEMA,
    SchemaBuilder,
    component_ref,
    nullable,
    object_schema,
)

__all__ = ["ERROR_KINDS", "STRING_SCHEMA", "game_protocol", "protocol_schemas", "request_shapes"]


def request_shapes() -> dict[str, dict[str, JSONValue]]:
    """The schemas of the bodies a client sends, built from their classes
    (:mod:`avanti.server.protocol.requests`): ``NewGame``, ``SeatRequest`` and ``StreamHello``
    (:class:`~avanti.server.protocol.requests.Hello`), with what they refer to. A command
    request is each game's own (``<game>.CommandRequest``, built from
    :class:`~avanti.server.protocol.requests.CommandRequest` with the game's commands)."""
    builder = _builder()
    for request in (NewGame, SeatRequest, Hello):
        builder.schema(request)
    return builder.defs


def _builder() -> SchemaBuilder:
    return SchemaBuilder(
        _component, {}, CONVERTER.unstructure, {Hello: "StreamHello"}, fields_described=True
    )


def _component(name: str) -> str:
    return f"#/components/schemas/{name}"


def _command_request(game: str, command: dict[str, JSONValue]) -> dict[str, JSONValue]:
    """A command request of ``game``: the class's schema, its ``command`` one of the game's."""
    builder = _builder()
    builder.schema(CommandRequest)
    schema = builder.defs["CommandRequest"]
    properties = schema["properties"]
    properties["command"] = {**nullable(command), **properties["command"]}
    schema["title"] = f"{game}.CommandRequest"
    return schema


def game_protocol(game: str) -> dict[str, JSONValue]:
    """The protocol's shapes that hold one game's values, named ``<game>.<shape>``."""

    def own(shape: str) -> dict[str, JSONValue]:
        return component_ref(f"{game}.{shape}")

    legal = {"type": "array", "items": own("LegalCommand")}
    seen = {"type": "array", "items": own("SeenEvent")}
    result: dict[str, JSONValue] = {
        "version": VERSION_SCHEMA,
        "events": seen,
        "legal": legal,
        "view": own("View"),
    }
    return {
        f"{game}.LegalCommand": object_schema(
            {"command": own("Command"), "notation": STRING_SCHEMA},
            description="One of the seat's legal commands, with its notation.",
        ),
        f"{game}.SeenEvent": object_schema(
            {"position": VERSION_SCHEMA, "event": own("Event")},
            description="An event as the seat sees it, at its position in the whole log.",
        ),
        f"{game}.SeatState": object_schema(
            {
                "id": STRING_SCHEMA,
                "game": {"const": game},
                "seat": nullable(SEAT_SCHEMA),
                "version": VERSION_SCHEMA,
                "public_setup": own("PublicSetup"),
                "view": own("View"),
                "waiting": {"type": "array", "items": SEAT_SCHEMA},
                "legal": legal,
                "events": seen,
                "outcome": nullable(own("Outcome")),
            },
            description=f"A game of {game} as one seat (or the spectator) may see it.",
        ),
        f"{game}.CommandRequest": _command_request(game, own("Command")),
        f"{game}.CommandResult": object_schema(
            result,
            description="The game after a command, as the seat that sent it sees it: its "
            "events from the version the command was decided at.",
        ),
        f"{game}.StreamCommand": _stream_command(_command_request(game, own("Command"))),
        **_replay_shapes(game, own, seen),
        f"{game}.StreamUpdate": object_schema(
            {
                "type": {"const": "update"},
                **result,
                "waiting": {"type": "array", "items": SEAT_SCHEMA},
                "outcome": nullable(own("Outcome")),
                "table": component_ref("SeatTable"),
                "results": {"type": "array", "items": component_ref("StreamAnswer"), "minItems": 1},
            },
            ("type", "version", "events", "legal", "view", "waiting", "outcome"),
            description="Sent at once after the first message (the events after its "
            "`after`), then after every change to the game, to every connection (the mover's "
            "too); with `table` when the first message asked for it. The mover's update "
            "carries the answers to its stored commands in `results`: one message per change.",
        ),
    }


def _stream_command(request: dict[str, JSONValue]) -> dict[str, JSONValue]:
    """A command request sent on the WebSocket: with ``"type": "command"``."""
    return {
        **request,
        "title": request["title"].replace("CommandRequest", "StreamCommand"),
        "properties": {"type": {"const": "command"}, **request["properties"]},
        "required": ["type", *request["required"]],
        "description": "A command sent on the WebSocket, as to POST /games/{id}/commands.",
    }


def _replay_shapes(
    game: str, own: Callable[[str], dict[str, JSONValue]], seen: dict[str, JSONValue]
) -> dict[str, JSONValue]:
    """The shapes of a finished game's replay (``GET /games/{id}/replay``) and of one of its
    steps with its picture (``GET /games/{id}/replay/{version}``), for one game."""
    step: dict[str, JSONValue] = {
        "version": VERSION_SCHEMA,
        "events": seen,
        "lines": {"type": "array", "items": STRING_SCHEMA},
        "view": own("View"),
        "waiting": {"type": "array", "items": SEAT_SCHEMA},
    }
    return {
        f"{game}.ReplayStep": object_schema(
            step,
            description="One step of a replay, as `seen_by` saw it: the version it ends at "
            "(after the opening events, then after each command), the events it saw in it "
            "with their positions, each in words (`lines`, one per event), its view then "
            "and the seats awaited then.",
        ),
        f"{game}.Replay": object_schema(
            {
                "id": STRING_SCHEMA,
                "game": {"const": game},
                "seen_by": nullable(SEAT_SCHEMA),
                "players": {"type": "array", "items": STRING_SCHEMA},
                "version": VERSION_SCHEMA,
                "public_setup": own("PublicSetup"),
                "outcome": own("Outcome"),
                "steps": {"type": "array", "items": own("ReplayStep"), "minItems": 1},
            },
            description=f"A finished game of {game} as a seat (or, `seen_by` null, the "
            "spectator) saw it, step by step: what that seat was shown, never more.",
        ),
        f"{game}.ReplayPicture": object_schema(
            {**step, "seen_by": nullable(SEAT_SCHEMA), "svg": STRING_SCHEMA},
            description="One step of a replay with its picture (SVG text), drawn as the "
            "table drew it for `seen_by` then: its view, the step's events as the last move.",
        ),
    }


def _any_game(shape: str, names: list[str], description: str) -> dict[str, JSONValue]:
    """``shape`` of any game: one of the games' own (each client knows its game)."""
    return {
        "anyOf": [component_ref(f"{name}.{shape}") for name in names],
        "description": description,
    }


ERROR_KINDS: dict[str, str] = {
    refusal.kind: f"{' or '.join(map(str, refusal.statuses))}: {refusal.meaning}"
    for refusal in Refusal
}
"""Every ``kind`` of the server's errors, with its statuses and what it means: the members of
:class:`~avanti.server.protocol.refusals.Refusal`, the one list of them."""

STRING_SCHEMA: dict[str, JSONValue] = {"type": "string"}
"""Any string on the wire."""


def protocol_schemas(names: list[str]) -> dict[str, JSONValue]:
    """The shapes of the protocol's bodies and messages; those that hold a game's values are
    one of the games' own shapes."""
    error_fields = object_schema(
        {
            "kind": {"enum": list(ERROR_KINDS)},
            "message": STRING_SCHEMA,
            "reason": STRING_SCHEMA,
            "rule": nullable(STRING_SCHEMA),
            "expected": VERSION_SCHEMA,
            "actual": VERSION_SCHEMA,
        },
        ("kind", "message"),
        description=(
            "What was refused: `kind` (one of the error kinds), `message` in words; an "
            "illegal command adds the library's `reason` and `rule`, a version conflict the "
            "`expected` and `actual` versions, an invalid setup its `rule`."
        ),
    )
    open_table: dict[str, JSONValue] = {
        "id": STRING_SCHEMA,
        "game": STRING_SCHEMA,
        "state": {"const": "open"},
        "seat": nullable(SEAT_SCHEMA),
        "players": {"type": "array", "items": nullable(STRING_SCHEMA)},
        "seats": SEAT_SCHEMA,
        "taken": VERSION_SCHEMA,
        "options": {},
        "seconds_per_move": nullable({"type": "number"}),
        "created": {"type": "number"},
        "started": {"type": "boolean"},
        "sides": nullable(
            {
                "type": "array",
                "items": STRING_SCHEMA,
                "description": "Each seat's side as the game will start with it (M2): the one "
                "its person picked, else the creator's, else the game's default; `null` for a "
                "game without sides.",
            }
        ),
        "free_sides": {
            "type": "array",
            "items": STRING_SCHEMA,
            "description": "The sides a person who sits down may pick (`side` of a "
            "SeatRequest): every side of the game, since each player decides (M2); empty for "
            "a game without sides.",
        },
    }
    return {
        "Error": object_schema(
            {"error": error_fields}, description="Every refusal, with its status."
        ),
        **request_shapes(),
        "Seat": object_schema(
            {
                "seat": SEAT_SCHEMA,
                "name": nullable(STRING_SCHEMA),
                "token": nullable(STRING_SCHEMA),
                "bot": nullable(STRING_SCHEMA),
                "open": {"type": "boolean"},
            },
            ("seat", "name", "token", "bot"),
            description="A seat of a new game and its secret token (`null` for a bot's seat "
            "and an open one).",
        ),
        "CreatedGame": object_schema(
            {
                "id": STRING_SCHEMA,
                "game": {"enum": names},
                "seats": {"type": "array", "items": component_ref("Seat")},
                "spectator": STRING_SCHEMA,
                "open": {"type": "boolean"},
                "invite": STRING_SCHEMA,
            },
            ("id", "game", "seats", "spectator"),
            description="A new game: its id, each seat's token (given once), the spectator's path.",
        ),
        "GameSummary": object_schema(
            {
                "id": STRING_SCHEMA,
                "game": STRING_SCHEMA,
                "state": {"enum": ["open", "playing", "finished"]},
                "players": {"type": "array", "items": nullable(STRING_SCHEMA)},
                "bots": {"type": "object", "additionalProperties": STRING_SCHEMA},
                "seats": SEAT_SCHEMA,
                "taken": VERSION_SCHEMA,
                "turn": {"type": "array", "items": STRING_SCHEMA},
                "round": nullable({"type": "integer"}),
                "winners": nullable({"type": "array", "items": STRING_SCHEMA}),
                "options": {},
                "seconds_per_move": nullable({"type": "number"}),
                "over": {"type": "boolean"},
                "created": {"type": "number", "description": "Unix time."},
                "updated": {"type": "number", "description": "Unix time."},
            },
            ("id", "game", "state", "players", "bots", "seats", "taken", "over", "created"),
            description="A table's public facts, as the lobby lists them: an open table's "
            "seats taken, options and age; a game in play's players to move (`turn`) and "
            "round; a finished game's winners. Never an event count.",
        ),
        "OpenTable": object_schema(
            open_table,
            description="A table that waits for players (`null`: an open seat), and the "
            "token's seat at it (`null`: none).",
        ),
        "TakenSeat": object_schema(
            {"game_id": STRING_SCHEMA, "seat": SEAT_SCHEMA, "token": STRING_SCHEMA},
            description="The seat taken and its secret token, given once.",
        ),
        "StartedTable": object_schema(
            {"game_id": STRING_SCHEMA, "bots": VERSION_SCHEMA},
            description="The game has started; `bots`: how many open seats bots took.",
        ),
        "RematchSeat": object_schema(
            {"game_id": STRING_SCHEMA, "seat": SEAT_SCHEMA, "token": STRING_SCHEMA},
            description="The asker's seat in the rematch and its token there.",
        ),
        "GameList": object_schema(
            {"games": {"type": "array", "items": component_ref("GameSummary")}}
        ),
        "SeatState": {
            "oneOf": [component_ref(f"{name}.SeatState") for name in names],
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
        "Replay": _any_game("Replay", names, "A finished game, step by step, as a seat saw it."),
        "ReplayPicture": _any_game("ReplayPicture", names, "A step of a replay, with its picture."),
        "BotRequest": object_schema({"bot": STRING_SCHEMA}),
        "SeatBot": object_schema(
            {"seat": SEAT_SCHEMA, "bot": nullable(STRING_SCHEMA)},
            description="Who plays a seat now: a bot, or (`null`) its person.",
        ),
        "Health": object_schema({"status": {"const": "ok"}}),
        "Catalog": object_schema(
            {
                "games": {
                    "type": "array",
                    "items": object_schema(
                        {
                            "name": {"enum": names},
                            "title": STRING_SCHEMA,
                            "min_players": SEAT_SCHEMA,
                            "max_players": SEAT_SCHEMA,
                            "default_players": {"type": "array", "items": STRING_SCHEMA},
                            "sides": {"type": "array", "items": STRING_SCHEMA},
                            "money": object_schema(
                                {
                                    "prefix": STRING_SCHEMA,
                                    "scale": {"type": "integer", "minimum": 1},
                                },
                                ("prefix", "scale"),
                                description="How an amount of the game's money is written: "
                                "the prefix, then the amount times the scale (For Sale: "
                                'Autorama: `{"prefix": "$", "scale": 1000}`, F2).',
                            ),
                        }
                    ),
                },
                "bots": {"type": "array", "items": STRING_SCHEMA},
            },
            description="The games this server serves and the bots a game may seat (the "
            "browser front end's lobby reads it).",
        ),
        "SeatTable": object_schema(
            {
                "version": VERSION_SCHEMA,
                "seat": nullable(SEAT_SCHEMA),
                "svg": STRING_SCHEMA,
                "history": {
                    "type": "array",
                    "items": object_schema({"position": VERSION_SCHEMA, "text": STRING_SCHEMA}),
                },
                "labels": {"type": "array", "items": STRING_SCHEMA},
                "confirm": {
                    "type": "array",
                    "items": STRING_SCHEMA,
                    "description": "Beside each label, the question to ask before sending its "
                    'command (one that cannot be taken back, as quitting a run, A14), or `""` '
                    "to send it at once.",
                },
                "standings": nullable(component_ref("Standings")),
            },
            description="A seat's table for the browser front end: its picture of the game "
            "(SVG text), the events it may see from `after` on, each in words, each of its "
            "legal commands in words (what it does and costs) and the question it asks first, "
            "in the order of `legal`, and once the game is over its standings (`null` before).",
        ),
        "Standings": object_schema(
            {
                "total": {
                    "type": "string",
                    "description": "What a total counts (`money`, `island space`, `fish`).",
                },
                "seats": {
                    "type": "array",
                    "items": object_schema(
                        {
                            "seat": SEAT_SCHEMA,
                            "name": STRING_SCHEMA,
                            "total": {"type": "integer"},
                            "shown": STRING_SCHEMA,
                            "place": {"type": "integer", "minimum": 1},
                            "won": {"type": "boolean"},
                            "parts": {
                                "type": "array",
                                "items": object_schema(
                                    {
                                        "words": STRING_SCHEMA,
                                        "amount": {"type": "integer"},
                                        "shown": STRING_SCHEMA,
                                        "rule": STRING_SCHEMA,
                                    }
                                ),
                                "description": "What the total is made of: the amounts add "
                                "up to it exactly, each named with its rule (F19).",
                            },
                        }
                    ),
                    "description": "Every seat, best place first (equal seats share a place).",
                },
                "decided": {
                    "type": "string",
                    "description": "How a tie for the best total was broken, with its rule "
                    '(F20: most cash; A20: the last run), or `""`.',
                },
                "rule": STRING_SCHEMA,
            },
            description="How a finished game came out, every total explained.",
        ),
        "StreamCommand": _any_game("StreamCommand", names, "A command sent on the WebSocket."),
        "StreamPing": object_schema(
            {"type": {"const": "ping"}},
            description="Keeps a quiet WebSocket open; answered with a StreamPong.",
        ),
        "StreamUpdate": _any_game("StreamUpdate", names, "An update of the seat's game."),
        "StreamAnswer": object_schema(
            {"version": VERSION_SCHEMA, "command_id": STRING_SCHEMA},
            ("version",),
            description="The answer to a StreamCommand that was stored: the game's version "
            "after it (and the command's id, if it had one).",
        ),
        "StreamResult": object_schema(
            {"type": {"const": "result"}, "version": VERSION_SCHEMA, "command_id": STRING_SCHEMA},
            ("type", "version"),
            description="The answer to a StreamCommand on its own, when no update carries it "
            "(the retry of a command stored before): the game's version after it (and the "
            "command's id, if it had one).",
        ),
        "StreamError": object_schema(
            {"type": {"const": "error"}, "status": {"type": "integer"}, "error": error_fields},
            description="A refusal, with the status HTTP would give it; after a refusal of the "
            "first message, a limit or a failure the server closes the socket.",
        ),
        "StreamPong": object_schema({"type": {"const": "pong"}}),
        "StreamChatSend": object_schema(
            {"type": {"const": "chat"}, "text": STRING_SCHEMA},
            ("type", "text"),
            description="A seat's chat message: 1 to 500 characters of plain text (no control "
            "characters but line breaks and tabs); spectators read but do not write.",
        ),
        "StreamChat": object_schema(
            {
                "type": {"const": "chat"},
                "messages": {
                    "type": "array",
                    "items": object_schema(
                        {
                            "id": VERSION_SCHEMA,
                            "seat": nullable(SEAT_SCHEMA),
                            "name": nullable(STRING_SCHEMA),
                            "text": STRING_SCHEMA,
                            "at": {"type": "integer", "description": "Unix time."},
                            "system": {"type": "boolean"},
                        }
                    ),
                },
            },
            description="Chat messages, oldest first: the newest ones right after the first "
            "update, then each new one as it is sent.",
        ),
        "StreamTable": object_schema(
            {"type": {"const": "table"}, **open_table},
            description="The table while it waits for players (sent whenever a seat is "
            "taken); the game's first update follows once it starts.",
        ),
        "StreamRematch": object_schema(
            {"type": {"const": "rematch"}, "game_id": STRING_SCHEMA},
            description="The game's rematch exists (POST /games/{id}/rematch gives a seat its "
            "seat there).",
        ),
    }
