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
    Options,
    Reason,
    Roll,
    SkipMove,
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
OWED = play_until(_move_due_with_free_and_caught, options=Options(free_fish_move_owed=True))
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
    for game in (MOVE_DUE, OWED):
        state = game.state
        assert state.move_due
        assert state.free()
        assert state.caught()
        assert state.in_river()
    assert OWED.state.options.free_fish_move_owed
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
    error = _refused(MOVE_DUE, Roll(MOVE_DUE.state.turn), CoreReason.WRONG_PHASE, "M6")
    assert error.message.endswith("must first move another fish or decline the move")
    error = _refused(OWED, Roll(OWED.state.turn), CoreReason.WRONG_PHASE, "M6")
    assert error.message.endswith("must first move another fish")


def test_declining_when_no_move_is_due() -> None:
    error = _refused(START, SkipMove(0), CoreReason.WRONG_PHASE, "M6")
    assert error.message == "a move may be declined only right after rolling a free fish's colour"


def test_declining_for_another_seat_while_a_move_is_due() -> None:
    other = 1 - MOVE_DUE.state.turn
    _refused(MOVE_DUE, SkipMove(other), CoreReason.NOT_YOUR_TURN, "M2")


def test_declining_a_move_that_is_owed() -> None:
    # M9: under the published simulators' reading the move after a free fish's colour is owed.
    error = _refused(OWED, SkipMove(OWED.state.turn), Reason.MOVE_OWED, "M6")
    assert "free_fish_move_owed" in error.message
    assert SkipMove(OWED.state.turn) not in OWED.legal_commands()


def test_declining_for_a_seat_that_is_not_a_number() -> None:
    command = SkipMove(True)  # a bool is an int to mypy, not to the core
    error = _refused(MOVE_DUE, command, CoreReason.MALFORMED_COMMAND, "M2")
    assert error.message == "SkipMove.seat must be int, not True (bool)"


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


@pytest.mark.parametrize("command", [Roll(0), Roll(1), MoveFish(0, Fish.PINK), SkipMove(0)])
def test_any_command_once_the_game_is_over(command: Roll | MoveFish | SkipMove) -> None:
    _refused(OVER, command, CoreReason.GAME_OVER, "M8")


def test_a_command_of_another_game() -> None:
    _refused(START, toy.Roll(0), CoreReason.UNKNOWN_COMMAND, "M2")


def test_a_refused_command_is_named_in_the_error() -> None:
    with pytest.raises(IllegalCommand) as caught:
        decide(START.state, Roll(1))
    assert caught.value.command == Roll(1)
