"""The bot-flood benchmark, run once small: it serves, measures and prints its figures (no
speed is asserted: the gate's machines are shared)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_flood_benchmark_runs_small(tmp_path: Path) -> None:
    out = tmp_path / "flood.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "botflood.py"),
            "--games",
            "2",
            "--seconds",
            "1",
            "--bot",
            "heuristic",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "2 games of five heuristic bots" in done.stdout
    figures = json.loads(out.read_text())
    assert figures["health_ms"]["n"] == figures["read_ms"]["n"] >= 1
    assert figures["bot_timeouts"] == 0
