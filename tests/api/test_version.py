"""One version, written once in ``avanti/__init__.py``: the build, the installed metadata and
``avanti --version`` all read it there."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

import avanti
from avanti.cli import main

REPOSITORY = Path(__file__).parents[2]


def test_the_version_is_written_once_and_the_build_reads_it() -> None:
    pyproject = (REPOSITORY / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert re.search(r"^version\s*=", pyproject, flags=re.MULTILINE) is None
    assert "[tool.hatch.version]\n# " in pyproject
    assert 'path = "src/avanti/__init__.py"' in pyproject
    assert re.fullmatch(r"\d+\.\d+\.\d+", avanti.__version__), avanti.__version__


def test_the_installed_metadata_has_the_same_version() -> None:
    assert importlib.metadata.version("avanti") == avanti.__version__


def test_avanti_version_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"avanti {avanti.__version__}\n"
