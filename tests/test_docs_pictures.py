"""The pictures beside the rulebook's illustrations in the docs (``docs/_ext/pictures.py``).

The docs draw each Avanti illustration before and after its commands, from the example script's
own ``illustration()``. These tests call the extension's drawing function, without Sphinx, and
check for every illustration that both pictures are SVG, that they differ, and one fact of each
picture a person can check against the rulebook on the default board (34 road spaces, so road
space ``(marker + distance) % 34``): where a car stands, which car it met (A11), a seat's cash or
its change (A15, A17, A21, A22), where a figure stands on the island path (A17, A19, A20, A22).

The worked examples of For Sale: Autorama and the game of Avanti mare! are drawn the same way:
the cards on the table and the cards each seat took or sold (F4-F19), a seat's own cash and no one
else's (F2), the totals (F19, F20); where each fish swims and the result (M4-M8).
"""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import avanti
from avanti import mare

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SVG = "{http://www.w3.org/2000/svg}"


def _load_extension() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "pictures", ROOT / "docs" / "_ext" / "pictures.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PICTURES = _load_extension()
draw_illustration: Callable[[Path], tuple[str, str]] = PICTURES.draw_illustration
draw_game: Callable[[object, int | None], str] = PICTURES.draw_game


# -- reading a picture -----------------------------------------------------------------------------


def titles(root: ET.Element) -> list[str]:
    """Every ``<title>`` of the picture: the whole picture's first, then each part's."""
    return [node.text or "" for node in root.iter(f"{SVG}title")]


def car_space(root: ET.Element, name: str) -> int:
    """The road space ``name``'s car is drawn on (its tooltip: "Tina's car on road space 3 ...")."""
    found = [
        int(match.group(1))
        for title in titles(root)
        if (match := re.match(rf"{name}'s car on road space (\d+)", title))
    ]
    assert len(found) == 1, found
    return found[0]


def figure_space(root: ET.Element, name: str) -> int:
    """The island space ``name``'s figure is drawn on."""
    for group in root.iter(f"{SVG}g"):
        cell = group.find(f"{SVG}rect[@class]")
        if cell is None or not cell.get("class", "").startswith("island-space"):
            continue
        if f"{name}'s figure" in titles(group):
            words = titles(cell)[0]
            match = re.match(r"island space (\d+)", words)
            assert match is not None, words
            return int(match.group(1))
    raise AssertionError(f"no figure of {name}")


def row(root: ET.Element, name: str) -> list[str]:
    """The texts of ``name``'s row in the table of seats: name, cash, island, distance, ..."""
    for group in root.iter(f"{SVG}g"):
        texts = [node.text or "" for node in group.findall(f"{SVG}text")]
        if texts and texts[1:2] and texts[1].removesuffix(" (you)") == name:
            return texts[1:]
    raise AssertionError(f"no row for {name}")


def cash(root: ET.Element, name: str) -> str:
    """``name``'s cash as the table writes it (``"6,400"``)."""
    return row(root, name)[1]


def change(root: ET.Element, name: str) -> str | None:
    """The change of ``name``'s cash in the last move (``"+1,400"``), or ``None``."""
    signed = [text for text in row(root, name) if text[:1] in ("+", "\u2212")]
    return signed[0] if signed else None


def count(root: ET.Element, kind: str) -> int:
    """How many groups of class ``kind`` (``hop``, ``figure-move``) the picture draws."""
    return sum(1 for group in root.iter(f"{SVG}g") if group.get("class") == kind)


def pale(root: ET.Element, seat: int) -> bool:
    """Whether seat's car is drawn pale, as a car out of the run is (A14)."""
    cars = [g for g in root.iter(f"{SVG}g") if g.get("class") == f"car seat-{seat}"]
    assert len(cars) == 1
    return cars[0].get("opacity") == "0.5"


# -- one fact of each picture ----------------------------------------------------------------------

Fact = Callable[[ET.Element], bool]

