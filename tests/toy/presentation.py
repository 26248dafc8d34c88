"""How the toy race is shown: the one record a game declares beside its rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from avanti.core.presentation import Part, Presentation, Standing, Standings
from avanti.core.svg import Svg, document, text
from tests.toy import Outcome, View, describe


def picture(view: View, *, table: Any = None, last: Sequence[object] = (), **_: object) -> Svg:
    """Each seat's position on one line."""
    line = ", ".join(str(position) for position in view.positions)
    return document(200, 30, [text(10, 20, line)], title="Toy race", description=line)


def narrate(
    events: Sequence[Any], setup: Any, *, seat: int | None = None, after: int = 0
) -> tuple[str, ...]:
    """Each event told alone."""
    return tuple(describe(event, setup, seat=seat) for event in events[after:])


def explain(setup: Any, command: Any, view: Any = None) -> str:
    """A command in words: its class's name."""
    return type(command).__name__.lower()


def standings(outcome: Outcome, setup: Any) -> Standings:
    """The winner first, with one part: the race won."""
    seats = tuple(
        Standing(
            seat=seat,
            name=name,
            total=int(seat == outcome.winner),
            shown="won" if seat == outcome.winner else "",
            place=1 if seat == outcome.winner else 2,
            won=seat == outcome.winner,
            parts=(Part(words="the race won", amount=int(seat == outcome.winner), shown=""),),
        )
        for seat, name in enumerate(setup.players)
    )
    return Standings(seats=tuple(sorted(seats, key=lambda s: s.place)), total="races")


PRESENTATION = Presentation(
    picture=picture, describe=describe, narrate=narrate, explain=explain, standings=standings
)
