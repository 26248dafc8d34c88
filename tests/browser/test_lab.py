"""The rules lab in headless Chromium (``/lab``): the position of Illus. 11-13 built by clicks
on the picture (the cars) and by typing (the rest), a hand seen on the board by its seat only,
the two A21 readings compared, the exported test run with pytest, a refusal per game with its
rule's id, a link that reloads its case, and a saved game stepped back and forth with each
picture as the library draws it (A4, A8, A12, A21, F1, M5)."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import avanti
from avanti import autorama, mare
from tests.server.support import Served

SOURCE = Path(avanti.__file__).parents[1]
VIEWPORT = {"width": 1000, "height": 760}
ROOT = Path(__file__).parents[2]
A21 = json.loads((ROOT / "docs/lab/avanti-a21-last-car.json").read_text(encoding="utf-8"))
START = avanti.lab.Case.from_data(
    {**A21, "setup": {"scenario": {**A21["setup"]["scenario"], "distances": [0, 0, 0, 0, 0]}}}
)
"""The case of the A21 question with every car still on the start space (road space 22)."""
SPACES = {0: 17, 1: 3, 2: 16, 3: 18, 4: 19}
"""Where each car of Illus. 11 stands: road space (22 + distance) % 34 for the distances 29,
15, 28, 30, 31 (A4, A12; the road has 34 spaces)."""
ILLUS_11 = {
    "scenario.marker": "22",
    "scenario.quit": "[false, true, false, true, false]",
    "scenario.laid": "[[0, 1], null, [18, 3], null, [19, 3]]",
    "scenario.round": "5",
}
"""The end of the run of Illus. 11 (examples/avanti_illus11_end_of_run.py): the marker on road
space 22, Isabella (15) and Steve (30) have quit, Tina, William and Jack still to drive."""


def lab(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=VIEWPORT).new_page()  # type: ignore[arg-type]
    page.goto(url)
    expect(page.locator("#verdict")).not_to_have_text("Not played yet.")
    return page


def field(page: Page, path: str) -> str:
    return "#field-" + path.replace(".", "-")


def test_a21_illus_11_to_13_two_readings_and_the_exported_test(
    browser: Browser, served: Served, screens: Path, tmp_path: Path
) -> None:
    page = lab(browser, f"{served.url}/lab#{START.to_fragment()}")
    page.fill("#players", "Jack, Isabella, Tina, Steve, William")
    page.fill("#seed", "1")
    for path, value in ILLUS_11.items():
        page.fill(field(page, path), value)
    distances = [0, 0, 0, 0, 0]
    for seat, space in SPACES.items():
        page.click(f'#board [data-piece="car-{seat}"]')
        expect(page.locator(f'#board [data-piece="car-{seat}"]')).to_have_class(
            re.compile("chosen")
        )
        page.click(f'#board [data-space="{space}"] .space')
        distances[seat] = (space - 22) % 34
        expect(page.locator(field(page, "scenario.distances"))).to_have_value(
            json.dumps(distances, separators=(",", ":"))
        )
        expect(page.locator(f'#board [data-piece="car-{seat}"] title')).to_have_text(
            re.compile(f"on road space {space}\\b")
        )
    assert distances == [29, 15, 28, 30, 31]
    page.fill("#name-0", "The last car counts the leader")
    page.fill("#options-0", '{"atm_last_car_wraps": true}')
    page.fill("#name-1", "The last car has no car behind it")
    page.fill("#options-1", '{"atm_last_car_wraps": false}')
    page.fill("#commands", "drive\ndrive\ndrive")
    page.click("#play")
    marked = page.locator("#side-0 mark")
    expect(marked).to_have_count(2)
    expect(page.locator("#side-1 mark")).to_have_count(0)
    assert marked.all_inner_texts() == [
        "Isabella withdraws 300 at the ATM on road space 26.",
        "Isabella withdraws 500 at the ATM on road space 31.",
    ]
    withdrawals = [
        [
            line
            for line in page.locator(f"#side-{i} li li").all_inner_texts()
            if "Isabella w" in line
        ]
        for i in (0, 1)
    ]
    assert withdrawals == [
        [
            "Isabella withdraws 200 at the ATM on road space 3.",
            "Isabella withdraws 300 at the ATM on road space 26.",
            "Isabella withdraws 500 at the ATM on road space 31.",
        ],
        ["Isabella withdraws 200 at the ATM on road space 3."],
    ]
    if os.environ.get("AVANTI_SCREENS"):
        page.locator("section:has(#case-heading)").screenshot(path=screens / "lab-position.png")
        page.locator("section:has(#answer-heading)").screenshot(path=screens / "lab-avanti.png")
    test = page.locator("#test").input_value()
    assert "def test_" in test
    (tmp_path / "test_a21_from_the_lab.py").write_text(test, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SOURCE)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout
    page.context.close()


def test_a4_a5_the_marker_moves_under_the_cars_and_a_figure_moves_on_the_island(
    browser: Browser, served: Served
) -> None:
    """Illus. 11's cars stand on road spaces 17, 3, 16, 18 and 19. Moving the event marker
    from space 22 to space 0 by clicks leaves each car where it stands: the distances, which
    count from the marker (A4), become 17, 3, 16, 18 and 19. A click on Tina's figure, then on
    island space 3, puts her figure there (A5)."""
    case = avanti.lab.Case.from_data(A21)
    page = lab(browser, f"{served.url}/lab#{case.to_fragment()}")
    expect(page.locator(field(page, "scenario.island"))).to_have_count(0)
    ring = page.locator('#board [data-piece="marker"]')
    box = ring.bounding_box()
    assert box is not None
    ring.click(position={"x": 2, "y": box["height"] / 2})  # on the ring, not inside it
    expect(page.locator("#chosen")).to_have_text(re.compile("^The event marker chosen"))
    page.click('#board [data-space="0"] .space')
    expect(page.locator(field(page, "scenario.marker"))).to_have_value("0")
    expect(page.locator(field(page, "scenario.distances"))).to_have_value("[17,3,16,18,19]")
    expect(page.locator("#board circle.marker title")).to_have_text(
        re.compile(r"event marker: road space 0\b")
    )
    for seat, space in SPACES.items():
        expect(page.locator(f'#board [data-piece="car-{seat}"] title')).to_have_text(
            re.compile(f"on road space {space}\\b")
        )
    page.click('#board [data-piece="figure-2"]')
    expect(page.locator("#chosen")).to_have_text(re.compile("^Tina's figure chosen"))
    page.locator("#board rect.island-space").nth(3).click()
    expect(page.locator(field(page, "scenario.island"))).to_have_value("[0,0,3,0,0]")
    spot = '#board g:has(> rect.island-space > title:text-matches("^island space 3:"))'
    expect(page.locator(f'{spot} [data-piece="figure-2"]')).to_have_count(1)
    expect(page.locator('#board [data-piece="figure-2"]')).to_have_count(1)
    expect(page.locator("#board-refusal")).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize(
    ("game", "path", "value", "refusal"),
    [
        ("avanti", "scenario.distances", "[29, 29, 28, 30, 31]", "A4: "),
        ("autorama", "scenario.advisor_deck", "[1, 1, 1]", "F1: "),
        ("mare", "scenario.fish", "[1, 0, 6, 8]", "M5: "),
    ],
)
def test_a_position_that_breaks_a_rule_is_refused_with_its_id(
    browser: Browser, served: Served, screens: Path, game: str, path: str, value: str, refusal: str
) -> None:
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", game)
    expect(page.locator(field(page, path))).to_be_visible()
    page.fill(field(page, path), value)
    page.click("#play")
    refused = page.locator("#side-0 .refusal")
    expect(refused).to_contain_text(f"Refused (the position): {refusal}")
    if os.environ.get("AVANTI_SCREENS"):
        answer = page.locator("section:has(#answer-heading)")
        answer.screenshot(path=screens / f"lab-{game}-refused.png")
    page.context.close()


@pytest.mark.parametrize("game", ["avanti", "autorama", "mare"])
def test_a_link_reloads_the_same_case(
    browser: Browser, served: Served, screens: Path, game: str
) -> None:
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", game)
    expect(page.locator("#json")).to_have_value(re.compile(f'"game": "{game}"'))
    case = json.loads(page.locator("#json").input_value())
    link = page.locator("#link").get_attribute("href")
    assert link is not None
    assert link.startswith(f"{served.url}/lab#")
    other = lab(browser, link)
    expect(other.locator("#game")).to_have_value(game)
    assert json.loads(other.locator("#json").input_value()) == case
    assert other.locator("#side-0").inner_text() == page.locator("#side-0").inner_text()
    if os.environ.get("AVANTI_SCREENS") and game != "avanti":
        answer = other.locator("section:has(#answer-heading)")
        answer.screenshot(path=screens / f"lab-{game}.png")
    page.context.close()
    other.context.close()


def test_m5_a_fish_and_the_boat_move_by_clicks_and_a_refusal_shows_its_rule(
    browser: Browser, served: Served
) -> None:
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", "mare")
    fish, boat = field(page, "scenario.fish"), field(page, "scenario.boat")
    expect(page.locator(fish)).to_have_value("[12,0,6,8]")
    page.click('#board [data-piece="fish-pink"]')
    expect(page.locator("#chosen")).to_have_text("The pink fish chosen: click where it goes.")
    page.click('#board [data-place="10"]')
    expect(page.locator(fish)).to_have_value("[12,0,6,10]")
    expect(page.locator('#board [data-piece="fish-pink"] title')).to_have_text("pink fish")
    page.click('#board [data-piece="boat"]')
    page.click('#board [data-place="5"]')  # the boat before piece 5: pieces 1-4 taken
    expect(page.locator(boat)).to_have_value("4")
    expect(page.locator("#board-refusal")).to_be_hidden()
    page.click('#board [data-piece="boat"]')
    page.click('#board [data-place="8"]')  # past the yellow fish on piece 6
    expect(page.locator(boat)).to_have_value("7")
    expect(page.locator("#board-refusal")).to_contain_text("Refused: M5: ")
    page.context.close()


def cards(page: Page, row: str) -> list[str]:
    """The cards shown in one of the Autorama rows, in order."""
    shown: list[str] = page.locator(f'#cards [data-row="{row}"] button').evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.card)"
    )
    return shown


def test_f1_f4_autorama_cards_move_between_rows_by_clicks(
    browser: Browser, served: Served, screens: Path
) -> None:
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", "autorama")
    deck = field(page, "scenario.advisor_deck")
    out = '#cards [data-row="out.advisor"]'
    expect(page.locator(out + " button")).to_have_count(27)  # 30 in the box, 3 in the deck (F1)
    assert cards(page, "scenario.advisor_deck") == ["1", "2", "3"]
    # A deck of 2 cannot deal a round to 3 players: refused, with the rule.
    page.click('#cards [data-row="scenario.advisor_deck"] button[data-card="1"]')
    expect(page.locator("#chosen")).to_contain_text("Sales Associate 1 chosen")
    page.click(out)
    expect(page.locator(deck)).to_have_value("[2,3]")
    expect(page.locator("#board-refusal")).to_contain_text("Refused: F4: ")
    expect(page.locator(out + " button")).to_have_count(28)
    # General Manager 30 goes on top, before card 2: the round reveals 30, 2, 3.
    page.click(out + ' button[data-card="30"]')
    page.click('#cards [data-row="scenario.advisor_deck"] button[data-card="2"]')
    expect(page.locator(deck)).to_have_value("[30,2,3]")
    expect(page.locator("#board-refusal")).to_be_hidden()
    expect(page.locator("#side-0")).to_contain_text("General Manager 30")
    assert cards(page, "scenario.advisor_deck") == ["30", "2", "3"]
    # A vehicle goes only to a row of vehicles: nothing changes.
    page.click('#cards [data-row="scenario.vehicle_deck"] button[data-card="1"]')
    page.click('#cards [data-row="scenario.advisors.1"]')
    expect(page.locator("#chosen")).to_contain_text("goes only to a row of vehicles")
    expect(page.locator(deck)).to_have_value("[30,2,3]")
    expect(page.locator(field(page, "scenario.advisors"))).to_have_value("[]")
    if os.environ.get("AVANTI_SCREENS"):
        page.locator("#cards").screenshot(path=screens / "lab-autorama-cards.png")
    page.context.close()


def test_f1_a_card_picked_before_its_row_is_typed_anew_must_be_picked_again(
    browser: Browser, served: Served
) -> None:
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", "autorama")
    deck = field(page, "scenario.advisor_deck")
    expect(page.locator(deck)).to_have_value("[1,2,3]")
    page.click('#cards [data-row="scenario.advisor_deck"] button[data-card="1"]')
    expect(page.locator("#chosen")).to_contain_text("Sales Associate 1 chosen")
    # The deck is typed anew while its top card is picked: that place now holds card 5, which
    # was never picked, so the pick is dropped and the next click on a row moves nothing.
    page.fill(deck, "[5,6,7]")
    page.press(deck, "Tab")
    expect(page.locator("#chosen")).to_contain_text("pick it again")
    expect(page.locator("#cards button.chosen")).to_have_count(0)
    page.click('#cards [data-row="out.advisor"] > span')
    expect(page.locator(deck)).to_have_value("[5,6,7]")
    assert cards(page, "scenario.advisor_deck") == ["5", "6", "7"]
    expect(page.locator('#cards [data-row="out.advisor"] button')).to_have_count(27)
    page.context.close()


HANDS = avanti.lab.Case.from_data(
    {
        "game": "avanti",
        "players": ["Ann", "Bob", "Cy"],
        "setup": {"scenario": {"marker": 0, "distances": [3, 5, 8], "hands": [[7], [12], [20]]}},
        "readings": [{"name": "book", "options": {}}, {"name": "book", "options": {}}],
    }
)
"""Ann holds card 7, Bob 12, Cy 20 in the planning step (A8)."""


def test_a_hand_is_seen_on_the_board_by_its_seat_and_not_by_the_spectator(
    browser: Browser, served: Served, screens: Path
) -> None:
    page = lab(browser, f"{served.url}/lab#{HANDS.to_fragment()}")
    expect(page.locator("#seen-by")).to_have_value("0")
    expect(page.locator('#board [data-card="7"]')).to_have_count(1)
    if os.environ.get("AVANTI_SCREENS"):
        page.locator("#board").screenshot(path=screens / "lab-seen-by.png")
    for seen_by, card in (("spectator", None), ("1", "12"), ("2", "20")):
        page.select_option("#seen-by", seen_by)
        for other in ("7", "12", "20"):
            expect(page.locator(f'#board [data-card="{other}"]')).to_have_count(
                1 if other == card else 0
            )
    page.context.close()


def shown_svg(page: Page) -> str:
    source = page.locator("#saved-picture img").get_attribute("src")
    assert source is not None
    return base64.b64decode(source.removeprefix("data:image/svg+xml;base64,")).decode()


GAMES = {"avanti": avanti, "autorama": autorama, "mare": mare}


@pytest.mark.parametrize("name", ["avanti", "autorama", "mare"])
def test_a_saved_game_steps_back_and_forth_as_the_library_draws_it(
    browser: Browser, served: Served, screens: Path, name: str
) -> None:
    """Each game's saved game, four commands long, stepped forward to its end and back to its
    start: at every step the picture is the library's own at that version (A8, F1, M3)."""
    module: Any = GAMES[name]
    game = module.new_game(["Ann", "Bob", "Cy"][: 2 if name == "mare" else 3], seed=5)
    for _ in range(4):
        game = game.execute(game.legal_commands()[0])
    cuts = [i for i, event in enumerate(game.events) if game.rules.cause(event) is not None]
    versions = [cuts[0], *cuts[1:], game.version]
    assert len(versions) == 5
    page = lab(browser, f"{served.url}/lab")
    page.fill("#saved", module.dumps(game))
    page.click("#open-saved")
    order = [*range(len(versions)), *reversed(range(len(versions) - 1))]
    for number, index in enumerate(order):
        if number:
            page.click("#forward" if index > order[number - 1] else "#back")
        expect(page.locator("#saved-picture")).to_have_attribute(
            "data-version", str(versions[index])
        )
        at = module.replay(game.setup, game.events[: versions[index]])
        assert shown_svg(page) == str(module.picture(at.view(None), table=at.public_setup))
    expect(page.locator("#back")).to_be_disabled()
    if os.environ.get("AVANTI_SCREENS") and name == "mare":
        saved = page.locator("section:has(#saved-heading)")
        saved.screenshot(path=screens / "lab-saved-game.png")
    page.context.close()


