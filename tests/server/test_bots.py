"""Bots on the server: seats handed to a bot and taken back, bots that think too long, and bots
that were awaited when a server stopped."""

from __future__ import annotations

import json
import logging
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from avanti.server.table.bots import BotRunner
from avanti.store import GameStore, SQLiteEventStore
from tests.server.support import (
    Player,
    Served,
    check_received,
    open_socket,
    receive,
    serving,
    wait_for,
)


def auth(token: str) -> dict[str, str]:
    """The header that carries ``token``."""
    return {"Authorization": f"Bearer {token}"}


def until(socket: Any, done: Any) -> Any:
    """The first update on ``socket`` for which ``done(update)`` holds."""
    while True:
        message = receive(socket)
        if message["type"] == "update" and done(message):
            return message


def hand(served: Served, game: Any, seat: int, token: str, bot: str | None) -> Any:
    """PUT (or DELETE, for ``None``) the seat's bot with ``token``."""
    url = f"/games/{game['id']}/seats/{seat}/bot"
    if bot is None:
        return served.http.delete(url, headers=auth(token))
    return served.http.put(url, json={"bot": bot}, headers=auth(token))


def test_a_seat_is_handed_to_a_bot_and_taken_back(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db") as served:
        game = served.create("mare", ["Ann", "Bob"])
        ann, bob = (seat["token"] for seat in game["seats"])
        # only the seat's own token hands it over
        assert hand(served, game, 1, ann, "random").status_code == 403
        assert (
            served.http.put(f"/games/{game['id']}/seats/1/bot", json={"bot": "random"}).status_code
            == 403
        )
        assert hand(served, game, 1, bob, "oracle").status_code == 400
        reply = served.http.put(
            f"/games/{game['id']}/seats/1/bot", json={"bot": "random", "x": 1}, headers=auth(bob)
        )
        assert reply.status_code == 400
        reply = hand(served, game, 1, bob, "heuristic")
        assert reply.status_code == 200
        assert reply.json() == {"seat": 1, "bot": "heuristic"}
        lobby = served.http.get("/games").json()["games"]
        assert lobby[0]["id"] == game["id"]
        assert lobby[0]["bots"] == {"1": "heuristic"}
        assert (
            served.http.post(
                f"/games/{game['id']}/commands", json={"notation": "roll"}, headers=auth(bob)
            ).status_code
            == 403
        )
        with open_socket(served.ws_url(game["id"]), ann) as socket:
            update = receive(socket)
            bot_rolled = False
            while not bot_rolled:  # Ann plays her turns; the bot plays Bob's
                if update["legal"]:
                    reply = served.http.post(
                        f"/games/{game['id']}/commands",
                        json={"command": update["legal"][0]["command"]},
                        headers=auth(ann),
                    )
                    assert reply.status_code == 200
                update = receive(socket)
                bot_rolled = any(
                    item["event"] == {**item["event"], "type": "DieRolled", "seat": 1}
                    for item in update["events"]
                )
        reply = hand(served, game, 1, bob, None)
        assert reply.status_code == 200
        assert reply.json() == {"seat": 1, "bot": None}
        assert served.http.get("/games").json()["games"][0]["bots"] == {}


def test_a_game_whose_people_all_hand_over_is_played_out_by_bots(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with serving(path) as served:
        game = served.create("autorama", ["Ann", "Bob", "Cy"], {"2": "heuristic"})
        spectator = Player(served.ws_url(game["id"]), None, None).start()
        for seat in (0, 1):
            assert hand(served, game, seat, game["seats"][seat]["token"], "random").json()
        spectator.join()
        lobby = served.http.get("/games?game=autorama&limit=5").json()["games"]
    assert lobby == [
        {
            "id": game["id"],
            "game": "autorama",
            "players": ["Ann", "Bob", "Cy"],
            "bots": {"0": "random", "1": "random", "2": "heuristic"},
            "state": "finished",
            "seats": 3,
            "taken": 3,
            "turn": [],
            "round": lobby[0]["round"],
            "winners": lobby[0]["winners"],
            "over": True,
            "created": lobby[0]["created"],
            "updated": lobby[0]["updated"],
        }
    ]
    with SQLiteEventStore(path) as store:
        stored = GameStore(store).load(game["id"], verify=True)
    check_received(stored, spectator)
    assert stored.outcome is not None
    assert lobby[0]["winners"] == [["Ann", "Bob", "Cy"][seat] for seat in stored.outcome.winners]
    assert lobby[0]["round"] == stored.view(None).round


def test_a_bot_that_thinks_too_long_plays_a_random_legal_command(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="avanti.server")
    with serving(tmp_path / "games.db", think=0.001) as served:
        game = served.create("avanti", ["Ann", "Bob", "Cy"], {"0": "search"})
        with open_socket(served.ws_url(game["id"]), None) as socket:
            moved = until(socket, lambda update: update["waiting"] != [0])
        assert moved["events"]
    timeouts = [r for r in caplog.records if r.getMessage() == "bot-timeout"]
    assert timeouts
    assert vars(timeouts[0])["avanti_fields"]["seat"] == 0


def test_bots_awaited_when_a_server_stopped_play_when_the_next_one_starts(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with serving(path) as first:
        game = first.create("mare", ["Ann", "Bob"], {})
        bob = game["seats"][1]["token"]
        assert hand(first, game, 1, bob, "random").status_code == 200
    # while no server runs, Ann's roll is stored by another writer: Bob's bot is awaited
    with SQLiteEventStore(path) as store:
        games = GameStore(store)
        after = games.load(game["id"])
        while 0 in after.waiting:  # Ann's roll, and her move if one is due
            after = games.execute(game["id"], after.legal_commands(0)[0], after.version)
    assert after.waiting == (1,)
    with serving(path) as second, open_socket(second.ws_url(game["id"]), None) as socket:
        moved = until(socket, lambda update: 1 not in update["waiting"] or update["outcome"])
    assert moved["version"] > after.version
    assert json.dumps(moved)  # plain JSON


def test_bots_play_on_when_their_worker_processes_are_killed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot worker killed (as the system's out-of-memory killer would) breaks the pool it
    belonged to: the choice it held is played at random and the next one starts new workers,
    so the game is played to its end."""
    caplog.set_level(logging.INFO, logger="avanti.server")
    with serving(tmp_path / "games.db") as served:
        app: Any = served.server.config.app
        runner: BotRunner = app.state.server.bots
        game = served.create("mare", ["Ann", "Bob"], {"1": "random"})
        ann = game["seats"][0]["token"]
        with open_socket(served.ws_url(game["id"]), ann) as socket:
            first = until(socket, lambda update: update["waiting"] == [0])
            reply = served.http.post(
                f"/games/{game['id']}/commands",
                json={"notation": first["legal"][0]["notation"], "expected_version": 0},
                headers=auth(ann),
            )
            assert reply.status_code == 200, reply.text
            until(socket, lambda update: 1 in update["waiting"])
            # the pool has started its worker for Bob's choice: kill it
            wait_for(
                lambda: runner._pool is not None and bool(runner._pool._processes),
                "the bot's worker to start",
            )
            pool = runner._pool
            assert pool is not None
            for pid in list(pool._processes):
                os.kill(pid, signal.SIGKILL)
            assert hand(served, game, 0, ann, "random").status_code == 200
            over = until(socket, lambda update: update["outcome"] is not None)
        assert over["waiting"] == []
        assert runner._pool is not pool  # a new pool took over
    lost = [r for r in caplog.records if r.getMessage() == "bot-workers-lost"]
    assert lost
