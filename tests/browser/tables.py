"""A table page in the browser, driven and read by the tests, and the game played through it."""

from __future__ import annotations

import functools
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page
from playwright.sync_api import Error as PlaywrightError

from avanti.server.protocol import requests as server_requests
from avanti.store import GameStore
from tests.browser.support import expected, hidden_problems, svg_data, svg_text
from tests.server.support import PATIENCE, Served, wait_for

__all__ = [
    "BRISK",
    "INSTANT",
    "Table",
    "advance",
    "click_command",
    "deal",
    "open_tables",
    "play",
    "stored",
]

INSTANT = "localStorage.setItem('avanti.pace', '0')"
"""An init script that sets a page's pace to instant (each step shown at once, no animation)."""

BRISK = "localStorage.setItem('avanti.pace', '40')"
"""An init script that sets a page's pace to 40 ms a step: every step is still drawn as a move
(animated, one after another), without the default's 600 ms of waiting per step."""

WAIT_MS = PATIENCE * 1000
"""How long a page may take to show what it should (a guard against hanging, not a measure)."""

_TRY_MS = 1000
"""How long one try of a click waits for its place before the game is looked at again (a
poll: the click goes on trying while the game stays where it was, for :data:`WAIT_MS` in all)."""

_SNAPSHOT = """() => {
    const table = document.querySelector('#table').dataset;
    if (table.version === '-1' || table.pending !== 'false') return null;
    const svg = document.querySelector('#picture svg');
    const copy = document.documentElement.cloneNode(true);
    copy.querySelector('#history').remove();
    return {
        text: svg.textContent,
        data: [...svg.querySelectorAll('*')].flatMap(node => [...node.attributes]
            .filter(a => a.name.startsWith('data-')).map(a => a.name.slice(5) + '=' + a.value)),
        rows: Object.fromEntries([...svg.querySelectorAll('g.seat')].map(row => [
            row.dataset.seat,
            [...row.querySelectorAll('text')].map(t => t.textContent).join('\\n')])),
        history: [...document.querySelectorAll('#history li')]
            .map(li => [li.value - 1, li.textContent]),
        buttons: [...document.querySelectorAll(
                '#commands button.command:not(.all), #commands form.pick')]
            .flatMap(b => b.matches('form')
                ? JSON.parse(b.dataset.notations) : [b.dataset.notation]),
        page: copy.outerHTML,
        version: document.querySelector('#table').dataset.version,
    };
}"""
"""Everything :meth:`Table.check` reads of a page, in one round trip, once it shows a version
with no command under way: the picture's text, ``data-*`` attributes and seat rows, the
history, the commands offered (each button's, and each number field's whole range of
notations, in the page's order), the page's HTML without its history and the version."""


_STATE = """() => ({table: {...document.querySelector('#table').dataset},
    status: document.querySelector('#status').textContent,
    message: document.querySelector('#message').textContent, errors: []})"""
"""What a page that is stuck shows, for the failure's message."""


class Table:
    """One seat's table page (``seat`` ``None``: a spectator's) in a browser context of its own."""

    def __init__(self, page: Page, url: str, seat: int | None) -> None:
        self.page = page
        self.url = url
        self.seat = seat
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def open(self) -> Table:
        """Load the page."""
        self.page.goto(self.url)
        return self

    def wait(self, version: int) -> None:
        """Wait until the page shows ``version`` and has no command under way."""
        try:
            self.page.wait_for_selector(
                f'#table[data-version="{version}"][data-pending="false"]',
                state="attached",
                timeout=WAIT_MS,
            )
        except PlaywrightError:
            shown = self.page.evaluate(_STATE)
            raise AssertionError(
                f"seat {self.seat}'s page never showed {version}: {shown}"
            ) from None

    def catch_up(self, version: int) -> int:
        """Wait until the page shows ``version`` or a later one, with no command under way;
        the version it shows."""
        try:
            self.page.wait_for_function(
                """least => { const t = document.querySelector('#table').dataset;
                    return Number(t.version) >= least && t.pending === 'false'; }""",
                arg=version,
                timeout=WAIT_MS,
            )
        except PlaywrightError:
            shown = self.page.evaluate(_STATE)
            raise AssertionError(
                f"seat {self.seat}'s page never reached {version}: {shown}"
            ) from None
        return int(self.page.get_attribute("#table", "data-version") or "-1")

    def snapshot(self) -> dict[str, Any]:
        """What the page shows now (see :data:`_SNAPSHOT`)."""
        handle = self.page.wait_for_function(_SNAPSHOT, timeout=WAIT_MS)
        shown: dict[str, Any] = handle.json_value()
        return shown

    def message(self) -> str:
        """The refusal or note shown, once it is shown."""
        shown = self.page.locator("#message")
        shown.wait_for(state="visible", timeout=WAIT_MS)
        return shown.inner_text()

    def check(self, load: Callable[[int], Any], name: str, since: int | None) -> Any:
        """The page against the stored game as it was at the version the page shows (``load``
        gives it): exactly the seat's picture, history and legal commands, and none of the
        other seats' hidden facts in the page but its history older than ``since`` (``None``:
        but its whole history). The game at that version."""
        shown = self.snapshot()
        game = load(int(shown["version"]))
        want = expected(game, name, self.seat)
        assert shown["text"] == svg_text(want["svg"]), (self.seat, game.version)
        assert shown["data"] == svg_data(want["svg"]), (self.seat, game.version)
        history = [(position, text) for position, text in shown["history"]]
        assert history == [(line["position"], line["text"]) for line in want["history"]]
        legal = [] if self.seat is None else game.legal_commands(self.seat)
        assert shown["buttons"] == [game.notation(command) for command in legal]
        if self.seat is not None:
            rows = {int(seat): text for seat, text in shown["rows"].items()}
            found = hidden_problems(name, game, self.seat, shown["page"], rows)
            assert found == [], (self.seat, game.version, found)
            for position, text in history:  # each new line, as its command left the game
                if since is None or position < since:
                    continue
                end = _command_end(game, position)
                then = game if end == game.version else load(end)
                found = hidden_problems(name, then, self.seat, text, {})
                assert found == [], (self.seat, position, text, found)
        assert self.errors == [], self.errors
        return game


