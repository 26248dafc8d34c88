"""The rules lab under attack: two findings of the server's security review, each on a real
server (but the one number uvicorn's own parser refuses, read in process).

1. One address saturated the server with the lab: every case ran at once in a thread of its
   own, ``/lab/replay`` replayed the game from its start at every step, and an answer could
   grow to megabytes. Now the lab works within a budget (``lab_workers`` jobs at once,
   ``lab_queue`` waiting, ``lab_jobs_per_client`` per address; beyond, 503 ``busy`` or 429
   ``rate-limited`` at once, while ``/health`` and the games answer), a replay folds each event
   once, and an answer longer than ``lab_answer_bytes`` is 413 ``too-large``.
7. ``?seen_by=²`` (or ``①``) was 500 and ``?seen_by=١`` a seat: ``isdigit`` takes other
   scripts' digits. Every number of a request is now read in ASCII digits alone, by one reader.

A lab job is held running by putting a waiting function in place of the lab's work
(:class:`Held`), so nothing here depends on how fast the machine is: every wait ends when what
it waits for happens, and :data:`PATIENCE` only stops a broken test from hanging.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import attrs
import httpx
import pytest

from avanti import mare
from avanti.server import create_app
from avanti.server.transport import lab
from avanti.store import MemoryEventStore
from tests.server.support import PATIENCE, ROOMY, Served, serving, wait_for

ROOT = Path(__file__).parents[2]
A21 = json.loads((ROOT / "docs/lab/avanti-a21-last-car.json").read_text(encoding="utf-8"))


class Held:
    """The lab's case work (``compare_data``) replaced by one that waits until :attr:`release`
    is set, then does the work: a lab job held running as long as a test needs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        """How many lab jobs have started work."""
        self.release = threading.Event()
        self._work = lab.compare_data
        monkeypatch.setattr(lab, "compare_data", self)

    def __call__(self, case: Any, seen_by: int | None = None) -> Any:
        self.calls += 1
        assert self.release.wait(PATIENCE), "the held lab job was never released"
        return self._work(case, seen_by)


@contextmanager
def client_at(served: Served, address: str) -> Iterator[httpx.Client]:
    """An HTTP client of ``served`` whose requests come from another loopback ``address``."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=served.url, timeout=PATIENCE, transport=transport) as client:
        yield client


@contextmanager
def in_background(served: Served, address: str = "127.0.0.1") -> Iterator[Callable[..., Any]]:
    """Send requests to ``served`` from ``address`` in a thread of their own: each call
    (``post(path, json=...)``) returns the future of its response."""
    with client_at(served, address) as client, ThreadPoolExecutor(4) as pool:

        def post(path: str, **options: Any) -> Future[httpx.Response]:
            return pool.submit(client.post, path, **options)

        yield post


def refused(reply: httpx.Response, status: int, kind: str) -> None:
    assert reply.status_code == status, reply.text[:300]
    assert reply.json()["error"]["kind"] == kind


def short_game() -> Any:
    """A game of Avanti mare! three commands in."""
    game = mare.new_game(["Ann", "Bob"], seed=1)
    for _ in range(3):
        game = game.execute(game.legal_commands()[0])
    return game


def budget(**lab_limits: Any) -> Any:
    """Roomy limits but for the lab's."""
    return attrs.evolve(ROOMY, **lab_limits)


# -- 1. the lab within a budget ------------------------------------------------------------------


def test_1_a_lab_job_beyond_the_budget_is_refused_at_once_and_the_games_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = Held(monkeypatch)
    limits = budget(lab_workers=1, lab_queue=0, lab_jobs_per_client=1)
    with (
        serving(tmp_path / "games.db", limits=limits) as served,
        in_background(served) as post,
        client_at(served, "127.0.0.2") as elsewhere,
    ):
        created = served.create("mare", ["Ann", "Bob"])
        token = created["seats"][0]["token"]
        first = post("/lab/compare", json=A21)
        wait_for(lambda: held.calls == 1, "the first lab job to start")

        refused(served.http.post("/lab/compare", json=A21), 429, "rate-limited")
        document = {"document": mare.dumps(short_game())}
        refused(served.http.post("/lab/replay", json=document), 429, "rate-limited")
        refused(elsewhere.post("/lab/compare", json=A21), 503, "busy")
        assert served.http.get("/health").json() == {"status": "ok"}
        seat = served.http.get(
            f"/games/{created['id']}", headers={"Authorization": f"Bearer {token}"}
        )
        assert seat.status_code == 200
        assert seat.json()["seat"] == 0
        assert held.calls == 1  # the refused requests did no work

        held.release.set()
        answer = first.result(PATIENCE)
        assert answer.status_code == 200
        assert answer.json()["case"] == A21
        assert served.http.post("/lab/compare", json=A21).status_code == 200
        assert elsewhere.post("/lab/replay", json=document).status_code == 200
        assert held.calls == 2


