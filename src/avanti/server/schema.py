"""JSON Schemas of every game's wire values, and the OpenAPI document of the server's protocol.

Both are generated from the games' codecs, so they describe exactly the JSON the server writes
and reads: :func:`schemas` walks the attrs classes of a game's views, commands, events, public
setup and outcome (their fields and type hints), and :func:`openapi` puts every game's schemas
beside the shapes of the protocol's requests, responses and WebSocket messages. A client in
another language can generate its types from either; the server serves them at
``GET /schemas/{game}`` and ``GET /openapi.json``.

How a Python type is written:

- ``int``, ``str``, ``bool``, ``float``, ``None``: ``integer``, ``string``, ``boolean``,
  ``number``, ``null``;
- an :class:`~enum.Enum`: an ``enum`` of its values (a definition of its own);
- ``tuple[X, ...]``: an ``array`` of ``X``; ``tuple[X, Y]``: an ``array`` with ``prefixItems``;
- ``X | None`` (or any union): ``anyOf``;
- an attrs class: an ``object`` (a definition of its own) with every field as a property,
  ``additionalProperties: false``, and every field without a default ``required``; a field with
  a default carries it as ``default`` (the server always writes every field; a client may leave
  such a field out of what it sends);
- a command or an event class: the same, with the property ``"type"`` held to its wire tag
  (``const``), the tag the codec writes; ``command`` and ``event`` are the ``oneOf`` of them.

JSON Schema's ``integer`` also matches ``1.0``, which the codec refuses for an ``int``: a client
writes whole numbers without a fraction.
"""

from __future__ import annotations

import copy
import enum
import inspect
import json
import re
import types
from collections.abc import Callable, Mapping
from typing import Any, Union, get_args, get_origin, get_type_hints

import attrs

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import InvalidArgument
from avanti.core.game import Game
from avanti.core.limits import MAX_NOTATION_LENGTH

__all__ = ["ERROR_KINDS", "JSON_SCHEMA_DIALECT", "OPENAPI_VERSION", "openapi", "schemas"]

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of :func:`schemas` and of the schemas inside :func:`openapi`."""

OPENAPI_VERSION = "3.1.0"
"""The OpenAPI version of :func:`openapi`."""

GameClass = type[Game[Any, Any, Any, Any, Any, Any]]
"""A game's class, of any game."""

_SCALARS: dict[Any, dict[str, JSONValue]] = {
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
    type(None): {"type": "null"},
}


def schemas(game: str) -> dict[str, JSONValue]:
    """The JSON Schemas of a game of the catalog, as one JSON Schema (draft 2020-12) document.

    ``{"$schema": ..., "$defs": {...}, "view": ..., "command": {"oneOf": [...]}, "event":
    {"oneOf": [...]}, "public_setup": ..., "outcome": ...}``: each of the five keys is the schema
    of that value as the codec writes it (a seat's view, a command, a redacted event, the public
    setup, a finished game's outcome), referring to the definitions in ``$defs`` (by their class
    names; commands and events by their wire tags). Refer to one from outside as
    ``/schemas/<game>#/view``.

    A new dict on every call.

    :raises UnknownGame: the catalog has no game of that name.
    :raises InvalidArgument: one of the game's classes has a field whose type has no JSON
        Schema here (a ``dict``, a ``list``, a class that is not an attrs class).
    """
    return copy.deepcopy(_document(_game_class(game)))


def openapi() -> dict[str, JSONValue]:
    """The OpenAPI 3.1 document of the server's protocol (``GET /openapi.json``).

    Every endpoint with its parameters, request and response bodies and error statuses; the
    WebSocket's messages as ``Stream*`` schemas. Each game of the catalog brings its schemas under
    ``components.schemas`` with the game's name as a prefix (``avanti.View``, ``mare.Roll``,
    ``autorama.Command``). A new dict on every call.
    """
    games = tuple((name, _game_class(name)) for name in catalog.GAMES)
    return copy.deepcopy(_openapi(games))


# -- one game ------------------------------------------------------------------------------------


