"""The table page as players know it: where it keeps a seat's token, the hooks other scripts of
the page use, the spectator's page, the your-move title, sound and notifications, the moves shown
step by step, the selection before an irreversible command, and the end screen."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

from avanti.catalog import GAMES
from tests.browser.support import expected
from tests.browser.tables import INSTANT, WAIT_MS, Table, advance, stored
from tests.server.support import Served, wait_for

_SAME_PICTURE = """(sent) => {
    const drawn = document.querySelector('#picture svg');
    const want = new DOMParser().parseFromString(sent, 'image/svg+xml').documentElement;
    const text = (node) => new XMLSerializer().serializeToString(node);
    return [[...drawn.children].map(text), [...want.children].map(text)];
}"""
"""The drawn picture's children and the server's, each serialized by the browser."""

_LISTEN = """window.heard = []; window.seated = [];
    document.addEventListener('avanti:message', (e) => window.heard.push(e.detail.type));
    document.addEventListener('avanti:seated', (e) => window.seated.push(e.detail));"""
"""An init script that records every ``avanti:message`` type and ``avanti:seated`` detail."""

_SEND_PING = "document.dispatchEvent(new CustomEvent('avanti:send', {detail: {type: 'ping'}}))"


def _context(browser: Browser, pace: str | None = INSTANT, **options: Any) -> BrowserContext:
    context = browser.new_context(**options)
    if pace is not None:
        context.add_init_script(pace)
    return context


def _seat_url(served: Served, reply: Any, seat: int) -> str:
    return f"{served.url}/play/{reply['id']}#{reply['seats'][seat]['token']}"


def _open(browser: Browser, url: str, seat: int | None, pace: str | None = INSTANT) -> Table:
    return Table(_context(browser, pace).new_page(), url, seat).open()


def test_the_fragments_token_is_kept_and_the_address_loses_it(
    browser: Browser, served: Served
) -> None:
    """Interfaces item 1: the fragment's token is stored under ``avanti.seat.<id>`` with the
    seat and name, the fragment leaves the address, and the page opened again without it is
    the same seat's; ``avanti:seated`` tells the seat, every message is told as
    ``avanti:message``, and an ``avanti:send`` event's object goes out on the socket."""
    reply = served.create("mare", ["Ann", "Bob"])
    context = _context(browser)
    context.add_init_script(_LISTEN)
    table = Table(context.new_page(), _seat_url(served, reply, 1), 1).open()
    page = table.page
    table.wait(stored(served, reply["id"]).version)
    assert page.evaluate("location.href") == f"{served.url}/play/{reply['id']}"
    kept = json.loads(page.evaluate(f"localStorage.getItem('avanti.seat.{reply['id']}')"))
    assert kept == {"token": reply["seats"][1]["token"], "seat": 1, "name": "Bob"}
    page.reload()
    table.wait(stored(served, reply["id"]).version)
    assert page.get_attribute("#table", "data-seat") == "1"
    page.wait_for_function("() => window.seated.length === 1", timeout=WAIT_MS)
    assert page.evaluate("window.seated[0].seat") == 1
    assert page.evaluate("window.heard[0]") == "update"  # the hello's reply, told on
    page.evaluate(_SEND_PING)
    page.wait_for_function("() => window.heard.includes('pong')", timeout=WAIT_MS)
    context.close()


def test_seated_tells_the_seat_and_names(browser: Browser, served: Served) -> None:
    """Interfaces item 2: after the hello reply, ``avanti:seated`` carries the game, the seat,
    its token and the players' names (seat ``null`` and no token for a spectator)."""
    reply = served.create("mare", ["Ann", "Bob"])
    for seat, token in ((0, reply["seats"][0]["token"]), (None, None)):
        context = _context(browser)
        context.add_init_script(_LISTEN)
        page = context.new_page()
        page.goto(f"{served.url}/play/{reply['id']}" + (f"#{token}" if token else ""))
        page.wait_for_function("() => window.seated.length > 0", timeout=WAIT_MS)
        told = page.evaluate("window.seated[0]")
        names = ["Ann", "Bob"]
        assert told == {"gameId": reply["id"], "seat": seat, "token": token, "names": names}
        context.close()


