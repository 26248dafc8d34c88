"""The lobby: create a game with bots in some seats, follow a join link, play it to the end."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from avanti import catalog
from tests.browser.tables import Table, click_command, stored
from tests.server.support import Served, wait_for


def _moved_on(served: Served, game_id: str, version: int) -> None:
    """Wait until the stored game is past ``version``."""
    wait_for(lambda: served.store.stream(game_id).version > version, "the next command")


@pytest.mark.parametrize("name", ["mare", "avanti", "autorama"])
def test_lobby_game_against_bots_to_the_end(
    browser: Browser, served: Served, screens: Path, name: str
) -> None:
    """A person creates a game in the lobby with two heuristic bots, opens their seat's join
    link (the token only in the fragment) and plays to the end against the server's bots."""
    page = browser.new_context().new_page()
    page.goto(f"{served.url}/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", name)
    page.select_option("#count", "3")
    page.fill("#name-0", "Ann")
    page.select_option("#player-1", "heuristic")
    page.select_option("#player-2", "heuristic")
    if name == "avanti":
        page.screenshot(path=screens / "lobby.png", full_page=True)
    page.click("#create-button")
    link = page.locator('#links li[data-seat="0"] a.join')
    link.wait_for()
    href = link.get_attribute("href")
    assert href is not None
    assert href.startswith("/play/")
    game_id, token = href.removeprefix("/play/").split("#")
    assert len(token) == 32
    bots = page.locator("#links li").all_inner_texts()
    names = catalog.GAMES[name].player_names(3)
    assert bots[1:] == [f"{names[seat]} (seat {seat}): a heuristic bot" for seat in (1, 2)]
    page.locator(f'#games a[href="/play/{game_id}"]').wait_for()  # listed to watch
    if name == "avanti":
        page.screenshot(path=screens / "lobby-links.png", full_page=True)
    page.goto(f"{served.url}{href}")
    table = Table(page, f"{served.url}{href}", 0)
    rng = random.Random(11)
    while True:
        # Bots play at once, even while this seat chooses (a simultaneous step): read the
        # page at the version it shows, and the stored game as it was then.
        # Several commands may come between two looks: the history is checked against the
        # library's whole (it must be exactly the seat's events in words), and for hidden
        # facts the rest of the page is.
        table.catch_up(served.store.stream(game_id).version)
        game: Any = table.check(lambda version: stored(served, game_id, version), name, None)
        shown = game.version
        if game.is_over:
            break
        if 0 in game.waiting:
            click_command(table, game, rng.choice(list(game.legal_commands(0))))
        _moved_on(served, game_id, shown)
    winners = [game.public_setup.players[seat] for seat in game.outcome.winners]
    assert page.locator("#result").inner_text().startswith("Game over: ")
    assert all(winner in page.locator("#result").inner_text() for winner in winners)
    page.context.close()


def test_the_lobby_offers_each_seat_a_side_and_the_table_names_it_and_each_commands_words(
    browser: Browser, served: Served
) -> None:
    """M2: in Avanti mare! each player sides with the fish friends or the fisher fans, picked in
    the lobby; the seat's page says which side it backs, and each command button carries the
    game's words for it (``explain``) beside its notation."""
    from avanti import mare

    page = browser.new_context().new_page()
    page.goto(f"{served.url}/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", "mare")
    page.select_option("#count", "2")
    options = page.locator("#side-0 option").all_inner_texts()
    assert options == ["backs the fish-friends", "backs the fisher-fans"]
    page.select_option("#side-0", "fisher-fans")
    page.select_option("#side-1", "fish-friends")
    page.select_option("#player-1", "heuristic")
    page.click("#create-button")
    link = page.locator('#links li[data-seat="0"] a.join')
    link.wait_for()
    href = link.get_attribute("href")
    assert href is not None
    game_id = href.removeprefix("/play/").split("#")[0]
    game = stored(served, game_id)
    assert [str(side) for side in game.setup.sides] == ["fisher-fans", "fish-friends"]
    page.goto(f"{served.url}{href}")
    page.locator("#who", has_text="backing the fisher-fans").wait_for()  # no eval (CSP)
    button = page.locator('#commands button.command[data-notation="roll"]')
    button.wait_for()
    roll = mare.Roll(0)
    assert button.get_attribute("title") == mare.explain(game.public_setup, roll, game.view(0))
