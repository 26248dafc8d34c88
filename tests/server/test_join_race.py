"""A socket that joins a game while this server announces something for it is sent it, once.

A socket's join reads the game, then joins the game's listeners. The server's follower reports
only other processes' writes: this process's own changes (a command stored, a chat message, a
rematch) are announced to the listeners the game has then. A command stored between the read
and the join, while the game had no listener here, reached nobody and was never reported by
the follower, so the joining socket was sent the game as its read found it and then nothing:
its seat waited for an update that never came (seen as a stalled game, with two servers on one
database, when a seat's command reached a server before the game's first socket there joined).
A chat message posted while the join read the chat so far was lost alike. The hub now notes
what this process announces for a game while a socket reads it and joins: a newer version is
sent in place of the one read, a message told meanwhile has the record read once more, and the
chat so far is read after the join; what the socket was told meanwhile and is sent in the chat
so far or as the rematch is not sent twice. A join that nothing happened during reads the game
and its record once.

Each test holds the join at one step (a read waits for a signal), makes the change through
HTTP meanwhile, then lets the join go on.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from avanti.server.table.chat import RECENT, Chat
from avanti.server.table.master import Seated, Tables
from avanti.server.transport.push import Hub
from tests.server.support import PATIENCE, Served, open_socket, receive, serving, wait_for
from tests.server.test_chat import finished


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "games.db") as running:
        yield running


class Hold:
    """Holds the ``at``-th call made after it is made (the first by default) until
    :meth:`release`."""

    def __init__(self, at: int = 1) -> None:
        self.reached = threading.Event()
        self._go_on = threading.Event()
        self._at = at
        self._calls = 0
        self._lock = threading.Lock()

    def __call__(self) -> None:
        with self._lock:
            self._calls += 1
            this = self._calls
        if this == self._at:
            self.reached.set()
            assert self._go_on.wait(PATIENCE)

    def release(self) -> None:
        self._go_on.set()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def mare_for_two(served: Served) -> tuple[str, str, str, Any]:
    """A game of mare for Ann and Bob: its id, their tokens, and Ann's look at it."""
    created = served.create("mare", ["Ann", "Bob"])
    ann, bob = (seat["token"] for seat in created["seats"])
    before = served.http.get(f"/games/{created['id']}", headers=bearer(ann)).json()
    assert before["waiting"] == [0]  # Ann moves first
    return created["id"], ann, bob, before


