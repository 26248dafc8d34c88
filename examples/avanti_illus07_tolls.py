"""Avanti, rulebook Illus. 7: the leading car collects a toll from every car behind it.

When all five have driven in the round of Illus. 3-6, Steve leads. Each other player pays him the
toll printed beside their own car's space (A15): with the marker on road space 31, William stands
on space 6 (toll 1,000), Jack on space 0 (100) and Isabella on space 33 (300). Tina stands on
the parking lot at space 3 and pays nothing. Payments go clockwise from the seat after Steve.
"""

from __future__ import annotations

import avanti
from avanti import CarMoved, Drive, PlayCard, Scenario, TollPaid

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
    print("Illus. 7: after the first round Steve leads and collects.")
    game, _ = drive(first_round(), JACK, ISABELLA, TINA, STEVE, WILLIAM)
    board, marker = game.setup.board, 31
    for seat in (WILLIAM, JACK, ISABELLA, TINA):
        space = (marker + game.state.distances[seat]) % board.track_length
        print(f"  {PLAYERS[seat]} stands on road space {space}: {board.track[space]!r}")
    paid = [(e.payer, e.amount) for e in game.events if isinstance(e, TollPaid)]
    check(all(e.payee == STEVE for e in game.events if isinstance(e, TollPaid)), "Steve collects")
    check((WILLIAM, 1000) in paid, "William pays 1,000")
    check((JACK, 100) in paid, "Jack pays 100")
    check((ISABELLA, 300) in paid, "Isabella pays 300")
    check(TINA not in [payer for payer, _ in paid], "Tina pays nothing: she is on a parking lot")
    check(game.state.cash[STEVE] == 5000 + 1400, "Steve now has 6,400")


if __name__ == "__main__":
    main()
