"""The protocol's requests: each class is read by the strict converter and written as a JSON
Schema, and the two agree.

Hypothesis sends every request class bodies of every kind (well formed ones, and ones with wrong
types, missing and unknown keys, numbers out of bounds, booleans and fractions for integers,
strings too long, control characters): the reader accepts a body exactly when the class's JSON
Schema (:func:`~avanti.server.protocol.requests.request_schema`) does, and each refusal names the
key that was wrong. The schema is checked as JSON Schema means it: ``integer`` is no ``1.0`` (the
codec refuses a fraction for an int; JSON Schema's ``integer`` takes it) and ``$`` ends the text
(as in ECMA 262; Python's ``re`` lets it match before a final line break). What the reader checks
beyond the schema is shown by hand: a ``command_id`` must be printable, of which the schema states
the part JSON Schema can (no control characters); and a new game's checks that depend on the game
and the server, after the class is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from avanti import catalog
from avanti.server.protocol import requests
from avanti.server.protocol.fields import SERVER_ONLY
from avanti.server.protocol.openapi import openapi
from avanti.server.protocol.requests import (
    REQUESTS,
    CommandRequest,
    Hello,
    NewGame,
    SeatRequest,
    request_schema,
)
from avanti.server.protocol.shapes import request_shapes
from avanti.server.protocol.wire import ApiError

BOTS = ("random", "heuristic")
"""The bot kinds of the server the new games are read for."""


def _integer(checker: Any, instance: object) -> bool:
    return type(instance) is int


def _pattern(validator: Any, pattern: str, instance: object, schema: Any) -> Iterator[Any]:
    """``pattern`` as JSON Schema (ECMA 262) reads it: ``$`` is the end of the text."""
    if isinstance(instance, str):
        spec = pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern
        if re.search(spec, instance) is None:
            yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


Strict = jsonschema.validators.extend(  # type: ignore[no-untyped-call]  # untyped in jsonschema
    Draft202012Validator,
    validators={"pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _integer),
)
"""A draft 2020-12 validator whose ``integer`` is no ``1.0`` and whose ``$`` ends the text."""


def validator(cls: type) -> Any:
    return Strict(request_schema(cls))


# -- what bodies are made of ---------------------------------------------------------------------

PRINTABLE = st.characters(exclude_categories=("Cf", "Co", "Cn", "Cs", "Zl", "Zp", "Zs"))
"""Characters that are printable or control characters (``str.isprintable`` refuses the
others, which the schema does not state)."""
CHARACTERS = st.one_of(PRINTABLE, st.sampled_from(" \t\n\x00\x7f\x85\x9f"))
TEXT = st.text(CHARACTERS, max_size=6)
LONG = st.integers(0, 205).map(lambda n: "x" * n)
"""Strings of every length near the bounds (100 and 200 characters)."""
NUMBER = st.one_of(
    st.integers(-5, 10),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, 0.05, 0.1, 1.0, 2.5, 86_400, 86_400.0, 86_400.5, 10**6]),
)
SCALAR = st.one_of(st.none(), st.booleans(), NUMBER, TEXT)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
ANY = st.one_of(SCALAR, JSON)
"""Any JSON value: the wrong type for every field."""

SEAT_KEYS = st.one_of(
    st.sampled_from(["0", "1", "2", "9", "10", "999", "1000", "01", "-1", "+1", "1 ", "1\n"]),
    st.sampled_from(["\u0663", "\uff11", "1.0", "", "x"]),  # an Arabic-Indic three, a wide one
    TEXT,
)


def fields(**strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Bodies with any of the keys, each of its strategy or of any other JSON, and at times an
    unknown key."""
    optional = {name: st.one_of(found, ANY) for name, found in strategies.items()}
    return st.fixed_dictionaries({}, optional={**optional, "x": ANY, "seed": ANY, "bot": ANY})


def valid(
    required: dict[str, st.SearchStrategy[Any]], **optional: st.SearchStrategy[Any]
) -> st.SearchStrategy[dict[str, Any]]:
    """Bodies with every required key and any of the optional ones, each of its strategy."""
    return st.fixed_dictionaries(required, optional=optional)


