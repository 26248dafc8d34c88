"""The JSON Schemas and the OpenAPI document of :mod:`avanti.server.protocol.schema`.

Everything a seat can be sent, as the codec writes it (every view of every seat and of the
spectator, every redacted event, every legal command, the public setup, the outcome), over random
games of every game of the catalog, validates against the game's schema; and the schema refuses
what the codec refuses (an extra key, a wrong type, an unknown tag, a missing field). The OpenAPI
document lists every endpoint of the protocol, every reference in it resolves, and every reply of
a real server (uvicorn on a loopback port, real HTTP and WebSocket clients) validates against it,
errors included. The protocol's docs page names every path, error kind and limit, and its
examples validate too.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import attrs
import jsonschema
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from avanti import autorama, catalog
from avanti.core.codec import Codec
from avanti.core.errors import DecodeError, InvalidArgument, UnknownGame
from avanti.core.game import Game
from avanti.server import ServerLimits
from avanti.server.protocol import openapi as openapi_module
from avanti.server.protocol import schema, shapes
from avanti.server.protocol.openapi import openapi
from avanti.server.protocol.schema import JSON_SCHEMA_DIALECT, schemas
from tests.server.support import PATIENCE, Served, open_socket, serving
from tests.toy import Game as ToyGame

AnyGame = Game[Any, Any, Any, Any, Any, Any]
T = TypeVar("T")

GAMES = tuple(catalog.GAMES)
"""Every game of the catalog, by name."""

SEEDS = (1, 2)
"""The seeds of the random games: each game is played once per seed, to the end."""

TOP = ("view", "command", "event", "public_setup", "outcome")
"""The keys of a game's schema document, beside ``$schema`` and ``$defs``."""


@functools.cache
def document(game: str) -> dict[str, Any]:
    return schemas(game)


@functools.cache
def validator(game: str, key: str) -> Draft202012Validator:
    """A validator of ``key`` (``view``, ``command``, ...), referring into the game's document
    by its fragment, as a client that fetched ``/schemas/<game>`` does."""
    uri = f"urn:avanti:schemas:{game}"
    registry: Registry[Any] = Registry().with_resource(
        uri, DRAFT202012.create_resource(document(game))
    )
    return Draft202012Validator({"$ref": f"{uri}#/{key}"}, registry=registry)


def wire(value: Any) -> Any:
    """JSON as a client receives it: through ``json.dumps`` and ``json.loads``."""
    return json.loads(json.dumps(value))


def valid(game: str, key: str, data: Any, done: set[str] | None = None) -> None:
    """Validate ``data`` as ``key`` of ``game`` (once only, when ``done`` holds the texts of
    the values already validated)."""
    if done is not None:
        text = json.dumps([key, data], sort_keys=True)
        if text in done:
            return
        done.add(text)
    validator(game, key).validate(data)


def invalid(game: str, key: str, data: Any) -> bool:
    return not validator(game, key).is_valid(data)


def codec_of(game: str) -> Codec[Any, Any, Any]:
    codec: Codec[Any, Any, Any] = catalog.game_info(game).load().Game.rules.codec
    return codec


def start(game: str, seed: int) -> AnyGame:
    """A new game of ``game`` for ``seed``, its table size going round the allowed ones."""
    info = catalog.game_info(game)
    players = info.min_players + seed % (info.max_players - info.min_players + 1)
    new: AnyGame = info.new_game(info.player_names(players), seed)
    return new


def played(game: AnyGame, seed: int) -> Iterator[AnyGame]:
    """``game`` and the game after each of its random legal commands, to the end."""
    choose = random.Random(seed)
    yield game
    while legal := game.legal_commands():
        game = game.execute(choose.choice(legal))
        yield game


