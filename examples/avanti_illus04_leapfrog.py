"""Avanti, rulebook Illus. 4: a car that lands on another car jumps on by the same number.

The run of Illus. 3 goes on (marker on road space 31, Jack 3 spaces out, Isabella 2). Tina
reveals a 3: it would put her on Jack's car, so she drives another 3 and stops 6 spaces out, on a
free space (A11). Every hop is in the event, so a front end can animate it.
"""

from __future__ import annotations

from avanti_positions import ISABELLA, JACK, TINA, Illustration, check, drive, first_round


def illustration() -> Illustration:
    """Jack and Isabella have driven; then Tina drives, as she sees it."""
    before, _ = drive(first_round(), JACK, ISABELLA)
    after, _ = drive(before, TINA)
    return Illustration(before, after, seat=TINA)


def main() -> None:
    print("Illus. 4: Tina drives 3 and lands on Jack, so she drives 3 more.")
    shown = illustration()
    (tina,) = shown.moves
    check(tina.number == 3, "Tina moves 3 spaces")
    check(tina.bumped == (JACK,), "she encounters Jack's car there")
    check(tina.hops == (3, 6), "so she drives another 3 spaces, to 6")
    check(shown.after.state.distances[TINA] == 6, "Tina's car now stands 6 spaces past the marker")


if __name__ == "__main__":
    main()
