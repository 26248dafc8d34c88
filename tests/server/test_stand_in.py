"""The clock's stand-in: when a seat's time runs out, the game's heuristic bot moves for it, and
never with a command that gives something up for good (Avanti's quitting a run, A14) while
another is legal; a rematch's clock starts once its last seat is taken.

Real servers on an SQLite file where a socket is involved; the clock reads an injected time,
so every deadline is known, and nothing waits but for conditions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen
from starlette.applications import Starlette

import avanti
from avanti import catalog, mare
from avanti.avanti.commands import Drive, PlayCard, Quit
from avanti.bots import make_bot
from avanti.core.bots import Bot
from avanti.core.rng import Rng
from avanti.server.limits import ServerLimits
from avanti.server.protocol.requests import CommandRequest
from avanti.server.protocol.wire import AnyGame
from avanti.server.table import clock as clock_module
from avanti.server.table.changes import Changes
from avanti.server.table.chat import Chat
from avanti.server.table.clock import Clock, stand_in_choices
from avanti.server.table.master import Tables
from avanti.server.table.record import CLOCK, CLOCK_STARTED, Seat, Table, summary_of, token_hash
from avanti.server.table.rematch import Rematch
from avanti.store import GameStore, MemoryEventStore, SQLiteEventStore
from tests.server.support import Served, open_socket, receive, serving, wait_for

START = 1_900_000_000.0
"""The injected time each test begins at (Unix seconds)."""

ANN = "A" * 32
"""Ann's token in the games stored here by hand."""

SEED = 12
"""A game of Avanti whose heuristic players reach, at Ann's 22nd decision, a driving turn on
which Ann's heuristic bot would quit the run (A9, A14)."""

BEFORE = 18
"""Ann's decisions made before the server takes over: the stand-in makes the next four (a
card, a drive, a card, and the drive it would have quit)."""


def timed_by(served: Served, now: list[float]) -> None:
    """Have the server's clock read the time in ``now[0]``."""
    app = served.server.config.app
    assert isinstance(app, Starlette)
    clock: Clock = app.state.server.clock
    clock.now = lambda: now[0]


def bearer(token: str) -> dict[str, str]:
    """The header that names a seat."""
    return {"Authorization": f"Bearer {token}"}


def ran_out(message: Any, name: str) -> bool:
    """Whether ``message`` is the chat telling that ``name``'s time ran out."""
    return message["type"] == "chat" and any(
        m["text"] == f"{name}'s time ran out: a bot moved" and m["system"]
        for m in message["messages"]
    )


def timed_metadata(game: avanti.Game) -> dict[str, Any]:
    """The record of a table where Ann (seat 0, token :data:`ANN`) plays against two heuristic
    bots, 60 s a move, the version of ``game`` waiting since :data:`START`."""
    seats = (
        Seat("Ann", token_hash(ANN), None),
        Seat("Bob", None, "heuristic"),
        Seat("Cy", None, "heuristic"),
    )
    return {
        **Table("avanti", seats).to_metadata(),
        **summary_of(game),
        CLOCK: 60.0,
        CLOCK_STARTED: {"version": game.version, "at": START},
    }


def heuristic_play(decisions: int) -> tuple[avanti.Game, list[Any]]:
    """A game of :data:`SEED` played by heuristic bots (Ann's choosing as the stand-in does)
    up to Ann's ``decisions``-th decision; the game then, and Ann's choices so far."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=SEED)
    info = catalog.game_info("avanti")
    bots: list[Bot[Any, Any]] = [make_bot("heuristic", info, game.setup, s) for s in range(3)]
    rng = Rng(0).stream()
    mine: list[Any] = []
    while True:
        seat = game.waiting[0]
        if seat == 0:
            if len(mine) == decisions:
                return game, mine
            command = bots[0].choose(game.view(0), stand_in_choices(game, 0), rng)
            mine.append(command)
        else:
            command = bots[seat].choose(game.view(seat), game.legal_commands(seat), rng)
        game = game.execute(command)


def anns_commands(game: AnyGame, after: int) -> list[Any]:
    """The commands Ann's seat made from version ``after`` on, read from the log (A14's
    voluntary quit included; a run's forced quit is no command)."""
    cause = type(game).rules.cause
    found = [cause(event) for event in game.events[after:]]
    return [command for command in found if command is not None and command.seat == 0]


