"""Twin worlds for the new messages: two stores that differ only in hidden facts (the seed, and
with it every hand) give every seat and the spectator byte-identical lobby entries, summaries,
open-table states, chat messages, errors and rematch answers.

The table core is driven directly (no transport), with the same ids, tokens and clock in both
worlds, so anything that differs can only come from the hidden facts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import avanti
from avanti.server.limits import ServerLimits
from avanti.server.protocol.requests import CommandRequest, NewGame
from avanti.server.protocol.wire import ApiError, dumps, public_setup_data, view_data
from avanti.server.table.chat import Chat
from avanti.server.table.joining import Joining
from avanti.server.table.master import Tables
from avanti.server.table.record import Seat, Table, summary_of, token_hash
from avanti.server.table.rematch import Rematch
from avanti.store import GameStore, MemoryEventStore

NAMES = ["Ann", "Bob", "Cy"]
TOKENS = ["A" * 32, "B" * 32, "C" * 32]
GAME_ID = "twin0000000000ab"


def seats(count: int) -> tuple[Seat, ...]:
    """The first ``count`` seats, with the names and tokens of both worlds."""
    pairs = zip(NAMES[:count], TOKENS[:count], strict=True)
    return tuple(Seat(name, token_hash(token), None) for name, token in pairs)


def world(seed: int) -> Tables:
    """A store holding one Avanti game of ``seed`` under :data:`GAME_ID`, seats by TOKENS."""
    tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
    game = avanti.new_game(NAMES, seed=seed)
    table = Table("avanti", seats(3))
    tables.games.create(GAME_ID, game, {**table.to_metadata(), **summary_of(game)})
    return tables


@pytest.fixture
def twins() -> tuple[Tables, Tables]:
    """Two worlds whose games differ only in hidden facts."""
    one, two = world(1), world(2)
    first, second = one.read(GAME_ID).game, two.read(GAME_ID).game
    assert public_setup_data(first) == public_setup_data(second)
    assert view_data(first, None) == view_data(second, None)
    assert view_data(first, 0) != view_data(second, 0)  # the hands differ: hidden facts
    return one, two


def refusal(call: Any) -> str:
    """The JSON of the refusal ``call`` raises."""
    with pytest.raises(ApiError) as raised:
        call()
    return dumps({"status": raised.value.status, **raised.value.body()})


def lobby_text(tables: Tables) -> str:
    entries = tables.lobby(None, 10)
    for entry in entries:
        assert isinstance(entry, dict)
        entry.pop("created")
        entry.pop("updated")
    return json.dumps(entries, sort_keys=True)


def test_lobby_entries_and_summaries_do_not_depend_on_hidden_facts(
    twins: tuple[Tables, Tables],
) -> None:
    one, two = twins
    assert lobby_text(one) == lobby_text(two)
    assert one.record(GAME_ID)[0].metadata["summary"] == two.record(GAME_ID)[0].metadata["summary"]
    notation = "marker 12"
    for tables in twins:
        seat = tables.read(GAME_ID).game.waiting[0]
        tables.act(GAME_ID, CommandRequest(notation=notation), token=TOKENS[seat])
    assert lobby_text(one) == lobby_text(two)
    summary = one.record(GAME_ID)[0].metadata["summary"]
    assert summary == two.record(GAME_ID)[0].metadata["summary"]
    assert summary["winners"] is None


def test_chat_messages_and_their_refusals_do_not_depend_on_hidden_facts(
    twins: tuple[Tables, Tables],
) -> None:
    texts: list[list[str]] = []
    for tables in twins:
        chat = Chat(tables, now=lambda: 1_800_000_000.0)
        sent = [
            dumps(chat.post(GAME_ID, seat, text))
            for seat, text in [(0, "hi <b>"), (1, "\u202eoops"), (2, "x" * 500)]
        ]
        sent.append(refusal(lambda chat=chat: chat.post(GAME_ID, 0, "x" * 501)))
        sent.append(refusal(lambda chat=chat: chat.post(GAME_ID, None, "spectator")))
        sent.append(dumps(chat.recent(GAME_ID)))
        texts.append(sent)
    assert texts[0] == texts[1]


def test_rematch_answers_and_refusals_do_not_depend_on_hidden_facts(
    twins: tuple[Tables, Tables],
) -> None:
    answers = []
    for tables in twins:
        rematch = Rematch(tables)
        answers.append(
            [
                refusal(lambda r=rematch: r.seat(GAME_ID, TOKENS[1])),
                refusal(lambda r=rematch: r.seat(GAME_ID, "nobody's" * 4)),
                refusal(lambda r=rematch: r.seat(GAME_ID, None)),
            ]
        )
    assert answers[0] == answers[1]
    finished = [_finished(seed) for seed in (3, 4)]
    given = [
        [Rematch(tables).seat("done000000000000", token) for token in TOKENS[:2]]
        for tables in finished
    ]
    assert given[0] == given[1]  # the ids and tokens follow from the old ones alone
    assert {answer[0] for answer in given[0]} == {given[0][0][0]}
    assert [answer[1] for answer in given[0]] == [0, 1]


def _finished(seed: int) -> Tables:
    """A store with a finished game of Avanti mare! under one id (played by a seeded walk)."""
    import random

    tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
    from avanti import mare

    game = mare.new_game(NAMES[:2], seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.waiting[0]
        game = game.execute(rng.choice(list(game.legal_commands(seat))))
    table = Table("mare", seats(2))
    tables.games.create("done000000000000", game, table.to_metadata())
    return tables


def test_open_tables_and_their_refusals_are_the_same_for_everyone() -> None:
    """An open table holds no hidden fact at all (no seed is drawn before the start): what
    the lobby, a taker and a spectator get is the same in two stores with different ids."""
    seen: list[list[str]] = []
    for _ in range(2):
        tables = Tables(GameStore(MemoryEventStore()), ServerLimits())
        joining = Joining(tables)
        body = {"game": "avanti", "players": ["Ann", None, None]}
        created = joining.create(NewGame.read(body, ("random",)), "client")
        game_id = created.game_id
        described = joining.describe(game_id, None)
        described.pop("id")
        described.pop("created")
        got = [
            json.dumps(described, sort_keys=True),
            refusal(lambda j=joining, g=game_id: j.take(g, "Ann", "c")),
            refusal(lambda j=joining, g=game_id: j.take(g, "", "c")),
            refusal(lambda j=joining, g=game_id: j.fill(g, None, "random")),
            refusal(lambda j=joining, g=game_id: j.describe(g, "guess" * 6)),
        ]
        seat, _token = joining.take(game_id, "Bob", "c")
        got.append(str(seat))
        seen.append(got)
    assert seen[0] == seen[1]
