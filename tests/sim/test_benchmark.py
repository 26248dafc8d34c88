"""The simulator's benchmark runs and prints every figure (it checks no time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "simulate.py"


def test_the_benchmark_measures_every_engine_and_estimates_ten_machines(ray_cluster: Any) -> None:
    address = ray_cluster.get_runtime_context().gcs_address
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--small", "--json", "--address", address],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
        cwd=ROOT,
    )
    results = json.loads(done.stdout)
    engines = ["local-1", "local-2", "ray-2"]
    for figure in ("games_per_s", "games_per_s_one_game_per_task", "task_cost_ms", "speedup"):
        assert list(results[figure]) == engines
    assert results["speedup"]["local-1"] == 1.0
    estimate = results["estimate"]
    assert (estimate["machines"], estimate["workers"]) == (10, 20)
    assert estimate["driver_limit_games_per_s"] == 1e6 / results["driver_us_per_game"]
    # A task carries a quarter of a second of games at the measured CPU time per game.
    assert estimate["batch"] == max(1, round(0.25 / (results["cpu_ms_per_game"] / 1e3)))
    assert estimate["games_per_s"] == min(
        estimate["workers_games_per_s"], estimate["driver_limit_games_per_s"]
    )
