"""``avanti.core.values``: drafts and builders generated once from a frozen class's fields."""

from __future__ import annotations

import inspect
from typing import Any, TypeAlias

import attrs
import pytest
from attrs import define, field, frozen

from avanti.core.values import DraftOf, builder


@frozen
class Point:
    x: int
    y: int | None
    tags: tuple[str, ...]


MaybeInt: TypeAlias = int | None


class PointDraft(DraftOf[Point]):
    x: int
    y: int | None
    tags: tuple[str, ...]

    def moved(self, dx: int) -> PointDraft:
        self.x += dx
        return self


def test_a_draft_copies_every_field_and_has_only_their_slots() -> None:
    point = Point(1, None, ("a",))
    draft = PointDraft(point)
    assert PointDraft.__slots__ == ("x", "y", "tags")
    assert (draft.x, draft.y, draft.tags) == (1, None, ("a",))
    assert not hasattr(draft, "__dict__")
    with pytest.raises(AttributeError):
        draft.z = 3  # type: ignore[attr-defined]


def test_freeze_gives_an_equal_state_of_the_state_class() -> None:
    point = Point(1, 2, ("a", "b"))
    frozen_again = PointDraft(point).freeze()
    assert type(frozen_again) is Point
    assert frozen_again == point
    assert frozen_again is not point
    assert hash(frozen_again) == hash(point)
    assert repr(frozen_again) == repr(point)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        frozen_again.x = 5  # type: ignore[misc]


def test_a_draft_changes_in_place_and_leaves_the_state_alone() -> None:
    point = Point(1, 2, ())
    draft = PointDraft(point).moved(3)
    draft.y = None
    assert draft.freeze() == Point(4, None, ())
    assert point == Point(1, 2, ())
    assert draft.freeze() is not draft.freeze()  # every freeze is a new value


def test_the_generated_methods_name_their_class_and_show_their_source() -> None:
    assert PointDraft.__init__.__qualname__ == "PointDraft.__init__"
    assert PointDraft.freeze.__qualname__ == "PointDraft.freeze"
    assert PointDraft.freeze.__module__ == __name__
    source = inspect.getsource(PointDraft.freeze)
    assert "_put_tags(state, self.tags)" in source


def test_annotations_that_miss_a_field_are_refused() -> None:
    with pytest.raises(TypeError, match=r"must name the fields of Point.*missing \['tags'\]"):

        class Bad(DraftOf[Point]):
            x: int
            y: int | None


def test_annotations_with_a_field_the_state_lacks_are_refused() -> None:
    with pytest.raises(TypeError, match=r"not fields \['z'\]"):

        class Bad(DraftOf[Point]):
            x: int
            y: int | None
            tags: tuple[str, ...]
            z: int


def test_annotations_in_another_order_are_refused() -> None:
    with pytest.raises(TypeError, match="in another order"):

        class Bad(DraftOf[Point]):
            y: int | None
            x: int
            tags: tuple[str, ...]


def test_annotations_with_another_type_are_refused() -> None:
    with pytest.raises(
        TypeError, match=r"other types than Point: y: int \(the state has int \| None\)"
    ):

        class Bad(DraftOf[Point]):
            x: int
            y: int
            tags: tuple[str, ...]


def test_the_same_type_spelled_otherwise_is_accepted() -> None:
    class Spelled(DraftOf[Point]):
        x: int
        y: MaybeInt
        tags: tuple[str, ...]

    assert Spelled(Point(1, 2, ())).freeze() == Point(1, 2, ())


def test_a_draft_may_not_write_what_is_generated() -> None:
    meta: Any = type(DraftOf)
    for name in ("__slots__", "__init__", "freeze"):
        with pytest.raises(TypeError, match=f"must not define {name}"):
            meta(  # the class statement, with ``name`` in its body
                "Bad",
                (DraftOf,),
                {
                    "__module__": __name__,
                    "__orig_bases__": (DraftOf[Point],),
                    "__annotations__": {"x": "int", "y": "int | None", "tags": "tuple[str, ...]"},
                    name: (),
                },
            )


