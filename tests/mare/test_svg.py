"""SVG pictures of Avanti mare! (:func:`avanti.mare.picture`): facts checkable by hand, twins, and
golden pictures.

The geometry is in user units of an 800-wide picture: river piece ``p`` (1-11) has its left edge
at ``104 + 52 * (p - 1)`` and a fish on it is centred at ``+ 28``; the fish on one piece stand
``28`` apart from ``y = 102`` down; the boat's large piece (84 wide) starts at ``22 + 52 * boat``
(it moves up one piece per piece taken, M5); the sea's fish are centred at ``x = 730``.

The golden pictures ``tests/golden/svg/mare-*.svg`` are the pictures of :data:`GOLDEN`'s fixed
positions. A change to the drawing shows up as a failing test: look at the new picture, then
rewrite the files with ``AVANTI_REGENERATE_GOLDEN=1 pytest tests/mare/test_svg.py`` and review
the diff like any other change.
"""

from __future__ import annotations

import os
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from avanti import core
from avanti.core.svg import SEAT_COLORS
from avanti.mare import (
    CaughtFishRoll,
    DieRolled,
    Event,
    Face,
    Fish,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    FreeFishRoll,
    Game,
    GameEnded,
    MoveDeclined,
    MoveOffered,
    Options,
    PieceRemoved,
    Result,
    RollIgnored,
    Side,
    TurnPassed,
    new_game,
    picture,
)
from avanti.mare.svg import FACE_COLORS
from tests.hardening.games import SPECS

NS = "{http://www.w3.org/2000/svg}"
DEFAULT = Options()
GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "svg"


def played(names: list[str], seed: int, commands: int | None, options: Options = DEFAULT) -> Game:
    """A game that took the first legal command ``commands`` times (``None``: to the end)."""
    game = new_game(names, seed=seed, options=options)
    done = 0
    while not game.is_over and (commands is None or done < commands):
        game = game.execute(game.legal_commands()[0])
        done += 1
    return game


def seen(game: Game, seat: int | None, *, size: float | None = None, labels: bool = True) -> str:
    """``seat``'s picture of ``game``, with the names and the last command as it saw them."""
    last = game.last_events(seat)
    view = game.view(seat)
    return str(picture(view, table=game.public_setup, last=last, size=size, labels=labels))


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def fish_at(root: ET.Element, fish: Fish) -> str:
    """The ``transform`` of the drawn fish of ``fish``'s colour."""
    for group in root.iter(f"{NS}g"):
        title = group.find(f"{NS}title")
        if title is not None and title.text == f"{fish} fish":
            return group.get("transform", "")
    raise AssertionError(f"no {fish} fish drawn")


def texts(root: ET.Element) -> list[str]:
    return [node.text or "" for node in root.iter(f"{NS}text")]


def titled(root: ET.Element, words: str) -> ET.Element:
    for node in root.iter():
        title = node.find(f"{NS}title")
        if title is not None and title.text == words:
            return node
    raise AssertionError(f"nothing titled {words!r}")


# Ann, Bob and Cy, seed 12345, after 15 commands: pieces 1-5 taken; blue on piece 6, yellow and
# pink on piece 8, orange just swam into the sea; Ann to roll.
THREE = played(["Ann", "Bob", "Cy"], 12345, 15)
# Ann and Bob, seed 1, after 20 commands: Bob rolled green, piece 7 was taken with the pink fish.
CAUGHT_PINK = played(["Ann", "Bob"], 1, 20)


def test_the_picture_is_svg_with_a_title_and_a_description() -> None:
    root = parsed(seen(THREE, 0))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 800 306"
    assert [child.tag for child in root[:2]] == [f"{NS}title", f"{NS}desc"]
    assert root[0].text == "Avanti mare!: Ann to roll"
    assert root[1].text == (
        "Avanti mare! as Ann (seat 0) sees it. River: pieces 1-5 are taken; the boat stands "
        "before piece 6; 6 pieces left. The blue fish is on piece 6; the orange fish is free in "
        "the sea; the yellow fish is on piece 8; the pink fish is on piece 8. Players: Ann "
        "(seat 0, fish friends), Bob (seat 1, fisher fans), Cy (seat 2, fish friends). Now: Ann "
        "to roll. Last: Cy rolled orange; the orange fish swam into the sea; Ann's turn."
    )