FACTS: dict[str, tuple[Fact, Fact]] = {
    # Every car on the marker's space 31; then Jack 3 out (space 0), Isabella 2 (33), a hop each.
    "avanti_illus03_first_moves": (
        lambda svg: all(car_space(svg, n) == 31 for n in ("Jack", "Isabella", "Tina")),
        lambda svg: (
            (car_space(svg, "Jack"), car_space(svg, "Isabella"), count(svg, "hop")) == (0, 33, 2)
        ),
    ),
    # Tina sees the 3 she laid; then she stands 6 spaces past the marker (space 3), having met
    # Jack, with the hops 3 and 6 drawn.
    "avanti_illus04_leapfrog": (
        lambda svg: "laid: drive 3" in [node.text for node in svg.iter(f"{SVG}text")],
        lambda svg: (
            car_space(svg, "Tina") == 3
            and "Tina's car met Jack's" in titles(svg)
            and count(svg, "hop") == 2
        ),
    ),
    # Tina 6 out (space 3); then Steve 12 out (space 9), having met Tina.
    "avanti_illus05_into_the_lead": (
        lambda svg: car_space(svg, "Tina") == 3 and car_space(svg, "Steve") == 31,
        lambda svg: car_space(svg, "Steve") == 9 and "Steve's car met Tina's" in titles(svg),
    ),
    # Steve leads 12 out; then William 9 out (space 6), having met Jack and Tina: three hops.
    "avanti_illus06_double_leapfrog": (
        lambda svg: car_space(svg, "Steve") == 9 and car_space(svg, "William") == 31,
        lambda svg: (
            car_space(svg, "William") == 6
            and {"William's car met Jack's", "William's car met Tina's"} <= set(titles(svg))
            and count(svg, "hop") == 3
        ),
    ),
    # Steve has 5,000; then 6,400, +1,400 from 1,000 + 100 + 300, and Tina pays nothing.
    "avanti_illus07_tolls": (
        lambda svg: cash(svg, "Steve") == "5,000" and change(svg, "Steve") is None,
        lambda svg: (
            (cash(svg, "Steve"), change(svg, "Steve"), change(svg, "Tina"))
            == ("6,400", "+1,400", None)
        ),
    ),
    # Steve's figure on island space 1 with 300; then on the start, 0 left, Isabella +1,000.
    "avanti_illus08_raising_money": (
        lambda svg: figure_space(svg, "Steve") == 1 and cash(svg, "Steve") == "300",
        lambda svg: (
            (figure_space(svg, "Steve"), cash(svg, "Steve"), change(svg, "Isabella"))
            == (0, "0", "+1,000")
            and count(svg, "figure-move") == 1
        ),
    ),
    # Steve has quit, his car pale; then Tina on the marker's space 22, William on 25, Jack on
    # 19 having used Steve's parked car.
    "avanti_illus11_end_of_run": (
        lambda svg: pale(svg, 3) and pale(svg, 1) and not pale(svg, 0),
        lambda svg: (
            (car_space(svg, "Tina"), car_space(svg, "William"), car_space(svg, "Jack"))
            == (22, 25, 19)
            and "Jack's car met Steve's" in titles(svg)
        ),
    ),
    # Every figure on the start; then William's on 3, Tina's on 2, Jack's on 1.
    "avanti_illus12_island_standings": (
        lambda svg: all(figure_space(svg, n) == 0 for n in ("William", "Tina", "Jack")),
        lambda svg: (
            [figure_space(svg, n) for n in ("William", "Tina", "Jack", "Steve")] == [3, 2, 1, 0]
            and count(svg, "figure-move") == 3
        ),
    ),
    # Isabella has 5,000; then the lots at 3, 26 and 31 pay her 200 + 300 + 500, and Steve's
    # 1,100 from the lots less his 300 toll shows as +800.
    "avanti_illus13_atms": (
        lambda svg: cash(svg, "Isabella") == "5,000",
        lambda svg: (
            (change(svg, "Isabella"), change(svg, "Tina"), change(svg, "Steve"))
            == ("+1,000", "+400", "+800")
        ),
    ),
    # Tina on the start with 5,000; then on island space 2, having paid 1,000 + 2,000.
    "avanti_illus15_investing": (
        lambda svg: figure_space(svg, "Tina") == 0 and cash(svg, "Tina") == "5,000",
        lambda svg: (
            (figure_space(svg, "Tina"), cash(svg, "Tina"), change(svg, "Tina"))
            == (2, "2,000", "\u22123,000")
        ),
    ),
    # Steve's figure on 9, Isabella's on 8; then 12 and 10, the dream island, and Steve wins.
    "avanti_illus16_dream_island": (
        lambda svg: (figure_space(svg, "Steve"), figure_space(svg, "Isabella")) == (9, 8),
        lambda svg: (
            (figure_space(svg, "Steve"), figure_space(svg, "Isabella")) == (12, 10)
            and titles(svg)[0].startswith("Avanti, run 1, game over, Steve wins")
        ),
    ),
}


