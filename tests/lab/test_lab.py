"""The rules lab as a library (``avanti.lab``): a case played under two readings, its
differences, its HTML, its link and its exported test (A11, A12, A21, F6, M5, M6)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import avanti
from avanti.core import DecodeError, InvalidArgument
from avanti.lab import MAX_FRAGMENT, Case, Reading, compare, pytest_text, start

ROOT = Path(__file__).parents[2]
SOURCE = Path(avanti.__file__).parents[1]
"""The library under test, for the exported tests' own pytest process."""
NAMES = ("Jack", "Isabella", "Tina", "Steve", "William")
BOTH = (
    Reading("wraps", {"atm_last_car_wraps": True}),
    Reading("no wrap", {"atm_last_car_wraps": False}),
)
ILLUS_13 = {
    "scenario": {
        "marker": 22,
        "distances": [29, 15, 28, 30, 31],
        "hands": [[], [], [], [], []],
        "quit": [False, True, False, True, False],
        "laid": [[0, 1], None, [18, 3], None, [19, 3]],
        "phase": "driving",
        "round": 5,
    }
}
"""The end of the run of Illus. 11 (examples/avanti_illus11_end_of_run.py): Tina, William and
Jack still to drive, Isabella and Steve have quit."""
CASE = Case("avanti", NAMES, BOTH, ("drive", "drive", "drive"), ILLUS_13, question="A21 <b>?</b>")


def test_a21_the_two_readings_part_where_the_last_car_meets_the_leader() -> None:
    comparison = compare(CASE)
    first, second = comparison.trials
    assert (first.refusal, second.refusal) == (None, None)
    assert [len(t.steps) for t in comparison.trials] == [4, 4]  # the position, then 3 drives
    assert (
        first.steps[1].lines
        == second.steps[1].lines
        == (
            "Tina drives 3 (card 18) from space 16: bumps into William's car on space 19 and goes"
            " on to space 22, 34 spaces this run.",
            "Tina discards card 18.",
            "Tina draws card 1.",
        )
    )
    (difference,) = comparison.differences
    assert difference.step == 3
    assert difference.first == (
        "Isabella withdraws 300 at the ATM on road space 26.",
        "Isabella withdraws 500 at the ATM on road space 31.",
    )
    assert difference.second == ()
    assert difference.pictures_differ
    assert not comparison.same
    isabella = [line for line in first.lines if line.startswith("Isabella withdraws")]
    assert len(isabella) == 3  # the lots at 3, 26 and 31 (Illus. 13)


def test_a_case_against_itself_is_the_same() -> None:
    same = Case("avanti", NAMES, (BOTH[0], BOTH[0]), CASE.commands, ILLUS_13)
    comparison = compare(same)
    assert comparison.same
    assert comparison.differences == ()


def test_a4_a_position_that_breaks_a_rule_is_refused_naming_it() -> None:
    scenario = {**ILLUS_13["scenario"], "distances": [29, 29, 28, 30, 31], "quit": None}
    comparison = compare(Case("avanti", NAMES, BOTH, ("drive",), {"scenario": scenario}))
    for trial in comparison.trials:
        assert trial.steps == ()
        assert trial.refused_at is None
        assert trial.refusal is not None
        assert trial.refusal == "A4: scenario: seats 0 and 1 share road space 17"


def test_a_refused_command_stops_the_trial_with_the_library_s_words() -> None:
    comparison = compare(Case("avanti", NAMES, BOTH, ("drive", "invest"), ILLUS_13))
    for trial in comparison.trials:
        assert trial.refused_at == 1
        assert len(trial.steps) == 2
        assert trial.refusal is not None
        assert "'invest' names no legal command; legal now: 'drive'; 'quit'" in trial.refusal


def test_a_command_for_a_seat_not_at_the_table_is_refused() -> None:
    trial = compare(Case("avanti", NAMES, BOTH, ("9: drive",), ILLUS_13)).trials[0]
    assert trial.refused_at == 0
    assert trial.refusal is not None
    assert "9" in trial.refusal


