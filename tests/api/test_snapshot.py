"""The snapshot test can fail: applied to a small made-up module, it sees a name removed, a
signature changed, a field added, a re-export moved and a module that forgets ``__all__``."""

from __future__ import annotations

import enum
import textwrap
from types import ModuleType

import attrs

from tests.api.snapshot import compare, render


def module(name: str, source: str, **names: object) -> ModuleType:
    """A module ``name`` running ``source``; ``names`` are set in it, and then listed as its
    ``__all__``."""
    made = ModuleType(name)
    exec(textwrap.dedent(source), made.__dict__)
    made.__dict__.update(names)
    if names:
        made.__dict__["__all__"] = sorted(names)
    return made


TOY = """
    from __future__ import annotations

    import enum

    import attrs

    __all__ = ["LIMIT", "Colour", "Move", "play", "score"]

    LIMIT = 7

    class Colour(enum.Enum):
        RED = "red"
        BLUE = "blue"

    @attrs.frozen
    class Move:
        seat: int
        steps: int = 1

        def reversed(self) -> Move:
            return Move(self.seat, -self.steps)

    def play(move: Move, *, times: int = 1) -> int:
        return move.steps * times

    def score(points: int) -> int:
        return points
"""


def toy(source: str = TOY) -> ModuleType:
    return module("toy.rules", source)


def test_the_snapshot_writes_kinds_signatures_fields_and_members() -> None:
    assert render([toy()]) == textwrap.dedent(
        """\
        [toy.rules]
          class Colour(enum.Enum)
            member RED = 'red'
            member BLUE = 'blue'
          value LIMIT: int = 7
          class Move (seat: int, steps: int = 1) -> None
            field seat: int
            field steps: int = 1
            method reversed(self) -> Move
          function play(move: Move, *, times: int = 1) -> int
          function score(points: int) -> int
        """
    )


def test_an_unchanged_module_gives_no_diff() -> None:
    assert compare(render([toy()]), render([toy()])) == []


def test_a_removed_name_is_a_diff() -> None:
    without_score = TOY.replace('"play", "score"]', '"play"]')
    diff = compare(render([toy()]), render([toy(without_score)]))
    assert "-  function score(points: int) -> int" in diff
    assert [line for line in diff if line[:1] == "+" and line[:3] != "+++"] == []


def test_a_changed_signature_is_a_diff() -> None:
    renamed = TOY.replace(
        "def play(move: Move, *, times: int = 1)", "def play(move: Move, times=1)"
    )
    diff = compare(render([toy()]), render([toy(renamed)]))
    assert "-  function play(move: Move, *, times: int = 1) -> int" in diff
    assert "+  function play(move: Move, times=1) -> int" in diff


def test_a_new_field_a_new_member_and_a_new_value_are_diffs() -> None:
    changed = (
        TOY.replace("steps: int = 1\n", "steps: int = 1\n        note: str = ''\n")
        .replace('BLUE = "blue"', 'BLUE = "blue"\n        GREEN = "green"')
        .replace("LIMIT = 7", "LIMIT = 8")
    )
    added = [line for line in compare(render([toy()]), render([toy(changed)])) if line[:1] == "+"]
    assert added == [
        "+++ live",
        "+    member GREEN = 'green'",
        "+  value LIMIT: int = 8",
        "+  class Move (seat: int, steps: int = 1, note: str = '') -> None",
        "+    field note: str = ''",
    ]


def test_a_re_export_names_its_home_and_follows_a_move() -> None:
    home = toy()
    face = module("toy", "", Move=home.Move)
    assert render([home, face]).splitlines()[:2] == ["[toy]", "  class Move = toy.rules.Move"]

    @attrs.frozen
    class Move:  # the same name, now defined in another module
        seat: int

    Move.__module__, Move.__qualname__ = "toy.other", "Move"
    moved = module("toy", "", Move=Move)
    diff = compare(render([home, face]), render([home, moved]))
    assert "-  class Move = toy.rules.Move" in diff
    assert "+  class Move (seat: int) -> None" in diff


def test_a_module_without_all_or_with_a_missing_name_shows() -> None:
    bare = module("toy.bare", "X = 1")
    broken = module("toy.broken", "__all__ = ['gone']")
    assert render([bare, broken]) == "[toy.bare]\n  (no __all__)\n[toy.broken]\n  MISSING gone\n"


class Suit(enum.Enum):
    """An enum defined here, to check that its members are written in definition order."""

    SPADES = 1
    HEARTS = 2


def test_enum_members_keep_their_order() -> None:
    holder = module("toy.cards", "", Suit=Suit)
    assert render([holder]).splitlines()[1:] == [
        "  class Suit(enum.Enum)",
        "    member SPADES = 1",
        "    member HEARTS = 2",
    ]
