"""The benchmark script runs and reports every figure; its verdicts follow the targets.

No time is asserted here: the figures are printed by ``nox -s bench``, not checked.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "run.py"
ANATOMY = ROOT / "benchmarks" / "anatomy.py"
HOSTILE = ROOT / "benchmarks" / "hostile.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_reports_every_figure_for_every_game() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "1", "--repeats", "1", "--scaling-games", "0"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    text = done.stdout
    for title in ("Avanti (4 players", "For Sale: Autorama (4 players", "Avanti mare! (3 players"):
        assert title in text
    for figure in ("random-play step", "replay evolve / event", "loads / event", "peak memory"):
        assert text.count(figure) == 3
    assert "replay evolve <= 0.2 x execute" in text


def test_the_json_report_holds_each_games_figures() -> None:
    args = ["--game", "mare", "--games", "1", "--repeats", "1", "--scaling-games", "0", "--json"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    results = json.loads(done.stdout)
    assert list(results["games"]) == ["mare"]
    mare = results["games"]["mare"]
    assert mare["players"] == 3
    assert mare["replay_ratio"] == mare["evolve_us"] / mare["execute_us"]
    assert "scaling" not in results


def test_the_scaling_verdict_says_when_the_machine_could_not_show_it() -> None:
    bench = load_script()
    assert bench.scaling_verdict(1.93, 1.91) == "met"
    assert bench.scaling_verdict(1.2, 1.9) == "NOT met"
    busy = bench.scaling_verdict(0.95, 1.05)
    assert busy.startswith("NOT met, and not measurable now")
    assert "1.05x" in busy


def test_the_anatomy_of_a_step_lists_its_parts_and_every_command_kind() -> None:
    done = subprocess.run(
        [sys.executable, str(ANATOMY), "--games", "2", "--repeats", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    text = done.stdout
    for part in ("is_over", "legal_commands()", "seeded choice", "Game.execute", "whole step"):
        assert part in text
    for kind in ("PlayCard", "Drive", "Quit", "Invest", "PlaceEventMarker"):
        assert f"  {kind} " in text
    assert "a frozen state from a draft" in text


def test_the_hostile_benchmark_sees_every_input_class_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(HOSTILE), "--small", "--repeats", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    text = done.stdout
    for name in ("huge board", "junk events", "huge cash", "deep nesting", "long names"):
        assert text.count(f"\n{name} ") == 2
    assert "accepted (not refused!)" not in text
    assert "every input refused with a library error: yes" in text
