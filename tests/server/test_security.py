"""Hostile clients against a real server: each gets its documented status, nothing changes, and
the server goes on serving everybody else.

Another seat's token, no token, guessed tokens, forged versions, a spectator sending commands,
malformed and oversized JSON, floods, too many connections and silent sockets. After every
refusal the stored game is compared with what it was, and a well-behaved seat still plays.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from avanti.server import ServerLimits
from avanti.store import GameStore
from tests.server.support import Served, open_socket, receive, serving

BEARER = "Bearer {}"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A server with roomy limits, on an SQLite file of its own."""
    with serving(tmp_path / "games.db") as running:
        yield running


def auth(token: str | None) -> dict[str, str]:
    """The header that carries ``token``."""
    return {} if token is None else {"Authorization": BEARER.format(token)}


def stored_events(served: Served, game_id: str) -> tuple[Any, ...]:
    """The stored game's whole log (read with a store of its own)."""
    return GameStore(served.store).load(game_id).events


def mare(served: Served, bots: dict[str, str] | None = None) -> Any:
    """A new game of Avanti mare! for Ann and Bob (Ann rolls first)."""
    return served.create("mare", ["Ann", "Bob"], bots or {})


def roll(seat: int) -> dict[str, Any]:
    """The JSON of seat's roll."""
    return {"command": {"type": "Roll", "seat": seat}}


def post(served: Served, game_id: str, token: str | None, body: Any) -> httpx.Response:
    """POST a command body."""
    return served.http.post(f"/games/{game_id}/commands", json=body, headers=auth(token))


def still_serving(served: Served, game: Any) -> None:
    """Ann's legal roll is still accepted, and the server's health is fine."""
    assert served.http.get("/health").json() == {"status": "ok"}
    reply = post(served, game["id"], game["seats"][0]["token"], {"notation": "roll"})
    assert reply.status_code == 200, reply.text


def test_another_seats_token_cannot_act_for_a_seat(served: Served) -> None:
    game = mare(served)
    before = stored_events(served, game["id"])
    bob = game["seats"][1]["token"]
    reply = post(served, game["id"], bob, roll(0))
    assert reply.status_code == 403
    assert reply.json()["error"]["kind"] == "forbidden"
    # Bob's own roll is not legal (it is Ann's turn): a refusal naming the rule
    reply = post(served, game["id"], bob, roll(1))
    assert reply.status_code == 422
    error = reply.json()["error"]
    assert error["kind"] == "illegal-command"
    assert error["reason"] == "not-your-turn"
    assert error["rule"]
    assert error["message"]
    assert stored_events(served, game["id"]) == before
    still_serving(served, game)


def test_no_token_is_a_spectator_who_sees_public_facts_and_cannot_act(served: Served) -> None:
    game = mare(served)
    before = stored_events(served, game["id"])
    reply = post(served, game["id"], None, roll(0))
    assert reply.status_code == 403
    looked = served.http.get(f"/games/{game['id']}").json()
    assert looked["seat"] is None
    assert looked["legal"] == []
    assert "seed" not in json.dumps(looked["public_setup"])
    assert stored_events(served, game["id"]) == before
    still_serving(served, game)


def test_guessed_tokens_are_refused_alike(served: Served) -> None:
    game = mare(served)
    other = mare(served)
    before = stored_events(served, game["id"])
    ann = game["seats"][0]["token"]
    tokens = [
        secrets.token_urlsafe(24),
        ann[:-1] + ("A" if ann[-1] != "A" else "B"),
        other["seats"][0]["token"],
        "x" * 4000,
        "ünïcödé",
        "",
    ]
    headers = [f"Bearer {token}" for token in tokens if token] + ["Bearer", f"Basic {ann}", ann]
    bodies = set()
    for header in headers:
        sent = {"Authorization": header.encode()}
        for reply in (
            served.http.get(f"/games/{game['id']}", headers=sent),
            served.http.post(f"/games/{game['id']}/commands", json=roll(0), headers=sent),
            served.http.put(
                f"/games/{game['id']}/seats/0/bot", json={"bot": "random"}, headers=sent
            ),
        ):
            assert reply.status_code == 401, (header, reply.text)
            assert reply.headers["www-authenticate"] == "Bearer"
            bodies.add(json.dumps(reply.json()["error"]))
    for token in tokens:
        with open_socket(served.ws_url(game["id"]), token) as socket:
            message = receive(socket)
            with pytest.raises(ConnectionClosed) as closed:
                receive(socket)
        assert message["type"] == "error"
        assert message["status"] == 401
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 4401
        bodies.add(json.dumps(message["error"]))
    assert len(bodies) == 1
    assert stored_events(served, game["id"]) == before
    still_serving(served, game)