def check_everything_sent(name: str, moments: Iterator[AnyGame]) -> int:
    """Validate all a seat (or the spectator) is sent at every moment; how many values."""
    codec = codec_of(name)
    checked = 0
    done: set[str] = set()
    seen: dict[int | None, int] = {}
    for game in moments:
        seats: list[int | None] = [None, *range(len(game.setup.players))]
        if not seen:
            valid(name, "public_setup", wire(codec.unstructure(game.public_setup)))
            seen = dict.fromkeys(seats, 0)
        for seat in seats:
            valid(name, "view", wire(codec.unstructure(game.view(seat))), done)
            for _, event in game.events_for(seat, after=seen[seat]):
                data = wire(codec.event_to_data(event))
                valid(name, "event", data, done)
                assert codec.event_from_data(data) == event
                checked += 1
            seen[seat] = game.version
            checked += 1
        for command in game.legal_commands():
            data = wire(codec.command_to_data(command))
            valid(name, "command", data, done)
            assert codec.command_from_data(data) == command
            checked += 1
        outcome = game.outcome
        if outcome is not None:
            valid(name, "outcome", wire(codec.unstructure(outcome)))
            checked += 1
    return checked


# -- the documents -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_game_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    found = document(name)
    assert found["$schema"] == JSON_SCHEMA_DIALECT
    assert set(found) == {"$schema", "$defs", *TOP}
    Draft202012Validator.check_schema(found)
    for key in TOP:
        Draft202012Validator.check_schema(found[key])


@pytest.mark.parametrize("name", GAMES)
def test_commands_and_events_are_tagged_by_the_codec_wire_tags(name: str) -> None:
    found = document(name)
    codec = codec_of(name)
    for key, tags in (("command", codec.commands), ("event", codec.events)):
        refs = [option["$ref"] for option in found[key]["oneOf"]]
        assert refs == [f"#/$defs/{tag}" for tag in tags]
        for tag, cls in tags.items():
            definition = found["$defs"][tag]
            assert definition["properties"]["type"] == {"const": tag}
            assert definition["additionalProperties"] is False
            fields = [field.name for field in attrs.fields(cls)]
            assert list(definition["properties"]) == ["type", *fields]


def test_the_mare_roll_command_reads_as_a_person_would_write_it() -> None:
    roll = document("mare")["$defs"]["Roll"]
    assert roll["type"] == "object"
    assert roll["properties"] == {"type": {"const": "Roll"}, "seat": {"type": "integer"}}
    assert roll["required"] == ["type", "seat"]
    assert roll["description"].startswith("Roll the colour die (M3)")


