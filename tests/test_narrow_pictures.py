"""The pictures' narrow layout (``picture(..., layout="narrow")``), drawn for a phone (A30).

Each game's narrow picture is 360 user units wide; on a 390-pixel phone the table page draws it
364 pixels wide, so a text of 11 units is 11.1 pixels high. The narrow picture must show what the
wide one shows: the same ``<title>`` and ``<desc>``, the same pieces (``data-piece``, and
``data-path`` on the same pieces, for the page's animations) and the same click hooks, with no
text under 11 units (a ``scale`` of a group counts) and every text starting inside the picture.

The golden pictures ``tests/golden/svg/*-narrow-*.svg`` are rewritten with
``AVANTI_REGENERATE_GOLDEN=1 pytest tests/test_narrow_pictures.py`` (review the diff).
"""

from __future__ import annotations

import itertools
import os
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from avanti import autorama, mare
from avanti import avanti as flagship
from avanti.core.errors import InvalidArgument

GOLDEN = Path(__file__).resolve().parent / "golden" / "svg"
_NS = "{http://www.w3.org/2000/svg}"
_HOOKS: tuple[str, ...] = ("data-command", "data-space", "data-card", "data-number")
_HOOKS += ("data-fish", "data-advisor", "data-vehicles", "data-seat")
_MODULES: dict[str, Any] = {"avanti": flagship, "mare": mare, "autorama": autorama}
_NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def _positions(name: str, players: int, seed: int, every: int) -> Iterator[Any]:
    """Every ``every``-th position of a game of random commands, to the end."""
    module = _MODULES[name]
    game = module.new_game(_NAMES[:players], seed=seed)
    rng = random.Random(seed)
    step = 0
    while True:
        if step % every == 0 or game.is_over:
            yield game
        if game.is_over:
            return
        game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
        step += 1


def _draw(
    name: str, game: Any, seat: int | None, layout: str, *, labels: bool = True
) -> ET.Element:
    module = _MODULES[name]
    last = game.last_events(seat)
    svg = module.picture(
        game.view(seat), table=game.public_setup, last=last, layout=layout, labels=labels
    )
    return ET.fromstring(str(svg))


def _texts(root: ET.Element) -> Iterator[tuple[ET.Element, float, float]]:
    """Every ``<text>``, its size in the picture's units (times each ancestor's scale) and its
    ``x`` in the picture's units (a translating ancestor moves it)."""

    def walk(
        node: ET.Element, scale: float, left: float
    ) -> Iterator[tuple[ET.Element, float, float]]:
        transform = node.get("transform", "")
        moved = re.search(r"translate\(([-\d.]+)", transform)
        left += scale * float(moved.group(1)) if moved else 0.0
        found = re.search(r"scale\(([\d.]+)\)", transform)
        scale *= float(found.group(1)) if found else 1.0
        if node.tag == f"{_NS}text":
            size = scale * float(node.get("font-size", "0"))
            yield node, size, left + scale * float(node.get("x", "0"))
        for child in node:
            yield from walk(child, scale, left)

    return walk(root, 1.0, 0.0)


def _hooks(root: ET.Element) -> list[tuple[tuple[str, str], ...]]:
    """What each element says a click on it does, or which piece it is (sorted)."""
    found = []
    for node in root.iter():
        hook = tuple((key, node.get(key, "")) for key in _HOOKS if key in node.attrib)
        piece = (("data-piece", node.get("data-piece", "")),) if "data-piece" in node.attrib else ()
        path = (("data-path", "yes"),) if "data-path" in node.attrib else ()
        if hook or piece:
            found.append(hook + piece + path)
    return sorted(found)


_CASES = [("avanti", 3, 1, 9), ("avanti", 5, 2, 23), ("mare", 2, 3, 4), ("mare", 5, 4, 7)]
_CASES += [("autorama", 3, 5, 5), ("autorama", 5, 6, 11)]


@pytest.mark.parametrize(("name", "players", "seed", "every"), _CASES)
def test_the_narrow_picture_shows_what_the_wide_one_shows_in_text_of_11_units(
    name: str, players: int, seed: int, every: int
) -> None:
    """A30: along a whole game, for a seat and a spectator, the narrow picture is 360 units
    wide, has the wide picture's title, description, pieces and hooks, and no text under 11
    units; each text starts inside the picture."""
    drawn = 0
    for game in _positions(name, players, seed, every):
        for seat in (0, None):
            narrow, wide = _draw(name, game, seat, "narrow"), _draw(name, game, seat, "wide")
            assert narrow.get("viewBox", "").split()[2] == "360"
            for tag in ("title", "desc"):
                assert narrow.find(f"{_NS}{tag}") is not None
                assert narrow.findtext(f"{_NS}{tag}") == wide.findtext(f"{_NS}{tag}")
            assert _hooks(narrow) == _hooks(wide)
            for node, size, x in _texts(narrow):
                assert size >= 11, (node.text, size)
                assert 0 <= x <= 360, node.text
            bare = _draw(name, game, seat, "narrow", labels=False)  # captions left out
            assert _hooks(bare) == _hooks(narrow)
            assert all(size >= 11 for _, size, _ in _texts(bare))
            drawn += 1
    assert drawn > 6


