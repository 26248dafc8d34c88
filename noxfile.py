"""Development tasks. ``nox`` runs every default session: the whole test gate."""

from __future__ import annotations

from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["lint", "typecheck", "tests", "examples", "docs"]


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff: lint rules and formatting."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """``mypy --strict`` over src, tests and examples."""
    session.install(
        "-e", ".[test,cli,postgres,server]", "mypy>=1.10", "nox>=2024.4", "types-jsonschema"
    )
    session.run("mypy", "--strict")


@nox.session
def tests(session: nox.Session) -> None:
    """pytest with Hypothesis, under branch coverage; the PostgreSQL store's tests start a
    private PostgreSQL server of their own (Debian's ``postgresql`` package), and the server's
    tests a uvicorn on a loopback port."""
    session.install("-e", ".[test,cli,postgres,server]")
    session.run("coverage", "run", "-m", "pytest", *session.posargs)
    session.run("coverage", "report")


@nox.session
def examples(session: nox.Session) -> None:
    """Run every script in examples/; each asserts the rulebook's numbers."""
    session.install("-e", ".[cli]")
    for script in sorted(Path("examples").glob("*.py")):
        session.run("python", str(script), silent=True)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the Sphinx site with warnings as errors, then run every doctest in it."""
    session.install("-e", ".[docs,cli,postgres,server]")
    session.run(
        "sphinx-build", "-E", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )
    session.run(
        "sphinx-build", "-E", "-W", "--keep-going", "-b", "doctest", "docs", "docs/_build/doctest"
    )


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Benchmarks side by side with OpenSpiel's pure-Python games (not part of the gate)."""
    session.install("-e", ".", "open-spiel")
    session.run("python", "benchmarks/run.py", *session.posargs)
    session.run("python", "benchmarks/anatomy.py")


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
    """The game server under load: 200 WebSocket seats at 60 tables for 60 s, on SQLite and on
    PostgreSQL (a private server it starts), with one and two ``avanti serve`` processes, then
    every stored game replayed and checked (not part of the gate, which runs it small)."""
    session.install("-e", ".[test,server,postgres]")
    session.run("python", "benchmarks/serverload.py", *session.posargs)


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
    """The bot strength tables of docs/bots.md (heuristic v random, search v heuristic)."""
    session.install("-e", ".[cli]")
    session.run("python", "benchmarks/bots.py", *session.posargs)