def test_m1_m4_each_fish_is_drawn_on_its_piece_or_in_the_sea() -> None:
    assert THREE.view(0).fish == (6, 12, 8, 8)
    root = parsed(seen(THREE, 0))
    assert fish_at(root, Fish.BLUE) == "translate(392 102)"  # piece 6: 104 + 52 * 5 + 28
    assert fish_at(root, Fish.YELLOW) == "translate(496 102)"  # piece 8: 104 + 52 * 7 + 28
    assert fish_at(root, Fish.PINK) == "translate(496 130)"  # the second fish on piece 8
    assert fish_at(root, Fish.ORANGE) == "translate(730 102)"  # the sea


def test_m5_the_boat_moves_up_one_piece_per_piece_taken() -> None:
    root = parsed(seen(THREE, None))
    assert THREE.view(None).boat == 5
    assert titled(root, "the fishers' boat") is not None
    rects = list(root.iter(f"{NS}rect"))
    taken = [r for r in rects if r.get("stroke-dasharray")]
    river = [r for r in rects if r.get("fill") == "#bfe3ef"]
    boat = [r for r in rects if r.get("fill") == "#e8d9c0"]
    assert [r.get("x") for r in taken] == ["23", "75", "127", "179", "231"]  # pieces 1-5
    assert len(river) == 6  # pieces 6-11
    assert [r.get("x") for r in boat] == ["282"]  # 22 + 52 * 5
    words = texts(root)
    assert {"taken", "boat", "sea"} <= set(words)
    assert [w for w in words if w.isdigit()] == [str(p) for p in range(1, 12)]


def test_m5_a_caught_fish_sits_in_the_boat_and_the_taken_piece_is_crossed_out() -> None:
    assert CAUGHT_PINK.view(None).fish == (12, 9, 9, 0)
    root = parsed(seen(CAUGHT_PINK, 1))
    # The boat took piece 7, so it starts at 22 + 52 * 7 = 386; the first caught fish sits at
    # its left, 24 in, shrunk.
    assert fish_at(root, Fish.PINK) == "translate(408 100) scale(0.8)"
    assert titled(root, "piece 7 was taken away").get("stroke") == "#d62828"
    assert titled(root, "the die shows green").get("fill") == FACE_COLORS[Face.GREEN]
    assert (
        "Last: Bob rolled green; piece 7 was taken away; the pink fish was caught; Ann's turn."
        in (texts(root))
    )
    assert "the pink fish is caught in the boat" in root[1].text  # type: ignore[operator]


def test_m4_the_last_swim_is_an_arrow_and_the_die_shows_the_face() -> None:
    root = parsed(seen(THREE, 2))
    arrow = titled(root, "the orange fish swam")
    assert arrow.get("stroke") == FACE_COLORS[Face.ORANGE]
    assert arrow.get("d", "").startswith("M650 72")  # from piece 11's middle, 104 + 52 * 10 + 26
    assert titled(root, "the die shows orange").get("fill") == FACE_COLORS[Face.ORANGE]
    assert "Cy rolled orange" in texts(root)


def test_m2_each_seat_has_its_name_colour_and_side() -> None:
    root = parsed(seen(THREE, 1))
    seats = [g for g in root.iter(f"{NS}g") if g.get("data-seat") is not None]
    assert [g.get("data-seat") for g in seats] == ["0", "1", "2"]
    assert [g.find(f"{NS}circle").get("fill") for g in seats] == list(SEAT_COLORS[:3])  # type: ignore[union-attr]
    assert [[t.text for t in g.iter(f"{NS}text")] for g in seats] == [
        ["Ann", "fish friends, to roll"],
        ["Bob", "you, fisher fans"],
        ["Cy", "fish friends"],
    ]
    # The seat whose turn it is has a frame in its colour.
    assert seats[0].find(f"{NS}rect").get("stroke") == SEAT_COLORS[0]  # type: ignore[union-attr]


