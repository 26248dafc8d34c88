"""The OpenAPI document of the server's protocol, from the games' codecs and the route table.

Every route of :data:`avanti.server.protocol.routes.ROUTES` that is documented is described here (a
test checks the two hold the same routes), beside every game's schemas
(:mod:`avanti.server.protocol.schema`) and the protocol's shapes
(:mod:`avanti.server.protocol.shapes`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import InvalidArgument
from avanti.server.protocol.routes import ROUTES
from avanti.server.protocol.schema import (
    JSON_SCHEMA_DIALECT,
    OPENAPI_VERSION,
    SEAT_SCHEMA,
    VERSION_SCHEMA,
    GameClass,
    build_game,
    catalog_game_class,
    component_ref,
    error_content,
    json_content,
)
from avanti.server.protocol.shapes import STRING_SCHEMA, game_protocol, protocol_schemas

__all__ = ["openapi"]


def openapi() -> dict[str, JSONValue]:
    """The OpenAPI 3.1 document of the server's protocol (``GET /openapi.json``).

    Every endpoint with its parameters, request and response bodies and error statuses; the
    WebSocket's messages as ``Stream*`` schemas. Each game of the catalog brings its schemas under
    ``components.schemas`` with the game's name as a prefix (``avanti.View``, ``mare.Roll``,
    ``autorama.Command``). A new dict on every call.
    """
    games = tuple((name, catalog_game_class(name)) for name in catalog.GAMES)
    return copy.deepcopy(_openapi(games))


_OPENAPI: dict[tuple[tuple[str, GameClass], ...], dict[str, JSONValue]] = {}
"""The OpenAPI document for each catalog (its games by name), made once."""


def _openapi(games: tuple[tuple[str, GameClass], ...]) -> dict[str, JSONValue]:
    found = _OPENAPI.get(games)
    if found is None:
        found = _OPENAPI[games] = _make_openapi(games)
    return found


def _component_ref(game: str) -> Callable[[str], str]:
    """The ``$ref`` of one of ``game``'s definitions among the OpenAPI components."""

    def ref(name: str) -> str:
        return f"#/components/schemas/{game}.{name}"

    return ref


def _make_openapi(games: tuple[tuple[str, GameClass], ...]) -> dict[str, JSONValue]:
    components: dict[str, JSONValue] = {}
    for name, game_class in games:
        defs, top = build_game(game_class, _component_ref(name))
        codec = game_class.rules.codec
        for key, tags in (("command", codec.commands), ("event", codec.events)):
            options = top[key]["oneOf"]
            top[key]["discriminator"] = {  # for code generators: the tag names the class
                "propertyName": "type",
                "mapping": {tag: option["$ref"] for tag, option in zip(tags, options, strict=True)},
            }
        components.update({f"{name}.{d}": schema for d, schema in defs.items()})
        for key, schema in top.items():
            label = f"{name}." + "".join(part.capitalize() for part in key.split("_"))
            if schema == component_ref(label):  # the class has the name already (View, Outcome)
                continue
            if label in components:
                raise InvalidArgument(f"{name} has a class named {label!r} that is not its {key}")
            components[label] = schema
        components.update(game_protocol(name))
    names = [name for name, _ in games]
    components.update(protocol_schemas(names))
    return {
        "openapi": OPENAPI_VERSION,
        "jsonSchemaDialect": JSON_SCHEMA_DIALECT,
        "info": {
            "title": "avanti server",
            "version": "1",
            "description": (
                "Games of the avanti library over HTTP and a WebSocket: a lobby, seats with "
                "secret tokens, per-seat views and event streams, bots."
            ),
        },
        "paths": _paths(names),
        "components": {
            "schemas": components,
            "securitySchemes": {
                "seat": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat's token, as POST /games returned it.",
                }
            },
        },
    }


