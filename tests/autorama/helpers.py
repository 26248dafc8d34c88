"""Built positions and small helpers shared by the autorama tests."""

from __future__ import annotations

import pytest

from avanti.autorama import (
    Command,
    Game,
    IllegalCommand,
    Options,
    Phase,
    Scenario,
    new_game,
)

ISAAC, BECKY, CHLOE = 0, 1, 2
"""The rulebook's three players, seated clockwise: Isaac, then Becky, then Chloe."""
RULEBOOK_PLAYERS = ("Isaac", "Becky", "Chloe")


def build(
    *,
    phase: Phase = Phase.HIRING,
    players: tuple[str, ...] = RULEBOOK_PLAYERS,
    first: int = 0,
    round: int = 1,
    advisor_deck: tuple[int, ...] = (),
    vehicle_deck: tuple[int, ...] = (),
    check_deck: tuple[int, ...] = (),
    cash: tuple[int, ...] = (),
    advisors: tuple[tuple[int, ...], ...] = (),
    vehicles: tuple[tuple[int, ...], ...] = (),
    checks: tuple[tuple[int, ...], ...] = (),
    kept: tuple[tuple[int, ...], ...] = (),
    options: Options = Options(),  # noqa: B008  Options is frozen
) -> Game:
    """A game started from a built position through the public scenario builder."""
    scenario = Scenario(
        phase=phase,
        round=round,
        advisor_deck=advisor_deck,
        vehicle_deck=vehicle_deck,
        check_deck=check_deck,
        cash=cash,
        advisors=advisors,
        vehicles=vehicles,
        checks=checks,
        kept=kept,
    )
    return new_game(players, seed=0, first=first, options=options, scenario=scenario)


def play(game: Game, *commands: Command) -> Game:
    """Execute each command in turn."""
    for command in commands:
        game = game.execute(command)
    return game


def refused(game: Game, command: Command, reason: str, rule: str) -> IllegalCommand:
    """Check that ``command`` is refused for ``reason`` under ``rule`` and changes nothing."""
    before = game.dumps()
    with pytest.raises(IllegalCommand) as info:
        game.execute(command)
    assert info.value.reason == reason
    assert info.value.rule == rule
    assert command not in game.legal_commands()
    assert not game.is_legal(command)
    assert game.dumps() == before
    return info.value