def test_the_narrow_avanti_road_runs_down_the_right_side_from_space_0() -> None:
    """A4, A30: the narrow road is an upright loop driven clockwise: with three players the cars
    pile 79 units out (17 + 12 + 3 x 14 + 8), so the loop's radius is 180 - 10 - 79 = 91 and road
    space 0 is centred at x = 180 + 91 = 271, spaces 1 and 2 under it, 40 units apart."""
    game = flagship.new_game(["Ann", "Bob", "Cy"], seed=1)
    root = _draw("avanti", game, 0, "narrow")
    circles = {
        int(group.get("data-space", "-1")): group[0]
        for group in root.iter(f"{_NS}g")
        if group.get("data-space") is not None
    }
    assert len(circles) == 34
    centres = []
    for space in (0, 1, 2):
        shape = circles[space]
        if shape.tag == f"{_NS}circle":
            centres.append((float(shape.get("cx", "0")), float(shape.get("cy", "0"))))
        else:  # a parking lot's square, 30 units a side
            centres.append((float(shape.get("x", "0")) + 15, float(shape.get("y", "0")) + 15))
    assert [x for x, _ in centres] == [271, 271, 271]
    assert centres[1][1] - centres[0][1] == pytest.approx(40, abs=0.11)
    assert centres[2][1] - centres[1][1] == pytest.approx(40, abs=0.11)


def test_the_narrow_rows_of_seats_stand_one_under_another() -> None:
    """A30: the narrow pictures give each seat a row of the full width, one under another:
    mare's rows are 50 units apart, Autorama's 104 (100 and a gap of 4)."""
    for name, step in (("mare", 50.0), ("autorama", 104.0)):
        game = _MODULES[name].new_game(["Ann", "Bob", "Cy"], seed=1)
        root = _draw(name, game, 0, "narrow")
        rows = [node for node in root.iter(f"{_NS}g") if node.get("data-seat") is not None]
        boxes = [node.find(f"{_NS}rect") for node in rows]
        tops = [float(box.get("y", "0")) for box in boxes if box is not None]
        assert [b - a for a, b in itertools.pairwise(tops)] == [step, step], name


@pytest.mark.parametrize("name", sorted(_MODULES))
def test_an_unknown_layout_is_refused_by_name(name: str) -> None:
    """A30: a layout other than "wide" and "narrow" is refused, and the error names it."""
    game = _MODULES[name].new_game(["Ann", "Bob", "Cy"], seed=1)
    with pytest.raises((InvalidArgument, ValueError), match="'tall'"):
        _MODULES[name].picture(game.view(0), table=game.public_setup, layout="tall")


_GOLDEN: dict[str, Callable[[], str]] = {
    "avanti-narrow-3p-seed1.svg": lambda: _golden("avanti", 3, 1, 12, 0),
    "mare-narrow-3p-seed12345.svg": lambda: _golden("mare", 3, 12345, 15, 0),
    "autorama-narrow-4p-seed5.svg": lambda: _golden("autorama", 4, 5, 30, 1),
}
"""Each golden narrow picture: a game of random commands after so many, as a seat sees it."""


def _golden(name: str, players: int, seed: int, commands: int, seat: int) -> str:
    module = _MODULES[name]
    game = module.new_game(_NAMES[:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(commands):
        game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
    return str(
        module.picture(
            game.view(seat), table=game.public_setup, last=game.last_events(seat), layout="narrow"
        )
    )


@pytest.mark.parametrize("file", sorted(_GOLDEN))
def test_the_narrow_picture_matches_the_golden_file(file: str) -> None:
    path = GOLDEN / file
    svg = _GOLDEN[file]()
    if os.environ.get("AVANTI_REGENERATE_GOLDEN") == "1":
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"{file} is missing: run with AVANTI_REGENERATE_GOLDEN=1"
    assert svg == path.read_text(encoding="utf-8"), (
        f"{file} differs: look at the new picture, then run with AVANTI_REGENERATE_GOLDEN=1"
    )


def test_long_names_and_other_rules_stay_inside_the_narrow_picture() -> None:
    """A30, M9: a 30-letter name is cut to 22 characters with an ellipsis in the narrow Avanti
    row (the ``<desc>`` keeps it whole); mare's line of other rules is wrapped at 46 characters,
    each line inside the 360 units."""
    long = "Maximiliana Theodora Wolkenste"
    game = flagship.new_game([long, "Bob", "Cy"], seed=1)
    root = _draw("avanti", game, 0, "narrow")
    rows = [node.text for node, _, _ in _texts(root) if (node.text or "").startswith("Maxi")]
    assert rows == ["Maximiliana The\u2026 (you)"]
    assert long in (root.findtext(f"{_NS}desc") or "")
    options = mare.Options(free_fish_move_owed=True, caught_fish_roll=mare.CaughtFishRoll.NOTHING)
    sea = mare.new_game(["Ann", "Bob"], seed=1, options=options)
    lines = [
        node.text or ""
        for node, _, x in _texts(_draw("mare", sea, None, "narrow"))
        if x == 12 and node.get("fill") == "#7a8793"
    ]
    assert len(lines) == 2
    assert lines[0].startswith("Rules (M9): ")
    assert all(len(line) <= 46 for line in lines)
