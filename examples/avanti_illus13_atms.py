"""Avanti, rulebook Illus. 13: withdrawing money at the ATMs after a run.

Each parking lot pays its ATM amount, from the bank, to the first car at or ahead of it: a car
collects every lot from just past the car behind it up to its own space, and the last car, whose
"car behind" is the leader on the closed road, collects the lots behind the leader too (A21).

The default board's seven lots pay 2,100 in all, less than the 2,500 the rulebook's example hands
out, so this example plays on a custom board: the default one with the lot on road space 26
paying 700 instead of 300. Marker on space 0; Steve stands 4 spaces out, Jack 5, William 6,
Isabella 19, and Tina, the last to drive in the run's last round, goes from 18 to 24 and leads.
"""

from __future__ import annotations

from avanti_positions import ISABELLA, JACK, PLAYERS, STEVE, TINA, WILLIAM, check, play

import avanti
from avanti import DEFAULT_BOARD, AtmWithdrawn, Board, Drive, Phase, Scenario, Space


def main() -> None:
    track = list(DEFAULT_BOARD.track)
    track[26] = Space.parking(700)
    board = Board(tuple(track), DEFAULT_BOARD.island, DEFAULT_BOARD.island_depth)
    scenario = Scenario(
        marker=0,
        distances=(5, 19, 18, 4, 6),
        hands=((), (), (), (), ()),
        laid=(None, None, (3, 6), None, None),
        phase=Phase.DRIVING,
        round=3,
    )
    game = avanti.new_game(PLAYERS, 1, board=board, scenario=scenario)
    print("Illus. 13: Tina drives last; the run ends and everyone withdraws at the ATMs.")
    after = play(game, Drive(TINA))
    got = dict.fromkeys(range(5), 0)
    lots: dict[int, list[int]] = {seat: [] for seat in range(5)}
    for event in after.events[game.version :]:
        if isinstance(event, AtmWithdrawn):
            got[event.seat] += event.amount
            lots[event.seat].append(event.amount)
    check(got[WILLIAM] == 0 and got[JACK] == 0, "William and Jack don't withdraw any money")
    check(got[TINA] == 400, "Tina gets 400 monetas")
    check(got[STEVE] == 1100, "Steve gets 1,100 monetas")
    check(sorted(lots[ISABELLA]) == [200, 300, 500], 'Isabella is paid for "300", "500", "200"')


if __name__ == "__main__":
    main()
