"""What the server's table says in words, and the sides a new game is given (M2): the board's
road spaces in the history, each legal command's label, the seat spoken to as "you"."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import httpx

import avanti
from avanti import catalog
from avanti.server import create_app
from avanti.server.protocol.wire import table_data
from avanti.store import GameStore, MemoryEventStore

JSON = {"Content-Type": "application/json"}


def call(games: GameStore, method: str, path: str, **kw: Any) -> httpx.Response:
    """One request to the app, in process (no lifespan: no bots, no WebSocket)."""
    app = create_app(games)

    async def fetch() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.request(method, path, **kw)

    with ThreadPoolExecutor(1) as pool:  # the browser tests' Playwright may run a loop here
        return pool.submit(anyio.run, fetch).result()


def test_a_new_game_of_avanti_mare_takes_each_seats_side() -> None:
    """M2: each player sides with the fish or with the fishers, chosen at creation."""
    games = GameStore(MemoryEventStore())
    body = {"game": "mare", "players": ["Ann", "Bob"], "sides": ["fisher-fans", "fish-friends"]}
    created = call(games, "POST", "/games", json=body, headers=JSON)
    assert created.status_code == 201, created.text
    seen = call(games, "GET", f"/games/{created.json()['id']}").json()
    assert seen["public_setup"]["sides"] == ["fisher-fans", "fish-friends"]
    for wrong in (["fisher-fans"], ["fisher-fans", "sharks"], "fisher-fans"):
        refused = call(games, "POST", "/games", json={**body, "sides": wrong}, headers=JSON)
        assert refused.status_code == 400, wrong
        assert "M2" in refused.json()["error"]["message"]
    avanti_body = {"game": "avanti", "players": ["Ann", "Bob", "Cy"], "sides": ["a", "b", "c"]}
    refused = call(games, "POST", "/games", json=avanti_body, headers=JSON)
    assert refused.status_code == 400
    assert "no sides" in refused.json()["error"]["message"]


def test_the_table_names_road_spaces_and_labels_every_command() -> None:
    """A30: the history is the game's ``narrate`` for the seat (its own deeds as "You", a car's
    move by its road spaces, A7) and each legal command has the game's ``explain`` beside it."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    game = game.execute(avanti.PlaceEventMarker(seat=0, space=12))
    table: Any = table_data(game, catalog.GAMES["avanti"], 0, 0)
    texts = [line["text"] for line in table["history"]]
    assert texts[-1] == "You put the event marker on road space 12; every car starts there."
    legal = game.legal_commands(0)
    assert len(table["labels"]) == len(legal) > 0
    assert table["labels"][0] == avanti.explain(game.public_setup, legal[0], game.view(0))
    later: Any = table_data(game, catalog.GAMES["avanti"], 0, 5)
    assert [line["position"] for line in later["history"]] == [5]
    assert later["history"][0]["text"] == texts[-1]
    watching: Any = table_data(game, catalog.GAMES["avanti"], None, 0)
    assert watching["labels"] == []
    assert watching["history"][-1]["text"].startswith("Ann puts the event marker on road space 12")
