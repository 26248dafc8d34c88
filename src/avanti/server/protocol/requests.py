"""What clients send: the protocol's requests, read and checked once, as typed values.

Each request is a frozen ``kw_only`` attrs class, and the class is all there is of its shape:
its fields' types, their :class:`~avanti.server.protocol.fields.Check` validators (bounds,
lengths, the values allowed) and the class's ``class_checks`` (exactly one of ``command`` and
``notation``). Its ``read`` class method reads it from the parsed JSON with the library's strict
converter (:func:`~avanti.core.codec.make_converter`: an unknown key is refused, ``true`` is no
integer, ``1.5`` no integer, ``1`` no string), field by field, each checked as it is read; and
:func:`request_schema` writes the same class as a JSON Schema, which the OpenAPI document holds
(:mod:`avanti.server.protocol.shapes`). What depends on the game or the server (a game of the
catalog, the seats' count, the bots the server seats, the names of a table with open seats) is
checked next, in :meth:`NewGame.read`.

A body that does not fit is refused with a 400 (or the refusal its field names, as 422
``invalid-setup`` for ``players``) :class:`ApiError` that says which key was wrong. Numbers are
read within bounds before they are turned into ints, so no request can make the server convert a
number of thousands of digits.
"""

from __future__ import annotations

import hashlib
import json
import types
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin

import attrs
import cattrs
from attrs import field, frozen

from avanti import catalog
from avanti.core.codec import JSONValue, make_converter
from avanti.core.errors import DecodeError, IllegalCommand, InvalidSetup
from avanti.core.limits import MAX_NOTATION_LENGTH, names_problem, new_seed
from avanti.server.protocol.fields import (
    SERVER_ONLY,
    WIRE,
    Bounds,
    Check,
    ExactlyOne,
    OneOf,
    Text,
    wire_fields,
)
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.schema import JSON_SCHEMA_DIALECT, SchemaBuilder, seat_key
from avanti.server.protocol.wire import AnyGame, ApiError, dumps

__all__ = [
    "CONVERTER",
    "MAX_SECONDS_PER_MOVE",
    "REFUSAL",
    "REQUESTS",
    "CommandRequest",
    "Hello",
    "NewGame",
    "SeatRequest",
    "TableLayout",
    "decode",
    "illegal",
    "name_key",
    "new_game",
    "player_name",
    "request_schema",
    "twin_problem",
    "version_of",
]

R = TypeVar("R")

MAX_SECONDS_PER_MOVE = 86_400.0
"""The longest time per move a table may be given (a day)."""
_LAYOUTS = ("wide", "narrow")
"""The layouts a picture is drawn in: the page's own (``"wide"``) and a phone's (``"narrow"``)."""

REFUSAL = "avanti.refusal"
"""A request field's ``metadata`` key: what makes the refusal of a value that does not fit the
field from its message; without it, 400 ``bad-request``."""


def _bad_request(message: str) -> ApiError:
    return ApiError(Refusal.BAD_REQUEST, message)


def _unknown_game(message: str) -> ApiError:
    return ApiError(Refusal.UNKNOWN_GAME, message, status=400)


def _invalid_setup(message: str) -> ApiError:
    return ApiError(Refusal.INVALID_SETUP, message)


def _invalid_options(message: str) -> ApiError:
    return ApiError(Refusal.INVALID_OPTIONS, message)


def _invalid_name(message: str) -> ApiError:
    return ApiError(Refusal.INVALID_NAME, message)


def version_of(value: object) -> int | None:
    """A version (an int >= 0) from JSON (no bool), else ``None``."""
    return value if type(value) is int and value >= 0 else None


def player_name(name: object) -> object:
    """A player's name as a request sent it, in Unicode's composed form (NFC), so that a name
    typed with a precomposed ``é`` and one typed as ``e`` and a combining accent are one name;
    anything else as it is (for :func:`~avanti.core.limits.name_problem` to refuse)."""
    return unicodedata.normalize("NFC", name) if isinstance(name, str) else name


