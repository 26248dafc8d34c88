"""The edges of the clock, the table core and the push hub, each driven directly (no server):
a clock stopped and started again, a moment it cannot write, a stand-in that fails or races;
the table core's refusals and command ids; a listener cut while it waits, while it sends, or by
its send timer; the hub's caches and its follower's races.

Games of Avanti mare! are stored by hand with a fixed seed (seed 3: Ann rolls at version 0,
Bob at 3, Ann at 6, each roll her or his only legal command, M3). The clock reads an injected
time; nothing waits but for conditions (a send timer is the one thing that must fire, and a
test waits for what it does, never for a time).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import pytest
from anyio import to_thread
from attrs import evolve

from avanti import mare
from avanti.avanti.commands import Drive, Quit
from avanti.core.codec import JSONValue
from avanti.server.limits import ServerLimits
from avanti.server.log import LOGGER
from avanti.server.protocol.requests import CommandRequest
from avanti.server.protocol.wire import AnyGame, ApiError
from avanti.server.table.changes import Change, Changes, Said
from avanti.server.table.chat import Chat
from avanti.server.table.clock import CLOCK, CLOCK_STARTED, Clock, Deadline, Started
from avanti.server.table.master import NOTED_GAMES, Tables
from avanti.server.table.record import Seat, Table, TableRecord, summary_of, token_hash
from avanti.server.transport import push
from avanti.server.transport.push import Behind, Hub, Listener
from avanti.store import GameStore, MemoryEventStore, StoredStream, StoreError
from tests.server.support import PATIENCE
from tests.server.test_stand_in import BEFORE, heuristic_play, timed_metadata

START = 1_900_000_000.0
"""The injected time each test begins at (Unix seconds)."""

ANN = "A" * 32
"""Ann's token (seat 0)."""

BOB = "B" * 32
"""Bob's token (seat 1), when a person plays Bob's seat."""

GAME = "5d1e0c7a9b3f2468"
"""The id of the game stored by hand."""


def core() -> Tables:
    """A table core over a fresh store in memory."""
    return Tables(GameStore(MemoryEventStore()), ServerLimits())


def stored_mare(
    tables: Tables,
    *,
    clock: float | None = 30.0,
    started: int | None = 0,
    bob: str | None = None,
) -> AnyGame:
    """Store a game of mare (seed 3) for Ann and Bob under :data:`GAME`: ``clock`` seconds a
    move, the record's moment for version ``started`` at :data:`START` (``None``: no moment),
    Bob's seat played by a bot of kind ``bob`` (``None``: by Bob, token :data:`BOB`)."""
    game = mare.new_game(["Ann", "Bob"], seed=3)
    seats = (
        Seat("Ann", token_hash(ANN), None),
        Seat("Bob", None if bob is not None else token_hash(BOB), bob),
    )
    metadata: dict[str, JSONValue] = {**Table("mare", seats).to_metadata(), **summary_of(game)}
    if clock is not None:
        metadata[CLOCK] = clock
    if started is not None:
        metadata[CLOCK_STARTED] = {"version": started, "at": START}
    tables.games.create(GAME, game, metadata)
    return game


def roll(seat: int, **fields: Any) -> CommandRequest:
    """The request of ``seat``'s roll (M3), by its JSON."""
    return CommandRequest(command={"type": "Roll", "seat": seat}, **fields)


def commands_of(game: AnyGame, after: int = 0) -> list[Any]:
    """The commands stored from version ``after`` on, read from the log."""
    cause = type(game).rules.cause
    found = [cause(event) for event in game.events[after:]]
    return [command for command in found if command is not None]


def fields_of(caplog: pytest.LogCaptureFixture, event: str) -> list[Any]:
    """The fields of each server log record of ``event``."""
    return [getattr(r, "avanti_fields", None) for r in caplog.records if r.getMessage() == event]


async def until(condition: Callable[[], bool], what: str) -> None:
    """Give the event loop turns until ``condition()`` holds: what it waits for is done by a
    task of this loop that has nothing else to wait for (no time passes for it)."""
    for _ in range(100_000):
        if condition():
            return
        await anyio.lowlevel.checkpoint()
    raise AssertionError(f"gave up waiting for {what}")


