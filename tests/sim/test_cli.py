"""``avanti simulate`` and ``avanti tournament``: files of every game, Ctrl-C and ``--resume``."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from avanti.bots.seeds import game_seed
from avanti.cli import main

ROOT = Path(__file__).resolve().parents[2]
MINE = "tests.sim.bots:FirstBot"


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO())
    return code, out.getvalue()


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_the_json_file_holds_every_game_beside_the_summary(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    argv = ("simulate", "--game", "mare", "--games", "6", "--bots", f"heuristic,{MINE}")
    code, text = cli(*argv, "--rotate", "--seed", "4", "--workers", "1", "--json", str(path))
    assert code == 0
    assert f"Every game written to {path}." in text
    data = read(path)
    assert (data["format"], data["version"], data["complete"]) == ("avanti-simulation", 1, True)
    assert data["plan"]["bots"] == ["heuristic", MINE]
    assert data["summary"]["by_bot"][MINE]["games"] == 6
    assert [game["seed"] for game in data["games"]] == [game_seed(4, i) for i in range(6)]
    first, second = data["games"][:2]
    assert first["bots"] == ["heuristic", MINE]
    assert second["bots"] == [MINE, "heuristic"]
    for game in data["games"]:
        assert game["returns"] == [1.0 if s in game["winners"] else 0.0 for s in range(2)]
    wins = sum(len(game["winners"]) for game in data["games"])
    assert wins == sum(seat["wins"] for seat in data["summary"]["seats"])


def test_the_file_is_the_same_byte_for_byte_on_one_and_two_workers(tmp_path: Path) -> None:
    argv = ("simulate", "--game", "avanti", "--games", "10", "--bots", "heuristic,random,random")
    files = []
    for workers in ("1", "2"):
        path = tmp_path / f"{workers}.json"
        assert cli(*argv, "--rotate", "--workers", workers, "--json", str(path))[0] == 0
        files.append(path.read_bytes())
    assert files[0] == files[1]


def test_resume_needs_the_file_and_takes_the_plan_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.json"
    assert cli("simulate", "--game", "mare", "--resume")[0] == 1
    assert "--resume goes on with the run in --json FILE" in capsys.readouterr().err
    assert cli("simulate", "--game", "mare", "--json", str(path), "--resume")[0] == 1
    assert "there is no such file" in capsys.readouterr().err
    assert cli("simulate", "--game", "mare", "--games", "3", "--json", str(path))[0] == 0
    assert cli("simulate", "--json", str(path), "--resume", "--bots", "random")[0] == 1
    assert "not --bots" in capsys.readouterr().err
    assert cli("simulate", "--json", str(path), "--resume", "--games", "5")[0] == 0
    data = read(path)
    assert (data["plan"]["game"], len(data["games"])) == ("mare", 5)
    path.write_text('{"format": "chess"}', encoding="utf-8")
    assert cli("simulate", "--json", str(path), "--resume")[0] == 1
    assert "not an avanti-simulation file" in capsys.readouterr().err


def test_an_address_needs_the_ray_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("simulate", "--game", "mare", "--address", "10.0.0.1:6379")[0] == 1
    assert "--address names a Ray cluster; it needs --engine ray" in capsys.readouterr().err


def _interruptible() -> None:
    """In the child, before it starts: take SIGINT as a terminal's Ctrl-C, whatever this
    process does with it (a pytest-xdist worker ignores it, and an ignored signal stays ignored
    across exec, as in a shell's background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_keeps_the_finished_games_and_resume_plays_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    # enough games that the run cannot end between its first write and the signal
    argv = ["simulate", "--game", "avanti", "--games", "150", "--bots", f"heuristic,{MINE},random"]
    argv += ["--rotate", "--seed", "8", "--workers", "2", "--json"]
    process = subprocess.Popen(
        [sys.executable, "-m", "avanti", *argv, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    try:
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130
    kept = read(path)
    assert kept["complete"] is False
    assert 1 <= len(kept["games"]) < 150
    assert f"{len(kept['games'])} of 150 games finished; they are in {path}" in err
    assert f"'avanti simulate --json {path} --resume' plays the rest" in err
    assert cli("simulate", "--json", str(path), "--resume", "--workers", "2")[0] == 0
    whole = tmp_path / "whole.json"
    assert cli(*argv, str(whole))[0] == 0
    assert path.read_bytes() == whole.read_bytes()


def test_a_tournament_writes_ratings_and_a_later_run_extends_it(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    argv = ("tournament", "--game", "mare", "--bots", f"heuristic,random,{MINE}", "--seats", "2")
    code, text = cli(*argv, "--rounds", "2", "--workers", "1", "--json", str(path))
    assert code == 0
    assert "round-robin of 3 bots, 2 seats, 2 rounds, 12 games" in text
    assert "Ratings, Elo scale" in text
    first = read(path)
    assert first["format"] == "avanti-tournament"
    assert len(first["games"]) == 12
    assert {r["bot"] for r in first["ratings"]} == {"heuristic", "random", MINE}
    assert sum(r["elo"] for r in first["ratings"]) == pytest.approx(4500)
    code, _ = cli("tournament", "--json", str(path), "--resume", "--rounds", "3")
    assert code == 0
    later = read(path)
    assert later["tournament"]["rounds"] == 3
    assert later["games"][:12] == first["games"]
    assert len(later["games"]) == 18
    whole = tmp_path / "whole.json"
    assert cli(*argv, "--rounds", "3", "--json", str(whole))[0] == 0
    assert whole.read_bytes() == path.read_bytes()


def test_a_tournament_prints_json_alone() -> None:
    code, text = cli("tournament", "--game", "mare", "--bots", "heuristic,random", "--json")
    assert code == 0
    data = json.loads(text)
    assert data["tournament"]["format"] == "round-robin"
    assert [r["won"]["games"] for r in data["ratings"]] == [2, 2]
    for rating in data["ratings"]:
        low, high = rating["elo_ci95"]
        assert low < rating["elo"] < high


def test_a_terminal_shows_games_per_second_and_the_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rich.console import Console

    from avanti.cli import simulate

    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    monkeypatch.setattr(simulate, "_progress_console", lambda: console)
    assert cli("simulate", "--game", "mare", "--games", "30", "--workers", "1")[0] == 0
    shown = screen.getvalue()
    assert "simulating" in shown
    assert "games/s" in shown
    assert "30/30" in shown


def fake_matplotlib(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A stand-in for matplotlib (not installed by the tests), for this test's length: what the
    plot is drawn with, recorded in the dictionary returned; its picture is the bytes ``PNG``."""
    import types

    calls: dict[str, Any] = {}

    class Axes:
        def errorbar(self, names: list[str], elos: list[float], **options: Any) -> None:
            calls["errorbar"] = (names, elos, options["yerr"])

        def axhline(self, y: float, **options: Any) -> None:
            calls["axhline"] = y

        def set_title(self, title: str, **options: Any) -> None:
            calls["title"] = title

        def set_ylabel(self, label: str) -> None:
            pass

    class Figure:
        def tight_layout(self) -> None:
            pass

        def savefig(self, target: Any, format: str) -> None:
            target.write(b"PNG")

    matplotlib = types.ModuleType("matplotlib")
    vars(matplotlib).update(use=lambda backend: None)
    pyplot = types.ModuleType("matplotlib.pyplot")
    vars(pyplot).update(subplots=lambda figsize: (Figure(), Axes()), close=lambda figure: None)
    monkeypatch.setitem(sys.modules, "matplotlib", matplotlib)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", pyplot)
    return calls


def test_a_tournament_plots_its_ratings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_matplotlib(monkeypatch)
    path = tmp_path / "ratings.png"
    argv = ("tournament", "--game", "mare", "--bots", "heuristic,random", "--rounds", "2")
    code, text = cli(*argv, "--json", str(tmp_path / "t.json"), "--plot", str(path))
    assert code == 0
    assert f"Plot written to {path}." in text
    assert path.read_bytes() == b"PNG"
    ratings = read(tmp_path / "t.json")["ratings"]
    names, elos, (below, above) = calls["errorbar"]
    assert names == [r["bot"] for r in ratings]
    assert elos == [r["elo"] for r in ratings]
    assert below == [r["elo"] - r["elo_ci95"][0] for r in ratings]
    assert above == [r["elo_ci95"][1] - r["elo"] for r in ratings]
    assert calls["axhline"] == 1500
    assert calls["title"] == "Avanti mare!: round-robin of 2 bots, 2 seats, 2 rounds, 4 games"


def test_a_tournament_printing_json_plots_without_a_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--json`` to standard output with ``--plot`` draws the plot and prints the JSON alone,
    with no line about the plot after it."""
    fake_matplotlib(monkeypatch)
    plot = tmp_path / "ratings.png"
    argv = ("tournament", "--game", "mare", "--bots", "heuristic,random")
    code, text = cli(*argv, "--json", "-", "--plot", str(plot))
    assert code == 0
    assert plot.read_bytes() == b"PNG"
    document = json.loads(text)  # nothing but the JSON document
    assert sorted(document) == ["ratings", "tournament"]
    assert [r["won"]["games"] for r in document["ratings"]] == [2, 2]
