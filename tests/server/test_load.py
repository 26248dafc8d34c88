"""The server load benchmark runs small and prints every figure for every configuration.

``benchmarks/serverload.py --small`` starts real ``avanti serve`` processes (on SQLite with one
and two processes, and on a private PostgreSQL server it starts, as the store's tests do), plays
boardgame.io's load shape on them over real WebSockets for a few seconds a configuration (every
seat answering at once, tables renewed as games end), and replays every stored game. No time is
asserted here: the figures are printed by ``nox -s serverload``, not checked. What is checked is
that every figure is printed for every configuration, and that the replay check found nothing
lost, duplicated or corrupted.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "benchmarks" / "serverload.py"

CONFIGURATIONS = ("SQLite, 1 process", "SQLite, 2 processes", "PostgreSQL, 1 process")

NUMBER = r"\d[\d,]*(\.\d+)?"
MEASURED = rf"({NUMBER}|n/a)"
"""A figure of the window, which a very busy machine may leave without a sample."""
LATENCIES = rf"{MEASURED} / {MEASURED} / {MEASURED}"

FIGURES = (
    rf"accepted commands / s +{NUMBER} \({NUMBER} in the window; {NUMBER} accepted of "
    rf"{NUMBER} sent in all\)",
    rf"to each other seat p50/p90/p99 ms +{LATENCIES} \(max {MEASURED}, {NUMBER} samples\)",
    rf"to the mover p50/p90/p99 ms +{LATENCIES}",
    rf"server CPU per command \(ms\) +{MEASURED} \(servers {NUMBER} s(, {NUMBER} s)?, "
    rf"{NUMBER}% of a core\)",
    rf"server RSS \(MiB\) +{NUMBER}",
    r"errors +(none|[a-z0-9-]+ [\d,]+(, [a-z0-9-]+ [\d,]+)*)",
    r"server log +.*; exit codes \[0(, 0)?\]",
    rf"games +{NUMBER} created \(.*\), {NUMBER} finished",
    rf"CPU +clients {NUMBER} s in the window; machine busy {NUMBER}%",
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


def test_every_figure_and_the_replay_check_are_printed_for_every_configuration(
    tmp_path: Path,
) -> None:
    written = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--small", "--json", str(written)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    text = done.stdout
    assert "not measured" not in text
    assert text.startswith(
        "Game server under load: 18 seats at 6 tables, 1 s of warm-up then 2 s measured"
    )
    assert "tables: 2 x mare, 3 seats, 2 x avanti, 3 seats, 2 x autorama, 3 seats" in text
    assert "PostgreSQL: a private server, fsync on" in text
    found = blocks(text)
    assert list(found) == list(CONFIGURATIONS)
    for name, lines in found.items():
        lines = [line for line in lines if not line.startswith("error:")]
        assert len(lines) == len(FIGURES), (name, lines)
        for figure, line in zip(FIGURES, lines, strict=True):
            assert re.fullmatch(figure, line), (name, figure, line)
        assert re.match(r"replay check +0 games", lines[-1]) is None, name
    assert "replay check: nothing lost, duplicated or corrupted in 3 of 3 configurations" in text
    figures = json.loads(written.read_text(encoding="utf-8"))
    assert (figures["seats"], figures["tables"]) == (18, 6)
    assert list(figures["configurations"]) == list(CONFIGURATIONS)
    for measured in figures["configurations"].values():
        assert measured["replay_problems"] == 0
        assert measured["games_played"] == ["autorama", "avanti", "mare"]
        assert measured["commands_accepted"] > 0
        assert measured["commands_accepted"] <= measured["commands_sent"]


def test_avanti_alone_at_three_seats_a_table() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            *("--seats", "9", "--tables", "3", "--games", "avanti"),
            *("--warmup", "0.5", "--seconds", "1", "--configurations", "sqlite-1"),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "tables: 3 x avanti, 3 seats" in done.stdout
    assert list(blocks(done.stdout)) == ["SQLite, 1 process"]
    # A seat keeps one command under way (as the page does), and one process holds every game:
    # no command of the simultaneous steps (A8) is refused as stale.
    (errors,) = [line for line in blocks(done.stdout)["SQLite, 1 process"] if "errors" in line]
    assert "version-conflict" not in errors, errors
    assert "replay check: nothing lost, duplicated or corrupted in 1 of 1 configurations" in (
        done.stdout
    )


def test_a_plan_the_tables_cannot_seat_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--seats", "10", "--tables", "6"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--seats must be 3 to 5 times --tables" in done.stderr


def test_an_unknown_game_or_configuration_is_refused() -> None:
    for option, value, message in (
        ("--games", "chess", "--games must be all or one of mare, avanti, autorama"),
        ("--configurations", "sqlite-3", "--configurations takes sqlite-1, sqlite-2"),
    ):
        done = subprocess.run(
            [sys.executable, str(SCRIPT), option, value],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert done.returncode == 2, option
        assert message in done.stderr, (option, done.stderr)


def test_the_side_by_side_run_names_a_missing_anchor_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "beside_bgio.py"),
            *("--anchor", str(tmp_path / "nowhere"), "--cache", str(tmp_path / "cache")),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"beside_bgio: not measured: the boardgame.io anchor is not at {tmp_path / 'nowhere'} "
        "(give its folder with --anchor)\n"
    )
    assert not (tmp_path / "cache").exists()
