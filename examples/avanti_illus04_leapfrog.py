"""Avanti, rulebook Illus. 4: a car that lands on another car jumps on by the same number.

The run of Illus. 3 goes on (marker on road space 31, Jack 3 spaces out, Isabella 2). Tina
reveals a 3: it would put her on Jack's car, so she drives another 3 and stops 6 spaces out, on a
free space (A11). Every hop is in the event, so a front end can animate it.
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
    print("Illus. 4: Tina drives 3 and lands on Jack, so she drives 3 more.")
    game, moves = drive(first_round(), JACK, ISABELLA, TINA)
    tina = moves[2]
    check(tina.number == 3, "Tina moves 3 spaces")
    check(tina.bumped == (JACK,), "she encounters Jack's car there")
    check(tina.hops == (3, 6), "so she drives another 3 spaces, to 6")
    check(game.state.distances[TINA] == 6, "Tina's car now stands 6 spaces past the marker")


if __name__ == "__main__":
    main()
