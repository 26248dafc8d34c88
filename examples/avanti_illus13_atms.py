"""Avanti, rulebook Illus. 13: withdrawing money at the ATMs after a run.

Each parking lot pays its ATM amount, from the bank, to the first car at or ahead of it: a car
collects every lot from just past the car behind it up to its own space, and the last car, whose
"car behind" is the leader on the closed road, collects the lots past the leader too (A21).

This is the run of Illus. 11-12, on the default board as it is: when it ends, Isabella (the last
car) stands on the lot at road space 3, Steve on 18, Jack on 19, Tina on the lot at 22 and
William, the leader, on 25. Tina takes her own lot (400). Steve takes the three lots between
Isabella and himself (400, 500, 200). Isabella takes the lots at 26 and 31, past the leader, and
her own at 3: "300", "500" and "200". Nothing lies between Steve and Jack, or between Tina and
William. The seven lots pay 2,500 in all.
"""

from __future__ import annotations

from avanti_positions import ISABELLA, JACK, STEVE, TINA, WILLIAM, Illustration, check, last_round

from avanti import AtmWithdrawn


def illustration() -> Illustration:
    """Jack's drive ends the run and the parking lots pay out, as a spectator sees it."""
    after = last_round()
    return Illustration(after.undo(), after, seat=None)


def main() -> None:
    print("Illus. 13: the run of Illus. 11 ends; everyone withdraws at the ATMs.")
    shown = illustration()
    got = dict.fromkeys(range(5), 0)
    lots: dict[int, list[int]] = {seat: [] for seat in range(5)}
    for event in shown.events:
        if isinstance(event, AtmWithdrawn):
            got[event.seat] += event.amount
            lots[event.seat].append(event.amount)
    check(got[WILLIAM] == 0 and got[JACK] == 0, "William and Jack don't withdraw any money")
    check(got[TINA] == 400, "Tina gets 400 monetas")
    check(got[STEVE] == 1100, "Steve gets 1,100 monetas")
    check(sorted(lots[ISABELLA]) == [200, 300, 500], 'Isabella is paid for "300", "500", "200"')


if __name__ == "__main__":
    main()
