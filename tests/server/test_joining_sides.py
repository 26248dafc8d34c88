"""A person who sits down at an open table of Avanti mare! picks their own side (M2: "you may
decide whether you want to side with the fishers or with the fish"), through the seat request.

Each test runs a real server (uvicorn on a loopback port, over SQLite), as test_joining does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support import Served, serving


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A server with roomy limits, on an SQLite file of its own."""
    with serving(tmp_path / "games.db") as running:
        yield running


def open_table(served: Served, body: dict[str, Any]) -> Any:
    reply = served.http.post("/games", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()


def sit(served: Served, game_id: str, body: dict[str, Any]) -> httpx.Response:
    return served.http.post(f"/games/{game_id}/seats", json=body)


def test_a_person_who_sits_down_picks_their_side_over_the_creators(served: Served) -> None:
    created = open_table(
        served,
        {"game": "mare", "players": ["Ann", None, None], "sides": ["fish-friends"] * 3},
    )
    game_id = created["id"]
    table = served.http.get(f"/games/{game_id}").json()
    assert table["sides"] == ["fish-friends"] * 3
    assert table["free_sides"] == ["fish-friends", "fisher-fans"]
    bob = sit(served, game_id, {"name": "Bob", "side": "fisher-fans"})
    assert bob.status_code == 201, bob.text
    table = served.http.get(f"/games/{game_id}").json()
    assert table["sides"] == ["fish-friends", "fisher-fans", "fish-friends"]
    assert sit(served, game_id, {"name": "Cy"}).status_code == 201  # keeps the creator's side
    game = served.http.get(f"/games/{game_id}").json()
    assert game["version"] == 0
    assert game["public_setup"]["sides"] == ["fish-friends", "fisher-fans", "fish-friends"]


def test_a_side_picked_at_a_table_where_nobody_named_sides_joins_the_defaults(
    served: Served,
) -> None:
    created = open_table(served, {"game": "mare", "players": ["Ann", None]})
    game_id = created["id"]
    assert served.http.get(f"/games/{game_id}").json()["sides"] == ["fish-friends", "fisher-fans"]
    assert sit(served, game_id, {"name": "Bob", "side": "fish-friends"}).status_code == 201
    game = served.http.get(f"/games/{game_id}").json()
    assert game["public_setup"]["sides"] == ["fish-friends", "fish-friends"]  # any mix (M2)


def test_a_side_the_game_does_not_have_is_refused_and_the_seat_stays_open(
    served: Served,
) -> None:
    created = open_table(served, {"game": "mare", "players": ["Ann", None]})
    game_id = created["id"]
    for body in (
        {"name": "Bob", "side": "sharks"},
        {"name": "Bob", "side": 1},
        {"name": "Bob", "side": "fisher-fans", "extra": True},
    ):
        reply = sit(served, game_id, body)
        assert reply.status_code == 400, body
        assert reply.json()["error"]["kind"] == "bad-request"
    table = served.http.get(f"/games/{game_id}").json()
    assert (table["state"], table["taken"]) == ("open", 1)
    avanti = open_table(served, {"game": "avanti", "players": ["Ann", None, "Cy"]})
    reply = sit(served, avanti["id"], {"name": "Bob", "side": "fish-friends"})
    assert reply.status_code == 400
    assert "no sides" in reply.json()["error"]["message"]
    table = served.http.get(f"/games/{avanti['id']}").json()
    assert (table["sides"], table["free_sides"], table["taken"]) == (None, [], 2)
    assert sit(served, avanti["id"], {"name": "Bob", "side": None}).status_code == 201
