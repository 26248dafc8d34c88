"""One or more tests per rule M1-M9, on built states with numbers checkable by hand."""

from __future__ import annotations

import re

import pytest

from avanti import core
from avanti.mare import (
    CAUGHT,
    FACES,
    PIECES,
    SEA,
    START,
    CaughtFishRoll,
    DieRolled,
    Face,
    Fish,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    FreeFishRoll,
    Game,
    GameEnded,
    IllegalCommand,
    InvalidSetup,
    MoveDeclined,
    MoveFish,
    MoveOffered,
    Options,
    Outcome,
    PieceRemoved,
    Reason,
    Result,
    Roll,
    RollIgnored,
    Setup,
    Side,
    SkipMove,
    TurnPassed,
    decide,
    execute,
    legal_commands,
    new_game,
    outcome,
    rules,
)

from .helpers import built

ANN, BOB = 0, 1


def test_m1_the_river_and_the_start() -> None:
    game = new_game(["Ann", "Bob"])
    state = game.state
    assert (PIECES, START, SEA, CAUGHT) == (11, 6, 12, 0)
    assert state.boat == 0  # nothing removed: piece 1 lies in front of the boat
    assert state.fish == (6, 6, 6, 6)
    assert state.in_river() == (Fish.BLUE, Fish.ORANGE, Fish.YELLOW, Fish.PINK)
    assert state.free() == state.caught() == ()
    assert game.events == ()


@pytest.mark.parametrize("players", [1, 6])
def test_m2_one_to_six_players(players: int) -> None:
    game = new_game([f"P{n}" for n in range(players)])
    assert game.state.seats == players
    assert game.legal_commands() == (Roll(0),)


@pytest.mark.parametrize(
    ("players", "sides", "first", "words"),
    [
        ([], None, 0, "1 to 6 players, got 0"),
        ([f"P{n}" for n in range(7)], None, 0, "1 to 6 players, got 7"),
        (["Ann", "Ann"], None, 0, "names must differ"),
        (["Ann", ""], None, 0, "seat 1: a name must have 1 to 40 characters, not 0"),
        (["Ann", "Bob"], (Side.FISH_FRIENDS,), 0, "needs a side, got 1 sides"),
        (["Ann", "Bob"], None, 2, "first seat must be from 0 to 1, got 2"),
        (["Ann", "Bob"], None, -1, "got -1"),
    ],
)
def test_m2_bad_setups_are_refused(
    players: list[str], sides: tuple[Side, ...] | None, first: int, words: str
) -> None:
    with pytest.raises(InvalidSetup) as caught:
        new_game(players, sides=sides, first=first)
    assert caught.value.rule == "M2"
    assert words in str(caught.value)


def test_m2_player_names_must_differ_exactly() -> None:
    assert new_game(["Ann", "ann"]).setup.players == ("Ann", "ann")  # case counts: two players
    text = new_game(["Ann", "Bob"]).dumps().replace('"Bob"', '"Ann"', 1)
    with pytest.raises(core.DecodeError, match="M2: player names must differ"):
        Game.loads(text)  # a document read back is checked as new_game checks


def test_m2_turns_go_clockwise_from_the_first_seat() -> None:
    game = new_game(["Ann", "Bob", "Cy"], seed=5, first=2)
    seats = []
    for _ in range(4):
        command = game.legal_commands()[0]
        seats.append(command.seat)
        game = game.execute(command)
        while game.state.move_due:  # a MoveFish stays with the roller (M6)
            game = game.execute(game.legal_commands()[0])
    assert seats == [2, 0, 1, 2]


def test_m2_sides_change_nothing_in_play() -> None:
    one = new_game(["Ann", "Bob"], seed=9, sides=(Side.FISH_FRIENDS, Side.FISHER_FANS))
    two = new_game(["Ann", "Bob"], seed=9, sides=(Side.FISHER_FANS, Side.FISHER_FANS))
    while not one.is_over:
        one = one.execute(one.legal_commands()[0])
        two = two.execute(two.legal_commands()[0])
    assert one.events == two.events
    assert one.outcome is not None
    assert two.outcome is not None
    assert one.outcome.result == two.outcome.result


def test_m3_the_face_comes_from_the_generator_and_is_logged() -> None:
    state = built(face=Face.YELLOW)
    events = decide(state, Roll(ANN))
    assert events[0] == DieRolled(ANN, Face.YELLOW)
    assert decide(state, Roll(ANN)) == events  # the same state always rolls the same face
    after, _ = execute(state, Roll(ANN))
    assert after.rng == core.Rng(state.rng.seed, state.rng.draws + 1)


