"""SVG pictures of Avanti (:mod:`avanti.avanti.svg`): drawn from a view, so they show a seat
exactly what it may see (A30).

The positions are the rulebook's (Illus. 3-7: William's leapfrog and Steve's collection; Illus.
11-13: the end of a run) and a fresh three-player deal, with the rulebook's players in seats 0-4
(Jack, Isabella, Tina, Steve, William).

Golden pictures: ``tests/golden/svg/avanti-*.svg`` hold the pictures of three fixed positions, so
that a change to the drawing shows in review. After a deliberate change, rewrite them with::

    AVANTI_REGENERATE_GOLDEN=1 python -m pytest tests/avanti/test_svg.py

(each golden test then writes its file and passes), look at the new pictures, and commit them.
"""

from __future__ import annotations

import json
import os
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

import avanti
from avanti import (
    Board,
    Game,
    Phase,
    PlaceEventMarker,
    Space,
    TollPaid,
    picture,
)
from avanti.core import InvalidArgument
from avanti.core.svg import SEAT_COLORS
from tests.avanti.support import (
    ISABELLA,
    JACK,
    STEVE,
    TINA,
    WILLIAM,
    drive_round,
    hands_for,
    lay,
    scenario_game,
)
from tests.hardening.games import SPECS

SVG = "{http://www.w3.org/2000/svg}"
OPENER = 0
"""Tina's seat in :func:`opening` (the rulebook's seats put her in seat 2 elsewhere)."""
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "svg"
AVANTI = next(spec for spec in SPECS if spec.name == "avanti")


def first_round() -> Game:
    """Illus. 3-7: marker on space 31; Jack 3, Isabella 2, Tina 3 (bumps Jack), Steve 6 (bumps
    Tina), William 3 (bumps Jack, then Tina); Steve leads and collects 1,000 + 100 + 300."""
    game = scenario_game(
        marker=31,
        distances=(0, 0, 0, 0, 0),
        hands=hands_for((3, 1, 2), (2, 1, 3), (3, 1, 2), (6, 1, 2), (3, 1, 2)),
    )
    game = lay(game, (JACK, 3), (ISABELLA, 2), (TINA, 3), (STEVE, 6), (WILLIAM, 3))
    return drive_round(game)


def end_of_run() -> Game:
    """Illus. 11-13: the last round of a run (marker on space 22), its standings and ATMs."""
    game = scenario_game(
        marker=22,
        distances=(29, 15, 28, 30, 31),
        hands=((), (), (), (), ()),
        quit=(False, True, False, True, False),
        laid=((0, 1), None, (18, 3), None, (19, 3)),
        phase=Phase.DRIVING,
        round=5,
    )
    return drive_round(game)


def opening() -> Game:
    """Seed 1, three players: Tina puts the marker on space 5, then lays card 13 for a 2."""
    game = avanti.new_game(("Tina", "Jack", "Steve"), 1).execute(PlaceEventMarker(0, 5))
    return game.execute(avanti.PlayCard(0, 13, 2))


def draw(
    game: Game,
    seat: int | None,
    *,
    size: float | None = None,
    colors: tuple[str, ...] = SEAT_COLORS,
    labels: bool = True,
) -> str:
    """``seat``'s picture of ``game`` with its own board, names and last command."""
    view, table, last = game.view(seat), game.public_setup, game.last_events(seat)
    svg = picture(view, size=size, colors=colors, labels=labels, last=last, table=table)
    return str(svg)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def titles(root: ET.Element, kind: str) -> list[str]:
    """The tooltips of the elements whose class starts with ``kind`` (or of their shapes)."""
    found = []
    for node in root.iter():
        if (node.get("class") or "").split(" ")[0] == kind:
            title = node.find(f"{SVG}title")
            if title is None:
                title = node.find(f"*/{SVG}title")
            found.append("" if title is None or title.text is None else title.text)
    return found


def of_class(root: ET.Element, kind: str) -> list[ET.Element]:
    return [node for node in root.iter() if kind in (node.get("class") or "").split(" ")]


def desc(root: ET.Element) -> str:
    node = root.find(f"{SVG}desc")
    assert node is not None
    assert node.text is not None
    return node.text


