"""The event-store benchmark runs and prints every figure for every store, PostgreSQL included.

No time is asserted here: the figures are printed by ``nox -s storebench``, not checked. The
benchmark starts a private PostgreSQL server of its own, as the store's tests do (Debian's
``postgresql`` package).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg

from tests.store.pg import postgres_cluster, postgres_dsn

__all__ = ["postgres_cluster", "postgres_dsn"]

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "benchmarks" / "store.py"

STORES = ("memory", "SQLite FULL", "SQLite NORMAL", "PostgreSQL")

FIGURES = (
    r"appends / s \(one command each\)",
    r"append, median \(ms\)",
    r"appends / s, 1 writer threads",
    r"appends / s, 8 writer threads",
    r"appends / s, 40 writer threads",
    r"read 10 events \(ms\)",
    r"read 100 events \(ms\)",
    r"read 1,000 events \(ms\)",
    r"load \d+-event game, cache off \(ms\)",
    r"load \d+-event game, cache on \(ms\)",
    r"bare Game\.execute \(us\)",
    r"GameStore\.execute \(us\)",
    r"GameStore\.execute / bare",
)
"""Every figure line of the table, each followed by one number per store."""

NUMBER = re.compile(r"\d[\d,]*(\.\d+)?")


def run(*args: str) -> str:
    """The benchmark's output for a small run with ``args``."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--small", "--repeats", "1", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout


def table(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """The stores heading the table's columns, and each figure line's values."""
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("figure "))
    columns = [name for name in STORES if name in header]
    values: dict[str, list[str]] = {}
    for figure in FIGURES:
        found = [line for line in lines if re.match(figure + "  ", line)]
        assert len(found) == 1, f"{figure!r} is printed {len(found)} times"
        values[figure] = found[0][40:].split()
    return columns, values


def test_every_figure_is_printed_for_every_store() -> None:
    text = run()
    columns, values = table(text)
    assert columns == list(STORES)
    for figure, numbers in values.items():
        assert len(numbers) == len(STORES), f"{figure}: {numbers}"
        assert all(NUMBER.fullmatch(number) for number in numbers), f"{figure}: {numbers}"
    assert "PostgreSQL: a private server, fsync on" in text
    assert "not measured" not in text
    assert re.search(r"whole game loaded: Avanti, 5 players, seed 271, .*: \d+ events", text)
    assert re.search(r"fsync of a small file in .*: \d+\.\d+ ms", text)
    for store in ("SQLite FULL", "SQLite NORMAL"):
        assert re.search(
            store + r" executes a command in \d+ us; aim: under 10x a bare Game\.execute .* "
            r"plus the fsync .*: (met|MISSED)$",
            text,
            re.MULTILINE,
        )
    assert re.search(
        r"SQLite loads a whole Avanti game \(\d+ events\) in .* ms .*"
        r"aim: under 2 ms: (met|MISSED)$",
        text,
        re.MULTILINE,
    )


def test_the_json_report_on_an_existing_server_leaves_no_tables_behind(postgres_dsn: str) -> None:
    results: dict[str, Any] = json.loads(run("--json", "--postgres", postgres_dsn))
    assert list(results["stores"]) == list(STORES)
    assert results["notes"]["PostgreSQL"].startswith("an existing server")
    assert results["lengths"] == [10, 100, 1_000]
    for figures in results["stores"].values():
        assert figures["execute_ratio"] == (
            figures["store_execute_seconds"] / figures["bare_execute_seconds"]
        )
        assert set(figures["read_seconds"]) == {"10", "100", "1000"}
        assert figures["appends"] > 0
        assert set(figures["writers_appends_per_second"]) == {"1", "8", "40"}
        assert figures["commands_executed"] > 0
    assert set(results["verdicts"]) == {
        "SQLite FULL execute",
        "SQLite NORMAL execute",
        "SQLite load",
    }
    with psycopg.connect(postgres_dsn) as connection:
        left = connection.execute(
            "SELECT schema_name FROM information_schema.schemata "
            "WHERE schema_name LIKE 'avanti_bench_%'"
        ).fetchall()
    assert left == []


def test_an_unusable_postgres_is_one_line_and_the_others_are_measured() -> None:
    text = run("--postgres", "host=/nonexistent/avanti dbname=nothing")
    line = next(line for line in text.splitlines() if line.startswith("PostgreSQL:"))
    assert line.startswith("PostgreSQL: not measured: the database cannot be used: cannot connect")
    columns, values = table(text)
    assert columns == ["memory", "SQLite FULL", "SQLite NORMAL"]
    assert all(len(numbers) == 3 for numbers in values.values())