def test_m3_each_face_comes_up_about_one_time_in_six() -> None:
    counts = dict.fromkeys(FACES, 0)
    for draws in range(6000):
        counts[FACES[core.Rng(1, draws).stream().below(6)]] += 1
    # 1000 expected per face; the standard deviation is sqrt(6000 * 1/6 * 5/6) = 28.9.
    assert all(880 < n < 1120 for n in counts.values()), counts


def test_m4_a_fish_colour_moves_that_fish_one_piece() -> None:
    state = built(fish=(6, 6, 6, 6), face=Face.PINK)
    after, events = execute(state, Roll(ANN))
    assert events == (DieRolled(ANN, Face.PINK), FishSwam(Fish.PINK, 7), TurnPassed(BOB))
    assert after.fish == (6, 6, 6, 7)
    assert after.turn == BOB


def test_m4_from_piece_eleven_a_fish_reaches_the_sea() -> None:
    state = built(fish=(11, 6, 6, 6), face=Face.BLUE)
    after, events = execute(state, Roll(ANN))
    assert events == (DieRolled(ANN, Face.BLUE), FishFreed(Fish.BLUE), TurnPassed(BOB))
    assert after.place(Fish.BLUE) == SEA
    assert after.free() == (Fish.BLUE,)


@pytest.mark.parametrize("face", [Face.RED, Face.GREEN])
def test_m5_red_or_green_takes_the_piece_in_front_and_its_fish(face: Face) -> None:
    state = built(fish=(3, 3, 4, 8), boat=2, face=face)
    after, events = execute(state, Roll(ANN))
    assert events == (
        DieRolled(ANN, face),
        PieceRemoved(3),
        FishCaught(Fish.BLUE, 3),
        FishCaught(Fish.ORANGE, 3),
        TurnPassed(BOB),
    )
    assert after.boat == 3  # piece 4 is now in front of the boat
    assert after.fish == (CAUGHT, CAUGHT, 4, 8)


def test_m5_an_empty_piece_is_taken_without_a_catch() -> None:
    after, events = execute(built(fish=(6, 7, 8, 9), boat=0, face=Face.RED), Roll(ANN))
    assert events == (DieRolled(ANN, Face.RED), PieceRemoved(1), TurnPassed(BOB))
    assert (after.boat, after.fish) == (1, (6, 7, 8, 9))


def test_m6_a_free_fish_colour_lets_the_roller_move_another_fish() -> None:
    state = built(fish=(SEA, 5, 9, CAUGHT), boat=3, face=Face.BLUE)
    offered, events = execute(state, Roll(ANN))
    assert events == (DieRolled(ANN, Face.BLUE), MoveOffered(ANN, Fish.BLUE))
    assert offered.move_due
    assert offered.turn == ANN
    assert legal_commands(offered) == (
        MoveFish(ANN, Fish.ORANGE),
        MoveFish(ANN, Fish.YELLOW),
        SkipMove(ANN),
    )
    after, events = execute(offered, MoveFish(ANN, Fish.YELLOW))
    assert events == (FishChosen(ANN, Fish.YELLOW), FishSwam(Fish.YELLOW, 10), TurnPassed(BOB))
    assert after.fish == (SEA, 5, 10, CAUGHT)
    assert not after.move_due
    assert after.turn == BOB


def test_m6_the_roller_may_decline_and_every_fish_stays() -> None:
    # The rulebook's "may": SkipMove leaves the river as it is and passes the turn.
    offered = built(fish=(SEA, 5, 9, CAUGHT), boat=3, move_due=True)
    after, events = execute(offered, SkipMove(ANN))
    assert events == (MoveDeclined(ANN), TurnPassed(BOB))
    assert (after.fish, after.boat, after.rng) == (offered.fish, offered.boat, offered.rng)
    assert not after.move_due
    assert after.turn == BOB
    assert legal_commands(after) == (Roll(BOB),)


def test_m6_declining_is_the_default_reading() -> None:
    assert Options().free_fish_move_owed is False
    assert new_game(["Ann"]).state.options.free_fish_move_owed is False


