"""``python -m avanti`` runs the command line and exits with its code."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

from avanti import mare


@pytest.mark.parametrize(("valid", "code"), [(True, 0), (False, 1)])
def test_python_dash_m_runs_the_command_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    valid: bool,
    code: int,
) -> None:
    path = tmp_path / "game.json"
    path.write_text(mare.new_game(["Ann"], seed=1).dumps() if valid else "{", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["avanti", "validate", str(path)])
    with pytest.raises(SystemExit) as exited:
        runpy.run_module("avanti", run_name="__main__")
    assert exited.value.code == code
    printed = capsys.readouterr()
    assert ("valid" in printed.out) if valid else printed.err.startswith("avanti: ")
