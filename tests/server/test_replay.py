"""Replays of finished games: ``GET /games/{id}/replay`` and ``GET /games/{id}/replay/{version}``,
in process (no uvicorn, no bots).

Each step of a seat's replay is what the server sent that seat at that version: its events as
``events_for(seat)`` gives them, its view, the seats awaited, the table's words and picture.
Twin games that differ only in facts hidden from a seat give that seat (and the spectator) the
same replay, byte for byte. A game that goes on is refused, and the log is folded once.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import attrs
import httpx
import pytest

import avanti
from avanti import autorama, catalog, mare
from avanti.server import ServerLimits, create_app
from avanti.server.protocol.wire import events_data, table_data, view_data
from avanti.server.table.record import Seat, Table, summary_of
from avanti.server.transport import replay as replay_module
from avanti.server.transport.replay import Kept, seat_replay
from avanti.store import GameStore, MemoryEventStore
from tests.hardening import games_avanti
from tests.server.test_schema import openapi_validator

AnyGame = Any
FINISHED = "f1n15hed00000000"
GOING_ON = "90in90n000000000"
NAMES = {"avanti": ["Ann", "Bob", "Cy"], "autorama": ["Ann", "Bob", "Cy"], "mare": ["Ann", "Bob"]}
MODULES: dict[str, Any] = {"avanti": avanti, "autorama": autorama, "mare": mare}


def finished(name: str, seed: int) -> AnyGame:
    """A game of ``name`` played to its end by seeded random commands."""
    game = MODULES[name].new_game(NAMES[name], seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
    return game


def stored(*games: tuple[str, AnyGame]) -> GameStore:
    """A store holding each game under its id, with a server's record (bots in every seat)."""
    store = GameStore(MemoryEventStore())
    for game_id, game in games:
        name = next(name for name, module in MODULES.items() if isinstance(game, module.Game))
        table = Table(name, tuple(Seat(player, None, "random") for player in NAMES[name]))
        store.create(game_id, game, {**table.to_metadata(), **summary_of(game), "client": "c"})
    return store


def ask(
    store: GameStore,
    paths: Sequence[str],
    limits: ServerLimits = ServerLimits(),  # noqa: B008  ServerLimits is frozen
) -> list[httpx.Response]:
    """GET each of ``paths`` in turn from one app over ``store``."""
    app = create_app(store, limits=limits)

    async def fetch() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return [await client.get(path) for path in paths]

    with ThreadPoolExecutor(1) as pool:  # the browser tests' Playwright may run a loop here
        return pool.submit(anyio.run, fetch).result()