def test_m6_a_single_fish_in_the_river_may_be_moved_or_left() -> None:
    offered = built(fish=(SEA, SEA, CAUGHT, 10), boat=8, move_due=True)
    assert legal_commands(offered) == (MoveFish(ANN, Fish.PINK), SkipMove(ANN))


def test_m9_the_move_may_be_owed_as_published_simulators_read_it() -> None:
    options = Options(free_fish_move_owed=True)
    state = built(fish=(SEA, 5, 9, CAUGHT), boat=3, face=Face.BLUE, options=options)
    offered, events = execute(state, Roll(ANN))
    assert events == (DieRolled(ANN, Face.BLUE), MoveOffered(ANN, Fish.BLUE))
    assert legal_commands(offered) == (MoveFish(ANN, Fish.ORANGE), MoveFish(ANN, Fish.YELLOW))
    with pytest.raises(IllegalCommand) as caught:
        execute(offered, SkipMove(ANN))
    assert (caught.value.reason, caught.value.rule) == (Reason.MOVE_OWED, "M6")


@pytest.mark.parametrize("reading", [FreeFishRoll.NOTHING, FreeFishRoll.REROLL])
def test_m9_an_owed_move_changes_nothing_when_no_move_is_offered(reading: FreeFishRoll) -> None:
    owed = Options(free_fish_roll=reading, free_fish_move_owed=True)
    for options in (owed, Options(free_fish_roll=reading)):
        state = built(fish=(SEA, 6, 6, 6), face=Face.BLUE, options=options)
        after, events = execute(state, Roll(ANN))
        assert RollIgnored(ANN, Face.BLUE, reading is FreeFishRoll.REROLL) in events
        assert not after.move_due


def test_m6_the_chosen_fish_may_swim_into_the_sea() -> None:
    offered = built(fish=(SEA, 11, 9, 9), boat=3, move_due=True)
    after, events = execute(offered, MoveFish(ANN, Fish.ORANGE))
    assert events == (FishChosen(ANN, Fish.ORANGE), FishFreed(Fish.ORANGE), TurnPassed(BOB))
    assert after.free() == (Fish.BLUE, Fish.ORANGE)


def test_m7_a_caught_fish_colour_moves_the_boat() -> None:
    state = built(fish=(CAUGHT, 5, 9, 11), boat=4, face=Face.BLUE)
    after, events = execute(state, Roll(ANN))
    assert events == (
        DieRolled(ANN, Face.BLUE),
        PieceRemoved(5),
        FishCaught(Fish.ORANGE, 5),
        TurnPassed(BOB),
    )
    assert after.fish == (CAUGHT, CAUGHT, 9, 11)


def test_m8_all_fish_free_ends_the_game_for_the_fish() -> None:
    state = built(fish=(SEA, SEA, SEA, 11), boat=7, face=Face.PINK)
    after, events = execute(state, Roll(ANN))
    assert events[-1] == GameEnded(Result.FISH, free=4, caught=0)
    assert outcome(after) == Outcome(4, 0, Result.FISH, Side.FISH_FRIENDS, (ANN,), (1.0, 0.0))
    assert legal_commands(after) == ()


def test_m8_all_fish_caught_ends_the_game_for_the_fishers() -> None:
    state = built(fish=(CAUGHT, 9, 9, CAUGHT), boat=8, face=Face.GREEN, seats=3)
    after, events = execute(state, Roll(ANN))
    assert events[-1] == GameEnded(Result.FISHERS, free=0, caught=4)
    # seats 0 and 2 back the fish, seat 1 the fishers
    assert outcome(after) == Outcome(0, 4, Result.FISHERS, Side.FISHER_FANS, (1,), (0.0, 1.0, 0.0))


def test_m8_the_boat_reaching_the_sea_ends_the_game() -> None:
    state = built(fish=(SEA, 11, CAUGHT, SEA), boat=10, face=Face.RED)
    after, events = execute(state, Roll(ANN))
    assert events == (
        DieRolled(ANN, Face.RED),
        PieceRemoved(11),
        FishCaught(Fish.ORANGE, 11),
        GameEnded(Result.DRAW, free=2, caught=2),
    )
    assert after.boat == PIECES
    assert outcome(after) == Outcome(2, 2, Result.DRAW, None, (), (0.0, 0.0))


