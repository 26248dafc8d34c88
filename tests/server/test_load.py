"""The server load benchmark runs small and prints every figure for every configuration.

``benchmarks/serverload.py --small`` starts real ``avanti serve`` processes (on SQLite, and on a
private PostgreSQL server it starts, as the store's tests do), plays them over real WebSockets for
a few seconds a configuration, and replays every stored game. No time is asserted here: the
figures are printed by ``nox -s serverload``, not checked. What is checked is that every figure
is printed for every configuration, and that the replay check found nothing lost, duplicated or
corrupted.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "benchmarks" / "serverload.py"

CONFIGURATIONS = (
    "SQLite, 1 process",
    "SQLite, 2 processes",
    "PostgreSQL, 1 process",
    "PostgreSQL, 2 processes",
)

NUMBER = r"\d[\d,]*(\.\d+)?"

FIGURES = (
    rf"commands / s +{NUMBER} \({NUMBER} acknowledged and pushed, {NUMBER} sent\)",
    rf"latency p50 / p99 \(ms\) +{NUMBER} / {NUMBER} \(max {NUMBER}\)",
    rf"to every seat p50 / p99 \(ms\) +{NUMBER} / {NUMBER}",
    r"errors +(none|[a-z0-9-]+ [\d,]+(, [a-z0-9-]+ [\d,]+)*)",
    r"server log +.*; exit codes \[.*\]",
    rf"games +{NUMBER} created \(.*\), {NUMBER} finished",
    rf"CPU +clients {NUMBER} s, servers .*; machine busy .*",
    rf"replay check +{NUMBER} games replayed with verify=True \(0 unreadable\), "
    rf"{NUMBER} seat streams, {NUMBER} events pushed: 0 lost, 0 duplicated, 0 corrupted, "
    r"0 out of order, 0 acknowledged commands missing",
)
"""Every line of a configuration's block (an error the server logged adds a line with its
message after ``server log``); the replay check must find nothing wrong."""


def blocks(text: str) -> dict[str, list[str]]:
    """Each configuration's lines, by its name (the line that heads its block)."""
    found: dict[str, list[str]] = {}
    for block in text.split("\n\n"):
        lines = block.splitlines()
        if lines and lines[0] in CONFIGURATIONS:
            found[lines[0]] = [line.strip() for line in lines[1:]]
    return found


def test_every_figure_and_the_replay_check_are_printed_for_every_configuration() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--small"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    text = done.stdout
    assert "not measured" not in text
    assert "PostgreSQL: a private server, fsync on" in text
    found = blocks(text)
    assert list(found) == list(CONFIGURATIONS)
    for name, lines in found.items():
        lines = [line for line in lines if not line.startswith("error:")]
        assert len(lines) == len(FIGURES), (name, lines)
        for figure, line in zip(FIGURES, lines, strict=True):
            assert re.fullmatch(figure, line), (name, figure, line)
        assert re.match(r"replay check +0 games", lines[-1]) is None, name
        assert re.search(
            rf"^verdict, {name}: p99 {NUMBER} ms at 20 seats, 0 lost, duplicated or corrupted; "
            r"aim: p99 under 50 ms, zero lost: (met|MISSED)$",
            text,
            re.MULTILINE,
        ), name
    assert re.search(
        r"^verdict: p99 under 50 ms at 20 seats with zero lost in [0-4] of 4 configurations$",
        text,
        re.MULTILINE,
    )


def test_a_plan_the_tables_cannot_seat_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--seats", "10", "--games", "6"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--seats must be 3 to 5 times --games" in done.stderr
