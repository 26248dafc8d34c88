"""Avanti, rulebook Illus. 11: the round in which a car reaches the event marker.

Tina drives 7, lands on William and goes on to 37 spaces out: past the marker (34 spaces round).
William drives 7, lands on Tina and goes on to 44, into the lead. Jack drives 4, lands on Steve's
parked car (Steve has quit, but his car still stands there, A14) and goes on to 32: third place.
William collects 100 from Jack and 300 from Steve, who still pays though he has quit; Isabella
and Tina stand on parking lots. Because a car reached the marker, the run ends (A18).
"""

from __future__ import annotations

import avanti
from avanti import CarMoved, Drive, Phase, RunEnded, Scenario, TollPaid

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
    print("Illus. 11: the last round of a delivery run.")
    game = last_round()
    moves = {e.seat: e for e in game.events if isinstance(e, CarMoved)}
    check(moves[TINA].hops[-1] >= game.setup.board.track_length, "Tina reaches the event marker")
    check(moves[WILLIAM].bumped == (TINA,), "William passes Tina")
    check(moves[JACK].bumped == (STEVE,), "Jack uses Steve's parked car")
    paid = [(e.payer, e.payee, e.amount) for e in game.events if isinstance(e, TollPaid)]
    check(paid == [(JACK, WILLIAM, 100), (STEVE, WILLIAM, 300)], "William collects 100 and 300")
    ended = [e for e in game.events if isinstance(e, RunEnded)]
    check(len(ended) == 1, "after that, the delivery run ends")
    check(ended[0].ranking[:3] == (WILLIAM, TINA, JACK), "William first, Tina second, Jack third")


if __name__ == "__main__":
    main()