def _paths(names: list[str]) -> dict[str, JSONValue]:
    """The document's paths: one operation for each documented route of
    :data:`~avanti.server.protocol.routes.ROUTES`, with the route's summary and operation id."""
    described = _operations(names)
    paths: dict[str, JSONValue] = {}
    for spec in ROUTES:
        if not spec.documented:
            continue
        path = spec.path.replace("{game_id}", "{id}")
        method = "get" if spec.method == "WEBSOCKET" else spec.method.lower()
        operation = dict(described[path][method])
        operation.update(summary=spec.summary, operationId=spec.name)
        entry = paths.setdefault(path, {})
        assert isinstance(entry, dict)
        entry[method] = operation
    return paths


def _operations(names: list[str]) -> dict[str, dict[str, dict[str, JSONValue]]]:
    """Each route's operation, by path and method, without its summary."""
    game_id = {"name": "id", "in": "path", "required": True, "schema": STRING_SCHEMA}
    seat = {"name": "seat", "in": "path", "required": True, "schema": SEAT_SCHEMA}
    bearer: list[JSONValue] = [{"seat": []}, {}]
    other = {"default": error_content("Any other refusal: 500 internal, 503 unavailable.")}
    bad_token = error_content("unauthorized: the token is no seat's of this game.")
    no_game = error_content("unknown-game: there is no such game.")
    too_large = error_content("too-large: the body is too big.")
    return {
        "/health": {
            "get": {
                "summary": "Whether the server is up",
                "responses": {"200": json_content(component_ref("Health"), "The server is up.")},
            }
        },
        "/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": json_content({"type": "object"}, "The OpenAPI document.")},
            }
        },
        "/schemas/{game}": {
            "get": {
                "summary": "The JSON Schemas of a game's views, commands, events, public setup "
                "and outcome",
                "parameters": [
                    {"name": "game", "in": "path", "required": True, "schema": {"enum": names}}
                ],
                "responses": {
                    "200": json_content(
                        {"type": "object"}, "A JSON Schema (draft 2020-12) document."
                    ),
                    "404": error_content("unknown-game: no game of that name."),
                },
            }
        },
        "/games": {
            "get": {
                "summary": "The lobby: open tables, then games in play, then finished ones",
                "parameters": [
                    {"name": "game", "in": "query", "schema": {"enum": names}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                ],
                "responses": {
                    "200": json_content(component_ref("GameList"), "The games' public facts."),
                    "400": error_content("bad-request (limit), unknown-game (game)."),
                    **other,
                },
            },
            "post": {
                "summary": "Create a game",
                "requestBody": {
                    "required": True,
                    **json_content(component_ref("NewGame"), "The new game."),
                },
                "responses": {
                    "201": json_content(
                        component_ref("CreatedGame"), "The game, with each seat's token."
                    ),
                    "400": error_content("bad-request, malformed-json, unknown-game, unknown-bot."),
                    "413": too_large,
                    "422": error_content("invalid-setup (the players), invalid-options."),
                    "429": error_content("rate-limited: too many new games from this address."),
                    **other,
                },
            },
        },
        "/games/{id}": {
            "get": {
                "summary": "The game as the token's seat (or, without a token, a spectator) "
                "sees it",
                "security": bearer,
                "parameters": [
                    game_id,
                    {"name": "after", "in": "query", "schema": VERSION_SCHEMA},
                ],
                "responses": {
                    "200": json_content(
                        {"oneOf": [component_ref("SeatState"), component_ref("OpenTable")]},
                        "The seat's game; while seats are open, the table.",
                    ),
                    "400": error_content("bad-request: after is beyond the game's version."),
                    "401": bad_token,
                    "404": no_game,
                    "410": error_content("table-expired: the table waited too long and is closed."),
                    **other,
                },
            }
        },
        "/catalog": {
            "get": {
                "summary": "The games served and the bots a game may seat",
                "responses": {"200": json_content(component_ref("Catalog"), "The catalog.")},
            }
        },
        "/games/{id}/table": {
            "get": {
                "summary": "The token's seat's picture of the game and its history in words "
                "(the browser front end's table)",
                "security": bearer,
                "parameters": [
                    game_id,
                    {"name": "after", "in": "query", "schema": VERSION_SCHEMA},
                ],
                "responses": {
                    "200": json_content(component_ref("SeatTable"), "The seat's table."),
                    "400": error_content("bad-request: after is not a version of the game."),
                    "401": bad_token,
                    "404": no_game,
                    **other,
                },
            }
        },
        "/games/{id}/commands": {
            "post": {
                "summary": "Send a command of the token's seat",
                "security": [{"seat": []}],
                "parameters": [game_id],
                "requestBody": {
                    "required": True,
                    **json_content(component_ref("CommandRequest"), "A command, or its notation."),
                },
                "responses": {
                    "200": json_content(
                        component_ref("CommandResult"), "The command was executed."
                    ),
                    "400": error_content("bad-request, malformed-json."),
                    "401": bad_token,
                    "403": error_content(
                        "forbidden: no token (a spectator), a command of another seat, or a "
                        "seat a bot plays."
                    ),
                    "404": no_game,
                    "409": error_content("version-conflict: expected_version is not the version."),
                    "413": too_large,
                    "422": error_content("illegal-command (the rules refuse it), invalid-command."),
                    "429": error_content("rate-limited: too many commands from this seat."),
                    **other,
                },
            }
        },
        "/games/{id}/seats/{seat}/bot": {
            "put": {
                "summary": "Hand the token's seat to a bot",
                "security": [{"seat": []}],
                "parameters": [game_id, seat],
                "requestBody": {
                    "required": True,
                    **json_content(component_ref("BotRequest"), "The bot."),
                },
                "responses": {
                    "200": json_content(component_ref("SeatBot"), "A bot plays the seat."),
                    "400": error_content("bad-request, malformed-json, unknown-bot."),
                    "401": bad_token,
                    "403": error_content("forbidden: the token is not that seat's."),
                    "404": no_game,
                    "413": too_large,
                    **other,
                },
            },
            "delete": {
                "summary": "Take the token's seat back from its bot",
                "security": [{"seat": []}],
                "parameters": [game_id, seat],
                "responses": {
                    "200": json_content(
                        component_ref("SeatBot"), "The seat's person plays it again."
                    ),
                    "401": bad_token,
                    "403": error_content("forbidden: the token is not that seat's."),
                    "404": no_game,
                    **other,
                },
            },
        },
        **more_operations(game_id, other, bad_token, no_game, too_large),
        **replay_operations(game_id, other, no_game),
        "/games/{id}/stream": {
            "get": {
                "summary": "A WebSocket of the seat's updates, and its commands",
                "description": (
                    "Upgrade to a WebSocket. The client's first message is a StreamHello (the "
                    "token stays out of the URL). The server answers with a StreamUpdate of "
                    "the events after `after` and a StreamChat of the newest chat messages, then "
                    "an update after every change to the game, from any server process. While "
                    "the table has open seats it first sends a StreamTable whenever a seat is "
                    "taken. The client may send StreamCommand messages (each answered in order: "
                    "a stored one in the `results` of the seat's next StreamUpdate, or by a "
                    "StreamResult when no update is due, a refused one by a StreamError), "
                    "StreamChatSend messages (a seat's; every connection of the game gets the "
                    "StreamChat) and StreamPing messages. After "
                    "a rematch every connection gets a StreamRematch. A "
                    "bad first message or token, a message too big, a long silence and a full "
                    "game get a StreamError, then the socket is closed."
                ),
                "parameters": [game_id],
                "responses": {"101": {"description": "Switching to the WebSocket protocol."}},
                "x-websocket": {
                    "client": [
                        component_ref("StreamHello"),
                        component_ref("StreamCommand"),
                        component_ref("StreamChatSend"),
                        component_ref("StreamPing"),
                    ],
                    "server": [
                        component_ref("StreamUpdate"),
                        component_ref("StreamTable"),
                        component_ref("StreamChat"),
                        component_ref("StreamRematch"),
                        component_ref("StreamResult"),
                        component_ref("StreamError"),
                        component_ref("StreamPong"),
                    ],
                },
            }
        },
    }


