"""The clock: a timed game's updates carry the deadline of the seat to move, and when it runs
out a bot makes that one move and the chat says so (which bot: ``test_stand_in.py``). Waits
for conditions only (the time per move is a fraction of a second)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from avanti.server.limits import ServerLimits
from avanti.server.protocol.requests import NewGame
from avanti.server.table.changes import Changes
from avanti.server.table.chat import Chat
from avanti.server.table.clock import Clock, Deadline
from avanti.server.table.master import Tables
from avanti.server.table.record import TableRecord
from avanti.store import GameStore, MemoryEventStore
from tests.server.support import open_socket, receive, serving


def test_a_seat_whose_time_runs_out_has_its_move_made_and_everyone_is_told(
    tmp_path: Path,
) -> None:
    # The clock starts when the game is created, so the socket may join before Ann's time ran
    # out or after (on a busy machine): what it is told is checked either way.
    with serving(tmp_path / "games.db") as served:
        body = {"game": "mare", "players": ["Ann", "Bob"], "seconds_per_move": 0.3}
        reply = served.http.post("/games", json=body)
        assert reply.status_code == 201, reply.text
        game = reply.json()
        with open_socket(served.ws_url(game["id"]), game["seats"][1]["token"]) as socket:
            seen = [receive(socket)]
            assert seen[0]["type"] == "update"

            def told() -> list[Any]:
                said = [n for m in seen if m["type"] == "chat" for n in m["messages"]]
                return [n for n in said if n["text"] == "Ann's time ran out: a bot moved"]

            while not told() or seen[-1]["type"] != "update" or seen[-1]["version"] == 0:
                seen.append(receive(socket))
            [ann] = told()[:1]
            assert (ann["seat"], ann["name"], ann["system"]) == (None, None, True)
            updates = [m for m in seen if m["type"] == "update"]
            for update in updates:  # each names the seat awaited, with its time per move
                clock = update["clock"]
                assert (clock["seat"], clock["seconds"]) == (update["waiting"][0], 0.3)
                assert clock["deadline"] > 1_700_000_000
            events = [e for m in updates for e in m["events"]]
            assert [e["position"] for e in events] == list(range(len(events)))
            first = events[0]["event"]
            assert (first["type"], first["seat"]) == ("DieRolled", 0)  # Ann's roll, made for her
            moved = updates[-1]
        stored = served.http.get(f"/games/{game['id']}").json()
        assert stored["version"] >= moved["version"]


def test_games_without_a_clock_carry_none_and_deadlines_follow_versions() -> None:
    tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
    chat = Chat(tables)
    now = [1_800_000_000.0]
    clock = Clock(tables, Changes(), chat, now=lambda: now[0])
    plain = tables.create(
        NewGame.read({"game": "mare", "players": ["Ann", "Bob"]}, ("random",)), "a"
    )
    assert plain.game is not None
    clock.register(plain.game_id, TableRecord(), plain.game)
    assert clock.of(plain.game_id, plain.game) is ...
    timed = tables.create(
        NewGame.read(
            {
                "game": "mare",
                "players": ["Ann", "Bob"],
                "bots": {"0": "random"},
                "seconds_per_move": 5,
            },
            ("random",),
        ),
        "a",
    )
    assert timed.game is not None
    record, _ = tables.record(timed.game_id)
    clock.register(timed.game_id, TableRecord.from_metadata(record.metadata), timed.game)
    assert clock.of(timed.game_id, timed.game) is None  # a bot's seat is not timed
    assert Deadline(3, 1, now[0] + 5, 5.0).data() == {
        "seat": 1,
        "deadline": 1_800_000_005.0,
        "seconds": 5.0,
    }
    assert json.dumps(Deadline(3, None, 0.0, 5.0).data()) == "null"
