"""Findings 3 and 6 of the security review, against a real server.

Finding 3: the chat's rate was kept per connection, so a seat that reconnected sent as fast
as it could reconnect; a game's chat grew without end, and a finished game still took
messages. Now the rate holds per seat across reconnects, a chat keeps at most
``chat_per_game`` messages, and a finished game's chat takes none from its seats.

Finding 6: a rematch was neither rate limited nor counted among its address's games in play
(3 allowed, 9 reached). Now the call that creates a rematch is admitted as a new game is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
from websockets.sync.client import ClientConnection

from avanti.server.limits import ServerLimits
from avanti.server.table.chat import Chat
from avanti.server.table.master import Tables
from avanti.server.table.rematch import rematch_id
from avanti.store import GameStore
from tests.server.support import ROOMY, Served, open_socket, receive, serving, wait_for


def auth(token: str | None) -> dict[str, str]:
    """The header that carries ``token``."""
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def stored(served: Served, game: str) -> list[str]:
    """The texts a game's chat holds in the store, oldest first."""
    chat = Chat(Tables(GameStore(served.store), ServerLimits()))
    return [message["text"] for message in chat.recent(game, 10_000)]


def say(socket: ClientConnection, text: str) -> Any:
    """Send a chat message; the error or the chat message of ``text`` that answers it (updates,
    the chat so far and other seats' messages are passed over)."""
    socket.send(json.dumps({"type": "chat", "text": text}))
    while True:
        message = receive(socket)
        if message["type"] == "error":
            return message
        if message["type"] == "chat" and message["messages"][-1]["text"] == text:
            return message


def finished(served: Served, players: list[str], bots: Mapping[str, str] = {}) -> Any:
    """A game of Avanti mare! whose people's seats hand over to bots until it is over."""
    game = served.create("mare", players, bots)
    for seat in game["seats"]:
        if seat["token"] is not None:
            url = f"/games/{game['id']}/seats/{seat['seat']}/bot"
            put = served.http.put(url, json={"bot": "random"}, headers=auth(seat["token"]))
            assert put.status_code == 200, put.text
    wait_for(lambda: served.http.get(f"/games/{game['id']}").json()["outcome"], "the game to end")
    return game


# -- finding 3: the chat ------------------------------------------------------------------------


def test_a_seat_that_reconnects_keeps_its_chat_rate(tmp_path: Path) -> None:
    limits = attrs.evolve(ROOMY, chat_per_second=0.001, chat_burst=2)
    with serving(tmp_path / "games.db", limits=limits) as served:
        game = served.create("mare", ["Ann", "Bob"])
        ann, bob = (seat["token"] for seat in game["seats"])
        url = served.ws_url(game["id"])
        with open_socket(url, ann) as socket:
            assert [say(socket, text)["type"] for text in ("a1", "a2")] == ["chat", "chat"]
        for _ in range(3):  # each reconnection is the same seat, with no token left
            with open_socket(url, ann) as socket:
                refused = say(socket, "again")
                assert (refused["status"], refused["error"]["kind"]) == (429, "rate-limited")
                assert "seat" in refused["error"]["message"]
        with open_socket(url, ann) as one, open_socket(url, ann) as two:  # two at once too
            assert say(one, "one")["error"]["kind"] == "rate-limited"
            assert say(two, "two")["error"]["kind"] == "rate-limited"
        with open_socket(url, bob) as socket:  # another seat has a rate of its own
            assert say(socket, "b1")["type"] == "chat"
        assert stored(served, game["id"]) == ["a1", "a2", "b1"]


def test_a_chat_keeps_at_most_chat_per_game_messages(tmp_path: Path) -> None:
    limits = attrs.evolve(ROOMY, chat_per_second=10_000.0, chat_burst=10_000, chat_per_game=3)
    with serving(tmp_path / "games.db", limits=limits) as served:
        game = served.create("mare", ["Ann", "Bob"])
        ann, bob = (seat["token"] for seat in game["seats"])
        url = served.ws_url(game["id"])
        with open_socket(url, ann) as one, open_socket(url, bob) as two:
            assert say(one, "a1")["type"] == "chat"
            assert say(two, "b1")["type"] == "chat"
            assert say(one, "a2")["type"] == "chat"
            for socket in (one, two):
                refused = say(socket, "one more")
                assert (refused["status"], refused["error"]["kind"]) == (409, "conflict")
                assert "3 messages" in refused["error"]["message"]
        with open_socket(url, bob) as socket:
            assert say(socket, "after a reconnection")["error"]["kind"] == "conflict"
        assert stored(served, game["id"]) == ["a1", "b1", "a2"]


def test_a_finished_game_takes_no_chat_message(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", limits=attrs.evolve(ROOMY, chat_burst=50)) as served:
        game = finished(served, ["Ann", "Bob"])
        ann, bob = (seat["token"] for seat in game["seats"])
        url = served.ws_url(game["id"])
        with open_socket(url, ann) as one, open_socket(url, bob) as two:
            for socket in (one, two):
                refused = say(socket, "gg")
                assert (refused["status"], refused["error"]["kind"]) == (409, "conflict")
                assert "over" in refused["error"]["message"]
        assert stored(served, game["id"]) == []
        tables = Tables(GameStore(served.store), ServerLimits())
        system = Chat(tables).post(game["id"], None, "the server still speaks", system=True)
        assert system["system"] is True
        assert stored(served, game["id"]) == ["the server still speaks"]


# -- finding 6: the rematch ---------------------------------------------------------------------


def test_a_rematch_past_games_per_client_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", limits=attrs.evolve(ROOMY, games_per_client=2)) as served:
        games = [finished(served, ["Ann", "Bob"]) for _ in range(3)]  # one in play at a time
        tokens = [[seat["token"] for seat in game["seats"]] for game in games]
        for game, (ann, _bob) in zip(games[:2], tokens[:2], strict=True):
            reply = served.http.post(f"/games/{game['id']}/rematch", headers=auth(ann))
            assert reply.status_code == 200, reply.text
        third = games[2]["id"]
        for token in tokens[2]:  # two games in play from this address: no third
            refused = served.http.post(f"/games/{third}/rematch", headers=auth(token))
            assert refused.status_code == 429
            assert refused.json()["error"]["kind"] == "rate-limited"
            assert "in play" in refused.json()["error"]["message"]
        assert served.http.get(f"/games/{rematch_id(third)}").status_code == 404
        assert "rematch" not in served.store.stream(third).metadata
        assert (
            served.http.post("/games", json={"game": "mare", "players": ["A", "B"]}).status_code
            == 429
        )
        # another seat of a rematch made already is seated: that creates nothing
        bob = tokens[0][1]
        seated = served.http.post(f"/games/{games[0]['id']}/rematch", headers=auth(bob))
        assert seated.status_code == 200, seated.text
        assert seated.json()["game_id"] == rematch_id(games[0]["id"])


def test_a_rematch_keeps_to_the_creation_rate(tmp_path: Path) -> None:
    limits = attrs.evolve(ROOMY, games_per_second=0.001, games_burst=1)
    with serving(tmp_path / "games.db", limits=limits) as served:
        game = finished(served, ["Ann", "Bob"])
        for seat in game["seats"]:
            url = f"/games/{game['id']}/rematch"
            refused = served.http.post(url, headers=auth(seat["token"]))
            assert refused.status_code == 429
            assert refused.json()["error"]["kind"] == "rate-limited"
        assert served.http.get(f"/games/{rematch_id(game['id'])}").status_code == 404
        assert "rematch" not in served.store.stream(game["id"]).metadata
