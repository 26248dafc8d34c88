"""The chat of a table and the rematch of a finished game, against a real server.

Hostile text (HTML, a script, a bidi override, 10 kB) is kept as sent or refused whole; a
spectator reads and does not write; a rematch is one game however many seats ask at once.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from websockets.sync.client import ClientConnection

from avanti.server.limits import ServerLimits
from avanti.server.protocol.wire import ApiError
from avanti.server.table.chat import Chat, check_text
from avanti.server.table.master import Tables
from avanti.store import GameStore, MemoryEventStore
from tests.server.support import ROOMY, Served, open_socket, receive, serving, wait_for


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A server with roomy limits, on an SQLite file of its own."""
    with serving(tmp_path / "games.db", limits=attrs.evolve(ROOMY, chat_burst=50)) as running:
        yield running


def auth(token: str | None) -> dict[str, str]:
    """The header that carries ``token``."""
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def next_of(socket: ClientConnection, kind: str) -> Any:
    """The next message of type ``kind`` (updates and others before it are passed over)."""
    while True:
        message = receive(socket)
        if message["type"] == kind:
            return message


HOSTILE = [
    "<b>bold</b> & <i>it</i>",
    "<script>alert(1)</script>",
    "\u202eevil\u202c text \u2066isolated\u2069",
    "<img src=x onerror=alert(1)>" + "x" * 10,
    "two\nlines\tand a tab",
]


def test_hostile_text_reaches_every_connection_exactly_as_sent(served: Served) -> None:
    game = served.create("mare", ["Ann", "Bob"])
    ann, bob = (seat["token"] for seat in game["seats"])
    url = served.ws_url(game["id"])
    with open_socket(url, ann) as one, open_socket(url, bob) as two, open_socket(url, None) as eye:
        for socket in (one, two, eye):
            assert receive(socket)["type"] == "update"
        for text in HOSTILE:
            one.send(json.dumps({"type": "chat", "text": text}))
        for socket in (one, two, eye):
            got = [next_of(socket, "chat")["messages"] for _ in HOSTILE]
            assert [len(messages) for messages in got] == [1] * len(HOSTILE)
            assert [messages[0]["text"] for messages in got] == HOSTILE
            assert [messages[0]["id"] for messages in got] == list(range(len(HOSTILE)))
            assert {(m[0]["seat"], m[0]["name"], m[0]["system"]) for m in got} == {
                (0, "Ann", False)
            }
    with open_socket(url, None) as late:
        assert receive(late)["type"] == "update"
        history = receive(late)
        assert history["type"] == "chat"
        assert [message["text"] for message in history["messages"]] == HOSTILE
    assert served.http.get(f"/games/{game['id']}").json()["version"] == 0  # not the game's log


@pytest.mark.parametrize(
    "text",
    ["", "   \n", "x" * 501, "x" * 10_000, "bell\x07", "nul\x00", "esc\x1b[2J", 17, None],
)
def test_bad_chat_is_refused_and_nothing_is_stored(served: Served, text: Any) -> None:
    game = served.create("mare", ["Ann", "Bob"])
    ann = game["seats"][0]["token"]
    with open_socket(served.ws_url(game["id"]), ann) as socket:
        assert receive(socket)["type"] == "update"
        socket.send(json.dumps({"type": "chat", "text": text}))
        refused = receive(socket)
        assert refused["type"] == "error"
        assert refused["error"]["kind"] == "invalid-request"
        if isinstance(text, str) and len(text) > 3:
            assert text not in refused["error"]["message"]
        socket.send(json.dumps({"type": "chat", "text": "still here"}))
        assert [m["text"] for m in next_of(socket, "chat")["messages"]] == ["still here"]


def test_a_spectator_reads_but_does_not_write_and_a_flood_is_rate_limited(
    tmp_path: Path,
) -> None:
    limits = attrs.evolve(ROOMY, chat_per_second=0.001, chat_burst=3)
    with serving(tmp_path / "games.db", limits=limits) as served:
        game = served.create("mare", ["Ann", "Bob"])
        ann = game["seats"][0]["token"]
        url = served.ws_url(game["id"])
        with open_socket(url, None) as eye, open_socket(url, ann) as socket:
            assert receive(eye)["type"] == receive(socket)["type"] == "update"
            eye.send(json.dumps({"type": "chat", "text": "hello"}))
            refused = receive(eye)
            assert (refused["status"], refused["error"]["kind"]) == (403, "forbidden")
            for n in range(5):
                socket.send(json.dumps({"type": "chat", "text": f"m{n}"}))
            kinds: list[str] = []
            while len(kinds) < 5:
                message = receive(socket)
                if message["type"] == "chat":
                    kinds.append("chat")
                elif message["type"] == "error":
                    kinds.append(message["error"]["kind"])
            assert sorted(kinds) == ["chat"] * 3 + ["rate-limited"] * 2  # in any order
            assert [m["text"] for m in Chat(_tables(served)).recent(game["id"])] == [
                "m0",
                "m1",
                "m2",
            ]
            extra = {"type": "chat", "text": "x", "html": "<b>"}
            socket.send(json.dumps(extra))
            assert receive(socket)["error"]["kind"] == "invalid-request"


