"""Avanti, rulebook Illus. 12: the best-placed cars of a run move up the island path.

After the run of Illus. 11 ends, the leader, William, moves his figure 3 spaces on the island
path, Tina in second place 2 and Jack in third place 1 (A19). With three players only the first
two would move.
"""

from __future__ import annotations

from avanti_positions import JACK, TINA, WILLIAM, Illustration, check, last_round

from avanti import FigureAdvanced


def illustration() -> Illustration:
    """Jack's drive ends the run and the first three figures move up, as a spectator sees it."""
    after = last_round()
    return Illustration(after.undo(), after, seat=None)


def main() -> None:
    print("Illus. 12: the run of Illus. 11 ends; the first three move up the island path.")
    shown = illustration()
    advanced = [e for e in shown.events if isinstance(e, FigureAdvanced)]
    check(advanced[0] == FigureAdvanced(WILLIAM, 1, 0, 3), "William moves 3 spaces ahead")
    check(advanced[1] == FigureAdvanced(TINA, 2, 0, 2), "Tina, in second place, advances 2")
    check(advanced[2] == FigureAdvanced(JACK, 3, 0, 1), "Jack, in third place, advances 1")
    check(len(advanced) == 3, "nobody else moves")


if __name__ == "__main__":
    main()
