"""Play Avanti on a board read from a TOML file, and see how a bad file is reported.

The default board ships as ``docs/boards/default-board.toml``. This script loads it and checks
it is the library's default board; writes a smaller board of its own (a 20-space road with three
parking lots and a cheap island path) and lets random bots play a whole seeded game on it; then
loads a file with a mistake in it and prints the error, which names the bad field and the rule.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import avanti
from avanti import load_board
from avanti.bots import RandomBot
from avanti.bots.driver import play

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT / "docs" / "boards" / "default-board.toml"

SMALL_BOARD = """\
# A short road: 20 spaces, parking lots (with ATMs) on 4, 11 and 17 (A4, A21).
track = [
    { toll = 100 }, { toll = 200 }, { toll = 300 }, { toll = 400 }, { atm = 300 },
    { toll = 500 }, { toll = 200 }, { toll = 100 }, { toll = 300 }, { toll = 600 },
    { toll = 200 }, { atm = 400 }, { toll = 100 }, { toll = 300 }, { toll = 500 },
    { toll = 200 }, { toll = 400 }, { atm = 200 }, { toll = 100 }, { toll = 300 },
]
# Island path: the start space, then 8 spaces; 0 means no price (A5, A22).
island = [0, 500, 1000, 1000, 1500, 2000, 0, 0, 0]
# The last 2 island spaces are the dream island.
island_depth = 2
"""

BAD_BOARD = SMALL_BOARD.replace("{ toll = 600 }", '{ toll = "600" }')
"""The same board with one toll written as a string: not a whole number."""


def check(condition: bool, claim: str) -> None:
    """Stop with an error unless ``claim`` holds (also under ``python -O``)."""
    if not condition:
        raise AssertionError(claim)
    print(f"  checked: {claim}")


def main() -> None:
    print(f"Loading {DEFAULT_FILE.relative_to(ROOT)}")
    check(load_board(DEFAULT_FILE) == avanti.DEFAULT_BOARD, "the file is the default board")

    with tempfile.TemporaryDirectory() as folder:
        small_file = Path(folder) / "small-board.toml"
        small_file.write_text(SMALL_BOARD, encoding="utf-8")
        board = load_board(small_file)
        print(f"\nA board of our own: {board.track_length} road spaces")
        check(board.track_length == 20, "the road has 20 spaces")
        lots = [i for i, space in enumerate(board.track) if space.is_parking]
        check(lots == [4, 11, 17], "parking lots on spaces 4, 11 and 17")
        check(board.dream_island_start == 7, "the dream island is spaces 7 and 8")

        game = avanti.new_game(["Ann", "Bob", "Cy"], seed=5, board=board)
        for step in play(game, {seat: RandomBot() for seat in range(3)}, seed=5):
            game = step.game
        outcome = game.outcome
        assert outcome is not None
        winner = game.setup.players[outcome.winner]
        print(f"  a random game on it ends after {game.version} events; {winner} wins")
        check(board.is_dream_island(game.state.island[outcome.winner]), "the winner is there")
        check(avanti.loads(avanti.dumps(game)) == game, "the board is saved with the game")

        bad_file = Path(folder) / "bad-board.toml"
        bad_file.write_text(BAD_BOARD, encoding="utf-8")
        print("\nA file with a mistake in it:")
        try:
            load_board(bad_file)
        except avanti.InvalidBoard as error:
            print(f"  InvalidBoard: {error}")
            check(error.field == "track[9].toll", "the error names the bad field")
        else:
            raise AssertionError("a toll written as a string was accepted")


if __name__ == "__main__":
    main()