def name_key(name: str) -> str:
    """What two names of one table may not share: the name in its composed form (NFC),
    case-folded. ``"José"``, ``"JOSÉ"`` and ``"jose\u0301"`` have one key."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def twin_problem(names: tuple[str | None, ...]) -> str | None:
    """What is wrong with ``names`` (``None``: an open seat) that differ only in case or in
    their Unicode form, or ``None``. Names that are the same string are left to the game's own
    check. Seats are named by position, never by the names themselves."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if name is None:
            continue
        first = seen.setdefault(name_key(name), seat)
        if first != seat and names[first] != name:
            return (
                f"player names must differ in more than case: seat {seat} has the name of seat "
                f"{first}"
            )
    return None


# -- reading a request ---------------------------------------------------------------------------


def _union(value: object, t: Any) -> Any:
    """A value of a union: ``None`` for a union with ``None``, else the first member that
    reads it (the members of a request's unions never read the same JSON)."""
    args = get_args(t)
    if value is None and type(None) in args:
        return None
    for arg in args:
        if arg is not type(None):
            try:
                return CONVERTER.structure(value, arg)
            except Exception:  # the next member may read it
                continue
    raise TypeError("expected one of the union's types")


def _mapping(value: object, t: Any) -> dict[Any, Any]:
    """A ``Mapping[int, X]`` (keys: seat numbers, :data:`~avanti.server.protocol.schema.SEAT_KEY`)
    or a ``Mapping[str, X]`` from a JSON object."""
    if not isinstance(value, dict):
        raise TypeError("expected an object")
    key_type, item = get_args(t)
    read: dict[Any, Any] = {}
    for key, found in value.items():
        seat = seat_key(key) if key_type is int else key
        if seat is None:
            raise ValueError("expected seat numbers as keys")
        read[seat] = found if item is Any else CONVERTER.structure(found, item)
    return read


def _is_union(t: Any) -> bool:
    return get_origin(t) in (Union, types.UnionType)


def _is_mapping(t: Any) -> bool:
    return get_origin(t) is Mapping


def _make_converter() -> cattrs.Converter:
    converter = make_converter()
    converter.register_structure_hook_func(_is_union, _union)
    converter.register_structure_hook_func(_is_mapping, _mapping)
    return converter


CONVERTER = _make_converter()
"""The library's strict converter, with the protocol's unions and mappings."""


class _Broken(ValueError):
    """A request that breaks one of its class's ``class_checks``."""


def _whole(instance: object) -> None:
    """Refuse ``instance`` if it breaks one of its class's ``class_checks``."""
    for check in getattr(type(instance), "class_checks", ()):
        if not check.holds(instance):
            raise _Broken(check.message)


def _read(cls: type[R], body: JSONValue, extra: frozenset[str] = frozenset()) -> R:
    """A request of class ``cls`` from a parsed body (``extra``: further keys the transport
    allows), field by field in their order, each checked as it is read."""
    if not isinstance(body, dict):
        raise ApiError(Refusal.BAD_REQUEST, "the body must be a JSON object")
    fields = wire_fields(cls)
    unknown = sorted(set(body) - {found.name for found, _ in fields} - extra)
    if unknown:
        raise ApiError(Refusal.BAD_REQUEST, f"unknown keys: {', '.join(unknown)}"[:200])
    values: dict[str, Any] = {}
    for found, wire in fields:
        if found.name not in body:
            if found.default is attrs.NOTHING:
                raise _refused(cls, found, missing=True)
            continue
        try:
            value = CONVERTER.structure(body[found.name], wire)
            if isinstance(found.validator, Check):
                found.validator(None, found, value)
        except Exception:
            raise _refused(cls, found) from None
        values[found.name] = value
    try:
        from_wire = getattr(cls, "from_wire", None)
        made: R = cls(**values) if from_wire is None else from_wire(values)
    except _Broken as broken:
        raise ApiError(Refusal.BAD_REQUEST, str(broken)) from None
    return made


def _refused(cls: type, found: attrs.Attribute[Any], *, missing: bool = False) -> ApiError:
    """The refusal of a field that is missing or does not fit, saying what it must be."""
    refuse: Callable[[str], ApiError] = found.metadata.get(REFUSAL, _bad_request)
    document = request_schema(cls)
    schema = document["$defs"][cls.__name__]["properties"][found.name]
    words = _words(schema, document["$defs"])
    said = f"is missing: it must be {words}" if missing else f"must be {words}"
    return refuse(f"'{found.name}' {said}: {schema.get('description', '')}"[:500])