def test_1_jobs_wait_in_the_queue_up_to_its_limit_one_worker_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = Held(monkeypatch)
    limits = budget(lab_workers=1, lab_queue=1, lab_jobs_per_client=1)
    with (
        serving(tmp_path / "games.db", limits=limits) as served,
        in_background(served) as post_here,
        in_background(served, "127.0.0.2") as post_there,
        client_at(served, "127.0.0.3") as third,
    ):
        app: Any = served.server.config.app
        jobs = app.state
        first = post_here("/lab/compare", json=A21)
        wait_for(lambda: held.calls == 1, "the first lab job to start")
        second = post_there("/lab/compare", json=A21)
        wait_for(lambda: jobs.lab_jobs.under_way == 2, "the second lab job to wait")

        refused(third.post("/lab/compare", json=A21), 503, "busy")
        assert third.get("/health").status_code == 200
        assert held.calls == 1  # one worker: the second job waits for it

        held.release.set()
        assert first.result(PATIENCE).status_code == 200
        assert second.result(PATIENCE).status_code == 200
        assert held.calls == 2
        assert jobs.lab_jobs.under_way == 0
        assert third.post("/lab/compare", json=A21).status_code == 200


def test_1_replay_folds_each_event_of_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stepping through a game of N events folds N events (and the opening once more, when the
    document is read), where replaying from the start at every step folded about N*N/2."""
    game = mare.new_game(["A", "B", "C", "D", "E", "F"], seed=2)
    rng = random.Random(2)
    while game.legal_commands():
        game = game.execute(rng.choice(game.legal_commands()))
    document = {"document": mare.dumps(game)}
    rules = mare.Game.rules
    folded = 0

    def counting(state: Any, events: Any) -> Any:
        nonlocal folded
        events = tuple(events)
        folded += len(events)
        return rules.fold(state, events)

    monkeypatch.setattr(mare.Game, "rules", attrs.evolve(rules, fold=counting))
    with serving(tmp_path / "games.db") as served:
        answer = served.http.post("/lab/replay", json=document)
    assert answer.status_code == 200
    steps = answer.json()["steps"]
    assert steps[-1]["version"] == game.version
    assert len(steps) > 20
    assert game.version <= folded <= 2 * game.version


def test_1_an_answer_longer_than_the_limit_is_refused_with_its_size(tmp_path: Path) -> None:
    with serving(tmp_path / "games.db", limits=budget(lab_answer_bytes=20_000)) as served:
        compared = served.http.post("/lab/compare", json=A21)
        refused(compared, 413, "too-large")
        assert "more than the lab's 20,000" in compared.json()["error"]["message"]
        assert "play fewer commands" in compared.json()["error"]["message"]
        replayed = served.http.post("/lab/replay", json={"document": mare.dumps(short_game())})
        refused(replayed, 413, "too-large")
        assert "open a shorter game" in replayed.json()["error"]["message"]
        again = served.http.post("/lab/replay", json={"document": mare.dumps(short_game())})
        refused(again, 413, "too-large")  # the refused jobs left nothing running


# -- 7. numbers in ASCII digits alone -------------------------------------------------------------


@pytest.mark.parametrize("seat", ["²", "①", "١", "٣"])
def test_7_a_seat_in_other_digits_is_refused_naming_seen_by(tmp_path: Path, seat: str) -> None:
    document = {"document": mare.dumps(short_game())}
    with serving(tmp_path / "games.db") as served:
        for path, body in (("/lab/compare", A21), ("/lab/replay", document)):
            reply = served.http.post(path, params={"seen_by": seat}, json=body)
            refused(reply, 400, "bad-request")
            assert "seen_by" in reply.json()["error"]["message"]
        assert served.http.post("/lab/replay?seen_by=1", json=document).status_code == 200


def test_7_every_number_of_a_request_is_read_in_ascii_digits_alone(tmp_path: Path) -> None:
    """``?after=`` and ``?limit=`` on a real server, and a ``Content-Length`` of ``²`` in
    process: uvicorn's parser refuses that header itself, another ASGI server may not."""
    with serving(tmp_path / "games.db") as served:
        created = served.create("mare", ["Ann", "Bob"])
        for path in (f"/games/{created['id']}/table", f"/games/{created['id']}"):
            for text in ("²", "١", "+1", " 1"):
                reply = served.http.get(path, params={"after": text})
                refused(reply, 400, "bad-request")
                assert "?after=" in reply.json()["error"]["message"]
        refused(served.http.get("/games", params={"limit": "①"}), 400, "bad-request")

    app = create_app(MemoryEventStore(), limits=ROOMY)

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post(
                "/lab/compare",
                content=json.dumps(A21).encode(),
                headers={b"content-type": b"application/json", b"content-length": b"\xb2"},
            )

    assert anyio.run(send).status_code == 200
