"""The rules lab in headless Chromium (``/lab``), every case set up by filling forms only (selects,
number inputs, check boxes, clicks; the commands in the game's notation; no JSON typed): the A21
question on the position of Illus. 11-13, with a laid card picked by its card and number and the
next card drawn chosen from the box; the F6 question on decks built from the box; the M7
question with the die's next roll chosen as an outcome; the seat fields following the player
count; the verdict of two readings that agree; a refusal per game with its rule's id; a link
that reloads its case; a hand seen on the board by its seat only; and a saved game stepped back
and forth with each picture as the library draws it (A4, A8, A13, A21, F1, F4, F6, M3, M5, M7).
"""

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
from avanti.mare.lab import foresee_roll
from tests.server.support import Served

SOURCE = Path(avanti.__file__).parents[1]
VIEWPORT = {"width": 1000, "height": 760}
BOOK = [{"name": "", "options": {}}, {"name": "", "options": {}}]
BLANK = {
    "avanti": avanti.lab.Case.from_data(
        {
            "game": "avanti",
            "players": ["Jack", "Isabella", "Tina", "Steve", "William"],
            "setup": {"scenario": {"marker": 0, "distances": [0] * 5, "hands": [[]] * 5}},
            "readings": BOOK,
        }
    ),
    "autorama": avanti.lab.Case.from_data(
        {"game": "autorama", "players": ["Isaac", "Becky", "Chloe"], "readings": BOOK}
    ),
    "mare": avanti.lab.Case.from_data(
        {"game": "mare", "players": ["Ann", "Bob"], "seed": 1, "readings": BOOK}
    ),
}
"""A case of each game with nothing set but the players: the tests fill in the rest."""


def lab(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=VIEWPORT).new_page()  # type: ignore[arg-type]
    page.goto(url)
    expect(page.locator("#verdict")).not_to_have_text("Not played yet.")
    return page


def field(path: str, *more: object) -> str:
    """The id of a field's input (a seat's, a label's or a part's: ``more``)."""
    return "#" + "-".join(["f", path.replace(".", "-"), *map(str, more)])


def put(page: Page, selector: str, value: object) -> None:
    """Type a number into a number input and leave it, as a person does."""
    page.fill(selector, str(value))
    page.press(selector, "Tab")
    expect(page.locator(selector)).to_have_value(str(value))


def case_shown(page: Page) -> Any:
    """The case the page last played, as the answer wrote it back (read, never typed)."""
    return json.loads(page.locator("#json").input_value())


def lines(page: Page, side: int) -> list[str]:
    return page.locator(f"#side-{side} li li").all_inner_texts()


