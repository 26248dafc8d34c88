"""Golden playthroughs: a whole seeded game, view by view, must read exactly as checked in."""

from __future__ import annotations

import difflib

import pytest

from tests.golden import CASES, path_for, render


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_playthrough_matches_the_golden_file(
    game: str, players: tuple[str, ...], seed: int
) -> None:
    path = path_for(game, players, seed)
    assert path.exists(), f"{path.name} is missing: run `python -m nox -s transcripts`"
    expected = path.read_text(encoding="utf-8")
    actual = render(game, players, seed)
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                "golden",
                "now",
                n=2,
            )
        )
        pytest.fail(
            f"{path.name} differs (run `python -m nox -s transcripts` if intended):\n" + diff[:4000]
        )
