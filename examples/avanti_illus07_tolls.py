"""Avanti, rulebook Illus. 7: the leading car collects a toll from every car behind it.

When all five have driven in the round of Illus. 3-6, Steve leads. Each other player pays him the
toll printed beside their own car's space (A15): with the marker on road space 31, William stands
on space 6 (toll 1,000), Jack on space 0 (100) and Isabella on space 33 (300). Tina stands on
the parking lot at space 3 and pays nothing. Payments go clockwise from the seat after Steve.
"""

from __future__ import annotations

from avanti_positions import (
    ISABELLA,
    JACK,
    PLAYERS,
    STEVE,
    TINA,
    WILLIAM,
    Illustration,
    check,
    drive,
    first_round,
)

from avanti import TollPaid


def illustration() -> Illustration:
    """Four cars have driven; William drives last, and Steve collects, as Steve sees it."""
    before, _ = drive(first_round(), JACK, ISABELLA, TINA, STEVE)
    after, _ = drive(before, WILLIAM)
    return Illustration(before, after, seat=STEVE)


def main() -> None:
    print("Illus. 7: after the first round Steve leads and collects.")
    shown = illustration()
    game = shown.after
    board, marker = game.setup.board, 31
    for seat in (WILLIAM, JACK, ISABELLA, TINA):
        space = (marker + game.state.distances[seat]) % board.track_length
        print(f"  {PLAYERS[seat]} stands on road space {space}: {board.track[space]!r}")
    tolls = [event for event in shown.events if isinstance(event, TollPaid)]
    paid = [(e.payer, e.amount) for e in tolls]
    check(all(e.payee == STEVE for e in tolls), "Steve collects")
    check((WILLIAM, 1000) in paid, "William pays 1,000")
    check((JACK, 100) in paid, "Jack pays 100")
    check((ISABELLA, 300) in paid, "Isabella pays 300")
    check(TINA not in [payer for payer, _ in paid], "Tina pays nothing: she is on a parking lot")
    check(game.state.cash[STEVE] == 5000 + 1400, "Steve now has 6,400")


if __name__ == "__main__":
    main()