def test_m6_a_move_offered_is_said_with_may_or_must() -> None:
    game = played(["Ann", "Bob", "Cy"], 12345, 18)
    assert game.view(None).move_due
    root = parsed(seen(game, None))
    assert root[0].text == "Avanti mare!: Cy may move another fish"
    assert "fish friends, to move" in texts(root)
    owed = Options(boat_faces=(Face.RED,), free_fish_move_owed=True)
    game = new_game(["Ann"], seed=3, options=owed)
    while not game.view(None).move_due:
        game = game.execute(game.legal_commands()[0])
    root = parsed(seen(game, 0))
    assert root[0].text == "Avanti mare!: Ann must move another fish"
    assert "Rules (M9): the boat moves on red; the move of M6 is owed" in texts(root)


def test_m9_readings_other_than_the_rulebook_s_are_written_under_the_picture() -> None:
    options = Options(
        boat_faces=(), caught_fish_roll=CaughtFishRoll.NOTHING, free_fish_roll=FreeFishRoll.REROLL
    )
    root = parsed(picture(new_game(["Ann"], seed=1, options=options).view(0)))
    words = (
        "Rules (M9): the boat never moves; a caught fish's colour: nothing; "
        "a free fish's colour: reroll"
    )
    assert words in texts(root)
    assert root[1].text.endswith(words + ".")  # type: ignore[union-attr]
    assert root.get("viewBox") == "0 0 800 322"  # one line more than 306
    assert "Rules (M9)" not in picture(THREE.view(0))


def test_m8_the_result_and_the_winners() -> None:
    game = played(["Ann", "Bob"], 3, None)
    assert game.view(None).result is Result.FISHERS
    root = parsed(seen(game, None))
    assert root[0].text == "Avanti mare!: the fisher fans win (0 fish free, 4 caught)"
    assert "Game over: the fisher fans win (0 fish free, 4 caught)" in texts(root)
    assert "fisher fans, wins" in texts(root)
    assert "fish friends" in texts(root)


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (DieRolled(0, Face.RED), "Ann rolled red"),
        (FishChosen(0, Fish.PINK), "Ann moved the pink fish"),
        (MoveDeclined(0), "Ann moved no fish"),
        (FishSwam(Fish.BLUE, 7), "the blue fish swam to piece 7"),
        (FishFreed(Fish.BLUE), "the blue fish swam into the sea"),
        (PieceRemoved(1), "piece 1 was taken away"),
        (FishCaught(Fish.BLUE, 1), "the blue fish was caught"),
        (MoveOffered(1, Fish.BLUE), "the blue fish is free: Bob may move another fish"),
        (RollIgnored(1, Face.GREEN, True), "green did nothing, roll again"),
        (RollIgnored(1, Face.GREEN, False), "green did nothing"),
        (TurnPassed(1), "Bob's turn"),
        (GameEnded(Result.DRAW, 2, 2), "the game is over"),
    ],
)
def test_every_event_of_the_last_command_is_said(event: Event, words: str) -> None:
    game = new_game(["Ann", "Bob"], seed=5)
    svg = picture(game.view(0), table=game.public_setup, last=(event,))
    assert f"Last: {words}." in texts(parsed(svg))


def test_options_size_colors_and_labels() -> None:
    view = THREE.view(None)
    small = parsed(picture(view, size=400, labels=False, colors=("#000001", "#000002")))
    assert (small.get("width"), small.get("height")) == ("400", "153")
    circles = [g.find(f"{NS}circle") for g in small.iter(f"{NS}g") if g.get("data-seat")]
    assert [c.get("fill") for c in circles if c is not None] == ["#000001", "#000002", "#000001"]
    words = texts(small)
    assert not {"sea", "boat", "taken", "B", "O", "Y", "P"} & set(words)
    assert not [w for w in words if w.isdigit()]
    # Without the table the seats are numbered; without ``last`` nothing is said to have happened.
    assert {"Seat 0", "Seat 1", "Seat 2", "Seat 0 to roll"} <= set(words)
    assert "No command yet." in words
    assert "the die shows" not in picture(view)