def test_m8_the_game_ends_when_no_fish_is_left_in_the_river() -> None:
    # Three free, one caught: the last fish swims free, so nothing is left to roll for.
    state = built(fish=(SEA, 11, CAUGHT, SEA), boat=3, face=Face.ORANGE)
    after, events = execute(state, Roll(ANN))
    assert events[-1] == GameEnded(Result.FISH, free=3, caught=1)
    assert after.boat == 3  # the boat is still far from the sea


def test_m8_no_outcome_while_fish_swim() -> None:
    assert outcome(built()) is None
    assert new_game(["Ann"]).outcome is None


def test_m9_a_fishers_face_left_out_of_boat_faces_does_nothing() -> None:
    options = Options(boat_faces=(Face.RED,))
    state = built(fish=(6, 6, 6, 6), face=Face.GREEN, options=options)
    after, events = execute(state, Roll(ANN))
    assert events == (
        DieRolled(ANN, Face.GREEN),
        RollIgnored(ANN, Face.GREEN, False),
        TurnPassed(1),
    )
    assert (after.boat, after.fish) == (0, (6, 6, 6, 6))


@pytest.mark.parametrize(
    ("reading", "again"), [(CaughtFishRoll.NOTHING, False), (CaughtFishRoll.REROLL, True)]
)
def test_m9_a_caught_fish_colour_may_be_ignored(reading: CaughtFishRoll, again: bool) -> None:
    state = built(
        fish=(CAUGHT, 6, 6, 6), boat=1, face=Face.BLUE, options=Options(caught_fish_roll=reading)
    )
    after, events = execute(state, Roll(ANN))
    ignored = (DieRolled(ANN, Face.BLUE), RollIgnored(ANN, Face.BLUE, again))
    assert events == (ignored if again else (*ignored, TurnPassed(BOB)))
    assert after.boat == 1
    assert legal_commands(after) == ((Roll(ANN),) if again else (Roll(BOB),))


@pytest.mark.parametrize(
    ("reading", "again"), [(FreeFishRoll.NOTHING, False), (FreeFishRoll.REROLL, True)]
)
def test_m9_a_free_fish_colour_may_be_ignored(reading: FreeFishRoll, again: bool) -> None:
    state = built(fish=(SEA, 6, 6, 6), face=Face.BLUE, options=Options(free_fish_roll=reading))
    after, events = execute(state, Roll(ANN))
    ignored = (DieRolled(ANN, Face.BLUE), RollIgnored(ANN, Face.BLUE, again))
    assert events == (ignored if again else (*ignored, TurnPassed(BOB)))
    assert after.fish == (SEA, 6, 6, 6)
    assert not after.move_due


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            Options(boat_faces=(Face.BLUE,)),
            "boat_faces must be distinct fishers' faces (red, green)",
        ),
        (
            Options(boat_faces=(Face.RED, Face.RED)),
            "boat_faces must be distinct fishers' faces (red, green)",
        ),
        (
            Options(boat_faces=(Face.RED,) * 3),
            "boat_faces names at most 2 faces (red, green), got 3",
        ),
    ],
)
def test_m9_bad_options_are_refused(options: Options, words: str) -> None:
    with pytest.raises(InvalidSetup) as caught:
        new_game(["Ann"], seed=0, options=options)
    assert caught.value.rule == "M9"
    assert caught.value.message == words


@pytest.mark.parametrize(
    "options",
    [
        Options(boat_faces=["red"]),  # type: ignore[arg-type]  # a list of strings, on purpose
        Options(boat_faces=("red",)),  # type: ignore[arg-type]  # a string for a face, on purpose
        Options(caught_fish_roll="boat"),  # type: ignore[arg-type]  # a string, on purpose
        Options(free_fish_roll="nothing"),  # type: ignore[arg-type]  # a string, on purpose
        Options(free_fish_move_owed=1),  # type: ignore[arg-type]  # a number, on purpose
        Options(free_fish_move_owed="yes"),  # type: ignore[arg-type]  # a string, on purpose
    ],
)
def test_m9_options_of_the_wrong_form_are_refused(options: Options) -> None:
    # The core checks the form of every setup first, naming the setup rule (M2); the game's own
    # check of the options (M9) refuses the same values when called on its own.
    with pytest.raises(InvalidSetup) as caught:
        new_game(["Ann"], seed=0, options=options)
    assert caught.value.rule == "M2"
    assert caught.value.message.startswith("setup.options.")
    with pytest.raises(InvalidSetup) as direct:
        rules.check_options(options)
    assert direct.value.rule == "M9"


