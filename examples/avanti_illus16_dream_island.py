"""Avanti, rulebook Illus. 16: two figures reach the dream island in the same run.

Steve (island space 9) wins the run and moves 3, to space 12; Isabella (space 8) comes second and
moves 2, to space 10. Both stand on the dream island (spaces 10-12 of the default board), so the
game ends at once, without withdrawing or investing, and the figure furthest ahead wins: Steve
(A20). A tie on the island would go to whoever ranked better in this last run.
"""

from __future__ import annotations

from avanti_positions import ISABELLA, PLAYERS, STEVE, Illustration, check, play

import avanti
from avanti import AtmWithdrawn, Drive, FigureAdvanced, Phase, Scenario


def illustration() -> Illustration:
    """Steve makes the last move of the run and the game ends, as Steve sees it."""
    scenario = Scenario(
        marker=0,
        distances=(3, 20, 6, 30, 9),
        hands=((), (), (), (), ()),
        island=(0, 8, 0, 9, 0),
        laid=(None, None, None, (0, 1), None),
        phase=Phase.DRIVING,
        round=4,
    )
    before = avanti.new_game(PLAYERS, 1, scenario=scenario)
    return Illustration(before, play(before, Drive(STEVE)), seat=STEVE)


def main() -> None:
    print("Illus. 16: Steve makes the last move of the run.")
    shown = illustration()
    after, new = shown.after, shown.events
    board = after.setup.board
    check(FigureAdvanced(STEVE, 1, 9, 12) in new, "Steve wins the run and moves to space 12")
    check(FigureAdvanced(ISABELLA, 2, 8, 10) in new, "Isabella comes second and moves to 10")
    on_island = [seat for seat in range(5) if board.is_dream_island(after.state.island[seat])]
    check(on_island == [ISABELLA, STEVE], "both reach the dream island in the same round")
    check(after.is_over, "the game ends")
    check(not any(isinstance(e, AtmWithdrawn) for e in new), "nobody withdraws money any more")
    check(after.outcome is not None and after.outcome.winner == STEVE, "Steve is further: he wins")


if __name__ == "__main__":
    main()
