"""Two ``avanti serve`` processes on one PostgreSQL database (and on one SQLite file) serve the
same game.

Each player listens to one server and sends its commands to the same or the other one; bots are
kicked by whichever server accepted the last command, so both may try the same bot move and the
database lets exactly one through. Every update each player received, from either server, is
checked against the stored game. The session's private PostgreSQL cluster comes from
``tests/store/pg.py``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed

from avanti.cli.serve import open_store
from avanti.store import GameStore, SQLiteEventStore
from avanti.store.postgres import PostgresEventStore
from tests.server.processes import ServeProcess
from tests.server.support import Player, check_received, open_socket, receive
from tests.store.pg import Cluster, postgres_cluster, postgres_dsn

__all__ = ["postgres_cluster", "postgres_dsn"]

_DATABASES = itertools.count()


def uri(dsn: str) -> str:
    """A ``postgresql://`` URI for a libpq connection string (``--database`` takes URIs)."""
    params = psycopg.conninfo.conninfo_to_dict(dsn)
    query = urllib.parse.urlencode({"host": params["host"], "port": params["port"]})
    return f"postgresql://{params['user']}@/{params['dbname']}?{query}"


@pytest.fixture
def database(postgres_cluster: Cluster) -> str:
    """A fresh database in the session's cluster, as a URI."""
    name = f"server_{next(_DATABASES)}"
    postgres_cluster.create_database(name)
    return uri(postgres_cluster.dsn_for(name))


@contextlib.contextmanager
def started_two(database: str, folder: Path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Two ``avanti serve`` processes on ``database`` (a URI or an SQLite file), killed on
    exit."""
    first = ServeProcess(database, folder, "first")
    try:
        second = ServeProcess(database, folder, "second")
    except BaseException:
        first.kill()
        raise
    try:
        yield first, second
    finally:
        first.kill()
        second.kill()


@pytest.fixture
def two_servers(database: str, tmp_path: Path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Two ``avanti serve`` processes on the database."""
    with started_two(database, tmp_path) as both:
        yield both


def test_a_command_accepted_by_one_server_is_pushed_by_the_other(
    two_servers: tuple[ServeProcess, ServeProcess], database: str
) -> None:
    def load(game_id: str) -> Any:
        with PostgresEventStore(database) as store:
            return GameStore(store).load(game_id, verify=True)

    play_across(*two_servers, load)


def test_two_servers_on_one_sqlite_file_take_alternating_commands(tmp_path: Path) -> None:
    """The same game through two processes on one SQLite file: each holds the game in memory,
    and each command one of them appends after the other wrote is refused by the append (the
    version it holds is stale) and decided again on the game read anew, so nothing is lost,
    duplicated or out of order, and each process's sockets see every event."""
    database = str(tmp_path / "games.db")

    def load(game_id: str) -> Any:
        with SQLiteEventStore(database) as store:
            return GameStore(store).load(game_id, verify=True)

    with started_two(database, tmp_path) as (first, second):
        play_across(first, second, load)


def play_across(first: ServeProcess, second: ServeProcess, load: Callable[[str], Any]) -> None:
    """A game of mare played through both servers (each player listens to one and sends to the
    same or the other, a bot in the fourth seat), checked against the stored game."""
    with httpx.Client(timeout=60) as http:
        reply = http.post(
            f"{first.url}/games",
            json={"game": "mare", "players": ["Ann", "Bob", "Cy", "Dee"], "bots": {"3": "random"}},
        )
        assert reply.status_code == 201
        created = reply.json()
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        players = [
            # Ann listens to the second server and sends her commands to the first
            Player(
                second.ws_url(game_id),
                tokens[0],
                0,
                how="http",
                http_url=f"{first.url}/games/{game_id}",
            ),
            Player(first.ws_url(game_id), tokens[1], 1, how="socket", seed=1),
            Player(second.ws_url(game_id), tokens[2], 2, how="notation", seed=2),
            Player(first.ws_url(game_id), None, None),
            Player(second.ws_url(game_id), None, None),
        ]
        for player in players:
            player.start()
        for player in players:
            player.join()
        lobby = http.get(f"{second.url}/games").json()["games"]
    game = load(game_id)
    assert game.is_over
    assert [item["id"] for item in lobby] == [game_id]
    assert lobby[0]["over"] is True
    for player in players:
        check_received(game, player)
    for server in (first, second):
        code, out = server.stop()
        assert code == 0
        assert "stopped" in out
    for line in first.log.read_text().splitlines():  # structured logs: JSON lines
        assert isinstance(json.loads(line), dict)


def test_a_server_stopping_closes_its_sockets_and_the_other_serves_on(
    two_servers: tuple[ServeProcess, ServeProcess],
) -> None:
    first, second = two_servers
    with httpx.Client(timeout=60) as http:
        created = http.post(f"{first.url}/games", json={"game": "mare", "players": ["Ann"]}).json()
        token = created["seats"][0]["token"]
        game_id = created["id"]
        with open_socket(first.ws_url(game_id), token) as socket:
            assert receive(socket)["version"] == 0
            code, _ = first.stop()
            assert code == 0
            with pytest.raises(ConnectionClosed) as closed:
                receive(socket)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1012
        with open_socket(second.ws_url(game_id), token) as socket:
            assert receive(socket)["version"] == 0
            reply = http.post(
                f"{second.url}/games/{game_id}/commands",
                json={"notation": "roll", "expected_version": 0},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert reply.status_code == 200
            assert receive(socket)["version"] == reply.json()["version"]


def test_serve_opens_postgresql_for_a_postgresql_uri(database: str) -> None:
    with open_store(database) as store:
        assert isinstance(store, PostgresEventStore)