def _game_class(name: str) -> GameClass:
    """The ``Game`` class of the catalog's game ``name``."""
    game_class: GameClass = catalog.game_info(name).load().Game
    return game_class


def _parameters(game_class: GameClass) -> tuple[Any, ...]:
    """The six type arguments ``game_class`` gave :class:`~avanti.core.game.Game`."""
    for klass in game_class.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            if get_origin(base) is Game:
                return get_args(base)
    raise InvalidArgument(f"{game_class.__qualname__} does not name its types as Game[...] does")


def _public_setup_type(game_class: GameClass) -> Any:
    """The class of the game's public setup: the return type of its ruleset's ``public``."""
    public = game_class.rules.public
    hints = get_type_hints(public) if public is not None else {}
    if "return" not in hints:
        raise InvalidArgument(f"{game_class.__qualname__} has no typed public setup")
    return hints["return"]


class _Builder:
    """Writes the schemas of types into ``defs``, naming each definition once.

    ``ref`` turns a definition's name into the ``$ref`` that points at it; ``tags`` holds the
    wire tag of each command and event class, which the codec always writes as a tagged object;
    ``unstructure`` writes a field's default as the codec does.
    """

    def __init__(
        self,
        ref: Callable[[str], str],
        tags: Mapping[type, str],
        unstructure: Callable[[Any], JSONValue],
    ) -> None:
        self.ref = ref
        self.tags = tags
        self.unstructure = unstructure
        self.defs: dict[str, dict[str, JSONValue]] = {}
        self._names: dict[Any, str] = {}

    def schema(self, t: Any) -> dict[str, JSONValue]:
        """The schema of a value declared as ``t`` (a reference for enums and attrs classes)."""
        if t in _SCALARS:
            return dict(_SCALARS[t])
        origin = get_origin(t)
        args = get_args(t)
        if origin in (Union, types.UnionType):
            return {"anyOf": [self.schema(arg) for arg in args]}
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.schema(args[0])}
            return {
                "type": "array",
                "prefixItems": [self.schema(arg) for arg in args],
                "items": False,
                "minItems": len(args),
                "maxItems": len(args),
            }
        if isinstance(t, type) and issubclass(t, enum.Enum):
            return {"$ref": self.ref(self._define(t, self._enum))}
        if isinstance(t, type) and attrs.has(t):
            return {"$ref": self.ref(self._define(t, self._object))}
        raise InvalidArgument(f"no JSON Schema for values of type {t!r}")

    def _define(self, t: type, build: Callable[[Any], dict[str, JSONValue]]) -> str:
        """The name of ``t``'s definition, built on first use."""
        name = self._names.get(t)
        if name is None:
            name = self._free_name(self.tags.get(t, t.__name__), t)
            self._names[t] = name
            self.defs[name] = {}  # taken before building, so a class may refer to itself
            self.defs[name] = build(t)
        return name

    def _free_name(self, wanted: str, t: type) -> str:
        """``wanted``, or, when another type has it, a longer name made from ``t``'s module."""
        if wanted not in self.defs:
            return wanted
        base = f"{t.__module__.rsplit('.', 1)[-1]}.{t.__name__}"
        name, count = base, 2
        while name in self.defs:
            name, count = f"{base}{count}", count + 1
        return name

    def _enum(self, t: type[enum.Enum]) -> dict[str, JSONValue]:
        values = [member.value for member in t]
        schema: dict[str, JSONValue] = {"title": t.__name__, "enum": values}
        kinds = {type(value) for value in values}
        if kinds == {str}:
            schema = {"title": t.__name__, "type": "string", "enum": values}
        elif kinds == {int}:
            schema = {"title": t.__name__, "type": "integer", "enum": values}
        return _described(schema, t)

    def _object(self, t: type) -> dict[str, JSONValue]:
        hints = get_type_hints(t)
        properties: dict[str, JSONValue] = {}
        required: list[str] = []
        tag = self.tags.get(t)
        if tag is not None:
            properties["type"] = {"const": tag}
            required.append("type")
        for field in attrs.fields(t):
            if field.name == "type" and tag is not None:
                raise InvalidArgument(f"{t.__qualname__} has a field 'type', the codec's tag")
            prop = self.schema(hints[field.name])
            if field.default is attrs.NOTHING:
                required.append(field.name)
            else:
                default = self._default(field.default)
                if default is not attrs.NOTHING:
                    prop = {**prop, "default": default}
            properties[field.name] = prop
        schema: dict[str, JSONValue] = {
            "title": tag or t.__name__,
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }
        return _described(schema, t)

    def _default(self, default: Any) -> JSONValue:
        """A field's default as JSON, or ``attrs.NOTHING`` for one that depends on the instance
        (which a schema cannot state)."""
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]  # attrs.Factory is a class
            if default.takes_self:
                return attrs.NOTHING
            default = default.factory()
        return json.loads(json.dumps(self.unstructure(default)))