def test_f6_a_command_may_name_its_seat() -> None:
    readings = (Reading("book"), Reading("refund", {"sales_associate_refunds_winner": True}))
    setup = {
        "scenario": {"advisor_deck": [1, 2, 3], "vehicle_deck": [1, 2, 3], "check_deck": [0, 0, 2]}
    }
    case = Case(
        "autorama",
        ("Isaac", "Becky", "Chloe"),
        readings,
        ("0: bid 4000", "1: pass", "2: pass"),
        setup,
    )
    (difference,) = compare(case).differences
    assert difference.first == ("Isaac took Sales Associate 3 and paid $4,000.",)
    assert difference.second == (
        "Isaac took Sales Associate 3 and paid $0 in all ($4,000 of the $4,000 bid came back).",
    )


def test_m5_a_mare_position_is_checked_by_the_library() -> None:
    readings = (Reading("book"), Reading("book"))
    case = Case(
        "mare", ("Ann", "Bob"), readings, ("roll",), {"scenario": {"boat": 4, "fish": [3, 6, 6, 6]}}
    )
    trial = compare(case).trials[0]
    assert trial.refusal == (
        "M5: the blue fish is on piece 3, which the boat has taken: a fish the boat reaches is"
        " caught"
    )


@pytest.mark.parametrize(
    ("setup", "options", "message"),
    [
        ({"board_size": 3}, {}, "'board_size' is no setup field a case may set @ $.setup"),
        ({"seed": 3}, {}, "'seed' is no setup field a case may set @ $.setup"),
        ({}, {"atm": True}, "'atm' is no option of Avanti @ $.options"),
        ({"scenario": {"marker": "x"}}, {}, "$.setup.scenario"),
    ],
)
def test_a_field_the_game_does_not_have_is_refused(
    setup: dict[str, object], options: dict[str, object], message: str
) -> None:
    case = Case("avanti", NAMES, (Reading("a", options), Reading("b")), (), setup)
    trial = compare(case).trials[0]
    assert trial.refusal is not None
    assert message in trial.refusal
    with pytest.raises(DecodeError):
        start(case, case.readings[0])


def test_a_case_reads_back_from_its_json_and_its_link() -> None:
    assert Case.from_json(CASE.to_json()) == CASE
    assert Case.from_json(CASE.to_json(indent=2)) == CASE
    fragment = CASE.to_fragment()
    assert set(fragment) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert Case.from_fragment("#" + fragment) == CASE
    assert hash(Case.from_fragment(fragment)) == hash(CASE)


def test_a_link_too_long_or_not_base64url_is_refused() -> None:
    with pytest.raises(DecodeError, match="at most 16384 characters"):
        Case.from_fragment("A" * (MAX_FRAGMENT + 1))
    with pytest.raises(DecodeError, match="not base64url"):
        Case.from_fragment("A")
    huge = Case("avanti", NAMES, BOTH, ("drive " * 30,) * 200)
    with pytest.raises(DecodeError, match="more than 16384"):
        huge.to_fragment()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[]", "a case must be a JSON object @ $"),
        ('{"game": "avanti", "players": [], "readings": [], "x": 1}', "unknown key 'x' @ $.x"),
        ('{"game": 1, "players": [], "readings": [{}, {}]}', "@ $.game"),
        ('{"game": "a", "players": [], "readings": [{"name": "a"}]}', "two readings @ $.readings"),
        (
            '{"game": "a", "players": [], "readings": [{"name": "a", "o": 1}, {"name": "b"}]}',
            "$.readings[0]",
        ),
        (
            '{"game": "a", "players": [], "readings": [{"name": "a", "options": 1}, {"name": "b"}]'
            "}",
            "$.readings[0].options",
        ),
        (
            '{"game": "a", "players": [], "readings": [{"name": "a"}, {"name": "b"}], "seed": "1"}',
            "@ $.seed",
        ),
        (
            '{"game": "a", "players": [], "readings": [{"name": "a"}, {"name": "b"}], "setup": 1}',
            "@ $.setup",
        ),
        ('{"game": "a", "players": 1, "readings": [{"name": "a"}, {"name": "b"}]}', "@ $.players"),
    ],
)
def test_a_case_is_read_strictly(text: str, problem: str) -> None:
    with pytest.raises(DecodeError) as refused:
        Case.from_json(text)
    assert any(problem in line for line in refused.value.errors)