def figures_on(root: ET.Element) -> dict[int, list[int]]:
    """The seats whose figure stands on each island space, read from the picture."""
    found: dict[int, list[int]] = {}
    for group in root.iter(f"{SVG}g"):
        cell = group.find(f"{SVG}rect")
        if cell is None or "island-space" not in (cell.get("class") or ""):
            continue
        spot = int(cell.findtext(f"{SVG}title", "").split(":")[0].split()[-1])
        for figure in group.iter(f"{SVG}circle"):
            seat = (figure.get("class") or "").removeprefix("figure seat-")
            found.setdefault(spot, []).append(int(seat))
    return found


def shown_text(root: ET.Element) -> list[str]:
    """Every line of text drawn on the picture."""
    return [node.text or "" for node in root.iter(f"{SVG}text")]


# -- the picture as a document -----------------------------------------------------------------


def test_a30_the_picture_is_svg_with_a_title_and_a_description() -> None:
    root = parse(draw(first_round(), JACK))
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    first, second = list(root)[:2]
    assert first.tag == f"{SVG}title"
    assert first.text == "Avanti, run 1, round 2, planning: the table as Jack sees it"
    assert second.tag == f"{SVG}desc"
    assert "Steve (seat 4), car on road space 9 (toll 200), 12 spaces driven" in desc(root)


def test_a30_a_spectator_is_named_as_one_and_sees_no_hand() -> None:
    root = parse(draw(first_round(), None))
    assert root.findtext(f"{SVG}title", "").endswith("the table as a spectator sees it")
    assert "Your hand" not in shown_text(root)
    assert of_class(root, "card") == []
    assert "Your hand" not in desc(root)


# -- the road, the cars and the last move (Illus. 3-7) -------------------------------------------


def test_a4_the_road_shows_every_toll_and_parking_lot() -> None:
    """34 spaces on the default board, 7 of them parking lots (A4)."""
    root = parse(draw(first_round(), JACK))
    spaces = titles(root, "space")
    assert len(spaces) == 34
    assert len(of_class(root, "parking")) == 7
    assert spaces[3] == "road space 3 (parking lot, ATM 200)"
    assert spaces[6] == "road space 6 (toll 1,000)"


def test_a7_a12_the_marker_and_each_car_on_its_road_space() -> None:
    """Marker on 31: Jack drove 3 (space 0), Isabella 2 (33), Tina 6 (3), Steve 12 (9) and
    William 9 (6), as in Illus. 7."""
    root = parse(draw(first_round(), JACK))
    assert titles(root, "marker") == ["event marker: road space 31 (parking lot, ATM 500)"]
    cars = titles(root, "car")
    assert sorted(cars) == [
        "Isabella's car on road space 33 (toll 300)",
        "Jack's car on road space 0 (toll 100)",
        "Steve's car on road space 9 (toll 200)",
        "Tina's car on road space 3 (parking lot, ATM 200)",
        "William's car on road space 6 (toll 1,000)",
    ]


def test_each_car_is_numbered_as_people_number_the_seats() -> None:
    """A car carries its seat's number as the page says it ("playing Ann (seat 1)"): the first
    seat's car reads 1, the fifth's 5; never a seat counted from 0."""
    root = parse(draw(first_round(), JACK))
    numbers = {
        car.get("data-piece"): [text.text for text in car.iter("{http://www.w3.org/2000/svg}text")]
        for car in root.iter("{http://www.w3.org/2000/svg}g")
        if "car" in (car.get("class") or "").split()
    }
    assert numbers == {f"car-{seat}": [str(seat + 1)] for seat in range(5)}


def test_a11_the_hops_of_williams_leapfrog_are_drawn() -> None:
    """William drove 3 from 31: onto Jack at 0, on to Tina at 3, on to 6: three hops, two
    meetings (Illus. 6)."""
    game = first_round()
    root = parse(draw(game, JACK))
    hops = of_class(root, "hop")
    assert len(hops) == 3
    assert {hop.get("stroke") for hop in hops} == {SEAT_COLORS[WILLIAM]}
    assert titles(root, "bump") == ["William's car met Jack's", "William's car met Tina's"]