def test_m9_no_boat_faces_is_a_valid_reading() -> None:
    game = new_game(["Ann"], options=Options(boat_faces=()))
    assert game.state.options.boat_faces == ()


@pytest.mark.parametrize(
    ("setup", "words", "own_rule", "own_words"),
    [
        (
            Setup(["Ann"], (Side.FISH_FRIENDS,)),  # type: ignore[arg-type]  # a list, on purpose
            "setup.players must be a tuple, not list",
            "M2",
            "players must be a tuple of names, not list",
        ),
        (
            Setup(("Ann",), ("fish-friends",)),  # type: ignore[arg-type]  # a string, on purpose
            "setup.sides[0] must be Side, not str",
            "M2",
            "sides must be a tuple of Side values",
        ),
        (
            Setup(("Ann",), (Side.FISH_FRIENDS,), seed="7"),  # type: ignore[arg-type]  # a string, on purpose
            "setup.seed must be int, not str",
            "M3",
            "the seed must be an int, not str",
        ),
        (
            Setup(("Ann",), (Side.FISH_FRIENDS,), first=True),
            "setup.first must be int, not bool",
            "M2",
            "the first seat must be from 0 to 0, got a bool",
        ),
        (
            Setup(("Ann",), [Side.FISH_FRIENDS]),  # type: ignore[arg-type]  # a list, on purpose
            "setup.sides must be a tuple, not list",
            "M2",
            "sides must be a tuple of Side values, not list",
        ),
        (
            Setup(("Ann",), (Side.FISH_FRIENDS,), options=None),  # type: ignore[arg-type]  # on purpose
            "setup.options must be Options, not NoneType",
            "M9",
            "options must be an avanti.mare.Options, not NoneType",
        ),
    ],
)
def test_m2_m3_setups_built_by_hand_are_checked_too(
    setup: Setup, words: str, own_rule: str, own_words: str
) -> None:
    with pytest.raises(InvalidSetup) as caught:
        Game.new(setup)
    assert (caught.value.rule, caught.value.message) == ("M2", words)  # the core's form check
    with pytest.raises(InvalidSetup) as own:
        rules.check_setup(setup)  # the game's own check refuses it too, naming its rule
    assert (own.value.rule, own.value.message) == (own_rule, own_words)


def test_m2_a_setup_that_is_no_setup_is_refused() -> None:
    with pytest.raises(InvalidSetup) as caught:
        rules.check_setup(None)  # type: ignore[arg-type]  # not a setup, on purpose
    assert (caught.value.rule, caught.value.message) == (
        "M2",
        "a setup must be an avanti.mare.Setup, not NoneType",
    )


# -- a built position (M1, M5, M8) ---------------------------------------------------------------


def test_m1_a_scenario_places_the_boat_and_each_fish() -> None:
    from avanti.mare import Scenario, dumps, loads

    game = new_game(["Ann", "Bob"], seed=3, first=1, scenario=Scenario(boat=4, fish=[5, 12, 0, 9]))
    assert (game.state.boat, game.state.fish, game.state.turn) == (4, (5, 12, 0, 9), 1)
    assert game.public_setup.scenario == Scenario(4, (5, 12, 0, 9))
    assert loads(dumps(game)) == game


@pytest.mark.parametrize(
    ("boat", "fish", "message"),
    [
        (4, (3, 6, 6, 6), "M5: the blue fish is on piece 3, which the boat has taken"),
        (4, (0, 0, 12, 12), "M8: no fish is left in the river"),
        (4, (13, 6, 6, 6), "M1: the blue fish must be on a river piece 1-11"),
        (11, (12, 12, 12, 12), "M5: the boat has taken 0 to 10 river pieces"),
        (0, (6, 6, 6), "M1: a scenario places each of the 4 fish"),
    ],
)
def test_m5_a_scenario_the_rules_cannot_reach_is_refused(
    boat: int, fish: tuple[int, ...], message: str
) -> None:
    from avanti.mare import Scenario

    with pytest.raises(InvalidSetup, match=re.escape(message)):
        new_game(["Ann"], seed=1, scenario=Scenario(boat, fish))


def test_m1_a_scenario_of_another_kind_is_refused() -> None:
    from avanti.mare.scenario import check_scenario

    with pytest.raises(InvalidSetup, match=r"M1: a scenario must be an avanti\.mare\.Scenario"):
        check_scenario("boat 4")  # type: ignore[arg-type]  # on purpose
