"""What a seat may see of a game of Avanti mare!.

Everything on the table is public in this game; only the seeded generator is hidden, so that
nobody can foresee the die (M3).
"""

from __future__ import annotations

from attrs import frozen

from avanti.mare.events import (
    Event,
)
from avanti.mare.setup import Options, Side
from avanti.mare.state import GameState, Result

__all__ = ["View", "redact", "view"]


@frozen
class View:
    """The table as ``seat`` sees it (``None``: a spectator): all of the state except the generator.

    Fields mean what they mean on :class:`~avanti.mare.GameState`: ``boat`` counts the removed
    pieces, ``fish`` holds each fish's place (piece 1-11, 12 for the sea, 0 for the boat).
    """

    seat: int | None
    sides: tuple[Side, ...]
    options: Options
    boat: int
    fish: tuple[int, ...]
    turn: int
    move_due: bool
    result: Result | None

    def _repr_svg_(self) -> str:
        """The view as an SVG picture, for notebooks: :func:`avanti.mare.svg.picture`."""
        from avanti.mare.svg import picture  # here: avanti.mare.svg imports this module

        return str(picture(self))


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see: every public fact, never the generator or its seed (M3)."""
    s = state
    return View(
        seat=seat,
        sides=s.sides,
        options=s.options,
        boat=s.boat,
        fish=s.fish,
        turn=s.turn,
        move_due=s.move_due,
        result=s.result,
    )


def redact(event: Event, seat: int | None) -> Event | None:
    """Every event is public in Avanti mare!, so each seat sees each event as it is."""
    return event