def test_a21_illus_11_to_13_filled_in_as_forms_and_the_exported_test(
    browser: Browser, served: Served, screens: Path, tmp_path: Path
) -> None:
    """The end of the run of Illus. 11 (examples/avanti_illus11_end_of_run.py): the marker on
    road space 22, Isabella (15) and Steve (30) have quit, Tina, William and Jack still to drive
    with the cards and numbers they laid. Card 26 is put on top of the draw pile, so Tina, who
    drives a yellow 3, draws it (A13). The two A21 readings part at Isabella's lots."""
    page = lab(browser, f"{served.url}/lab#{BLANK['avanti'].to_fragment()}")
    page.select_option(field("scenario.phase"), "driving")
    put(page, field("scenario.round"), 5)
    put(page, field("scenario.marker"), 22)
    for seat, distance in enumerate([29, 15, 28, 30, 31]):
        put(page, field("scenario.distances", seat), distance)
    page.check(field("scenario.quit", "set"))
    page.check(field("scenario.quit", 1))
    page.check(field("scenario.quit", 3))
    page.check(field("scenario.laid", "set"))
    for seat, (card, number) in {0: (0, 1), 2: (18, 3), 4: (19, 3)}.items():
        page.select_option(field("scenario.laid", seat, "card"), str(card))
        page.select_option(field("scenario.laid", seat, "number"), str(number))
    page.select_option(field("scenario.draw", "add"), "26")
    expect(page.locator(f"{field('scenario.draw')} .card")).to_have_text(["card 26 (3, 6, 7) ×"])
    page.fill("#name-0", "The last car counts the leader")
    page.press("#name-0", "Tab")
    page.fill("#name-1", "The last car has no car behind it")
    page.press("#name-1", "Tab")
    page.select_option("#opt-1-atm_last_car_wraps", "false")
    page.fill("#commands", "drive\ndrive\ndrive")
    page.click("#play")
    marked = page.locator("#side-0 mark")
    expect(marked).to_have_text(
        [
            "Isabella withdraws 300 at the ATM on road space 26.",
            "Isabella withdraws 500 at the ATM on road space 31.",
        ]
    )
    expect(page.locator("#side-1 mark")).to_have_count(0)
    expect(page.locator("#verdict")).to_have_text("The readings part at 1 step: the marked lines.")
    for side in (0, 1):
        assert "Tina draws card 26." in lines(page, side)
    withdrawals = [[line for line in lines(page, i) if "Isabella w" in line] for i in (0, 1)]
    assert withdrawals == [
        [
            "Isabella withdraws 200 at the ATM on road space 3.",
            "Isabella withdraws 300 at the ATM on road space 26.",
            "Isabella withdraws 500 at the ATM on road space 31.",
        ],
        ["Isabella withdraws 200 at the ATM on road space 3."],
    ]
    scenario = case_shown(page)["setup"]["scenario"]
    assert scenario["laid"] == [[0, 1], None, [18, 3], None, [19, 3]]
    assert scenario["draw"][0] == 26
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


def test_f6_decks_built_from_the_box_and_a_sales_associate_s_refund(
    browser: Browser, served: Served, screens: Path
) -> None:
    """Each deck built card by card from the game's box, top first (F1): Sales Associates 1, 2
    and 3 are revealed. Isaac bids $4,000 and the others pass: under the library's reading he
    pays, under the other the Sales Associate refunds him too (F6)."""
    page = lab(browser, f"{served.url}/lab#{BLANK['autorama'].to_fragment()}")
    decks = {"advisor": ["1", "2", "3"], "vehicle": ["1", "2", "3"], "check": ["0", "0", "2"]}
    for deck, cards in decks.items():
        for card in cards:
            page.select_option(field(f"scenario.{deck}_deck", "add"), card)
        expect(page.locator(f"{field(f'scenario.{deck}_deck')} .card")).to_have_count(3)
    expect(page.locator(f"{field('scenario.advisor_deck')} .card")).to_have_text(
        ["Sales Associate 1 ×", "Sales Associate 2 ×", "Sales Associate 3 ×"]
    )
    # A card in the deck is no longer offered: the box holds one Sales Associate 1 (F1).
    expect(
        page.locator(f'{field("scenario.advisor_deck", "add")} option[value="1"]')
    ).to_have_count(0)
    page.fill("#name-0", "Only those who pass")
    page.press("#name-0", "Tab")
    page.fill("#name-1", "The winner too")
    page.press("#name-1", "Tab")
    page.select_option("#opt-1-sales_associate_refunds_winner", "true")
    page.fill("#commands", "bid 4000\npass\npass")
    page.click("#play")
    expect(page.locator("#side-0")).to_contain_text("Isaac took Sales Associate 3 and paid $4,000.")
    expect(page.locator("#side-1 mark")).not_to_have_count(0)
    expect(page.locator("#verdict")).to_have_text(re.compile("^The readings part at"))
    assert case_shown(page)["setup"]["scenario"]["check_deck"] == [0, 0, 2]
    if os.environ.get("AVANTI_SCREENS"):
        page.locator("#fields").screenshot(path=screens / "lab-autorama-cards.png")
        page.locator("section:has(#answer-heading)").screenshot(path=screens / "lab-autorama.png")
    page.context.close()


