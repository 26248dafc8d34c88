"""Finding 5 of the security review: a seat could switch its own clock off, and a restart gave
the waiting seat its full time again.

A seat handed itself to a bot, had the game read, and took itself back: the clock kept the
seats it had read, so at that seat's turn the ``clock`` was ``null`` and the seat was never
timed out. And the deadlines lived in the process alone: a new server on the same database gave
the waiting seat a full new period. Now a deadline is derived from the game's record: the moment
the version in play began to wait, as the record keeps it, plus the time per move.

Real servers on an SQLite file; the clock reads an injected time, so every deadline is known to
the second, and nothing waits but for conditions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from websockets.sync.client import ClientConnection

from avanti.server.limits import ServerLimits
from avanti.server.protocol.requests import CommandRequest, NewGame
from avanti.server.table.changes import Changes
from avanti.server.table.chat import Chat
from avanti.server.table.clock import Clock
from avanti.server.table.master import Tables
from avanti.store import GameStore, MemoryEventStore
from tests.server.support import Served, open_socket, receive, serving, wait_for

START = 1_900_000_000.0
"""The injected time each test begins at (Unix seconds)."""


def timed_by(served: Served, now: list[float]) -> None:
    """Have the server's clock read the time in ``now[0]``."""
    app = served.server.config.app
    assert isinstance(app, Starlette)
    clock: Clock = app.state.server.clock
    clock.now = lambda: now[0]


