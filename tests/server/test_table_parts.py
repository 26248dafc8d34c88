"""The corners of open tables, the clock and the rematch, driven through the table core (and
one real socket): stale writers, a start cut short, unreadable records, late clocks."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest
from websockets.exceptions import ConnectionClosed

from avanti import mare
from avanti.core.errors import VersionConflict
from avanti.server.limits import ServerLimits
from avanti.server.protocol.requests import NewGame
from avanti.server.table.changes import Changes, Moved
from avanti.server.table.chat import Chat
from avanti.server.table.clock import Clock, Deadline
from avanti.server.table.joining import Joining, OpenTable, table_stream
from avanti.server.table.lobby import TABLE_FORMAT
from avanti.server.table.master import Tables
from avanti.server.table.record import Seat, Table, token_hash
from avanti.server.table.rematch import Rematch
from avanti.store import GameStore, MemoryEventStore, StoredStream
from tests.server.support import ROOMY, open_socket, receive, serving


def core() -> Tables:
    """A table core over a fresh store in memory."""
    return Tables(GameStore(MemoryEventStore()), ServerLimits())


def opened(joining: Joining, players: list[str | None]) -> Any:
    """A new open table of Avanti; what the core answered."""
    return joining.create(NewGame.read({"game": "avanti", "players": players}, ("random",)), "c")


def test_a_stale_seat_writer_loses_and_a_start_cut_short_is_finished_by_the_next_look() -> None:
    tables = core()
    joining = Joining(tables)
    created = opened(joining, ["Ann", None, None])
    stale = joining.read(created.game_id)
    assert joining.take(created.game_id, "Bob", "c")[0] == 1
    with pytest.raises(VersionConflict):  # a write at the version read loses to the take
        tables.games.events.append(
            stale.record.stream,
            [{"type": "seated", "seat": 1}],
            stale.record.version,
            metadata_update=stale.seated(stale.seats).to_metadata(),
        )
    fresh = joining.read(created.game_id)
    full = (*fresh.seats[:2], Seat("Cy", None, None))
    tables.change_record(  # no start yet
        fresh.record.stream,
        lambda kept, _: fresh.with_record(kept).seated(full),
        event=lambda _, __: {"type": "seated", "seat": 2},
    )
    assert tables.lobby(None, 10) == []  # full, not started: listed nowhere
    described = joining.describe(created.game_id, None)
    assert described["started"] is True
    assert tables.read(created.game_id).game.setup.players == ("Ann", "Bob", "Cy")
    joining._start(joining.read(created.game_id))  # a second start finds the game


@pytest.mark.parametrize(
    "metadata",
    [
        {},
        {"open": {"game": "avanti", "seats": "no"}},
        {"open": {"game": "avanti", "seats": [7]}},
        {"open": {"game": "avanti", "seats": [{"name": 7}]}},
        {"open": {"game": "chess", "seats": []}},
    ],
)
def test_records_that_are_no_open_table_are_read_as_none(metadata: Any) -> None:
    record = StoredStream("table.x", TABLE_FORMAT, 1, {}, metadata, 0, 0.0, 0.0)
    assert OpenTable.read(record) is None


def test_the_lobby_skips_games_the_server_did_not_seat() -> None:
    tables = core()
    tables.games.create("bare", mare.new_game(["A", "B"]), {})
    assert tables.lobby(None, 10) == []


def test_a_waiting_socket_answers_pings_refuses_commands_and_closes_when_nobody_comes(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "games.db", limits=attrs.evolve(ROOMY, idle_timeout=1.2)) as served:
        reply = served.http.post("/games", json={"game": "mare", "players": ["Ann", None]})
        game = reply.json()
        with open_socket(served.ws_url(game["id"]), None) as socket:
            assert receive(socket)["type"] == "table"
            socket.send(json.dumps({"type": "ping"}))
            assert receive(socket) == {"type": "pong"}
            socket.send(json.dumps({"type": "command", "notation": "roll"}))
            assert receive(socket)["error"]["kind"] == "bad-request"
            assert receive(socket)["error"]["kind"] == "idle-timeout"
            with pytest.raises(ConnectionClosed) as closed:
                receive(socket)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 4408
        with open_socket(served.ws_url(game["id"]), "guess" * 6) as socket:
            assert receive(socket)["error"]["kind"] == "unauthorized"


def _timed(tables: Tables) -> str:
    body = {"game": "mare", "players": ["Ann", "Bob"], "seconds_per_move": 1}
    created = tables.create(NewGame.read(body, ("random",)), "c")
    return created.game_id


def test_a_late_deadline_of_a_game_that_moved_on_or_of_a_bots_seat_makes_no_move() -> None:
    tables = core()
    game_id = _timed(tables)
    acted: list[Any] = []
    changes = Changes()
    changes.hear(acted.append)
    clock = Clock(tables, changes, Chat(tables))
    anyio.run(clock._time_out, game_id, Deadline(5, 0, 0.0, 1.0))  # not at that version
    tables.hand_over(game_id, _token_of(tables, game_id), "0", "random")
    anyio.run(clock._time_out, game_id, Deadline(0, 0, 0.0, 1.0))  # a bot plays it now: 403
    assert acted == []
    assert tables.read(game_id).game.version == 0


def _token_of(tables: Tables, game_id: str) -> str:
    """Give seat 0 a known token (its hash written into the record); the token."""
    record, table = tables.record(game_id)
    assert table is not None
    seats = (attrs.evolve(table.seats[0], token_sha256=token_hash("T" * 32)), *table.seats[1:])
    metadata = {**record.metadata, **Table(table.game, seats).to_metadata()}
    tables.games.events.set_metadata(game_id, metadata)
    return "T" * 32


def test_a_rematch_keeps_the_clock() -> None:
    tables = core()
    game = mare.new_game(["Ann", "Bob"], seed=5)
    rng = random.Random(5)
    while not game.is_over:
        game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
    seats = (Seat("Ann", token_hash("A" * 32), None), Seat("Bob", None, "random"))
    tables.games.create("done", game, {**Table("mare", seats).to_metadata(), "clock": 30.0})
    new_id, seat, token = Rematch(tables).seat("done", "A" * 32)
    record, table = tables.record(new_id)
    assert record.metadata["clock"] == 30.0
    assert table is not None
    assert table.seat_for(token) == seat == 0
    assert table.bot(1) == "random"
    assert tables.record("done")[0].metadata["rematch"] == new_id
    assert table_stream("x") == "table.x"


def test_sockets_waiting_for_one_table_are_capped(tmp_path: Path) -> None:
    limits = attrs.evolve(ROOMY, connections_per_game=1)
    with serving(tmp_path / "games.db", limits=limits) as served:
        reply = served.http.post("/games", json={"game": "mare", "players": ["Ann", None]})
        game = reply.json()
        url = served.ws_url(game["id"])
        with open_socket(url, None) as first:
            assert receive(first)["type"] == "table"
            with open_socket(url, None) as second:
                refused = receive(second)
                assert refused["error"]["kind"] == "too-many-connections"


def test_the_table_core_notes_the_versions_another_process_wrote_as_it_hears_them() -> None:
    """The table core hears the announcements itself: a version another process wrote
    (``here=False``) is noted, so that a seat's command sent at it may catch up; one this
    process wrote is noted where it was written, not again by its announcement."""
    tables = core()
    changes = Changes()
    changes.hear(tables.hear)
    game = mare.new_game(["Ann", "Bob"], seed=3)
    assert not tables.catching_up("g", game, 0, game.version)  # never seen here
    changes.announce(Moved("g", game, here=True))
    assert not tables.catching_up("g", game, 0, game.version)  # its writer noted it, not this
    changes.announce(Moved("g", game, here=False))
    assert tables.catching_up("g", game, 0, game.version)
