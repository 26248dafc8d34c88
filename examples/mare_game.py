"""Play one seeded game of Avanti mare! and print a transcript a person can follow.

After a free fish's colour the roller moves the fish nearest the boat, the one in most danger.
The asserts at the end check the result against the fish counts (rule M8).
"""

from __future__ import annotations

from avanti import mare


def nearest_the_boat(game: mare.Game) -> mare.Command:
    """The command to play: the only roll, or the move of the fish nearest the boat (M6)."""
    legal = game.legal_commands()
    moves = [c for c in legal if isinstance(c, mare.MoveFish)]
    if not moves:
        return legal[0]
    return min(moves, key=lambda move: game.state.place(move.fish))


def main() -> None:
    players = ["Ann", "Bob", "Cy"]
    sides = (mare.Side.FISH_FRIENDS, mare.Side.FISHER_FANS, mare.Side.FISH_FRIENDS)
    game = mare.new_game(players, seed=2036, sides=sides, first=1)
    for name, side in zip(players, sides, strict=True):
        print(f"{name} backs the {side.value.replace('-', ' ')}.")
    while not game.is_over:
        before = game.version
        game = game.execute(nearest_the_boat(game))
        lines = [mare.describe(event, game.setup) for event in game.events[before:]]
        print(" ".join(lines))

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
        seat for seat, side in enumerate(sides) if side is outcome.result.winner
    )
    assert game.state.in_river() == ()  # the game ends when no fish is left in the river
    assert mare.replay(game.setup, game.events) == game
    assert mare.loads(mare.dumps(game)) == game


if __name__ == "__main__":
    main()
