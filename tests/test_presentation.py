"""Each game's presentation record (``avanti.core.presentation``), declared once beside its
rules and reached through the catalog: every total explained (F19, F20, A19, A20, M8), the
questions asked before a command (A8, A14, F4, F5, F9, F14, M6), and no tool probing a game's
module for a function.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import avanti
from avanti import autorama, mare
from avanti.autorama import AdvisorPlayed, GameEnded, Setup, VehicleSold
from avanti.autorama import presentation as autorama_shown
from avanti.autorama.cards import dollars
from avanti.autorama.scoring import Outcome, score_seat
from avanti.autorama.standings import parts as standing_parts
from avanti.avanti import presentation as avanti_shown
from avanti.bots.driver import play
from avanti.catalog import GAMES, game_info
from avanti.core.bots import RandomBot
from avanti.core.presentation import Presentation, Standings
from avanti.mare import presentation as mare_shown
from avanti.server.protocol.wire import table_data

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
SOURCE = Path(avanti.__file__).parent


def finished(name: str, players: int, seed: int) -> Any:
    """A game of the catalog's ``name`` played to its end by random bots."""
    game = game_info(name).new_game(NAMES[:players], seed)
    for step in play(game, {seat: RandomBot() for seat in range(players)}, seed=seed):
        game = step.game
    assert game.is_over
    return game


def check_adds_up(standings: Standings, players: int, winners: tuple[int, ...]) -> None:
    """Every total is the sum of its parts; the seats come best first; the winners won."""
    assert sorted(s.seat for s in standings.seats) == list(range(players))
    assert [s.place for s in standings.seats] == sorted(s.place for s in standings.seats)
    for standing in standings.seats:
        assert sum(part.amount for part in standing.parts) == standing.total
        assert all(part.rule for part in standing.parts)
        assert standing.won == (standing.seat in winners)
    assert (standings.rule == "") == (standings.decided == "")


def test_every_catalog_game_declares_a_presentation() -> None:
    for info in GAMES.values():
        shown = info.load_presentation()
        assert isinstance(shown, Presentation)
        assert shown.lab is info.load_lab_form()
    assert game_info("autorama").box() == autorama.box()
    assert game_info("avanti").box() is None
    assert game_info("avanti").load_presentation().marker is not None
    assert game_info("mare").load_presentation().marker is None


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_autorama_standings_add_up_to_the_scores(players: int, seed: int) -> None:
    game = finished("autorama", players, seed)
    outcome = game.outcome
    standings = autorama_shown.PRESENTATION.standings(outcome, game.public_setup)
    check_adds_up(standings, players, outcome.winners)
    for score in outcome.scores:
        assert standings.seat(score.seat).total == score.total
    best = max(score.total for score in outcome.scores)
    tied = sum(1 for score in outcome.scores if score.total == best)
    assert (standings.rule == "F20") == (tied > 1)
    # The last line of the history names every adviser that changed a total (F19).
    last = autorama.narrate(game.events, game.public_setup)[-1]
    assert " in checks" in last
    for score in outcome.scores:
        for assignment in score.assignments:
            assert f"{assignment.advisor} " in last
        if score.cash:
            assert all(f"Financial Advisor {a}" in last for a in score.financial)


@pytest.mark.parametrize("seed", range(6))
def test_mare_standings_count_each_sides_fish(seed: int) -> None:
    players = 1 + seed % 6
    game = finished("mare", players, seed)
    outcome = game.outcome
    standings = mare_shown.standings(outcome, game.public_setup)
    check_adds_up(standings, players, outcome.winners)
    for seat, side in enumerate(game.setup.sides):
        counted = outcome.free if side is mare.Side.FISH_FRIENDS else outcome.caught
        assert standings.seat(seat).total == counted
    assert (standings.rule == "M8") == (outcome.winner is None)


@pytest.mark.parametrize("seed", range(3))
def test_avanti_standings_are_the_island_spaces(seed: int) -> None:
    game = finished("avanti", 3 + seed % 3, seed)
    outcome = game.outcome
    standings = avanti_shown.standings(outcome, game.public_setup)
    check_adds_up(standings, len(outcome.island), outcome.winners)
    assert [s.seat for s in standings.seats] == list(outcome.ranking)
    assert [s.total for s in standings.seats] == [outcome.island[s] for s in outcome.ranking]
    tied = sum(1 for space in outcome.island if space == outcome.island[outcome.winner])
    assert (standings.rule == "A20") == (tied > 1)