def test_bad_options_are_refused() -> None:
    view = THREE.view(None)
    with pytest.raises(core.InvalidArgument, match="colors"):
        picture(view, colors=())
    other = new_game(["Ann", "Bob"], seed=1).public_setup
    with pytest.raises(core.InvalidArgument, match="other sides"):
        picture(view, table=other)
    swapped = new_game(["A", "B", "C"], seed=1, sides=[Side.FISHER_FANS] * 3).public_setup
    with pytest.raises(core.InvalidArgument):
        picture(view, table=swapped)


def test_last_events_are_the_tail_from_the_last_roll_or_move() -> None:
    fresh = new_game(["Ann"], seed=1)
    assert fresh.last_events() == ()
    assert CAUGHT_PINK.last_events() == (
        DieRolled(1, Face.GREEN),
        PieceRemoved(7),
        FishCaught(Fish.PINK, 7),
        TurnPassed(0),
    )


def test_repr_svg_of_a_view_and_of_a_game() -> None:
    view = THREE.view(1)
    assert view._repr_svg_() == str(picture(view))
    spectator = picture(THREE.view(None), table=THREE.public_setup, last=THREE.last_events())
    assert THREE._repr_svg_() == str(spectator)
    assert "Cy rolled orange" in THREE._repr_svg_()
    assert picture(view)._repr_svg_() == str(picture(view))


# -- hidden information: only the seed of the die is secret (M3) -----------------------------

MARE = next(spec for spec in SPECS if spec.name == "mare")


@pytest.mark.parametrize("n", range(3))
def test_twins_give_every_seat_the_same_picture(n: int) -> None:
    players = 2 + n
    game = MARE.start(10**15 + 7919 * n, players, None)
    assert isinstance(game, Game)
    for step in range(40):
        if step % 13 == 0 or game.is_over:
            for seat in (None, *range(players)):
                twin = MARE.twin(game, seat, random.Random(n * 100 + step))
                assert isinstance(twin, Game)
                assert twin.setup.seed != game.setup.seed
                mine = seen(game, seat)
                assert seen(twin, seat) == mine
                assert str(game.setup.seed) not in mine
                assert str(twin.setup.seed) not in mine
                assert "seed" not in mine
        if game.is_over:
            break
        game = game.execute(game.legal_commands()[0])


# -- golden pictures -------------------------------------------------------------------------

GOLDEN: dict[str, Callable[[], str]] = {
    # Cy's view after 18 commands of Ann, Bob and Cy (seed 12345): Cy may move another fish.
    "mare-3p-seed12345-move.svg": lambda: seen(played(["Ann", "Bob", "Cy"], 12345, 18), 2),
    # Bob's view after 20 commands of Ann and Bob (seed 1): the pink fish was just caught.
    "mare-2p-seed1-caught.svg": lambda: seen(CAUGHT_PINK, 1),
    # A spectator's small picture, without labels, of a whole game of five (seed 9): a draw.
    "mare-5p-seed9-end.svg": lambda: seen(
        played(["Ann", "Bob", "Cy", "Dee", "Eve"], 9, None), None, size=480, labels=False
    ),
}
"""Each golden picture's file name and how to draw it now."""


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_picture_matches_the_golden_file(name: str) -> None:
    path = GOLDEN_DIR / name
    svg = GOLDEN[name]()
    if os.environ.get("AVANTI_REGENERATE_GOLDEN") == "1":
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"{name} is missing: run with AVANTI_REGENERATE_GOLDEN=1"
    assert svg == path.read_text(encoding="utf-8"), (
        f"{name} differs: look at the new picture, then run with AVANTI_REGENERATE_GOLDEN=1"
    )
    assert len(svg) < 20_000
    assert re.fullmatch(r"<svg .*</svg>", svg, re.DOTALL)
