"""Hostile JSON fed to each game's ``loads``: only ``DecodeError`` (naming a JSON path) or
``CorruptLog`` (naming an event index) may come out, and whatever loads is a sound game.
"""

from __future__ import annotations

import io
import json
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from avanti import catalog, cli, core
from tests.hardening.games import SPECS
from tests.hardening.spec import AnyGame, GameSpec, played, walk

SCALARS: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(10**300), 10**300),
    st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**4000, -(10**4000)]),
    st.floats(),
    st.text(max_size=10),
)
JSON: st.SearchStrategy[Any] = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KINDS: dict[str, st.SearchStrategy[Any]] = {
    "null": st.none(),
    "boolean": st.booleans(),
    "integer": st.integers(-(10**30), 10**30),
    "number": st.floats(),
    "string": st.text(max_size=10),
    "array": st.lists(SCALARS, max_size=3),
    "object": st.dictionaries(st.text(max_size=8), SCALARS, max_size=3),
}
"""A strategy for each kind of JSON value."""


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}.get(
        type(value), "object"
    )


DEEP = st.integers(1, 3000).map(
    lambda depth: json.loads("[" * min(depth, 900) + "]" * min(depth, 900))
)


def loads_soundly(spec: GameSpec, text: str | bytes, events: int | None = None) -> AnyGame | None:
    """Load ``text``; check that only the allowed errors escape, each with a useful message."""
    try:
        game = spec.game.loads(text)
    except (core.DecodeError, core.CorruptLog) as error:
        refused = error
    else:
        assert spec.game.replay(game.setup, game.events) == game
        assert spec.game.loads(game.dumps()) == game
        return game
    if isinstance(refused, core.DecodeError):
        assert refused.errors, "a DecodeError lists at least one problem"
        for message in refused.errors:
            assert "@ $" in message, f"no JSON path in {message!r}"
    else:
        assert refused.index >= 0
        assert refused.message
        if events is not None:
            assert refused.index <= events, f"index {refused.index} beyond {events} events"
    return None


@st.composite
def mutated(draw: st.DrawFn, document: dict[str, Any]) -> tuple[str, int]:
    """A game document with one or more hostile changes, as text, and its number of events."""
    doc: Any = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(1, 3))):
        doc = draw(mutation(doc))
    events = (
        len(doc["events"]) if isinstance(doc, dict) and isinstance(doc.get("events"), list) else 0
    )
    text = json.dumps(doc)
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text, events


def _parent(doc: Any, path: list[Any]) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


PATH_DEPTH = 8
"""How deep the mutations reach into a document (a game document is at most about 6 deep):
never into the inside of a ``DEEP`` value an earlier mutation put there, so two of them never
nest (1,800 levels, beyond what ``json.dumps`` can write, would fail the strategy itself)."""


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if len(prefix) >= PATH_DEPTH:
        return found
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += _paths(value, (*prefix, index))
    return found


@st.composite
def mutation(draw: st.DrawFn, doc: Any) -> Any:
    """One hostile change to a JSON tree (which it changes in place and returns)."""
    kind = draw(
        st.sampled_from(
            [
                "replace",
                "delete",
                "extra",
                "tag",
                "truncate",
                "reorder",
                "duplicate",
                "seats",
                "deep",
            ]
        )
    )
    paths = _paths(doc)
    events = doc.get("events") if isinstance(doc, dict) else None
    if kind in ("replace", "deep"):
        path = list(draw(st.sampled_from(paths)))
        value = draw(DEEP if kind == "deep" else JSON)
        if not path:
            return value
        _parent(doc, path)[path[-1]] = value
    elif kind == "delete":
        dicts = [p for p in paths if p and isinstance(_parent(doc, [*p]), dict)]
        if dicts:
            path = list(draw(st.sampled_from(dicts)))
            del _parent(doc, path)[path[-1]]
    elif kind == "extra":
        dicts = [p for p in paths if isinstance(_node(doc, p), dict)]
        if dicts:
            node = _node(doc, draw(st.sampled_from(dicts)))
            node[draw(st.text(max_size=8))] = draw(JSON)
    elif not isinstance(events, list) or not events:
        return doc
    elif kind == "tag":
        event = draw(st.sampled_from(events))
        if isinstance(event, dict):
            event["type"] = draw(st.one_of(st.text(max_size=12), JSON))
    elif kind == "truncate":
        del events[draw(st.integers(0, len(events))) :]
    elif kind == "reorder":
        i, j = draw(st.integers(0, len(events) - 1)), draw(st.integers(0, len(events) - 1))
        events[i], events[j] = events[j], events[i]
    elif kind == "duplicate":
        i = draw(st.integers(0, len(events) - 1))
        events.insert(draw(st.integers(0, len(events))), json.loads(json.dumps(events[i])))
    elif kind == "seats":
        a, b = draw(st.integers(-1, 6)), draw(st.integers(-1, 6))
        for _, node in walk(events):
            if isinstance(node, dict):
                for key, value in node.items():
                    if "seat" in key and type(value) is int:
                        node[key] = b if value == a else a if value == b else value
    return doc