_ROLE = re.compile(r":[a-z:]+:`~?(?:[^`<]*<)?([^`>]+?)>?`")
"""A Sphinx role in a docstring (``:class:`~avanti.core.Game```), read as its last name."""


def _described(schema: dict[str, JSONValue], t: type) -> dict[str, JSONValue]:
    """``schema`` with the first paragraph of ``t``'s own docstring as its description, in
    Markdown (``code`` and roles as `code`)."""
    doc = t.__dict__.get("__doc__")
    if isinstance(doc, str) and doc.strip():
        first = " ".join(inspect.cleandoc(doc).split("\n\n", 1)[0].split())
        first = _ROLE.sub(lambda found: f"`{found.group(1).rsplit('.', 1)[-1]}`", first)
        schema["description"] = first.replace("``", "`")
    return schema


def _build(
    game_class: GameClass, ref: Callable[[str], str]
) -> tuple[dict[str, dict[str, JSONValue]], dict[str, dict[str, JSONValue]]]:
    """The definitions of one game and its five top-level schemas (view, command, event, public
    setup, outcome), with references made by ``ref``."""
    codec = game_class.rules.codec
    tags = {cls: tag for tag, cls in codec.commands.items()}
    tags.update({cls: tag for tag, cls in codec.events.items()})
    builder = _Builder(ref, tags, codec.unstructure)
    parameters = _parameters(game_class)
    top: dict[str, dict[str, JSONValue]] = {
        "view": builder.schema(parameters[4]),
        "command": {"oneOf": [builder.schema(cls) for cls in codec.commands.values()]},
        "event": {"oneOf": [builder.schema(cls) for cls in codec.events.values()]},
        "public_setup": builder.schema(_public_setup_type(game_class)),
        "outcome": builder.schema(parameters[5]),
    }
    return builder.defs, top


_DOCUMENTS: dict[GameClass, dict[str, JSONValue]] = {}
"""The schema document of each game class, made once (callers get copies)."""


def _document(game_class: GameClass) -> dict[str, JSONValue]:
    found = _DOCUMENTS.get(game_class)
    if found is None:
        defs, top = _build(game_class, lambda name: f"#/$defs/{name}")
        found = _DOCUMENTS[game_class] = {"$schema": JSON_SCHEMA_DIALECT, "$defs": defs, **top}
    return found


# -- the protocol ----------------------------------------------------------------------------------


def _ref(name: str) -> dict[str, JSONValue]:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(
    properties: Mapping[str, JSONValue],
    required: tuple[str, ...] | None = None,
    *,
    description: str | None = None,
) -> dict[str, JSONValue]:
    """An object schema with no other properties; every property is required unless
    ``required`` names fewer."""
    schema: dict[str, JSONValue] = {
        "type": "object",
        "properties": dict(properties),
        "required": list(properties if required is None else required),
        "additionalProperties": False,
    }
    if description is not None:
        schema["description"] = description
    return schema


def _nullable(schema: dict[str, JSONValue]) -> dict[str, JSONValue]:
    return {"anyOf": [schema, {"type": "null"}]}