def test_forged_expected_versions_are_refused_and_change_nothing(served: Served) -> None:
    game = mare(served)
    ann = game["seats"][0]["token"]
    version = served.http.get(f"/games/{game['id']}").json()["version"]
    before = stored_events(served, game["id"])
    forgeries = [
        {**roll(0), "expected_version": forged} for forged in (version + 1, 10**12, 2**200)
    ] + [{"notation": "roll", "expected_version": version + 3}]
    for body in forgeries:
        forged = body["expected_version"]
        reply = post(served, game["id"], ann, body)
        assert reply.status_code == 409
        assert reply.json()["error"] == {
            "kind": "version-conflict",
            "message": reply.json()["error"]["message"],
            "expected": forged,
            "actual": version,
        }
    for forged in (True, "0", 0.0, -1, None, [0], {"v": 0}):
        if forged is None:
            continue
        reply = post(served, game["id"], ann, {**roll(0), "expected_version": forged})
        assert reply.status_code == 400, forged
    assert stored_events(served, game["id"]) == before
    reply = post(served, game["id"], ann, {**roll(0), "expected_version": version})
    assert reply.status_code == 200
    reply = post(served, game["id"], ann, {**roll(0), "expected_version": version})
    assert reply.status_code == 409  # stale now


def test_a_command_id_makes_a_retry_harmless(served: Served) -> None:
    game = mare(served)
    ann = game["seats"][0]["token"]
    first = post(served, game["id"], ann, {"notation": "roll", "command_id": "ann-1"})
    again = post(served, game["id"], ann, {"notation": "roll", "command_id": "ann-1"})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert len(stored_events(served, game["id"])) == first.json()["version"]
    bob = game["seats"][1]["token"]  # Bob's ids are his own: the same id is a new command
    reply = post(served, game["id"], bob, {"notation": "roll", "command_id": "ann-1"})
    assert reply.status_code == 200
    assert reply.json()["version"] > first.json()["version"]
    for bad in ("", "x" * 101, "tab\there", 7):
        reply = post(served, game["id"], ann, {"notation": "roll", "command_id": bad})
        assert reply.status_code == 400


def test_a_spectator_sending_commands_on_a_socket_is_refused(served: Served) -> None:
    game = mare(served)
    before = stored_events(served, game["id"])
    with open_socket(served.ws_url(game["id"]), None) as socket:
        assert receive(socket)["type"] == "update"
        socket.send(json.dumps({"type": "command", **roll(0)}))
        error = receive(socket)
        assert error["type"] == "error"
        assert error["status"] == 403
        socket.send(json.dumps({"type": "ping"}))
        assert receive(socket) == {"type": "pong"}
    assert stored_events(served, game["id"]) == before
    still_serving(served, game)


def test_a_seat_played_by_a_bot_takes_no_commands_from_its_token(served: Served) -> None:
    game = mare(served)
    bob = game["seats"][1]["token"]
    url = f"/games/{game['id']}/seats/1/bot"
    assert served.http.put(url, json={"bot": "random"}, headers=auth(bob)).status_code == 200
    reply = post(served, game["id"], bob, roll(1))
    assert reply.status_code == 403
    with open_socket(served.ws_url(game["id"]), bob) as socket:
        assert receive(socket)["type"] == "update"
        socket.send(json.dumps({"type": "command", **roll(1)}))
        assert receive(socket)["status"] == 403