ANN_CHECKS = (2, 4, 5, 6, 7, 9, 12, 13)
"""The issue's own line: $58,000 of checks, two of them doubled by Restoration Specialists."""
BOB_CHECKS = (0, 0, 2, 3, 8, 10, 14, 15)
"""Two $0 checks that Controllers raise to $11,000 and $12,000."""


def issue_events() -> tuple[Any, ...]:
    """The end of a game as the issue saw it: Ann's Restoration Specialists doubled her $9,000
    and $7,000 checks, Bob's Controllers raised two $0 checks; both end with $77,000, and Ann
    wins with more cash (F20)."""
    played = (
        AdvisorPlayed(0, 22, False),
        AdvisorPlayed(0, 23, False),
        AdvisorPlayed(1, 11, False),
        AdvisorPlayed(1, 12, False),
    )
    sold = tuple(
        VehicleSold(seat, 10 + index, check)
        for seat, checks in ((0, ANN_CHECKS), (1, BOB_CHECKS), (2, (10,)))
        for index, check in enumerate(checks)
    )
    return (*played, *sold, GameEnded((77, 77, 20), (0,), (74, 75, 10), (3, 2, 10)))


def test_the_issues_end_line_names_each_adviser_and_the_tie_break() -> None:
    setup = Setup(("Ann", "Bob", "Cy"))
    events = issue_events()
    last = autorama.narrate(events, setup)[-1]
    assert last == (
        "Game over: Ann $77,000 ($58,000 in checks + $7,000 Restoration Specialist 22 doubling "
        "a $7,000 check + $9,000 Restoration Specialist 23 doubling a $9,000 check + $3,000 "
        "cash), Bob $77,000 ($52,000 in checks + $11,000 Controller 11 raising a $0 check to "
        "$11,000 + $12,000 Controller 12 raising a $0 check to $12,000 + $2,000 cash), Cy "
        "$20,000 ($10,000 in checks + $10,000 cash). Ann and Bob both have $77,000: Ann wins "
        "with the most cash ($3,000) (F20)."
    )
    told = autorama.narrate(events, setup, seat=0)[-1]
    assert told.startswith("Game over: you $77,000 (")
    assert told.endswith(
        "You and Bob both have $77,000: you win with the most cash ($3,000) (F20)."
    )
    # Told alone, the end still names the rule that broke the tie.
    alone = autorama.describe(events[-1], setup)
    assert alone.endswith(
        "Ann and Bob both have $77,000: Ann wins with the most cash ($3,000) (F20)."
    )


def test_the_issues_standings_add_up_and_name_the_tie_break() -> None:
    ann = score_seat(0, ANN_CHECKS, (22, 23), 3)
    bob = score_seat(1, BOB_CHECKS, (11, 12), 2)
    standings = autorama_shown.PRESENTATION.standings(
        Outcome((ann, bob), (0,), (1.0, 0.0)), Setup(("Ann", "Bob", "Cy"))
    )
    first, second = standings.seats
    assert (first.name, first.place, first.won, first.shown) == ("Ann", 1, True, "$77,000")
    assert (second.name, second.place, second.won) == ("Bob", 2, False)
    assert [(p.words, p.shown, p.rule) for p in first.parts] == [
        (
            "checks ($2,000, $4,000, $5,000, $6,000, $7,000, $9,000, $12,000, $13,000)",
            "$58,000",
            "F17",
        ),
        ("Restoration Specialist 22 doubling a $7,000 check", "$7,000", "F19"),
        ("Restoration Specialist 23 doubling a $9,000 check", "$9,000", "F19"),
        ("cash", "$3,000", "F19"),
    ]
    assert [p.amount for p in second.parts] == [52, 11, 12, 2]
    assert (
        standings.decided
        == "Ann and Bob both have $77,000: Ann wins with the most cash ($3,000) (F20)"
    )
    assert standings.rule == "F20"
    shared = autorama_shown.PRESENTATION.standings(
        Outcome((ann, score_seat(1, (0, 0, 2, 3, 8, 10, 13, 15), (11, 12), 3)), (0, 1), (1.0, 1.0)),
        Setup(("Ann", "Bob", "Cy")),
    )
    assert shared.decided == (
        "Ann and Bob both have $77,000 and $3,000 cash: they share the victory (F20)"
    )
    assert [s.place for s in shared.seats] == [1, 1]