def _json(schema: dict[str, JSONValue], description: str) -> dict[str, JSONValue]:
    """A response (or a request body) of JSON with that schema."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict[str, JSONValue]:
    return _json(_ref("Error"), description)


_VERSION: dict[str, JSONValue] = {"type": "integer", "minimum": 0}
_SEAT: dict[str, JSONValue] = {"type": "integer", "minimum": 0}


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
        defs, top = _build(game_class, _component_ref(name))
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
            if schema == _ref(label):  # the class has the name already (View, Outcome)
                continue
            if label in components:
                raise InvalidArgument(f"{name} has a class named {label!r} that is not its {key}")
            components[label] = schema
        components.update(_game_protocol(name))
    names = [name for name, _ in games]
    components.update(_protocol_schemas(names))
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


_COMMAND_FIELDS: dict[str, JSONValue] = {
    "notation": {"type": "string", "maxLength": MAX_NOTATION_LENGTH},
    "expected_version": _nullable(_VERSION),
    "command_id": _nullable({"type": "string", "minLength": 1, "maxLength": 100}),
}
"""The fields of a command request beside ``command``."""

_COMMAND_OR_NOTATION: JSONValue = [{"required": ["command"]}, {"required": ["notation"]}]


def _game_protocol(game: str) -> dict[str, JSONValue]:
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
            },
            description="Sent at once after the first message (the events after its "
            "`after`), then after every change to the game.",
        ),
        f"{game}.StreamResult": _obj(
            {"type": {"const": "result"}, **result},
            description="The reply to a StreamCommand, as POST /games/{id}/commands replies.",
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


def _protocol_schemas(names: list[str]) -> dict[str, JSONValue]:
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
            },
            description="A seat's table for the browser front end: its picture of the game "
            "(SVG text) and the events it may see from `after` on, each in words.",
        ),
        "StreamHello": _obj(
            {"token": _nullable(_STRING), "after": _VERSION},
            (),
            description="The client's first message on the WebSocket: a seat's token (`null` "
            "or left out: the spectator) and the version it has seen (default 0).",
        ),
        "StreamCommand": _any_game("StreamCommand", names, "A command sent on the WebSocket."),
        "StreamPing": _obj(
            {"type": {"const": "ping"}},
            description="Keeps a quiet WebSocket open; answered with a StreamPong.",
        ),
        "StreamUpdate": _any_game("StreamUpdate", names, "An update of the seat's game."),
        "StreamResult": _any_game("StreamResult", names, "The reply to a StreamCommand."),
        "StreamError": _obj(
            {"type": {"const": "error"}, "status": {"type": "integer"}, "error": error_fields},
            description="A refusal, with the status HTTP would give it; after a refusal of the "
            "first message, a limit or a failure the server closes the socket.",
        ),
        "StreamPong": _obj({"type": {"const": "pong"}}),
    }


def _paths(names: list[str]) -> dict[str, JSONValue]:
    game_id = {"name": "id", "in": "path", "required": True, "schema": _STRING}
    seat = {"name": "seat", "in": "path", "required": True, "schema": _SEAT}
    bearer: list[JSONValue] = [{"seat": []}, {}]
    other = {"default": _error("Any other refusal: 500 internal, 503 unavailable.")}
    bad_token = _error("unauthorized: the token is no seat's of this game.")
    no_game = _error("unknown-game: there is no such game.")
    too_large = _error("too-large: the body is too big.")
    return {
        "/health": {
            "get": {
                "summary": "Whether the server is up",
                "responses": {"200": _json(_ref("Health"), "The server is up.")},
            }
        },
        "/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": _json({"type": "object"}, "The OpenAPI document.")},
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
                    "200": _json({"type": "object"}, "A JSON Schema (draft 2020-12) document."),
                    "404": _error("unknown-game: no game of that name."),
                },
            }
        },
        "/games": {
            "get": {
                "summary": "The lobby: stored games, the most recently updated first",
                "parameters": [
                    {"name": "game", "in": "query", "schema": {"enum": names}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                ],
                "responses": {
                    "200": _json(_ref("GameList"), "The games' public facts."),
                    "400": _error("bad-request (limit), unknown-game (game)."),
                    **other,
                },
            },
            "post": {
                "summary": "Create a game",
                "requestBody": {"required": True, **_json(_ref("NewGame"), "The new game.")},
                "responses": {
                    "201": _json(_ref("CreatedGame"), "The game, with each seat's token."),
                    "400": _error("bad-request, malformed-json, unknown-game, unknown-bot."),
                    "413": too_large,
                    "422": _error("invalid-setup (the players), invalid-options."),
                    "429": _error("rate-limited: too many new games from this address."),
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
                    {"name": "after", "in": "query", "schema": _VERSION},
                ],
                "responses": {
                    "200": _json(_ref("SeatState"), "The seat's game."),
                    "400": _error("bad-request: after is beyond the game's version."),
                    "401": bad_token,
                    "404": no_game,
                    **other,
                },
            }
        },
        "/catalog": {
            "get": {
                "summary": "The games served and the bots a game may seat",
                "responses": {"200": _json(_ref("Catalog"), "The catalog.")},
            }
        },
        "/games/{id}/table": {
            "get": {
                "summary": "The token's seat's picture of the game and its history in words "
                "(the browser front end's table)",
                "security": bearer,
                "parameters": [
                    game_id,
                    {"name": "after", "in": "query", "schema": _VERSION},
                ],
                "responses": {
                    "200": _json(_ref("SeatTable"), "The seat's table."),
                    "400": _error("bad-request: after is not a version of the game."),
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
                    **_json(_ref("CommandRequest"), "A command, or its notation."),
                },
                "responses": {
                    "200": _json(_ref("CommandResult"), "The command was executed."),
                    "400": _error("bad-request, malformed-json."),
                    "401": bad_token,
                    "403": _error(
                        "forbidden: no token (a spectator), a command of another seat, or a "
                        "seat a bot plays."
                    ),
                    "404": no_game,
                    "409": _error("version-conflict: expected_version is not the version."),
                    "413": too_large,
                    "422": _error("illegal-command (the rules refuse it), invalid-command."),
                    "429": _error("rate-limited: too many commands from this seat."),
                    **other,
                },
            }
        },
        "/games/{id}/seats/{seat}/bot": {
            "put": {
                "summary": "Hand the token's seat to a bot",
                "security": [{"seat": []}],
                "parameters": [game_id, seat],
                "requestBody": {"required": True, **_json(_ref("BotRequest"), "The bot.")},
                "responses": {
                    "200": _json(_ref("SeatBot"), "A bot plays the seat."),
                    "400": _error("bad-request, malformed-json, unknown-bot."),
                    "401": bad_token,
                    "403": _error("forbidden: the token is not that seat's."),
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
                    "200": _json(_ref("SeatBot"), "The seat's person plays it again."),
                    "401": bad_token,
                    "403": _error("forbidden: the token is not that seat's."),
                    "404": no_game,
                    **other,
                },
            },
        },
        "/games/{id}/stream": {
            "get": {
                "summary": "A WebSocket of the seat's updates, and its commands",
                "description": (
                    "Upgrade to a WebSocket. The client's first message is a StreamHello (the "
                    "token stays out of the URL). The server answers with a StreamUpdate of "
                    "the events after `after`, then sends one after every change to the game, "
                    "from any server process. The client may send StreamCommand messages (each "
                    "answered by a StreamResult or a StreamError) and StreamPing messages. A "
                    "bad first message or token, a message too big, a long silence and a full "
                    "game get a StreamError, then the socket is closed."
                ),
                "parameters": [game_id],
                "responses": {"101": {"description": "Switching to the WebSocket protocol."}},
                "x-websocket": {
                    "client": [_ref("StreamHello"), _ref("StreamCommand"), _ref("StreamPing")],
                    "server": [
                        _ref("StreamUpdate"),
                        _ref("StreamResult"),
                        _ref("StreamError"),
                        _ref("StreamPong"),
                    ],
                },
            }
        },
    }