def test_a8_the_stepper_draws_a_chosen_seat_s_view_and_keeps_its_step(
    browser: Browser, served: Served
) -> None:
    """A saved game of Avanti opened in the stepper is drawn as the spectator sees it; choosing
    a seat draws each step as that seat sees it (its own hand face up, A8), at the same step."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=3).execute(avanti.PlaceEventMarker(0, 0))
    assert game.view(1).hand == (24, 15, 8)
    page = lab(browser, f"{served.url}/lab")
    page.fill("#saved", avanti.dumps(game))
    page.click("#open-saved")
    expect(page.locator("#saved-seen-by")).to_have_value("spectator")
    expect(page.locator("#saved-seen-by option")).to_have_text(
        ["the spectator (no hand)", "Ann (seat 0)", "Bob (seat 1)", "Cy (seat 2)"]
    )
    page.click("#forward")
    expect(page.locator("#saved-picture")).to_have_attribute("data-version", str(game.version))
    page.select_option("#saved-seen-by", "1")
    expect(page.locator("#saved-picture img")).to_have_attribute(
        "alt", f"the table at version {game.version}"
    )
    expect(page.locator("#at")).to_have_text(re.compile(r"step 2 of 2"))
    at = avanti.replay(game.setup, game.events)
    expect(page.locator("#saved-picture")).to_have_attribute("data-seen-by", "1")
    assert shown_svg(page) == str(avanti.picture(at.view(1), table=at.public_setup))
    assert shown_svg(page) != str(avanti.picture(at.view(None), table=at.public_setup))
    page.click("#back")
    first = int(page.locator("#saved-picture").get_attribute("data-version") or "-1")
    assert 0 < first < game.version  # the deal, before the marker is placed
    expect(page.locator("#saved-seen-by")).to_have_value("1")
    at = avanti.replay(game.setup, game.events[:first])
    assert shown_svg(page) == str(avanti.picture(at.view(1), table=at.public_setup))
    page.context.close()
