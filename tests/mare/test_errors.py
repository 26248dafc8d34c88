"""Every illegal command raises IllegalCommand with its reason and rule, and changes nothing."""

from __future__ import annotations

import enum

import pytest

from avanti.core import CoreReason
from avanti.mare import (
    Fish,
    Game,
    IllegalCommand,
    MoveFish,
    Reason,
    Roll,
    decide,
    execute,
    loads,
    new_game,
)
from tests import toy

from .helpers import play_until


def _move_due_with_free_and_caught(game: Game) -> bool:
    state = game.state
    return state.move_due and bool(state.free()) and bool(state.caught())


START = new_game(["Ann", "Bob"], seed=1)
MOVE_DUE = play_until(_move_due_with_free_and_caught)
OVER = play_until(lambda game: game.is_over)


def _refused(game: Game, command: object, reason: enum.StrEnum, rule: str) -> IllegalCommand:
    snapshot = loads(game.dumps())  # an independent copy to compare with afterwards
    with pytest.raises(IllegalCommand) as caught:
        game.execute(command)  # type: ignore[arg-type]  # wrong commands are the point
    assert game == snapshot
    assert game.legal_commands() == snapshot.legal_commands()
    with pytest.raises(IllegalCommand):
        execute(game.state, command)  # type: ignore[arg-type]  # the functional form too
    assert (caught.value.reason, caught.value.rule) == (reason, rule)
    assert str(caught.value).startswith(f"{rule}: ")
    return caught.value


def test_the_situations_are_what_they_claim() -> None:
    state = MOVE_DUE.state
    assert state.move_due
    assert state.free()
    assert state.caught()
    assert state.in_river()
    assert OVER.is_over


def test_a_seat_that_is_not_at_the_table() -> None:
    error = _refused(START, Roll(2), CoreReason.NO_SUCH_SEAT, "M2")
    assert "seats are 0 to 1" in error.message


def test_a_seat_that_is_not_on_turn() -> None:
    error = _refused(START, Roll(1), CoreReason.NOT_YOUR_TURN, "M2")
    assert error.message == "it is seat 0's turn, not 1's"


def test_moving_a_fish_when_no_move_is_due() -> None:
    _refused(START, MoveFish(0, Fish.BLUE), CoreReason.WRONG_PHASE, "M6")


def test_rolling_while_a_move_is_due() -> None:
    _refused(MOVE_DUE, Roll(MOVE_DUE.state.turn), CoreReason.WRONG_PHASE, "M6")


def test_moving_for_another_seat_while_a_move_is_due() -> None:
    other = 1 - MOVE_DUE.state.turn
    fish = MOVE_DUE.state.in_river()[0]
    _refused(MOVE_DUE, MoveFish(other, fish), CoreReason.NOT_YOUR_TURN, "M2")


def test_moving_a_free_fish() -> None:
    fish = MOVE_DUE.state.free()[0]
    error = _refused(MOVE_DUE, MoveFish(MOVE_DUE.state.turn, fish), Reason.FISH_NOT_IN_RIVER, "M6")
    assert f"the {fish} fish is free in the sea" in error.message


def test_moving_a_caught_fish() -> None:
    fish = MOVE_DUE.state.caught()[0]
    error = _refused(MOVE_DUE, MoveFish(MOVE_DUE.state.turn, fish), Reason.FISH_NOT_IN_RIVER, "M6")
    assert f"the {fish} fish is caught" in error.message


def test_moving_something_that_is_not_a_fish() -> None:
    command = MoveFish(MOVE_DUE.state.turn, "red")  # type: ignore[arg-type]  # not a Fish
    error = _refused(MOVE_DUE, command, CoreReason.MALFORMED_COMMAND, "M2")
    assert error.message == "MoveFish.fish must be Fish, not 'red' (str)"


@pytest.mark.parametrize("command", [Roll(0), Roll(1), MoveFish(0, Fish.PINK)])
def test_any_command_once_the_game_is_over(command: Roll | MoveFish) -> None:
    _refused(OVER, command, CoreReason.GAME_OVER, "M8")


def test_a_command_of_another_game() -> None:
    _refused(START, toy.Roll(0), CoreReason.UNKNOWN_COMMAND, "M2")


def test_a_refused_command_is_named_in_the_error() -> None:
    with pytest.raises(IllegalCommand) as caught:
        decide(START.state, Roll(1))
    assert caught.value.command == Roll(1)
