"""The lobby: create a game with bots in some seats, follow a join link, play it to the end."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from avanti import catalog
from tests.browser.tables import BRISK, Table, click_command, deal, stored
from tests.server.support import Served, wait_for


def _moved_on(served: Served, game_id: str, version: int) -> None:
    """Wait until the stored game is past ``version``."""
    wait_for(lambda: served.store.stream(game_id).version > version, "the next command")


DEALS = {"mare": 3, "avanti": 10, "autorama": 5}
"""The seed each game is dealt from: with the clicks of seed 11, games of at most 55, 238 and
186 events in a few tries of the bots' moves (the bots draw their own randomness)."""


@pytest.mark.parametrize("name", list(DEALS))
def test_lobby_game_against_bots_to_the_end(
    browser: Browser, served: Served, screens: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A person creates a game in the lobby with two heuristic bots, opens their seat's join
    link (the token only in the fragment) and plays to the end against the server's bots. The
    bots' moves are shown one after another, animated, at a brisk pace."""
    deal(monkeypatch, DEALS[name])
    context = browser.new_context()
    context.add_init_script(BRISK)
    page = context.new_page()
    page.goto(f"{served.url}/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", name)
    page.select_option("#count", "3")
    page.fill("#name-0", "Ann")
    page.select_option("#player-1", "heuristic")
    page.select_option("#player-2", "heuristic")
    if name == "avanti":
        page.screenshot(path=screens / "lobby-new.png", full_page=True)
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
    assert bots[1:] == [f"{names[seat]} (seat {seat + 1}): a heuristic bot" for seat in (1, 2)]
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


HOSTILE_CHAT = [
    "x" * 500,
    "<b>bold?</b> <script>alert(1)</script>",
    "\u202eevil\u202c and <img src=x onerror=alert(1)>",
]


def test_a_friend_takes_an_open_seat_by_name_and_the_creator_starts_with_a_bot(
    browser: Browser, served: Served, screens: Path
) -> None:
    """Tina opens a table of Avanti with two open seats; Ulla follows the invite link, types her
    name and sits down (her token kept by her browser, never in an address); the lobby lists the
    table with its seats taken; Tina fills the last seat with a bot and both tables lead to the
    game."""
    done = served.create("mare", ["Vera", "Will"], {"0": "random", "1": "random"})["id"]
    wait_for(lambda: served.store.stream(done).metadata.get("outcome"), "the bots to finish")
    tina = browser.new_context().new_page()
    tina.goto(f"{served.url}/")
    tina.wait_for_selector("body[data-ready=true]")
    tina.select_option("#game", "avanti")
    tina.select_option("#count", "3")
    tina.fill("#name-0", "Tina")
    tina.select_option("#player-1", "open")
    tina.select_option("#player-2", "open")
    tina.select_option("#clock-seconds", "180")
    tina.click("#create-button")
    invite = tina.locator("#invite")
    invite.wait_for()
    link = invite.get_attribute("href")
    assert link is not None
    game_id = link.rsplit("=", 1)[1]
    assert link == f"{served.url}/?join={game_id}"
    kept = tina.evaluate(f"() => localStorage.getItem('avanti.seat.{game_id}')")
    assert json.loads(kept)["seat"] == 0
    ulla = browser.new_context().new_page()
    ulla.goto(link)
    ulla.wait_for_selector("body[data-ready=true]")
    assert "1 of 3 seats taken" in ulla.locator("#join").inner_text()
    ulla.fill("#join input.sit-name", "Ulla")
    ulla.click("#join button.take")
    ulla.wait_for_url(f"{served.url}/play/{game_id}")
    seat = json.loads(ulla.evaluate(f"() => localStorage.getItem('avanti.seat.{game_id}')"))
    assert (seat["seat"], seat["name"], len(seat["token"])) == (1, "Ulla", 32)
    lobby = browser.new_context().new_page()
    lobby.goto(f"{served.url}/")
    entry = lobby.locator(f'#open-tables li[data-game="{game_id}"]')
    expect(entry).to_contain_text("2 of 3 seats taken")
    expect(entry).to_contain_text("Avanti: Tina, Ulla, (open)")
    expect(lobby.locator("#finished li").first).to_contain_text("finished: ")
    lobby.screenshot(path=screens / "lobby.png", full_page=True)
    tina.select_option("#start-bot", "random")
    tina.click("#start")
    tina.wait_for_url(f"{served.url}/play/{game_id}")
    game = stored(served, game_id)
    assert list(game.public_setup.players) == ["Tina", "Ulla", "Random bot 2"]
    record = served.store.stream(game_id)
    assert record.metadata["clock"] == 180.0
    lobby.reload()
    expect(lobby.locator(f'#games li[data-game="{game_id}"]')).to_contain_text("to move, round 1")
    for page in (tina, ulla, lobby):
        page.context.close()


def test_chat_shows_hostile_text_as_text_and_a_seat_can_mute_it(
    browser: Browser, served: Served, screens: Path
) -> None:
    """The chat draws each message as text (the text shown is the text sent; no element is
    made from it), says who wrote it, sends a seat's words as an ``avanti:send`` event, hides the
    box from spectators, and stays muted across a reload once muted."""
    game = served.create("mare", ["Ann", "Bob"])
    page = browser.new_context().new_page()
    page.goto(f"{served.url}/play/{game['id']}")
    page.wait_for_selector("#chat[data-ready=true]")
    # The page seats itself as a spectator on the socket's first update: only then is a seat
    # told over it (told before, the page's own word would hide the box again).
    expect(page.locator("#chat-note")).to_be_visible()
    page.evaluate(
        """() => {
          window.sent = [];
          document.addEventListener("avanti:send", (event) => window.sent.push(event.detail));
          document.dispatchEvent(new CustomEvent("avanti:seated",
            {detail: {gameId: "g", seat: 0, token: "t", names: ["Ann", "Bob"]}}));
        }"""
    )
    messages = [
        {
            "id": n,
            "seat": n % 2,
            "name": ["Ann", "Bob"][n % 2],
            "text": text,
            "at": 0,
            "system": False,
        }
        for n, text in enumerate(HOSTILE_CHAT)
    ]
    messages.append(
        {
            "id": 3,
            "seat": None,
            "name": None,
            "text": "Ann's time ran out: a bot moved",
            "at": 0,
            "system": True,
        }
    )
    page.evaluate(
        """(messages) => document.dispatchEvent(new CustomEvent("avanti:message",
             {detail: {type: "chat", messages}}))""",
        messages,
    )
    items = page.locator("#chat-messages li")
    expect(items).to_have_count(4)
    texts = page.locator("#chat-messages li .text").all_text_contents()
    assert texts == [*HOSTILE_CHAT, "Ann's time ran out: a bot moved"]
    assert page.locator("#chat-messages li .who").all_text_contents() == [
        "Ann: ",
        "Bob: ",
        "Ann: ",
        "",
    ]
    assert page.locator("#chat-messages script, #chat-messages img, #chat-messages b").count() == 0
    assert page.locator("#chat-messages *").count() == 4 * 3
    page.fill("#chat-text", HOSTILE_CHAT[1])
    page.click("#chat-form button")
    assert page.evaluate("() => window.sent") == [{"type": "chat", "text": HOSTILE_CHAT[1]}]
    page.screenshot(path=screens / "chat.png", full_page=True)
    page.check("#chat-mute")
    expect(page.locator("#chat-messages")).to_be_hidden()
    page.reload()
    page.wait_for_selector("#chat[data-ready=true]")
    expect(page.locator("#chat-mute")).to_be_checked()
    expect(page.locator("#chat-muted")).to_be_visible()
    page.evaluate(
        """() => document.dispatchEvent(new CustomEvent("avanti:seated",
             {detail: {gameId: "g", seat: null, token: null, names: []}}))"""
    )
    expect(page.locator("#chat-form")).to_be_hidden()
    expect(page.locator("#chat-note")).to_be_visible()
    page.context.close()