def _words(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """What a value of ``schema`` is, in words."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in schema:
        return " or ".join(_words(part, defs) for part in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(value) for value in schema["enum"])
    kind = schema.get("type")
    if kind in ("integer", "number"):
        noun = "an integer" if kind == "integer" else "a number"
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"{noun} from {low:g} to {high:g}"
        return noun if low is None else f"{noun} >= {low:g}"
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        printable = " printable" if "pattern" in schema else ""
        if high is None:
            return f"a string of{printable} characters" if printable else "a string"
        return f"a string of {low} to {high}{printable} characters"
    if kind == "array":
        return f"a list, each item {_words(schema['items'], defs)}"
    if kind == "object" and "properties" in schema:
        keys = ", ".join(
            f'"{key}" ({_words(value, defs)})' for key, value in schema["properties"].items()
        )
        return f"an object of {keys}"
    if kind == "object" and "propertyNames" in schema:
        values = schema.get("additionalProperties")
        each = "" if values is None else f", each value {_words(values, defs)}"
        return f'an object keyed by seat numbers ("0", "1", ...){each}'
    if kind == "object":
        return "an object"
    return {"boolean": "a boolean", "null": "null"}.get(str(kind), "a JSON value")


def request_schema(cls: type) -> dict[str, JSONValue]:
    """The JSON Schema (draft 2020-12) of a request class: ``{"$schema": ..., "$ref":
    "#/$defs/<class>", "$defs": {...}}``, built from the class as the OpenAPI document's is. A
    new dict on every call."""
    builder = SchemaBuilder(
        lambda name: f"#/$defs/{name}", {}, CONVERTER.unstructure, fields_described=True
    )
    ref = builder.schema(cls)
    return {"$schema": JSON_SCHEMA_DIALECT, **ref, "$defs": builder.defs}


# -- the requests --------------------------------------------------------------------------------


@frozen(kw_only=True)
class CommandRequest:
    """A command as a client sends it: exactly one of ``command`` (its JSON) and ``notation``,
    an optional ``expected_version`` and an optional ``command_id`` (which names this one
    command: a retry with it is answered as the first time, another command with it is refused
    with 409 ``command-id-reused``)."""

    command: JSONValue = None
    """The command's JSON, as the game's codec reads it (``null`` or left out: none)."""
    notation: str | None = field(default=None, validator=Text(maximum=MAX_NOTATION_LENGTH))
    """The command's notation, read among the seat's legal commands (``null`` or left out:
    none)."""
    expected_version: int | None = field(default=None, validator=Bounds(minimum=0))
    """The version the client saw: the command is decided as of that version, and refused if
    the seat's legal commands have changed since."""
    command_id: str | None = field(default=None, validator=Text(1, 100, printable=True))
    """The client's id of the command: 1 to 100 printable characters."""
    bot: bool = field(default=False, repr=False, metadata={SERVER_ONLY: True})
    """Set by the server for its own bots' commands (never read from a client)."""

    class_checks: ClassVar[tuple[ExactlyOne, ...]] = (ExactlyOne(("command", "notation")),)
    """What the request as a whole must keep: exactly one of ``command`` and ``notation``."""

    def __attrs_post_init__(self) -> None:
        _whole(self)

    def digest(self) -> str:
        """The SHA-256 (hex) of the request as the client sent it (its notation, or its
        command's JSON, canonically written): what its ``command_id`` is bound to."""
        sent = (
            {"notation": self.notation} if self.notation is not None else {"command": self.command}
        )
        text = json.dumps(sent, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    @classmethod
    def read(cls, body: JSONValue, extra: frozenset[str] = frozenset()) -> CommandRequest:
        """The request in a parsed body (``extra``: further keys the transport allows)."""
        return _read(cls, body, extra)


def _composed(players: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """The players' names in Unicode's composed form (NFC)."""
    return tuple(None if name is None else unicodedata.normalize("NFC", name) for name in players)


def _games() -> tuple[str, ...]:
    return tuple(catalog.GAMES)


@frozen(kw_only=True)
class NewGame:
    """A ``POST /games`` body: the game, the players' names (``null``: an open seat, taken by
    whoever sits down), the seats bots play, options, and the time per move. A seed is never
    accepted: the server draws a secret one."""

    game: str = field(validator=OneOf(_games), metadata={REFUSAL: _unknown_game})
    """The game's name in the catalog."""
    players: tuple[str | None, ...] = field(converter=_composed, metadata={REFUSAL: _invalid_setup})
    """The players' names by seat (read in Unicode's composed form, NFC); ``null`` leaves a
    seat open for whoever sits down (``POST /games/{id}/seats``). A table with open seats needs
    one seat its creator names."""
    bots: Mapping[int, str] = field(factory=dict)
    """The seats bots play, with their kind: ``{"1": "heuristic"}``."""
    options: Mapping[str, JSONValue] | None = field(
        default=None, metadata={REFUSAL: _invalid_options}
    )
    """The game's rule options, as its codec reads them (the ``options`` of the game's
    ``PublicSetup``); ``null`` or left out: the defaults."""
    sides: tuple[str, ...] | None = None
    """Each seat's side, by name, in a game with sides (Avanti mare!'s ``fish-friends`` and
    ``fisher-fans``, M2); ``null`` or left out: the game's default sides."""
    seconds_per_move: float | None = field(
        default=None, validator=Bounds(0.1, MAX_SECONDS_PER_MOVE)
    )
    """The time a person has for each move; when it runs out a bot makes that move. ``null`` or
    left out: no clock."""

    @property
    def open_seats(self) -> tuple[int, ...]:
        """The seats left open."""
        return tuple(seat for seat, name in enumerate(self.players) if name is None)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, for a table with no open seat."""
        return tuple(name for name in self.players if name is not None)

    @classmethod
    def read(cls, body: JSONValue, bot_kinds: tuple[str, ...]) -> NewGame:
        """The request in a parsed body; ``bot_kinds``: the bots this server seats. What the
        class declares is read first, then what depends on the game and the server."""
        if isinstance(body, dict) and "seed" in body:
            raise ApiError(
                Refusal.BAD_REQUEST, "a seed is never accepted: the server draws a secret one"
            )
        wanted = _read(cls, body)
        wanted._refuse_unplayable(bot_kinds)
        return wanted

    def _refuse_unplayable(self, bot_kinds: tuple[str, ...]) -> None:
        """Refuse a table the game or the server cannot have: the players' count, the bots'
        seats and kinds, the names at a table with open seats, the sides."""
        info = catalog.GAMES[self.game]
        names = self.players
        if not info.min_players <= len(names) <= info.max_players:
            raise ApiError(
                Refusal.INVALID_SETUP,
                f"'players' must be a list of {info.min_players} to {info.max_players} names "
                "(null for an open seat)",
            )
        for seat, kind in self.bots.items():
            if seat >= len(names):
                raise ApiError(
                    Refusal.BAD_REQUEST, f"'bots' keys must be seats, from 0 to {len(names) - 1}"
                )
            if kind not in bot_kinds:
                raise ApiError(Refusal.UNKNOWN_BOT, f"a bot must be one of {', '.join(bot_kinds)}")
            if names[seat] is None:
                raise ApiError(Refusal.BAD_REQUEST, "an open seat has no bot: name the bot's seat")
        if None in names:
            problem = names_problem(self.names)
            if problem is not None:
                raise ApiError(Refusal.INVALID_SETUP, problem)
            if all(name is None or seat in self.bots for seat, name in enumerate(names)):
                raise ApiError(
                    Refusal.INVALID_SETUP,
                    "a table with open seats needs a seat of its creator's: name it",
                )
        twins = twin_problem(names)
        if twins is not None:
            raise ApiError(Refusal.INVALID_SETUP, twins)
        if self.sides is not None:
            if not info.sides:
                raise ApiError(Refusal.BAD_REQUEST, f"{info.title} has no sides to pick")
            if len(self.sides) != len(names) or not all(side in info.sides for side in self.sides):
                raise ApiError(
                    Refusal.BAD_REQUEST,
                    f"'sides' must name one side a player, each one of {', '.join(info.sides)} "
                    "(M2)",
                )


@frozen(kw_only=True)
class SeatRequest:
    """A ``POST /games/{id}/seats`` body: the ``name`` of the person who takes the next open
    seat and, in a game with sides, the ``side`` they pick among the table's ``free_sides``
    (Avanti mare!'s ``"fish-friends"`` or ``"fisher-fans"``: each player decides, M2)."""

    name: str = field(metadata={REFUSAL: _invalid_name})
    """The name (read in Unicode's composed form, NFC, and checked as the seat is taken)."""
    side: str | None = None
    """The side picked, by name; ``null`` or left out: the side the table's creator named for
    the seat, or the game's default."""

    @classmethod
    def read(cls, body: JSONValue) -> SeatRequest:
        """The request in a parsed body."""
        return _read(cls, body)


@frozen(kw_only=True)
class TableLayout:
    """A hello's ``"table": {"layout": ...}``: each update carries the seat's table, its
    picture drawn in that layout."""

    layout: str = field(default="wide", validator=OneOf(_LAYOUTS))
    """The picture's layout: ``"wide"``, or ``"narrow"`` for a phone-sized screen."""


@frozen(kw_only=True)
class Hello:
    """A WebSocket's first message: the seat's ``token`` (``null``: a spectator), the version
    the client has seen (``after``), and whether each ``update`` should carry the seat's
    ``table`` (its picture and its history in words, so a page fetches nothing per change)."""

    token: str | None = None
    """The seat's token; ``null`` or left out: a spectator."""
    after: int = field(default=0, validator=Bounds(minimum=0))
    """The version the client has already seen."""
    table: bool = field(default=False, metadata={WIRE: bool | TableLayout})
    """Whether every ``update`` holds the seat's table (its picture and history);
    ``{"layout": "narrow"}``: yes, with a phone's picture."""
    layout: str = field(default="wide", validator=OneOf(_LAYOUTS), metadata={SERVER_ONLY: True})
    """The picture's layout when ``table`` is asked for: ``"wide"``, or ``"narrow"`` for a
    phone-sized screen (``"table": {"layout": "narrow"}`` in the message)."""

    @classmethod
    def from_wire(cls, values: dict[str, Any]) -> Hello:
        """The hello from the values of its wire fields: ``table`` as a
        :class:`TableLayout` asks for the table in its layout."""
        table = values.pop("table", False)
        if isinstance(table, TableLayout):
            return cls(**values, table=True, layout=table.layout)
        return cls(**values, table=table)

    @classmethod
    def read(cls, message: JSONValue) -> Hello:
        """The hello in a parsed message."""
        return _read(cls, message)


REQUESTS: tuple[type, ...] = (CommandRequest, NewGame, SeatRequest, Hello)
"""The requests a client sends, each read by its ``read`` and written by
:func:`request_schema`."""


def illegal(error: IllegalCommand) -> ApiError:
    """The 422 refusal of a seat's own command: the library's reason, rule and message."""
    return ApiError(
        Refusal.ILLEGAL_COMMAND, error.message, reason=str(error.reason), rule=error.rule
    )


def decode(game: AnyGame, seat: int, request: CommandRequest) -> Any:
    """The command a request names: its JSON read by the codec, or its notation read among the
    seat's legal commands."""
    if request.notation is not None:
        try:
            return game.parse_notation(request.notation, seat=seat)
        except IllegalCommand as error:
            raise illegal(error) from None
    try:
        return type(game).rules.codec.command_from_data(request.command)
    except DecodeError as error:
        problems = "; ".join(error.errors).replace("@ $", "@ $.command")
        raise ApiError(Refusal.INVALID_COMMAND, problems[:500]) from None


def new_game(
    info: catalog.GameInfo,
    players: list[str],
    options: JSONValue,
    sides: tuple[str, ...] | None = None,
) -> AnyGame:
    """A new game with a secret seed (and the client's options, read by the game's codec, and
    the players' sides)."""
    module = info.load()
    try:
        game: AnyGame = (
            module.new_game(players)
            if sides is None
            else info.new_game(players, new_seed(), sides=sides)
        )
        if options is None:
            return game
        codec = type(game).rules.codec
        setup = json.loads(dumps(codec.document(game.setup, ())["setup"]))
        setup["options"] = options
        try:
            chosen = codec.structure(setup, codec.setup_type, path="$.setup")
        except DecodeError as error:
            problems = "; ".join(error.errors).replace("@ $.setup.options", "@ $.options")
            raise ApiError(Refusal.INVALID_OPTIONS, problems[:500]) from None
        new: AnyGame = type(game).new(chosen)
        return new
    except InvalidSetup as error:
        raise ApiError(Refusal.INVALID_SETUP, str(error)[:500], rule=error.rule) from None