GAME = st.sampled_from([*catalog.GAMES, "chess", "Mare", ""])
PLAYERS = st.lists(st.one_of(st.none(), TEXT), max_size=6)
BOTS_MAP = st.dictionaries(SEAT_KEYS, st.one_of(st.sampled_from(BOTS), TEXT), max_size=3)
SIDES = st.one_of(st.none(), st.lists(st.sampled_from(["fish-friends", "fisher-fans", "x"])))
SECONDS = st.one_of(st.none(), NUMBER)
OPTIONS = st.one_of(st.none(), st.dictionaries(TEXT, JSON, max_size=2))
VERSION = st.one_of(st.none(), NUMBER)
COMMAND_ID = st.one_of(st.none(), LONG, TEXT)
NOTATION = st.one_of(st.none(), LONG, TEXT)
COMMAND = st.one_of(st.none(), st.dictionaries(TEXT, JSON, max_size=2))
LAYOUT = st.fixed_dictionaries(
    {}, optional={"layout": st.sampled_from(["wide", "narrow", "tall", None, 1]), "size": NUMBER}
)


EDGES: dict[type, dict[str, list[Any]]] = {
    CommandRequest: {
        "command": [None, 1, [], {}, "Roll"],
        "notation": ["", "x" * 200, "x" * 201, None, 5, True],
        "expected_version": [True, False, 1.0, -1, 0, 2**70, "1", None],
        "command_id": ["", "x" * 100, "x" * 101, "a\n", "a\x7f", "a\x85", "\t", 5, None],
    },
    NewGame: {
        "game": ["chess", 1, None, "Mare", True],
        "players": ["Ann", [1], [None], [], None, [True], ["Ann", 2.5]],
        "bots": [
            {"01": "random"},
            {"1000": "random"},
            {"999": "random"},
            {"1\n": "random"},
            {"\u0663": "random"},
            {"1": 1},
            {"1": None},
            {},
            [],
            None,
        ],
        "options": [[], 1, None, {}, "x"],
        "sides": ["x", [1], None, [], [None]],
        "seconds_per_move": [0.1, 0.0999, 86_400, 86_400.0001, True, "5", None, 0, -1, 10**400],
    },
    SeatRequest: {"name": [7, None, "", True, ["Ann"]], "side": [1, None, "", False]},
    Hello: {
        "token": [1, None, "", True],
        "after": [True, 1.0, -1, 0, None, 2**70, "0"],
        "table": [
            {"layout": "tall"},
            {"layout": None},
            {"size": 3},
            {},
            {"layout": "narrow", "size": 1},
            "narrow",
            1,
            None,
            {"layout": "narrow"},
            [],
        ],
    },
}
"""Values at and beyond the edges of each field."""

BODIES: dict[type, st.SearchStrategy[Any]] = {
    CommandRequest: st.one_of(
        valid({"notation": NOTATION}, expected_version=VERSION, command_id=COMMAND_ID),
        valid({"command": COMMAND}, expected_version=VERSION, command_id=COMMAND_ID),
        fields(command=COMMAND, notation=NOTATION, expected_version=VERSION, command_id=COMMAND_ID),
        ANY,
    ),
    NewGame: st.one_of(
        valid(
            {"game": GAME, "players": PLAYERS},
            bots=BOTS_MAP,
            options=OPTIONS,
            sides=SIDES,
            seconds_per_move=SECONDS,
        ),
        fields(
            game=GAME,
            players=PLAYERS,
            bots=BOTS_MAP,
            options=OPTIONS,
            sides=SIDES,
            seconds_per_move=SECONDS,
        ),
        ANY,
    ),
    SeatRequest: st.one_of(
        valid({"name": TEXT}, side=st.one_of(st.none(), TEXT)),
        fields(name=TEXT, side=st.one_of(st.none(), TEXT)),
        ANY,
    ),
    Hello: st.one_of(
        valid({}, token=st.one_of(st.none(), TEXT), after=NUMBER, table=st.booleans() | LAYOUT),
        fields(token=st.one_of(st.none(), TEXT), after=NUMBER, table=st.booleans() | LAYOUT),
        ANY,
    ),
}


def outcome(cls: type, body: Any) -> ApiError | None:
    """The refusal of ``body`` as a ``cls`` (``None``: read). A new game is read as its class
    declares it, before the checks that depend on the game and the server."""
    try:
        requests._read(cls, body)
    except ApiError as error:
        return error
    return None


