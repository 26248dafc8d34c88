"""Findings 4 and 11 of the security review, against real servers.

- Finding 4: a table's rule options were checked only when its last seat was taken, so the
  last joiner's seat was written, refused with 422 and never given its token, and the table was
  stuck; up to 64 KiB of the client's JSON was echoed in every lobby reply. Options, sides and
  seats are now checked when the table is created, and the lobby shows the options as the
  game's codec wrote them.
- Finding 11 (part): a flood of tables from many addresses pushed a real table out of
  ``GET /games``, abandoned tables were kept open forever, and ``José`` written NFC and NFD sat
  as two players. Tables now close after ``open_table_seconds``, the lobby lists each address's
  tables in turn (at most ``lobby_per_client`` of one), and names are read in NFC.

Every test runs a real server (uvicorn on a loopback port, over SQLite) and waits for nothing:
the server's clock is moved instead (``Tables.now``).
"""

from __future__ import annotations

import contextlib
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import httpx
import pytest

from avanti.server import ServerLimits
from avanti.server.table.master import Tables
from avanti.server.table.record import new_token, token_hash
from tests.server.support import PATIENCE, ROOMY, Served, serving

OPEN_MARE = {"game": "mare", "players": ["Ann", None]}
OPEN_AVANTI = {"game": "avanti", "players": ["Ann", None, None]}
NFC_JOSE = unicodedata.normalize("NFC", "José")
NFD_JOSE = unicodedata.normalize("NFD", "José")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A server with roomy limits, on an SQLite file of its own."""
    with serving(tmp_path / "games.db") as running:
        yield running


def limits(**changed: Any) -> ServerLimits:
    """Roomy limits with ``changed`` (those this server knows: so a test of a server without
    a limit fails on what it does, not on building its limits)."""
    known = attrs.fields_dict(ServerLimits)
    return attrs.evolve(ROOMY, **{name: value for name, value in changed.items() if name in known})


def tables_of(served: Served) -> Tables:
    """The table core of a running server (to move its clock)."""
    app: Any = served.server.config.app
    tables: Tables = app.state.server.tables
    return tables


def auth(token: str | None) -> dict[str, str]:
    """The header that carries ``token``."""
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def open_table(http: httpx.Client, body: dict[str, Any] = OPEN_MARE) -> Any:
    """Create a table with open seats; the reply."""
    reply = http.post("/games", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()


def sit(served: Served, game_id: str, name: Any) -> httpx.Response:
    """Take the next open seat of ``game_id`` as ``name``."""
    return served.http.post(f"/games/{game_id}/seats", json={"name": name})


@contextlib.contextmanager
def from_address(served: Served, host: str) -> Iterator[httpx.Client]:
    """An HTTP client of ``served`` whose requests come from the loopback address ``host``."""
    transport = httpx.HTTPTransport(local_address=host)
    with httpx.Client(base_url=served.url, timeout=PATIENCE, transport=transport) as client:
        yield client


def listed(served: Served) -> list[str]:
    """The ids ``GET /games`` lists, in order."""
    reply = served.http.get("/games")
    assert reply.status_code == 200, reply.text
    return [entry["id"] for entry in reply.json()["games"]]


def legacy_table(served: Served, options: Any) -> tuple[str, str]:
    """A table as the server wrote them before options were checked (format version 1, the
    client's options as sent), with Ann seated and one seat open; its id and Ann's token."""
    game_id, token = "00000000000000aa", new_token()
    seats = [
        {"name": "Ann", "token_sha256": token_hash(token), "bot": None},
        {"name": None, "token_sha256": None, "bot": None},
    ]
    opened = {"game": "mare", "seats": seats, "host_sha256": token_hash(token), "started": False}
    served.store.create(
        f"table.{game_id}",
        format="avanti-table",
        format_version=1,
        setup={"game": "mare", "options": options, "sides": None, "seconds_per_move": None},
        metadata={"open": opened, "summary": {"taken": 1, "seats": 2}, "client": "0" * 16},
    )
    return game_id, token


# -- finding 4: options are checked when the table is created ------------------------------------


@pytest.mark.parametrize(
    ("body", "kind", "named"),
    [
        ({**OPEN_MARE, "options": {"nonsense": 1}}, "invalid-options", "nonsense"),
        ({**OPEN_MARE, "options": {"nonsense": "x" * 60_000}}, "invalid-options", "nonsense"),
        ({**OPEN_MARE, "options": {"boat_faces": ["red"] * 3}}, "invalid-setup", "boat_faces"),
        (
            {**OPEN_AVANTI, "options": {"atm_last_car_wraps": 1}},
            "invalid-options",
            "atm_last_car_wraps",
        ),
        ({**OPEN_MARE, "options": []}, "invalid-options", "options"),
    ],
)
def test_bad_options_are_refused_when_the_table_is_created_and_nothing_is_stored(
    served: Served, body: dict[str, Any], kind: str, named: str
) -> None:
    reply = served.http.post("/games", json=body)
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["kind"] == kind
    assert named in error["message"]
    assert len(error["message"]) <= 500
    assert served.store.streams() == ()
    assert listed(served) == []


def test_a_last_seat_that_cannot_start_the_game_stays_open_and_nothing_is_written(
    served: Served,
) -> None:
    game_id, ann = legacy_table(served, {"nonsense": 1})
    refused = sit(served, game_id, "Bob")
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["kind"] == "invalid-options"
    assert served.store.stream(f"table.{game_id}").version == 0
    waiting = served.http.get(f"/games/{game_id}", headers=auth(ann))
    assert waiting.status_code == 200, waiting.text
    assert (waiting.json()["taken"], waiting.json()["players"]) == (1, ["Ann", None])
    start = served.http.post(f"/games/{game_id}/start", json={"bot": "random"}, headers=auth(ann))
    assert start.status_code == 422
    assert served.store.stream(f"table.{game_id}").version == 0


def test_the_lobby_shows_the_options_as_the_game_read_them_never_the_clients_json(
    served: Served,
) -> None:
    created = open_table(served.http, {**OPEN_MARE, "options": {"free_fish_move_owed": True}})
    record = served.store.stream(f"table.{created['id']}")
    expected = {
        "boat_faces": ["red", "green"],
        "caught_fish_roll": "boat",
        "free_fish_roll": "other-fish",
        "free_fish_move_owed": True,
    }
    assert record.setup["options"] == expected
    [entry] = served.http.get("/games").json()["games"]
    assert entry["options"] == expected
    assert served.http.get(f"/games/{created['id']}").json()["options"] == expected
    bob = sit(served, created["id"], "Bob")
    assert bob.status_code == 201, bob.text
    game = served.http.get(f"/games/{created['id']}").json()
    assert game["public_setup"]["options"]["free_fish_move_owed"] is True
    legacy_id, _ = legacy_table(served, {"nonsense": "x" * 60_000})
    lobby = served.http.get("/games")
    [old] = [entry for entry in lobby.json()["games"] if entry["id"] == legacy_id]
    assert old["options"] is None
    assert len(lobby.content) < 10_000


# -- finding 11: abandoned tables close ----------------------------------------------------------


def test_an_abandoned_table_closes_after_open_table_seconds_and_changes_nothing(
    tmp_path: Path,
) -> None:
    roomy = limits(open_table_seconds=60.0, games_per_client=1)
    with serving(tmp_path / "games.db", limits=roomy) as served:
        created = open_table(served.http, OPEN_AVANTI)
        game_id, ann = created["id"], created["seats"][0]["token"]
        assert sit(served, game_id, "Bob").status_code == 201
        assert listed(served) == [game_id]
        assert served.http.post("/games", json=OPEN_MARE).status_code == 429  # one per address
        version = served.store.stream(f"table.{game_id}").version
        tables_of(served).now = lambda: time.time() + 120.0  # two minutes without a player
        assert listed(served) == []
        replies = [
            sit(served, game_id, "Cy"),
            served.http.post(f"/games/{game_id}/start", json={"bot": "random"}, headers=auth(ann)),
            served.http.get(f"/games/{game_id}", headers=auth(ann)),
            served.http.get(f"/games/{game_id}"),
        ]
        for reply in replies:
            assert reply.status_code == 410, reply.text
            assert reply.json()["error"]["kind"] == "table-expired"
            assert "closed" in reply.json()["error"]["message"]
        assert served.store.stream(f"table.{game_id}").version == version
        assert served.http.get(f"/games/{game_id}/table").status_code == 404  # no game began
        again = served.http.post("/games", json=OPEN_MARE)  # a closed table counts no more
        assert again.status_code == 201, again.text


def test_limits_refuse_bad_settings_of_the_open_tables_and_the_lobby() -> None:
    from avanti.core.errors import InvalidArgument

    settings: list[tuple[str, Any]] = [
        ("open_table_seconds", 0),
        ("open_table_seconds", float("inf")),
        ("lobby_per_client", 0),
        ("lobby_per_client", 2.0),
        ("lobby_scan", 1_001),
        ("lobby_scan", 99),
    ]
    for name, value in settings:
        with pytest.raises(InvalidArgument, match=name):
            ServerLimits(**{name: value})


# -- finding 11: the lobby cannot be flooded -----------------------------------------------------


def test_a_flood_of_tables_from_forty_addresses_does_not_hide_another_addresses_table(
    served: Served,
) -> None:
    with from_address(served, "127.0.0.2") as honest:
        real = open_table(honest)["id"]
    flood: list[str] = []
    for host in range(10, 50):  # 40 addresses, 3 tables each: 120, more than the 100 listed
        with from_address(served, f"127.0.0.{host}") as client:
            flood.extend(open_table(client)["id"] for _ in range(3))
    shown = listed(served)
    assert len(shown) == 100
    assert real in shown
    assert shown[:41].count(real) == 1  # each address's newest table comes first
    assert set(shown) <= {real, *flood}


def test_one_address_shows_at_most_lobby_per_client_tables_of_each_kind(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", limits=limits(list_limit=10)) as served:
        with from_address(served, "127.0.0.2") as honest:
            real = open_table(honest)["id"]
            body = {"game": "mare", "players": ["Ann", "Bob"]}
            playing = honest.post("/games", json=body).json()["id"]
        with from_address(served, "127.0.0.3") as flooder:
            flood = [open_table(flooder)["id"] for _ in range(12)]
        shown = listed(served)
        assert shown[:2] == [flood[-1], real]  # each address's newest first, newest first
        assert shown.count(playing) == 1
        assert sum(1 for game in shown if game in flood) == ServerLimits().lobby_per_client == 5
        assert shown[-1] == playing  # the games in play after the open tables


# -- finding 11: a name written NFC or NFD is one name -------------------------------------------


def test_a_name_written_nfc_or_nfd_is_one_players_name(served: Served) -> None:
    assert NFC_JOSE != NFD_JOSE
    created = open_table(served.http, {"game": "avanti", "players": [NFD_JOSE, None, None]})
    assert created["seats"][0]["name"] == NFC_JOSE
    game_id = created["id"]
    for twin in (NFC_JOSE, NFD_JOSE, "JOSÉ", unicodedata.normalize("NFD", "josÉ")):
        reply = sit(served, game_id, twin)
        assert reply.status_code == 422, reply.text
        assert reply.json()["error"]["kind"] == "invalid-name"
    zoe = sit(served, game_id, unicodedata.normalize("NFD", "Zoë"))
    assert zoe.status_code == 201, zoe.text
    players = served.http.get(f"/games/{game_id}").json()["players"]
    assert players == [NFC_JOSE, unicodedata.normalize("NFC", "Zoë"), None]
    for names in ([NFC_JOSE, NFD_JOSE], ["Ann", "ann"], [NFC_JOSE, None, "JOSE\u0301"]):
        body = {"game": "avanti" if None in names else "mare", "players": names}
        reply = served.http.post("/games", json=body)
        assert reply.status_code == 422, reply.text
        assert reply.json()["error"]["kind"] == "invalid-setup"
    assert [game["id"] for game in served.http.get("/games").json()["games"]] == [game_id]
