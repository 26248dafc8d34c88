"""The pages on a phone-sized screen (390 by 844 CSS pixels, an iPhone 12's): nothing scrolls
sideways, the commands are on the screen, and the board's text is readable: every ``<text>`` of
the picture is drawn at least 11 CSS pixels high (its font size times the scale it is drawn at,
read from the DOM), for every game (A30)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from avanti import catalog
from avanti.avanti.state import Phase
from tests.browser.tables import INSTANT, Table, advance, stored
from tests.server.support import Served


def _phone(browser: Browser) -> Page:
    """A page in a new context the size of an iPhone 12's screen (390 by 844 CSS pixels, three
    device pixels to one), with touch."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=3,
    )
    return context.new_page()


_BOARD_TEXT = """() => {
    const svg = document.querySelector('#picture svg');
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].filter((node) => node.textContent.trim());
    return texts.map((node) => {
        const matrix = node.getScreenCTM();
        const scale = Math.hypot(matrix.a, matrix.b);
        const size = scale * parseFloat(getComputedStyle(node).fontSize);
        const line = node.getBoundingClientRect();
        const [left, right] = [line.left - box.left, box.right - line.right];
        return {text: node.textContent, size, left, right};
    });
}"""
"""Each text of the board: its rendered size in CSS pixels (font size times the scale it is drawn
at) and how far its line box stays inside the picture's box on the left and on the right."""


def _readable(page: Page) -> float:
    """The smallest rendered size of the board's texts; each text lies inside the picture."""
    texts = page.evaluate(_BOARD_TEXT)
    assert len(texts) > 20
    for found in texts:
        assert found["left"] >= -0.5, found  # not cut off on the left
        assert found["right"] >= -0.5, found  # nor on the right
    return float(min(found["size"] for found in texts))


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_lobby_fits_a_phone(browser: Browser, served: Served) -> None:
    """The lobby's form fits the width; its button can be reached."""
    page = _phone(browser)
    page.goto(f"{served.url}/")
    page.wait_for_selector("body[data-ready=true]")
    _no_sideways_scroll(page)
    button = page.locator("#create-button")
    button.scroll_into_view_if_needed()
    assert button.is_visible()
    box = button.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390
    page.context.close()


def test_table_fits_a_phone(browser: Browser, served: Served, screens: Path) -> None:
    """A30: an Avanti table at its first move (34 places for the event marker, one number
    field): the picture shrinks to the width, the field, its stepper and its button are within
    it, and a tap on the stepper and one on the button play the marker."""
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    page = _phone(browser)
    table = Table(page, f"{served.url}/play/{reply['id']}#{reply['seats'][0]['token']}", 0)
    table.open().wait(stored(served, reply["id"]).version)
    _no_sideways_scroll(page)
    picture = page.locator("#picture svg").bounding_box()
    assert picture is not None
    assert picture["width"] <= 390
    field = page.locator("#commands form.pick")
    assert len(json.loads(field.get_attribute("data-notations") or "[]")) == 34
    go = field.locator("button.go")
    assert go.is_visible()
    for right in field.locator("input, button").evaluate_all(
        "nodes => nodes.map(node => node.getBoundingClientRect().right)"
    ):
        assert right <= 390
    page.screenshot(path=screens / "phone.png", scale="css")
    before = stored(served, reply["id"]).version
    field.locator("button.step[data-part=up]").tap()
    assert go.get_attribute("data-notation") == "marker 1"
    go.tap()
    table.catch_up(before + 1)  # the tap's command, read back from the page, not the store
    game = stored(served, reply["id"])
    assert game.view(None).phase is Phase.PLANNING
    assert game.view(None).marker == 1
    _no_sideways_scroll(page)
    page.context.close()


_OVERFLOWING = """() => [document.documentElement, ...document.querySelectorAll(
        '.bar, .table, .actions, .board, .side, .picture, .commands, .pick, .say, .history,'
        + ' .result, .standings, .settings, .row')]
    .filter((node) => node.offsetParent !== null || node === document.documentElement)
    .filter((node) => node.scrollWidth > node.clientWidth + 1
        || node.getBoundingClientRect().right > window.innerWidth + 1)
    .map((node) => `${node.className}: ${node.scrollWidth} > ${node.clientWidth}`)"""