# -- For Sale: Autorama and Avanti mare! ----------------------------------------------------------


def texts(root: ET.Element) -> list[str]:
    """Every ``<text>`` of the picture, in order: the captions, the values, the last move."""
    return [node.text or "" for node in root.iter(f"{SVG}text")]


def seat_row(root: ET.Element, name: str) -> ET.Element:
    """``name``'s row in the For Sale: Autorama picture (its first text is the name)."""
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == "seat" and texts(group)[:1] == [name]:
            return group
    raise AssertionError(f"no row for {name}")


def holds(root: ET.Element, name: str) -> tuple[int, int, int]:
    """How many advisors, vehicles and checks ``name``'s row says it holds, face down (F8)."""
    words = texts(seat_row(root, name))
    advisors, vehicles, checks = (int(words[words.index(pile) + 1]) for pile in "AVC")
    return advisors, vehicles, checks


def cards(root: ET.Element, name: str) -> set[str]:
    """The cards face up in ``name``'s row: this round's and the advisors kept (F12)."""
    return set(titles(seat_row(root, name)))


def description(root: ET.Element) -> str:
    """The picture in words, its ``<desc>``."""
    found = root.find(f"{SVG}desc")
    assert found is not None
    return found.text or ""


GAME_FACTS: dict[str, tuple[Fact, Fact]] = {
    # Advisors 8, 11 and 15 up, no bid; then Chloe took the 8 for nothing, Isaac the 11 for 2 of
    # his 3 (F5), Becky the 15 for her whole 4 (F6): one advisor each.
    "autorama_example_auction": (
        lambda svg: (
            {"Mechanic 8", "Controller 11", "Fleet Manager 15"} <= set(titles(svg))
            and "No bid yet" in texts(svg)
        ),
        lambda svg: (
            {
                "Chloe took Mechanic 8 and paid $0.",
                (
                    "Isaac took Controller 11 and paid $2,000 in all "
                    "($1,000 of the $3,000 bid came back)."
                ),
                "Becky took Fleet Manager 15 and paid $4,000.",
            }
            <= set(texts(svg))
            and all(holds(svg, n) == (1, 0, 0) for n in ("Isaac", "Becky", "Chloe"))
        ),
    ),
    # Becky holds the Fleet Manager 15 and 28,000; then vehicle 30 and 25,000 (F10), Chloe's
    # General Manager earned 4,000 (F11) and Isaac keeps his Lawyer 21 face up (F12).
    "autorama_example_fleet_manager": (
        lambda svg: (
            "Your cash: $28,000" in texts(svg)
            and {"vehicle 9", "vehicle 12", "vehicle 30", "Fleet Manager 15"} <= set(titles(svg))
        ),
        lambda svg: (
            "Your cash: $25,000" in texts(svg)
            and "vehicle 30" in titles(svg)
            and "Chloe received $4,000 (General Manager 29)." in texts(svg)
            and cards(svg, "Isaac") == {"Lawyer 21"}
        ),
    ),
    # The offers face up, Isaac 23, Becky 15, Chloe 14, and Chloe keeps Mechanics 7 and 8; then
    # Chloe has the $7,000 check, her Mechanic 7 spent, and Becky sold for $0 (F16, F17).
    "autorama_example_mechanic": (
        lambda svg: (
            (cards(svg, "Isaac"), cards(svg, "Becky")) == ({"vehicle 23"}, {"vehicle 15"})
            and cards(svg, "Chloe") == {"vehicle 14", "Mechanic 7", "Mechanic 8"}
        ),
        lambda svg: (
            "check $7,000" in titles(svg)
            and cards(svg, "Chloe") == {"Mechanic 8"}
            and {
                "Isaac sold vehicle 23 for a $13,000 check.",
                "Becky sold vehicle 15 for a $0 check.",
            }
            <= set(texts(svg))
        ),
    ),
    # The advisors kept for scoring face up; then the totals 39,000 (Controllers on 0 and 5),
    # 32,000 (Restoration Specialists on 2 and 8) and 10,000 (2 in cash, +6 from three Financial
    # Advisors) (F19), and Isaac wins (F20).
    "autorama_example_scoring": (
        lambda svg: (
            [cards(svg, n) for n in ("Isaac", "Becky", "Chloe")]
            == [
                {"Controller 10", "Controller 12"},
                {"Restoration Specialist 22", "Restoration Specialist 23"},
                {"Financial Advisor 25", "Financial Advisor 26", "Financial Advisor 27"},
            ]
            and "To offer: Isaac, Becky, Chloe" in texts(svg)
        ),
        lambda svg: (
            [texts(seat_row(svg, n))[1] for n in ("Isaac", "Becky", "Chloe")]
            == ["total $39,000", "total $32,000", "total $10,000"]
            and "Isaac wins." in texts(svg)
        ),
    ),
    # The pink fish alone on piece 11, the last, after Bob's yellow freed the yellow fish; then
    # Cy's orange (a caught fish's colour) takes piece 11 and the pink fish: 2-2, a draw (M7, M8).
    "mare_game": (
        lambda svg: (
            titles(svg)[0] == "Avanti mare!: Cy to roll"
            and "the pink fish is on piece 11" in description(svg)
            and "Last: Bob rolled yellow; the yellow fish swam into the sea; Cy's turn."
            in texts(svg)
        ),
        lambda svg: (
            titles(svg)[0] == "Avanti mare!: a draw (2 fish free, 2 caught)"
            and "the pink fish is caught in the boat" in description(svg)
            and "piece 11 was taken away" in titles(svg)
        ),
    ),
}


