"""The count of an address's games in play (``games_per_client``) without a scan per creation.

Before, every ``POST /games`` listed and decoded up to 100 recent records of every format
(about 4 ms on a store of 400 games, a tenth of the server's CPU under the benchmark's load).
Now a process reads the recent records at most once every ``ADMIT_SECONDS`` and counts what it
does itself meanwhile at once: its creations, and the games it sees end. The clock is the
admission's own (``Admission.monotonic``), set by the test: nothing waits.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from avanti.server.limits import ServerLimits
from avanti.server.protocol.requests import CommandRequest, NewGame
from avanti.server.protocol.wire import ApiError
from avanti.server.table.admission import ADMIT_SECONDS
from avanti.server.table.master import Tables
from avanti.server.table.record import TableRecord
from avanti.store import GameStore, MemoryEventStore

LIMITS = ServerLimits(games_per_second=1_000.0, games_burst=1_000, games_per_client=3)
MARE = NewGame.read({"game": "mare", "players": ["Ann", "Bob"]}, ("random",))


class Counted(GameStore):
    """A game store that counts the listings of recent records."""

    listings = 0

    def games(self, **kw: Any) -> Any:
        self.listings += 1
        return super().games(**kw)


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.at = 1_000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def tables() -> Tables:
    tables = Tables(Counted(MemoryEventStore(), hold=True), LIMITS)
    tables.admission.monotonic = Clock()
    return tables


def later(tables: Tables, seconds: float) -> None:
    clock = tables.admission.monotonic
    assert isinstance(clock, Clock)
    clock.at += seconds


def listings(tables: Tables) -> int:
    games = tables.games
    assert isinstance(games, Counted)
    return games.listings


def refused(tables: Tables, client: str) -> str | None:
    """The message of the refusal of ``client``'s next game (429), or ``None``: created."""
    try:
        tables.create(MARE, client)
    except ApiError as error:
        return f"{error.status} {error.kind}: {error.message}"
    return None


IN_PLAY = "429 rate-limited: this address has {} games in play already: finish one first"


def play_to_the_end(tables: Tables, game_id: str, tokens: tuple[str | None, ...]) -> None:
    rng = random.Random(7)
    game = tables.read(game_id).game
    while not game.is_over:
        seat = game.waiting[0]
        notation = game.notation(rng.choice(game.legal_commands(seat)))
        token = tokens[seat]
        assert token is not None
        game = tables.act(game_id, CommandRequest(notation=notation), token=token).game


def test_many_creations_read_the_records_once_a_second(tables: Tables) -> None:
    for number in range(30):  # thirty addresses, one game each, within one second
        tables.create(MARE, f"10.0.0.{number}")
    first = listings(tables)
    assert first > 0
    later(tables, ADMIT_SECONDS / 2)
    tables.create(MARE, "10.0.1.1")
    assert listings(tables) == first  # no read within the second
    later(tables, ADMIT_SECONDS)
    tables.create(MARE, "10.0.1.2")
    assert listings(tables) > first  # read again after it


def test_the_records_read_are_decoded_once_however_many_creations_count_them(
    tables: Tables,
) -> None:
    """Each record read for the count is decoded once a read, not once a creation: 30 games,
    then 20 creations within the second decode none of the 30 again."""
    for number in range(30):
        tables.create(MARE, f"10.0.0.{number}")
    later(tables, ADMIT_SECONDS)
    decoded: list[str] = []
    real = TableRecord.from_metadata

    def counting(metadata: Any) -> TableRecord:
        decoded.append(str(metadata.get("client")))
        return real(metadata)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TableRecord, "from_metadata", staticmethod(counting))
        for number in range(20):
            assert refused(tables, f"10.0.2.{number}") is None
    assert len(decoded) == 30  # the first creation read the 30 records; the others none


def test_the_count_holds_within_the_second_and_an_end_counts_at_once(tables: Tables) -> None:
    made = [tables.create(MARE, "10.0.0.1") for _ in range(3)]
    assert refused(tables, "10.0.0.1") == IN_PLAY.format(3)  # counted without a read
    assert refused(tables, "10.0.0.2") is None  # another address is its own
    play_to_the_end(tables, made[0].game_id, made[0].tokens)
    assert refused(tables, "10.0.0.1") is None  # the end was seen here: admitted at once
    assert refused(tables, "10.0.0.1") == IN_PLAY.format(3)


def test_another_writer_s_games_count_from_the_next_read(tables: Tables) -> None:
    for _ in range(2):
        tables.create(MARE, "10.0.0.1")
    other = Tables(tables.games, LIMITS)  # another process on the same store
    other.create(MARE, "10.0.0.1")
    assert refused(tables, "10.0.0.1") is None  # not read yet: this process counts two
    later(tables, ADMIT_SECONDS)
    assert refused(tables, "10.0.0.1") == IN_PLAY.format(4)  # read: four
