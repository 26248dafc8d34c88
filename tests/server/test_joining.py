"""Open seats: a table that waits for its players, seats taken by name, the start, the lobby.

Every test runs a real server (uvicorn on a loopback port, over SQLite) and waits for
conditions, never for a time.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from avanti.server import ServerLimits
from tests.server.support import ROOMY, Served, open_socket, receive, serving, wait_for

OPEN_MARE = {"game": "mare", "players": ["Ann", None]}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A server with roomy limits, on an SQLite file of its own."""
    with serving(tmp_path / "games.db") as running:
        yield running


def auth(token: str | None) -> dict[str, str]:
    """The header that carries ``token``."""
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def open_table(served: Served, body: dict[str, Any] = OPEN_MARE) -> Any:
    """Create a table with open seats; the reply."""
    reply = served.http.post("/games", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()


def sit(served: Served, game_id: str, name: Any) -> httpx.Response:
    """Take the next open seat of ``game_id`` as ``name``."""
    return served.http.post(f"/games/{game_id}/seats", json={"name": name})


def test_a_table_with_an_open_seat_waits_then_starts_when_it_is_taken(served: Served) -> None:
    created = open_table(served)
    game_id = created["id"]
    assert created["open"] is True
    assert created["invite"] == f"/?join={game_id}"
    assert [seat["open"] for seat in created["seats"]] == [False, True]
    assert created["seats"][1]["token"] is None
    ann = created["seats"][0]["token"]
    waiting = served.http.get(f"/games/{game_id}", headers=auth(ann)).json()
    assert waiting["state"] == "open"
    assert waiting["seat"] == 0
    assert (waiting["taken"], waiting["seats"], waiting["players"]) == (1, 2, ["Ann", None])
    lobby = served.http.get("/games").json()["games"]
    assert lobby[0]["id"] == game_id
    assert lobby[0]["state"] == "open"
    reply = sit(served, game_id, "Bob")
    assert reply.status_code == 201, reply.text
    bob = reply.json()
    assert (bob["game_id"], bob["seat"]) == (game_id, 1)
    game = served.http.get(f"/games/{game_id}", headers=auth(bob["token"])).json()
    assert game["seat"] == 1
    assert game["version"] == 0
    assert served.http.get(f"/games/{game_id}", headers=auth(ann)).json()["seat"] == 0
    assert sit(served, game_id, "Cy").json()["error"]["kind"] == "table-full"
    [entry] = [g for g in served.http.get("/games").json()["games"] if g["id"] == game_id]
    assert (entry["state"], entry["players"], entry["turn"]) == ("playing", ["Ann", "Bob"], ["Ann"])
    assert "version" not in entry


def test_a_waiting_socket_is_told_of_each_seat_then_gets_the_game(served: Served) -> None:
    created = open_table(served, {"game": "avanti", "players": ["Ann", None, None]})
    game_id, ann = created["id"], created["seats"][0]["token"]
    with open_socket(served.ws_url(game_id), ann) as socket:
        first = receive(socket)
        assert (first["type"], first["taken"], first["seat"]) == ("table", 1, 0)
        assert sit(served, game_id, "Bob").status_code == 201
        second = receive(socket)
        assert (second["type"], second["taken"]) == ("table", 2)
        assert sit(served, game_id, "Cy").status_code == 201
        update = receive(socket)
        assert update["type"] == "update"
        assert update["waiting"] == [0]
        socket.send(json.dumps({"type": "ping"}))
        assert receive(socket) == {"type": "pong"}


def test_two_people_never_get_one_seat_and_more_takers_than_seats_are_refused(
    served: Served,
) -> None:
    created = open_table(served, {"game": "avanti", "players": ["Ann", None, None, None, None]})
    game_id = created["id"]
    names = [f"Taker {n}" for n in range(12)]
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        replies = list(pool.map(lambda name: sit(served, game_id, name), names))
    won = [reply.json() for reply in replies if reply.status_code == 201]
    lost = [reply.json()["error"]["kind"] for reply in replies if reply.status_code != 201]
    assert sorted(seat["seat"] for seat in won) == [1, 2, 3, 4]
    assert lost == ["table-full"] * 8
    game = served.http.get(f"/games/{game_id}").json()
    assert len(game["public_setup"]["players"]) == 5
    for seat in won:
        mine = served.http.get(f"/games/{game_id}", headers=auth(seat["token"])).json()
        assert mine["seat"] == seat["seat"]
        assert game["public_setup"]["players"][seat["seat"]] in names


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("", "invalid-name"),
        ("x" * 41, "invalid-name"),
        ("Bo\nb", "invalid-name"),
        (" Bob", "invalid-name"),
        ("Ann", "invalid-name"),
        (7, "invalid-name"),
    ],
)
def test_hostile_names_are_refused_and_the_seat_stays_open(
    served: Served, name: Any, kind: str
) -> None:
    created = open_table(served)
    reply = sit(served, created["id"], name)
    assert reply.status_code == 422
    assert reply.json()["error"]["kind"] == kind
    if isinstance(name, str) and len(name) > 1:
        assert name not in reply.json()["error"]["message"]
    waiting = served.http.get(f"/games/{created['id']}").json()
    assert waiting["taken"] == 1
    assert waiting["players"] == ["Ann", None]


def test_html_in_a_name_is_kept_as_text(served: Served) -> None:
    created = open_table(served)
    hostile = "<img src=x onerror=alert(1)>"
    assert sit(served, created["id"], hostile).status_code == 201
    game = served.http.get(f"/games/{created['id']}").json()
    assert game["public_setup"]["players"] == ["Ann", hostile]


