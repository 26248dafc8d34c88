"""Avanti, rulebook Illus. 5: leapfrogging into the lead.

Next in the run of Illus. 3-4, Steve plays a 6. Six spaces out stands Tina's car, so he goes on
by another 6 and stops 12 spaces out, in front of everyone (A11, A12).
"""

from __future__ import annotations

import avanti
from avanti import CarMoved, Drive, PlayCard, Scenario

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


# Cards of the default deck: card 9 * (yellow - 1) + k prints yellow 1-3 and the k-th red pair.
HANDS = ((18, 0, 9), (10, 1, 19), (20, 2, 11), (3, 12, 13), (21, 4, 14))
LAID = ((JACK, 18, 3), (ISABELLA, 10, 2), (TINA, 20, 3), (STEVE, 3, 6), (WILLIAM, 21, 3))
"""(seat, card, number): Jack 3, Isabella 2, Tina 3, Steve 6, William 3 (Illus. 3-6)."""


def first_round() -> avanti.Game:
    """The run of Illus. 3-7: marker on road space 31, every card laid, nobody has driven."""
    scenario = Scenario(marker=31, distances=(0,) * 5, hands=HANDS)
    game = avanti.new_game(PLAYERS, 1, scenario=scenario)
    for seat, card, number in LAID:
        game = game.execute(PlayCard(seat, card, number))
    return game


def drive(game: avanti.Game, *seats: int) -> tuple[avanti.Game, list[CarMoved]]:
    """Let ``seats`` drive in turn, checking each is next (A10); return their moves."""
    moves = []
    for seat in seats:
        check(game.state.to_act() == seat, f"{PLAYERS[seat]} is the next to drive")
        before = game
        game = play(game, Drive(seat))
        moves += [e for e in game.events[before.version :] if isinstance(e, CarMoved)]
    return game, moves


def main() -> None:
    print("Illus. 5: Steve plays the 6, meets Tina and goes 6 further, into the lead.")
    game, moves = drive(first_round(), JACK, ISABELLA, TINA, STEVE)
    steve = moves[3]
    check(steve.number == 6, "Steve plays the 6")
    check(steve.bumped == (TINA,), "he encounters Tina there")
    check(steve.hops == (6, 12), "and puts himself in front, 6 spaces further")
    leader = max(range(4), key=lambda seat: game.state.distances[seat])
    check(leader == STEVE, "Steve's car is now the leading car")


if __name__ == "__main__":
    main()