def test_m7_the_die_s_next_roll_chosen_as_an_outcome(
    browser: Browser, served: Served, screens: Path
) -> None:
    """The boat at 2, blue free, orange caught; the die's next roll is chosen, not hunted for
    by seed: orange, a caught fish's colour (M3, M7). The lab plays the first seed from 1 that
    rolls it, and says which."""
    page = lab(browser, f"{served.url}/lab#{BLANK['mare'].to_fragment()}")
    put(page, field("scenario.boat"), 2)
    for index, place in enumerate([12, 0, 6, 8]):
        put(page, field("scenario.fish", index), place)
    page.click("#o-die-add")
    page.select_option("#o-die-0", "orange")
    page.fill("#name-0", "It moves the boat")
    page.press("#name-0", "Tab")
    page.fill("#name-1", "It does nothing")
    page.press("#name-1", "Tab")
    page.select_option("#opt-1-caught_fish_roll", "nothing")
    page.fill("#commands", "roll")
    page.click("#play")
    expect(page.locator("#side-0 li li").first).to_have_text("Ann rolls orange.")
    expect(page.locator("#side-1 li li").first).to_have_text("Ann rolls orange.")
    expect(page.locator("#side-0 mark")).to_have_text(
        ["Piece 3 is taken away; the boat moves up to piece 4."]
    )
    expect(page.locator("#side-1 mark")).to_have_text(["Nothing happens for orange."])
    seed = next(seed for seed in range(1, 100) if foresee_roll(seed, 0) == "orange")
    expect(page.locator("#seed-played")).to_have_text(
        f"Played with seed {seed}: the first from 1 that gives the results chosen."
    )
    assert case_shown(page)["outcomes"] == {"die": ["orange"]}
    expect(page.locator("#seed")).to_have_value("1")
    if os.environ.get("AVANTI_SCREENS"):
        page.locator("#outcomes").screenshot(path=screens / "lab-mare-outcome.png")
        page.locator("section:has(#answer-heading)").screenshot(path=screens / "lab-mare.png")
    page.context.close()


def test_the_seat_fields_follow_the_player_count(browser: Browser, served: Served) -> None:
    """The A21 example seats five; three players leave three entries in every seat field (and
    in the case), and a fourth seat comes back with each field's starting value."""
    page = lab(browser, f"{served.url}/lab")
    expect(page.locator("#player-count")).to_have_value("5")
    expect(page.locator(field("scenario.distances", 4))).to_have_value("31")
    page.select_option("#player-count", "3")
    for path in ("scenario.distances", "scenario.quit"):
        expect(page.locator(f'[id^="{field(path)[1:]}-"]:not([id$="-set"])')).to_have_count(3)
    expect(page.locator(f'[id^="{field("scenario.laid")[1:]}-"][id$="-card"]')).to_have_count(3)
    expect(page.locator(f'[id^="{field("scenario.hands")[1:]}-"][id$="-add"]')).to_have_count(3)
    expect(page.locator("#players input")).to_have_count(3)
    expect(page.locator("#seen-by option")).to_have_count(4)
    expect(page.locator("#json")).to_have_value(
        re.compile(r'"distances": \[\s*29,\s*15,\s*28\s*\]')
    )
    scenario = case_shown(page)["setup"]["scenario"]
    assert [len(scenario[key]) for key in ("distances", "quit", "hands", "laid")] == [3, 3, 3, 3]
    assert case_shown(page)["players"] == ["Jack", "Isabella", "Tina"]
    page.select_option("#player-count", "4")
    expect(page.locator(field("scenario.distances", 3))).to_have_value("0")
    expect(page.locator(field("scenario.laid", 3, "card"))).to_have_value("")
    expect(page.locator("#player-3")).to_have_value("Steve")
    expect(page.locator("#json")).to_have_value(re.compile(r'"Steve"'))
    assert case_shown(page)["setup"]["scenario"]["distances"] == [29, 15, 28, 0]
    page.context.close()