def create(served: Served, seconds: float) -> Any:
    """A game of mare for Ann (seat 0) and Bob (seat 1) with ``seconds`` per move."""
    body = {"game": "mare", "players": ["Ann", "Bob"], "seconds_per_move": seconds}
    reply = served.http.post("/games", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()


def bearer(token: str) -> dict[str, str]:
    """The header that names a seat."""
    return {"Authorization": f"Bearer {token}"}


def ann_moves(served: Served, game_id: str, ann: str, seen: Any) -> int:
    """Ann makes her first legal move, from ``seen`` (her ``GET`` of the game) on and then from
    each reply, until she has none (the game waits for Bob); the version then. The game is not
    read again meanwhile."""
    legal, version = seen["legal"], seen["version"]
    while legal:
        body = {"command": legal[0]["command"], "expected_version": version}
        reply = served.http.post(f"/games/{game_id}/commands", json=body, headers=bearer(ann))
        assert reply.status_code == 200, reply.text
        legal, version = reply.json()["legal"], reply.json()["version"]
    return int(version)


def hand_over(served: Served, game_id: str, seat: int, token: str, bot: str | None) -> None:
    """Hand ``seat`` to ``bot`` (``None``: back to its person)."""
    path = f"/games/{game_id}/seats/{seat}/bot"
    if bot is None:
        reply = served.http.delete(path, headers=bearer(token))
    else:
        reply = served.http.put(path, json={"bot": bot}, headers=bearer(token))
    assert reply.status_code == 200, reply.text


def time_out_told(socket: ClientConnection, name: str, version: int) -> None:
    """Wait on a seat's socket until the chat says ``name``'s time ran out and an update past
    ``version`` (the move made for that seat) has come, in either order."""
    told, moved = False, False
    while not (told and moved):
        message = receive(socket)
        if message["type"] == "update":
            moved = moved or message["version"] > version
        if message["type"] == "chat":
            told = told or any(
                m["text"] == f"{name}'s time ran out: a bot moved" and m["system"]
                for m in message["messages"]
            )


def test_a_seat_handed_to_a_bot_and_back_keeps_its_clock(tmp_path: Path) -> None:
    now = [START]
    with serving(tmp_path / "games.db") as served:
        timed_by(served, now)
        plain, tricked = create(served, 60), create(served, 60)
        seen = {
            game["id"]: served.http.get(
                f"/games/{game['id']}", headers=bearer(game["seats"][0]["token"])
            ).json()
            for game in (plain, tricked)
        }
        bob = tricked["seats"][1]["token"]
        hand_over(served, tricked["id"], 1, bob, "random")  # while Ann is awaited
        assert served.http.get(f"/games/{tricked['id']}").status_code == 200  # read as a bot's
        hand_over(served, tricked["id"], 1, bob, None)
        now[0] = START + 10
        versions = {
            game["id"]: ann_moves(served, game["id"], game["seats"][0]["token"], seen[game["id"]])
            for game in (plain, tricked)
        }
        expected = {"seat": 1, "deadline": START + 70, "seconds": 60.0}
        with (
            open_socket(served.ws_url(plain["id"]), plain["seats"][1]["token"]) as plain_socket,
            open_socket(served.ws_url(tricked["id"]), bob) as tricked_socket,
        ):
            for game, socket in ((plain, plain_socket), (tricked, tricked_socket)):
                first = receive(socket)
                assert (first["type"], first["version"]) == ("update", versions[game["id"]])
                assert first["waiting"] == [1]
                assert first["clock"] == expected  # never null, the same deadline for both
            now[0] = START + 70
            for game, socket in ((plain, plain_socket), (tricked, tricked_socket)):
                time_out_told(socket, "Bob", versions[game["id"]])


def test_a_restarted_server_keeps_the_waiting_seats_deadline(tmp_path: Path) -> None:
    now = [START]
    database = tmp_path / "games.db"
    expected = {"seat": 0, "deadline": START + 600, "seconds": 600.0}
    with serving(database) as first:
        timed_by(first, now)
        game = create(first, 600)
        ann = game["seats"][0]["token"]
        with open_socket(first.ws_url(game["id"]), ann) as socket:
            assert receive(socket)["clock"] == expected
        wait_for(
            lambda: "clock_started" in first.store.stream(game["id"]).metadata,
            "the moment Ann's wait began to be stored",
        )
    now[0] = START + 100
    with serving(database) as second:
        timed_by(second, now)
        with open_socket(second.ws_url(game["id"]), ann) as socket:
            update = receive(socket)
            assert (update["version"], update["clock"]) == (0, expected)  # not START + 700
            now[0] = START + 600
            time_out_told(socket, "Ann", 0)


def test_a_seat_handed_back_mid_wait_has_the_time_already_spent_counted() -> None:
    tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
    now = [START]
    chat = Chat(tables)
    clock = Clock(tables, Changes(), chat, now=lambda: now[0])
    wanted = {"game": "mare", "players": ["Ann", "Bob"], "seconds_per_move": 60}
    created = tables.create(NewGame.read(wanted, ("random",)), "a")
    ann, bob = created.tokens
    assert ann is not None
    assert bob is not None

    def read() -> Any:  # as the server reads a game: the clock notes its record
        seated = tables.read(created.game_id)
        clock.register(created.game_id, seated.kept, seated.game)
        return seated.game

    game = read()
    tables.hand_over(created.game_id, bob, "1", "random")
    read()
    now[0] = START + 10
    while game.waiting != (1,):
        command = next(iter(game.legal_commands(0)))
        data = type(game).rules.codec.command_to_data(command)
        request = CommandRequest(command=data, expected_version=game.version)
        acted = tables.act(created.game_id, request, token=ann)
        clock.register(created.game_id, acted.kept, acted.game)
        game = acted.game
    assert clock.of(created.game_id, game) is None  # Bob's bot is awaited: no clock
    now[0] = START + 40
    tables.hand_over(created.game_id, bob, "1", None)
    read()
    assert clock.of(created.game_id, game) == {
        "seat": 1,
        "deadline": START + 70,  # from Ann's move on, not from the hand-back
        "seconds": 60.0,
    }


def test_a_timed_move_writes_when_its_version_began_to_wait_in_its_own_append(
    tmp_path: Path,
) -> None:
    """Each command of a timed game stores the moment its new version began to wait in the same
    append as its events: no second write of the record after a move (which would also make
    the server's held record stale and cost a read on the next move)."""
    now = [START]
    with serving(tmp_path / "games.db") as served:
        timed_by(served, now)
        created = create(served, 60)
        game_id, ann = created["id"], created["seats"][0]["token"]
        writes: list[object] = []
        real = served.store.set_metadata

        def counted(*args: Any, **kw: Any) -> Any:
            writes.append(args[0])
            return real(*args, **kw)

        served.store.set_metadata = counted  # type: ignore[method-assign]
        seen = served.http.get(f"/games/{game_id}", headers=bearer(ann)).json()
        for step in range(3):
            now[0] = START + 10 * (step + 1)
            seen = served.http.post(
                f"/games/{game_id}/commands",
                json={"notation": seen["legal"][0]["notation"]},
                headers=bearer(ann),
            ).json()
            if not seen["legal"]:
                break
        record = served.store.stream(game_id)
        assert record.metadata["clock_started"] == {"version": seen["version"], "at": now[0]}
        assert writes == []