def test_malformed_json_is_refused_with_400(served: Served) -> None:
    game = mare(served)
    ann = game["seats"][0]["token"]
    before = stored_events(served, game["id"])
    url = f"/games/{game['id']}/commands"
    headers = {**auth(ann), "Content-Type": "application/json"}
    for text in (
        b"{",
        b"",
        b"\xff\xfe",
        b'{"notation": "roll", "notation": "roll"}',
        b"[" * 100_000,
        b"NaN",
        b'"roll"',
        b"[]",
        b'{"notation": "roll", "command": {"type": "Roll", "seat": 0}}',
        b'{"notation": 7}',
        b'{"notation": "roll", "extra": 1}',
    ):
        reply = served.http.post(url, content=text, headers=headers)
        assert reply.status_code in (400, 413), (text[:20], reply.text)
        assert reply.json()["error"]["kind"] in ("malformed-json", "bad-request", "too-large")
    commands: list[Any] = [
        {"command": {"type": "Roll"}},
        {"command": {"type": "Roll", "seat": "0"}},
        {"command": {"type": "Roll", "seat": True}},
        {"command": {"type": "Nope", "seat": 0}},
        {"command": []},
    ]
    for body in commands:
        reply = post(served, game["id"], ann, body)
        assert reply.status_code == 422, body
        assert reply.json()["error"]["kind"] == "invalid-command"
    reply = post(served, game["id"], ann, {"notation": "swim to the moon"})
    assert reply.status_code == 422
    assert reply.json()["error"]["reason"] == "unknown-notation"
    bad_requests: list[Any] = [
        {"game": "mare", "players": ["Ann"], "seed": 7},
        {"game": "chess", "players": ["Ann"]},
        {"game": "mare", "players": ["Ann"], "bots": {"0": "oracle"}},
        {"game": "mare", "players": ["Ann"], "bots": {"1": "random"}},
        {"game": "mare", "players": ["Ann"], "bots": {"00": "random"}},
        {"game": "mare", "players": ["Ann"], "bots": []},
        {"game": "mare", "players": ["Ann"], "colour": "red"},
        [],
    ]
    for body in bad_requests:
        reply = served.http.post("/games", json=body)
        assert reply.status_code == 400, body
    bad_setups: list[Any] = [
        {"game": "mare", "players": []},
        {"game": "mare", "players": ["Ann", 7]},
        {"game": "mare", "players": ["Ann", "Ann"]},
        {"game": "mare", "players": ["Ann\n"]},
        {"game": "mare", "players": ["Ann"], "options": {"bogus": 1}},
        {"game": "mare", "players": ["Ann"], "options": {"boat_faces": "red"}},
        {"game": "mare", "players": ["Ann"], "options": []},
    ]
    for body in bad_setups:
        reply = served.http.post("/games", json=body)
        assert reply.status_code == 422, body
        assert reply.json()["error"]["kind"] in ("invalid-setup", "invalid-options")
    assert stored_events(served, game["id"]) == before
    with open_socket(served.ws_url(game["id"]), ann) as socket:
        assert receive(socket)["type"] == "update"
        for message in ("{", "[]", '{"type": 7}', '{"type": "dance"}', '{"type": "command"}'):
            socket.send(message)
            error = receive(socket)
            assert error["type"] == "error", message
            assert error["status"] == 400, message
    still_serving(served, game)


def test_options_are_read_by_the_games_codec(served: Served) -> None:
    reply = served.http.post(
        "/games",
        json={"game": "mare", "players": ["Ann"], "options": {"free_fish_move_owed": True}},
    )
    assert reply.status_code == 201
    looked = served.http.get(f"/games/{reply.json()['id']}").json()
    assert looked["public_setup"]["options"]["free_fish_move_owed"] is True


def test_unknown_games_and_paths_are_404(served: Served) -> None:
    for path in ("/games/nosuchgame", "/games/-bad-", "/nowhere", "/schemas/chess"):
        reply = served.http.get(path)
        assert reply.status_code == 404, path
        assert reply.json()["error"]["kind"] in ("unknown-game", "not-found")
    assert post(served, "nosuchgame", None, roll(0)).status_code == 404
    assert served.http.delete("/games").status_code == 405
    with open_socket(served.ws_url("nosuchgame"), None) as socket:
        assert receive(socket)["status"] == 404
        with pytest.raises(ConnectionClosed) as closed:
            receive(socket)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4404
    for query in ("?after=-1", "?after=x", "?after=999"):
        game = mare(served)
        assert served.http.get(f"/games/{game['id']}{query}").status_code == 400


def test_oversized_bodies_and_messages_are_refused(tmp_path: Path) -> None:
    limits = ServerLimits(
        max_body_bytes=1_000,
        max_message_bytes=1_000,
        commands_per_second=1_000.0,
        games_per_second=1_000.0,
    )
    with serving(tmp_path / "games.db", limits=limits) as served:
        game = mare(served)
        ann = game["seats"][0]["token"]
        before = stored_events(served, game["id"])
        padded = {"notation": "roll " + " " * 2_000}
        reply = post(served, game["id"], ann, padded)
        assert reply.status_code == 413
        assert reply.json()["error"]["kind"] == "too-large"

        def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts as it reads
            yield b'{"notation": "roll'
            yield b" " * 2_000
            yield b'"}'

        reply = served.http.post(
            f"/games/{game['id']}/commands",
            content=chunks(),
            headers={**auth(ann), "Content-Type": "application/json"},
        )
        assert reply.status_code == 413
        reply = served.http.post("/games", json={"game": "mare", "players": ["x" * 2_000]})
        assert reply.status_code == 413
        with open_socket(served.ws_url(game["id"]), ann) as socket:
            assert receive(socket)["type"] == "update"
            socket.send(json.dumps({"type": "command", **padded}))
            error = receive(socket)
            assert error["status"] == 413
            assert error["error"]["kind"] == "too-large"
            with pytest.raises(ConnectionClosed) as closed:
                receive(socket)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1009
        assert stored_events(served, game["id"]) == before
        still_serving(served, game)