WELL_FORMED: dict[type, dict[str, Any]] = {
    CommandRequest: {"notation": "roll"},
    NewGame: {"game": "mare", "players": ["Ann", "Bob"]},
    SeatRequest: {"name": "Ann"},
    Hello: {"token": "t", "after": 3},
}
"""A well formed body of each class, whose keys :data:`EDGES` set one at a time."""


@pytest.mark.parametrize(
    ("cls", "key", "value"),
    [
        (cls, key, value)
        for cls, edges in EDGES.items()
        for key, values in edges.items()
        for value in values
    ],
    ids=lambda found: getattr(found, "__name__", None) or repr(found)[:20],
)
def test_the_reader_and_the_schema_agree_at_the_edges(cls: type, key: str, value: Any) -> None:
    """A well formed body with one key set to a value at or beyond the edge of its field."""
    body = {**WELL_FORMED[cls], key: value}
    refused = outcome(cls, body)
    assert (refused is None) == validator(cls).is_valid(body), refused and refused.message
    if refused is not None and not refused.message.startswith("send exactly one of"):
        assert refused.message.startswith(f"'{key}' "), refused.message


@pytest.mark.parametrize("cls", REQUESTS, ids=lambda cls: cls.__name__)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_reader_accepts_exactly_what_the_schema_accepts(cls: type, data: st.DataObject) -> None:
    body = data.draw(BODIES[cls], label="body")
    refused = outcome(cls, body)
    schema_says = validator(cls).is_valid(body)
    assert (refused is None) == schema_says, refused and refused.message
    if refused is None:
        return
    named = {found.name for found in attrs.fields(cls)} | set(
        body if isinstance(body, dict) else ()
    )
    key = re.match(r"'(\w+)' ", refused.message)
    assert refused.message.startswith(
        ("unknown keys: ", "send exactly one of ", "the body must be")
    ) or (key is not None and key.group(1) in named), refused.message


@settings(max_examples=300, deadline=None)
@given(body=BODIES[NewGame])
def test_a_new_game_the_server_reads_fits_its_schema(body: Any) -> None:
    """The checks that depend on the game and the server come after the class is read: what
    :meth:`NewGame.read` accepts, the schema accepts."""
    try:
        NewGame.read(body, BOTS)
    except ApiError:
        return
    assert validator(NewGame).is_valid(body)


# -- by hand -------------------------------------------------------------------------------------


def refusal(read: Any, *args: Any) -> ApiError:
    with pytest.raises(ApiError) as refused:
        read(*args)
    return refused.value


def test_a_boolean_or_a_fraction_is_no_version() -> None:
    for wrong in (True, 1.0, -1, "3"):
        error = refusal(CommandRequest.read, {"notation": "roll", "expected_version": wrong})
        assert (error.kind, error.status) == ("bad-request", 400)
        assert error.message.startswith("'expected_version' must be an integer >= 0")
        assert not validator(CommandRequest).is_valid(
            {"notation": "roll", "expected_version": wrong}
        )
    read = CommandRequest.read({"notation": "roll", "expected_version": 3})
    assert read == CommandRequest(notation="roll", expected_version=3)


def test_a_command_request_sends_exactly_one_of_command_and_notation() -> None:
    for body in ({}, {"command": None}, {"command": {"type": "Roll"}, "notation": "roll"}):
        error = refusal(CommandRequest.read, body)
        assert error.message == "send exactly one of 'command' and 'notation'"
    assert CommandRequest.read({"command": {"type": "Roll"}, "notation": None}).command == {
        "type": "Roll"
    }
    assert refusal(CommandRequest.read, {"notation": "roll", "bot": True}).message == (
        "unknown keys: bot"
    )
    assert CommandRequest.read({"type": "command", "notation": "r"}, frozenset({"type"})).notation


def test_a_command_id_is_printable_beyond_what_its_schema_states() -> None:
    """The schema refuses control characters; the reader refuses every character that is not
    printable (here a zero-width space), which JSON Schema has no way to state."""
    body = {"notation": "roll", "command_id": "a\u200bb"}
    assert validator(CommandRequest).is_valid(body)
    assert refusal(CommandRequest.read, body).message.startswith("'command_id' must be")
    assert not validator(CommandRequest).is_valid({**body, "command_id": "a\tb"})
    assert refusal(CommandRequest.read, {**body, "command_id": "x" * 101}).kind == "bad-request"