def test_a_timed_out_seat_is_played_by_the_heuristic_bot_which_never_quits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clock_module, "TICK", 0.05)  # the injected time is read often
    prefix, _ = heuristic_play(BEFORE)
    _, expected = heuristic_play(BEFORE + 4)
    expected = expected[BEFORE:]
    assert [type(command) for command in expected] == [PlayCard, Drive, PlayCard, Drive]
    # on the last of them, the heuristic bot on its own would quit the run (A14)
    tempted, _ = heuristic_play(BEFORE + 3)
    alone = make_bot("heuristic", catalog.game_info("avanti"), tempted.setup, 0)
    legal = tempted.legal_commands(0)
    assert set(legal) == {Drive(0), Quit(0)}
    assert alone.choose(tempted.view(0), legal, Rng(0).stream()) == Quit(0)
    assert stand_in_choices(tempted, 0) == (Drive(0),)

    store = SQLiteEventStore(tmp_path / "games.db")
    GameStore(store).create("5d1e0c7a9b3f2468", prefix, timed_metadata(prefix))
    now = [START]
    try:
        with serving(store) as served:
            timed_by(served, now)
            told = 0
            with open_socket(served.ws_url("5d1e0c7a9b3f2468"), ANN) as socket:
                while told < 4:
                    message = receive(socket)
                    clock = message.get("clock")
                    if message["type"] == "update" and clock and clock["seat"] == 0:
                        now[0] = max(now[0], clock["deadline"] + 1)  # Ann's time runs out
                    told += ran_out(message, "Ann")
            stored = GameStore(store).load("5d1e0c7a9b3f2468")
    finally:
        store.close()
    made = anns_commands(stored, prefix.version)
    assert made[:4] == expected
    assert Quit(0) not in made


@frozen
class _QuitOnly:
    """A seat of Avanti whose only legal command gives up (no state of the rules has one: a
    driving turn offers ``Drive`` beside ``Quit``, A9): what the stand-in is left with."""

    rules = avanti.Game.rules

    def legal_commands(self, seat: int) -> Sequence[Any]:
        return (Quit(seat),)


def test_the_stand_in_gives_up_only_when_nothing_else_is_legal() -> None:
    assert stand_in_choices(_QuitOnly(), 2) == (Quit(2),)  # type: ignore[arg-type]
    game, _ = heuristic_play(BEFORE + 3)
    assert stand_in_choices(game, 0) == (Drive(0),)
    assert avanti.Game.rules.gives_up(Quit(0))
    assert not avanti.Game.rules.gives_up(Drive(0))


@pytest.mark.parametrize("name", sorted(catalog.GAMES))
def test_only_avantis_quit_gives_up_for_good(name: str) -> None:
    """Passing at an auction (F5), declining a Mechanic (F16) or a fish move (M6) are moves of
    the game, chosen by the stand-in as by any player; only Avanti's quitting gives a run up."""
    info = catalog.game_info(name)
    game = info.new_game(info.player_names(), seed=3)
    rng = random.Random(3)
    gives_up = type(game).rules.gives_up
    seen: set[type] = set()
    while not game.is_over and game.version < 400:
        legal = game.legal_commands(game.waiting[0])
        seen |= {type(command) for command in legal if gives_up(command)}
        game = game.execute(rng.choice(list(legal)))
    assert seen == ({Quit} if name == "avanti" else set())


def _finished_timed_mare(tables: Tables) -> str:
    """A finished game of Avanti mare! for Ann and Bob (people) and Cy (a bot), 30 s a move."""
    game = mare.new_game(["Ann", "Bob", "Cy"], seed=5)
    rng = random.Random(5)
    while not game.is_over:
        game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
    seats = (
        Seat("Ann", token_hash(ANN), None),
        Seat("Bob", token_hash("B" * 32), None),
        Seat("Cy", None, "random"),
    )
    tables.games.create("done", game, {**Table("mare", seats).to_metadata(), CLOCK: 30.0})
    return "done"


