"""Avanti, rulebook Illus. 3: the first two cars of a delivery run move off the start.

Five players (Jack, Isabella, Tina, Steve and William, in seats 0-4) start a run with the event
marker on road space 31 of the default board. Each lays a Power card face down; then, starting
with the run's starting player (Jack), each reveals it and drives. Jack drives 3 spaces and
Isabella 2: neither lands on another car, so each moves once (A11).
"""

from __future__ import annotations

from avanti_positions import ISABELLA, JACK, Illustration, check, drive, first_round


def illustration() -> Illustration:
    """Every card is laid; then Jack and Isabella drive, as a spectator sees it."""
    before = first_round()
    after, _ = drive(before, JACK, ISABELLA)
    return Illustration(before, after, seat=None)


def main() -> None:
    print("Illus. 3: every card is laid; Jack, the run's starting player, drives first (A10).")
    shown = illustration()
    jack, isabella = shown.moves
    check(jack.hops == (3,), "Jack moves his car 3 spaces ahead")
    check(isabella.hops == (2,), "Isabella drives 2 spaces")
    distances = shown.after.state.distances
    check(distances[:2] == (3, 2), "Jack stands 3 spaces past the marker, Isabella 2")


if __name__ == "__main__":
    main()