def test_a_spectator_sees_no_command_box(browser: Browser, served: Served, screens: Path) -> None:
    """Interfaces item 5: without a token the page says "Watching" and shows no commands, no
    command box, no keyboard hints and no "Your move"."""
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    table = _open(browser, f"{served.url}/play/{reply['id']}", None)
    table.wait(stored(served, reply["id"]).version)
    page = table.page
    assert page.locator("#heading").inner_text() == "Watching"
    for hidden in ("#commands", "#say", "#keys", "#notation"):
        assert not page.locator(hidden).is_visible(), hidden
    assert "Your move" not in page.locator("body").inner_text()
    assert page.title() == "Avanti: watching"
    page.screenshot(path=screens / "watching.png")
    page.context.close()


def test_the_title_says_your_move_and_the_sound_setting_is_remembered(
    browser: Browser, served: Served
) -> None:
    """A30: Bob's title is plain while Ann places the event marker (A7), "(•) Your move ·
    Avanti" once his card is to be laid (A8), and plain again when he has laid it; the sound
    is off until turned on, stays on after a reload, and beeps once when his move begins."""
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    table = _open(browser, _seat_url(served, reply, 1), 1)
    game = stored(served, reply["id"])
    assert game.waiting == (0,)
    table.wait(game.version)
    page = table.page
    assert page.title() == "Avanti: Bob"
    game = advance(served, reply, lambda now: 1 in now.waiting)
    table.wait(game.version)
    assert page.title() == "(\u2022) Your move \u00b7 Avanti"
    button = page.locator("#commands button.command").first
    button.click()
    button.click()  # laying a card face down is selected first, then confirmed
    version = table.catch_up(game.version + 1)
    assert 1 not in stored(served, reply["id"], version).waiting
    assert page.title() == "Avanti: Bob"
    page.locator("#settings summary").click()
    assert not page.locator("#sound").is_checked()
    page.locator("#sound").check()
    page.reload()
    table.catch_up(version)
    page.locator("#settings summary").click()
    assert page.locator("#sound").is_checked()
    assert page.evaluate("localStorage.getItem('avanti.sound')") == "on"
    assert page.get_attribute("#table", "data-beeps") is None  # not Bob's move: no sound
    game = advance(served, reply, lambda now: 1 in now.waiting)
    table.wait(game.version)
    assert page.title() == "(\u2022) Your move \u00b7 Avanti"
    assert page.get_attribute("#table", "data-beeps") == "1"  # one beep as his move began
    page.context.close()


def test_notifications_are_asked_for_with_a_button(
    browser: Browser, served: Served, screens: Path
) -> None:
    """A30: the page asks for notifications only when the person presses its button; once
    granted it says so and the button goes."""
    reply = served.create("mare", ["Ann", "Bob"])
    context = _context(browser)
    context.grant_permissions(["notifications"], origin=served.url)
    page = context.new_page()
    table = Table(page, _seat_url(served, reply, 0), 0).open()
    table.wait(stored(served, reply["id"]).version)
    page.locator("#settings summary").click()
    before = page.get_attribute("#table", "data-notify")
    assert before in ("default", "granted")
    if before == "default":
        page.locator("#notify").click()
    page.wait_for_selector('#table[data-notify="granted"]', state="attached", timeout=WAIT_MS)
    assert not page.locator("#notify").is_visible()
    assert "Notifications on" in page.locator("#notify-state").inner_text()
    page.locator("#settings").scroll_into_view_if_needed()
    page.screenshot(path=screens / "settings.png")
    context.close()


HIDDEN_TAB = """
Object.defineProperty(document, "hidden", {get: () => true, configurable: true});
window.__notes = [];
window.Notification = class {
    static get permission() { return "granted"; }
    static requestPermission() { return Promise.resolve("granted"); }
    constructor(title, options) { window.__notes.push([title, options && options.body]); }
};
"""
"""An init script: the tab is hidden, notifications are granted, and each one shown is noted."""


