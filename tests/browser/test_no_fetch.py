"""A table page fetches nothing per change: each ``update`` on its WebSocket carries the seat's
picture and history, so after the page has loaded it requests neither ``/games/{id}/table`` nor
``/games/{id}``, while its picture and history still follow every move."""

from __future__ import annotations

import functools
import random
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Request

from tests.browser.tables import click_command, open_tables, stored
from tests.server.support import Served, wait_for


def test_a_page_playing_against_a_bot_fetches_nothing_per_change(
    browser: Browser, served: Served
) -> None:
    """M1-M4: Ann rolls by clicking, a random bot answers each roll; the page shows each
    version the store reaches, from its socket alone."""
    reply = served.create("mare", ["Ann", "Bot"], {"1": "random"})
    game_id = reply["id"]
    table = open_tables(browser, served, reply)[0]
    table.wait(stored(served, game_id).version)
    paths: list[str] = []

    def seen(request: Request) -> None:
        paths.append(urlsplit(request.url).path)

    table.page.on("request", seen)
    rng = random.Random(11)

    def moved(version: int) -> bool:
        return bool(stored(served, game_id).version > version)

    moves = 0
    while moves < 4:
        game = stored(served, game_id)
        if game.is_over:
            break
        if 0 not in game.waiting:  # the bot's turn: wait until it has moved
            wait_for(functools.partial(moved, game.version), "the bot")
            continue
        table.wait(game.version)
        table.check(lambda version: stored(served, game_id, version), "mare", 0)
        click_command(table, game, rng.choice(list(game.legal_commands(0))))
        wait_for(functools.partial(moved, game.version), "the roll to land")
        moves += 1

    def settled() -> bool:
        game = stored(served, game_id)
        return game.is_over or 0 in game.waiting

    wait_for(settled, "the bot to answer the last roll")
    final = stored(served, game_id)
    assert table.catch_up(final.version) == final.version
    table.check(lambda version: stored(served, game_id, version), "mare", 0)  # picture, history
    assert moves >= 2
    fetched = [path for path in paths if path.startswith(f"/games/{game_id}")]
    assert fetched == [], fetched
