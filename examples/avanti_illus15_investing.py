"""Avanti, rulebook Illus. 15: buying steps on the island path.

Between runs every player may invest: each step on the island path costs the price printed on the
space entered, and the whole purchase must be affordable (A22). On the default board island
space 1 costs 1,000 and space 2 costs 2,000, so Tina, on the start space, pays 3,000 for two steps.
"""

from __future__ import annotations

from avanti_positions import (
    ISABELLA,
    JACK,
    PLAYERS,
    STEVE,
    TINA,
    WILLIAM,
    Illustration,
    check,
    play,
)

import avanti
from avanti import Invest, Invested, Phase, Scenario


def illustration() -> Illustration:
    """Tina buys two island steps between runs, as she sees it."""
    scenario = Scenario(
        marker=0,
        distances=(3, 2, 6, 12, 9),
        hands=((), (), (), (), ()),
        phase=Phase.INVESTING,
        ranking=(STEVE, WILLIAM, TINA, JACK, ISABELLA),
    )
    before = avanti.new_game(PLAYERS, 1, scenario=scenario)
    return Illustration(before, play(before, Invest(TINA, 2)), seat=TINA)


def main() -> None:
    print("Illus. 15: Tina, on the start space, buys two steps on the island path.")
    shown = illustration()
    after = shown.after
    island = after.setup.board.island
    check(island[1] == 1000, "Tina pays 1,000 monetas for the first space")
    check(island[2] == 2000, "for the second space she has to pay another 2,000")
    invested = shown.events
    check(invested == (Invested(TINA, 2, 3000, 0, 2),), "she moves two spaces for 3,000 in all")
    check(after.state.cash[TINA] == 2000, "of her 5,000 she keeps 2,000")


if __name__ == "__main__":
    main()
