"""Start a game of Avanti mare! from a built position: a :class:`Scenario`, checked like a setup.

A scenario is part of :class:`~avanti.mare.Setup`, so a game started from one replays, saves and
loads like any other. Whose roll it is comes from the setup's ``first`` (M2). Everything in it is
public, as the whole river is (M1). :func:`check_scenario` refuses a position the rules cannot
reach, naming the rule.
"""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

from avanti.core import InvalidSetup

__all__ = ["Scenario", "check_scenario"]


def _tuple(values: Any) -> Any:
    return tuple(values) if isinstance(values, list) else values


@frozen
class Scenario:
    """A position in the middle of a game: ``boat`` (how many river pieces the boat has taken,
    0-10, M5) and ``fish`` (the place of each fish in :data:`~avanti.mare.FISH` order: a river
    piece 1-11, ``SEA`` (12) when free, ``CAUGHT`` (0) when caught, M1, M4, M5). A list given for
    ``fish`` becomes a tuple, as a JSON array does.

    :func:`avanti.mare.new_game` (through the ruleset's ``start``) refuses with
    :class:`~avanti.core.errors.InvalidSetup` a fish on a piece the boat has taken (M5), a place
    off the river (M1), a boat at the sea or no fish left in the river (the game is over, M8).
    """

    boat: int = 0
    fish: tuple[int, ...] = field(default=(6, 6, 6, 6), converter=_tuple)  # START, M1


def check_scenario(scenario: Scenario) -> None:
    """Raise :class:`InvalidSetup` naming the rule when ``scenario`` is no position of a game in
    play (M1, M5, M8)."""
    from avanti.mare.setup import CAUGHT, FISH, PIECES, SEA  # here: setup.py imports this module

    if type(scenario) is not Scenario:
        raise InvalidSetup("a scenario must be an avanti.mare.Scenario", rule="M1")
    boat, fish = scenario.boat, scenario.fish
    if type(boat) is not int or not 0 <= boat < PIECES:
        raise InvalidSetup(f"the boat has taken 0 to {PIECES - 1} river pieces", rule="M5")
    if type(fish) is not tuple or len(fish) != len(FISH):
        raise InvalidSetup(f"a scenario places each of the {len(FISH)} fish", rule="M1")
    for colour, place in zip(FISH, fish, strict=True):
        if type(place) is not int or not CAUGHT <= place <= SEA:
            raise InvalidSetup(
                f"the {colour} fish must be on a river piece 1-{PIECES}, free ({SEA}) or"
                f" caught ({CAUGHT})",
                rule="M1",
            )
        if CAUGHT < place <= boat:
            raise InvalidSetup(
                f"the {colour} fish is on piece {place}, which the boat has taken: a fish the"
                " boat reaches is caught",
                rule="M5",
            )
    if not any(CAUGHT < place < SEA for place in fish):
        raise InvalidSetup("no fish is left in the river: that game is over", rule="M8")
