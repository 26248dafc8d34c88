"""The command line, driven in-process through ``main(argv, out=..., inp=...)`` and as a process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from avanti import mare
from avanti.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO(stdin))
    return code, out.getvalue()


def saved_game(tmp_path: Path, seed: int = 7) -> Path:
    path = tmp_path / "game.json"
    code, _ = run("demo", "--game", "mare", "--seed", str(seed), "--save", str(path))
    assert code == 0
    return path


# -- demo ----------------------------------------------------------------------------------------


def test_demo_tells_every_event_and_draws_the_river() -> None:
    code, text = run("demo", "--game", "mare", "--seed", "7")
    assert code == 0
    assert text.startswith(
        "Avanti mare!: Ann, Bob, Cy (seed 7)\nBots: heuristic, heuristic, heuristic\n"
    )
    assert "Ann rolls orange." in text
    assert "[boat] 1:- 2:- 3:- 4:- 5:- 6:BOYP 7:- 8:- 9:- 10:- 11:-  ~sea~" in text
    assert "The game ends with" in text
    assert text.rstrip().endswith("events.")


def test_demo_is_reproducible_and_follows_the_seed() -> None:
    assert (
        run("demo", "--game", "mare", "--seed", "3")[1]
        == run("demo", "--game", "mare", "--seed", "3")[1]
    )
    assert (
        run("demo", "--game", "mare", "--seed", "3")[1]
        != run("demo", "--game", "mare", "--seed", "4")[1]
    )


def test_demo_takes_one_bot_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(
        "demo", "--game", "mare", "--players", "2", "--bots", "random,search", "--iterations", "5"
    )
    assert code == 0
    assert "Bots: random, search" in text
    assert run("demo", "--game", "mare", "--bots", "random,search")[0] == 1
    assert "one bot for every seat" in capsys.readouterr().err


def test_demo_saves_a_game_that_validates(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    game = mare.loads(path.read_text(encoding="utf-8"))
    assert game.is_over
    code, text = run("validate", str(path))
    assert code == 0
    assert text == f"{path}: a valid Avanti mare! game, {len(game.events)} events, finished.\n"


def test_the_readme_command_runs_as_a_process() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "avanti", "demo", "--game", "mare", "--seed", "7"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Ann rolls orange." in done.stdout
    assert done.stderr == ""


# -- validate and replay -------------------------------------------------------------------------


def test_validate_rejects_a_broken_file_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["events"][0]["face"] = "purple"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("validate", str(path))[0] == 1
    err = capsys.readouterr().err
    assert err.startswith("avanti: cannot decode document")
    assert "$.events[0].face" in err
    assert run("validate", str(tmp_path / "missing.json"))[0] == 1
    assert "No such file" in capsys.readouterr().err


def test_validate_names_a_log_that_does_not_fit_its_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["events"][0]["face"] = "green" if data["events"][0]["face"] != "green" else "red"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("validate", str(path))[0] == 1
    assert capsys.readouterr().err.startswith("avanti: event 0:")


def test_replay_prints_each_command_and_its_events(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    code, text = run("replay", str(path))
    assert code == 0
    assert "1. Ann: roll the die" in text
    assert "Ann rolls orange." in text
    assert "The game ends with" in text.splitlines()[-1]


def test_replay_step_waits_for_enter_and_stops_on_q(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    code, text = run("replay", str(path), "--step", stdin="\n\nq\n")
    assert code == 0
    assert "2. Bob: roll the die" in text
    assert "3. Cy" not in text
    code, text = run("replay", str(path), "--step", stdin="\n")
    assert code == 0
    assert "1. Ann: roll the die" in text
    assert "2. Bob" not in text


# -- play ----------------------------------------------------------------------------------------


def test_play_refuses_bad_input_saves_and_leaves_at_end_of_input(tmp_path: Path) -> None:
    save = tmp_path / "mid.json"
    code, text = run(
        "play",
        "--game",
        "mare",
        "--human",
        "0",
        "--seed",
        "2",
        stdin=f"x\n9\n\nsave\nsave {save}\n1\n",
    )
    assert code == 0
    assert "'x' is not a command number" in text
    assert "9 is not on the list: choose 1 to 1." in text
    assert "Type the number of a command" in text
    assert "Say where: save FILE" in text
    assert f"Saved to {save}" in text
    assert text.rstrip().endswith("End of input: leaving the game.")
    saved = mare.loads(save.read_text(encoding="utf-8"))
    assert saved.version == 0
    code, text = run("play", "--resume", str(save), "--human", "0", stdin="1\nquit\n")
    assert code == 0
    assert "Ann (you), Bob (heuristic), Cy (heuristic)" in text
    assert "Leaving the game." in text


def test_play_shows_the_humans_choices_and_plays_to_the_end() -> None:
    code, text = run(
        "play",
        "--game",
        "mare",
        "--players",
        "2",
        "--human",
        "0",
        "--bots",
        "random",
        stdin="1\n" * 200,
    )
    assert code == 0
    assert "Ann (seat 0), your move:" in text
    assert "  1. roll the die" in text
    assert "The game is over." in text


def test_play_offers_the_m6_choice_by_number() -> None:
    for seed in range(40):
        code, text = run(
            "play", "--game", "mare", "--players", "1", "--seed", str(seed), stdin="2\n1\n" * 100
        )
        if "2. move the" in text:
            break
    assert code == 0
    assert "1. move the " in text
    assert "The game is over." in text


def test_play_with_only_bots_tells_the_game() -> None:
    code, text = run("play", "--game", "mare", "--human", "", "--seed", "7")
    assert code == 0
    assert "Ann rolls orange." in text
    assert "The game is over." in text


def test_play_says_when_it_cannot_save(tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "game.json"
    code, text = run("play", "--game", "mare", stdin=f"save {target}\n")
    assert code == 0
    assert f"Could not save to {target}: No such file or directory" in text


def test_without_rich_the_command_line_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)
    assert run("demo", "--game", "mare")[0] == 1
    assert (
        "the command line needs rich: python -m pip install 'avanti[cli]'"
        in capsys.readouterr().err
    )


def test_play_rejects_seats_that_are_not_at_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("play", "--game", "mare", "--human", "0,5")[0] == 1
    assert "--human takes seats from 0 to 2, got '5'" in capsys.readouterr().err


def interrupt(size: int | None = -1, /) -> str:
    raise KeyboardInterrupt


def test_play_exits_with_130_on_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    inp = io.StringIO("1\n")
    monkeypatch.setattr(inp, "readline", interrupt)
    assert main(["play", "--game", "mare"], out=io.StringIO(), inp=inp) == 130
    assert capsys.readouterr().err == "\navanti: interrupted\n"


def test_play_as_a_process_ends_cleanly_at_end_of_input() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "avanti", "play", "--game", "mare"],
        input="abc\n1\n",
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0
    assert "Traceback" not in done.stderr
    assert "End of input" in done.stdout


# -- simulate ------------------------------------------------------------------------------------


def test_simulate_json_is_the_same_on_one_and_two_workers() -> None:
    argv = [
        "simulate",
        "--game",
        "mare",
        "--games",
        "6",
        "--bots",
        "heuristic,random",
        "--rotate",
        "--seed",
        "5",
        "--json",
    ]
    one = run(*argv, "--workers", "1")
    two = run(*argv, "--workers", "2")
    assert one == two
    data = json.loads(one[1])
    assert data["games"] == 6
    assert data["bots"] == ["heuristic", "random"]
    assert data["by_bot"]["heuristic"]["games"] == 6
    low, high = data["seats"][0]["ci95"]
    assert 0 <= low <= data["seats"][0]["rate"] <= high <= 1
    assert data["commands"]["mean"] < data["events"]["mean"]


def test_simulate_prints_tables_with_intervals() -> None:
    code, text = run(
        "simulate", "--game", "mare", "--games", "4", "--players", "2", "--workers", "1"
    )
    assert code == 0
    assert (
        "Avanti mare!: 4 games, seeds 0 to 3, bots random, random (fixed seats), 1 worker" in text
    )
    assert "Wins by seat (95% Wilson interval)" in text
    assert "Wins by bot" in text
    assert "commands" in text


def test_simulate_says_when_matplotlib_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _ = run("simulate", "--game", "mare", "--games", "2", "--plot", str(tmp_path / "p.png"))
    assert code == 1
    assert "--plot needs matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "p.png").exists()


def test_simulate_refuses_a_bad_plan(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--game", "mare", "--games", "0")[0] == 1
    assert "at least one game" in capsys.readouterr().err
    assert run("simulate", "--game", "mare", "--bots", "random,lucky")[0] == 1
    assert "unknown bot 'lucky'" in capsys.readouterr().err


# -- odds and arguments --------------------------------------------------------------------------


def test_odds_prints_the_exact_table() -> None:
    code, text = run("odds", "--game", "mare", "--policy", "closest-to-boat")
    assert code == 0
    assert "rulebook" in text
    assert "0.3570" in text
    assert "0.5295" in text
    code, text = run("odds", "--variant", "all", "--policy", "random")
    assert code == 0
    assert "red-only" in text


def test_odds_names_the_choices_for_a_bad_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("odds", "--policy", "lucky")[0] == 1
    assert "closest-to-boat" in capsys.readouterr().err
    assert run("odds", "--variant", "wet")[0] == 1
    assert "red-only" in capsys.readouterr().err


def test_bad_arguments_exit_with_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("demo", "--game", "chess")[0] == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err
    assert run()[0] == 2