def test_every_avanti_illustration_script_has_its_facts() -> None:
    scripts = sorted(path.stem for path in EXAMPLES.glob("avanti_illus*.py"))
    assert scripts == sorted(FACTS)


def test_every_autorama_example_and_the_mare_game_have_their_facts() -> None:
    scripts = sorted(path.stem for path in EXAMPLES.glob("autorama_example_*.py"))
    assert [*scripts, "mare_game"] == sorted(GAME_FACTS)


@pytest.mark.parametrize("stem", sorted(FACTS | GAME_FACTS))
def test_illustration_pictures_before_and_after(stem: str) -> None:
    before, after = draw_illustration(EXAMPLES / f"{stem}.py")
    assert before.startswith("<svg")
    assert after.startswith("<svg")
    assert before != after
    first, second = ET.fromstring(before), ET.fromstring(after)
    assert first.tag == second.tag == f"{SVG}svg"
    check_before, check_after = (FACTS | GAME_FACTS)[stem]
    assert check_before(first), f"{stem}: the before-picture"
    assert check_after(second), f"{stem}: the after-picture"
    assert not check_after(first), f"{stem}: the after-fact holds before the commands already"


def test_illus04_is_drawn_as_tina_sees_it_and_shows_no_other_hand() -> None:
    """A30: the picture of a seat's view holds that seat's hand and no one else's."""
    before, _ = draw_illustration(EXAMPLES / "avanti_illus04_leapfrog.py")
    root = ET.fromstring(before)
    assert titles(root)[0].endswith("the table as Tina sees it")
    assert row(root, "Tina")[0] == "Tina (you)"
    # Tina was dealt cards 20, 2 and 11 and laid 20 to drive 3: those three, and no one else's.
    cards = {t for t in titles(root) if re.match(r"card \d+ \(", t)}
    assert cards == {"card 20 (3/4/7)", "card 2 (1/4/7)", "card 11 (2/4/7)"}


def test_fleet_manager_is_drawn_as_becky_sees_it_with_no_one_else_s_cash() -> None:
    """F2: Becky sees her own cash, 25,000, and neither Isaac's 28,000 nor Chloe's 32,000."""
    _, after = draw_illustration(EXAMPLES / "autorama_example_fleet_manager.py")
    root = ET.fromstring(after)
    assert titles(root)[0].endswith("as Becky sees it")
    assert "$25k" in texts(root)
    assert not {"$28k", "$32k"} & set(texts(root))
    assert "$28,000" not in after
    assert "$32,000" not in after


