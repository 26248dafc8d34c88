"""Avanti, rulebook Illus. 15: buying steps on the island path.

Between runs every player may invest: each step on the island path costs the price printed on the
space entered, and the whole purchase must be affordable (A22). On the default board island
space 1 costs 1,000 and space 2 costs 2,000, so Tina, on the start space, pays 3,000 for two steps.
"""

from __future__ import annotations

import avanti
from avanti import Invest, Invested, Phase, Scenario

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


def main() -> None:
    scenario = Scenario(
        marker=0,
        distances=(3, 2, 6, 12, 9),
        hands=((), (), (), (), ()),
        phase=Phase.INVESTING,
        ranking=(STEVE, WILLIAM, TINA, JACK, ISABELLA),
    )
    game = avanti.new_game(PLAYERS, 1, scenario=scenario)
    island = game.setup.board.island
    print(f"Illus. 15: island space 1 costs {island[1]:,}, space 2 costs {island[2]:,}.")
    after = play(game, Invest(TINA, 2))
    check(island[1] == 1000, "Tina pays 1,000 monetas for the first space")
    check(island[2] == 2000, "for the second space she has to pay another 2,000")
    invested = after.events[game.version :]
    check(invested == (Invested(TINA, 2, 3000, 0, 2),), "she moves two spaces for 3,000 in all")
    check(after.state.cash[TINA] == 2000, "of her 5,000 she keeps 2,000")


if __name__ == "__main__":
    main()
