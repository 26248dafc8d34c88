"""The lab's case forms (its presentation's ``lab``): each game's declaration names real setup
fields and options, its example plays, a case may name the die's next rolls as outcomes (M3),
the verdict knows equal readings, and no file of the lab names a game."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import attrs
import pytest

import avanti
from avanti.catalog import GAMES, game_info
from avanti.core import DecodeError
from avanti.core.labform import FieldKind
from avanti.lab import MAX_SEEDS, Case, Reading, compare, played_seed
from avanti.lab.compare import position
from avanti.mare.lab import foresee_roll

SOURCE = Path(avanti.__file__).parent
LAB_FILES = sorted(
    [*(SOURCE / "lab").glob("*.py"), *(path for path in (SOURCE / "server" / "web").iterdir())]
)
"""The files that must name no game: the lab's library and every file of the browser's pages
(what a game shows of itself comes from its presentation, through the server)."""
BOOK = (Reading("book"), Reading("book"))


@pytest.mark.parametrize("name", list(GAMES))
def test_each_form_names_setup_fields_and_options_of_its_game(name: str) -> None:
    """Every field is a field of the game's setup (or of its scenario), cites its rule, and
    draws its cards from a deck of the box; every option is one of the game's, its default the
    library's reading."""
    info = game_info(name)
    form = info.load_lab_form()
    assert form is not None
    example = Case.from_data(form.example)
    document = position(example, Reading("book"))
    setup, _ = info.load().CODEC.loads(document)
    for field in form.fields:
        head, _, inner = field.path.partition(".")
        assert head in attrs.fields_dict(type(setup)), field.path
        if inner:
            assert inner in attrs.fields_dict(type(getattr(setup, head))), field.path
        assert field.rule, field.path
        if field.kind in (FieldKind.CARDS, FieldKind.SEAT_CARDS, FieldKind.SEAT_LAID):
            assert field.deck in form.box, field.path
    options = json.loads(document)["setup"]["options"]
    for option in form.options:
        assert option.rule, option.path
        assert json.loads(json.dumps(option.default)) == options[option.path], option.path


@pytest.mark.parametrize("name", list(GAMES))
def test_each_example_plays_and_its_readings_part(name: str) -> None:
    form = game_info(name).load_lab_form()
    assert form is not None
    comparison = compare(Case.from_data(form.example))
    assert [trial.refusal for trial in comparison.trials] == [None, None]
    assert not comparison.same_events


def test_m3_a_case_names_the_die_s_next_rolls_and_the_lab_finds_a_seed_that_rolls_them() -> None:
    case = Case(
        "mare",
        ("Ann", "Bob"),
        BOOK,
        ("roll", "roll", "roll"),
        {"scenario": {"boat": 2, "fish": [12, 0, 6, 8]}},
        seed=0,
        outcomes={"die": ("red", "yellow", "red")},
    )
    seed = played_seed(case)
    assert seed >= 0
    assert [foresee_roll(seed, k) for k in range(3)] == ["red", "yellow", "red"]
    assert all(
        [foresee_roll(earlier, k) for k in range(3)] != ["red", "yellow", "red"]
        for earlier in range(seed)
    )
    lines = compare(case).trials[0].lines
    assert [line for line in lines if " rolls " in line] == [
        "Ann rolls red.",
        "Bob rolls yellow.",
        "Ann rolls red.",
    ]
    assert Case.from_json(case.to_json()) == case
    assert case.to_data()["outcomes"] == {"die": ["red", "yellow", "red"]}
    assert "outcomes" not in attrs.evolve(case, outcomes={}).to_data()


@pytest.mark.parametrize(
    ("outcomes", "problem"),
    [
        ({"dice": ["red"]}, "'dice' is no random draw of Avanti mare! @ $.outcomes.dice"),
        ({"die": ["purple"]}, "'purple' is none of blue, orange, yellow, pink, red, green"),
        ({"die": ["red"] * 5}, "a case names at most 4 results here @ $.outcomes.die"),
    ],
)
def test_m3_an_outcome_the_game_does_not_have_is_refused(
    outcomes: dict[str, list[str]], problem: str
) -> None:
    case = Case.from_data(
        {
            "game": "mare",
            "players": ["Ann"],
            "readings": [{"name": "a"}, {"name": "b"}],
            "outcomes": outcomes,
        }
    )
    with pytest.raises(DecodeError) as refused:
        played_seed(case)
    assert problem in str(refused.value)
    comparison = compare(case)
    assert comparison.seed is None
    assert problem in (comparison.trials[0].refusal or "")


def test_a_case_without_outcomes_is_played_with_its_own_seed() -> None:
    case = Case("mare", ("Ann",), BOOK, seed=12)
    assert played_seed(case) == 12
    assert compare(case).seed == 12
    assert MAX_SEEDS >= 6**4


def test_equal_readings_give_the_same_events_even_where_the_pictures_differ() -> None:
    """Two readings that name different options but play alike: the same events, and the
    verdict's ``same_events`` says so whatever the pictures show of the options."""
    case = Case(
        "mare",
        ("Ann", "Bob"),
        (Reading("book"), Reading("owed", {"free_fish_move_owed": True})),
        ("roll",),
        {"scenario": {"boat": 2, "fish": [12, 0, 6, 8]}},
        seed=0,
    )
    comparison = compare(case)
    assert comparison.same_events
    assert [d for d in comparison.differences if d.first or d.second] == []


GAME_WORDS = re.compile(
    "|".join(
        [
            *(re.escape(info.title) for info in GAMES.values()),
            *(
                rf"\b{re.escape(name)}\b"
                for info in GAMES.values()
                for name in (info.name, *info.formats)
                if name != "avanti"
            ),
            r"\b[AFM]\d{1,2}\b",  # a rule id of one game
        ]
    )
)
"""A game's title, its name (the flagship's name is the library's own, so only its title
counts), or a rule id of one game."""


def _python_text(path: Path) -> str:
    """Every string and comment of a Python file, without the import lines (the library's
    own package is named ``avanti``)."""
    source = path.read_text(encoding="utf-8")
    strings = [
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    comments = [line.split("#", 1)[1] for line in source.splitlines() if "#" in line]
    return "\n".join([*strings, *comments])


@pytest.mark.parametrize("path", LAB_FILES, ids=lambda path: path.name)
def test_no_file_of_the_lab_or_the_pages_names_a_game(path: Path) -> None:
    text = _python_text(path) if path.suffix == ".py" else path.read_text(encoding="utf-8")
    found = sorted({match.group(0) for match in GAME_WORDS.finditer(text)})
    assert found == [], f"{path.name} names {found}"
    if path.suffix != ".py":
        assert not re.search(r"[\"']avanti[\"']", text), f"{path.name} names the flagship game"
