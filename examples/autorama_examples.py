"""The worked examples of the For Sale: Autorama rulebook, built and played with avanti.

Each example starts from a position built with :class:`avanti.autorama.Scenario`, plays the
commands of the example, prints what happened and checks the rulebook's numbers.
Run it with ``python examples/autorama_examples.py``.

Each example returns an :class:`Illustration`: the game before the example's commands and after
them, and the seat whose view to draw. The ``autorama_example_*.py`` scripts hand it to the docs,
which draw the two tables beside the example's text, so a picture shows the very position whose
numbers were checked.
"""

from __future__ import annotations

import attrs

from avanti import autorama
from avanti.autorama import (
    Bid,
    Game,
    Offer,
    Pass,
    Phase,
    PlayAdvisor,
    Scenario,
    UseMechanic,
    describe,
    dollars,
)

PLAYERS = ("Isaac", "Becky", "Chloe")
ISAAC, BECKY, CHLOE = 0, 1, 2


@attrs.frozen
class Illustration:
    """A worked example: the game before its commands and after them."""

    before: Game
    after: Game
    """``before`` with the example's commands executed."""
    seat: int | None
    """Whose view the pictures show: the player the example follows, or ``None`` for a
    spectator where it follows every player (F2: a seat sees only its own cash and hand)."""


def start(scenario: Scenario, first: int = ISAAC) -> Game:
    """A game for the rulebook's three players from a built position."""
    return autorama.new_game(PLAYERS, seed=0, first=first, scenario=scenario)


def play(title: str, game: Game, *commands: autorama.Command) -> Game:
    """Play the commands and print the example's events, one line each."""
    print(f"\n== {title}")
    seen = len(game.events)
    for command in commands:
        game = game.execute(command)
    for event in game.events[seen - 1 :]:
        print("  " + describe(event, game.setup))
    return game


def cash_line(game: Game) -> str:
    """Each player's cash, in dollars."""
    return ", ".join(
        f"{name} {dollars(c)}" for name, c in zip(PLAYERS, game.state.cash, strict=True)
    )


def auction() -> Illustration:
    """Phase 1: Isaac bids 3, Becky 4; Chloe and Isaac pass; Becky pays 4. The auction is open
    (F4), so the pictures show it as a spectator sees it."""
    before = start(Scenario(advisor_deck=(8, 11, 15), vehicle_deck=(1, 2, 3), check_deck=(0, 2, 3)))
    game = play(
        "Phase 1: an auction",
        before,
        Bid(ISAAC, 3),
        Bid(BECKY, 4),
        Pass(CHLOE),
        Pass(ISAAC),
    )
    print("  Cash:", cash_line(game))
    assert game.state.advisors == ((11,), (15,), (8,))
    assert game.state.cash == (26, 24, 28)
    return Illustration(before, game, seat=None)


def fleet_manager() -> Illustration:
    """Phase 2: the Fleet Manager raised to 33 takes the 30; the General Manager earns 4. The
    pictures follow Becky, who raises her Fleet Manager."""
    scenario = Scenario(
        phase=Phase.BUYING,
        vehicle_deck=(9, 12, 30),
        check_deck=(0, 2, 3),
        advisors=((21,), (15,), (29,)),
    )
    before = start(scenario, first=CHLOE)
    game = play(
        "Phase 2: the Fleet Manager raised to 33",
        before,
        PlayAdvisor(CHLOE, 29),
        PlayAdvisor(ISAAC, 21),
        PlayAdvisor(BECKY, 15, boost=True),
    )
    print("  Cash:", cash_line(game))
    assert game.state.vehicles == ((9,), (30,), (12,))
    assert game.state.cash == (28, 25, 32)
    assert game.state.kept[ISAAC] == (21,)
    return Illustration(before, game, seat=BECKY)


def mechanic() -> Illustration:
    """Phase 3: Chloe's 14 is lowest; her Mechanic gets the 7 and Becky gets the 0. The pictures
    follow Chloe, from the reveal of the offers (before her Mechanic) to the checks."""
    scenario = Scenario(
        phase=Phase.SELLING,
        check_deck=(13, 7, 0),
        vehicles=((23,), (15,), (14,)),
        kept=((), (), (7, 8)),
    )
    game = play(
        "Phase 3: a Mechanic",
        start(scenario),
        Offer(BECKY, (15,)),
        Offer(ISAAC, (23,)),
        Offer(CHLOE, (14,)),
        UseMechanic(CHLOE),
    )
    assert game.state.checks == ((13,), (0,), (7,))
    return Illustration(game.undo(), game, seat=CHLOE)


def scoring() -> Illustration:
    """Scoring: the Controller, Restoration Specialist and Financial Advisor examples. Each
    player shows one of them, so the pictures show the table as a spectator sees it."""
    scenario = Scenario(
        phase=Phase.SELLING,
        check_deck=(12, 10, 2),
        vehicles=((20,), (30,), (1,)),
        checks=((0, 5, 7), (0, 2, 8), ()),
        kept=((10, 12), (22, 23), (25, 26, 27)),
        cash=(0, 0, 2),
    )
    before = start(scenario)
    game = play(
        "Scoring",
        before,
        Offer(ISAAC, (20,)),
        Offer(BECKY, (30,)),
        Offer(CHLOE, (1,)),
    )
    result = game.outcome
    assert result is not None
    for s in result.scores:
        placed = "; ".join(
            f"{autorama.advisor_name(a.advisor)} made {dollars(a.check)} worth {dollars(a.worth)}"
            for a in s.assignments
        )
        print(
            f"  {PLAYERS[s.seat]}: checks {dollars(s.check_total)}, cash {dollars(s.cash)}, "
            f"bonus {dollars(s.bonus)}, total {dollars(s.total)}"
            + (f" ({placed})" if placed else "")
        )
    isaac, becky, chloe = result.scores
    assert [(a.check, a.worth) for a in isaac.assignments] == [(0, 10), (5, 12)]
    assert isaac.check_total == 39
    assert [(a.check, a.worth) for a in becky.assignments] == [(2, 4), (8, 16)]
    assert becky.check_total == 32
    assert (chloe.cash, chloe.bonus) == (2, 6)
    return Illustration(before, game, seat=None)


def main() -> None:
    """Run every example."""
    auction()
    fleet_manager()
    mechanic()
    scoring()
    print("\nEvery example matches the rulebook.")


if __name__ == "__main__":
    main()
