"""The table as players know it, end to end, for each of the three games: two people find a table
in the lobby and sit down by name (no token handed by hand), chat, see whose move it is in the
tab's title, play the whole game with the moves animated, read the end screen, and rematch; a
spectator in a third browser context watches and never sees a command box. Every page is checked
at every step against the stored game, for exactly its seat's share and none of the other
seats' hidden facts (:func:`tests.browser.tables.play`).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.tables import BRISK, WAIT_MS, Table, deal, play, stored
from tests.server.support import Served, wait_for

HOSTILE = '<img src=x onerror="document.title=1"> \u202eevil\u202c ' + "&amp;" * 3
"""A chat line that would be markup, a script and a bidi override if it were read as HTML."""

GAMES = {
    # name: (players, the third seat's bot or None, the seed of the deal, the seed of the random
    # clicks): short games, of at most 37, 10 and 59 clicks in a dozen tries of the bot's moves
    "avanti": (3, "random", 51, 5),
    "mare": (2, None, 62, 6),
    "autorama": (3, "random", 54, 7),
}


def _context(browser: Browser) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(BRISK)  # moves animated, 40 ms a step
    context.set_default_timeout(WAIT_MS)
    return context


def _create(
    page: Page, served: Served, name: str, players: int, bot: str | None, screens: Path
) -> str:
    """Ann creates a table in the lobby: her seat, one open seat, and a bot's if ``bot``, with a
    clock of three minutes a move; the table's id, once her page shows it waiting for a
    player."""
    page.goto(f"{served.url}/")
    page.select_option("#game", name)
    page.select_option("#count", str(players))
    page.fill("#name-0", "Ann")
    page.select_option("#player-1", "open")
    if bot is not None:
        page.select_option("#player-2", bot)
    page.select_option("#clock-seconds", "180")
    page.click("#create-button")
    expect(page.locator("#opened")).to_be_visible()
    page.click("#mine")
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("#status")).to_have_text(
        re.compile(rf"Waiting for players: {players - 1} of {players} seats taken")
    )
    game_id = page.url.rsplit("/", 1)[-1]
    expect(page.locator("#invite")).to_have_value(f"{served.url}/?join={game_id}")
    page.screenshot(path=screens / f"waiting-{name}.png")
    return game_id


def _sit(page: Page, served: Served, game_id: str) -> None:
    """Ben finds Ann's table first in the lobby's list of open tables and takes a seat."""
    page.goto(f"{served.url}/")
    form = page.locator(f'#open-tables form.sit[data-table="{game_id}"]')
    expect(form).to_be_visible()
    first = page.locator("#open-tables form.sit").first
    assert first.get_attribute("data-table") == game_id  # open tables are listed first
    form.locator("input.sit-name").fill("Ben")
    form.locator("button.take").click()
    page.wait_for_url(f"**/play/{game_id}")


def _chat(sender: Page, readers: list[Page]) -> None:
    """A chat line is shown to every page as the text sent, with its sender's name, and makes
    no element of its own."""
    sender.fill("#chat-text", HOSTILE)
    sender.locator("#chat-form button[type=submit]").click()
    for page in (sender, *readers):
        line = page.locator("#chat-messages li").filter(has_text="evil").last
        expect(line.locator(".text")).to_have_text(HOSTILE)
        expect(line.locator(".who")).to_contain_text("Ann")
        assert line.locator("img").count() == 0
        assert page.evaluate("document.title") != "1"


def _standings(table: Table, game: Any) -> None:
    """The end screen's standings are the game's outcome: its order of seats."""
    expect(table.page.locator("table.standings")).to_be_visible()
    order = json.loads(table.page.get_attribute("table.standings", "data-order") or "[]")
    outcome = game.outcome
    if hasattr(outcome, "ranking"):  # Avanti: the island's order (A30)
        assert order == list(outcome.ranking)
    elif hasattr(outcome, "scores"):  # For Sale: Autorama: the totals (F20)
        totals = {score.seat: score.total for score in outcome.scores}
        cash = {score.seat: score.cash for score in outcome.scores}  # equal totals: cash (F20)
        assert order == sorted(totals, key=lambda seat: (-totals[seat], -cash[seat], seat))
    else:  # Avanti mare!: the winners first (M8)
        assert order[: len(outcome.winners)] == list(outcome.winners)
    names = game.public_setup.players
    rows = table.page.locator("table.standings tbody tr").all_inner_texts()
    assert [names[seat] for seat in order] == [
        next(name for name in names if name in row) for row in rows
    ]


@pytest.mark.parametrize("name", list(GAMES))
def test_two_people_find_a_table_play_it_through_and_rematch(
    browser: Browser, served: Served, screens: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Issue 30's whole table: lobby, seats by name, chat, your-move title, a whole game with
    animation, the end screen's standings equal to the outcome, a rematch with fresh seed and
    the same people in their own seats, and a spectator without a command box."""
    players, bot, dealt, seed = GAMES[name]
    deal(monkeypatch, dealt)
    ann_context, ben_context, watcher_context = (_context(browser) for _ in range(3))
    ann, ben, watcher = (
        context.new_page() for context in (ann_context, ben_context, watcher_context)
    )
    try:
        game_id = _create(ann, served, name, players, bot, screens)
        _sit(ben, served, game_id)
        tables = {0: Table(ann, ann.url, 0), 1: Table(ben, ben.url, 1)}
        for table in tables.values():
            table.catch_up(0)
        watcher.goto(f"{served.url}/play/{game_id}")
        spectator = Table(watcher, watcher.url, None)
        spectator.catch_up(0)
        expect(watcher.locator("#heading")).to_have_text("Watching")
        for hidden in ("#commands", "#say", "#keys"):
            expect(watcher.locator(hidden)).to_be_hidden()
        assert not watcher.title().startswith("(•)")

        _chat(ann, [ben, watcher])

        first = stored(served, game_id)
        mover = next(seat for seat in first.waiting if seat in tables)
        expect(tables[mover].page).to_have_title(re.compile(r"^\(•\) Your move"))
        if first.waiting == (mover,):
            expect(tables[1 - mover].page).not_to_have_title(re.compile(r"^\(•\)"))
        clock = tables[mover].page.locator("#clock")  # three minutes a move, counting down
        names = first.public_setup.players
        expect(clock).to_have_text(re.compile(rf"^({'|'.join(names)}): [0-3]:\d\d left$"))
        awaited = "|".join(str(seat) for seat in first.waiting)
        expect(clock).to_have_attribute("data-seat", re.compile(rf"^({awaited})$"))
        ann.screenshot(path=screens / f"table-{name}.png")

        game = play(served, game_id, name, tables, random.Random(seed), watchers=[spectator])
        assert game.is_over
        for table in (*tables.values(), spectator):
            _standings(table, game)
            assert table.errors == []
        assert watcher.locator("#rematch").count() == 0
        ann.screenshot(path=screens / f"end-screen-{name}.png")

        ann.locator("#rematch").click()
        ann.wait_for_url(re.compile(r"/play/(?!" + re.escape(game_id) + r"$)"))
        rematch_id = ann.url.rsplit("/", 1)[-1]
        expect(ben.locator("#join-rematch")).to_be_visible()
        ben.locator("#join-rematch").click()
        ben.wait_for_url(f"**/play/{rematch_id}")
        for page, seat in ((ann, 0), (ben, 1)):
            expect(page.locator("#table")).to_have_attribute("data-seat", str(seat))
            expect(page.locator("#who")).to_contain_text(("Ann", "Ben")[seat])
        wait_for(lambda: served.store.stream(rematch_id).version >= 0, "the rematch game")
        again = stored(served, rematch_id)
        assert again.public_setup.players == game.public_setup.players
        assert served.store.stream(rematch_id).setup != served.store.stream(game_id).setup
    finally:
        for context in (ann_context, ben_context, watcher_context):
            context.close()