def test_only_the_creator_fills_the_open_seats_with_bots(served: Served) -> None:
    created = open_table(served, {"game": "avanti", "players": ["Ann", None, None]})
    game_id, ann = created["id"], created["seats"][0]["token"]
    bob = sit(served, game_id, "Bob").json()
    start = f"/games/{game_id}/start"
    refused = served.http.post(start, json={"bot": "random"}, headers=auth(bob["token"]))
    assert refused.status_code == 403
    assert refused.json()["error"]["kind"] == "forbidden"
    assert served.http.post(start, json={"bot": "random"}).status_code == 403
    assert served.http.post(start, json={"bot": "nobody"}, headers=auth(ann)).status_code == 400
    assert served.http.get(f"/games/{game_id}").json()["state"] == "open"
    reply = served.http.post(start, json={"bot": "random"}, headers=auth(ann))
    assert reply.json() == {"game_id": game_id, "bots": 1}
    game = served.http.get(f"/games/{game_id}", headers=auth(ann)).json()
    assert game["seat"] == 0
    assert game["public_setup"]["players"][:2] == ["Ann", "Bob"]
    [entry] = [g for g in served.http.get("/games").json()["games"] if g["id"] == game_id]
    assert entry["bots"] == {"2": "random"}
    again = served.http.post(start, json={"bot": "random"}, headers=auth(ann))
    assert again.json()["error"]["kind"] == "table-full"


def test_bad_tables_are_refused(served: Served) -> None:
    def refused(body: Any) -> str:
        reply = served.http.post("/games", json=body)
        assert reply.status_code in (400, 422), reply.text
        return str(reply.json()["error"]["kind"])

    assert refused({"game": "mare", "players": [None, None]}) == "invalid-setup"
    assert refused({"game": "mare", "players": ["Ann", None], "bots": {"1": "random"}}) == (
        "bad-request"
    )
    assert refused({"game": "mare", "players": ["Ann", "Ann", None]}) == "invalid-setup"
    assert refused({"game": "mare", "players": ["Ann", None], "seconds_per_move": 0}) == (
        "bad-request"
    )
    assert served.http.post("/games/0000/seats", json={"name": "Bob"}).status_code == 404
    created = open_table(served)
    body = served.http.post(f"/games/{created['id']}/seats", json={"name": "B", "x": 1})
    assert body.status_code == 400


def test_seat_taking_and_tables_obey_the_limits(tmp_path: Path) -> None:
    import attrs

    limits = attrs.evolve(ROOMY, seats_per_second=0.001, seats_burst=2, games_per_client=2)
    with serving(tmp_path / "games.db", limits=limits) as served:
        first = open_table(served, {"game": "avanti", "players": ["Ann", None, None, None]})
        open_table(served)
        third = served.http.post("/games", json=OPEN_MARE)
        assert third.status_code == 429
        assert third.json()["error"]["kind"] == "rate-limited"
        kinds = [sit(served, first["id"], f"P{n}").status_code for n in range(3)]
        assert kinds == [201, 201, 429]
        assert served.http.get(f"/games/{first['id']}").json()["taken"] == 3


def test_the_lobby_lists_open_tables_then_games_in_play_then_finished_ones(
    served: Served,
) -> None:
    finished = served.create("mare", ["Tina", "Udo"], {"0": "random", "1": "random"})["id"]
    wait_for(lambda: served.http.get(f"/games/{finished}").json()["outcome"], "the bots to finish")
    playing = served.create("avanti", ["Ann", "Bob", "Cy"])["id"]
    waiting = open_table(served)["id"]
    lobby = served.http.get("/games").json()["games"]
    assert [entry["id"] for entry in lobby] == [waiting, playing, finished]
    assert [entry["state"] for entry in lobby] == ["open", "playing", "finished"]
    assert lobby[1]["turn"] == ["Ann"]
    assert lobby[1]["round"] == 1
    assert set(lobby[2]["winners"]) <= {"Tina", "Udo"}  # none after a draw (M8)
    outcome = served.http.get(f"/games/{finished}").json()["outcome"]
    names = ["Tina", "Udo"]
    assert lobby[2]["winners"] == [names[seat] for seat in outcome["winners"]]
    assert all("version" not in entry for entry in lobby)
    only = served.http.get("/games?game=avanti").json()["games"]
    assert [entry["id"] for entry in only] == [playing]
    text = json.dumps(lobby)
    assert "token" not in text
    assert "seed" not in text


def test_limits_refuse_bad_chat_and_seat_settings() -> None:
    from avanti.core.errors import InvalidArgument

    for name in ("seats_per_second", "chat_per_second", "chat_length", "chat_burst"):
        with pytest.raises(InvalidArgument, match=name):
            ServerLimits(**{name: 0})  # type: ignore[arg-type]


def test_cross_site_seat_taking_and_starting_change_nothing(served: Served) -> None:
    created = open_table(served, {"game": "avanti", "players": ["Ann", None, None]})
    game_id, ann = created["id"], created["seats"][0]["token"]
    seats = f"/games/{game_id}/seats"
    plain = served.http.post(
        seats, content=b'{"name": "Mallory"}', headers={"Content-Type": "text/plain"}
    )
    assert plain.status_code == 415
    evil = {"Origin": "http://evil.example"}
    assert served.http.post(seats, json={"name": "Mallory"}, headers=evil).status_code == 403
    start = served.http.post(
        f"/games/{game_id}/start", json={"bot": "random"}, headers={**auth(ann), **evil}
    )
    assert start.json()["error"]["kind"] == "cross-origin"
    waiting = served.http.get(f"/games/{game_id}").json()
    assert waiting["players"] == ["Ann", None, None]
