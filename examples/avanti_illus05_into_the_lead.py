"""Avanti, rulebook Illus. 5: leapfrogging into the lead.

Next in the run of Illus. 3-4, Steve plays a 6. Six spaces out stands Tina's car, so he goes on
by another 6 and stops 12 spaces out, in front of everyone (A11, A12).
"""

from __future__ import annotations

from avanti_positions import (
    ISABELLA,
    JACK,
    STEVE,
    TINA,
    Illustration,
    check,
    drive,
    first_round,
)


def illustration() -> Illustration:
    """Jack, Isabella and Tina have driven; then Steve drives, as he sees it."""
    before, _ = drive(first_round(), JACK, ISABELLA, TINA)
    after, _ = drive(before, STEVE)
    return Illustration(before, after, seat=STEVE)


def main() -> None:
    print("Illus. 5: Steve plays the 6, meets Tina and goes 6 further, into the lead.")
    shown = illustration()
    (steve,) = shown.moves
    check(steve.number == 6, "Steve plays the 6")
    check(steve.bumped == (TINA,), "he encounters Tina there")
    check(steve.hops == (6, 12), "and puts himself in front, 6 spaces further")
    leader = max(range(4), key=lambda seat: shown.after.state.distances[seat])
    check(leader == STEVE, "Steve's car is now the leading car")


if __name__ == "__main__":
    main()
