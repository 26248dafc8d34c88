"""A command sent at an older version catches up when only other seats moved meanwhile and its
seat's legal commands are what they were (docs/server.md, ``expected_version``).

In Avanti's planning step every seat still in the run lays a card face down at once (A8): when
Bob's card lands first, Cy's card decided at the version before is still one Cy may lay, and
nothing Cy could choose changed, so it is laid instead of being refused as stale. A command
whose seat's choices did change (its own card laid meanwhile) is still refused with 409.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.support import Served, answer, open_socket, receive, serving


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path / "games.db") as running:
        yield running


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seen(served: Served, game_id: str, token: str) -> Any:
    reply = served.http.get(f"/games/{game_id}", headers=bearer(token))
    assert reply.status_code == 200, reply.text
    return reply.json()


def post(served: Served, game_id: str, token: str, notation: str, version: int) -> Any:
    return served.http.post(
        f"/games/{game_id}/commands",
        json={"notation": notation, "expected_version": version},
        headers=bearer(token),
    )


def planning(served: Served) -> tuple[str, list[str], int]:
    """A game of Avanti for three whose first seat placed its event marker (A6): the three seats
    now lay a card each, at once (A8). Its id, its tokens and its version."""
    created = served.create("avanti", ["Ann", "Bob", "Cy"])
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    first = seen(served, game_id, tokens[0])
    marker = first["legal"][0]["notation"]
    assert marker.startswith("marker")
    placed = post(served, game_id, tokens[0], marker, first["version"])
    assert placed.status_code == 200, placed.text
    version = placed.json()["version"]
    assert seen(served, game_id, tokens[0])["waiting"] == [0, 1, 2]
    return game_id, tokens, version


def test_a_card_decided_before_another_seats_card_landed_is_laid(served: Served) -> None:
    game_id, tokens, version = planning(served)
    bob, cy = (seen(served, game_id, token) for token in tokens[1:])
    bobs = post(served, game_id, tokens[1], bob["legal"][0]["notation"], version)
    assert bobs.status_code == 200, bobs.text
    assert bobs.json()["version"] == version + 1
    cys = post(served, game_id, tokens[2], cy["legal"][0]["notation"], version)  # stale by one
    assert cys.status_code == 200, cys.text
    body = cys.json()
    assert body["version"] == version + 2
    # Cy's reply holds Cy's events since the version Cy saw: Bob's card (face down) and Cy's
    assert [item["position"] for item in body["events"]] == [version, version + 1]
    assert seen(served, game_id, tokens[0])["waiting"] == [0]


def test_a_seat_whose_choices_changed_is_refused_as_stale(served: Served) -> None:
    game_id, tokens, version = planning(served)
    bob = seen(served, game_id, tokens[1])["legal"]
    first = post(served, game_id, tokens[1], bob[0]["notation"], version)
    assert first.status_code == 200, first.text
    again = post(served, game_id, tokens[1], bob[1]["notation"], version)  # Bob laid his card
    assert again.status_code == 409, again.text
    assert again.json()["error"] == {
        "kind": "version-conflict",
        "message": again.json()["error"]["message"],
        "expected": version,
        "actual": version + 1,
    }
    assert seen(served, game_id, tokens[0])["version"] == version + 1


def test_over_a_socket_both_cards_decided_at_one_version_are_laid(served: Served) -> None:
    game_id, tokens, version = planning(served)
    with (
        open_socket(served.ws_url(game_id), tokens[1]) as bob,
        open_socket(served.ws_url(game_id), tokens[2]) as cy,
    ):
        choices = []
        for socket in (bob, cy):
            update = receive(socket)
            assert (update["type"], update["version"]) == ("update", version)
            choices.append(update["legal"][0]["command"])
        for socket, command in zip((bob, cy), choices, strict=True):
            message = {"type": "command", "command": command, "expected_version": version}
            socket.send(json.dumps(message))
        answers = [answer(socket) for socket in (bob, cy)]
    assert sorted(answer.get("version") for answer in answers) == [version + 1, version + 2]
    assert seen(served, game_id, tokens[0])["waiting"] == [0]


def test_a_card_decided_on_a_version_another_server_wrote_is_laid(tmp_path: Path) -> None:
    """Two servers on one database: Cy's socket on the second is shown the version the first
    wrote (its follower reads it), Bob's card lands on the first, and Cy's card, decided on the
    version Cy was shown, is laid by the second instead of refused as stale (A8)."""
    with serving(tmp_path / "games.db") as first, serving(tmp_path / "games.db") as second:
        created = first.create("avanti", ["Ann", "Bob", "Cy"])
        game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
        with open_socket(second.ws_url(game_id), tokens[2]) as cy:
            assert receive(cy)["type"] == "update"
            first_look = seen(first, game_id, tokens[0])
            marker = first_look["legal"][0]["notation"]
            placed = post(first, game_id, tokens[0], marker, first_look["version"])
            assert placed.status_code == 200, placed.text
            version = placed.json()["version"]
            shown = receive(cy)  # the marker placed, as the second server's follower read it
            while shown["type"] != "update" or shown["version"] < version:
                shown = receive(cy)
            assert shown["version"] == version
            assert shown["waiting"] == [0, 1, 2]
            bob = seen(first, game_id, tokens[1])["legal"][0]["notation"]
            assert post(first, game_id, tokens[1], bob, version).status_code == 200
            card = shown["legal"][0]
            cy.send(
                json.dumps(
                    {"type": "command", "command": card["command"], "expected_version": version}
                )
            )
            reply = answer(cy)
            assert reply["type"] == "result", reply
            assert reply["version"] > version + 1  # decided after Bob's card
