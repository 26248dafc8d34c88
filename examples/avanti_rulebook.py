"""Replay the rulebook's first delivery round (Illus. 3-7) and its money example (Illus. 8).

Each position is a :class:`avanti.Scenario` on the default board; the script prints a
transcript with :func:`avanti.describe` and asserts the rulebook's numbers. Run it with
``python examples/avanti_rulebook.py``.
"""

from __future__ import annotations

import avanti
from avanti import Drive, Phase, PlayCard, Scenario

PLAYERS = ("Jack", "Isabella", "Tina", "Steve", "William")
JACK, ISABELLA, TINA, STEVE, WILLIAM = range(5)


def transcript(before: avanti.Game, after: avanti.Game) -> None:
    """Print one line for each event ``after`` added to ``before``."""
    for event in after.events[before.version :]:
        print("  " + avanti.describe(event, after.setup))


def first_round() -> None:
    """Illus. 3-7: marker on road space 31; Jack 3, Isabella 2, Tina 3, Steve 6, William 3."""
    print("Illus. 3-7: the first round of a delivery run")
    hands = ((18, 0, 9), (10, 1, 19), (20, 2, 11), (3, 12, 13), (21, 4, 14))
    game = avanti.new_game(
        PLAYERS, 1, scenario=Scenario(marker=31, distances=(0,) * 5, hands=hands)
    )
    start = game
    for seat, card, number in ((0, 18, 3), (1, 10, 2), (2, 20, 3), (3, 3, 6), (4, 21, 3)):
        game = game.execute(PlayCard(seat, card, number))
    for _ in range(5):
        to_act = game.state.to_act()
        assert to_act is not None
        game = game.execute(Drive(to_act))
    transcript(start, game)
    assert game.state.distances == (3, 2, 6, 12, 9)
    assert game.state.cash == (4900, 4700, 5000, 6400, 4000)


def procuring_money() -> None:
    """Illus. 8: Steve owes Isabella 1,000 with 300 in hand and his figure on island space 1."""
    print("Illus. 8: procuring money")
    scenario = Scenario(
        marker=31,
        distances=(6, 25, 10, 9, 15),
        hands=((0,), (1,), (2,), (3,), (4,)),
        cash=(5000, 5000, 5000, 300, 5000),
        island=(0, 0, 0, 1, 0),
        laid=(None, (12, 5), None, None, None),
        phase=Phase.DRIVING,
        round=2,
    )
    game = avanti.new_game(PLAYERS, 1, scenario=scenario)
    after = game.execute(Drive(ISABELLA))
    transcript(game, after)
    assert after.state.cash[STEVE] == 0
    assert after.state.cash[ISABELLA] == 6000
    assert after.state.island[STEVE] == 0


if __name__ == "__main__":
    first_round()
    procuring_money()