def test_a_new_game_is_refused_as_before() -> None:
    base = {"game": "mare", "players": ["Ann", "Bob"]}
    cases: list[tuple[dict[str, Any], str, int, str]] = [
        ({**base, "game": "chess"}, "unknown-game", 400, "'game'"),
        ({"players": ["Ann", "Bob"]}, "unknown-game", 400, "'game'"),
        ({**base, "players": "Ann"}, "invalid-setup", 422, "'players'"),
        ({**base, "players": ["Ann"] * 9}, "invalid-setup", 422, "'players'"),
        ({**base, "bots": {"01": "random"}}, "bad-request", 400, "'bots'"),
        ({**base, "bots": {"7": "random"}}, "bad-request", 400, "'bots'"),
        ({**base, "bots": {"1": "genius"}}, "unknown-bot", 400, "a bot must be"),
        ({**base, "options": []}, "invalid-options", 422, "'options'"),
        ({**base, "seconds_per_move": True}, "bad-request", 400, "'seconds_per_move'"),
        ({**base, "seconds_per_move": 86_400.5}, "bad-request", 400, "'seconds_per_move'"),
        ({**base, "sides": ["sharks", "fish-friends"]}, "bad-request", 400, "M2"),
        ({**base, "sides": "fish-friends"}, "bad-request", 400, "M2"),
        ({**base, "seed": 1}, "bad-request", 400, "seed"),
        ({**base, "colour": "red"}, "bad-request", 400, "colour"),
    ]
    for body, kind, status, named in cases:
        error = refusal(NewGame.read, body, BOTS)
        assert (error.kind, error.status) == (kind, status), body
        assert named in error.message, (body, error.message)
    wanted = NewGame.read(
        {**base, "players": ["Ann", "Bo\u0301"], "bots": {"1": "random"}, "seconds_per_move": 60},
        BOTS,
    )
    assert wanted.players == ("Ann", "B\u00f3")
    assert wanted.bots == {1: "random"}
    assert wanted.seconds_per_move == 60.0
    assert type(wanted.seconds_per_move) is float


def test_a_seat_request_and_a_hello_are_refused_naming_the_key() -> None:
    assert SeatRequest.read({"name": "Ann", "side": None}) == SeatRequest(name="Ann")
    error = refusal(SeatRequest.read, {"name": 7})
    assert (error.kind, error.status) == ("invalid-name", 422)
    assert refusal(SeatRequest.read, {"side": "fish-friends"}).message.startswith("'name'")
    assert Hello.read({}) == Hello()
    assert Hello.read({"token": "t", "after": 4, "table": {"layout": "narrow"}}) == Hello(
        token="t", after=4, table=True, layout="narrow"
    )
    for wrong in ({"after": True}, {"after": -1}, {"after": None}, {"token": 5}, {"layout": "x"}):
        message = refusal(Hello.read, wrong).message
        assert message.startswith((f"'{next(iter(wrong))}'", "unknown keys")), message


def test_the_openapi_document_holds_the_schemas_built_from_the_classes() -> None:
    components = openapi()["components"]["schemas"]
    shapes = request_shapes()
    assert {"NewGame", "SeatRequest", "StreamHello", "TableLayout"} <= set(shapes)
    for name, schema in shapes.items():
        assert components[name] == schema
    for name, cls in (("NewGame", NewGame), ("SeatRequest", SeatRequest), ("StreamHello", Hello)):
        wire = [found.name for found in attrs.fields(cls) if not found.metadata.get(SERVER_ONLY)]
        assert list(components[name]["properties"]) == wire
        assert all("description" in prop for prop in components[name]["properties"].values())
    assert components["NewGame"]["properties"]["seconds_per_move"]["anyOf"][0] == {
        "type": "number",
        "minimum": 0.1,
        "maximum": requests.MAX_SECONDS_PER_MOVE,
    }
    assert components["NewGame"]["properties"]["game"]["enum"] == list(catalog.GAMES)
    for game in catalog.GAMES:
        command = components[f"{game}.CommandRequest"]
        assert list(command["properties"]) == [
            "command",
            "notation",
            "expected_version",
            "command_id",
        ]
        assert command["properties"]["command"]["anyOf"][0] == {
            "$ref": f"#/components/schemas/{game}.Command"
        }
        stream = components[f"{game}.StreamCommand"]
        assert stream["properties"]["type"] == {"const": "command"}
        assert stream["oneOf"] == command["oneOf"]