# -- the operations of the replays ---------------------------------------------------------


def replay_operations(
    game_id: JSONValue, other: dict[str, JSONValue], no_game: JSONValue
) -> dict[str, dict[str, dict[str, JSONValue]]]:
    """The operations of a finished game's replay, by path and method."""
    seen_by: JSONValue = {
        "name": "seen_by",
        "in": "query",
        "required": False,
        "description": "Whose replay: a seat number (what that seat was shown), or spectator "
        "(the default: public facts only).",
        "schema": {"type": "string", "default": "spectator"},
    }
    busy = {
        "429": error_content(
            "rate-limited: this address has its share of the lab's budget under way."
        ),
        "503": error_content("busy: the lab's budget of CPU is spent; try again in a moment."),
    }
    return {
        "/games/{id}/replay": {
            "get": {
                "summary": "A finished game step by step, as a seat or the spectator saw it",
                "description": (
                    "Only once the game is over, and then for anyone, with no token. A step "
                    "ends after the opening events, then after each command; each holds the "
                    "events seen_by saw in it (with their positions in the whole log), their "
                    "words, its view and the seats awaited. A seat's replay holds what that "
                    "seat was shown, never more; the spectator's only public facts."
                ),
                "parameters": [game_id, seen_by],
                "responses": {
                    "200": json_content(component_ref("Replay"), "The replay."),
                    "400": error_content(
                        "bad-request: seen_by is no seat of the game nor spectator."
                    ),
                    "404": no_game,
                    "409": error_content("not-over: the game is not over."),
                    "413": error_content("too-large: the replay is longer than lab_answer_bytes."),
                    **busy,
                    **other,
                },
            }
        },
        "/games/{id}/replay/{version}": {
            "get": {
                "summary": "One step of a replay, with its picture",
                "description": (
                    "The step of GET /games/{id}/replay that ends at version, and seen_by's "
                    "picture of the table then (SVG text), as the table drew it: the view "
                    "then, the step's events as the last move."
                ),
                "parameters": [
                    game_id,
                    {"name": "version", "in": "path", "required": True, "schema": VERSION_SCHEMA},
                    seen_by,
                    {
                        "name": "layout",
                        "in": "query",
                        "required": False,
                        "description": "The picture's layout: narrow is drawn for a phone.",
                        "schema": {"enum": ["wide", "narrow"], "default": "wide"},
                    },
                ],
                "responses": {
                    "200": json_content(
                        component_ref("ReplayPicture"), "The step and its picture."
                    ),
                    "400": error_content("bad-request: seen_by, layout or version is none."),
                    "404": error_content(
                        "unknown-game: there is no such game; not-found: no step of the "
                        "replay ends at that version."
                    ),
                    "409": error_content("not-over: the game is not over."),
                    **busy,
                    **other,
                },
            }
        },
    }