def seen_by(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


@pytest.mark.parametrize(("name", "seed"), [("avanti", 5), ("autorama", 2), ("mare", 3)])
def test_each_step_is_what_the_seat_was_shown_then(name: str, seed: int) -> None:
    """Every seat's and the spectator's replay: at each step (after the opening events, then
    after each command) the seat's events since the step before (``events_for``), its view,
    the seats awaited, the table's words for those events and the table's picture, each as the
    game cut at that version gives them."""
    game = finished(name, seed)
    info = catalog.GAMES[name]
    store = stored((FINISHED, game))
    cause = type(game).rules.cause
    commands = [i for i, event in enumerate(game.events) if cause(event) is not None]
    versions = [*commands, game.version]
    cuts = {version: type(game).replay(game.setup, game.events[:version]) for version in versions}
    for seat in [None, *range(len(NAMES[name]))]:
        path = f"/games/{FINISHED}/replay?seen_by={seen_by(seat)}"
        (answer,) = ask(store, [path])
        assert answer.status_code == 200, answer.text
        replay = answer.json()
        openapi_validator(f"{name}.Replay").validate(replay)
        assert replay["seen_by"] == seat
        assert replay["players"] == NAMES[name]
        assert replay["version"] == game.version
        steps = replay["steps"]
        assert [step["version"] for step in steps] == versions
        before = 0
        for step in steps:
            then = cuts[step["version"]]
            assert step["events"] == json.loads(json.dumps(events_data(then, seat, before)))
            assert step["view"] == json.loads(json.dumps(view_data(then, seat)))
            assert step["waiting"] == list(then.waiting)
            words = table_data(then, info, seat, before)
            assert isinstance(words, dict)
            assert step["lines"] == [line["text"] for line in words["history"]]
            before = step["version"]
        shown = [0, 1, len(steps) // 2, len(steps) - 1]
        pictures = ask(
            store,
            [
                f"/games/{FINISHED}/replay/{steps[i]['version']}?seen_by={seen_by(seat)}"
                for i in shown
            ],
        )
        for index, picture in zip(shown, pictures, strict=True):
            assert picture.status_code == 200, picture.text
            data = picture.json()
            openapi_validator(f"{name}.ReplayPicture").validate(data)
            version = steps[index]["version"]
            table = table_data(cuts[version], info, seat, 0)
            assert isinstance(table, dict)
            assert data["svg"] == table["svg"]  # the table's own picture then
            assert {**data, "svg": None, "seen_by": None} == {
                **steps[index],
                "svg": None,
                "seen_by": None,
            }


def test_a_seat_replay_is_the_seat_own_and_the_last_step_is_the_end() -> None:
    """Seat 0 sees its own hand at every step of an Avanti replay, another seat's never (A30);
    the last step's view is the final one, and the answer carries the outcome."""
    game = finished("avanti", 5)
    store = stored((FINISHED, game))
    mine, theirs = (
        answer.json()
        for answer in ask(
            store, [f"/games/{FINISHED}/replay?seen_by=0", f"/games/{FINISHED}/replay?seen_by=1"]
        )
    )
    for step in mine["steps"]:
        assert step["view"]["seat"] == 0
        assert step["view"]["hand"] is not None
    assert [step["view"]["hand"] for step in mine["steps"]] != [
        step["view"]["hand"] for step in theirs["steps"]
    ]
    assert mine["outcome"]["winners"] == list(game.outcome.winners)
    assert mine["steps"][-1]["view"] == json.loads(json.dumps(view_data(game, 0)))


def test_a_game_that_goes_on_an_open_table_and_bad_asks_are_refused() -> None:
    """Only a finished game is replayed: one that goes on is 409 ``not-over`` (its replay
    would show a seat's hand to anyone); a bad ``seen_by``, ``layout`` or version is 400, a
    version no step ends at 404 ``not-found``, an unknown game 404."""
    going_on = avanti.new_game(NAMES["avanti"], seed=1).execute(avanti.PlaceEventMarker(0, 12))
    game = finished("mare", 3)
    store = stored((FINISHED, game), (GOING_ON, going_on))
    base = f"/games/{FINISHED}/replay"
    answers = ask(
        store,
        [
            f"/games/{GOING_ON}/replay",
            f"/games/{GOING_ON}/replay?seen_by=0",
            f"/games/{GOING_ON}/replay/0",
            f"{base}?seen_by=2",
            f"{base}?seen_by=-1",
            f"{base}?seen_by=%C2%B2",
            f"{base}?seen_by=Ann",
            f"{base}/1",
            f"{base}/x",
            f"{base}/3?layout=tall",
            "/games/nosuchgame00000/replay",
            "/games/table.abc/replay",
            f"{base}/{game.version}?layout=narrow",
        ],
    )
    kinds = [(answer.status_code, answer.json().get("error", {}).get("kind")) for answer in answers]
    assert kinds == [
        (409, "not-over"),
        (409, "not-over"),
        (409, "not-over"),
        (400, "bad-request"),
        (400, "bad-request"),
        (400, "bad-request"),
        (400, "bad-request"),
        (404, "not-found"),
        (400, "bad-request"),
        (400, "bad-request"),
        (404, "unknown-game"),
        (404, "unknown-game"),
        (200, None),
    ]
    narrow = answers[-1].json()["svg"]
    assert narrow == mare.picture(
        game.view(None), table=game.public_setup, last=game.last_events(None), layout="narrow"
    )


def test_a_replay_longer_than_the_answer_limit_is_refused() -> None:
    store = stored((FINISHED, finished("mare", 3)))
    (answer,) = ask(store, [f"/games/{FINISHED}/replay"], ServerLimits(lab_answer_bytes=2_000))
    assert answer.status_code == 413
    assert answer.json()["error"]["kind"] == "too-large"


def test_the_log_is_folded_once_per_seat_and_the_replay_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Building a replay folds the log once (every event once, never a prefix again, so the
    work grows with the game's length); the app builds a seat's replay once and steps
    through it, and asks for it again, without building it again."""
    game = finished("avanti", 5)
    rules = avanti.Game.rules
    folded: list[int] = []

    def counting(state: Any, events: Any) -> Any:
        events = tuple(events)
        folded.append(len(events))
        return rules.fold(state, events)

    with monkeypatch.context() as patch:
        patch.setattr(avanti.Game, "rules", attrs.evolve(rules, fold=counting))
        replay = seat_replay(game, catalog.GAMES["avanti"], 1)
    assert sum(folded) == game.version
    assert len(folded) == len(replay.versions)

    built: list[int | None] = []

    def building(*args: Any) -> Any:
        built.append(args[2])
        return seat_replay(*args)

    monkeypatch.setattr(replay_module, "seat_replay", building)
    store = stored((FINISHED, game))
    path = f"/games/{FINISHED}/replay?seen_by=1"
    steps = [f"/games/{FINISHED}/replay/{version}?seen_by=1" for version in replay.versions]
    answers = ask(store, [path, *steps, path, *steps, f"/games/{FINISHED}/replay"])
    assert [answer.status_code for answer in answers] == [200] * len(answers)
    assert built == [1, None]


def _replays(game: AnyGame, name: str, seat: int | None) -> list[str]:
    """``seat``'s replay of ``game`` as the server sends it: the steps and each step's
    picture, as text."""
    replay = seat_replay(game, catalog.GAMES[name], seat, FINISHED)
    texts = [replay.body.decode()]
    for version in replay.versions:
        texts.append(json.dumps(replay.step(version), sort_keys=True))
    return texts


@pytest.mark.parametrize("seed", [5, 8, 13])
@pytest.mark.parametrize("seat", [None, 0])
def test_twins_that_differ_in_hidden_facts_give_the_same_replay(
    seed: int, seat: int | None
) -> None:
    """Two finished games of Avanti that differ only in facts hidden from ``seat`` all game
    long (every card it never saw relabelled, the numbers other seats laid and never drove
    changed, A30) give ``seat`` the same replay, every step's picture included: a replay holds
    what the seat was shown, never more, and the spectator's only public facts. (A finished
    game of For Sale: Autorama or Avanti mare! keeps no fact hidden to the end: every card
    and offer is shown by then.)"""
    name = "avanti"
    game = finished(name, seed)
    twin = games_avanti.twin(game, seat, random.Random(seed))
    assert twin.is_over
    assert twin.events != game.events  # the twin's hidden facts differ
    assert _replays(twin, name, seat) == _replays(game, name, seat)
    if seat == 0:  # another seat saw what seat 0 did not: its replay tells the twins apart
        assert _replays(twin, name, 1)[0] != _replays(game, name, 1)[0]


def test_the_replays_kept_are_the_last_asked_for_within_a_count_and_bytes() -> None:
    game = finished("mare", 3)
    info = catalog.GAMES["mare"]
    replays = [seat_replay(game, info, seat) for seat in (None, 0, 1)]
    size = len(replays[0].body)
    kept = Kept(most=2, most_bytes=10 * size)
    for replay in replays:
        kept.keep("g", replay)
    assert len(kept) == 2
    assert kept.get("g", None) is None  # the oldest went first
    assert kept.get("g", 0) is replays[1]
    kept.keep("h", replays[0])  # seat 1's is now the one asked for longest ago
    assert kept.get("g", 1) is None
    assert kept.get("g", 0) is replays[1]
    small = Kept(most=10, most_bytes=size + size // 2)
    for replay in replays:
        small.keep("g", replay)
    assert len(small) == 1  # the bytes bound: only the newest fits
    assert small.get("g", 1) is replays[2]