# -- the clock ---------------------------------------------------------------------------------


def test_a_stopped_clock_moves_for_nobody_and_started_again_makes_the_late_move() -> None:
    """A stopped clock's timer still looks at a deadline passed but starts no move; started
    again, it makes that move with its default thinking (``think_here``: the heuristic bot in
    a worker thread of this process): Ann's roll, her only legal command (M3), and the chat
    says so."""
    tables = core()
    stored_mare(tables)  # Ann awaited since START, 30 s a move
    changes = Changes()
    now = [START]
    looks = [0]

    def clock_time() -> float:
        looks[0] += 1
        return now[0]

    clock = Clock(tables, changes, Chat(tables), now=clock_time)
    said: list[Said] = []

    async def main() -> None:
        told = anyio.Event()

        def hear(change: Change) -> None:
            if isinstance(change, Said):
                said.append(change)
                told.set()

        changes.hear(hear)
        async with anyio.create_task_group() as tasks:
            clock.start(tasks)
            clock.stop()
            seated = tables.read(GAME)
            now[0] = START + 31  # Ann's time ran out a second ago
            clock.register(GAME, seated.kept, seated.game)
            before = looks[0]
            # the timer reads the time once a round: woken by the registration, it looked
            # at the deadline passed, then waits for news
            await until(lambda: looks[0] >= before + 2, "the stopped timer to look twice")
            assert tables.read(GAME).game.version == 0
            assert said == []
            clock.start(tasks)
            with anyio.fail_after(PATIENCE):
                await told.wait()
            tasks.cancel_scope.cancel()

    anyio.run(main)
    game = tables.read(GAME).game
    assert (game.version, game.waiting) == (3, (1,))
    assert commands_of(game) == [mare.Roll(0)]
    [message] = json.loads(said[0].text)["messages"]
    assert (message["text"], message["system"]) == ("Ann's time ran out: a bot moved", True)


def test_a_version_without_a_moment_in_the_record_is_timed_from_when_the_clock_saw_it() -> None:
    """A timed record that keeps no moment for the version in play (a game stored by another
    program): the clock, not running, times it from when it first saw that version, and the
    same record read again later (still without a moment) does not give Ann her time again."""
    tables = core()
    game = stored_mare(tables, started=None)
    now = [START + 5]
    clock = Clock(tables, Changes(), Chat(tables), now=lambda: now[0])
    seated = tables.read(GAME)
    clock.register(GAME, seated.kept, seated.game)
    expected = {"seat": 0, "deadline": START + 35, "seconds": 30.0}
    assert clock.of(GAME, game) == expected
    now[0] = START + 20
    clock.register(GAME, tables.read(GAME).kept, game)  # read again: no moment yet
    assert clock.of(GAME, game) == expected  # not START + 50
    assert CLOCK_STARTED not in tables.record(GAME)[0].metadata  # a clock not started writes none


