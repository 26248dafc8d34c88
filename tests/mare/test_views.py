"""Views show everything but the generator; describe gives one readable line per event."""

from __future__ import annotations

import attrs
import pytest

from avanti.mare import (
    CODEC,
    SEA,
    DieRolled,
    Event,
    Face,
    Fish,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    GameEnded,
    InvalidSetup,
    MoveDeclined,
    MoveOffered,
    Options,
    PieceRemoved,
    Result,
    RollIgnored,
    Side,
    TurnPassed,
    View,
    describe,
    narrate,
    new_game,
    public_setup,
    redact,
    view,
)

from .helpers import built

GAME = new_game(["Ann", "Bob", "Cy"], seed=12345)
for _ in range(5):
    GAME = GAME.execute(GAME.legal_commands()[0])


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_a_view_holds_the_table_but_not_the_generator(seat: int | None) -> None:
    seen = GAME.view(seat)
    state = GAME.state
    assert seen == View(
        seat, state.sides, state.options, state.boat, state.fish, state.turn, False, None
    )
    names = {field.name for field in attrs.fields(View)}
    assert not names & {"rng", "seed", "draws"}
    text = str(CODEC.unstructure(seen))
    assert "12345" not in text
    assert "seed" not in text


def test_every_event_is_shown_to_every_seat() -> None:
    for seat in (None, 0, 1, 2):
        assert GAME.events_for(seat) == GAME.events
    event = DieRolled(0, Face.RED)
    assert redact(event, 1) is event


def test_view_of_a_built_state() -> None:
    state = built(fish=(SEA, 7, 8, 0), boat=4, turn=1)
    seen = view(state, 1)
    assert (seen.boat, seen.fish, seen.turn) == (4, (SEA, 7, 8, 0), 1)


SETUP = new_game(["Ann", "Bob", "Cy"], sides=(Side.FISH_FRIENDS,) * 2 + (Side.FISHER_FANS,)).setup


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (DieRolled(0, Face.PINK), "Ann rolls pink."),
        (FishSwam(Fish.PINK, 7), "The pink fish swims to piece 7."),
        (FishFreed(Fish.BLUE), "The blue fish swims into the sea and is free."),
        (PieceRemoved(3), "Piece 3 is taken away; the boat moves up to piece 4."),
        (PieceRemoved(11), "Piece 11 is taken away; the boat reaches the sea."),
        (FishCaught(Fish.ORANGE, 3), "The orange fish on piece 3 is caught."),
        (
            MoveOffered(1, Fish.YELLOW),
            "The yellow fish is free already: Bob may move another fish.",
        ),
        (FishChosen(1, Fish.BLUE), "Bob chooses the blue fish."),
        (MoveDeclined(1), "Bob declines to move another fish."),
        (RollIgnored(2, Face.GREEN, False), "Nothing happens for green."),
        (RollIgnored(2, Face.BLUE, True), "Nothing happens for blue; Cy rolls again."),
        (TurnPassed(2), "Cy's turn."),
        (
            GameEnded(Result.FISH, 3, 1),
            "The game ends with 3 fish free and 1 caught: the fish friends win (Ann, Bob).",
        ),
        (
            GameEnded(Result.FISHERS, 1, 3),
            "The game ends with 1 fish free and 3 caught: the fisher fans win (Cy).",
        ),
        (GameEnded(Result.DRAW, 2, 2), "The game ends with 2 fish free and 2 caught: a draw."),
    ],
)
def test_describe_gives_one_line_per_event(event: Event, line: str) -> None:
    assert describe(event, SETUP) == line


def test_describe_says_an_owed_move_is_owed() -> None:
    # M6 under the published simulators' reading (M9): the roller moves, no "may".
    setup = attrs.evolve(SETUP, options=Options(free_fish_move_owed=True))
    line = describe(MoveOffered(1, Fish.YELLOW), setup)
    assert line == "The yellow fish is free already: Bob moves another fish."


def test_describe_speaks_to_the_viewing_seat_from_its_public_setup() -> None:
    """M2, M3, M6: the seat reading the line is "you"; the public setup is enough to say it."""
    public = public_setup(attrs.evolve(SETUP, options=Options(free_fish_move_owed=True)))
    assert describe(DieRolled(1, Face.RED), public, seat=1) == "You roll red."
    assert describe(DieRolled(1, Face.RED), public, seat=0) == "Bob rolls red."
    assert describe(MoveOffered(1, Fish.YELLOW), public, seat=1) == (
        "The yellow fish is free already: you move another fish."
    )
    assert describe(TurnPassed(1), public, seat=1) == "Your turn."
    assert describe(GameEnded(Result.FISH, 3, 1), public, seat=0) == (
        "The game ends with 3 fish free and 1 caught: the fish friends win (you, Bob)."
    )
    events = (DieRolled(1, Face.RED), TurnPassed(2))
    assert narrate(events, public, seat=2, after=1) == ("Your turn.",)


def test_a_side_may_be_given_by_its_name() -> None:
    """M2: ``new_game`` takes each side as a :class:`Side` or by its name; a wrong name is
    refused, naming M2."""
    game = new_game(["Ann", "Bob"], seed=1, sides=["fisher-fans", Side.FISHER_FANS])
    assert game.setup.sides == (Side.FISHER_FANS, Side.FISHER_FANS)
    with pytest.raises(InvalidSetup, match="M2"):
        new_game(["Ann", "Bob"], seed=1, sides=["fishers", "fish-friends"])
