"""Shared by the ``avanti_illus*.py`` examples: the rulebook's players and positions.

Not an example of its own: each illustration script imports what it needs from here. The
positions are on the library's default board, which the rulebook does not print; each is one
that gives the rulebook's numbers.

Each script's ``illustration()`` returns an :class:`Illustration`: the table before and after
the illustration's commands. The script checks the rulebook's numbers on it, and the docs draw
the same two tables beside the text, so a picture cannot disagree with the rules it shows.
"""

from __future__ import annotations

import attrs

import avanti
from avanti import CarMoved, Drive, Phase, PlayCard, Scenario

PLAYERS = ("Jack", "Isabella", "Tina", "Steve", "William")
"""The rulebook's players, in seats 0-4 (the order its Illus. 9 suggests)."""
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


@attrs.frozen
class Illustration:
    """An illustration of the rulebook: the game before its commands and after them."""

    before: avanti.Game
    after: avanti.Game
    """``before`` with the illustration's commands executed."""
    seat: int | None
    """Whose view the pictures show: the seat the illustration follows, or ``None`` for a
    spectator (A30)."""

    @property
    def events(self) -> tuple[avanti.Event, ...]:
        """The events of the illustration's commands, in order."""
        return self.after.events[self.before.version :]

    @property
    def moves(self) -> tuple[CarMoved, ...]:
        """The cars that moved in the illustration, in order, with every hop (A11)."""
        return tuple(event for event in self.events if isinstance(event, CarMoved))


# -- Illus. 3-7: the first round of a run ---------------------------------------------------------

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


# -- Illus. 11-13: the last round of a run, its standings and its ATMs ----------------------------

END_OF_RUN = Scenario(
    marker=22,
    distances=(29, 15, 28, 30, 31),
    hands=((), (), (), (), ()),
    quit=(False, True, False, True, False),
    laid=((0, 1), None, (18, 3), None, (19, 3)),
    phase=Phase.DRIVING,
    round=5,
)
"""Marker on road space 22, a parking lot. Isabella has quit on the lot at space 3 (15 spaces out)
and Steve on space 18 (30 out, toll 300). Tina (28 out), Jack (29) and William (31) still drive,
with a 3, a 1 and a 3."""


def end_of_run() -> avanti.Game:
    """The run of Illus. 11-13 before its last round: Tina, William and Jack still drive."""
    return avanti.new_game(PLAYERS, 1, scenario=END_OF_RUN)


def last_round(game: avanti.Game | None = None) -> avanti.Game:
    """Play the last round of the run from ``game`` (default: :func:`end_of_run`): Tina, William
    and Jack drive, in that order (A10)."""
    game = end_of_run() if game is None else game
    check(game.state.order == (TINA, WILLIAM, JACK), "Tina's car is last, so she drives first")
    for seat in game.state.order:
        game = play(game, Drive(seat))
    return game
