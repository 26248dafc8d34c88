"""The server's parts on their own: limits, token buckets, seats and tokens, JSON logs, the app's
arguments, and what the server does when its store fails or its lifespan never ran."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import pytest
from websockets.exceptions import ConnectionClosed

from avanti import mare
from avanti.core.errors import InvalidArgument
from avanti.server import ServerLimits, create_app
from avanti.server.limits import Buckets, TokenBucket
from avanti.server.log import JsonFormatter, configure, log
from avanti.server.protocol.wire import ApiError
from avanti.server.table.record import TOKEN_BYTES, BadToken, Seat, Table, new_token, token_hash
from avanti.server.transport.push import Hub, Listener
from avanti.store import GameStore, MemoryEventStore, SQLiteEventStore
from tests.server.support import open_socket, receive, serving, wait_for


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    "wrong",
    [
        {"max_body_bytes": 0},
        {"max_message_bytes": 1.5},
        {"command_burst": True},
        {"connections_per_game": -1},
        {"commands_per_second": 0},
        {"messages_per_second": -1.0},
        {"message_burst": 0},
        {"games_per_second": float("nan")},
        {"idle_timeout": "5"},
        {"hello_timeout": float("inf")},
        {"list_limit": 0},
        {"list_limit": 1_001},
        {"bot_kinds": ("oracle",)},
        {"bot_kinds": ["random"]},
    ],
)
def test_server_limits_refuse_values_that_are_no_limits(wrong: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        ServerLimits(**wrong)


def test_a_token_bucket_allows_a_burst_then_the_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(2.0, 3, clock)
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    was_full = bucket.full
    clock.now += 0.5  # one more token at two a second
    assert [bucket.allow() for _ in range(2)] == [True, False]
    clock.now += 10
    assert (was_full, bucket.full) == (False, True)
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]


def test_a_token_bucket_lends_a_token_and_says_how_long_to_wait_for_it() -> None:
    clock = Clock()
    bucket = TokenBucket(4.0, 2, clock)
    assert [bucket.take(), bucket.take()] == [0.0, 0.0]  # the burst
    assert bucket.take() == 0.25  # one token at four a second: a quarter of a second
    clock.now += 0.25  # the caller waited: the token it borrowed came, and it is spent
    assert bucket.take() == 0.25
    clock.now += 0.25 + 10  # a long silence fills the bucket up to its burst, no further
    assert [bucket.take(), bucket.take(), bucket.take()] == [0.0, 0.0, 0.25]


def test_buckets_forget_full_buckets_first_then_the_oldest() -> None:
    buckets = Buckets(1e-9, 1, most=2)
    assert buckets.allow("a")
    assert not buckets.allow("a")
    assert buckets.allow("b")
    assert buckets.allow("c")  # two empty buckets: the oldest ("a") goes
    assert buckets.allow("a")  # a new bucket for "a"
    assert not buckets.allow("c")
    full = Buckets(1e9, 1, most=2)
    assert full.allow("a")
    assert full.allow("b")
    assert full.allow("c")


def test_tokens_are_192_random_bits_stored_as_sha256() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100
    assert all(len(token) == 4 * TOKEN_BYTES // 3 for token in tokens)
    assert token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert token_hash("\ud800")  # a lone surrogate from JSON is hashed, not refused


def test_a_table_round_trips_through_metadata_and_finds_seats_by_token() -> None:
    ann, bob = new_token(), new_token()
    table = Table(
        "mare",
        (
            Seat("Ann", token_hash(ann), None),
            Seat("Bob", token_hash(bob), "random"),
            Seat("Cy", None, "heuristic"),
        ),
    )
    assert Table.from_metadata(json.loads(json.dumps(table.to_metadata()))) == table
    assert table.players == ["Ann", "Bob", "Cy"]
    assert table.bots == {"1": "random", "2": "heuristic"}
    assert table.seat_for(ann) == 0
    assert table.seat_for(bob) == 1
    assert table.seat_for(None) is None
    assert table.bot(None) is None
    assert table.bot(9) is None
    assert table.bot(2) == "heuristic"
    assert table.with_bot(0, "search").bot(0) == "search"
    assert table.with_bot(1, None).bots == {"2": "heuristic"}
    for wrong in ("", "x", bob + "x", token_hash(ann)):
        with pytest.raises(BadToken):
            table.seat_for(wrong)


@pytest.mark.parametrize(
    "metadata",
    [
        {},
        {"server": []},
        {"server": {"game": 7, "seats": []}},
        {"server": {"game": "mare", "seats": {}}},
        {"server": {"game": "mare", "seats": [7]}},
        {"server": {"game": "mare", "seats": [{"name": 7}]}},
        {"server": {"game": "mare", "seats": [{"name": "Ann", "token_sha256": 7}]}},
        {"server": {"game": "mare", "seats": [{"name": "Ann", "bot": 7}]}},
    ],
)
def test_metadata_the_server_did_not_write_holds_no_table(metadata: Any) -> None:
    assert Table.from_metadata(metadata) is None


def test_logs_are_json_lines_with_their_fields(capsys: pytest.CaptureFixture[str]) -> None:
    handler = configure(logging.INFO, sys.stderr)
    try:
        log(logging.INFO, "limit", limit="max_body_bytes", game="g1")
        log(logging.DEBUG, "unseen")
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("avanti.server").exception("failed")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert lines[0]["event"] == "limit"
    assert lines[0]["limit"] == "max_body_bytes"
    assert lines[0]["level"] == "info"
    assert lines[0]["logger"] == "avanti.server"
    assert lines[0]["time"].endswith("Z")
    assert lines[1]["event"] == "failed"
    assert "ValueError: boom" in lines[1]["error"]
    assert len(lines) == 2
    record = logging.makeLogRecord({"msg": "plain"})
    assert json.loads(JsonFormatter().format(record))["event"] == "plain"


def test_create_app_checks_its_arguments() -> None:
    store = MemoryEventStore()
    assert create_app(store).state.server.games.events is store
    for think in (0, -1, True, float("nan"), "2"):
        with pytest.raises(InvalidArgument):
            create_app(store, bot_think_seconds=think)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        create_app(store, limits={"max_body_bytes": 1})  # type: ignore[arg-type]


def test_a_store_that_fails_gives_503_and_the_server_keeps_answering(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="avanti.server")
    store = SQLiteEventStore(tmp_path / "games.db")
    with serving(store) as served:
        game = served.create("mare", ["Ann", "Bob"])
        ann = game["seats"][0]["token"]
        with open_socket(served.ws_url(game["id"]), ann) as socket:
            assert receive(socket)["type"] == "update"
            store.close()  # the database goes away
            wait_for(  # it tries again, a second later
                lambda: [r.getMessage() for r in caplog.records].count("follow-failed") >= 2,
                "the follower to notice, twice",
            )
            socket.send(json.dumps({"type": "command", "notation": "roll"}))
            assert receive(socket)["status"] == 503
        for reply in (
            served.http.get(f"/games/{game['id']}"),
            served.http.get("/games"),
            served.http.post(
                f"/games/{game['id']}/commands",
                json={"notation": "roll"},
                headers={"Authorization": f"Bearer {ann}"},
            ),
            served.http.post("/games", json={"game": "mare", "players": ["Ann"]}),
        ):
            assert reply.status_code == 503
            assert reply.json()["error"]["kind"] == "unavailable"
            assert "games.db" not in reply.text  # the store's own words stay in the log
        with open_socket(served.ws_url(game["id"]), None) as socket:
            assert receive(socket)["status"] == 503
            with pytest.raises(ConnectionClosed) as closed:
                receive(socket)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1011
        assert served.http.get("/health").json() == {"status": "ok"}


def test_without_its_lifespan_the_app_serves_http_and_refuses_sockets(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", lifespan="off") as served:
        game = served.create("mare", ["Ann"])
        assert served.http.get(f"/games/{game['id']}").status_code == 200
        with open_socket(served.ws_url(game["id"]), None) as socket:
            error = receive(socket)
        assert error["status"] == 503
        assert error["error"]["kind"] == "unavailable"


def test_the_schemas_and_the_openapi_document_are_served(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db") as served:
        for name in ("avanti", "mare", "autorama"):
            reply = served.http.get(f"/schemas/{name}")
            assert reply.status_code == 200
            assert "command" in reply.json()
            assert served.http.get(f"/schemas/{name}").json() == reply.json()
        document = served.http.get("/openapi.json").json()
        assert "/games" in document["paths"]
        assert served.http.get("/openapi.json").json() == document


def foreign_streams(path: Path) -> tuple[str, str, str]:
    """Three streams the server did not create: a game without seats, a game whose seat is
    played by a bot no library knows, and a stream whose setup no game can read."""
    with SQLiteEventStore(path) as store:
        games = GameStore(store)
        games.create("plain", mare.new_game(["Ann", "Bob"], seed=1))
        odd = Table("mare", (Seat("Ann", None, "oracle"), Seat("Bob", None, None)))
        games.create("oracle", mare.new_game(["Ann", "Bob"], seed=2), odd.to_metadata())
        broken = Table("mare", (Seat("Ann", None, None),))
        store.create(
            "broken",
            format="mare",
            format_version=1,
            setup={"bogus": 1},
            metadata=broken.to_metadata(),
        )
    return "plain", "oracle", "broken"


def test_streams_the_server_did_not_write_are_served_as_far_as_they_can_be(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="avanti.server")
    path = tmp_path / "games.db"
    plain, oracle, broken = foreign_streams(path)
    with serving(path) as served:
        wait_for(
            lambda: any(r.getMessage() == "bot-failed" for r in caplog.records),
            "the unknown bot to be refused",
        )
        looked = served.http.get(f"/games/{plain}")
        assert looked.status_code == 200
        assert looked.json()["game"] == "mare"
        assert looked.json()["seat"] is None
        reply = served.http.get(f"/games/{plain}", headers={"Authorization": "Bearer x"})
        assert reply.status_code == 401
        for _ in range(2):  # the second time, what is over is remembered
            lobby = served.http.get("/games").json()["games"]
            assert {game["id"]: game["over"] for game in lobby} == {oracle: False, broken: False}
        assert served.http.get("/games?game=chess").status_code == 400
        assert served.http.get("/games?limit=0").status_code == 400
        reply = served.http.get(f"/games/{broken}")
        assert reply.status_code == 500
        assert reply.json()["error"]["kind"] == "internal"
        with open_socket(served.ws_url(broken), None) as socket:
            assert receive(socket)["status"] == 500
    events = {r.getMessage() for r in caplog.records}
    assert {"bot-failed", "unreadable-game"} <= events


def test_a_store_that_is_down_at_start_gives_503_until_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="avanti.server")
    store = SQLiteEventStore(tmp_path / "games.db")
    store.close()
    with serving(store) as served:
        assert served.http.get("/health").status_code == 200
        assert served.http.get("/games").status_code == 503
    assert any(r.getMessage() == "bots-resume-failed" for r in caplog.records)


def test_a_bot_awaited_in_an_app_without_lifespan_waits(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", lifespan="off") as served:
        game = served.create("mare", ["Ann", "Bob"], {"0": "random"})
        for _ in range(2):
            looked = served.http.get(f"/games/{game['id']}").json()
            assert looked["waiting"] == [0]
            assert looked["version"] == 0


def test_the_hub_follows_a_game_and_offers_each_new_version() -> None:
    store = GameStore(MemoryEventStore())
    store.create("g", mare.new_game(["Ann"], seed=3))
    sent: list[Any] = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    async def main() -> None:
        hub = Hub(store, ServerLimits(), follow_seconds=0.01)
        async with anyio.create_task_group() as tasks:
            hub.start(tasks)
            listener = Listener("g", 0, 0, send)
            hub.join(listener)
            tasks.start_soon(listener.run)
            await anyio.sleep(0.05)  # several follows time out with nothing new
            game = store.load("g")
            await anyio.to_thread.run_sync(
                store.execute, "g", game.parse_notation("roll", seat=0), game.version
            )
            while not sent:
                await anyio.sleep(0.005)
            hub.publish("g", store.load("g"))  # nothing newer: nothing sent
            hub.leave(listener)
            hub.stop()
            with pytest.raises(ApiError):
                hub.join(listener)
            tasks.cancel_scope.cancel()

    anyio.run(main)
    assert [message["version"] for message in sent] == [store.load("g").version]
    assert sent[0]["events"][0]["position"] == 0


def test_uvicorn_config_filters_queries_out_of_uvicorns_lines_once() -> None:
    """However many servers a process configures, uvicorn's error log has one filter that
    cuts the query off an address (a client may put a secret in a URL)."""
    from avanti.server.transport.uvicorn import RedactQueries, uvicorn_config

    async def app(scope: Any, receive: Any, send: Any) -> None:  # never called
        raise AssertionError

    for _ in range(3):
        uvicorn_config(app, ServerLimits())
    errors = logging.getLogger("uvicorn.error")
    redacting = [kept for kept in errors.filters if isinstance(kept, RedactQueries)]
    assert len(redacting) == 1
    record = logging.LogRecord(
        "uvicorn.error", logging.INFO, __file__, 1, "%s %s", ("GET /games?token=t0ken", 3), None
    )
    assert redacting[0].filter(record)
    assert record.getMessage() == "GET /games 3"