def _tables(served: Served) -> Tables:
    return Tables(GameStore(served.store), ServerLimits())


def test_racing_chat_messages_get_ids_without_gaps() -> None:
    tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
    created = tables.create(_mare(), "client")
    chat = Chat(tables, now=lambda: 1_800_000_000.0)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        posted = list(pool.map(lambda n: chat.post(created.game_id, n % 2, f"m{n}"), range(40)))
    assert sorted(message["id"] for message in posted) == list(range(40))
    recent = chat.recent(created.game_id)
    assert len(recent) == 40
    assert recent[0]["at"] == 1_800_000_000
    assert chat.recent("nothing-here") == []
    system = chat.post(created.game_id, None, "Ann's time ran out: a bot moved", system=True)
    assert (system["seat"], system["name"], system["system"]) == (None, None, True)
    with pytest.raises(ApiError, match="spectator"):
        chat.post(created.game_id, None, "hi")
    assert check_text("\u202e", 5) == "\u202e"


def _mare() -> Any:
    from avanti.server.protocol.requests import NewGame

    return NewGame.read({"game": "mare", "players": ["Ann", "Bob"]}, ("random",))


# -- rematch ------------------------------------------------------------------------------------


def finished(served: Served, bots: dict[str, str]) -> Any:
    """A game of Avanti mare! whose people's seats hand over to bots until it is over."""
    game = served.create("mare", ["Ann", "Bob", "Cy"], bots)
    for seat in game["seats"]:
        if seat["token"] is not None:
            url = f"/games/{game['id']}/seats/{seat['seat']}/bot"
            put = served.http.put(url, json={"bot": "random"}, headers=auth(seat["token"]))
            assert put.status_code == 200
    wait_for(lambda: served.http.get(f"/games/{game['id']}").json()["outcome"], "the game to end")
    return game


def test_a_rematch_seats_the_same_players_and_is_one_game_under_racing_calls(
    served: Served,
) -> None:
    game = finished(served, {"2": "random"})
    ann, bob = game["seats"][0]["token"], game["seats"][1]["token"]
    url = f"/games/{game['id']}/rematch"
    with open_socket(served.ws_url(game["id"]), None) as eye:
        assert receive(eye)["type"] == "update"
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            replies = list(
                pool.map(lambda t: served.http.post(url, headers=auth(t)), [ann, bob, ann, bob])
            )
        assert [reply.status_code for reply in replies] == [200] * 4
        answers = [reply.json() for reply in replies]
        assert len({answer["game_id"] for answer in answers}) == 1
        assert answers[0] == answers[2]
        assert answers[1] == answers[3]
        assert [answer["seat"] for answer in answers] == [0, 1, 0, 1]
        new_id = answers[0]["game_id"]
        assert next_of(eye, "rematch") == {"type": "rematch", "game_id": new_id}
    new = served.http.get(f"/games/{new_id}", headers=auth(answers[1]["token"])).json()
    old = served.http.get(f"/games/{game['id']}").json()
    assert new["seat"] == 1
    assert new["outcome"] is None
    assert new["public_setup"]["players"] == old["public_setup"]["players"]
    [entry] = [g for g in served.http.get("/games").json()["games"] if g["id"] == new_id]
    assert entry["bots"] == {"2": "random"}
    with open_socket(served.ws_url(game["id"]), None) as late:
        assert receive(late)["type"] == "update"
        assert next_of(late, "rematch")["game_id"] == new_id


def test_a_rematch_is_refused_before_the_end_and_without_a_seat(served: Served) -> None:
    game = served.create("mare", ["Ann", "Bob"])
    url = f"/games/{game['id']}/rematch"
    ann = game["seats"][0]["token"]
    assert served.http.post(url, headers=auth(ann)).json()["error"]["kind"] == "not-over"
    assert served.http.post(url).status_code == 403
    assert served.http.post(url, headers=auth("guess" * 6)).status_code == 401
    assert served.http.post("/games/nothing/rematch", headers=auth(ann)).status_code == 404
    cross = served.http.post(url, headers={**auth(ann), "Origin": "http://evil.example"})
    assert cross.json()["error"]["kind"] == "cross-origin"