def test_a_hidden_tab_notifies_when_the_seats_move_begins(browser: Browser, served: Served) -> None:
    """A30: with notifications granted and the tab hidden, the seat's page shows one
    notification when its move begins (not while another seat is awaited)."""
    reply = served.create("mare", ["Ann", "Bob"])
    context = _context(browser)
    context.add_init_script(HIDDEN_TAB)
    page = context.new_page()
    game = stored(served, reply["id"])
    assert game.waiting == (0,)  # M3: the first player rolls first
    table = Table(page, _seat_url(served, reply, 1), 1).open()
    table.wait(game.version)
    assert page.evaluate("() => window.__notes") == []
    game = advance(served, reply, lambda game: 1 in game.waiting)
    table.wait(game.version)
    notes = page.evaluate("() => window.__notes")
    assert notes == [["Your move \u00b7 Avanti mare!", "Bob, it is your move."]]
    context.close()


def _drives(game: Any) -> bool:
    return bool(
        game.waiting
        and game.waiting[0] != 0
        and any(type(c).__name__ == "Drive" for c in game.legal_commands(game.waiting[0]))
    )


def test_a_car_drives_step_by_step_and_the_picture_ends_as_sent(
    browser: Browser, served: Served, screens: Path
) -> None:
    """A11: Ann's page, at a pace of 0.3 s a step, shows another seat's drive as a move of that
    car (its data-piece) along its data-path; when the step is over the page's picture is the
    server's, node for node."""
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    game = advance(served, reply, _drives, seed=4)
    driver = game.waiting[0]
    table = _open(
        browser, _seat_url(served, reply, 0), 0, pace="localStorage.setItem('avanti.pace', '300')"
    )
    table.wait(game.version)
    game = advance(served, reply, lambda now: now.version > game.version, seed=4)
    table.page.wait_for_function(
        "(car) => (document.querySelector('#table').dataset.moved || '').split(' ').includes(car)",
        arg=f"car-{driver}",
        timeout=WAIT_MS,
    )
    table.page.screenshot(path=screens / "drive.png")
    table.wait(game.version)
    table.page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running')", timeout=WAIT_MS
    )
    drawn, sent = table.page.evaluate(_SAME_PICTURE, expected(game, "avanti", 0)["svg"])
    assert drawn == sent
    assert table.errors == []
    table.page.context.close()


def _confirm_position(name: str) -> Callable[[Any], bool]:
    words = {"avanti": "PlayCard", "mare": "SkipMove", "autorama": "Pass"}[name]

    def ready(game: Any) -> bool:
        return bool(
            game.waiting
            and any(type(c).__name__ == words for c in game.legal_commands(game.waiting[0]))
        )

    return ready


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_one_tap_selects_and_a_second_sends(
    browser: Browser, served: Served, screens: Path, name: str
) -> None:
    """Think before you click: an irreversible command (Avanti: lay a card, A8; Avanti mare!:
    skip the fish move, M6; Autorama: pass, F5) is selected by one tap, which sends nothing;
    Esc cancels; a second tap (or Enter) sends it."""
    game = None
    for seed in range(40):  # a free fish's colour (M6) comes in most games, not in all
        reply = served.create(name, ["Ann", "Bob", "Cy"])
        game = advance(served, reply, _confirm_position(name), seed=seed)
        if game is not None:
            break
    assert game is not None
    seat = game.waiting[0]
    kind = {"avanti": "PlayCard", "mare": "SkipMove", "autorama": "Pass"}[name]
    command = next(c for c in game.legal_commands(seat) if type(c).__name__ == kind)
    notation = game.notation(command)
    table = _open(browser, _seat_url(served, reply, seat), seat)
    table.wait(game.version)
    page = table.page
    if name == "avanti":
        place = page.locator(
            f'#picture [data-card="{command.card}"] [data-number="{command.number}"]'
        ).first
    else:
        place = page.locator(f'#commands button[data-notation="{notation}"]')
    place.click()
    page.wait_for_selector(f'#table[data-armed="{notation}"]', state="attached")
    assert page.get_attribute("#table", "data-pending") == "false"
    assert page.locator("#confirm").is_visible()
    question = GAMES[name].load_presentation().confirm(game.public_setup, command)
    assert question
    assert question in page.locator("#confirm").inner_text()  # the game's own words
    assert stored(served, reply["id"]).version == game.version  # one tap sent nothing
    if name == "avanti":
        page.screenshot(path=screens / "confirm.png")
    page.keyboard.press("Escape")
    page.wait_for_selector('#table[data-armed=""]', state="attached")
    place.click()
    page.wait_for_selector(f'#table[data-armed="{notation}"]', state="attached")
    if name == "mare":
        page.locator("#history").click()  # a click elsewhere cancels, the key then confirms
        page.wait_for_selector('#table[data-armed=""]', state="attached")
        page.locator(f'#commands button[data-notation="{notation}"]').click()
        page.locator("#history").focus()
        page.keyboard.press("Enter")
    else:
        place.click()
    wait_for(lambda: stored(served, reply["id"]).version > game.version, "the command")
    after = stored(served, reply["id"])
    assert after.events[game.version : after.version]
    assert table.errors == []
    page.context.close()


