"""The built wheel as a user gets it: installed into a fresh virtual environment (the wheel
alone, then with each extra), and tried by ``smoke.py`` from a folder outside the checkout.

uv makes and fills the environments where it is installed (the ``build`` session installs it;
about 3 s an environment once its cache is warm), else ``venv`` and pip (minutes for the
larger extras).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.packaging.conftest import REPOSITORY, Built

SMOKE = Path(__file__).with_name("smoke.py")

VARIANTS = {
    "core": "",
    "cli": "cli",
    "plot": "cli,plot",
    "server": "server",
    "postgres": "postgres",
    "rl": "rl",
    "ray": "ray",
}
"""The extras each smoke test installs: none (``core``: the wheel alone), then each extra.
Plotting is a feature of the command line (``avanti simulate --plot``), so ``plot`` comes with
``cli``."""


def run(command: list[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """Run ``command`` with an environment that points at no checkout and no other venv."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP"}
    }
    return subprocess.run(
        command,
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def install(wheel: Path, extras: str, folder: Path) -> Path:
    """A fresh virtual environment in ``folder`` with ``wheel`` installed with ``extras`` (a
    comma-separated list, maybe empty); its Python."""
    requirement = f"avanti{f'[{extras}]' if extras else ''} @ {wheel.as_uri()}"
    python = folder / "bin" / "python"
    uv = shutil.which("uv")
    if uv:
        steps = [
            [uv, "venv", "--quiet", "--python", sys.executable, str(folder)],
            [uv, "pip", "install", "--quiet", "--python", str(python), requirement],
        ]
    else:
        steps = [
            [sys.executable, "-m", "venv", str(folder)],
            [str(python), "-m", "pip", "install", "--quiet", requirement],
        ]
    for step in steps:
        done = run(step, cwd=folder.parent)
        assert done.returncode == 0, f"{' '.join(step)}\n{done.stdout}\n{done.stderr}"
    return python


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A private PostgreSQL server for the ``postgres`` extra's smoke test."""
    from tests.store.pg import private_cluster

    with private_cluster() as cluster:
        yield cluster.dsn


@pytest.mark.parametrize("extra", VARIANTS)
def test_the_wheel_works_outside_the_checkout(
    built: Built, extra: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    python = install(built.wheel, VARIANTS[extra], tmp_path / "venv")
    away = tmp_path / "elsewhere"
    away.mkdir()
    assert REPOSITORY not in away.parents
    script = shutil.copy(SMOKE, away / "smoke.py")
    argument = request.getfixturevalue("postgres") if extra == "postgres" else ""
    done = run([str(python), "-I", str(script), extra, argument], cwd=away)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert done.stdout.startswith(f"ok {extra}"), done.stdout
    print(done.stdout.strip())
