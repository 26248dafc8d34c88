"""Smoke tests of an installed avanti, one per extra, run by the interpreter of a fresh virtual
environment from a folder outside the checkout: ``python -I smoke.py EXTRA [ARGUMENT]``.

``core`` (the wheel with no extra) plays the README's game and keeps a game in SQLite, and
finds none of the extras' packages; each extra then uses what it brings: ``cli`` watches a game
of Avanti mare!, ``plot`` (beside ``cli``, whose ``simulate --plot`` draws) draws win rates to
a PNG, ``server`` runs the game server app under uvicorn, then ``avanti serve`` and
``avanti lab``, and talks to each over HTTP,
``postgres`` keeps a game on the PostgreSQL server named by ARGUMENT (a connection string),
``rl`` steps a PettingZoo environment and loads an OpenSpiel game, ``ray`` plays games on a
local Ray cluster. Each prints one line starting ``ok`` and exits 0, or fails with an
assertion naming what went wrong. It imports only the standard library and avanti.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import avanti

EXTRA_PACKAGES = {
    "cli": "rich",
    "plot": "matplotlib",
    "server": "starlette",
    "postgres": "psycopg",
    "rl": "pettingzoo",
    "ray": "ray",
}
"""One package each extra brings, which the wheel alone does not."""


def console_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run the ``avanti`` command this environment installed."""
    command = Path(sys.executable).with_name("avanti")
    assert command.exists(), f"no avanti command beside {sys.executable}"
    return subprocess.run(
        [str(command), *arguments], capture_output=True, text=True, timeout=300, check=False
    )


def installed_here() -> None:
    """The package comes from this environment's site-packages, not from a checkout."""
    location = Path(avanti.__file__).resolve()
    assert Path(sys.prefix).resolve() in location.parents, f"avanti imported from {location}"
    assert importlib.metadata.version("avanti") == avanti.__version__
    assert (location.parent / "py.typed").is_file()


def core(_: str) -> str:
    installed_here()
    present = sorted(p for p in EXTRA_PACKAGES.values() if importlib.util.find_spec(p))
    assert present == [], f"the wheel alone brought {present}"
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    game = game.execute(avanti.PlaceEventMarker(seat=0, space=12))
    game = game.execute(avanti.PlayCard(seat=1, card=19, number=4))
    assert game.view(seat=2).hand == (23, 2, 0)
    assert game.view(seat=2).has_laid == (False, True, False)
    assert avanti.loads(avanti.dumps(game)) == game == avanti.replay(game.setup, game.events)
    reason = None
    try:
        game.execute(avanti.PlayCard(seat=1, card=5, number=1))
    except avanti.IllegalCommand as error:
        reason = error.reason
    assert reason == "already-played", f"a second card in one round (A8): {reason}"

    from avanti import autorama, mare
    from avanti.store import GameStore, SQLiteEventStore

    for package in (mare, autorama):
        other = package.new_game(["Ann", "Bob", "Cy"], seed=3)
        assert package.loads(package.dumps(other)) == other
    with tempfile.TemporaryDirectory() as folder:
        with SQLiteEventStore(Path(folder) / "games.db") as events:
            GameStore(events).create("g1", game)
        with SQLiteEventStore(Path(folder) / "games.db") as events:
            assert GameStore(events).load("g1") == game

    version = console_script("--version")
    assert (version.returncode, version.stdout) == (0, f"avanti {avanti.__version__}\n"), version
    demo = console_script("demo", "--game", "mare", "--seed", "3")
    assert demo.returncode == 1, demo
    assert "needs rich" in demo.stderr, demo.stderr
    return f"core {avanti.__version__} from {Path(avanti.__file__).parent}"


def cli(_: str) -> str:
    installed_here()
    demo = console_script("demo", "--game", "mare", "--seed", "3")
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.rstrip().endswith(" events."), demo.stdout[-500:]
    return f"cli: avanti demo printed {len(demo.stdout.splitlines())} lines"


def plot(_: str) -> str:
    installed_here()
    with tempfile.TemporaryDirectory() as folder:
        picture = Path(folder) / "rates.png"
        arguments = ("simulate", "--game", "mare", "--games", "4", "--workers", "1")
        done = console_script(*arguments, "--plot", str(picture))
        assert done.returncode == 0, done.stderr
        data = picture.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), data[:8]
    return f"plot: a PNG of {len(data)} bytes"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as reply:  # loopback only
        status: int = reply.status
        return status, reply.read()


