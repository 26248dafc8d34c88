"""``avanti odds``: the rulebook's reading of M6 by default, the owed move as a variant (M9)."""

from __future__ import annotations

import io

from avanti.cli import main


def odds_text(*argv: str) -> str:
    out = io.StringIO()
    assert main(["odds", *argv], out=out, inp=io.StringIO()) == 0
    # Rich wraps the notes to its width and draws cell borders: keep only the words.
    return " ".join(out.getvalue().replace("│", " ").replace("|", " ").split())


def test_m6_the_default_is_the_rulebook_where_the_move_may_be_declined() -> None:
    text = odds_text("--policy", "best-for-fishers")
    assert "rulebook best-for-fishers 0.2232 0.5943 0.1825" in text
    assert "the roller may decline to move (M6)" in text
    assert "--variant move-owed" in text


def test_m9_the_owed_move_is_a_variant() -> None:
    text = odds_text("--policy", "best-for-fishers", "--variant", "move-owed")
    assert "move-owed best-for-fishers 0.3570 0.5295 0.1135" in text
    assert "may decline" not in text  # no rulebook row, so no note on it


def test_m6_m9_every_variant_shows_both_readings_of_the_rulebook() -> None:
    text = odds_text("--policy", "random", "--variant", "all")
    assert "rulebook random 0.3237 0.5406 0.1357" in text
    assert "move-owed random 0.3617 0.5179 0.1204" in text
