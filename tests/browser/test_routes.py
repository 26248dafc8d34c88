"""The front end's routes on their own (no browser, no uvicorn): games the server did not create,
games it cannot read, and a store that fails."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import httpx
import pytest

from avanti import catalog, mare
from avanti.server import create_app
from avanti.server.protocol.wire import table_data
from avanti.server.transport.pages import WEB
from avanti.store import GameStore, MemoryEventStore, StoreError


class _Server:
    """A store of games for the app."""

    def __init__(self) -> None:
        self.games = GameStore(MemoryEventStore())


class _Client:
    """GET requests to the app, in process (no lifespan: no bots, no WebSocket)."""

    def __init__(self, server: _Server) -> None:
        self._app = create_app(server.games)

    def get(self, path: str, headers: dict[str, str] | None = None) -> httpx.Response:
        async def fetch() -> httpx.Response:
            transport = httpx.ASGITransport(app=self._app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                return await client.get(path, headers=headers)

        # In a thread of its own: the browser tests' Playwright runs an event loop here.
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(anyio.run, fetch).result()


def _client(server: _Server) -> _Client:
    return _Client(server)


def test_a_game_stored_without_seats_is_shown_to_spectators() -> None:
    """A game put in the store by another tool has no seats: its table is the spectator's,
    read by its document's format, and any token is refused."""
    server = _Server()
    game = mare.new_game(["Ann", "Bob"], seed=4)
    server.games.create("outside", game)
    client = _client(server)
    answer = client.get("/games/outside/table")
    assert answer.status_code == 200
    assert answer.json() == table_data(game, catalog.GAMES["mare"], None, 0)
    refused = client.get("/games/outside/table", headers={"Authorization": "Bearer abc"})
    assert refused.status_code == 401


def test_a_game_of_an_unknown_kind_is_a_logged_500() -> None:
    """A stored table naming a game this server does not have is answered 500 ``internal``,
    never with a picture."""
    server = _Server()
    server.games.create(
        "odd",
        mare.new_game(["Ann"], seed=1),
        {
            "server": {
                "game": "chess",
                "seats": [{"name": "Ann", "token_sha256": None, "bot": None}],
            }
        },
    )
    answer = _client(server).get("/games/odd/table")
    assert answer.status_code == 500
    assert answer.json()["error"]["kind"] == "internal"


def test_a_failing_store_is_a_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """A store that fails is answered 503 ``unavailable``: try again."""
    server = _Server()

    def failing(stream: str) -> Any:
        raise StoreError("the database is down")

    monkeypatch.setattr(server.games.events, "stream", failing)
    answer = _client(server).get("/games/any/table")
    assert answer.status_code == 503
    assert answer.json()["error"]["kind"] == "unavailable"


def test_every_file_has_a_known_type() -> None:
    """Each file of ``web/`` is sent with its own type (HTML, JavaScript, CSS, SVG), never as
    bytes of no type."""
    client = _client(_Server())
    for path in WEB.iterdir():
        answer = client.get(f"/static/{path.name}")
        assert answer.status_code == 200, path.name
        assert answer.headers["content-type"] != "application/octet-stream", path.name
