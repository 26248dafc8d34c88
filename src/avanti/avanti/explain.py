"""Avanti's commands in words: the long label a front end shows beside a command's notation.

:func:`explain` says what a command does and what the board says about it: the card's numbers
and colour (A3, A13), the road space and what it holds (A4, A7), what quitting costs (A14), and,
given the seat's view, what an investment costs before it is paid (A22). It reads only the
public setup, the command and the seat's own view, so a label tells a seat nothing hidden (A30).
"""

from __future__ import annotations

from avanti.avanti.commands import Command, Drive, Invest, PlayCard, Quit
from avanti.avanti.deck import is_yellow
from avanti.avanti.setup import PublicSetup, Setup
from avanti.avanti.views import View

__all__ = ["explain"]


def explain(setup: Setup | PublicSetup, command: Command, view: View | None = None) -> str:
    """What ``command`` does, in words, for a menu beside its notation (A7, A8, A9, A14, A22).

    ``view`` is the view of the command's seat; with it an investment names its price and the
    island spaces it buys (A22): ``"invest 3: 5,000 for island spaces 1-3"``.

    >>> import avanti
    >>> game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    >>> avanti.explain(game.setup, avanti.PlaceEventMarker(0, 7))
    'put the event marker on road space 7 (parking lot 400)'
    >>> avanti.explain(game.setup, avanti.Invest(1, 3), game.view(1))
    'invest 3: 5,000 for island spaces 1-3'
    """
    if isinstance(command, PlayCard):
        numbers = "/".join(str(n) for n in setup.deck.cards[command.card].numbers)
        colour = "yellow: draw a card" if is_yellow(command.number) else "red"
        return f"lay card {command.card} ({numbers}) to drive {command.number} ({colour})"
    if isinstance(command, Drive):
        return "drive: reveal your card and move"
    if isinstance(command, Quit):
        return "quit this delivery run: your car stays and you lay no more cards this run (A14)"
    if isinstance(command, Invest):
        return _invest(setup, command, view)
    space = setup.board.track[command.space]
    kind = f"parking lot {space.amount}" if space.is_parking else f"toll {space.amount}"
    return f"put the event marker on road space {command.space} ({kind})"


def _invest(setup: Setup | PublicSetup, command: Invest, view: View | None) -> str:
    """An investment with its price, where the seat's figure is known (A22)."""
    steps = command.steps
    if steps == 0:
        return "invest nothing"
    if view is None:
        return f"invest in {steps} island step{'s' if steps != 1 else ''}"
    start = view.island[command.seat]
    prices = setup.board.island[start + 1 : start + steps + 1]
    cost = sum(price or 0 for price in prices)
    spaces = f"{start + 1}-{start + steps}" if steps > 1 else f"{start + 1}"
    plural = "s" if steps > 1 else ""
    return f"invest {steps}: {cost:,} for island space{plural} {spaces}"