"""Every row of the page (and the page) wider than its box or than the screen."""


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_no_row_overflows_and_no_key_hints_on_a_touch_screen(
    browser: Browser, served: Served, screens: Path, name: str
) -> None:
    """A30: on a 390 by 844 touch screen no row of the table page is wider than its box, at the
    first move and on the end screen, and the page shows no key hints (``hover: none``). The page
    asks for the narrow picture: every text of the board is at least 11 CSS pixels high and
    inside the picture, at the first move and at the end, and the board does not scroll."""
    reply = served.create(name, ["Ann", "Bob", "Cy"])
    page = _phone(browser)
    page.context.add_init_script(INSTANT)
    table = Table(page, f"{served.url}/play/{reply['id']}#{reply['seats'][0]['token']}", 0)
    table.open().wait(stored(served, reply["id"]).version)
    assert page.get_attribute("#table", "data-layout") == "narrow"
    assert page.evaluate(_OVERFLOWING) == []
    assert _readable(page) >= 11
    page.screenshot(path=screens / f"phone-{name}.png", scale="css")
    assert not page.locator("#keys").is_visible()
    assert page.locator("#commands kbd").count() > 0  # there, but not shown on a touch screen
    assert not page.locator("#commands kbd").first.is_visible()
    rng = random.Random(1)
    tokens = {seat["seat"]: seat["token"] for seat in reply["seats"]}
    game = stored(served, reply["id"])
    while not game.is_over:  # to the end, over HTTP, then the end screen on the phone
        seat = game.waiting[0]
        command = rng.choice(list(game.legal_commands(seat)))
        answer = served.http.post(
            f"/games/{reply['id']}/commands",
            json={"notation": game.notation(command), "expected_version": game.version},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.text
        game = stored(served, reply["id"])
    table.wait(game.version)
    page.locator("table.standings").wait_for()
    assert page.evaluate(_OVERFLOWING) == []
    assert _readable(page) >= 11
    page.context.close()


_SEEDS = {"avanti": (0, 2, 4, 7), "mare": (3, 5, 8, 11), "autorama": (12, 14, 16, 24)}
"""Seeds whose games once drew a text past the narrow picture's edge (a cash change beside a car
on the road's side, a long phase line), before the layout kept them inside."""


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_every_narrow_picture_of_whole_games_is_readable(browser: Browser, name: str) -> None:
    """A30: the narrow pictures of four whole games of random commands (every 17th position and
    the end, for seat 0 and a spectator), each drawn 364 CSS pixels wide as on a 390-pixel
    phone: every text at least 11 pixels high and inside the picture."""
    module: Any = catalog.GAMES[name].load()
    page = _phone(browser)
    drawn = 0
    for seed in _SEEDS[name]:
        players = 2 + seed % 4 if name == "mare" else 3 + seed % 3
        game = module.new_game(["Ann", "Bob", "Cy", "Dee", "Eve"][:players], seed=seed)
        rng = random.Random(seed)
        step = 0
        while True:
            if step % 17 == 0 or game.is_over:
                for seat in (0, None):
                    last = game.last_events(seat)
                    svg = module.picture(
                        game.view(seat), table=game.public_setup, last=last, layout="narrow"
                    )
                    page.set_content(
                        "<body style='margin:0;padding:13px'><div id='picture' "
                        f"style='width:364px'>{svg}</div></body>"
                    )
                    page.add_style_tag(content="svg { width: 100%; height: auto; }")
                    assert _readable(page) >= 11
                    drawn += 1
            if game.is_over:
                break
            game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
            step += 1
    assert drawn > 20
    page.context.close()


def test_a_page_that_turns_narrow_asks_for_the_narrow_picture(
    browser: Browser, served: Served
) -> None:
    """A30: a table page opened 1,000 pixels wide shows the wide picture (760 units); made 390
    pixels wide it connects again and shows the narrow one (360 units) at the same version, and
    back at 1,000 pixels the wide one again."""
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    context.add_init_script(INSTANT)
    page = context.new_page()
    table = Table(page, f"{served.url}/play/{reply['id']}#{reply['seats'][0]['token']}", 0)
    version = stored(served, reply["id"]).version
    table.open().wait(version)
    width = "() => document.querySelector('#picture svg').viewBox.baseVal.width"
    assert page.get_attribute("#table", "data-layout") == "wide"
    assert page.evaluate(width) == 760
    for pixels, layout, units in ((390, "narrow", 360), (1000, "wide", 760)):
        page.set_viewport_size({"width": pixels, "height": 800})
        page.wait_for_selector(f'#table[data-layout="{layout}"]', state="attached")
        page.wait_for_function(f"() => ({width})() === {units}")
        table.wait(version)
    context.close()


_IN_VIEW = """(selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return box.height > 0 && box.top >= -0.5 && box.bottom <= window.innerHeight + 0.5;
}"""
"""Whether an element is wholly on the screen as the page is scrolled now."""


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_the_action_bar_and_the_end_screen_stay_where_the_player_looks(
    browser: Browser, served: Served, screens: Path, name: str
) -> None:
    """Issue 39 item 2: on a 390 by 844 phone the action bar (whose move, the step, the seat's
    commands) is on the screen without scrolling, above a board taller than the screen, and
    stays there with the board scrolled to its bottom, where the thumb is; at the end of the
    game the end screen is on the screen there too, not over the top of the board."""
    reply = served.create(name, ["Ann", "Bob", "Cy"])
    page = _phone(browser)
    page.context.add_init_script(INSTANT)
    table = Table(page, f"{served.url}/play/{reply['id']}#{reply['seats'][0]['token']}", 0)
    table.open().wait(stored(served, reply["id"]).version)
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(_IN_VIEW, "#actions")
    assert page.locator("#heading").inner_text() == "Your move"
    assert page.evaluate(_IN_VIEW, "#commands > :first-child")
    board = page.locator("#picture").bounding_box()
    assert board is not None
    assert board["y"] + board["height"] > 844  # the board is taller than the screen
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")
    assert page.evaluate(_IN_VIEW, "#actions")  # held at the top while the board scrolls
    assert page.evaluate(_IN_VIEW, "#commands > :first-child")
    game = advance(served, reply, lambda game: game.is_over, seed=2)
    table.wait(game.version)
    page.locator("table.standings").wait_for()
    assert page.evaluate("window.scrollY") > 0  # still scrolled down to the board's bottom
    for shown in ("#actions", "#result"):
        assert page.evaluate(_IN_VIEW, shown), shown
    page.screenshot(path=screens / f"phone-end-{name}.png", scale="css")
    page.evaluate("window.scrollTo(0, 0)")
    for shown in ("#actions", "#result"):
        assert page.evaluate(_IN_VIEW, shown), shown
    assert page.evaluate(_OVERFLOWING) == []
    page.context.close()
