"""The replay page: a finished game opens from the lobby and steps forward and back, as the
spectator and as a seat saw it; the end screen links to it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

import avanti
from avanti import catalog
from avanti.server.table.record import Seat, Table, summary_of
from avanti.server.transport.replay import SeatReplay, seat_replay
from avanti.store import GameStore
from tests.browser.support import svg_text
from tests.server.support import Served

GAME_ID = "5e0c3f1a9b7d2468"
NAMES = ["Ann", "Bob", "Cy"]


def finished_avanti(seed: int) -> Any:
    """A game of Avanti played to its end by seeded random commands."""
    game = avanti.new_game(NAMES, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
    return game


def shows(page: Page, replay: SeatReplay, index: int) -> None:
    """Wait until the page shows step ``index`` of ``replay`` with its picture drawn, then check
    its words and its picture against the server's."""
    step = replay.step(replay.versions[index])
    seer = "spectator" if replay.seen_by is None else str(replay.seen_by)
    main = page.locator("#replay")
    expect(main).to_have_attribute("data-step", str(index))
    expect(main).to_have_attribute("data-drawn", f"{seer}|{step['version']}")
    lines = page.locator("#lines li").all_inner_texts()
    assert lines == (step["lines"] or ["nothing this seat could see"])
    assert page.locator("#picture svg").text_content() == svg_text(str(step["svg"]))
    assert page.locator("#slider").input_value() == str(index)


def test_a_finished_game_opens_from_the_lobby_and_steps_as_each_seat_saw_it(
    browser: Browser, served: Served, screens: Path
) -> None:
    """The lobby's finished game offers "Watch the replay"; the page steps forward and back by
    button, key and slider, showing each step's words and picture as the spectator saw them,
    then as Ann (seat 1) saw them: her hand face up, her own deeds as "You"."""
    game = finished_avanti(5)
    table = Table("avanti", tuple(Seat(name, None, "random") for name in NAMES))
    outcome = {"winners": list(game.outcome.winners), "returns": list(game.outcome.returns)}
    metadata = {**table.to_metadata(), **summary_of(game), "client": "replay", "outcome": outcome}
    GameStore(served.store).create(GAME_ID, game, metadata)  # as the last command's append ends
    info = catalog.GAMES["avanti"]
    watched = seat_replay(game, info, None, GAME_ID)
    anns = seat_replay(game, info, 0, GAME_ID)

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{served.url}/")
    page.wait_for_selector("body[data-ready=true]")
    link = page.locator(f'#finished li[data-game="{GAME_ID}"] a.replay')
    expect(link).to_have_text("Watch the replay")
    link.click()
    page.wait_for_url(f"**/replay/{GAME_ID}")
    expect(page.locator("#replay")).to_have_attribute("data-seen-by", "spectator")
    shows(page, watched, 0)
    assert page.locator("#back").is_disabled()
    page.keyboard.press("ArrowRight")
    shows(page, watched, 1)
    page.click("#forward")
    shows(page, watched, 2)
    page.click("#back")
    shows(page, watched, 1)
    page.keyboard.press("ArrowLeft")
    shows(page, watched, 0)
    middle = len(watched.versions) // 2
    page.locator("#slider").fill(str(middle))
    shows(page, watched, middle)
    assert page.url.endswith(f"?seen_by=spectator&at={watched.versions[middle]}")

    # Ann's replay at the same step: her hand face up, her deeds in the second person.
    page.select_option("#seen-by", "0")
    expect(page.locator("#replay")).to_have_attribute("data-seen-by", "0")
    shows(page, anns, middle)
    assert anns.views[middle].hand, "Ann holds cards at the middle of the game"
    spectator_svg = watched.step(watched.versions[middle])["svg"]
    assert svg_text(str(spectator_svg)) != page.locator("#picture svg").text_content()
    drives = (
        i for i, lines in enumerate(_lines(anns)) if lines and lines[0].startswith("You drive")
    )
    you = next(drives)  # Ann's first drive (A10), in the second person
    page.locator("#slider").fill(str(you))
    shows(page, anns, you)
    assert page.locator("#lines li").first.inner_text().startswith("You drive")
    page.screenshot(path=screens / "replay.png", full_page=False)
    page.keyboard.press("End")
    shows(page, anns, len(anns.versions) - 1)
    winners = " and ".join(NAMES[seat] for seat in game.outcome.winners)
    expect(page.locator("#status")).to_contain_text(f"Game over: {winners}")
    assert page.locator("#forward").is_disabled()

    # The same address opens the same moment in another browser.
    other = browser.new_context().new_page()
    other.goto(f"{served.url}/replay/{GAME_ID}?seen_by=0&at={anns.versions[you]}")
    shows(other, anns, you)
    other.context.close()

    # The table's end screen links to the replay.
    page.goto(f"{served.url}/play/{GAME_ID}")
    expect(page.locator("#result a#replay")).to_have_attribute("href", f"/replay/{GAME_ID}")
    page.context.close()


def test_a_game_that_goes_on_has_no_replay_yet(browser: Browser, served: Served) -> None:
    created = served.create("mare", ["Ann", "Bob"])
    page = browser.new_context().new_page()
    page.goto(f"{served.url}/replay/{created['id']}")
    expect(page.locator("#status")).to_have_text(
        "This game is not over yet: its replay opens once it is."
    )
    page.context.close()


def _lines(replay: SeatReplay) -> list[list[str]]:
    steps = replay.data["steps"]
    assert isinstance(steps, list)
    return [list(step["lines"]) for step in steps if isinstance(step, dict)]