def test_the_notebook_shows_both_readings_side_by_side_and_escapes_the_case() -> None:
    names = ("<script>x</script>", "Isabella", "Tina", "Steve", "William")
    readings = (Reading("<i>wraps</i>", {"atm_last_car_wraps": True}), BOTH[1])
    case = Case("avanti", names, readings, CASE.commands, ILLUS_13, question="<b>why?</b>")
    html = compare(case)._repr_html_()
    assert "<script>" not in html
    assert "<i>" not in html
    assert "<b>" not in html
    assert "&lt;i&gt;wraps&lt;/i&gt;" in html
    assert "&lt;b&gt;why?&lt;/b&gt;" in html
    assert html.count('src="data:image/svg+xml;base64,') == 2
    assert html.count("<mark>") == 2  # the two lots only the first reading pays
    assert "<mark>Isabella withdraws 300 at the ATM on road space 26.</mark>" in html


def test_a_refusal_is_shown_in_the_notebook() -> None:
    html = compare(Case("avanti", NAMES, BOTH, ("invest",), ILLUS_13))._repr_html_()
    assert "<mark>Refused (command 1): IllegalCommand" not in html
    assert html.count("Refused (command 1): ") == 2


def test_the_exported_test_runs_green_with_pytest(tmp_path: Path) -> None:
    cases = [
        CASE,
        Case("avanti", NAMES, BOTH, ("drive", "invest"), ILLUS_13, question="a refusal"),
        Case("avanti", NAMES, BOTH, (), {"scenario": {**ILLUS_13["scenario"], "round": 0}}),
        Case.from_json((ROOT / "docs/lab/mare-m6-free-fish-move.json").read_text()),
        Case.from_json((ROOT / "docs/lab/autorama-f6-sales-associate.json").read_text()),
        Case("avanti", NAMES, (BOTH[0], BOTH[0]), ("drive",), ILLUS_13),  # two tests, one name
    ]
    for index, case in enumerate(cases):
        (tmp_path / f"test_case_{index}.py").write_text(pytest_text(case), encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SOURCE)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "12 passed" in run.stdout


def test_the_exported_test_fails_when_the_library_disagrees(tmp_path: Path) -> None:
    text = pytest_text(CASE).replace("Isabella withdraws 500", "Isabella withdraws 600")
    (tmp_path / "test_changed.py").write_text(text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SOURCE)},
    )
    assert run.returncode == 1
    assert "1 failed, 1 passed" in run.stdout


HANDS = Case(
    "avanti",
    ("Ann", "Bob", "Cy"),
    (Reading("book"), Reading("book")),
    (),
    {"scenario": {"marker": 0, "distances": [3, 5, 8], "hands": [[7], [12], [20]]}},
)
"""Three cars in the planning step, one card in each hand: Ann card 7, Bob 12, Cy 20 (A8)."""


def test_a_seat_sees_its_own_hand_in_the_picture_and_the_spectator_sees_none() -> None:
    def cards(seen_by: int | None) -> list[str]:
        picture = str(compare(HANDS, seen_by=seen_by).trials[0].steps[0].picture)
        return re.findall(r'data-card="(\d+)"', picture)

    assert cards(None) == []
    assert cards(0) == ["7"]
    assert cards(1) == ["12"]
    assert cards(2) == ["20"]


@pytest.mark.parametrize("seat", [-1, 3])
def test_a_viewer_who_is_not_at_the_table_is_refused(seat: int) -> None:
    with pytest.raises(InvalidArgument, match=r"seen_by must be a seat 0\.\.2"):
        compare(HANDS, seen_by=seat)