def _over(game: Any) -> bool:
    return bool(game.is_over)


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_the_end_screen_shows_the_standings(
    browser: Browser, served: Served, screens: Path, name: str
) -> None:
    """The end of a game: the standings in the outcome's order, each total with the parts it
    adds up to and their rules, as the game's presentation states them through the server
    (Avanti: island spaces, A19, A20; Autorama: checks, advisers and cash, F19, F20; Avanti
    mare!: fish free or caught for each side, M8), "Rematch" for a seat and "Back to the lobby"
    for all. The page itself knows no game."""
    reply = served.create(name, ["Ann", "Bob", "Cy"])
    game = advance(served, reply, _over, seed=3)
    outcome = game.outcome
    told = GAMES[name].load_presentation().standings(outcome, game.public_setup)
    seat = _open(browser, _seat_url(served, reply, 0), 0)
    watcher = _open(browser, f"{served.url}/play/{reply['id']}", None)
    for table in (seat, watcher):
        table.wait(game.version)
        order = json.loads(table.page.get_attribute("table.standings", "data-order") or "[]")
        rows = table.page.locator("table.standings tbody tr").all_inner_texts()
        names = game.public_setup.players
        assert order == [standing.seat for standing in told.seats]
        for row, standing in zip(rows, told.seats, strict=True):
            name_cell, total, parts = row.split("\t")
            assert name_cell == f"{standing.place}. {names[standing.seat]}"
            assert total == standing.shown
            assert all(part.shown in parts and part.rule in parts for part in standing.parts)
            assert sum(part.amount for part in standing.parts) == standing.total
        text = table.page.locator("#result").inner_text()
        if name == "avanti":  # the island's order (A19, A20)
            assert order == list(outcome.ranking)
            for row, placed in zip(rows, order, strict=True):
                assert f"\tisland space {outcome.island[placed]}\t" in row
        elif name == "autorama":  # the most money, then the most cash (F19, F20)
            totals = {score.seat: score.total for score in outcome.scores}
            cash = {score.seat: score.cash for score in outcome.scores}
            assert order == sorted(totals, key=lambda s: (-totals[s], -cash[s], s))
            for row, placed in zip(rows, order, strict=True):
                assert f"\t${totals[placed] * 1000:,}\t" in row
        else:  # the side with more fish wins (M8)
            winners = list(outcome.winners)
            assert order[: len(winners)] == winners
            assert f"{outcome.free} fish free" in text or f"{outcome.caught} fish caught" in text
        if told.decided:
            assert told.decided in text
        assert table.page.locator("#lobby").get_attribute("href") == "/"
        rematch = table.page.locator("#rematch")
        assert rematch.count() == (1 if table.seat is not None else 0)
        assert table.errors == []
    seat.page.screenshot(path=screens / f"end-{name}.png")
    seat.page.context.close()
    watcher.page.context.close()


def test_reduced_motion_shows_each_step_at_once(browser: Browser, served: Served) -> None:
    """A browser that asks for reduced motion gets instant steps whatever the pace setting
    (here the default, 0.6 s): the drive is drawn at once, nothing moves, the pace offers it."""
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    game = advance(served, reply, _drives, seed=4)
    context = _context(browser, pace=None, reduced_motion="reduce")
    table = Table(context.new_page(), _seat_url(served, reply, 0), 0).open()
    table.wait(game.version)
    game = advance(served, reply, lambda now: now.version > game.version, seed=4)
    table.wait(game.version)
    assert table.page.get_attribute("#table", "data-moved") == ""
    assert table.page.evaluate("document.getAnimations().length") == 0
    assert table.page.input_value("#pace") == "0"
    context.close()