def test_a_command_stored_here_between_the_joins_read_and_its_join_is_sent(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, ann, bob, before = mare_for_two(served)
    hold = Hold()
    read: Callable[[Tables, str], Seated] = Tables.read

    def held(self: Tables, game: str) -> Seated:
        seated = read(self, game)
        hold()  # the join's first read has read the game as it was
        return seated

    monkeypatch.setattr(Tables, "read", held)
    with open_socket(served.ws_url(game_id), bob) as socket:
        assert hold.reached.wait(PATIENCE)
        reply = served.http.post(
            f"/games/{game_id}/commands",
            json={
                "notation": before["legal"][0]["notation"],
                "expected_version": before["version"],
            },
            headers=bearer(ann),
        )
        assert reply.status_code == 200, reply.text
        stored = reply.json()["version"]
        assert stored > before["version"]
        hold.release()
        updates = [receive(socket)]
        while updates[-1]["version"] < stored:  # waits at most PATIENCE for each
            updates.append(receive(socket))
    assert all(update["type"] == "update" for update in updates)
    assert updates[-1]["version"] == stored
    after = served.http.get(f"/games/{game_id}", headers=bearer(bob))
    assert updates[-1]["view"] == after.json()["view"]
    # every event up to the stored command, each once, in order (the socket joined after 0)
    positions = [item["position"] for update in updates for item in update["events"]]
    assert positions == list(range(stored))


def said(socket: ClientConnection, text: str) -> None:
    """Say ``text`` in the chat and wait for its echo (then it is stored and told to every
    connection of the game)."""
    socket.send(json.dumps({"type": "chat", "text": text}))
    while True:
        message = receive(socket)
        if message["type"] == "chat" and message["messages"][-1]["text"] == text:
            return


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_chat_message_said_while_a_socket_joins_is_sent_to_it_once(
    served: Served, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """Ann says something while Bob's join reads the chat so far: ``before`` that read (it is
    in the chat so far, and was told to Bob's connection too), or ``after`` it (it is not)."""
    game_id, ann, bob, _ = mare_for_two(served)
    with open_socket(served.ws_url(game_id), ann) as ann_socket:
        assert receive(ann_socket)["type"] == "update"
        said(ann_socket, "hello")
        hold = Hold()
        recent = Chat.recent

        def held(self: Chat, game: str, count: int = RECENT) -> Any:
            if when == "before":
                hold()
            found = recent(self, game, count)
            if when == "after":
                hold()
            return found

        monkeypatch.setattr(Chat, "recent", held)
        with open_socket(served.ws_url(game_id), bob) as socket:
            assert hold.reached.wait(PATIENCE)
            said(ann_socket, "are you there?")
            hold.release()
            assert receive(socket)["type"] == "update"
            socket.send(json.dumps({"type": "chat", "text": "yes"}))  # its echo ends the reading
            heard: list[str] = []
            while "yes" not in heard:
                message = receive(socket)
                if message["type"] == "chat":
                    heard += [item["text"] for item in message["messages"]]
    assert heard == ["hello", "are you there?", "yes"]


@pytest.mark.parametrize("when", ["reading", "joined"])
def test_a_rematch_asked_for_while_a_socket_joins_is_sent_to_it_once(
    served: Served, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """Ann asks for a rematch while a spectator joins: ``reading``, once the join has read the
    game and before it joined its listeners (the rematch reached none of them: the join reads
    the record once more), or ``joined``, once it joined and before it read the chat so far
    (the rematch was told to the connection, and the record read first had none)."""
    game = finished(served, {"2": "random"})
    ann = game["seats"][0]["token"]
    with open_socket(served.ws_url(game["id"]), None) as eye:
        assert receive(eye)["type"] == "update"
        hold = Hold()
        if when == "reading":
            read: Callable[[Tables, str], Seated] = Tables.read

            def held_read(self: Tables, game: str) -> Seated:
                seated = read(self, game)
                hold()
                return seated

            monkeypatch.setattr(Tables, "read", held_read)
        else:
            recent = Chat.recent

            def held_recent(self: Chat, game: str, count: int = RECENT) -> Any:
                hold()
                return recent(self, game, count)

            monkeypatch.setattr(Chat, "recent", held_recent)
        with open_socket(served.ws_url(game["id"]), None) as late:
            assert hold.reached.wait(PATIENCE)
            reply = served.http.post(f"/games/{game['id']}/rematch", headers=bearer(ann))
            assert reply.status_code == 200, reply.text
            new_id = reply.json()["game_id"]
            assert receive_kind(eye, "rematch") == {"type": "rematch", "game_id": new_id}
            hold.release()
            assert receive(late)["type"] == "update"
            late.send(json.dumps({"type": "ping"}))  # its pong ends the reading
            kinds: list[str] = []
            while not kinds or kinds[-1] != "pong":
                message = receive(late)
                kinds.append(message["type"])
                if message["type"] == "rematch":
                    assert message["game_id"] == new_id
    assert kinds == ["rematch", "pong"]


def receive_kind(socket: ClientConnection, kind: str) -> Any:
    """The next message of type ``kind`` (others before it passed over)."""
    while True:
        message = receive(socket)
        if message["type"] == kind:
            return message


def test_a_join_that_nothing_happens_during_reads_the_game_and_the_chat_once(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob joins a game of mare while nobody does anything: one read of the game with its
    record, one of the chat so far, and his first update shows the game as Ann's look at it
    does (version and all)."""
    game_id, _, bob, before = mare_for_two(served)
    calls: list[str] = []
    read: Callable[[Tables, str], Seated] = Tables.read
    recent = Chat.recent

    def counted_read(self: Tables, game: str) -> Seated:
        calls.append("read")
        return read(self, game)

    def counted_recent(self: Chat, game: str, count: int = RECENT) -> Any:
        calls.append("chat")
        return recent(self, game, count)

    monkeypatch.setattr(Tables, "read", counted_read)
    monkeypatch.setattr(Chat, "recent", counted_recent)
    with open_socket(served.ws_url(game_id), bob) as socket:
        first = receive(socket)
    assert calls == ["read", "chat"]
    assert first["type"] == "update"
    assert first["version"] == before["version"]


def test_what_joins_note_is_let_go_when_they_end_however_they_end(served: Served) -> None:
    """The hub keeps what is announced for a game only while sockets join it: after twenty
    joins, half of them refused (an ``after`` beyond the game's version) and half closed by
    their clients once joined, it keeps nothing (``Hub.expecting`` is bounded by the sockets
    joining, not by the joins made)."""
    game_id, _, bob, before = mare_for_two(served)
    app: Any = served.server.config.app
    hub: Hub = app.state.hub
    for _ in range(10):
        with open_socket(served.ws_url(game_id), bob, after=before["version"] + 5) as socket:
            refused = receive(socket)
        assert refused["type"] == "error"
        assert "beyond the game's version" in refused["error"]["message"]
        with open_socket(served.ws_url(game_id), bob) as socket:
            assert receive(socket)["type"] == "update"
    wait_for(lambda: game_id not in hub._channels, "the sessions to end")
    assert hub._expected == {}
