"""The rules lab over HTTP: ``POST /lab/compare``, ``POST /lab/replay`` and ``GET /lab``, in
process (no browser, no uvicorn). Stateless: nothing is read from or written to the store."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

import avanti
from avanti import mare
from avanti.core import DecodeError
from avanti.mare.lab import foresee_roll
from avanti.server import ServerLimits, create_app
from avanti.server.transport import lab
from avanti.store import MemoryEventStore

ROOT = Path(__file__).parents[2]
A21 = json.loads((ROOT / "docs/lab/avanti-a21-last-car.json").read_text(encoding="utf-8"))


def call(
    method: str,
    path: str,
    body: Any = None,
    *,
    limits: ServerLimits = ServerLimits(),  # noqa: B008  ServerLimits is frozen
    headers: dict[str, str] | None = None,
    times: int = 1,
) -> list[httpx.Response]:
    """``times`` requests to one app, in order."""
    app = create_app(MemoryEventStore(), limits=limits)

    async def fetch() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            answers = []
            for _ in range(times):
                if isinstance(body, bytes):
                    answers.append(
                        await client.request(method, path, content=body, headers=headers)
                    )
                else:
                    answers.append(await client.request(method, path, json=body, headers=headers))
            return answers

    return anyio.run(fetch)


def test_a21_compare_answers_both_readings_and_the_ways_to_keep_them() -> None:
    (answer,) = call("POST", "/lab/compare", A21)
    assert answer.status_code == 200
    data = answer.json()
    assert data["differences"] == [
        {
            "step": 3,
            "first": [
                "Isabella withdraws 300 at the ATM on road space 26.",
                "Isabella withdraws 500 at the ATM on road space 31.",
            ],
            "second": [],
            "pictures_differ": True,
        }
    ]
    assert [len(trial["steps"]) for trial in data["trials"]] == [4, 4]
    assert data["trials"][0]["steps"][0]["picture"].startswith("<svg")
    assert data["same"] is False
    assert avanti.lab.Case.from_fragment(data["fragment"]) == avanti.lab.Case.from_data(A21)
    assert data["case"] == A21
    assert "def test_a21_" in data["test"]


def test_a_refused_position_comes_back_in_words_naming_the_rule() -> None:
    scenario = {**A21["setup"]["scenario"], "distances": [29, 29, 28, 30, 31]}
    (answer,) = call("POST", "/lab/compare", {**A21, "setup": {"scenario": scenario}})
    assert answer.status_code == 200
    data = answer.json()
    assert [trial["refusal"] for trial in data["trials"]] == [
        "A4: scenario: seats 0 and 1 share road space 17"
    ] * 2
    assert data["test"] is None


def test_f1_a3_m3_the_forms_list_each_game_s_box_and_its_draws() -> None:
    """``GET /lab/forms``: each game's form, its box by deck (F1: advisors and vehicles 1-30,
    checks 0 and 2-15 twice; A3: each Power card with its three numbers) and the random draws a
    case may name (M3: the die's six faces)."""
    (answer,) = call("GET", "/lab/forms")
    assert answer.status_code == 200
    games = {game["name"]: game for game in answer.json()["games"]}
    assert list(games) == ["avanti", "mare", "autorama"]
    box = games["autorama"]["form"]["box"]
    assert [item["card"] for item in box["advisor"]] == list(range(1, 31))
    assert [item["card"] for item in box["vehicle"]] == list(range(1, 31))
    checks = [item["card"] for item in box["check"]]
    assert checks == sorted([0, *range(2, 16)] * 2)
    assert box["advisor"][0]["words"] == "Sales Associate 1"
    assert box["check"][-1]["words"] == "a check of $15,000"
    power = games["avanti"]["form"]["box"]["power"]
    assert power[18] == {"card": 18, "words": "card 18 (3, 4, 5)", "numbers": [3, 4, 5]}
    (die,) = games["mare"]["form"]["outcomes"]
    assert die["name"] == "die"
    assert die["choices"] == ["blue", "orange", "yellow", "pink", "red", "green"]
    assert games["autorama"]["form"]["outcomes"] == []
    for game in games.values():
        assert game["form"]["example"]["game"] == game["name"]
        assert len(game["default_players"]) == game["max_players"]


def test_m3_a_case_names_the_die_s_next_roll_and_is_played_with_a_seed_that_rolls_it() -> None:
    case = {
        "game": "mare",
        "players": ["Ann", "Bob"],
        "seed": 0,
        "setup": {"scenario": {"boat": 2, "fish": [12, 0, 6, 8]}},
        "outcomes": {"die": ["red", "green"]},
        "readings": [{"name": "book", "options": {}}, {"name": "book", "options": {}}],
        "commands": ["roll", "roll"],
    }
    (answer,) = call("POST", "/lab/compare", case)
    data = answer.json()
    lines = [line for step in data["trials"][0]["steps"] for line in step["lines"]]
    assert [line for line in lines if "rolls" in line] == ["Ann rolls red.", "Bob rolls green."]
    seed = data["seed"]
    assert seed > 0
    assert (foresee_roll(seed, 0), foresee_roll(seed, 1)) == ("red", "green")
    assert f'"seed": {seed},' in data["test"]  # the exported documents carry the seed
    assert data["same_events"] is True
    assert data["case"]["outcomes"] == {"die": ["red", "green"]}


def test_a_case_too_long_for_a_link_is_answered_without_one() -> None:
    (answer,) = call("POST", "/lab/compare", {**A21, "commands": ["drive " * 16] * 200})
    assert answer.status_code == 200
    assert answer.json()["fragment"] is None
    assert answer.json()["trials"][0]["refused_at"] == 0


def test_replay_steps_through_a_bounded_number_of_events(monkeypatch: pytest.MonkeyPatch) -> None:
    game = mare.new_game(["Ann", "Bob"], seed=1)
    for _ in range(3):
        game = game.execute(game.legal_commands()[0])
    monkeypatch.setattr(lab, "MAX_REPLAY_EVENTS", 2)
    with pytest.raises(DecodeError, match="at most 2 events"):
        lab.replay_data(mare.dumps(game))


def test_a_case_that_is_no_case_is_refused_with_its_paths() -> None:
    (answer,) = call("POST", "/lab/compare", {**A21, "colour": "red"})
    assert answer.status_code == 422
    assert answer.json()["error"] == {
        "kind": "invalid-case",
        "message": "unknown key 'colour' @ $.colour",
    }
    (unknown,) = call("POST", "/lab/compare", {**A21, "game": "chess"})
    assert unknown.status_code == 422
    assert "chess" in unknown.json()["error"]["message"]


def test_the_lab_obeys_the_server_s_limits() -> None:
    big = json.dumps({**A21, "question": "x" * 70_000}).encode()
    (large,) = call("POST", "/lab/compare", big, headers={"content-type": "application/json"})
    assert large.status_code == 413
    (form,) = call("POST", "/lab/compare", b"{}", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    slow = ServerLimits(commands_per_second=0.001, command_burst=2)
    answers = call("POST", "/lab/compare", A21, limits=slow, times=3)
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[2].json()["error"]["kind"] == "rate-limited"


def test_m6_replay_shows_each_command_s_picture_as_the_library_draws_it() -> None:
    game = mare.new_game(["Ann", "Bob"], seed=1)
    for _ in range(3):
        game = game.execute(game.legal_commands()[0])
    (answer,) = call("POST", "/lab/replay", {"document": mare.dumps(game)})
    assert answer.status_code == 200
    steps = answer.json()["steps"]
    assert answer.json()["game"] == "mare"
    boundaries = [0, *(i for i, e in enumerate(game.events) if mare.cause(e) is not None)][1:]
    assert [s["version"] for s in steps] == [0, *boundaries[1:], game.version]
    for step in steps:
        at = mare.replay(game.setup, game.events[: step["version"]])
        assert step["picture"] == str(mare.picture(at.view(None), table=at.public_setup))
    assert steps[0]["command"] is None
    assert steps[1]["command"] == {"type": "Roll", "seat": 0}
    assert steps[1]["lines"][0].startswith("Ann rolls ")


def test_replay_reads_a_store_document_too() -> None:
    game = avanti.new_game(["A", "B", "C"], seed=3).execute(avanti.PlaceEventMarker(0, 0))
    wrapped = json.dumps({"id": "g1", "game": json.loads(avanti.dumps(game))})
    (answer,) = call("POST", "/lab/replay", {"document": wrapped})
    assert answer.status_code == 200
    assert [s["version"] for s in answer.json()["steps"]] == [5, 6]
    assert answer.json()["steps"][1]["lines"] == [
        "A puts the event marker on road space 0; every car starts there."
    ]


def test_a8_replay_tells_every_hand_and_draws_the_chosen_seat_s() -> None:
    """Every hidden fact shown: the lines name each hand dealt (A8), and ``seen_by`` draws the
    pictures with that seat's hand face up, as the library draws that seat's view."""
    game = avanti.new_game(["A", "B", "C"], seed=3).execute(avanti.PlaceEventMarker(0, 0))
    document = {"document": avanti.dumps(game)}
    (spectator,) = call("POST", "/lab/replay", document)
    (seat,) = call("POST", "/lab/replay?seen_by=1", document)
    assert seat.status_code == 200
    assert seat.json()["players"] == ["A", "B", "C"]
    assert seat.json()["seen_by"] == 1
    assert seat.json()["steps"][0]["lines"][2:] == [
        "A is dealt cards 13, 1, 21.",
        "B is dealt cards 24, 15, 8.",
        "C is dealt cards 11, 10, 25.",
    ]
    assert game.view(1).hand == (24, 15, 8)
    for step, seen in zip(seat.json()["steps"], spectator.json()["steps"], strict=True):
        at = avanti.replay(game.setup, game.events[: step["version"]])
        assert step["picture"] == str(avanti.picture(at.view(1), table=at.public_setup))
        assert step["picture"] != seen["picture"]  # the spectator sees no hand
        assert step["lines"] == seen["lines"]
    (no_seat,) = call("POST", "/lab/replay?seen_by=3", document)
    assert no_seat.status_code == 422
    assert no_seat.json()["error"]["message"] == "seen_by must be a seat 0..2 or spectator"
    (no_number,) = call("POST", "/lab/replay?seen_by=B", document)
    assert no_number.status_code == 400


def test_replay_refuses_what_is_no_saved_game() -> None:
    (bad,) = call("POST", "/lab/replay", {"document": '{"format": "chess"}'})
    assert bad.status_code == 422
    assert bad.json()["error"]["kind"] == "invalid-document"
    (shape,) = call("POST", "/lab/replay", {"text": "{}"})
    assert shape.status_code == 400


def test_the_lab_page_is_served_with_the_security_headers() -> None:
    (page,) = call("GET", "/lab")
    assert page.status_code == 200
    assert '<script type="module" src="/static/lab.js"></script>' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    (document,) = call("GET", "/openapi.json")
    paths = document.json()["paths"]
    assert paths["/lab/compare"]["post"]["operationId"] == "lab_compare"
    assert paths["/lab/replay"]["post"]["operationId"] == "lab_replay"
    assert "/lab" not in paths


HANDS = {
    "game": "avanti",
    "players": ["Ann", "Bob", "Cy"],
    "setup": {"scenario": {"marker": 0, "distances": [3, 5, 8], "hands": [[7], [12], [20]]}},
    "readings": [{"name": "book", "options": {}}, {"name": "book", "options": {}}],
}
"""Ann holds card 7, Bob 12, Cy 20 (A8)."""


@pytest.mark.parametrize(("seen_by", "cards"), [("spectator", []), ("0", ["7"]), ("2", ["20"])])
def test_compare_draws_the_pictures_as_seen_by_sees_the_table(
    seen_by: str, cards: list[str]
) -> None:
    (answer,) = call("POST", f"/lab/compare?seen_by={seen_by}", HANDS)
    assert answer.status_code == 200
    picture = answer.json()["trials"][1]["steps"][0]["picture"]
    assert re.findall(r'data-card="(\d+)"', picture) == cards
    assert answer.json()["seen_by"] == (None if seen_by == "spectator" else int(seen_by))


@pytest.mark.parametrize(
    ("seen_by", "status", "words"),
    [("me", 400, "seen_by is a seat number or spectator"), ("3", 422, "seen_by must be a seat")],
)
def test_compare_refuses_a_viewer_not_at_the_table(seen_by: str, status: int, words: str) -> None:
    (answer,) = call("POST", f"/lab/compare?seen_by={seen_by}", HANDS)
    assert answer.status_code == status
    assert words in answer.json()["error"]["message"]
