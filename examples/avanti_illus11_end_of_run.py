"""Avanti, rulebook Illus. 11: the round in which a car reaches the event marker.

Tina drives 3, lands on William and goes on to 34 spaces out: the marker (34 spaces round).
William drives 3, lands on Tina and goes on to 37, into the lead. Jack drives 1, lands on Steve's
parked car (Steve has quit, but his car still stands there, A14) and goes on to 31: third place.
William collects 100 from Jack and 300 from Steve, who still pays though he has quit; Isabella
and Tina stand on parking lots. Because a car reached the marker, the run ends (A18).
"""

from __future__ import annotations

from avanti_positions import (
    JACK,
    STEVE,
    TINA,
    WILLIAM,
    Illustration,
    check,
    end_of_run,
    last_round,
)

from avanti import RunEnded, TollPaid


def illustration() -> Illustration:
    """The run's last round: Tina, William and Jack drive, as a spectator sees it."""
    before = end_of_run()
    return Illustration(before, last_round(before), seat=None)


def main() -> None:
    print("Illus. 11: the last round of a delivery run.")
    shown = illustration()
    game = shown.after
    moves = {move.seat: move for move in shown.moves}
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
