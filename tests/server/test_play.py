"""Whole games through the server: real uvicorn, real WebSockets and HTTP, random legal play.

Every game of the catalog is played to the end by clients that choose random commands from the
``legal`` lists they are sent (some over their socket as JSON, some by notation, one over HTTP),
with bots in some seats and a spectator watching. Afterwards every message each client received
is checked against the game stored in the database, read back with a fresh ``GameStore``: the
events of ``events_for(seat)``, the view, the legal commands and whose move it was, at every
version sent, and nothing else. A restart of the server in the middle of a game loses nothing: the
clients reconnect with the last version they saw and go on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from avanti import catalog
from avanti.store import GameStore, SQLiteEventStore
from tests.server.support import Player, check_received, serving, wait_for

TABLES = {
    "avanti": (4, {"1": "heuristic"}),
    "mare": (3, {"2": "random"}),
    "autorama": (4, {"3": "heuristic"}),
}
"""Each game's seats and bots in the tests."""

WAYS = ("http", "socket", "notation")
"""How the people's seats send commands, in turn: seat 0 over HTTP, then the socket ways."""


def players_for(served: Any, created: Any) -> list[Player]:
    """A player for every person's seat (each sending commands its own way), and a spectator."""
    url = served.ws_url(created["id"])
    players = [
        Player(url, seat["token"], seat["seat"], how=WAYS[seat["seat"] % 3], seed=seat["seat"])
        for seat in created["seats"]
        if seat["token"] is not None
    ]
    return [*players, Player(url, None, None)]


def stored(path: Path, game_id: str) -> Any:
    """The game as the database holds it, read by a store of its own."""
    with SQLiteEventStore(path) as store:
        return GameStore(store).load(game_id, verify=True)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_game_plays_to_the_end_and_each_seat_receives_exactly_its_share(
    tmp_path: Path, name: str
) -> None:
    play_whole_game(tmp_path, name, as_served=True)


def test_a_game_plays_to_the_end_under_uvicorns_own_settings(tmp_path: Path) -> None:
    """The app embedded under uvicorn's defaults (its own WebSocket protocol, no direct write of
    messages) serves a whole game as ``avanti serve`` does."""
    play_whole_game(tmp_path, "mare", as_served=False)


def play_whole_game(tmp_path: Path, name: str, *, as_served: bool) -> None:
    """Play one game of ``name`` to the end through a server and check what every client got."""
    count, bots = TABLES[name]
    path = tmp_path / "games.db"
    with serving(path, as_served=as_served) as served:
        players = list(catalog.game_info(name).player_names(count))
        created = served.create(name, players, bots)
        clients = [player.start() for player in players_for(served, created)]
        for client in clients:
            client.join()
        game = stored(path, created["id"])
        final = served.http.get(f"/games/{created['id']}").json()
    assert game.is_over
    assert final["outcome"] is not None
    assert final["version"] == game.version
    for client in clients:
        check_received(game, client)
        assert client.updates[-1]["version"] == game.version
    people = [client for client in clients if client.seat is not None]
    assert any(client.replies for client in people)  # seat 0 played over HTTP
    assert any(client.sent for client in people)


def test_a_restart_in_the_middle_of_a_game_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with serving(path) as first:
        created = first.create("autorama", ["Ann", "Bob", "Cy", "Dee"], {"3": "random"})
        clients = [player.start() for player in players_for(first, created)]
        spectator = clients[-1]
        wait_for(lambda: spectator.last >= 20, "the game to get going")
        for client in clients:
            client.pause()
        wait_for(lambda: all(c.answered for c in clients), "every command sent to be answered")
    # the first server is gone: every client saw its socket closed (1012: service restart)
    wait_for(lambda: all(client.closes for client in clients), "every client to see the close")
    assert {code for client in clients for code in client.closes} <= {1012, 1006}
    middle = stored(path, created["id"])
    assert not middle.is_over
    with serving(path) as second:
        for client in clients:
            client.url = second.ws_url(created["id"])
            client.paused.clear()
            client.reconnect.set()
        for client in clients:
            client.join()
    game = stored(path, created["id"])
    assert game.is_over
    assert game.events[: middle.version] == middle.events
    for client in clients:
        check_received(game, client)
