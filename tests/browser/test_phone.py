"""The pages on a phone-sized screen (390 by 844 CSS pixels): nothing scrolls sideways and the
commands are on the screen."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from avanti.avanti.state import Phase
from tests.browser.tables import Table, stored
from tests.server.support import Served


def _phone(browser: Browser) -> Page:
    """A page in a new context the size of a phone's screen, with touch."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    return context.new_page()


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
    """A30: an Avanti table at its first move (34 marker buttons): the picture shrinks to the
    width, every button is within it, and a tap on a button plays it."""
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    page = _phone(browser)
    table = Table(page, f"{served.url}/play/{reply['id']}#{reply['seats'][0]['token']}", 0)
    table.open().wait(stored(served, reply["id"]).version)
    _no_sideways_scroll(page)
    picture = page.locator("#picture svg").bounding_box()
    assert picture is not None
    assert picture["width"] <= 390
    buttons = page.locator("#commands button.command")
    assert buttons.count() == 34
    first = buttons.first
    first.scroll_into_view_if_needed()
    assert first.is_visible()
    for box in buttons.evaluate_all("bs => bs.map(b => b.getBoundingClientRect().right)"):
        assert box <= 390
    page.screenshot(path=screens / "phone.png")
    before = stored(served, reply["id"]).version
    first.tap()
    table.catch_up(before + 1)  # the tap's command, read back from the page, not the store
    assert stored(served, reply["id"]).view(None).phase is Phase.PLANNING
    _no_sideways_scroll(page)
    page.context.close()
