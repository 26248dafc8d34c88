"""The command line and the catalog, end to end: demo, replay and validate, and their errors."""

from __future__ import annotations

import io
import json
import runpy
import sys
from pathlib import Path

import pytest

import avanti
from avanti import catalog, cli, mare


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), out=out)
    return code, out.getvalue()


def test_demo_plays_a_seeded_game_and_saves_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, text = run("demo", "--game", "mare", "--seed", "3", "--players", "2", "--save", str(path))
    assert code == 0
    assert text.startswith("Avanti mare!: Ann, Bob (seed 3)\n")
    game = mare.loads(path.read_text(encoding="utf-8"))
    assert game.is_over
    assert game.setup.seed == 3
    assert f"\n{game.version} events.\nSaved to {path}.\n" in text
    # The same seed plays the same game.
    assert run("demo", "--seed", "3", "--players", "2")[1] == text.split("Saved")[0]


def test_replay_prints_one_line_per_event(tmp_path: Path) -> None:
    game = mare.new_game(["Ann", "Bob"], seed=5)
    for _ in range(3):
        game = game.execute(game.legal_commands()[0])
    path = tmp_path / "game.json"
    path.write_text(game.dumps(), encoding="utf-8")
    code, text = run("replay", str(path))
    assert code == 0
    assert text.splitlines() == [mare.describe(e, game.setup) for e in game.events]
    assert run("validate", str(path)) == (
        0,
        f"{path}: a valid Avanti mare! game, {game.version} events.\n",
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "chess"}', "'format' must be one of"),
        ("{", "not valid JSON"),
        ('{"format": "avanti.mare", "version": 1, "setup": {}, "events": []}', "$.setup"),
    ],
)
def test_validate_rejects_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert run("validate", str(path)) == (1, "")
    error = capsys.readouterr().err
    assert error.startswith("avanti: ")
    assert message in error


def test_validate_reports_a_corrupt_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = mare.new_game(["Ann", "Bob"], seed=5).execute(mare.Roll(0))
    data = json.loads(game.dumps())
    data["events"] = data["events"][1:] + data["events"][:1]
    path = tmp_path / "corrupt.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("validate", str(path))[0] == 1
    assert "avanti: event 0: " in capsys.readouterr().err


def test_a_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("replay", str(tmp_path / "nope.json")) == (1, "")
    assert "nope.json" in capsys.readouterr().err


def test_python_dash_m_runs_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["avanti", "demo", "--seed", "1", "--players", "1"])
    with pytest.raises(SystemExit) as exited:
        runpy.run_module("avanti", run_name="__main__")
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith("Avanti mare!: Ann (seed 1)")


def test_the_catalog_names_every_game_and_refuses_unknown_ones() -> None:
    info = catalog.game_info("mare")
    assert info.load() is mare
    assert catalog.info_for_document(mare.new_game(["Ann"], seed=1).dumps()) is info
    with pytest.raises(KeyError, match="unknown game 'chess'; known: "):
        catalog.game_info("chess")
    with pytest.raises(avanti.DecodeError, match=r"@ \$\.format"):
        catalog.info_for_document("[1, 2]")


@pytest.mark.parametrize("name", sorted(catalog.GAMES))
def test_demo_tells_every_game_from_its_opening(name: str) -> None:
    info = catalog.game_info(name)
    code, text = run("demo", "--game", name, "--seed", "2")
    assert code == 0
    game = info.new_game(info.default_players, seed=2)
    opening = [info.describe(event, game.setup) for event in game.events]
    assert text.splitlines()[2 : 2 + len(opening)] == opening
    assert text.startswith(f"{info.title}: {', '.join(info.default_players)} (seed 2)\n\n")
