"""A socket that joins a game while this server stores a command for it is sent that command.

A socket's join reads the game, then (after the chat so far is read, in a worker thread) joins
the game's listeners. The server's follower reports only other processes' writes: this
process's own are pushed when they are stored, to the listeners the game has then. A command
stored here between the read and the join, while the game had no listener here, was pushed to
nobody and never reported by the follower, so the joining socket was sent the game as read and
then nothing: its seat waited for an update that never came (seen as a stalled game, with two
servers on one database, when a seat's command reached a server before the first socket of
that game joined it).

The test holds the join between the read and the join (the chat's read waits for a signal),
stores a command through HTTP meanwhile, then lets the join go on.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from avanti.server.table.chat import RECENT, Chat
from tests.server.support import PATIENCE, Served, open_socket, receive, serving


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "games.db") as running:
        yield running


def test_a_socket_joining_while_a_command_is_stored_here_is_sent_that_command(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = served.create("mare", ["Ann", "Bob"])
    game_id = created["id"]
    ann, bob = (seat["token"] for seat in created["seats"])
    headers = {"Authorization": f"Bearer {ann}"}
    before = served.http.get(f"/games/{game_id}", headers=headers).json()
    assert before["waiting"] == [0]  # Ann moves first (M3)

    reading = threading.Event()  # the join has read the game and reads the chat
    go_on = threading.Event()
    recent = Chat.recent

    def held(self: Chat, game: str, count: int = RECENT) -> Any:
        reading.set()
        assert go_on.wait(PATIENCE)
        return recent(self, game, count)

    monkeypatch.setattr(Chat, "recent", held)
    with open_socket(served.ws_url(game_id), bob) as socket:
        assert reading.wait(PATIENCE)
        reply = served.http.post(
            f"/games/{game_id}/commands",
            json={
                "notation": before["legal"][0]["notation"],
                "expected_version": before["version"],
            },
            headers=headers,
        )
        assert reply.status_code == 200, reply.text
        stored = reply.json()["version"]
        assert stored > before["version"]
        go_on.set()
        updates = [receive(socket)]
        while updates[-1]["version"] < stored:  # waits at most PATIENCE for each
            updates.append(receive(socket))
    assert all(update["type"] == "update" for update in updates)
    assert updates[-1]["version"] == stored
    after = served.http.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {bob}"})
    assert updates[-1]["view"] == after.json()["view"]
    # every event up to the stored command, each once, in order (the socket joined after 0)
    positions = [item["position"] for update in updates for item in update["events"]]
    assert positions == list(range(stored))
