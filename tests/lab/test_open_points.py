"""The rulebook's open points as saved lab cases (docs/lab/*.json): each loads, runs, and shows
the difference its rules page states, and each rules page links to it with the case in the
link (A18, A21, F6, F15, M6, M7)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from avanti.lab import Case, Comparison, compare

ROOT = Path(__file__).parents[2]
CASES = ROOT / "docs" / "lab"
LINK = "http://127.0.0.1:8000/lab#"


def comparison(name: str) -> Comparison:
    return compare(Case.from_json((CASES / f"{name}.json").read_text(encoding="utf-8")))


def only(result: Comparison) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    """Each step where the readings' events part: the lines only the first reading has, and
    those only the second has."""
    return [(d.step, d.first, d.second) for d in result.differences if d.first or d.second]


def test_a21_the_last_car_collects_past_the_leader_only_when_it_counts_it() -> None:
    """Isabella, last on road space 3, collects the lots at 26 and 31 only if the leader
    (William, on 25) is the car behind her."""
    assert only(comparison("avanti-a21-last-car")) == [
        (
            3,
            (
                "Isabella withdraws 300 at the ATM on road space 26.",
                "Isabella withdraws 500 at the ATM on road space 31.",
            ),
            (),
        )
    ]


def test_a21_the_lot_at_31_changes_hands_when_the_car_behind_is_counted_in_the_race() -> None:
    assert only(comparison("avanti-a21-race-order")) == [
        (
            1,
            ("Jack withdraws 500 at the ATM on road space 31.",),
            ("Tina withdraws 500 at the ATM on road space 31.",),
        )
    ]


def test_a18_a_quitter_s_cards_keep_the_run_going_only_when_read_literally() -> None:
    ((step, first, second),) = only(comparison("avanti-a18-quitter-cards"))
    assert step == 1
    assert first[0] == "Delivery run 1 ends; ranking: Ann, Cy, Bob."
    assert second == ("Round 3 of run 1 begins.", "Cy has no cards left and quits this run.")


def test_f6_the_winner_of_a_sales_associate_is_refunded_only_under_the_option() -> None:
    assert only(comparison("autorama-f6-sales-associate")) == [
        (
            3,
            ("Isaac took Sales Associate 3 and paid $4,000.",),
            (
                "Isaac took Sales Associate 3 and paid $0 in all ($4,000 of the $4,000 bid came"
                " back).",
            ),
        )
    ]


def test_f15_a_lawyer_kept_is_used_again_a_lawyer_discarded_is_not() -> None:
    result = comparison("autorama-f15-lawyer")
    assert only(result) == [
        (4, (), ("Isaac discarded Lawyer 21.",)),
        (5, ("Isaac offered two vehicles with Lawyer 21 (25, 26).",), ()),
    ]
    kept, discarded = result.trials
    assert kept.refusal is None
    assert discarded.refused_at == 4
    assert discarded.refusal is not None
    assert discarded.refusal.startswith("'offer 25 and 26' names no legal command")


def test_m6_the_roller_may_decline_unless_the_move_is_owed() -> None:
    result = comparison("mare-m6-free-fish-move")
    may, owed = result.trials
    assert may.lines[-2:] == ("Ann declines to move another fish.", "Bob's turn.")
    assert owed.refused_at == 1
    assert owed.refusal == "'skip' names no legal command; legal now: 'move yellow'; 'move pink'"


def test_m7_a_caught_fish_s_colour_moves_the_boat_or_does_nothing() -> None:
    assert only(comparison("mare-m7-caught-fish-roll")) == [
        (
            1,
            ("Piece 3 is taken away; the boat moves up to piece 4.",),
            ("Nothing happens for orange.",),
        )
    ]


@pytest.mark.parametrize("path", sorted(CASES.glob("*.json")), ids=lambda path: path.stem)
def test_each_case_is_linked_from_its_rules_page(path: Path) -> None:
    case = Case.from_json(path.read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "rules" / f"{case.game}.md").read_text(encoding="utf-8")
    links = re.findall(re.escape(LINK) + r"([A-Za-z0-9_-]+)", page)
    assert case.to_fragment() in links, f"docs/rules/{case.game}.md does not link {path.name}"


def test_every_case_has_a_test_above() -> None:
    names = {path.stem for path in CASES.glob("*.json")}
    source = Path(__file__).read_text(encoding="utf-8")
    assert {name for name in names if f'comparison("{name}")' in source} == names