def test_readings_that_agree_are_said_to_give_the_same_events(
    browser: Browser, served: Served
) -> None:
    """The M7 example with the second reading turned to the rulebook's too: both readings give
    the same events, and the verdict says so."""
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", "mare")
    expect(page.locator("#verdict")).to_have_text(re.compile("^The readings part at 1 step"))
    page.select_option("#opt-1-caught_fish_roll", "boat")
    expect(page.locator("#verdict")).to_have_text(re.compile("^Both readings give the same events"))
    expect(page.locator("#verdict")).to_have_attribute("data-same", "true")
    expect(page.locator("#side-0 mark, #side-1 mark")).to_have_count(0)
    page.context.close()


@pytest.mark.parametrize(
    ("game", "refusal"),
    [("avanti", "A4: "), ("autorama", "F4: "), ("mare", "M5: ")],
)
def test_a_position_that_breaks_a_rule_is_refused_with_its_id(
    browser: Browser, served: Served, screens: Path, game: str, refusal: str
) -> None:
    """Two cars on one road space (A4); a deck of two advisors for three players (F4); a fish on
    a piece the boat has taken (M5)."""
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", game)
    if game == "avanti":
        put(page, field("scenario.distances", 1), 29)
    elif game == "autorama":
        page.click(f'{field("scenario.advisor_deck")} .card[data-card="1"]')
        expect(page.locator(f"{field('scenario.advisor_deck')} .card")).to_have_count(2)
    else:
        put(page, field("scenario.fish", 0), 1)
    refused = page.locator("#side-0 .refusal")
    expect(refused).to_contain_text(f"Refused (the position): {refusal}")
    expect(page.locator("#board-refusal")).to_contain_text(f"Refused: {refusal}")
    if os.environ.get("AVANTI_SCREENS"):
        answer = page.locator("section:has(#answer-heading)")
        answer.screenshot(path=screens / f"lab-{game}-refused.png")
    page.context.close()


@pytest.mark.parametrize("game", ["avanti", "autorama", "mare"])
def test_a_link_reloads_the_same_case(browser: Browser, served: Served, game: str) -> None:
    page = lab(browser, f"{served.url}/lab")
    page.select_option("#game", game)
    expect(page.locator("#json")).to_have_value(re.compile(f'"game": "{game}"'))
    case = case_shown(page)
    link = page.locator("#link").get_attribute("href")
    assert link is not None
    assert link.startswith(f"{served.url}/lab#")
    other = lab(browser, link)
    expect(other.locator("#game")).to_have_value(game)
    assert case_shown(other) == case
    assert other.locator("#side-0").inner_text() == page.locator("#side-0").inner_text()
    page.context.close()
    other.context.close()


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
        ["the spectator (no hand)", "Ann (seat 1)", "Bob (seat 2)", "Cy (seat 3)"]
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


CASES = sorted((Path(__file__).parents[2] / "docs/lab").glob("*.json"))
"""The cases the rules pages link to ("see it in the lab")."""


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_each_saved_case_opens_in_the_forms_and_plays_as_the_library_plays_it(
    browser: Browser, served: Served, path: Path
) -> None:
    """A case written before the forms, opened from its link: the forms may write it anew (each
    option named, the rest of a pile listed), but it plays the very same events."""
    case = avanti.lab.Case.from_json(path.read_text(encoding="utf-8"))
    page = lab(browser, f"{served.url}/lab#{case.to_fragment()}")
    expect(page.locator("#case-error")).to_be_hidden()
    expect(page.locator("#game")).to_have_value(case.game)
    shown = avanti.lab.compare(avanti.lab.Case.from_data(case_shown(page)))
    for index, trial in enumerate(avanti.lab.compare(case).trials):
        assert shown.trials[index].lines == trial.lines
        assert shown.trials[index].refusal == trial.refusal
    page.context.close()
