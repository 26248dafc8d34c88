"""The shapes of the protocol's bodies and WebSocket messages, as JSON Schemas for the OpenAPI
document (:mod:`avanti.server.protocol.openapi`); those that hold a game's values are each game's
own."""

from __future__ import annotations

from collections.abc import Callable

from avanti.core.codec import JSONValue
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import (
    _CONVERTER,
    CommandRequest,
    Hello,
    NewGame,
    SeatRequest,
)
from avanti.server.protocol.schema import _SEAT, _VERSION, _Builder, _nullable, _obj, _ref

__all__ = ["ERROR_KINDS", "game_protocol", "protocol_schemas", "request_shapes"]


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


def _builder() -> _Builder:
    return _Builder(
        _component, {}, _CONVERTER.unstructure, {Hello: "StreamHello"}, fields_described=True
    )


def _component(name: str) -> str:
    return f"#/components/schemas/{name}"


def _command_request(game: str, command: dict[str, JSONValue]) -> dict[str, JSONValue]:
    """A command request of ``game``: the class's schema, its ``command`` one of the game's."""
    builder = _builder()
    builder.schema(CommandRequest)
    schema = builder.defs["CommandRequest"]
    properties = schema["properties"]
    properties["command"] = {**_nullable(command), **properties["command"]}
    schema["title"] = f"{game}.CommandRequest"
    return schema


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
        f"{game}.CommandRequest": _command_request(game, own("Command")),
        f"{game}.CommandResult": _obj(
            result,
            description="The game after a command, as the seat that sent it sees it: its "
            "events from the version the command was decided at.",
        ),
        f"{game}.StreamCommand": _stream_command(_command_request(game, own("Command"))),
        **_replay_shapes(game, own, seen),
        f"{game}.StreamUpdate": _obj(
            {
                "type": {"const": "update"},
                **result,
                "waiting": {"type": "array", "items": _SEAT},
                "outcome": _nullable(own("Outcome")),
                "table": _ref("SeatTable"),
                "results": {"type": "array", "items": _ref("StreamAnswer"), "minItems": 1},
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
        "version": _VERSION,
        "events": seen,
        "lines": {"type": "array", "items": _STRING},
        "view": own("View"),
        "waiting": {"type": "array", "items": _SEAT},
    }
    return {
        f"{game}.ReplayStep": _obj(
            step,
            description="One step of a replay, as `seen_by` saw it: the version it ends at "
            "(after the opening events, then after each command), the events it saw in it "
            "with their positions, each in words (`lines`, one per event), its view then "
            "and the seats awaited then.",
        ),
        f"{game}.Replay": _obj(
            {
                "id": _STRING,
                "game": {"const": game},
                "seen_by": _nullable(_SEAT),
                "players": {"type": "array", "items": _STRING},
                "version": _VERSION,
                "public_setup": own("PublicSetup"),
                "outcome": own("Outcome"),
                "steps": {"type": "array", "items": own("ReplayStep"), "minItems": 1},
            },
            description=f"A finished game of {game} as a seat (or, `seen_by` null, the "
            "spectator) saw it, step by step: what that seat was shown, never more.",
        ),
        f"{game}.ReplayPicture": _obj(
            {**step, "seen_by": _nullable(_SEAT), "svg": _STRING},
            description="One step of a replay with its picture (SVG text), drawn as the "
            "table drew it for `seen_by` then: its view, the step's events as the last move.",
        ),
    }


def _any_game(shape: str, names: list[str], description: str) -> dict[str, JSONValue]:
    """``shape`` of any game: one of the games' own (each client knows its game)."""
    return {"anyOf": [_ref(f"{name}.{shape}") for name in names], "description": description}


ERROR_KINDS: dict[str, str] = {
    refusal.kind: f"{' or '.join(map(str, refusal.statuses))}: {refusal.meaning}"
    for refusal in Refusal
}
"""Every ``kind`` of the server's errors, with its statuses and what it means: the members of
:class:`~avanti.server.protocol.refusals.Refusal`, the one list of them."""

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
    open_table: dict[str, JSONValue] = {
        "id": _STRING,
        "game": _STRING,
        "state": {"const": "open"},
        "seat": _nullable(_SEAT),
        "players": {"type": "array", "items": _nullable(_STRING)},
        "seats": _SEAT,
        "taken": _VERSION,
        "options": {},
        "seconds_per_move": _nullable({"type": "number"}),
        "created": {"type": "number"},
        "started": {"type": "boolean"},
        "sides": _nullable(
            {
                "type": "array",
                "items": _STRING,
                "description": "Each seat's side as the game will start with it (M2): the one "
                "its person picked, else the creator's, else the game's default; `null` for a "
                "game without sides.",
            }
        ),
        "free_sides": {
            "type": "array",
            "items": _STRING,
            "description": "The sides a person who sits down may pick (`side` of a "
            "SeatRequest): every side of the game, since each player decides (M2); empty for "
            "a game without sides.",
        },
    }
    return {
        "Error": _obj({"error": error_fields}, description="Every refusal, with its status."),
        **request_shapes(),
        "Seat": _obj(
            {
                "seat": _SEAT,
                "name": _nullable(_STRING),
                "token": _nullable(_STRING),
                "bot": _nullable(_STRING),
                "open": {"type": "boolean"},
            },
            ("seat", "name", "token", "bot"),
            description="A seat of a new game and its secret token (`null` for a bot's seat "
            "and an open one).",
        ),
        "CreatedGame": _obj(
            {
                "id": _STRING,
                "game": {"enum": names},
                "seats": {"type": "array", "items": _ref("Seat")},
                "spectator": _STRING,
                "open": {"type": "boolean"},
                "invite": _STRING,
            },
            ("id", "game", "seats", "spectator"),
            description="A new game: its id, each seat's token (given once), the spectator's path.",
        ),
        "GameSummary": _obj(
            {
                "id": _STRING,
                "game": _STRING,
                "state": {"enum": ["open", "playing", "finished"]},
                "players": {"type": "array", "items": _nullable(_STRING)},
                "bots": {"type": "object", "additionalProperties": _STRING},
                "seats": _SEAT,
                "taken": _VERSION,
                "turn": {"type": "array", "items": _STRING},
                "round": _nullable({"type": "integer"}),
                "winners": _nullable({"type": "array", "items": _STRING}),
                "options": {},
                "seconds_per_move": _nullable({"type": "number"}),
                "over": {"type": "boolean"},
                "created": {"type": "number", "description": "Unix time."},
                "updated": {"type": "number", "description": "Unix time."},
            },
            ("id", "game", "state", "players", "bots", "seats", "taken", "over", "created"),
            description="A table's public facts, as the lobby lists them: an open table's "
            "seats taken, options and age; a game in play's players to move (`turn`) and "
            "round; a finished game's winners. Never an event count.",
        ),
        "OpenTable": _obj(
            open_table,
            description="A table that waits for players (`null`: an open seat), and the "
            "token's seat at it (`null`: none).",
        ),
        "TakenSeat": _obj(
            {"game_id": _STRING, "seat": _SEAT, "token": _STRING},
            description="The seat taken and its secret token, given once.",
        ),
        "StartedTable": _obj(
            {"game_id": _STRING, "bots": _VERSION},
            description="The game has started; `bots`: how many open seats bots took.",
        ),
        "RematchSeat": _obj(
            {"game_id": _STRING, "seat": _SEAT, "token": _STRING},
            description="The asker's seat in the rematch and its token there.",
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
        "Replay": _any_game("Replay", names, "A finished game, step by step, as a seat saw it."),
        "ReplayPicture": _any_game("ReplayPicture", names, "A step of a replay, with its picture."),
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
                            "money": _obj(
                                {"prefix": _STRING, "scale": {"type": "integer", "minimum": 1}},
                                ("prefix", "scale"),
                                description="How an amount of the game's money is written: "
                                "the prefix, then the amount times the scale (For Sale: "
                                'Autorama: `{"prefix": "$", "scale": 1000}`, F2).',
                            ),
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
                "confirm": {
                    "type": "array",
                    "items": _STRING,
                    "description": "Beside each label, the question to ask before sending its "
                    'command (one that cannot be taken back, as quitting a run, A14), or `""` '
                    "to send it at once.",
                },
                "standings": _nullable(_ref("Standings")),
            },
            description="A seat's table for the browser front end: its picture of the game "
            "(SVG text), the events it may see from `after` on, each in words, each of its "
            "legal commands in words (what it does and costs) and the question it asks first, "
            "in the order of `legal`, and once the game is over its standings (`null` before).",
        ),
        "Standings": _obj(
            {
                "total": {
                    "type": "string",
                    "description": "What a total counts (`money`, `island space`, `fish`).",
                },
                "seats": {
                    "type": "array",
                    "items": _obj(
                        {
                            "seat": _SEAT,
                            "name": _STRING,
                            "total": {"type": "integer"},
                            "shown": _STRING,
                            "place": {"type": "integer", "minimum": 1},
                            "won": {"type": "boolean"},
                            "parts": {
                                "type": "array",
                                "items": _obj(
                                    {
                                        "words": _STRING,
                                        "amount": {"type": "integer"},
                                        "shown": _STRING,
                                        "rule": _STRING,
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
                "rule": _STRING,
            },
            description="How a finished game came out, every total explained.",
        ),
        "StreamCommand": _any_game("StreamCommand", names, "A command sent on the WebSocket."),
        "StreamPing": _obj(
            {"type": {"const": "ping"}},
            description="Keeps a quiet WebSocket open; answered with a StreamPong.",
        ),
        "StreamUpdate": _any_game("StreamUpdate", names, "An update of the seat's game."),
        "StreamAnswer": _obj(
            {"version": _VERSION, "command_id": _STRING},
            ("version",),
            description="The answer to a StreamCommand that was stored: the game's version "
            "after it (and the command's id, if it had one).",
        ),
        "StreamResult": _obj(
            {"type": {"const": "result"}, "version": _VERSION, "command_id": _STRING},
            ("type", "version"),
            description="The answer to a StreamCommand on its own, when no update carries it "
            "(the retry of a command stored before): the game's version after it (and the "
            "command's id, if it had one).",
        ),
        "StreamError": _obj(
            {"type": {"const": "error"}, "status": {"type": "integer"}, "error": error_fields},
            description="A refusal, with the status HTTP would give it; after a refusal of the "
            "first message, a limit or a failure the server closes the socket.",
        ),
        "StreamPong": _obj({"type": {"const": "pong"}}),
        "StreamChatSend": _obj(
            {"type": {"const": "chat"}, "text": _STRING},
            ("type", "text"),
            description="A seat's chat message: 1 to 500 characters of plain text (no control "
            "characters but line breaks and tabs); spectators read but do not write.",
        ),
        "StreamChat": _obj(
            {
                "type": {"const": "chat"},
                "messages": {
                    "type": "array",
                    "items": _obj(
                        {
                            "id": _VERSION,
                            "seat": _nullable(_SEAT),
                            "name": _nullable(_STRING),
                            "text": _STRING,
                            "at": {"type": "integer", "description": "Unix time."},
                            "system": {"type": "boolean"},
                        }
                    ),
                },
            },
            description="Chat messages, oldest first: the newest ones right after the first "
            "update, then each new one as it is sent.",
        ),
        "StreamTable": _obj(
            {"type": {"const": "table"}, **open_table},
            description="The table while it waits for players (sent whenever a seat is "
            "taken); the game's first update follows once it starts.",
        ),
        "StreamRematch": _obj(
            {"type": {"const": "rematch"}, "game_id": _STRING},
            description="The game's rematch exists (POST /games/{id}/rematch gives a seat its "
            "seat there).",
        ),
    }
