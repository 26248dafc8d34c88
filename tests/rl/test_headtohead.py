"""The head-to-head benchmark's small run: the table it prints for ``docs/bots.md``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "headtohead.py"


def test_the_small_run_prints_a_row_per_bot_with_its_seat_games() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--small"], capture_output=True, text=True, check=True
    )
    rows = [line for line in result.stdout.splitlines() if line.startswith("| Avanti mare!")]
    # mare's table is public: OpenSpiel's MCTS stands in for IS-MCTS there
    assert [row.split("|")[3].strip() for row in rows] == ["search", "MCTS"]
    cells = [[cell.strip() for cell in row.split("|")] for row in rows]
    assert [int(cell[7]) for cell in cells] == [2, 2]  # two games, one seat each (2 players)
    assert sum(int(cell[8]) for cell in cells) <= 2  # at most one side wins a game (M8)
