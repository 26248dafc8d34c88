"""Play one seeded game of Avanti mare! and print a transcript a person can follow.

After a free fish's colour the roller moves the fish nearest the boat, the one in most danger.
The asserts at the end check the result against the fish counts (rule M8).

:func:`illustration` is the checked game before and after its last roll, the roll that decides
it; the docs draw the two tables beside this script.
"""

from __future__ import annotations

import attrs

from avanti import mare

PLAYERS = ("Ann", "Bob", "Cy")
SIDES = (mare.Side.FISH_FRIENDS, mare.Side.FISHER_FANS, mare.Side.FISH_FRIENDS)
"""Each player's side (M2): Ann and Cy back the fish, Bob the fishers."""


@attrs.frozen
class Illustration:
    """A moment of the game: the game before a command and after it."""

    before: mare.Game
    after: mare.Game
    """``before`` with the command executed."""
    seat: int | None
    """Whose view the pictures show; ``None`` for a spectator. Every fact of this game is public
    (M1-M8), so every seat sees the same table."""
    lead_in: bool = True
    """The before-picture draws the command that led to it: late in a game, the roll before."""


def nearest_the_boat(game: mare.Game) -> mare.Command:
    """The command to play: the only roll, or the move of the fish nearest the boat (M6)."""
    legal = game.legal_commands()
    moves = [c for c in legal if isinstance(c, mare.MoveFish)]
    if not moves:
        return legal[0]
    return min(moves, key=lambda move: game.state.place(move.fish))


def play_game() -> mare.Game:
    """The seeded game, played to its end, printing each command's events in plain English."""
    game = mare.new_game(list(PLAYERS), seed=2036, sides=SIDES, first=1)
    for name, side in zip(PLAYERS, SIDES, strict=True):
        print(f"{name} backs the {side.value.replace('-', ' ')}.")
    while not game.is_over:
        before = game.version
        game = game.execute(nearest_the_boat(game))
        lines = [mare.describe(event, game.setup) for event in game.events[before:]]
        print(" ".join(lines))
    return game


def check(game: mare.Game) -> None:
    """Check the ended game against the fish counts (M8), its replay and its JSON."""
    outcome = game.outcome
    assert outcome is not None
    print(f"\nResult: {outcome.free} free, {outcome.caught} caught: {outcome.result.value}.")

    # Facts a reader can check against the transcript above.
    freed = sum(isinstance(event, mare.FishFreed) for event in game.events)
    caught = sum(isinstance(event, mare.FishCaught) for event in game.events)
    assert (outcome.free, outcome.caught) == (freed, caught)
    assert freed + caught == 4  # every fish ends free or caught (M8)
    expected = (
        mare.Result.FISH if freed > caught else mare.Result.FISHERS if caught > freed else None
    )
    assert outcome.result == (expected or mare.Result.DRAW)
    assert outcome.winners == tuple(
        seat for seat, side in enumerate(SIDES) if side is outcome.result.winner
    )
    assert game.state.in_river() == ()  # the game ends when no fish is left in the river
    assert mare.replay(game.setup, game.events) == game
    assert mare.loads(mare.dumps(game)) == game


def illustration() -> Illustration:
    """The last roll, as a spectator sees it. Before it the pink fish is alone on piece 11, the
    last piece, with the blue and yellow fish free and the orange caught; Cy rolls orange, a
    caught fish's colour, so the boat takes piece 11 (M7, M5), the pink fish is caught and the
    game ends 2-2, a draw (M8)."""
    game = play_game()
    check(game)
    last = game.undo()
    assert last.state.boat == mare.PIECES - 1
    assert last.state.in_river() == (mare.Fish.PINK,)
    assert last.state.place(mare.Fish.PINK) == mare.PIECES
    assert last.state.caught() == (mare.Fish.ORANGE,)
    rolled = [event for event in game.last_events() if isinstance(event, mare.DieRolled)]
    assert [(event.seat, event.face) for event in rolled] == [(2, mare.Face.ORANGE)]
    assert game.state.caught() == (mare.Fish.ORANGE, mare.Fish.PINK)
    return Illustration(last, game, seat=None)


def main() -> None:
    """Play the game, print it and check it."""
    check(play_game())


if __name__ == "__main__":
    main()
