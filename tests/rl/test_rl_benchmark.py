"""The RL benchmark's smoke run: one game per loop, every table printed, no time asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "rl.py"


def test_the_smallest_run_prints_every_table_and_the_targets() -> None:
    small = ["--games", "1", "--repeats", "1", "--mcts-games", "1", "--simulations", "2"]
    small += ["--mcts-split", "--baseline", str(SCRIPT.parents[1])]  # this tree against itself
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *small],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    rows = [line.split("|")[1].strip() for line in lines if line.startswith("| ")]
    for game in ("avanti (4)", "mare (3)", "autorama (4)"):
        assert rows.count(game) == 2  # a playout row and an environment row
    assert "python_kuhn_poker (same loop)" in rows
    assert "python_block_dominoes (same loop)" in rows
    assert "PettingZoo's floor (an env that does nothing, same loop)" in rows
    assert any(row.startswith("texas_holdem_v4") for row in rows)  # figures, or "not installed"
    assert any(line.startswith("MCTS (2 simulations") for line in lines)
    turns = [line for line in lines if line.startswith("MCTS in turns")]
    assert len(turns) == 1
    assert turns[0].endswith("x as fast")
    assert any(line.startswith("MCTS's time per game:") for line in lines)
    assert lines[-1].startswith("targets (explicit <= 2.0x, sampled <= 1.2x, step <= 1.3x):")
    assert lines[-1].endswith("of 9 met")
