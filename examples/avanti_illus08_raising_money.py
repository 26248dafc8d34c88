"""Avanti, rulebook Illus. 8: a player who cannot pay steps back on the island path.

Steve owes Isabella a toll of 1,000 but has only 300. He moves his figure back one island space
at a time, and for each space he leaves the bank pays him half its printed price (A17): leaving
space 1 (price 1,000) brings 500. Now on the start space he cannot step back further, so he pays
everything he has, 800, and the bank pays Isabella the missing 200.

The position: marker on road space 31; Steve stands on space 6 (toll 1,000), the others on
parking lots; it is round 2 and Isabella, the last to drive, goes from 25 to 30 spaces out and
takes the lead, so she collects.
"""

from __future__ import annotations

from avanti_positions import ISABELLA, PLAYERS, STEVE, Illustration, check, play

import avanti
from avanti import BankPaid, BankPayment, Drive, FigureRetreated, Phase, Scenario, TollPaid


def illustration() -> Illustration:
    """Isabella drives into the lead and Steve cannot pay her, as Steve sees it."""
    scenario = Scenario(
        marker=31,
        distances=(6, 25, 10, 9, 15),
        hands=((0,), (1,), (2,), (3,), (4,)),
        cash=(5000, 5000, 5000, 300, 5000),
        island=(0, 0, 0, 1, 0),
        laid=(None, (12, 5), None, None, None),
        phase=Phase.DRIVING,
        round=2,
    )
    before = avanti.new_game(PLAYERS, 1, scenario=scenario)
    return Illustration(before, play(before, Drive(ISABELLA)), seat=STEVE)


def main() -> None:
    print("Illus. 8: Isabella drives into the lead; Steve owes her 1,000 and has 300.")
    shown = illustration()
    after, new = shown.after, shown.events
    check(
        FigureRetreated(STEVE, 1, 0) in new,
        "Steve has to move backward on the island path, from space 1 to the start",
    )
    check(
        BankPaid(STEVE, 500, BankPayment.RETREAT, None) in new,
        "and gets 500 monetas for this (half of the 1,000 printed on space 1)",
    )
    check(TollPaid(STEVE, ISABELLA, 800) in new, "he gives this money with his 300 to Isabella")
    check(
        BankPaid(ISABELLA, 200, BankPayment.SHORTFALL, STEVE) in new,
        "the 200 he still owes are paid to Isabella by the bank",
    )
    check(after.state.cash[STEVE] == 0, "Steve is left with nothing")
    check(after.state.cash[ISABELLA] == 6000, "Isabella has received the whole 1,000")


if __name__ == "__main__":
    main()
