"""``avanti serve``: no flags, an SQLite file in the current folder, a graceful stop on SIGTERM
that loses no acknowledged command.

The command runs in this test's own process (in the main thread, where uvicorn takes SIGTERM),
while a helper thread plays through real HTTP and WebSocket clients and then sends the signal.
"""

from __future__ import annotations

import gc
import io
import json
import logging
import os
import signal
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from avanti.cli import _parser, main
from avanti.cli.serve import DEFAULT_DATABASE, GC_THRESHOLDS, limits_from, open_store
from avanti.server import ServerLimits
from avanti.store import GameStore, SQLiteEventStore
from tests.server.support import PATIENCE, open_socket, receive, wait_for


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def quiet_root() -> Iterator[None]:
    """Put the root logger back as it was (``avanti serve`` adds its JSON handler)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


@pytest.fixture
def gc_as_it_was() -> Iterator[None]:
    """Put the garbage collector back as it was (``avanti serve`` sets it for its process)."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_serve_with_no_flags_keeps_games_in_avanti_db_and_stops_gracefully(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quiet_root: None, gc_as_it_was: None
) -> None:
    monkeypatch.chdir(tmp_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    seen: dict[str, Any] = {}

    def client() -> None:
        started = False
        try:
            with httpx.Client(base_url=url, timeout=PATIENCE) as http:

                def healthy() -> bool:
                    try:
                        return http.get("/health").status_code == 200
                    except httpx.TransportError:
                        return False

                wait_for(healthy, "avanti serve to answer")
                started = True
                seen["gc"] = (gc.get_threshold(), gc.get_freeze_count())
                created = http.post("/games", json={"game": "mare", "players": ["Ann", "Bob"]})
                game = seen["game"] = created.json()
                ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
                reply = http.post(
                    f"/games/{game['id']}/commands", json={"notation": "roll"}, headers=ann
                )
                seen["acknowledged"] = reply.json()["version"]
                ws = f"ws://127.0.0.1:{port}/games/{game['id']}/stream"
                with open_socket(ws, None) as watcher:
                    seen["update"] = receive(watcher)
                    os.kill(os.getpid(), signal.SIGTERM)
                    try:
                        receive(watcher)
                    except ConnectionClosed as closed:
                        seen["close"] = closed.rcvd.code if closed.rcvd else None
        except BaseException as error:
            seen["error"] = error
            if started:
                os.kill(os.getpid(), signal.SIGTERM)

    helper = threading.Thread(target=client)
    helper.start()
    out = io.StringIO()
    code = main(["serve", "--port", str(port)], out=out)
    helper.join(PATIENCE)
    assert "error" not in seen, seen.get("error")
    assert code == 0
    assert "stopped" in out.getvalue()
    assert seen["close"] == 1012  # service restart: reconnect later
    assert seen["gc"][0] == GC_THRESHOLDS  # a server's collector (what it loaded is frozen)
    assert seen["gc"][1] > 0
    assert seen["update"]["version"] == seen["acknowledged"]
    assert (tmp_path / DEFAULT_DATABASE).is_file()
    with SQLiteEventStore(tmp_path / DEFAULT_DATABASE) as store:
        stored = GameStore(store).load(seen["game"]["id"], verify=True)
    assert stored.version == seen["acknowledged"]


def test_serve_refuses_a_port_out_of_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "70000"], out=io.StringIO()) == 1
    assert "--port must be from 0 to 65535" in capsys.readouterr().err


def test_serve_help_ends_with_examples_that_parse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--database" in text
    examples = text.split("\nexamples:\n")[1].splitlines()
    assert [line.split()[:2] for line in examples] == [["avanti", "serve"]] * 2
    for line in examples:
        assert _parser().parse_args(line.split()[1:]).command == "serve"


def test_open_store_reads_a_path_as_an_sqlite_file(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "x.db")) as store:
        assert isinstance(store, SQLiteEventStore)
    assert json.dumps(DEFAULT_DATABASE) == '"avanti.db"'


def test_serve_on_a_taken_port_exits_with_1(
    tmp_path: Path, quiet_root: None, gc_as_it_was: None
) -> None:
    database = str(tmp_path / "games.db")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        argv = ["serve", "--database", database, "--port", str(taken.getsockname()[1])]
        assert main(argv, out=io.StringIO()) == 1
        codes: list[int] = []  # and from a thread, where uvicorn takes no signals
        helper = threading.Thread(target=lambda: codes.append(main(argv, out=io.StringIO())))
        helper.start()
        helper.join(PATIENCE)
        assert codes == [1]


def test_limits_from_reads_each_limit_by_name() -> None:
    limits = limits_from(["commands_per_second=2.5", "idle-timeout=600", "list_limit=7"])
    assert (limits.commands_per_second, limits.idle_timeout, limits.list_limit) == (2.5, 600.0, 7)
    assert limits.command_burst == ServerLimits().command_burst  # the others keep the default
    assert limits_from([]) == ServerLimits()


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("speed=3", "--limit takes NAME=VALUE with NAME one of body_timeout, chat_burst,"),
        ("commands_per_second", "--limit takes NAME=VALUE"),
        ("bot_kinds=random", "--limit takes NAME=VALUE"),
        ("list_limit=2.5", "--limit list_limit needs a whole number, not '2.5'"),
        ("idle_timeout=soon", "--limit idle_timeout needs a number, not 'soon'"),
        ("idle_timeout=-1", "idle_timeout must be a number of seconds or a rate above 0"),
    ],
)
def test_serve_refuses_a_bad_limit_before_it_opens_the_store(
    option: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--limit", option], out=io.StringIO()) == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / DEFAULT_DATABASE).exists()


def test_serve_takes_limits_and_trusts_no_forwarded_address_by_default(
    tmp_path: Path, quiet_root: None, gc_as_it_was: None
) -> None:
    port = free_port()
    seen: dict[str, Any] = {}

    def client() -> None:
        started = False
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE) as http:

                def healthy() -> bool:
                    try:
                        return http.get("/health").status_code == 200
                    except httpx.TransportError:
                        return False

                wait_for(healthy, "avanti serve to answer")
                started = True
                seen["gc"] = (gc.get_threshold(), gc.get_freeze_count())
                body = {"game": "mare", "players": ["Ann", "Bob"]}
                seen["first"] = http.post("/games", json=body).status_code
                # another address claimed through a header: the same client, the same bucket
                spoofed = {"X-Forwarded-For": "10.9.8.7"}
                seen["second"] = http.post("/games", json=body, headers=spoofed).status_code
        except BaseException as error:
            seen["error"] = error
        finally:
            if started:
                os.kill(os.getpid(), signal.SIGTERM)

    helper = threading.Thread(target=client)
    helper.start()
    argv = ["serve", "--database", str(tmp_path / "games.db"), "--port", str(port)]
    limits = ["--limit", "games_burst=1", "--limit", "games_per_second=0.01"]
    assert main([*argv, *limits], out=io.StringIO()) == 0
    helper.join(PATIENCE)
    assert "error" not in seen, seen.get("error")
    assert (seen["first"], seen["second"]) == (201, 429)
