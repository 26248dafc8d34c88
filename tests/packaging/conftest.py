"""The built distributions under test: the folder named by ``AVANTI_DIST`` (``python -m nox -s
build`` builds them into ``dist/`` and sets it). Without it the packaging tests are skipped,
saying how to run them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

__all__ = ["REPOSITORY", "VERSION", "Built", "built"]

REPOSITORY = Path(__file__).parents[2]
"""The checkout the distributions were built from."""

VERSION = re.findall(
    r'^__version__ = "([^"]+)"$',
    (REPOSITORY / "src" / "avanti" / "__init__.py").read_text(encoding="utf-8"),
    flags=re.MULTILINE,
)[0]
"""The version, read where the build reads it (these tests run where avanti is not installed:
the wheel goes into environments of its own)."""


class Built:
    """The one wheel and the one sdist in a folder."""

    def __init__(self, folder: Path) -> None:
        wheels = sorted(folder.glob("avanti-*.whl"))
        sdists = sorted(folder.glob("avanti-*.tar.gz"))
        assert (len(wheels), len(sdists)) == (1, 1), f"want one wheel and one sdist in {folder}"
        self.wheel = wheels[0]
        """The wheel."""
        self.sdist = sdists[0]
        """The source distribution."""


@pytest.fixture(scope="session")
def built() -> Built:
    folder = os.environ.get("AVANTI_DIST")
    if not folder:
        pytest.skip("no built distributions: python -m nox -s build builds and tests them")
    return Built(Path(folder))