def test_only_an_illustration_with_lead_in_draws_the_move_before() -> None:
    """The mare picture before the last roll draws Bob's roll, the roll before it; Avanti's
    before-pictures draw no move."""
    before, _ = draw_illustration(EXAMPLES / "mare_game.py")
    assert "Bob rolled yellow" in texts(ET.fromstring(before))
    tolls, _ = draw_illustration(EXAMPLES / "avanti_illus07_tolls.py")
    assert count(ET.fromstring(tolls), "hop") == 0


def test_a_lead_in_that_is_not_a_bool_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "lead.py"
    script.write_text(
        "from avanti import mare\n"
        "class Shown:\n"
        "    before = mare.new_game(['Ann', 'Bob'], seed=1)\n"
        "    after = before.execute(mare.Roll(seat=0))\n"
        "    seat = None\n"
        "    lead_in = 'yes'\n"
        "def illustration():\n"
        "    return Shown()\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="lead_in must be True or False"):
        draw_illustration(script)


def cards_numbers(card: int) -> str:
    return "/".join(str(n) for n in avanti.DEFAULT_DECK.cards[card].numbers)


def test_a_script_without_illustration_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "plain.py"
    script.write_text("print('no illustration here')\n", encoding="utf-8")
    with pytest.raises(ValueError, match="has no function illustration"):
        draw_illustration(script)


def test_a_script_whose_after_is_not_its_before_played_on_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "other.py"
    script.write_text(
        "import avanti\n"
        "class Shown:\n"
        "    before = avanti.new_game(['Ann', 'Bob', 'Cy'], seed=1)\n"
        "    after = avanti.new_game(['Ann', 'Bob', 'Cy'], seed=2)\n"
        "    seat = None\n"
        "def illustration():\n"
        "    return Shown()\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="the game before its commands"):
        draw_illustration(script)


def quickstart_game() -> avanti.Game:
    """The game of the quickstart page (and the README)."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    game = game.execute(avanti.PlaceEventMarker(seat=0, space=12))
    return game.execute(avanti.PlayCard(seat=1, card=19, number=4))


def test_quickstart_picture_is_cy_s_view_with_bob_s_card_face_down() -> None:
    root = ET.fromstring(draw_game(quickstart_game(), 2))
    assert titles(root)[0] == "Avanti, run 1, round 1, planning: the table as Cy sees it"
    assert car_space(root, "Ann") == 12  # every car waits on the marker's space (A7)
    assert "a card laid face down" in titles(root)
    assert row(root, "Cy")[0] == "Cy (you)"
    assert {"card 23 (3/6/7)", "card 2 (1/4/7)", "card 0 (1/4/5)"} <= set(titles(root))


def test_a_notebook_shows_a_view_with_its_hand_on_the_default_board() -> None:
    """``game.view(0)`` in a notebook: seat 0's hand, but no names (a view holds none)."""
    game = quickstart_game()
    root = ET.fromstring(game.view(0)._repr_svg_() or "")
    assert titles(root)[0].endswith("the table as Seat 0 sees it")
    assert row(root, "Seat 0")[0] == "Seat 0 (you)"
    hand = game.view(0).hand
    assert hand is not None
    assert len(hand) == 3
    assert {f"card {c} ({cards_numbers(c)})" for c in hand} <= set(titles(root))
    assert "Ann" not in ET.tostring(root, encoding="unicode")
    # The game itself shows the spectator's view with its names, and no hand.
    spectator = ET.fromstring(game._repr_svg_())
    assert row(spectator, "Ann")[0] == "Ann"
    assert "Your hand" not in game._repr_svg_()


def test_draw_game_draws_a_game_with_its_own_package_s_picture() -> None:
    """Avanti mare! is drawn by ``avanti.mare.picture``: the river, the boat and the fish."""
    game = mare.new_game(["Ann", "Bob"], seed=1)
    root = ET.fromstring(draw_game(game, None))
    assert titles(root)[0].startswith("Avanti mare!")
    assert draw_game(game, None) == mare.picture(game.view(None), table=game.public_setup)