SERVE = """
import sys
import uvicorn
from avanti.server import create_app
from avanti.store import SQLiteEventStore
uvicorn.run(create_app(SQLiteEventStore(sys.argv[1])), host="127.0.0.1", port=int(sys.argv[2]))
"""
"""The game server on an SQLite file and a loopback port, as an app embeds it."""


def _answers(command: list[str], port: int, folder: str, paths: tuple[str, ...]) -> None:
    """Start ``command``, wait until ``/health`` answers on ``port``, GET each of ``paths``
    (each must answer 200 with JSON), then stop it. Its output goes to a log in ``folder``,
    shown when it stops before it answers."""
    base = f"http://127.0.0.1:{port}"
    log_path = Path(folder) / f"{Path(command[0]).name}-{port}.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    status, _ = _get(f"{base}/health")
                    break
                except OSError:
                    stopped = process.poll() is not None
                    assert not stopped, f"{command[1:]}: {log_path.read_text()[-2000:]}"
                    assert time.monotonic() < deadline, f"{command[1:]} did not answer in 60 s"
                    time.sleep(0.2)
            assert status == 200
            for path in paths:
                status, body = _get(f"{base}{path}")
                assert status == 200, (path, status)
                assert isinstance(json.loads(body), dict | list), body[:200]
        finally:
            process.terminate()
            process.wait(timeout=30)


def server(unused: str) -> str:
    """The app embedded under uvicorn, then the documented commands ``avanti serve`` and
    ``avanti lab`` as the ``server`` extra alone installs them (no ``cli`` extra, so no rich)."""
    installed_here()
    assert importlib.util.find_spec("rich") is None, "the server extra alone should bring no rich"
    command = str(Path(sys.executable).with_name("avanti"))
    ports = [_free_port() for _ in range(3)]
    with tempfile.TemporaryDirectory() as folder:
        database = str(Path(folder) / "games.db")
        embedded = [sys.executable, "-I", "-c", SERVE, database, str(ports[0])]
        _answers(embedded, ports[0], folder, ("/schemas/mare", "/games"))
        served = [command, "serve", "--database", database, "--port", str(ports[1])]
        _answers(served, ports[1], folder, ("/games",))
        _answers([command, "lab", "--port", str(ports[2])], ports[2], folder, ())
    return (
        "server: the embedded app, avanti serve and avanti lab answered "
        f"on ports {', '.join(map(str, ports))}"
    )


def postgres(dsn: str) -> str:
    installed_here()
    from avanti.store import GameStore
    from avanti.store.postgres import PostgresEventStore

    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    with PostgresEventStore(dsn) as events:
        games = GameStore(events)
        games.create("smoke", game)
        played = games.execute("smoke", avanti.PlaceEventMarker(seat=0, space=12))
    with PostgresEventStore(dsn) as events:
        assert GameStore(events).load("smoke") == played
    return f"postgres: a game of {played.version} events kept and read back"


def rl(_: str) -> str:
    installed_here()
    import avanti.rl

    environment: Any = avanti.rl.env("mare", players=2)
    environment.reset(seed=3)
    steps = 0
    for agent in environment.agent_iter(max_iter=200):
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        environment.step(int(next(i for i, legal in enumerate(mask) if legal)))
        steps += 1
        assert agent in environment.possible_agents
    assert steps > 0
    game: Any = avanti.rl.load_game("mare", players=2)
    state = game.new_initial_state()
    return f"rl: {steps} PettingZoo steps; OpenSpiel game {game} from {type(state).__name__}"


def ray(_: str) -> str:
    installed_here()
    from avanti.bots.engines import make_engine
    from avanti.bots.simulate import Plan, run

    engine = make_engine("ray", workers=1)
    try:
        records = run(Plan(game="mare", bots=("random", "random"), games=4), engine=engine)
    finally:
        engine.close()
    local = run(Plan(game="mare", bots=("random", "random"), games=4))
    assert records == local, "Ray's games differ from this process's"
    return f"ray: {len(records)} games on a local Ray cluster, the same as played here"


SMOKES: dict[str, Callable[[str], str]] = {"core": core, "cli": cli, "plot": plot}
SMOKES |= {"server": server, "postgres": postgres, "rl": rl, "ray": ray}
"""Each smoke test by the extra it tries (``core``: the wheel alone)."""


def main(arguments: list[str]) -> int:
    """Run the smoke test named by ``arguments[0]`` with ``arguments[1]`` (if any)."""
    os.environ.setdefault("PYTHONHASHSEED", "0")
    print("ok", SMOKES[arguments[0]](arguments[1] if len(arguments) > 1 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