# -- the operations of the open tables, the rematch and the lab -----------------------------


def more_operations(
    game_id: JSONValue,
    other: dict[str, JSONValue],
    bad_token: JSONValue,
    no_game: JSONValue,
    too_large: JSONValue,
) -> dict[str, dict[str, dict[str, JSONValue]]]:
    """The operations of the open tables, the rematch and the lab, by path and method, with
    the parameter and the answers :func:`avanti.server.protocol.openapi.openapi` shares with
    them."""
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
                "requestBody": {
                    "required": True,
                    **json_content(component_ref("SeatRequest"), "The name."),
                },
                "responses": {
                    "201": json_content(
                        component_ref("TakenSeat"), "The seat and its token (given once)."
                    ),
                    "400": error_content("bad-request, malformed-json."),
                    "404": error_content("unknown-game: no table with open seats has that id."),
                    "409": error_content("table-full: every seat is taken."),
                    "410": error_content("table-expired: the table waited too long and is closed."),
                    "413": too_large,
                    "422": error_content(
                        "invalid-name: the name's length or characters, or a twin (in case or "
                        "Unicode form); invalid-options, invalid-setup: the game refuses to start "
                        "with the last seat taken (the seat stays open)."
                    ),
                    "429": error_content("rate-limited: too many seats taken from this address."),
                    **other,
                },
            }
        },
        "/lab/forms": {
            "get": {
                "summary": "The lab's case form of every game",
                "description": (
                    "What the lab page builds its forms from, per game of the catalog: its "
                    "name, title and seat limits, the position's fields with their kinds "
                    "(counts, choices, lists that follow the player count, cards from the "
                    "game's box, a laid card with its number), the options a reading may "
                    "change, the box's cards, the random draws a case may name as outcomes, "
                    "and an example case."
                ),
                "responses": {
                    "200": json_content({"type": "object"}, "The forms, game by game."),
                    **other,
                },
            }
        },
        "/lab/compare": {
            "post": {
                "summary": "Play a rules case under two readings",
                "description": (
                    "Stateless: the body is a case (game, players, seed, setup fields, two "
                    "readings of option fields, commands in the game's notation, and the "
                    "outcomes wanted of a random draw, played with the first seed from the "
                    "case's that gives them). The answer "
                    "holds, per reading, the picture and the events in words after each "
                    "command, or the library's refusal naming its rule; the differences; the "
                    "case's link fragment, JSON and pytest test. The pictures are drawn as "
                    "seen_by sees the table (a seat's own hand face up)."
                ),
                "parameters": [seen_by],
                "requestBody": {"required": True, **json_content({"type": "object"}, "The case.")},
                "responses": {
                    "200": json_content({"type": "object"}, "Both readings played out."),
                    "400": error_content("bad-request, malformed-json."),
                    "413": too_large,
                    "422": error_content(
                        "invalid-case: the case is not one (its JSON paths named)."
                    ),
                    "429": error_content("rate-limited: too many lab requests from this address."),
                    **other,
                },
            }
        },
        "/games/{id}/start": {
            "post": {
                "summary": "The creator has bots take every open seat; the game starts",
                "security": [{"seat": []}],
                "parameters": [game_id],
                "requestBody": {
                    "required": True,
                    **json_content(component_ref("BotRequest"), "The bot."),
                },
                "responses": {
                    "200": json_content(component_ref("StartedTable"), "The game has started."),
                    "400": error_content("bad-request, malformed-json, unknown-bot."),
                    "401": bad_token,
                    "403": error_content("forbidden: the token is not the creator's."),
                    "404": error_content("unknown-game: no table with open seats has that id."),
                    "409": error_content("table-full: every seat is taken already."),
                    "410": error_content("table-expired: the table waited too long and is closed."),
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
                    "200": json_content(component_ref("RematchSeat"), "The seat in the rematch."),
                    "401": bad_token,
                    "403": error_content("forbidden: no token (a spectator)."),
                    "404": no_game,
                    "409": error_content("not-over: the game is not over."),
                    "429": error_content("rate-limited: too many games created from this address."),
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
                    **json_content({"type": "object"}, "The saved game, as text."),
                },
                "responses": {
                    "200": json_content({"type": "object"}, "Each step of the game."),
                    "400": error_content(
                        "bad-request, malformed-json, a seen_by that is no number."
                    ),
                    "413": too_large,
                    "422": error_content(
                        "invalid-document: not a game document of the catalog, or seen_by "
                        "no seat of it."
                    ),
                    "429": error_content("rate-limited: too many lab requests from this address."),
                    **other,
                },
            }
        },
    }
