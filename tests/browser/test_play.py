"""Whole games played by clicking in real browser pages, one browser context per seat.

At every step every page is checked against the stored game (:meth:`Table.check`): it shows
exactly its seat's picture, history and legal commands, and none of the other seats' hidden
facts. Screenshots of each table are kept in the run's ``screens`` folder.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from avanti import PlaceEventMarker
from avanti.avanti.state import Phase
from avanti.core.errors import IllegalCommand
from tests.browser.tables import Table, deal, open_tables, play
from tests.server.support import Served

_SHOTS = {0, 4, 9, 16}
"""The steps at which seat 0's table is photographed (and the end)."""


def _winners(game: Any) -> str:
    names = [game.public_setup.players[seat] for seat in game.outcome.winners]
    if not names:
        return "Nobody wins."
    return f"{' and '.join(names)} {'wins' if len(names) == 1 else 'win'}."


def _photographer(name: str, table: Table, screens: Path) -> Any:
    def moment(game: Any, step: int) -> None:
        if step in _SHOTS or game.is_over:
            label = "end" if game.is_over else f"{step:02d}"
            table.page.screenshot(path=screens / f"{name}-{label}.png", full_page=True)

    return moment


def _result(table: Table) -> str:
    return table.page.locator("#result").inner_text()


def test_avanti_three_pages_play_to_the_end(
    browser: Browser, served: Served, screens: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A30: three seats play Avanti by clicking; a refused click shows the library's reason
    and changes nothing (A7); a page reloaded mid-game resumes where it was."""
    deal(monkeypatch, 2)  # with the clicks of seed 3: a whole game of 43 commands
    reply = served.create("avanti", ["Ann", "Bob", "Cy"])
    tables = open_tables(browser, served, reply)
    done = {"refused": False, "reloaded": False}
    photograph = _photographer("avanti", tables[0], screens)

    def act(table: Table, game: Any, command: Any, step: int) -> bool:
        seat = table.seat
        assert seat is not None
        if not done["refused"] and game.view(None).phase is Phase.PLANNING:
            done["refused"] = True
            with pytest.raises(IllegalCommand) as refused:
                game.execute(PlaceEventMarker(seat, 3))
            table.page.locator('#picture [data-space="3"]').click()
            words = f"{refused.value.message} (rule {refused.value.rule})"
            assert refused.value.rule == "A7"
            assert table.message() == words
            table.wait(game.version)
            assert served.store.stream(reply["id"]).version == game.version
        return False

    def moment(game: Any, step: int) -> None:
        photograph(game, step)
        if step == 7 and not done["reloaded"]:
            done["reloaded"] = True
            tables[1].page.reload()
            tables[1].wait(game.version)
            tables[1].check(lambda version: game, "avanti", 0)

    game = play(served, reply["id"], "avanti", tables, random.Random(3), act=act, moment=moment)
    assert done == {"refused": True, "reloaded": True}
    for table in tables.values():
        assert _result(table).startswith(f"Game over: {_winners(game)}")


def test_mare_three_pages_play_to_the_end_with_keys(
    browser: Browser, served: Served, screens: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """M1-M4: three seats play Avanti mare! to the end; the first roll is a key press (``1``),
    the second a typed command (``/``, ``roll``, Enter)."""
    deal(monkeypatch, 62)  # with the clicks of seed 5: a whole game of 10 commands
    reply = served.create("mare", ["Ann", "Bob", "Cy"])
    tables = open_tables(browser, served, reply)
    rolled: list[int] = []

    def act(table: Table, game: Any, command: Any, step: int) -> bool:
        notations = [game.notation(c) for c in game.legal_commands(table.seat)]
        if notations != ["roll"] or len(rolled) >= 2:
            return False
        if not rolled:
            table.page.keyboard.press("1")
        else:
            table.page.keyboard.press("/")
            table.page.keyboard.type("roll")
            table.page.keyboard.press("Enter")
        rolled.append(game.version)
        return True

    game = play(
        served,
        reply["id"],
        "mare",
        tables,
        random.Random(5),
        act=act,
        moment=_photographer("mare", tables[0], screens),
    )
    assert len(rolled) == 2
    for table in tables.values():
        assert _result(table).startswith(f"Game over: {_winners(game)}")


def test_autorama_three_pages_play_to_the_end(
    browser: Browser, served: Served, screens: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F1-F20: three seats play For Sale: Autorama to the end with the moves animated (a step
    of 50 ms); no page ever shows another seat's cash (F2) or face-down offer (F14)."""
    deal(monkeypatch, 161)  # with the clicks of seed 7: a whole game of 81 commands
    reply = served.create("autorama", ["Ann", "Bob", "Cy"])
    tables = open_tables(browser, served, reply, pace="localStorage.setItem('avanti.pace', '50')")
    game = play(
        served,
        reply["id"],
        "autorama",
        tables,
        random.Random(7),
        moment=_photographer("autorama", tables[0], screens),
    )
    for table in tables.values():
        assert _result(table).startswith(f"Game over: {_winners(game)}")
