"""Avanti, rulebook Illus. 12: the best-placed cars of a run move up the island path.

After the run of Illus. 11 ends, the leader, William, moves his figure 3 spaces on the island
path, Tina in second place 2 and Jack in third place 1 (A19). With three players only the first
two would move.
"""

from __future__ import annotations

import avanti
from avanti import Drive, FigureAdvanced, Phase, Scenario

PLAYERS = ("Jack", "Isabella", "Tina", "Steve", "William")
JACK, ISABELLA, TINA, STEVE, WILLIAM = range(5)


def check(condition: bool, claim: str) -> None:
    """Stop with an error unless the rulebook's claim holds (also under ``python -O``)."""
    if not condition:
        raise AssertionError(f"the rulebook says: {claim}")
    print(f"  checked: {claim}")


def play(game: avanti.Game, command: avanti.Command) -> avanti.Game:
    """Execute ``command`` and print one line for each event it caused."""
    after = game.execute(command)
    for event in after.events[game.version :]:
        print("  " + avanti.describe(event, after.setup))
    return after


# Marker on road space 0. Isabella has quit on the parking lot at space 7 and Steve on space 28
# (toll 300). Tina (23 spaces out), William (30) and Jack (24) still drive, with a 7, a 7 and a 4.
END_OF_RUN = Scenario(
    marker=0,
    distances=(24, 7, 23, 28, 30),
    hands=((), (), (), (), ()),
    quit=(False, True, False, True, False),
    laid=((9, 4), None, (2, 7), None, (4, 7)),
    phase=Phase.DRIVING,
    round=5,
)


def last_round() -> avanti.Game:
    """Play the last round of the run: Tina, William and Jack drive, in that order (A10)."""
    game = avanti.new_game(PLAYERS, 1, scenario=END_OF_RUN)
    check(game.state.order == (TINA, WILLIAM, JACK), "Tina's car is last, so she drives first")
    for seat in game.state.order:
        game = play(game, Drive(seat))
    return game


def main() -> None:
    print("Illus. 12: the run of Illus. 11 ends; the first three move up the island path.")
    game = last_round()
    advanced = [e for e in game.events if isinstance(e, FigureAdvanced)]
    check(advanced[0] == FigureAdvanced(WILLIAM, 1, 0, 3), "William moves 3 spaces ahead")
    check(advanced[1] == FigureAdvanced(TINA, 2, 0, 2), "Tina, in second place, advances 2")
    check(advanced[2] == FigureAdvanced(JACK, 3, 0, 1), "Jack, in third place, advances 1")
    check(len(advanced) == 3, "nobody else moves")


if __name__ == "__main__":
    main()
