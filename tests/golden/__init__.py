"""Golden playthrough transcripts: which games and seeds, and how to write them anew.

``python -m nox -s transcripts`` (or ``python -m tests.golden``) rewrites every file; review the
diff like any other change to the rules' behaviour.
"""

from __future__ import annotations

from pathlib import Path

from avanti.catalog import game_info
from avanti.transcript import playthrough

HERE = Path(__file__).resolve().parent

CASES: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("avanti", ("Jack", "Isabella", "Tina"), 1),
    ("avanti", ("Jack", "Isabella", "Tina", "Steve", "William"), 2),
    ("mare", ("Ann", "Bob"), 1),
    ("mare", ("Ann", "Bob", "Cy", "Dee"), 2),
    ("mare", ("Ann",), 3),
    ("autorama", ("Isaac", "Becky", "Chloe"), 4),
)
"""(game, players, seed) for every golden transcript."""


def path_for(game: str, players: tuple[str, ...], seed: int) -> Path:
    """Where the transcript of one case lives."""
    return HERE / f"{game}-{len(players)}p-seed{seed}.txt"


def render(game: str, players: tuple[str, ...], seed: int) -> str:
    """The transcript of one case, as the library plays it now."""
    return playthrough(game_info(game), list(players), seed)


def write_all() -> list[Path]:
    """Rewrite every golden transcript; return the paths written."""
    written = []
    for case in CASES:
        path = path_for(*case)
        path.write_text(render(*case), encoding="utf-8")
        written.append(path)
    return written