def test_a_state_with_an_init_step_is_refused() -> None:
    @frozen
    class Checked:
        x: int = field(validator=attrs.validators.instance_of(int))

    @frozen
    class Converted:
        x: int = field(converter=int)

    @frozen
    class Hooked:
        x: int

        def __attrs_post_init__(self) -> None:
            pass

    for state_cls, step in (
        (Checked, "x has a validator"),
        (Converted, "x has a converter"),
        (Hooked, "__attrs_post_init__"),
    ):
        with pytest.raises(TypeError, match=f"skips .*__init__, but .* has an init step: {step}"):

            class Bad(DraftOf[state_cls]):  # type: ignore[valid-type]
                x: int


def test_a_state_that_is_not_slotted_or_not_attrs_is_refused() -> None:
    @define(slots=False)
    class Loose:
        x: int

    class Plain:
        x: int

    with pytest.raises(TypeError, match=r"needs \S*Loose slotted"):

        class Bad(DraftOf[Loose]):
            x: int

    with pytest.raises(TypeError, match="Plain is not an attrs class"):

        class Worse(DraftOf[Plain]):  # type: ignore[type-var]
            x: int


def test_a_draft_must_name_its_state_class() -> None:
    with pytest.raises(TypeError, match="must subclass DraftOf"):

        class Again(PointDraft):
            pass

    with pytest.raises(TypeError, match="DraftOf is a base class"):
        DraftOf(Point(1, 2, ()))


@pytest.mark.parametrize("game", ["avanti.avanti.state", "avanti.autorama.state"])
def test_each_games_draft_annotates_the_states_fields_with_the_same_types(game: str) -> None:
    module = __import__(game, fromlist=["Draft", "GameState"])
    fields = attrs.fields(module.GameState)
    assert module.Draft.__slots__ == tuple(a.name for a in fields)
    assert inspect.get_annotations(module.Draft) == {a.name: a.type for a in fields}


@frozen
class Wide:
    a: int
    b: int
    _c: str
    d: tuple[int, ...] = ()
    value: int = 0  # a name the generated code must not take for a local of its own


BUILD_WIDE = builder(Wide)


def test_a_builder_builds_the_same_value_as_the_class_from_keywords() -> None:
    built = BUILD_WIDE(a=1, b=2, c="x", d=(3,))
    assert type(built) is Wide
    assert built == Wide(1, 2, "x", (3,))
    assert BUILD_WIDE(a=1, b=2, c="x", value=7) == Wide(1, 2, "x", (), 7)
    assert BUILD_WIDE(b=2, c="y", a=1) == Wide(1, 2, "y")  # any order; defaults apply
    assert BUILD_WIDE.__name__ == "build_Wide"
    assert "_put__c(_value, c)" in inspect.getsource(BUILD_WIDE)


def test_a_builder_takes_keywords_only() -> None:
    with pytest.raises(TypeError, match="positional argument"):
        BUILD_WIDE(1, 2, "x")
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'b'"):
        BUILD_WIDE(a=1, c="x")  # type: ignore[call-arg]


def test_a_builder_refuses_classes_it_cannot_fill() -> None:
    @frozen
    class Made:
        x: tuple[int, ...] = field(factory=tuple)

    @frozen
    class Derived:
        x: int
        y: int = field(init=False, default=0)

    @frozen
    class Checked:
        x: int = field(validator=attrs.validators.instance_of(int))

    for cls in (Made, Derived):
        with pytest.raises(TypeError, match=r"every field .* set by keyword"):
            builder(cls)
    with pytest.raises(TypeError, match="has an init step: x has a validator"):
        builder(Checked)
    with pytest.raises(TypeError, match="is not an attrs class"):
        builder(int)