def test_a11_williams_drive_is_a_path_a_page_can_follow() -> None:
    """William's car (data-piece ``car-4``) carries the 10 points of its drive, one per road
    space from the marker's 31 round to 5 (distances 0-8), then where it stands, on 6 (three
    hops of 3: distance 9); the points where it met Jack on 0 and Tina on 3 (distances 3 and 6)
    are marked as leapfrogs. No other car has a path."""
    root = parse(draw(first_round(), JACK))
    cars = {node.get("data-piece"): node for node in root.iter() if node.get("data-piece")}
    assert {f"car-{seat}" for seat in range(5)} <= set(cars)
    assert all(cars[f"car-{seat}"].get("data-path") is None for seat in range(4))
    path = json.loads(cars["car-4"].get("data-path") or "[]")
    assert len(path) == 10
    assert [index for index, point in enumerate(path) if len(point) == 3] == [3, 6]
    rect = cars["car-4"].find(f"{SVG}rect")
    assert rect is not None
    centre = [
        float(rect.get("x", "0")) + float(rect.get("width", "0")) / 2,
        float(rect.get("y", "0")) + float(rect.get("height", "0")) / 2,
    ]
    assert path[-1] == pytest.approx(centre, abs=0.1)
    assert {f"cash-{seat}" for seat in range(5)} <= set(cars)
    assert {f"figure-{seat}" for seat in range(5)} <= set(cars)


def test_a15_the_tolls_paid_show_as_changes_of_cash() -> None:
    """Steve collects 1,000 from William, 100 from Jack and 300 from Isabella (Illus. 7)."""
    root = parse(draw(first_round(), JACK))
    text = shown_text(root)
    assert {"+1,400", "\u22121,000", "\u2212100", "\u2212300"} <= set(text)
    assert "6,400" in text
    assert "4,000" in text
    assert "William pays 1,000 to Steve." in text
    assert "cash 6,400" in desc(root)


# -- the island path and the end of a run (Illus. 11-13) ------------------------------------------


def test_a5_the_island_path_shows_prices_unpriced_spaces_and_the_dream_island() -> None:
    root = parse(draw(end_of_run(), None))
    cells = titles(root, "island-space")
    assert len(cells) == 13
    assert cells[0] == "island space 0: start"
    assert cells[8] == "island space 8: 5,000"
    assert cells[9] == "island space 9: no price"
    assert cells[12] == "island space 12: no price, dream island"
    assert len(of_class(root, "dream")) == 3


def test_a19_the_figures_stand_and_move_on_the_island() -> None:
    """William moves 3 island spaces, Tina 2 and Jack 1 (Illus. 12)."""
    root = parse(draw(end_of_run(), None))
    assert figures_on(root) == {0: [ISABELLA, STEVE], 1: [JACK], 2: [TINA], 3: [WILLIAM]}
    moves = of_class(root, "figure-move")
    assert [move.get("stroke") for move in moves] == [
        SEAT_COLORS[WILLIAM],
        SEAT_COLORS[TINA],
        SEAT_COLORS[JACK],
    ]
    assert "William (seat 5), car on road space 25 (toll 100), 37 spaces driven" in desc(root)


def test_a21_the_atms_paid_show_as_gains() -> None:
    """Tina withdraws 400, Isabella 300 + 500 + 200 and more (Illus. 13)."""
    root = parse(draw(end_of_run(), None))
    assert "Tina withdraws 400 at the ATM on road space 22." in desc(root)
    assert "+400" in shown_text(root)


# -- what each seat sees (A30) ------------------------------------------------------------------


def test_a8_a30_the_seat_sees_its_own_hand_and_laid_card() -> None:
    """Tina laid card 13 (2/5/7) for a 2; her hand is cards 23 and 3."""
    root = parse(draw(opening(), OPENER))
    cards = titles(root, "card")
    assert cards == ["card 23 (3/6/7)", "card 3 (1/5/6)", "card 13 (2/5/7)"]
    assert len(of_class(root, "laid")) == 1
    assert "laid: drive 2" in shown_text(root)
    assert "You laid card 13 (2/5/7) to drive 2." in desc(root)