def test_financial_advisors_each_name_their_bonus() -> None:
    score = score_seat(0, (3,), (25, 26), 4)
    parts = standing_parts(score)
    assert [(p.words, p.amount) for p in parts] == [
        ("checks ($3,000)", 3),
        ("cash", 4),
        ("Financial Advisor 25 paying the cash once more", 4),
        ("Financial Advisor 26 paying the cash once more", 4),
    ]
    assert sum(p.amount for p in parts) == score.total == 15


def test_the_table_sends_each_commands_question_and_the_standings_at_the_end() -> None:
    info = game_info("avanti")
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    while not any(isinstance(c, avanti.Quit) for c in game.legal_commands()):
        game = game.execute(game.legal_commands()[0])
    seat = next(c.seat for c in game.legal_commands() if isinstance(c, avanti.Quit))
    table: Any = table_data(game, info, seat, 0)
    legal = game.legal_commands(seat)
    assert len(table["confirm"]) == len(table["labels"]) == len(legal)
    for command, question in zip(legal, table["confirm"], strict=True):
        assert ("(A14)" in question) == isinstance(command, avanti.Quit)
        assert bool(question) == isinstance(command, avanti.Quit | avanti.PlayCard)
    assert table["standings"] is None
    assert table_data(game, info, None, 0)["confirm"] == []
    over = finished("autorama", 3, 5)
    ended: Any = table_data(over, game_info("autorama"), 1, 0)
    expected = autorama_shown.PRESENTATION.standings(over.outcome, over.public_setup).to_data()
    assert ended["standings"] == expected
    assert [s["total"] for s in sorted(expected["seats"], key=lambda s: s["seat"])] == [
        score.total for score in over.outcome.scores
    ]
    assert ended["confirm"] == []


def test_the_other_games_questions() -> None:
    public = autorama.new_game(["Ann", "Bob", "Cy"], seed=1).public_setup
    ask = autorama_shown.confirm
    assert ask(public, autorama.Bid(0, 5)).startswith("Bid $5,000?")
    assert "(F4)" in ask(public, autorama.Bid(0, 5))
    assert "(F5)" in ask(public, autorama.Pass(0))
    assert "(F9)" in ask(public, autorama.PlayAdvisor(0, 15))
    assert "(F14)" in ask(public, autorama.Offer(0, (12,)))
    assert ask(public, autorama.UseMechanic(0)) == ""
    setup = mare.new_game(["Ann"], seed=1).public_setup
    assert "(M6)" in mare_shown.confirm(setup, mare.SkipMove(0))
    assert mare_shown.confirm(setup, mare.Roll(0)) == ""


TOOLS = (
    SOURCE / "catalog.py",
    *sorted((SOURCE / "lab").glob("*.py")),
    SOURCE / "rl" / "table.py",
    SOURCE / "rl" / "openspiel.py",
    SOURCE / "server" / "protocol" / "wire.py",
)
"""The tools that reach a game's presentation: the catalog, the lab, the RL table and the
server's table payload."""


@pytest.mark.parametrize("path", TOOLS, ids=lambda path: path.name)
def test_no_tool_probes_a_game_module(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("getattr", "hasattr"), f"{path.name}:{node.lineno}"
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            assert (node.value.id, node.attr) != ("inspect", "signature"), path.name
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [alias.name for alias in node.names]
            module = getattr(node, "module", None)
            assert "inspect" not in names, f"{path.name}:{node.lineno}"
            assert module != "inspect", f"{path.name}:{node.lineno}"


@given(st.integers(min_value=-40, max_value=40))
def test_autorama_money_is_written_as_its_dollars(amount: int) -> None:
    """The unit the browser writes Autorama's money in is thousands of dollars (F2): the same
    words as the rules' own :func:`~avanti.autorama.cards.dollars` (3 is ``$3,000``)."""
    money = autorama_shown.PRESENTATION.money
    assert money.show(amount) == dollars(amount)
    assert money.show(3) == "$3,000"
    assert avanti_shown.PRESENTATION.money.show(1234) == "1,234"  # Avanti counts plain units
