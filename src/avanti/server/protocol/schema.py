"""JSON Schemas of every game's wire values (the OpenAPI document is
:mod:`avanti.server.protocol.openapi`).

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
  (``const``), the tag the codec writes; ``command`` and ``event`` are the ``oneOf`` of them;
- ``Mapping[int, X]``: an ``object`` whose keys are seat numbers (``"0"`` to ``"999"``, written
  as Python writes them) and whose values are ``X``; ``Mapping[str, X]``: an ``object`` of ``X``;
- :data:`~typing.Any`: any JSON value (``{}``).

The protocol's requests (:mod:`avanti.server.protocol.requests`) are attrs classes too, and their
schemas are built the same way, with what their fields declare besides their types
(:mod:`avanti.server.protocol.fields`): a field's
:class:`~avanti.server.protocol.fields.Check` (its bounds, lengths and allowed values) adds its
JSON Schema keywords, a class's ``class_checks``
(:class:`~avanti.server.protocol.fields.ExactlyOne`) add theirs to the object, a field's
``metadata`` may give its type on the wire (:data:`~avanti.server.protocol.fields.WIRE`) or keep
it off the wire (:data:`~avanti.server.protocol.fields.SERVER_ONLY`), and each field's docstring
becomes its ``description``.

JSON Schema's ``integer`` also matches ``1.0``, which the codec refuses for an ``int``: a client
writes whole numbers without a fraction.
"""

from __future__ import annotations

import ast
import copy
import enum
import functools
import inspect
import json
import re
import textwrap
import types
from collections.abc import Callable, Mapping
from typing import Any, Union, get_args, get_origin, get_type_hints

import attrs

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import InvalidArgument
from avanti.core.game import Game
from avanti.server.protocol.fields import Check, wire_fields

__all__ = [
    "JSON_SCHEMA_DIALECT",
    "OPENAPI_VERSION",
    "SEAT_KEY",
    "SEAT_SCHEMA",
    "VERSION_SCHEMA",
    "SchemaBuilder",
    "build_game",
    "catalog_game_class",
    "component_ref",
    "error_content",
    "field_docs",
    "json_content",
    "nullable",
    "object_schema",
    "schemas",
    "seat_key",
]

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


SEAT_KEY = "^(0|[1-9][0-9]{0,2})$"
"""The keys of a ``Mapping[int, X]`` on the wire: a seat number from 0 to 999 in ASCII digits,
written as Python writes it (no sign, no leading zero)."""

_SEAT_KEY = re.compile("0|[1-9][0-9]{0,2}")


def seat_key(key: str) -> int | None:
    """The seat number a key of a ``Mapping[int, X]`` names (:data:`SEAT_KEY`), or ``None``."""
    return int(key) if _SEAT_KEY.fullmatch(key) else None


def _with_keywords(
    schema: dict[str, JSONValue], keywords: Mapping[str, JSONValue]
) -> dict[str, JSONValue]:
    """``schema`` with ``keywords`` given to each of its types but ``null``."""
    if not keywords:
        return schema
    if "anyOf" in schema:
        return {
            **schema,
            "anyOf": [
                part if part == {"type": "null"} else _with_keywords(part, keywords)
                for part in schema["anyOf"]
            ],
        }
    return {**schema, **keywords}