def test_a8_a30_others_see_a_laid_card_face_down_only() -> None:
    game = opening()
    for seat in (1, 2, None):
        svg = draw(game, seat)
        root = parse(svg)
        assert titles(root, "card-back").count("a card laid face down") == 1
        assert re.search(r"\bcard 13\b", svg) is None
        assert "drive 2" not in svg


def test_a30_last_events_are_redacted_for_the_seat_again() -> None:
    """Given the full log's events, the picture still shows only what the seat may see."""
    game = opening()
    full = game.events[-1:]
    assert full == (avanti.CardPlayed(0, 13, 2),)
    jack = game.view(1)
    assert picture(jack, table=game.public_setup, last=full) == picture(
        jack, table=game.public_setup, last=game.last_events(1)
    )


@pytest.mark.parametrize(("seed", "players"), [(11, 3), (12, 5)])
def test_a30_a_twin_game_draws_the_same_picture_and_no_hidden_card(seed: int, players: int) -> None:
    """At several steps of a seeded game, for every seat and a spectator: a game that differs
    only in what the seat may not know gives the same picture, and no card of another hand, of
    another seat's laid card or of the draw pile is named in it."""
    game = avanti.new_game(("Jack", "Isabella", "Tina", "Steve", "William")[:players], seed)
    choices = random.Random(seed)
    differed = 0
    for step in range(61):
        if step % 12 == 0:
            for seat in (None, *range(players)):
                twin: Game = AVANTI.twin(game, seat, random.Random(step))  # type: ignore[assignment]
                differed += twin.state != game.state
                svg = draw(game, seat)
                assert draw(twin, seat) == svg, f"step {step}, seat {seat}"
                state = game.state
                hidden = set(state.draw)
                for other in range(players):
                    if other != seat:
                        hidden |= set(state.hands[other])
                        laid = state.laid[other]
                        hidden |= set() if laid is None else {laid[0]}
                named = {int(n) for n in re.findall(r"\bcard (\d+)\b", svg)}
                assert not named & hidden, f"step {step}, seat {seat}"
        legal = game.legal_commands()
        if not legal:
            break
        game = game.execute(choices.choice(legal))
    assert differed > 0  # the twins did hide something


# -- options, notebooks, errors --------------------------------------------------------------------


def test_options_size_colors_and_labels() -> None:
    game = first_round()
    natural = parse(draw(game, JACK))
    root = parse(draw(game, JACK, size=392.5))
    assert root.get("viewBox") == natural.get("viewBox") == "0 0 785 1040"
    assert (natural.get("width"), natural.get("height")) == ("785", "1040")
    assert (root.get("width"), root.get("height")) == ("392.5", "520")
    root = parse(draw(game, JACK, colors=("red", "blue")))
    fills = [car.find(f"{SVG}rect") for car in of_class(root, "car")]
    assert {rect.get("fill") for rect in fills if rect is not None} == {"red", "blue"}
    numbers = set(shown_text(parse(draw(game, JACK))))
    unlabelled = set(shown_text(parse(draw(game, JACK, labels=False))))
    assert {"31", "32", "33"} <= numbers - unlabelled


def test_without_a_table_the_default_board_is_drawn_and_seats_are_numbered() -> None:
    game = first_round()
    root = parse(str(picture(game.view(JACK))))
    assert "Seat 3's car on road space 9 (toll 200)" in titles(root, "car")
    assert "Seat 0 (you)" in shown_text(root)


def test_repr_svg_of_a_view_and_of_a_game() -> None:
    game = first_round()
    view = game.view(STEVE)
    assert view._repr_svg_() == str(picture(view))
    spectator = picture(game.view(None), table=game.public_setup, last=game.last_events())
    assert game._repr_svg_() == str(spectator)
    assert "William pays 1,000 to Steve." in game._repr_svg_()


def big_board_game() -> Game:
    """A game on a 40-space road, its marker on space 38: past the default board's end."""
    track = tuple(Space.parking(300) if i % 5 == 2 else Space.toll(100) for i in range(40))
    board = Board(track, avanti.DEFAULT_BOARD.island, 3)
    game = avanti.new_game(("Ann", "Bob", "Cy"), 5, board=board)
    return game.execute(PlaceEventMarker(0, 38))