def test_floods_are_refused_with_429_and_others_are_still_served(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    limits = ServerLimits(
        commands_per_second=0.001, command_burst=3, games_per_second=0.001, games_burst=4
    )
    caplog.set_level(logging.INFO, logger="avanti.server")
    with serving(tmp_path / "games.db", limits=limits) as served:
        game = mare(served)
        bob = game["seats"][1]["token"]
        before = stored_events(served, game["id"])
        statuses = [post(served, game["id"], bob, roll(1)).status_code for _ in range(10)]
        assert statuses[:3] == [422, 422, 422]  # not Bob's turn: refused by the rules
        assert statuses[3:] == [429] * 7
        assert stored_events(served, game["id"]) == before
        with open_socket(served.ws_url(game["id"]), bob) as socket:
            assert receive(socket)["type"] == "update"
            for _ in range(6):
                socket.send(json.dumps({"type": "command", **roll(1)}))
            errors = [receive(socket) for _ in range(6)]
        assert [error["status"] for error in errors] == [422, 422, 422, 429, 429, 429]
        still_serving(served, game)  # Ann's seat has its own allowance
        creations = [
            served.http.post("/games", json={"game": "mare", "players": ["Ann"]}).status_code
            for _ in range(5)
        ]
        assert creations == [201, 201, 201, 429, 429]  # one game was made before
    limited = [r for r in caplog.records if r.getMessage() == "limit"]
    assert {vars(r)["avanti_fields"]["limit"] for r in limited} == {
        "commands_per_second",
        "games_per_second",
    }


def test_too_many_connections_to_one_game_are_refused(tmp_path: Path) -> None:
    limits = ServerLimits(
        connections_per_game=2, commands_per_second=1_000.0, games_per_second=1_000.0
    )
    with serving(tmp_path / "games.db", limits=limits) as served:
        game = mare(served)
        url = served.ws_url(game["id"])
        with open_socket(url, None) as first, open_socket(url, None) as second:
            assert receive(first)["type"] == receive(second)["type"] == "update"
            with open_socket(url, None) as third:
                refused = receive(third)
                with pytest.raises(ConnectionClosed) as closed:
                    receive(third)
            assert refused["error"]["kind"] == "too-many-connections"
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1013
            still_serving(served, game)
            assert receive(first)["version"] == receive(second)["version"] > 0
        with open_socket(url, None) as again:  # a place is free again
            assert receive(again)["type"] == "update"


def test_silent_sockets_are_closed(tmp_path: Path) -> None:
    limits = ServerLimits(idle_timeout=0.2, commands_per_second=1_000.0, games_per_second=1_000.0)
    with serving(tmp_path / "idle.db", limits=limits) as served:
        game = mare(served)
        with open_socket(served.ws_url(game["id"]), None) as socket:
            assert receive(socket)["type"] == "update"
            error = receive(socket)  # then it says nothing more
            with pytest.raises(ConnectionClosed) as closed:
                receive(socket)
        assert error["error"]["kind"] == "idle-timeout"
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 4408
    limits = ServerLimits(hello_timeout=0.05, games_per_second=1_000.0)
    with serving(tmp_path / "mute.db", limits=limits) as served:
        game = mare(served)
        with connect(served.ws_url(game["id"])) as mute:  # never says who it is
            assert json.loads(mute.recv())["error"]["kind"] == "idle-timeout"


def test_bad_first_messages_close_the_socket(served: Served) -> None:
    game = mare(served)
    for hello in ('{"token": 7}', '{"after": -1}', '{"after": 99}', "[]", "{", '{"who": 1}'):
        with connect(served.ws_url(game["id"])) as socket:
            socket.send(hello)
            error = receive(socket)
            with pytest.raises(ConnectionClosed) as closed:
                receive(socket)
        assert error["status"] == 400, hello
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 4400