def _command_end(game: Any, position: int) -> int:
    """The version right after the command whose events include the one at ``position``: a
    command's first event names it as its cause, the events that follow from it name none."""
    cause = type(game).rules.cause
    end = position + 1
    while end < game.version and cause(game.events[end]) is None:
        end += 1
    return end


def deal(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Have the server deal the games created during the test from ``seed``, where it draws a
    secret seed for each (:func:`avanti.core.limits.new_seed`): a whole game played by seeded
    clicks is then the same game on every run, and one of a known length. A rematch still draws
    a fresh seed."""
    monkeypatch.setattr(server_requests, "new_seed", lambda: seed)


def stored(served: Served, game_id: str, version: int | None = None) -> Any:
    """The game as the server's store holds it now (or as it was at ``version``)."""
    game = GameStore(served.store).load(game_id)
    if version is None or version == game.version:
        return game
    return type(game).replay(game.setup, game.events[:version], verify=False)


def advance(served: Served, reply: Any, until: Callable[[Any], bool], seed: int = 1) -> Any:
    """Play random legal commands over HTTP, each with its seat's token, until ``until(game)``
    (the game then; ``None`` if it ended first)."""
    rng = random.Random(seed)
    tokens = {seat["seat"]: seat["token"] for seat in reply["seats"]}
    game = stored(served, reply["id"])
    while not until(game):
        if game.is_over:
            return None
        seat = game.waiting[0]
        command = rng.choice(list(game.legal_commands(seat)))
        answer = served.http.post(
            f"/games/{reply['id']}/commands",
            json={"notation": game.notation(command), "expected_version": game.version},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.text
        game = stored(served, reply["id"])
    return game


def open_tables(
    browser: Browser, served: Served, reply: Any, pace: str | None = INSTANT, **context: Any
) -> dict[int, Table]:
    """A table page per seat with a token, each in a browser context of its own (its pace
    set by the init script ``pace``: instant unless told, ``None`` for the page's default)."""
    tables: dict[int, Table] = {}
    for seat in reply["seats"]:
        if seat["token"] is None:
            continue
        made = browser.new_context(**context)
        if pace is not None:
            made.add_init_script(pace)
        page = made.new_page()
        url = f"{served.url}/play/{reply['id']}#{seat['token']}"
        tables[seat["seat"]] = Table(page, url, seat["seat"]).open()
    return tables


def click_command(
    table: Table, game: Any, command: Any, moved: Callable[[], bool] = lambda: False
) -> None:
    """Choose ``command`` on its seat's page with the mouse: on the picture where the picture
    has a place for it, else (or to pick among what the place fits) with its button; a
    command that needs confirming is clicked twice.

    ``moved`` tells whether the game moved on meanwhile (a bot of the server moved in the same
    phase, or this very command landed although its click was cut short by a redrawing): the
    click is then left, and the caller looks at the game again."""
    kind = type(command).__name__
    picture = table.page.locator("#picture")
    places = {
        "PlaceEventMarker": lambda: f'[data-space="{command.space}"]',
        "PlayCard": lambda: f'[data-card="{command.card}"] [data-number="{command.number}"]',
        "MoveFish": lambda: f'[data-fish="{command.fish.value}"]',
        "PlayAdvisor": lambda: f'[data-advisor="{command.advisor}"]',
        "Offer": lambda: f'[data-vehicles="{command.vehicles[0]}"]',
    }
    notation = game.notation(command)
    if kind in places:
        target = picture.locator(places[kind]()).first
        if not _click(target, moved):
            return
        if table.page.locator("#commands button.all").count() == 0:
            if table.page.locator("#commands button.armed").count() > 0:
                _click(target, moved)  # selected only: the same place again confirms it
            return  # the click named one command and sent it
    quoted = notation.replace("\\", "\\\\").replace('"', '\\"')
    button = table.page.locator(f'#commands button.command[data-notation="{quoted}"]')
    field = table.page.locator("#commands form.pick")
    wait_for(
        lambda: moved() or button.count() > 0 or _field_for(table, notation) is not None,
        "the command's button or number field",
    )
    if button.count() == 0:
        index = _field_for(table, notation)
        if index is None:
            return  # the game moved on first: the command may be no longer legal
        _choose_number(table, field.nth(index), notation, moved)
        return
    confirm = button.get_attribute("data-confirm") == "true"
    if _click(button, moved) and confirm:
        _click(button, moved)  # the first click selected it; the second sends it


def _field_for(table: Table, notation: str) -> int | None:
    """The index of the number field that offers ``notation`` among the page's, or ``None``."""
    found: int = table.page.evaluate(
        """(notation) => [...document.querySelectorAll('#commands form.pick')]
            .findIndex(form => JSON.parse(form.dataset.notations).includes(notation))""",
        notation,
    )
    return None if found < 0 else found


def _choose_number(table: Table, form: Locator, notation: str, moved: Callable[[], bool]) -> None:
    """Type the number of ``notation`` into its field and press Enter (again, when the first
    Enter only selected it)."""
    notations = json.loads(form.get_attribute("data-notations") or "[]")
    values = json.loads(form.get_attribute("data-values") or "[]")
    number = str(values[notations.index(notation)])
    field = form.locator("input.number")
    try:
        field.fill(number)
        field.press("Enter")
        if table.page.get_attribute("#table", "data-armed") == notation:
            field.press("Enter")  # the first Enter selected it; the second sends it
    except PlaywrightError:
        if not moved():
            raise


def _click(target: Locator, moved: Callable[[], bool]) -> bool:
    """Click ``target``; whether it was clicked (``False``: the game moved on first).

    Another seat's move may redraw the page between finding the place and the click (the old
    drawing left the page): the place is then found in the new drawing, once shown, or, when
    the move took it away, given up as soon as the game is seen to have moved on. The click
    waits for one or the other, tried again every :data:`_TRY_MS`, for :data:`PATIENCE` in all
    (before, a click on a place a bot's move had taken away waited that long, then gave up)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            target.click(force=True, timeout=_TRY_MS)
            return True
        except PlaywrightError:
            if moved():
                return False
            if time.monotonic() > deadline:
                raise


def _at(served: Served, game_id: str, game: Any, version: int) -> Any:
    """``game`` if it is at ``version``, else the stored game as it was then."""
    return game if version == game.version else stored(served, game_id, version)


def _past(served: Served, game_id: str, version: int) -> bool:
    return served.store.stream(game_id).version > version


def play(
    served: Served,
    game_id: str,
    name: str,
    tables: dict[int, Table],
    rng: random.Random,
    *,
    act: Callable[[Table, Any, Any, int], bool] = lambda table, game, command, step: False,
    moment: Callable[[Any, int], None] = lambda game, step: None,
    watchers: Sequence[Table] = (),
) -> Any:
    """Play a game to its end through its pages: at every step each page (and each of the
    ``watchers``, spectators' pages) is checked against the stored game, then a random legal
    command of a waiting seat with a page is clicked (``act`` may do the step its own way and
    return True); while only seats without a page (the server's bots) are awaited, the step is
    theirs. The game at the end."""
    since = 0
    step = 0
    while True:
        game = stored(served, game_id)
        for table in (*tables.values(), *watchers):
            table.catch_up(game.version)  # a bot may have moved on meanwhile
            table.check(functools.partial(_at, served, game_id, game), name, since)
        moment(game, step)
        if game.is_over:
            return game
        seat = next((seat for seat in game.waiting if seat in tables), None)
        if seat is not None:
            command = rng.choice(list(game.legal_commands(seat)))
            moved = functools.partial(_past, served, game_id, game.version)
            if not act(tables[seat], game, command, step):
                click_command(tables[seat], game, command, moved)
        version = game.version
        try:
            wait_for(functools.partial(_past, served, game_id, version), "the command to land")
        except AssertionError:  # a lost click or a stuck page: say what each page shows
            shown = {
                table.seat: {**table.page.evaluate(_STATE), "errors": table.errors}
                for table in tables.values()
            }
            mover = "a bot's" if seat is None else f"seat {seat}'s ({command})"
            raise AssertionError(
                f"{mover} command at version {version} never landed; the pages show {shown}"
            ) from None
        since = game.version
        step += 1