def test_a_view_off_the_default_board_draws_only_with_its_table() -> None:
    game = big_board_game()
    view = game.view(1)
    assert view._repr_svg_() is None
    with pytest.raises(InvalidArgument, match="default board"):
        picture(view)
    root = parse(draw(game, 1))
    assert len(titles(root, "space")) == 40
    assert titles(root, "marker") == ["event marker: road space 38 (toll 100)"]


def test_every_shape_of_the_largest_board_lies_inside_the_picture() -> None:
    """100 road spaces and 40 island spaces (the bounds of A4, A5), five cars at the start."""
    track = tuple(Space.parking(100_000) if i % 9 == 4 else Space.toll(i * 10) for i in range(100))
    island = (None, *(1000 * (1 + i // 4) for i in range(39)), None)
    game = avanti.new_game(("A", "B", "C", "D", "E"), 3, board=Board(track, island, 1))
    game = play_randomly_from(game, 30)
    root = parse(draw(game, 2))
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    for node in root.iter(f"{SVG}circle"):
        assert 0 <= float(node.get("cx", "")) <= width
        assert 0 <= float(node.get("cy", "")) <= height
    for node in root.iter(f"{SVG}rect"):
        assert 0 <= float(node.get("x", "0")) <= width
        assert 0 <= float(node.get("y", "0")) <= height
    assert len(titles(root, "island-space")) == 41


def play_randomly_from(game: Game, commands: int) -> Game:
    choices = random.Random(commands)
    for _ in range(commands):
        legal = game.legal_commands()
        if not legal:
            break
        game = game.execute(choices.choice(legal))
    return game


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"colors": ()}, "colors"),
        ({"colors": ("red", 7)}, "colors"),
        ({"size": 0}, "size"),
        ({"size": float("nan")}, "size"),
        ({"last": (object(),)}, "not an Avanti event"),
        ({"last": (TollPaid(7, 0, 100),)}, "does not fit"),
        ({"last": (avanti.FigureAdvanced(0, 1, 0, 13),)}, "does not fit"),
    ],
)
def test_bad_options_are_refused(bad: dict[str, object], words: str) -> None:
    game = first_round()
    with pytest.raises(InvalidArgument, match=words):
        picture(game.view(0), table=game.public_setup, **bad)  # type: ignore[arg-type]


def test_a_view_of_another_table_size_is_refused() -> None:
    three = avanti.new_game(("Ann", "Bob", "Cy"), 1)
    with pytest.raises(InvalidArgument, match="3 seats but table has 5"):
        picture(three.view(0), table=first_round().public_setup)


def test_last_events_are_the_tail_from_the_last_commands_first_event() -> None:
    game = avanti.new_game(("Tina", "Jack", "Steve"), 1)
    assert game.last_events() == ()
    game = game.execute(PlaceEventMarker(0, 5))
    assert game.last_events() == (avanti.EventMarkerPlaced(0, 5),)
    game = game.execute(avanti.PlayCard(0, 13, 2))
    assert game.last_events(0) == (avanti.CardPlayed(0, 13, 2),)
    assert game.last_events(1) == (avanti.CardPlayed(0, None, None),)
    with pytest.raises(avanti.IllegalCommand):
        game.last_events(3)


# -- golden pictures ---------------------------------------------------------------------------

GOLDEN_CASES: dict[str, tuple[Callable[[], Game], int | None]] = {
    "avanti-5p-seed1-leapfrog.svg": (first_round, JACK),
    "avanti-5p-seed1-run-end.svg": (end_of_run, None),
    "avanti-3p-seed1-laid.svg": (opening, OPENER),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_the_picture_matches_the_golden_file(name: str) -> None:
    make, seat = GOLDEN_CASES[name]
    svg = draw(make(), seat)
    path = GOLDEN / name
    if os.environ.get("AVANTI_REGENERATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg + "\n", encoding="utf-8")
    assert path.exists(), f"{name} is missing: run with AVANTI_REGENERATE_GOLDEN=1"
    assert path.read_text(encoding="utf-8") == svg + "\n", (
        f"{name} differs: look at the new picture, then run with AVANTI_REGENERATE_GOLDEN=1"
    )
    assert len(svg.encode()) < 40_000  # small enough to embed in a page
