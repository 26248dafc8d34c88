"""Bad input: every :class:`avanti.Reason` is raised with its rule id, and nothing changes."""

from __future__ import annotations

import enum
from collections.abc import Callable

import pytest

import avanti
from avanti import (
    Command,
    CoreReason,
    Drive,
    IllegalCommand,
    Invest,
    Phase,
    PlaceEventMarker,
    PlayCard,
    Quit,
    Reason,
)
from tests.avanti.support import NAMES, lay, scenario_game


def marker_step() -> avanti.Game:
    """Seat 1 starts and must place the marker; seat 0 holds cards 0.. as dealt by seed 4."""
    return avanti.new_game(NAMES[:3], 4, starting_seat=1)


def planning() -> avanti.Game:
    """Round 2, marker 0; seat 2 has quit. Hands: seat 0 (0, 9), seat 1 (1, 10)."""
    return scenario_game(
        3,
        marker=0,
        distances=(5, 9, 2),
        hands=((0, 9), (1, 10), (2,)),
        quit=(False, False, True),
        round=2,
    )


def driving() -> avanti.Game:
    """Both active seats have laid: seat 0 (last car) acts first."""
    return lay(planning(), (0, 4), (1, 1))


def investing() -> avanti.Game:
    """Between runs; seat 0 on island 8, seat 1 on 2 with 5,000, seat 2 has 500."""
    return scenario_game(
        3,
        marker=0,
        distances=(5, 9, 2),
        hands=((), (), ()),
        island=(8, 2, 0),
        cash=(5000, 5000, 500),
        phase=Phase.INVESTING,
        ranking=(1, 0, 2),
    )


def over() -> avanti.Game:
    game = scenario_game(
        3,
        marker=0,
        distances=(5, 9, 30),
        hands=((), (), ()),
        island=(0, 0, 8),
        laid=(None, None, (0, 5)),
        phase=Phase.DRIVING,
        round=3,
    )
    game = game.execute(Drive(2))
    assert game.is_over
    return game


class NotACommand:
    seat = 0


CASES: list[tuple[Callable[[], avanti.Game], object, Reason | CoreReason, str]] = [
    (over, Drive(0), Reason.GAME_OVER, "A20"),
    (planning, PlayCard(3, 0, 1), Reason.NO_SUCH_SEAT, "A1"),
    (planning, PlayCard(-1, 0, 1), Reason.NO_SUCH_SEAT, "A1"),
    (marker_step, PlaceEventMarker(0, 3), Reason.NOT_YOUR_TURN, "A7"),
    (driving, Drive(1), Reason.NOT_YOUR_TURN, "A10"),
    (driving, Quit(2), Reason.NOT_YOUR_TURN, "A10"),
    (marker_step, PlayCard(0, 0, 1), Reason.WRONG_PHASE, "A8"),
    (planning, Drive(0), Reason.WRONG_PHASE, "A9"),
    (planning, Invest(0, 0), Reason.WRONG_PHASE, "A22"),
    (planning, PlaceEventMarker(0, 3), Reason.WRONG_PHASE, "A7"),
    (investing, Quit(0), Reason.WRONG_PHASE, "A9"),
    (planning, NotACommand(), CoreReason.UNKNOWN_COMMAND, "A31"),
    (planning, PlayCard(0, "0", 1), CoreReason.MALFORMED_COMMAND, "A31"),  # type: ignore[arg-type]  # a str on purpose
    (planning, PlayCard(True, 0, 1), CoreReason.MALFORMED_COMMAND, "A31"),
    (marker_step, PlaceEventMarker(1, 34), Reason.NO_SUCH_SPACE, "A4"),
    (marker_step, PlaceEventMarker(1, -1), Reason.NO_SUCH_SPACE, "A4"),
    (planning, PlayCard(0, 1, 1), Reason.CARD_NOT_IN_HAND, "A8"),
    (planning, PlayCard(0, 99, 1), Reason.CARD_NOT_IN_HAND, "A8"),
    (planning, PlayCard(0, 0, 2), Reason.NUMBER_NOT_ON_CARD, "A3"),
    (lambda: lay(planning(), (0, 4)), PlayCard(0, 9, 2), Reason.ALREADY_PLAYED, "A8"),
    (planning, PlayCard(2, 2, 1), Reason.HAS_QUIT, "A14"),
    (lambda: investing().execute(Invest(1, 0)), Invest(1, 0), Reason.ALREADY_INVESTED, "A22"),
    (investing, Invest(1, -1), Reason.NEGATIVE_STEPS, "A22"),
    (investing, Invest(0, 5), Reason.PAST_END_OF_PATH, "A22"),
    (investing, Invest(0, 1), Reason.UNPRICED_SPACE, "A22"),
    (investing, Invest(1, 3), Reason.CANNOT_AFFORD, "A22"),
    (investing, Invest(2, 1), Reason.CANNOT_AFFORD, "A22"),
]


@pytest.mark.parametrize(("make", "command", "reason", "rule"), CASES)
def test_each_refusal_names_its_reason_and_rule_and_changes_nothing(
    make: Callable[[], avanti.Game], command: Command, reason: Reason | CoreReason, rule: str
) -> None:
    game = make()
    with pytest.raises(IllegalCommand) as error:
        game.execute(command)
    assert error.value.reason is reason
    assert error.value.rule == rule
    assert str(error.value).startswith(f"{rule}: ")
    assert error.value.command is command
    assert game == make()
    assert game == avanti.replay(game.setup, game.events)
    assert not game.is_legal(command)
    assert command not in game.legal_commands()


def test_every_reason_is_raised_somewhere() -> None:
    raised = {reason for _, _, reason, _ in CASES}
    assert raised - set(Reason) == {CoreReason.UNKNOWN_COMMAND, CoreReason.MALFORMED_COMMAND}
    assert set(Reason) <= raised


def test_reasons_shared_with_the_core_compare_equal() -> None:
    game_over: enum.StrEnum = Reason.GAME_OVER
    not_your_turn: str = Reason.NOT_YOUR_TURN
    assert game_over == avanti.CoreReason.GAME_OVER
    assert not_your_turn == "not-your-turn"


def test_functional_execute_leaves_the_state_alone() -> None:
    game = planning()
    state = game.state
    with pytest.raises(IllegalCommand):
        avanti.execute(state, PlayCard(0, 1, 1))
    assert state == game.state
    new_state, events = avanti.execute(state, PlayCard(0, 0, 4))
    assert events == (avanti.CardPlayed(0, 0, 4),)
    assert new_state == avanti.evolve(state, events[0])
    assert avanti.decide(state, PlayCard(0, 0, 4)) == events


def test_undo_with_nothing_to_undo_is_refused() -> None:
    with pytest.raises(IllegalCommand) as error:
        planning().undo()
    assert error.value.reason == avanti.CoreReason.NOTHING_TO_UNDO


def test_version_conflict() -> None:
    game = planning()
    with pytest.raises(avanti.VersionConflict):
        game.execute(PlayCard(0, 0, 4), expected_version=game.version + 1)
    assert game.execute(PlayCard(0, 0, 4), expected_version=game.version).version == 1