def test_a_rematchs_clock_starts_when_its_last_seat_is_taken() -> None:
    tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
    now = [START]
    clock = Clock(tables, Changes(), Chat(tables), now=lambda: now[0])
    rematch = Rematch(tables)
    old = _finished_timed_mare(tables)

    def read() -> Any:  # as the server reads a game: the clock notes its record
        seated = tables.read(new_id)
        clock.register(new_id, seated.kept, seated.game)
        return seated

    new_id, seat, ann = rematch.seat(old, ANN)
    assert seat == 0
    seated = read()
    assert seated.table.vacant == (1,)  # Bob has not asked yet
    assert CLOCK_STARTED not in seated.record.metadata
    assert clock.of(new_id, seated.game) is None  # no deadline while a seat is vacant
    now[0] = START + 100
    game = seated.game
    while 0 in game.waiting:  # Ann plays on alone: still no clock
        command = game.legal_commands(0)[0]
        data = type(game).rules.codec.command_to_data(command)
        request = CommandRequest(command=data, expected_version=game.version)
        acted = tables.act(new_id, request, token=ann)
        clock.register(new_id, acted.kept, acted.game)
        game = acted.game
        assert clock.of(new_id, game) is None
    now[0] = START + 200
    assert rematch.seat(old, "B" * 32)[1] == 1
    seated = read()
    assert seated.table.vacant == ()
    started = {"version": game.version, "at": START + 200}
    assert seated.record.metadata[CLOCK_STARTED] == started
    assert clock.of(new_id, seated.game) == {
        "seat": game.waiting[0],
        "deadline": START + 230,  # from the last seat taken, not from the rematch's creation
        "seconds": 30.0,
    }
    now[0] = START + 300
    assert rematch.seat(old, "B" * 32)[1] == 1  # asking again starts nothing again
    assert tables.record(new_id)[0].metadata[CLOCK_STARTED] == started


def test_a_rematch_through_the_server_is_timed_once_every_seat_joined(tmp_path: Path) -> None:
    now = [START]
    with serving(tmp_path / "games.db") as served:
        timed_by(served, now)
        body = {
            "game": "mare",
            "players": ["Ann", "Bob", "Cy"],
            "bots": {"2": "random"},
            "seconds_per_move": 60,
        }
        game = served.http.post("/games", json=body).json()
        tokens = [seat["token"] for seat in game["seats"][:2]]
        for number, token in enumerate(tokens):  # people hand their seats to bots: it ends
            path = f"/games/{game['id']}/seats/{number}/bot"
            assert served.http.put(path, json={"bot": "random"}, headers=bearer(token)).is_success
        wait_for(
            lambda: served.http.get(f"/games/{game['id']}").json()["outcome"], "the game to end"
        )
        url = f"/games/{game['id']}/rematch"
        ann = served.http.post(url, headers=bearer(tokens[0])).json()
        new_id = ann["game_id"]
        with open_socket(served.ws_url(new_id), ann["token"]) as socket:
            first = receive(socket)
            assert (first["version"], first["waiting"], first["clock"]) == (0, [0], None)
        assert CLOCK_STARTED not in served.store.stream(new_id).metadata
        now[0] = START + 1_000  # long past any deadline the rematch could have had
        assert served.http.post(url, headers=bearer(tokens[1])).json()["game_id"] == new_id
        with open_socket(served.ws_url(new_id), ann["token"]) as socket:
            first = receive(socket)
            deadline = {"seat": 0, "deadline": START + 1_060, "seconds": 60.0}
            assert (first["version"], first["clock"]) == (0, deadline)
            now[0] = START + 1_061
            message = receive(socket)
            while not ran_out(message, "Ann"):
                message = receive(socket)