@functools.cache
def field_docs(t: type) -> dict[str, str]:
    """The docstrings of the fields of the class ``t`` (a string right after a field's
    annotation), by name, each its first paragraph on one line; empty without its source."""
    try:
        source = textwrap.dedent(inspect.getsource(t))
    except (OSError, TypeError):  # pragma: no cover - a class made without a source file
        return {}
    found: dict[str, str] = {}
    [node] = ast.parse(source).body
    assert isinstance(node, ast.ClassDef)
    for before, after in zip(node.body, node.body[1:], strict=False):
        if (
            isinstance(before, ast.AnnAssign)
            and isinstance(before.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[before.target.id] = _markdown(after.value.value)
    return found


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
    return copy.deepcopy(_document(catalog_game_class(game)))


# -- one game ------------------------------------------------------------------------------------


def catalog_game_class(name: str) -> GameClass:
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


class SchemaBuilder:
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
        names: Mapping[type, str] = {},
        *,
        fields_described: bool = False,
    ) -> None:
        self.ref = ref
        self.tags = tags
        self.unstructure = unstructure
        self.names = names
        """Definition names for classes that are not to be named by their own name."""
        self.fields_described = fields_described
        """Whether each field's docstring is its property's ``description``."""
        self.defs: dict[str, dict[str, JSONValue]] = {}
        self._names: dict[Any, str] = {}

    def schema(self, t: Any) -> dict[str, JSONValue]:
        """The schema of a value declared as ``t`` (a reference for enums and attrs classes)."""
        if t in _SCALARS:
            return dict(_SCALARS[t])
        if t is Any:
            return {}
        origin = get_origin(t)
        args = get_args(t)
        if origin is Mapping and args[0] in (int, str):
            schema: dict[str, JSONValue] = {"type": "object"}
            if args[0] is int:
                schema["propertyNames"] = {"pattern": SEAT_KEY}
            if args[1] is not Any:
                schema["additionalProperties"] = self.schema(args[1])
            return schema
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
            name = self._free_name(self.names.get(t) or self.tags.get(t, t.__name__), t)
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
        checks = getattr(t, "class_checks", ())
        docs = field_docs(t) if self.fields_described else {}
        for field, wire in wire_fields(t):
            if field.name == "type" and tag is not None:
                raise InvalidArgument(f"{t.__qualname__} has a field 'type', the codec's tag")
            prop = self.schema(hints[field.name] if wire is hints[field.name] else wire)
            if isinstance(field.validator, Check):
                prop = _with_keywords(prop, field.validator.keywords)
            if field.default is attrs.NOTHING:
                required.append(field.name)
            else:
                default = self._default(field.default)
                if default is not attrs.NOTHING:
                    prop = {**prop, "default": default}
            if field.name in docs:
                prop = {**prop, "description": docs[field.name]}
            properties[field.name] = prop
        schema: dict[str, JSONValue] = {
            "title": self.names.get(t) or tag or t.__name__,
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }
        for check in checks:
            schema.update(check.keywords)
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


def _markdown(doc: str) -> str:
    """The first paragraph of a docstring on one line, in Markdown (``code`` and roles as
    `code`)."""
    first = " ".join(inspect.cleandoc(doc).split("\n\n", 1)[0].split())
    first = _ROLE.sub(lambda found: f"`{found.group(1).rsplit('.', 1)[-1]}`", first)
    return first.replace("``", "`")


def _described(schema: dict[str, JSONValue], t: type) -> dict[str, JSONValue]:
    """``schema`` with the first paragraph of ``t``'s own docstring as its description."""
    doc = t.__dict__.get("__doc__")
    if isinstance(doc, str) and doc.strip():
        schema["description"] = _markdown(doc)
    return schema


def build_game(
    game_class: GameClass, ref: Callable[[str], str]
) -> tuple[dict[str, dict[str, JSONValue]], dict[str, dict[str, JSONValue]]]:
    """The definitions of one game and its five top-level schemas (view, command, event, public
    setup, outcome), with references made by ``ref``."""
    codec = game_class.rules.codec
    tags = {cls: tag for tag, cls in codec.commands.items()}
    tags.update({cls: tag for tag, cls in codec.events.items()})
    builder = SchemaBuilder(ref, tags, codec.unstructure)
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
        defs, top = build_game(game_class, lambda name: f"#/$defs/{name}")
        found = _DOCUMENTS[game_class] = {"$schema": JSON_SCHEMA_DIALECT, "$defs": defs, **top}
    return found


# -- the protocol ----------------------------------------------------------------------------------


def component_ref(name: str) -> dict[str, JSONValue]:
    """A reference to the OpenAPI document's component schema ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


def object_schema(
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


def nullable(schema: dict[str, JSONValue]) -> dict[str, JSONValue]:
    """``schema``, or ``null``."""
    return {"anyOf": [schema, {"type": "null"}]}


def json_content(schema: dict[str, JSONValue], description: str) -> dict[str, JSONValue]:
    """A response (or a request body) of JSON with that schema."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def error_content(description: str) -> dict[str, JSONValue]:
    """A response of an ``Error`` body (:func:`json_content` of its component)."""
    return json_content(component_ref("Error"), description)


VERSION_SCHEMA: dict[str, JSONValue] = {"type": "integer", "minimum": 0}
"""A game's version (its number of events) on the wire."""

SEAT_SCHEMA: dict[str, JSONValue] = {"type": "integer", "minimum": 0}
"""A seat number on the wire (from 0)."""
