"""Avanti, rulebook Illus. 6: one move, two leapfrogs.

Last in the first round of Illus. 3-5, William reveals a 3. Three spaces out stands Jack, so he
goes on 3 more; there stands Tina, so 3 more again. He stops 9 spaces out, 3 behind Steve (A11).
"""

from __future__ import annotations

from avanti_positions import (
    ISABELLA,
    JACK,
    STEVE,
    TINA,
    WILLIAM,
    Illustration,
    check,
    drive,
    first_round,
)


def illustration() -> Illustration:
    """Everyone else has driven; then William drives, as he sees it."""
    before, _ = drive(first_round(), JACK, ISABELLA, TINA, STEVE)
    after, _ = drive(before, WILLIAM)
    return Illustration(before, after, seat=WILLIAM)


def main() -> None:
    print("Illus. 6: William's 3 meets Jack, then Tina, and stops 3 spaces behind Steve.")
    shown = illustration()
    (william,) = shown.moves
    check(william.number == 3, "William plays his 3")
    check(william.bumped == (JACK, TINA), "he first encounters Jack, then Tina")
    check(william.hops == (3, 6, 9), "he hops from 3 to 6 to 9")
    distances = shown.after.state.distances
    check(distances[STEVE] - distances[WILLIAM] == 3, "he terminates his run 3 spaces behind Steve")


if __name__ == "__main__":
    main()
