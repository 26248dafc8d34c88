"""Development tasks. ``nox`` runs every default session: the whole test gate."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
# A Python the package supports but this machine lacks skips its sessions with one line naming
# it (``nox --error-on-missing-interpreters`` fails instead); nox never downloads one.
nox.options.error_on_missing_interpreters = False
nox.options.download_python = "never"
nox.options.sessions = ["lint", "typecheck", "tests", "examples", "docs", "build"]

PYTHONS = ["3.11", "3.12", "3.13"]
"""Every Python the package supports (pyproject's classifiers); ``tests`` runs on each."""

MAIN_PYTHON = PYTHONS[0]
"""The Python of the full run: coverage and the ``ci`` Hypothesis profile. The others run the
same tests with the ``light`` profile and without coverage, to find what differs by version."""

LONG_RUNS = (
    "tests/mare/test_monte_carlo.py",
    "tests/server/test_load.py",
    "tests/store/test_benchmark.py",
    "tests/test_benchmarks.py",
    "tests/rl/test_rl_benchmark.py",
    "tests/browser",
)
"""Tests that play thousands of games, run the benchmarks small, or drive a browser: the first
Python runs them; the others leave them out, to keep the gate's time. The browser tests play
whole games through the pages (a third of the first Python's test time), and the pages are the
same files on every Python; the server under them is tested on each Python by
``tests/server``."""

_PYTHON_LINKS = Path(__file__).parent / ".nox" / "_pythons"


def _works(interpreter: str, version: str) -> bool:
    """Whether ``interpreter`` runs and is Python ``version`` (a version manager's shim for a
    version it has not activated fails)."""
    probe = "import sys; print('%d.%d' % sys.version_info[:2])"
    try:
        done = subprocess.run(
            [interpreter, "-c", probe], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == version


def _find_pythons() -> None:
    """Put each supported Python on ``PATH`` for nox as ``python3.X``: one already there if it
    runs, else the newest ``~/.pyenv/versions/3.X.*`` (linked from ``.nox/_pythons``). One
    missing everywhere is named in one line, and its sessions are skipped."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for version in PYTHONS:
        name = f"python{version}"
        found = shutil.which(name)
        if found and _works(found, version):
            continue
        candidates = sorted(
            pyenv.glob(f"{version}.*/bin/{name}"),
            key=lambda path: [int(part) for part in path.parts[-3].split(".") if part.isdigit()],
        )
        working = [path for path in candidates if _works(str(path), version)]
        if not working:
            nox.logger.logger.warning(
                f"Python {version} not found (not on PATH, not in {pyenv}): its sessions "
                f"(tests-{version}) are skipped; install it to test the package on it"
            )
            continue
        _PYTHON_LINKS.mkdir(parents=True, exist_ok=True)
        link = _PYTHON_LINKS / name
        link.unlink(missing_ok=True)
        link.symlink_to(working[-1])
        path = os.environ.get("PATH", "")
        if not path.startswith(f"{_PYTHON_LINKS}{os.pathsep}"):
            os.environ["PATH"] = f"{_PYTHON_LINKS}{os.pathsep}{path}"


_find_pythons()


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff: lint rules and formatting."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(venv_backend="uv|venv")
def typecheck(session: nox.Session) -> None:
    """``mypy --strict`` over src, tests and examples."""
    session.install(
        "-e",
        ".[test,cli,plot,postgres,server,rl,ray]",
        "mypy>=1.10",
        "nox>=2024.4",
        "types-jsonschema",
    )
    session.run("mypy", "--strict")


@nox.session(python=PYTHONS, venv_backend="uv|venv")  # uv fills a venv in seconds, where found
def tests(session: nox.Session) -> None:
    """pytest with Hypothesis on every supported Python, one worker per core (pytest-xdist, a
    test file to a worker): on the first, under branch coverage; on the others with the
    ``light`` Hypothesis profile and without ``LONG_RUNS``. The PostgreSQL store's tests start a
    private PostgreSQL server of their own (Debian's ``postgresql`` package), the server's tests
    a uvicorn on a loopback port, the simulator's a local Ray cluster, and the browser tests a
    headless Chromium (Debian's ``chromium`` package)."""
    session.install("-e", ".[test,cli,postgres,server,rl,ray]")
    parallel = ["-n", os.environ.get("AVANTI_TEST_WORKERS", "auto"), "--dist", "loadfile"]
    if session.python == MAIN_PYTHON:
        coverage = ["--cov", "--cov-report=term-missing:skip-covered", "--cov-fail-under=98"]
        session.run("pytest", *parallel, *coverage, *session.posargs)
    else:
        light = {"HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "light")}
        skipped = [f"--ignore={path}" for path in LONG_RUNS]
        session.run("pytest", *parallel, *skipped, *session.posargs, env=light)


@nox.session(venv_backend="uv|venv")
def examples(session: nox.Session) -> None:
    """Run every script in examples/; each asserts the rulebook's numbers (the learning agent
    trains a few hundred games, with numpy)."""
    session.install("-e", ".[cli]", "numpy")
    for script in sorted(Path("examples").glob("*.py")):
        session.run("python", str(script), silent=True)


@nox.session(venv_backend="uv|venv")
def docs(session: nox.Session) -> None:
    """Build the Sphinx site with warnings as errors, then run every doctest in it."""
    session.install("-e", ".[docs]")  # the docs extra alone builds the docs
    session.run(
        "sphinx-build", "-E", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )
    session.run(
        "sphinx-build", "-E", "-W", "--keep-going", "-b", "doctest", "docs", "docs/_build/doctest"
    )


@nox.session
def build(session: nox.Session) -> None:
    """The package as users get it: build the sdist and the wheel into ``dist/``, check their
    metadata (``twine check --strict``), list what is inside them, then run tests/packaging,
    which checks their contents and installs the wheel into a fresh virtual environment with
    each extra, outside the checkout, to run that extra's smoke test."""
    session.install(
        "build", "twine", "uv", "pytest", "hypothesis", "pyyaml", "psycopg[binary]>=3.2"
    )
    dist = Path("dist")
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", str(dist))  # the wheel is built from the sdist
    built = sorted(str(path) for path in dist.iterdir())
    session.run("twine", "check", "--strict", *built)
    for path in built:
        module = "zipfile" if path.endswith(".whl") else "tarfile"
        session.run("python", "-m", module, "-l", path)
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        "tests/packaging",
        *session.posargs,
        env={"AVANTI_DIST": str(dist.resolve())},
    )


@nox.session(default=False)
def api(session: nox.Session) -> None:
    """Rewrite tests/api/public_api.txt, the snapshot of the public API, from the live modules
    (review its diff: every line is a public name, its kind and signature)."""
    session.install("-e", ".[test,cli,postgres,server,rl,ray]")
    session.run("pytest", "tests/api", env={"AVANTI_REGENERATE_API": "1"})


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Benchmarks side by side with OpenSpiel's pure-Python games (not part of the gate)."""
    session.install("-e", ".", "open-spiel")
    session.run("python", "benchmarks/run.py", *session.posargs)
    session.run("python", "benchmarks/anatomy.py")


@nox.session(default=False)
def rlbench(session: nox.Session) -> None:
    """The learning tools beside the library's loop and the ecosystem's games, in one run:
    pyspiel playouts with explicit and sampled chance, PettingZoo steps, PettingZoo's
    ``texas_holdem_v4`` (rlcard) and ``connect_four_v3`` (pygame), OpenSpiel's
    ``python_kuhn_poker`` and ``python_block_dominoes``, and OpenSpiel's MCTS on Avanti mare!
    (not part of the gate)."""
    session.install("-e", ".[rl]", "pygame", "rlcard", "termcolor")
    session.run("python", "benchmarks/rl.py", *session.posargs)


@nox.session(default=False)
def postgres(session: nox.Session) -> None:
    """The PostgreSQL store's tests and the game server's on PostgreSQL, alone, on a private
    server they start and stop themselves (needs Debian's ``postgresql`` package, or
    PostgreSQL's server binaries on the PATH)."""
    session.install("-e", ".[test,postgres,server]")
    session.run(
        "pytest", "tests/store/test_postgres.py", "tests/server/test_postgres.py", *session.posargs
    )


@nox.session(default=False)
def storebench(session: nox.Session) -> None:
    """The event stores side by side (memory, SQLite FULL and NORMAL, PostgreSQL on a private
    server it starts): appends per second, reads by log length, loading a whole game, and
    ``GameStore.execute`` against a bare ``Game.execute`` (not part of the gate, which runs it
    small)."""
    session.install("-e", ".[test,postgres]")
    session.run("python", "benchmarks/store.py", *session.posargs)


@nox.session(default=False)
def serverload(session: nox.Session) -> None:
    """The game server under boardgame.io's anchor load: 201 WebSocket seats at 67 three-player
    tables answering at once, 10 s of warm-up then 40 s measured, on SQLite with one and two
    ``avanti serve`` processes and on PostgreSQL (a private server it starts, fsync on), then
    every stored game replayed and checked (not part of the gate, which runs it small)."""
    session.install("-e", ".[test,server,postgres]")
    session.run("python", "benchmarks/serverload.py", *session.posargs)


@nox.session(default=False)
def serverbench(session: nox.Session) -> None:
    """``avanti serve`` beside boardgame.io's server in one sitting: the anchor's load on both,
    each from Node (avanti's from ``benchmarks/load.js``, its ``ws`` installed once into a cache
    folder with ``npm ci``), alternating, two rounds each, with the transport floor, and one
    table of figures and ratios (needs Node.js and the anchor folder, ``--anchor``; about 11
    minutes); then the road of one WebSocket command through ``src/`` (``benchmarks/road.py``:
    the files it passes and where it turns back)."""
    session.install("-e", ".[test,server,postgres]")
    session.run("python", "benchmarks/beside_bgio.py", *session.posargs)
    session.run("python", "benchmarks/road.py")


@nox.session(default=False)
def hostile(session: nox.Session) -> None:
    """Hostile inputs (huge boards, junk events, huge cash, deep nesting, long names): time, peak
    memory and memory kept per refusal (not part of the gate, which runs it small)."""
    session.install("-e", ".")
    session.run("python", "benchmarks/hostile.py", *session.posargs)


@nox.session(default=False)
def transcripts(session: nox.Session) -> None:
    """Rewrite the golden playthrough transcripts in tests/golden/ (review the diff)."""
    session.install("-e", ".")
    session.run("python", "-m", "tests.golden")


@nox.session(default=False)
def soak(session: nox.Session) -> None:
    """Long runs: the exact mare odds against 100,000 games per policy, then the hardening
    properties with the ``soak`` Hypothesis profile (thousands of examples; runs for hours)."""
    session.install("-e", ".[test]")
    session.run("python", "benchmarks/mare_monte_carlo.py", *session.posargs)
    session.run("pytest", "tests/hardening", env={"HYPOTHESIS_PROFILE": "soak"})


@nox.session(default=False)
def bots(session: nox.Session) -> None:
    """The bot strength tables of docs/bots.md (heuristic v random, search v heuristic), then
    the search bot against OpenSpiel's IS-MCTS at equal time per move."""
    session.install("-e", ".[cli,rl]")
    session.run("python", "benchmarks/bots.py", *session.posargs)
    session.run("python", "benchmarks/headtohead.py")


@nox.session(default=False)
def simbench(session: nox.Session) -> None:
    """The simulator's engines side by side: games per second with one and two local workers
    and with Ray on two, against a control job, per game, and each engine's cost per task (not
    part of the gate, which runs it small)."""
    session.install("-e", ".[cli,ray]")
    session.run("python", "benchmarks/simulate.py", *session.posargs)


@nox.session(default=False)
def botflood(session: nox.Session) -> None:
    """Games of search bots only beside people's requests: the latency of ``/health`` and of a
    game's read while 19 five-bot games play (``-- --src OTHER/src`` measures another
    checkout's server the same way); not part of the gate."""
    session.install("-e", ".[test,server]")
    session.run("python", "benchmarks/botflood.py", *session.posargs)
