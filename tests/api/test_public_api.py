"""The public surface is kept on purpose: every public module's ``__all__``, with each name's
kind and signature, is recorded in ``tests/api/public_api.txt``, and this test fails on any
difference, printing it as a diff.

A change to the public surface is made on purpose, then recorded with
``python -m nox -s api`` (or ``AVANTI_REGENERATE_API=1 python -m pytest tests/api``), and the
diff of ``public_api.txt`` is read in review. Removing a public name or changing its signature
goes through a deprecation first (CONTRIBUTING.md, "Deprecations").
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.api.snapshot import compare, public_module_names, public_modules, render

SNAPSHOT = Path(__file__).with_name("public_api.txt")
REGENERATE = "AVANTI_REGENERATE_API"


@pytest.fixture(scope="module")
def live() -> str:
    return render(public_modules())


def test_every_public_module_lists_its_public_names() -> None:
    """Every public module says what it exports, and exports only what it has."""
    without, missing = [], []
    for module in public_modules():
        names = getattr(module, "__all__", None)
        if names is None:
            without.append(module.__name__)
            continue
        missing += [f"{module.__name__}.{name}" for name in names if not hasattr(module, name)]
    assert (without, missing) == ([], [])


def test_public_modules_are_found_under_the_package() -> None:
    """The snapshot covers the games, the core and the tools, and never ``__main__`` (which
    runs the command line when imported)."""
    names = public_module_names()
    expected = {"avanti", "avanti.core", "avanti.mare", "avanti.autorama", "avanti.store"}
    assert expected | {"avanti.server", "avanti.cli", "avanti.catalog"} <= set(names)
    assert "avanti.__main__" not in names
    assert names[0] == "avanti"
    assert names[1:] == sorted(names[1:])


def test_public_api_matches_the_snapshot(live: str) -> None:
    if os.environ.get(REGENERATE):
        SNAPSHOT.write_text(live, encoding="utf-8")
    recorded = SNAPSHOT.read_text(encoding="utf-8")
    diff = compare(recorded, live)
    assert not diff, (
        "the public API changed; if on purpose, run `python -m nox -s api` and review the diff "
        "of tests/api/public_api.txt:\n" + "\n".join(diff)
    )