def _node(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(data=st.data())
def test_mutated_documents_fail_cleanly(spec: GameSpec, data: st.DataObject) -> None:
    game = data.draw(played(spec, most=60), label="game")
    text, events = data.draw(mutated(json.loads(game.dumps())), label="document")
    loads_soundly(spec, text, events)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(document=JSON)
def test_arbitrary_json_is_a_decode_error(spec: GameSpec, document: Any) -> None:
    with pytest.raises(core.DecodeError) as refused:
        spec.game.loads(json.dumps(document))
    assert all("@ $" in message for message in refused.value.errors)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(text=st.one_of(st.text(max_size=40), st.binary(max_size=40)))
def test_arbitrary_text_is_a_decode_error(spec: GameSpec, text: str | bytes) -> None:
    with pytest.raises(core.DecodeError):
        spec.game.loads(text)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(data=st.data())
def test_a_document_with_right_shape_and_wrong_values(spec: GameSpec, data: st.DataObject) -> None:
    """Fields of a real document, one at a time, replaced by a value of another JSON type."""
    game = data.draw(played(spec, most=30), label="game")
    document = json.loads(game.dumps())
    paths = data.draw(st.lists(st.sampled_from(_paths(document)[1:]), max_size=12, unique=True))
    for path in paths:
        doc = json.loads(json.dumps(document))
        old = _json_kind(_node(doc, path))
        kind = data.draw(st.sampled_from([k for k in KINDS if k != old]))
        value = data.draw(KINDS[kind])
        _parent(doc, list(path))[path[-1]] = value
        loads_soundly(spec, json.dumps(doc), len(document["events"]))


@pytest.mark.parametrize("spec", [s for s in SPECS if s.hides_events], ids=str)
@given(data=st.data())
def test_a_log_with_a_blanked_event_names_that_event(spec: GameSpec, data: st.DataObject) -> None:
    """A seat's stream is no log: put one event as another seat sees it back into the full log,
    and replay stops at exactly that event."""
    game = data.draw(played(spec, most=150), label="game")
    seat = data.draw(st.one_of(st.none(), st.integers(0, spec.seats(game) - 1)), label="seat")
    redact = spec.game.rules.redact
    blanked = [i for i, e in enumerate(game.events) if redact(e, seat) not in (e, None)]
    assume(blanked)
    index = data.draw(st.sampled_from(blanked), label="index")
    events = list(game.events)
    events[index] = redact(events[index], seat)
    with pytest.raises(core.CorruptLog) as refused:
        spec.game.replay(game.setup, events)
    assert refused.value.index == index


@pytest.mark.parametrize("spec", [s for s in SPECS if s.name in catalog.GAMES], ids=str)
@given(data=st.data())
def test_the_command_line_validates_hostile_files_without_a_traceback(
    spec: GameSpec, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    game = data.draw(played(spec, most=40), label="game")
    text, _ = data.draw(mutated(json.loads(game.dumps())), label="document")
    path = tmp_path_factory.mktemp("hostile") / "game.json"
    path.write_text(text, encoding="utf-8")
    try:
        info = catalog.info_for_document(text)
    except core.DecodeError as error:
        assert all("@ $" in message for message in error.errors)  # noqa: PT017
    else:
        assert info.format == json.loads(text)["format"]
    out = io.StringIO()
    assert cli.main(["validate", str(path)], out=out) in (0, 1)


def _without_seed(reading: tuple[str, Any]) -> tuple[str, Any]:
    """A reading with the seed of a setup it read set to 0."""
    verdict, found = reading
    return (verdict, attrs.evolve(found, seed=0)) if verdict == "read" else reading


def _reading(read: Any) -> tuple[str, Any]:
    try:
        return "read", read()
    except core.DecodeError as error:
        return "refused", error.errors


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(data=st.data())
def test_the_fast_and_the_strict_reading_agree_on_hostile_data(
    spec: GameSpec, data: st.DataObject
) -> None:
    """The codec reads commands, events and setups by a fast path first; on any value, valid or
    not, it must give what the strict path gives (the same value, or the same errors)."""
    codec = spec.codec
    game = data.draw(played(spec, most=40), label="game")
    document = json.loads(game.dumps())
    kinds = [(document["setup"], spec.game.rules.codec.setup_type)]
    kinds += [(event, codec._event) for event in document["events"]]  # the private union type
    commands = [codec.command_to_data(c) for c in game.legal_commands()]
    kinds += [(command, codec._command) for command in commands]
    value, kind = data.draw(st.sampled_from(kinds), label="value")
    for _ in range(data.draw(st.integers(0, 2), label="changes")):
        value = data.draw(mutation(value), label="changed")
    fast = _reading(lambda: codec.structure(value, kind))
    strict = _reading(lambda: codec._strict(value, kind, "$"))  # the strict path alone
    if isinstance(value, dict) and "seed" not in value and kind is spec.game.rules.codec.setup_type:
        # a setup value without its seed draws a fresh one from `secrets` on each reading (a
        # document must name it: the document check refuses one without): compare the rest
        fast, strict = (_without_seed(reading) for reading in (fast, strict))
    assert fast == strict