def test_a_moment_the_store_fails_to_write_is_logged_and_counts_in_this_process(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The running clock writes when a version began to wait into the record; when the store
    fails it logs ``clock-write-failed`` with the store's message and times the seat from its
    own moment."""
    tables = core()
    game = stored_mare(tables, started=None)

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise StoreError("the disk is full")

    monkeypatch.setattr(tables.games.events, "set_metadata", failing)
    clock = Clock(tables, Changes(), Chat(tables), now=lambda: START)

    async def main() -> None:
        failed = anyio.Event()

        class Heard(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                if record.getMessage() == "clock-write-failed":
                    failed.set()

        heard = Heard()
        LOGGER.addHandler(heard)
        try:
            async with anyio.create_task_group() as tasks:
                clock.start(tasks)
                seated = tables.read(GAME)
                clock.register(GAME, seated.kept, seated.game)  # writes the moment: fails
                with anyio.fail_after(PATIENCE):
                    await failed.wait()
                tasks.cancel_scope.cancel()
        finally:
            LOGGER.removeHandler(heard)

    with caplog.at_level(logging.WARNING, logger="avanti.server"):
        anyio.run(main)
    assert fields_of(caplog, "clock-write-failed") == [
        {"game": GAME, "message": "the disk is full"}
    ]
    assert clock.of(GAME, game) == {"seat": 0, "deadline": START + 30, "seconds": 30.0}
    assert CLOCK_STARTED not in tables.record(GAME)[0].metadata


def test_no_moment_is_written_for_a_game_that_moved_on_or_lost_its_clock() -> None:
    """The moment a version began to wait is written only while that version is the game's and
    the game has a clock: a process that saw version 3 late (the game is at 6, moved by a
    writer below the table core) writes nothing; nor does one whose game's clock was taken
    off (a record that loses a key is read whole again: its clock is gone)."""
    tables = core()
    stored_mare(tables)
    for seat in (0, 1):  # Ann's roll, then Bob's: version 6, the record's moment still 0's
        tables.games.execute(GAME, mare.Roll(seat))
    clock = Clock(tables, Changes(), Chat(tables), now=lambda: START)
    clock._write(GAME, Started(3, START + 10))
    moment = tables.record(GAME)[0].metadata[CLOCK_STARTED]
    assert moment == {"version": 0, "at": START}
    unclocked = tables.change_record(GAME, lambda kept, _: evolve(kept, clock=None))
    assert unclocked.clock is None
    assert CLOCK not in tables.record(GAME)[0].metadata
    assert tables.stored(GAME)[1].clock is None
    clock._write(GAME, Started(6, START + 20))
    assert tables.record(GAME)[0].metadata[CLOCK_STARTED] == {"version": 0, "at": START}


def test_a_seat_that_moves_while_its_stand_in_thinks_keeps_its_own_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Of the stand-in's move and the seat's own, made at the same version, one is stored
    (the same as of two processes timing one game): Ann rolls herself while the stand-in
    thinks; its move is then refused (409 ``version-conflict``: Ann's legal commands changed,
    she has none after her roll), logged as ``time-out-refused``, and the chat is told
    nothing."""
    tables = core()
    stored_mare(tables)
    changes = Changes()
    heard: list[Change] = []
    chat = Chat(tables)

    async def racing(
        game_id: str, kind: str, name: str, game: AnyGame, seat: int, legal: tuple[Any, ...]
    ) -> Any:
        own = functools.partial(tables.act, game_id, roll(0, expected_version=0), token=ANN)
        await to_thread.run_sync(own)
        return legal[0]

    clock = Clock(tables, changes, chat, now=lambda: START + 31, think=racing)
    changes.hear(heard.append)
    tables.read(GAME)  # as the server reads a game before it is played
    with caplog.at_level(logging.DEBUG, logger="avanti.server"):
        anyio.run(clock._time_out, GAME, Deadline(0, 0, START + 30, 30.0))
    assert fields_of(caplog, "time-out-refused") == [{"game": GAME, "kind": "version-conflict"}]
    game = tables.read(GAME).game
    assert commands_of(game) == [mare.Roll(0)]  # one roll of Ann's: her own
    assert heard == []
    assert chat.recent(GAME) == []


def test_a_stand_in_whose_thinking_fails_still_moves_and_never_quits_for_the_seat(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """When the stand-in's thinking fails, the error is logged and a random choice among
    the stand-in's choices is made all the same: on a driving turn where Ann may drive or
    quit (A9), it drives, never quitting the run for her (A14), and the chat says so."""
    tempted, _ = heuristic_play(BEFORE + 3)
    assert set(tempted.legal_commands(0)) == {Drive(0), Quit(0)}
    tables = core()
    tables.games.create(GAME, tempted, timed_metadata(tempted))
    chat = Chat(tables)
    thought: list[tuple[Any, ...]] = []

    async def failing(
        game_id: str, kind: str, name: str, game: AnyGame, seat: int, legal: tuple[Any, ...]
    ) -> Any:
        thought.append((kind, name, seat, legal))
        raise RuntimeError("the worker process died")

    clock = Clock(tables, Changes(), chat, now=lambda: START + 61, think=failing)
    with caplog.at_level(logging.INFO, logger="avanti.server"):
        anyio.run(clock._time_out, GAME, Deadline(tempted.version, 0, START + 60, 60.0))
    assert thought == [("heuristic", "avanti", 0, (Drive(0),))]
    [failure] = [r for r in caplog.records if r.getMessage() == "stand-in failed"]
    assert failure.levelno == logging.ERROR
    assert failure.exc_info is not None
    assert str(failure.exc_info[1]) == "the worker process died"
    game = tables.read(GAME).game
    assert commands_of(game, tempted.version)[0] == Drive(0)
    [message] = chat.recent(GAME)
    assert isinstance(message, dict)
    assert message["text"] == "Ann's time ran out: a bot moved"


# -- the table core ----------------------------------------------------------------------------


def test_a_bots_command_needs_a_bots_seat_and_a_read_says_whether_a_bot_is_awaited() -> None:
    """A command sent as a bot's is refused (409 ``conflict``) once its seat is no bot's, and
    nothing is stored; a read says whether the game waits for a bot (never for a game the
    server did not seat), and a command's answer carries the seats it found."""
    tables = core()
    stored_mare(tables, clock=None, started=None, bob="random")
    seated = tables.read(GAME)
    assert seated.game.waiting == (0,)
    assert not seated.bot_awaited()
    with pytest.raises(ApiError) as refused:
        tables.act(GAME, roll(0, bot=True), seat=0)
    assert (refused.value.status, refused.value.kind) == (409, "conflict")
    assert tables.read(GAME).game.version == 0
    acted = tables.act(GAME, roll(0, expected_version=0), token=ANN)
    assert acted.table == seated.table
    assert acted.table is not None
    assert acted.table.bot(1) == "random"
    seated = tables.read(GAME)
    assert seated.game.waiting == (1,)
    assert seated.bot_awaited()
    assert tables.act(GAME, roll(1, bot=True), seat=1).game.version == 6
    tables.games.create("bare", mare.new_game(["Ann", "Bob"], seed=3), {})
    assert not tables.read("bare").bot_awaited()  # no seats: nobody is a bot


def test_a_game_nobody_stored_is_404_for_its_record_and_for_a_change_of_it() -> None:
    """A game id no stored game has is refused (404 ``unknown-game``) by a read of its record
    and by a change of it, and nothing is written."""
    tables = core()
    for call in (
        lambda: tables.stored("0123456789abcdef"),
        lambda: tables.change_record("0123456789abcdef", lambda kept, _: kept),
    ):
        with pytest.raises(ApiError) as refused:
            call()
        assert (refused.value.status, refused.value.kind) == (404, "unknown-game")
    assert tables.games.games() == ()


def test_the_records_read_are_kept_for_the_most_recent_games() -> None:
    """A record's metadata is read once for each version of it, for at most ``NOTED_GAMES``
    games: reading one more game's forgets the least recently read, whose record is then
    read again (equal, a new object); the seats are the record's."""
    tables = core()
    seats = (Seat("Ann", token_hash(ANN), None), Seat("Bob", None, "random"))
    metadata = {**Table("mare", seats).to_metadata(), CLOCK: 30.0}
    streams = [
        StoredStream(f"g{number}", "avanti.mare", 1, {}, metadata, 0, 0.0, 0.0)
        for number in range(NOTED_GAMES + 1)
    ]
    first = tables.record_of(streams[0])
    assert (first.table, first.clock) == (Table("mare", seats), 30.0)
    assert tables.record_of(streams[0]) is first
    kept = [tables.record_of(stream) for stream in streams[1:]]  # one game more than kept
    again = tables.record_of(streams[0])  # the least recently read: forgotten, read again
    assert again == first
    assert again is not first
    assert tables.record_of(streams[-1]) is kept[-1]  # the most recent is still kept
    assert tables.table_of(streams[0]) == Table("mare", seats)


def test_a_command_id_refused_at_a_stale_version_is_answered_as_its_first_time() -> None:
    """A stale request (sent at version 0, the game at 3) under a command id is the retry of
    the command stored under it: answered as the first time (Ann's roll, the game right after
    it, repeated); the same id with another command is 409 ``command-id-reused``; a fresh id
    is the stale request it is, 409 ``version-conflict`` (also through ``act_soon``)."""
    tables = core()
    stored_mare(tables)
    first = tables.act(GAME, roll(0, expected_version=0, command_id="c1"), token=ANN)
    assert (first.seat, first.game.version) == (0, 3)
    again = tables.act(GAME, roll(0, expected_version=0, command_id="c1"), token=ANN)
    assert (again.seat, again.game.version, again.since) == (0, 3, 0)
    assert again.executed.repeated
    other = CommandRequest(notation="roll", expected_version=0, command_id="c1")
    with pytest.raises(ApiError) as refused:
        tables.act(GAME, other, token=ANN)
    assert (refused.value.status, refused.value.kind) == (409, "command-id-reused")
    fresh = roll(0, expected_version=0, command_id="c2")
    with pytest.raises(ApiError) as refused:
        tables.act(GAME, fresh, token=ANN)
    assert (refused.value.kind, refused.value.fields) == (
        "version-conflict",
        {"expected": 0, "actual": 3},
    )

    async def soon() -> None:
        await tables.act_soon(GAME, fresh, token=ANN)

    with pytest.raises(ApiError) as refused:
        asyncio.run(soon())
    assert refused.value.kind == "version-conflict"
    assert tables.read(GAME).game.version == 3


def test_the_versions_noted_are_those_of_the_most_recent_games() -> None:
    """The table core notes recent versions of at most ``NOTED_GAMES`` games: noting one more
    forgets the least recently noted, whose seats then catch up no more."""
    tables = core()
    game = mare.new_game(["Ann", "Bob"], seed=3)
    for number in range(NOTED_GAMES + 1):
        tables.note(f"g{number}", game)
    assert not tables.catching_up("g0", game, 0, 0)
    assert tables.catching_up("g1", game, 0, 0)
    assert tables.catching_up(f"g{NOTED_GAMES}", game, 0, 0)


def test_a_finished_games_record_holds_its_outcome() -> None:
    """The append that ends a game writes its outcome into the record, none before: this game
    (each seat making its first legal command) ends with every fish caught (M8), so the
    fisher fans' seat, Bob's, wins: returns 0 for Ann and 1 for Bob."""
    tables = core()
    game = stored_mare(tables, clock=None, started=None)
    assert TableRecord.from_metadata(tables.record(GAME)[0].metadata).outcome is None
    while not game.is_over:
        game = tables.games.execute(GAME, game.legal_commands(game.waiting[0])[0])
    outcome = TableRecord.from_metadata(tables.record(GAME)[0].metadata).outcome
    assert outcome == {"winners": [1], "returns": [0.0, 1.0]}


# -- the push hub ------------------------------------------------------------------------------


def ann_rolled() -> AnyGame:
    """The game of seed 3 after Ann's roll (version 3)."""
    return mare.new_game(["Ann", "Bob"], seed=3).execute(mare.Roll(0))


class Wire:
    """A connection's sending side: keeps each message; the client takes the first ``after``
    at once, and each later one only once ``released`` is set (``entered``: one is waiting)."""

    def __init__(self, after: int = 0) -> None:
        self.sent: list[str] = []
        self.entered = asyncio.Event()
        self.released = asyncio.Event()
        self.after = after

    async def send(self, text: str) -> None:
        self.sent.append(text)
        if len(self.sent) > self.after:
            self.entered.set()
            await self.released.wait()

    def messages(self) -> list[Any]:
        """What was sent, as JSON."""
        return [json.loads(text) for text in self.sent]


def test_a_listener_on_its_own_sends_only_news_and_builds_what_the_hub_would() -> None:
    """Before it runs, a listener sends an update only for a version newer than its last one
    (or when told to send it anyway); built on its own, the update is the hub's shared one."""
    game = mare.new_game(["Ann", "Bob"], seed=3)
    moved = ann_rolled()
    wire = Wire(after=10)

    async def main() -> None:
        listener = Listener("g", 0, 0, wire.send)
        await listener.send_update(game)  # version 0: nothing new
        assert wire.sent == []
        await listener.send_update(game, always=True)
        await listener.send_update(moved)
        await listener.send_update(moved)  # sent already

    asyncio.run(main())
    first, second = wire.messages()
    assert (first["version"], first["events"]) == (0, [])
    assert second["version"] == 3
    assert [e["position"] for e in second["events"]] == [0, 1, 2]
    hub = Hub(GameStore(MemoryEventStore()), ServerLimits())
    assert wire.sent[1] == hub.build("g", moved, 0, 0, None)


def test_answers_queued_together_go_out_in_one_update() -> None:
    """Two stored commands answered before the writer wakes are carried, in order, by one
    update at the newest version (one message per change)."""
    wire = Wire(after=10)
    moved = ann_rolled()
    bobs = moved.execute(mare.Roll(1))

    async def main() -> None:
        listener = Listener("g", 0, 0, wire.send)
        task = asyncio.create_task(listener.run())
        listener.answer(moved, "a")
        listener.answer(bobs, None)
        await until(lambda: bool(wire.sent), "the update")
        listener.finish()
        await task

    asyncio.run(main())
    [update] = wire.messages()
    assert (update["type"], update["version"]) == ("update", 6)
    assert update["results"] == [{"version": 3, "command_id": "a"}, {"version": 6}]


def test_a_flush_to_come_writes_nothing_once_the_listener_finished_or_stopped() -> None:
    """An idle listener whose connection takes messages at once writes a game offered soon
    after (not in the offerer's turn); once the session finished or stopped it meanwhile,
    nothing is written."""

    async def offered(end: str) -> list[str]:
        written: list[str] = []

        def write(text: str) -> bool:
            written.append(text)
            return True

        listener = Listener("g", 0, 0, Wire().send, write=write)
        task = asyncio.create_task(listener.run())
        await until(lambda: listener._idle, "the writer to wait")
        listener.offer(ann_rolled())
        assert written == []  # soon, not now
        if end == "finish":
            listener.finish()
        elif end == "stop":
            listener.stop()
        loop = asyncio.get_running_loop()
        later = loop.create_future()
        loop.call_soon(later.set_result, None)  # after the flush the offer scheduled
        await later
        listener.finish()
        await task
        return written

    [update] = asyncio.run(offered("none"))
    assert json.loads(update)["version"] == 3
    assert asyncio.run(offered("finish")) == []
    assert asyncio.run(offered("stop")) == []


BEHIND = "more than 100 bytes waited to be sent to this connection"
"""Why a listener of ``outbox_bytes=100`` owing more is cut."""


def test_a_listener_cut_while_it_waits_ends_and_sends_nothing_more() -> None:
    """Owing more than its outbox's bytes, a listener is cut at once: what it owed is dropped,
    its writer ends with ``Behind``, ``on_cut`` is called once, and a later send is refused
    without touching the connection."""
    wire = Wire(after=10)
    cuts: list[str | None] = []

    async def main() -> None:
        listener = Listener("g", None, 0, wire.send, outbox_bytes=100)
        listener.on_cut = lambda: cuts.append(listener.behind)
        task = asyncio.create_task(listener.run())
        listener.tell("x" * 60)
        listener.tell("y" * 60)  # 120 bytes owed
        listener.tell("z")
        with pytest.raises(Behind) as cut:
            await task
        assert cut.value.why == BEHIND
        with pytest.raises(Behind):
            await listener.send("late")

    asyncio.run(main())
    assert cuts == [BEHIND]
    assert wire.sent == []


def test_a_listener_cut_during_a_send_says_so_when_the_send_ends() -> None:
    """A send under way (the client takes it, slowly) when the listener is cut ends in
    ``Behind`` with the reason of the cut."""
    wire = Wire()

    async def main() -> None:
        listener = Listener("g", None, 0, wire.send, send_timeout=60.0, outbox_bytes=100)
        sending = asyncio.create_task(listener.send("hello"))
        await wire.entered.wait()
        listener.tell("x" * 101)
        wire.released.set()
        with pytest.raises(Behind) as cut:
            await sending
        assert cut.value.why == BEHIND
        listener.stop()

    asyncio.run(main())
    assert wire.sent == ["hello"]


@pytest.mark.parametrize("cut_first", [False, True])
def test_a_first_message_the_client_does_not_take_in_time_cuts_the_listener_once(
    cut_first: bool,
) -> None:
    """A first message (sent before the writer runs) that the client does not take within the
    send timeout cuts the listener; one cut already for its outbox meanwhile keeps its own
    reason, and ``on_cut`` is called once either way."""
    wire = Wire()
    cuts: list[str | None] = []

    async def main() -> None:
        listener = Listener("g", None, 0, wire.send, send_timeout=0.25, outbox_bytes=100)
        listener.on_cut = lambda: cuts.append(listener.behind)
        sending = asyncio.create_task(listener.send("hello"))
        await wire.entered.wait()
        if cut_first:
            listener.tell("x" * 101)
        with pytest.raises(Behind):
            await sending
        listener.stop()

    asyncio.run(main())
    slow = "the client took more than 0.25 s to take a message"
    assert cuts == [BEHIND if cut_first else slow]


def test_the_send_timer_cuts_a_listener_whose_client_does_not_take_a_message() -> None:
    """The writer's send timer cuts the listener whose client has not taken a message within
    the send timeout (the messages after it stay unsent)."""
    wire = Wire()
    cuts: list[str | None] = []

    async def main() -> None:
        listener = Listener("g", None, 0, wire.send, send_timeout=0.1)
        cut = asyncio.Event()

        def on_cut() -> None:
            cuts.append(listener.behind)
            cut.set()

        listener.on_cut = on_cut
        task = asyncio.create_task(listener.run())
        listener.tell("one")
        listener.tell("two")
        await cut.wait()
        task.cancel()
        listener.stop()

    asyncio.run(main())
    assert wire.sent == ["one"]
    assert cuts == ["the client took more than 0.1 s to take a message"]


def test_the_send_timer_firing_during_a_later_send_waits_for_that_sends_deadline() -> None:
    """The send timer is armed once, at the writer's first send; when it fires while a later
    send is under way that began less than the send timeout ago, it is armed again for that
    send's own deadline (its start plus the timeout), and nobody is cut. (The timer is fired
    here by hand, as the event loop would fire it: no time passes.)"""
    wire = Wire(after=1)  # the client takes the first message, not (yet) the second

    async def main() -> tuple[float, float, float, str | None]:
        loop = asyncio.get_running_loop()

        async def send(text: str) -> None:
            began = loop.time()
            await wire.send(text)
            while loop.time() == began:  # the next send begins strictly later than this one
                pass

        listener = Listener("g", None, 0, send, send_timeout=60.0)
        task = asyncio.create_task(listener.run())
        listener.tell("one")
        listener.tell("two")
        await wire.entered.wait()
        armed, since = listener._timer, listener._sending_since
        assert armed is not None
        assert since is not None
        armed.cancel()
        listener._overdue()  # the first send's deadline: the second began later
        rearmed = listener._timer
        assert rearmed is not None
        when = (armed.when(), since, rearmed.when())
        behind = listener.behind
        task.cancel()
        listener.stop()
        return (*when, behind)

    first_deadline, since, deadline, behind = asyncio.run(main())
    assert first_deadline < since + 60.0
    assert deadline == since + 60.0
    assert behind is None
    assert wire.sent == ["one", "two"]


def test_the_hub_builds_each_payload_once_and_keeps_a_bounded_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An update asked for again is the very text built before, while the hub keeps it; past
    ``PAYLOADS`` texts (here 2) the oldest is built again (the same text, a new one), and past
    ``SHARED`` games (here 1) the oldest game's shared part is let go."""
    monkeypatch.setattr(push, "PAYLOADS", 2)
    monkeypatch.setattr(push, "SHARED", 1)
    hub = Hub(GameStore(MemoryEventStore()), ServerLimits())
    game = ann_rolled()
    first = hub.build("a", game, 0, 0, None)
    assert hub.build("a", game, 0, 0, None) is first
    hub.build("a", game, 1, 0, None)
    hub.build("a", game, None, 0, None)  # a third text: the first is forgotten
    rebuilt = hub.build("a", game, 0, 0, None)
    assert rebuilt == first
    assert rebuilt is not first
    hub.build("b", game, 0, 0, None)
    assert list(hub._shared) == ["b"]


class _LoadedLate(GameStore):
    """A store whose follower loads a game only after this process published the same version
    itself (its own write, offered to its listeners at once), and that tells when the follower
    follows again after that load."""

    def __init__(self, events: MemoryEventStore) -> None:
        super().__init__(events)
        self.publish: Callable[[str, AnyGame], None] | None = None
        self.followed: anyio.Event | None = None
        self._loaded = False

    def load(self, game_id: str, *, verify: bool = False) -> AnyGame:
        game = super().load(game_id, verify=verify)
        publish, self.publish = self.publish, None
        if publish is not None:
            anyio.from_thread.run_sync(publish, game_id, game)
            self._loaded = True
        return game

    def follow_any(
        self, after: Mapping[str, int], timeout: float, *, others: bool = False
    ) -> dict[str, int]:
        followed = self.followed
        if self._loaded and followed is not None:
            self.followed = None
            anyio.from_thread.run_sync(followed.set)
        return super().follow_any(after, timeout, others=others)


def test_a_version_offered_while_the_follower_loaded_it_is_not_announced_again() -> None:
    """The hub knows the newest version offered for each game it watches (0 for one it does
    not); a version another writer stored, which this process offered itself while the
    follower was loading it, is not announced a second time."""
    events = MemoryEventStore()
    writer = GameStore(events)
    writer.create("g", mare.new_game(["Ann", "Bob"], seed=3))
    store = _LoadedLate(events)
    changes = Changes()
    hub = Hub(store, ServerLimits(), follow_seconds=0.05, changes=changes)
    heard: list[Change] = []
    changes.hear(heard.append)
    wire = Wire(after=10)
    known: list[int] = []

    async def main() -> None:
        followed = store.followed = anyio.Event()
        async with anyio.create_task_group() as tasks:
            hub.start(tasks)
            listener = Listener("g", 0, 0, wire.send)
            hub.join(listener)
            tasks.start_soon(listener.run)
            known.extend((hub.known("g"), hub.known("other")))
            store.publish = hub.publish
            writer.execute("g", mare.Roll(0))  # another writer: the follower wakes
            with anyio.fail_after(PATIENCE):
                await followed.wait()
            await until(lambda: bool(wire.sent), "the update")
            known.append(hub.known("g"))
            listener.finish()
            hub.leave(listener)
            tasks.cancel_scope.cancel()

    anyio.run(main)
    assert known == [0, 0, 3]
    assert [message["version"] for message in wire.messages()] == [3]
    assert heard == []  # no Moved(here=False): offered once, by this process


def test_a_game_the_follower_cannot_load_is_logged_and_the_others_are_offered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Of the games that moved, one that cannot be loaded (gone from the store) is logged as
    ``follow-failed`` and left out; the others are loaded all the same."""
    store = GameStore(MemoryEventStore())
    store.create("g", mare.new_game(["Ann", "Bob"], seed=3))
    hub = Hub(store, ServerLimits())
    with caplog.at_level(logging.WARNING, logger="avanti.server"):
        loaded = hub._load(["gone", "g"])
    assert {game_id: game.version for game_id, game in loaded.items()} == {"g": 0}
    [failed] = fields_of(caplog, "follow-failed")
    assert (failed["game"], failed["problem"]) == ("gone", "UnknownStream")