def test_types_map_to_json_schema_by_their_hints() -> None:
    mare, avanti, sale = (document(name)["$defs"] for name in ("mare", "avanti", "autorama"))
    assert mare["Fish"]["enum"] == ["blue", "orange", "yellow", "pink"]  # a StrEnum
    assert mare["Fish"]["type"] == "string"
    assert sale["Phase"]["enum"] == ["hiring", "buying", "selling", "over"]  # a plain Enum
    assert mare["View"]["properties"]["fish"] == {"type": "array", "items": {"type": "integer"}}
    assert mare["View"]["properties"]["seat"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert mare["Outcome"]["properties"]["returns"]["items"] == {"type": "number"}
    fixed = avanti["PowerCard"]["properties"]
    assert any(prop.get("prefixItems") == [{"type": "integer"}] * 3 for prop in fixed.values())
    assert sale["PlayAdvisor"]["properties"]["boost"] == {"type": "boolean", "default": False}
    assert sale["PlayAdvisor"]["required"] == ["type", "seat", "advisor"]


def test_schemas_gives_a_new_document_each_time() -> None:
    first = schemas("mare")
    first["$defs"].clear()
    assert schemas("mare")["$defs"]


def test_an_unknown_game_has_no_schemas() -> None:
    with pytest.raises(UnknownGame):
        schemas("chess")


def test_a_game_registered_later_gets_its_schemas() -> None:
    catalog.register(
        catalog.GameInfo(
            name="toy",
            title="Toy race",
            package="tests.toy",
            min_players=1,
            max_players=4,
            default_players=("Ann", "Bob"),
        )
    )
    try:
        found = schemas("toy")
        Draft202012Validator.check_schema(found)
        checked = check_everything_sent("toy", played(start("toy", 5), 5))
        assert "toy.View" in openapi()["components"]["schemas"]
    finally:
        catalog.unregister("toy")
        validator.cache_clear()
        document.cache_clear()
    assert checked > 10
    assert found["$defs"]["PublicSetup"]["properties"]["goal"] == {"type": "integer"}
    assert "Setup" not in found["$defs"]  # the setup holds the seed: no seat is sent it


# -- everything a seat is sent validates ---------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", GAMES)
def test_everything_a_seat_is_sent_in_a_random_game_matches_the_schema(
    name: str, seed: int
) -> None:
    game = start(name, seed)
    checked = check_everything_sent(name, played(game, seed))
    assert checked > 50


def test_games_with_options_match_the_schema() -> None:
    avanti_game = catalog.game_info("avanti").load()
    mare_game = catalog.game_info("mare").load()
    sale_game = catalog.game_info("autorama").load()
    games: list[tuple[str, AnyGame]] = [
        (
            "avanti",
            avanti_game.new_game(
                ["Ann", "Bob", "Cy"],
                seed=4,
                options=avanti_game.RuleOptions(atm_last_car_wraps=False),
                start_space=None,
            ),
        ),
        (
            "mare",
            mare_game.new_game(
                ["Ann"],
                seed=4,
                options=mare_game.Options(free_fish_move_owed=True, boat_faces=()),
            ),
        ),
        (
            "autorama",
            sale_game.new_game(
                ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
                seed=4,
                options=sale_game.Options(lawyer_choice=True, lawyer_single_use=True),
            ),
        ),
    ]
    for name, game in games:
        assert check_everything_sent(name, played(game, 4)) > 50


def test_a_game_from_a_scenario_matches_the_schema() -> None:
    # F9-F17 from a built position: the public setup then holds a public scenario.
    scenario = autorama.Scenario(
        phase=autorama.Phase.BUYING,
        round=1,
        advisor_deck=(),
        vehicle_deck=(3, 9, 27),
        check_deck=(15, 10, 4),
        cash=(),
        advisors=((20,), (12,), (8,)),
        vehicles=(),
        checks=(),
        kept=(),
    )
    game = autorama.new_game(["Isaac", "Becky", "Chloe"], seed=0, scenario=scenario)
    public = wire(autorama.CODEC.unstructure(game.public_setup))
    assert public["scenario"] is not None
    assert check_everything_sent("autorama", played(game, 6)) > 10


# -- what the codec refuses, the schema refuses ---------------------------------------------------


def samples(name: str) -> dict[str, Any]:
    """One value of each kind, as JSON, from a game of ``name`` played a little."""
    codec = codec_of(name)
    game = start(name, 7)
    for moment in played(game, 7):
        game = moment
        if len(game.events) > 12:
            break
    command = game.legal_commands()[0]
    return {
        "view": wire(codec.unstructure(game.view(command.seat))),
        "command": wire(codec.command_to_data(command)),
        "event": wire(codec.event_to_data(game.events_for(command.seat)[-1])),
        "public_setup": wire(codec.unstructure(game.public_setup)),
    }


def codec_refuses(name: str, key: str, data: Any) -> bool:
    codec = codec_of(name)
    game_class = catalog.game_info(name).load().Game
    view_class = schema._parameters(game_class)[4]
    readers: dict[str, Callable[[Any], object]] = {
        "command": codec.command_from_data,
        "event": codec.event_from_data,
        "view": lambda data: codec.structure(data, view_class),
    }
    if key not in readers:
        return True
    try:
        readers[key](data)
    except DecodeError:
        return True
    return False


def wrong_instances(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "an extra key", {**data, "extra": 1}
    first = next(iter(data))
    yield f"no {first!r}", {key: value for key, value in data.items() if key != first}
    for key, value in data.items():
        if type(value) is int:
            yield f"{key} as a string", {**data, key: str(value)}
            yield f"{key} as a boolean", {**data, key: True}
            yield f"{key} as a fraction", {**data, key: value + 0.5}
            break
    for key, value in data.items():
        if type(value) is list:
            yield f"{key} as an object", {**data, key: {}}
            break
    if "type" in data:
        yield "an unknown tag", {**data, "type": "NoSuchThing"}
        yield "no tag", {key: value for key, value in data.items() if key != "type"}


@pytest.mark.parametrize("name", GAMES)
def test_the_schema_refuses_what_the_codec_refuses(name: str) -> None:
    for key, data in samples(name).items():
        valid(name, key, data)
        wrongs = list(wrong_instances(data))
        assert len(wrongs) >= 3
        for why, wrong in wrongs:
            assert invalid(name, key, wrong), f"{name} {key}: {why}"
            assert codec_refuses(name, key, wrong), f"{name} {key}: {why}"


def test_a_wrong_enum_value_is_refused() -> None:
    move = {"type": "MoveFish", "seat": 0, "fish": "orange"}
    valid("mare", "command", move)
    assert invalid("mare", "command", {**move, "fish": "purple"})
    with pytest.raises(DecodeError):
        codec_of("mare").command_from_data({**move, "fish": "purple"})
    with pytest.raises(jsonschema.ValidationError):
        valid("mare", "command", [move])


def test_a_command_may_leave_out_a_field_with_a_default() -> None:
    # F10: boost is False unless the seat says otherwise; the codec reads it so.
    play = {"type": "PlayAdvisor", "seat": 0, "advisor": 20}
    valid("autorama", "command", play)
    assert autorama.CODEC.command_from_data(play) == autorama.PlayAdvisor(0, 20)


# -- how types become schemas --------------------------------------------------------------------


@attrs.frozen
class Twice:
    """A class whose name another class has too: ``x`` is :class:`Twice`'s."""

    x: int


def other_twice() -> type:
    @attrs.frozen
    class Twice:
        y: int

    return Twice


TwiceToo = other_twice()


@attrs.frozen
class Odd:
    counts: tuple[()]
    pair: tuple[int, str]
    either: int | str
    shelf: tuple[int, ...] = attrs.field(factory=tuple)
    derived: int = attrs.field(default=attrs.Factory(lambda self: 1, takes_self=True))


@attrs.frozen
class Tagged:
    type: int


def builder() -> schema.SchemaBuilder:
    return schema.SchemaBuilder(
        lambda name: f"#/$defs/{name}", {Tagged: "Tagged"}, lambda value: value
    )


def test_a_second_class_of_the_same_name_gets_a_longer_name() -> None:
    made = builder()
    assert made.schema(Twice) == {"$ref": "#/$defs/Twice"}
    longer = f"{TwiceToo.__module__.rsplit('.', 1)[-1]}.Twice"
    assert made.schema(TwiceToo) == {"$ref": f"#/$defs/{longer}"}
    assert made.schema(Twice) == {"$ref": "#/$defs/Twice"}
    assert made.schema(other_twice()) == {"$ref": f"#/$defs/{longer}2"}
    assert (
        made.defs["Twice"]["description"]
        == "A class whose name another class has too: `x` is `Twice`'s."
    )


def test_odd_fields_have_schemas_too() -> None:
    made = builder()
    made.schema(Odd)
    props = made.defs["Odd"]["properties"]
    assert props["counts"] == {
        "type": "array",
        "prefixItems": [],
        "items": False,
        "minItems": 0,
        "maxItems": 0,
    }
    assert props["pair"]["prefixItems"] == [{"type": "integer"}, {"type": "string"}]
    assert props["either"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    assert props["shelf"]["default"] == []
    assert "default" not in props["derived"]
    assert made.defs["Odd"]["required"] == ["counts", "pair", "either"]


def test_an_enum_of_numbers_or_of_mixed_values() -> None:
    import enum

    class Level(enum.IntEnum):
        LOW = 1
        HIGH = 2

    class Mixed(enum.Enum):
        ONE = 1
        TWO = "two"

    made = builder()
    made.schema(Level)
    made.schema(Mixed)
    assert made.defs["Level"] == {"title": "Level", "type": "integer", "enum": [1, 2]}
    assert made.defs["Mixed"] == {"title": "Mixed", "enum": [1, "two"]}


def test_a_type_without_a_json_schema_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="no JSON Schema"):
        builder().schema(dict[str, int])
    with pytest.raises(InvalidArgument, match="codec's tag"):
        builder().schema(Tagged)


class NotAGame(Generic[T]):
    """Generic, but over something else than :class:`~avanti.core.game.Game`."""


@attrs.frozen
class Outcome:
    """A public setup named as the toy's outcome class is."""

    players: tuple[str, ...]


def public_named_outcome(setup: Any) -> Outcome:
    return Outcome(setup.players)


def test_a_game_class_must_name_its_types() -> None:
    class Bare(ToyGame):
        __slots__ = ()

    assert schema._parameters(Bare)[4].__name__ == "View"
    for wrong in (object, NotAGame):
        with pytest.raises(InvalidArgument, match="does not name its types"):
            schema._parameters(wrong)  # type: ignore[arg-type]  # not a game class, on purpose
    untyped = attrs.evolve(ToyGame.rules, public=lambda setup: setup)

    class Untyped(ToyGame, rules=untyped):
        __slots__ = ()

    with pytest.raises(InvalidArgument, match="no typed public setup"):
        schema._public_setup_type(Untyped)


def test_a_class_named_as_another_role_is_refused_in_openapi() -> None:
    class Confusing(ToyGame, rules=attrs.evolve(ToyGame.rules, public=public_named_outcome)):
        __slots__ = ()

    _, top = schema.build_game(Confusing, lambda name: f"#/$defs/{name}")
    assert top["public_setup"] == {"$ref": "#/$defs/Outcome"}
    assert top["outcome"]["$ref"].endswith(".Outcome")  # the real one, under a longer name
    with pytest.raises(InvalidArgument, match=r"a class named 'toy\.Outcome' that is not its"):
        openapi_module._make_openapi((("toy", Confusing),))


# -- the OpenAPI document ------------------------------------------------------------------------

PATHS = {
    "/health": {"get"},
    "/openapi.json": {"get"},
    "/schemas/{game}": {"get"},
    "/games": {"get", "post"},
    "/games/{id}": {"get"},
    "/catalog": {"get"},
    "/games/{id}/table": {"get"},
    "/games/{id}/replay": {"get"},
    "/games/{id}/replay/{version}": {"get"},
    "/games/{id}/commands": {"post"},
    "/games/{id}/seats/{seat}/bot": {"put", "delete"},
    "/games/{id}/seats": {"post"},
    "/games/{id}/start": {"post"},
    "/games/{id}/rematch": {"post"},
    "/games/{id}/stream": {"get"},
    "/lab/forms": {"get"},
    "/lab/compare": {"post"},
    "/lab/replay": {"post"},
}


def refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                yield item
            else:
                yield from refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from refs(item)


def resolve(root: Any, ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def test_openapi_lists_every_endpoint_of_the_protocol() -> None:
    found = openapi()
    assert found["openapi"].startswith("3.1")
    assert found["jsonSchemaDialect"] == JSON_SCHEMA_DIALECT
    assert {path: set(methods) for path, methods in found["paths"].items()} == PATHS
    for path, methods in found["paths"].items():
        for method, operation in methods.items():
            assert operation["responses"], f"{method} {path}"
            for parameter in operation.get("parameters", ()):
                if parameter["in"] == "path":
                    assert f"{{{parameter['name']}}}" in path


def test_every_reference_of_the_openapi_document_resolves() -> None:
    found = openapi()
    every = set(refs(found))
    assert len(every) > 100
    for ref in every:
        assert isinstance(resolve(found, ref), dict), ref
    components = found["components"]["schemas"]
    for name in GAMES:
        for kind in ("View", "Command", "Event", "PublicSetup", "Outcome"):
            assert f"{name}.{kind}" in components
    for component in components.values():
        Draft202012Validator.check_schema(component)


@functools.cache
def openapi_validator(component: str) -> Draft202012Validator:
    uri = "urn:avanti:openapi"
    registry: Registry[Any] = Registry().with_resource(uri, DRAFT202012.create_resource(openapi()))
    return Draft202012Validator(
        {"$ref": f"{uri}#/components/schemas/{component}"}, registry=registry
    )


def test_a_seat_state_built_as_the_protocol_says_matches_the_openapi_schema() -> None:
    codec = codec_of("mare")
    game = start("mare", 2)
    for moment in played(game, 2):
        game = moment
        if game.version > 10:
            break
    seat = game.waiting[0]
    state = {
        "id": "g1",
        "game": "mare",
        "seat": seat,
        "version": game.version,
        "public_setup": codec.unstructure(game.public_setup),
        "view": codec.unstructure(game.view(seat)),
        "waiting": list(game.waiting),
        "legal": [
            {"command": codec.command_to_data(c), "notation": game.notation(c)}
            for c in game.legal_commands(seat)
        ],
        "events": [
            {"position": position, "event": codec.event_to_data(event)}
            for position, event in game.events_for(seat, after=0)
        ],
        "outcome": None,
    }
    openapi_validator("SeatState").validate(wire(state))
    assert not openapi_validator("SeatState").is_valid(wire({**state, "game": "avanti"}))
    view = wire(codec.unstructure(game.view(None)))
    openapi_validator("mare.View").validate(view)
    assert not openapi_validator("avanti.View").is_valid(view)
    request = {"notation": "roll", "expected_version": game.version}
    openapi_validator("CommandRequest").validate(request)
    assert not openapi_validator("CommandRequest").is_valid({"expected_version": 3})


# -- a real server's replies match the OpenAPI document ------------------------------------------


PER_GAME = ("SeatState", "CommandResult", "StreamUpdate")
"""The shapes that hold a game's values: checked against the game's own (``mare.SeatState``),
which is one of the options of the shape of any game (``SeatState``)."""


class Replies:
    """Checks each reply of a real server against the OpenAPI document's schemas."""

    def __init__(self, served: Served) -> None:
        self.http = served.http
        self.kinds: set[str] = set()
        self.checked = 0
        self.game = "mare"
        """The game whose shapes the replies of :data:`PER_GAME` are checked against."""

    def check(self, component: str, data: Any) -> Any:
        if component in PER_GAME:
            component = f"{self.game}.{component}"
        openapi_validator(component).validate(data)
        if component in ("Error", "StreamError"):
            self.kinds.add(data["error"]["kind"])
        self.checked += 1
        return data

    def call(
        self,
        method: str,
        path: str,
        status: int,
        component: str,
        token: str | None = None,
        **kw: Any,
    ) -> Any:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        if "content" in kw:
            headers["Content-Type"] = "application/json"
        reply = self.http.request(method, path, headers=headers, **kw)
        assert reply.status_code == status, reply.text
        return self.check(component, reply.json())


def play_over_http(replies: Replies, created: Any, most: int) -> Any:
    """Play random legal commands by notation or as JSON, each from a seat that may act, to
    the end or for ``most`` commands; every reply checked. The game as the spectator last saw
    it."""
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/games/{created['id']}"
    choose = random.Random(11)
    seen = 0
    for _ in range(most):
        state = replies.call("GET", f"{path}?after={seen}", 200, "SeatState")
        seen = state["version"]
        if state["outcome"] is not None:
            break
        seat = choose.choice(state["waiting"])
        after = f"{path}?after={state['version']}"
        mine = replies.call("GET", after, 200, "SeatState", tokens[seat])
        assert mine["events"] == []
        choice = choose.choice(mine["legal"])
        body = (
            {"notation": choice["notation"]}
            if choose.random() < 0.5
            else {"command": choice["command"], "expected_version": mine["version"]}
        )
        openapi_validator(f"{replies.game}.CommandRequest").validate(body)
        replies.call("POST", f"{path}/commands", 200, "CommandResult", tokens[seat], json=body)
    return replies.call("GET", path, 200, "SeatState")


def test_a_real_server_replies_as_the_openapi_document_says(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db") as served:
        replies = Replies(served)
        replies.call("GET", "/health", 200, "Health")
        assert served.http.get("/openapi.json").json() == openapi()
        for name in GAMES:
            assert served.http.get(f"/schemas/{name}").json() == schemas(name)
        replies.call("GET", "/schemas/chess", 404, "Error")
        finished = {}
        for name in GAMES:
            info = catalog.game_info(name)
            body = {"game": name, "players": list(info.player_names(info.min_players))}
            created = replies.call("POST", "/games", 201, "CreatedGame", json=body)
            replies.game = name
            finished[name] = play_over_http(replies, created, 1_000 if name == "mare" else 40)
            openapi_validator("SeatState").validate(finished[name])
            assert finished[name]["game"] == name
        replies.call("GET", "/games", 200, "GameList")
        assert finished["mare"]["outcome"] is not None
        lobby = replies.call("GET", "/games?game=mare&limit=1", 200, "GameList")
        assert [game["over"] for game in lobby["games"]] == [True]
        done = finished["mare"]["id"]
        replay = replies.call("GET", f"/games/{done}/replay?seen_by=0", 200, "Replay")
        last = replay["steps"][-1]["version"]
        replies.call("GET", f"/games/{done}/replay/{last}?layout=narrow", 200, "ReplayPicture")
        replies.call("GET", f"/games/{done}/replay/{last + 1}", 404, "Error")

        replies.game = "mare"
        with_bot = {"game": "mare", "players": ["Ann", "Bob"], "bots": {"1": "random"}}
        created = replies.call("POST", "/games", 201, "CreatedGame", json=with_bot)
        assert created["seats"][1]["token"] is None
        token = created["seats"][0]["token"]
        path = f"/games/{created['id']}"
        mine = replies.call("GET", path, 200, "SeatState", token)
        assert mine["seat"] == 0
        replies.call("GET", f"{path}/replay", 409, "Error")
        served_games = replies.call("GET", "/catalog", 200, "Catalog")
        assert [game["name"] for game in served_games["games"]] == list(catalog.GAMES)
        money = {game["name"]: game["money"] for game in served_games["games"]}
        assert money["autorama"] == {"prefix": "$", "scale": 1000}  # thousands of dollars (F2)
        assert money["avanti"] == {"prefix": "", "scale": 1}
        table = replies.call("GET", f"{path}/table", 200, "SeatTable", token)
        assert table["seat"] == 0
        assert table["svg"].startswith("<svg")
        replies.call("GET", f"{path}/table?after=100000", 400, "Error", token)
        replies.call("GET", f"{path}/table", 401, "Error", "not-a-token")
        bot = f"{path}/seats/0/bot"
        replies.call("PUT", bot, 200, "SeatBot", token, json={"bot": "random"})
        replies.call("DELETE", bot, 200, "SeatBot", token)
        replies.call("PUT", bot, 400, "Error", token, json={"bot": "genius"})
        replies.call("PUT", f"{path}/seats/1/bot", 403, "Error", token, json={"bot": "random"})
        commands = f"{path}/commands"
        replies.call("GET", path, 401, "Error", "not-a-token")
        replies.call("GET", "/games/nope", 404, "Error")
        replies.call("GET", f"{path}?after=100000", 400, "Error")
        replies.call("POST", commands, 403, "Error", json={"notation": "roll"})
        replies.call("POST", commands, 400, "Error", token, content=b"{not json")
        replies.call("POST", commands, 400, "Error", token, json={"notation": "roll", "x": 1})
        replies.call("POST", commands, 413, "Error", token, content=b" " * 70_000)
        replies.call("POST", commands, 422, "Error", token, json={"notation": "fly away"})
        replies.call("POST", commands, 422, "Error", token, json={"command": {"type": "Fly"}})
        stale = {"notation": "roll", "expected_version": 10_000}
        conflict = replies.call("POST", commands, 409, "Error", token, json=stale)
        assert conflict["error"]["expected"] == 10_000
        replies.call("POST", "/games", 400, "Error", json={"game": "mare", "seed": 1})
        replies.call("POST", "/games", 422, "Error", json={"game": "mare", "players": []})
        replies.call("POST", "/games", 400, "Error", json={"game": "chess", "players": ["A"]})
        bad_options = {"game": "mare", "players": ["Ann"], "options": {"boat_faces": 3}}
        replies.call("POST", "/games", 422, "Error", json=bad_options)
        replies.call("GET", "/nowhere", 404, "Error")
        replies.call("DELETE", "/games", 405, "Error")

        with open_socket(served.ws_url(created["id"]), token) as socket:
            update = replies.check("StreamUpdate", json.loads(socket.recv(timeout=PATIENCE)))
            socket.send(json.dumps({"type": "ping"}))
            replies.check("StreamPong", json.loads(socket.recv(timeout=PATIENCE)))
            socket.send(json.dumps({"type": "command", "notation": "fly away"}))
            replies.check("StreamError", json.loads(socket.recv(timeout=PATIENCE)))
            if update["legal"]:
                choice = update["legal"][0]["command"]
                socket.send(json.dumps({"type": "command", "command": choice}))
                while not (message := json.loads(socket.recv(timeout=PATIENCE))).get("results"):
                    replies.check("StreamUpdate", message)
                replies.check("StreamUpdate", message)  # the mover's, with the answer
                replies.check("StreamAnswer", message["results"][0])
        with open_socket(served.ws_url(created["id"]), "not-a-token") as socket:
            replies.check("StreamError", json.loads(socket.recv(timeout=PATIENCE)))
        now = served.http.get(path).json()["version"]
        with open_socket(served.ws_url(created["id"]), None, after=now - 1) as socket:
            replies.check("StreamUpdate", json.loads(socket.recv(timeout=PATIENCE)))
    assert replies.checked > 100
    assert replies.kinds <= set(shapes.ERROR_KINDS)
    assert len(replies.kinds) >= 10


# -- the protocol's docs page --------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def json_blocks(text: str) -> list[Any]:
    """Every ```json block of a Markdown page, parsed."""
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.DOTALL)]


def shape_of(example: dict[str, Any]) -> str:
    """The OpenAPI component a docs example is an instance of, by its keys."""
    keys = set(example)
    shapes = [
        ("error" in keys, "Error"),
        ("steps" in keys and "seen_by" in keys, "mare.Replay"),
        ("svg" in keys and "seen_by" in keys, "mare.ReplayPicture"),
        (example.get("type") == "table", "StreamTable"),
        (example.get("type") == "chat" and "messages" in keys, "StreamChat"),
        (example.get("type") == "chat", "StreamChatSend"),
        (example.get("type") == "rematch", "StreamRematch"),
        ("state" in keys and "taken" in keys, "OpenTable"),
        (keys == {"game_id", "seat", "token"}, "TakenSeat"),
        (keys == {"name"}, "SeatRequest"),
        ("decided" in keys, "Standings"),
        (keys == {"game_id", "bots"}, "StartedTable"),
        ("seats" in keys, "CreatedGame"),
        ("games" in keys, "GameList"),
        ("public_setup" in keys, "mare.SeatState"),
        (example.get("type") == "update", "mare.StreamUpdate"),
        (keys == {"version", "events", "legal", "view"}, "mare.CommandResult"),
        (keys <= {"token", "after", "table"} and "after" in keys, "StreamHello"),
        (keys == {"seat", "bot"}, "SeatBot"),
        ("players" in keys, "NewGame"),
        (bool(keys & {"command", "notation"}), "mare.CommandRequest"),
    ]
    return next(shape for found, shape in shapes if found)


def test_the_docs_page_names_every_path_and_error_kind() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for path, methods in PATHS.items():
        for method in methods:
            assert f"{method.upper()} {path}" in text or f"`{method.upper()}`" in text, path
    for kind in shapes.ERROR_KINDS:
        assert f"| `{kind}` |" in text, kind
    for limit in attrs.fields(ServerLimits):
        if limit.name != "bot_kinds":
            assert f"`{limit.name}`" in text, limit.name


def test_the_docs_page_examples_match_the_schemas() -> None:
    examples = json_blocks(DOCS.read_text(encoding="utf-8"))
    mare = schemas("mare")
    shapes = []
    for example in examples:
        if "$schema" in example:  # the shortened schema document
            for key in ("view", "command", "public_setup", "outcome"):
                assert example[key] == mare[key]
            assert (
                example["event"]["oneOf"]
                == mare["event"]["oneOf"][: len(example["event"]["oneOf"])]
            )
        elif example.get("title") == "Roll":
            assert example == mare["$defs"]["Roll"]
        else:
            shape = shape_of(example)
            openapi_validator(shape).validate(example)
            shapes.append(shape)
    assert len(shapes) >= 10
    assert {"Error", "CreatedGame", "mare.SeatState", "mare.StreamUpdate"} <= set(shapes)
