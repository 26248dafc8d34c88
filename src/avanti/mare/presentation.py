"""How Avanti mare! is shown, declared once: :data:`PRESENTATION` (its catalog entry reaches it).

Its picture, its events and commands in words, the command that asks first (giving up the
free fish's move, M6), how the game came out (:func:`standings`: each player's side and the
fish that count for it, M8), its encoding and its lab form.
"""

from __future__ import annotations

from avanti.core.presentation import Part, Presentation, Standing, Standings, places
from avanti.mare.commands import Command, SkipMove
from avanti.mare.describe import describe, narrate
from avanti.mare.encoding import encoding
from avanti.mare.explain import explain
from avanti.mare.lab import FORM
from avanti.mare.setup import PublicSetup, Setup, Side
from avanti.mare.state import Outcome
from avanti.mare.svg import picture

__all__ = ["PRESENTATION", "confirm", "standings"]


def confirm(setup: Setup | PublicSetup, command: Command) -> str:
    """The question asked before giving up the move a free fish's colour offers (M6)."""
    if isinstance(command, SkipMove):
        return "Leave every fish where it is? The move your free fish's colour gave is lost (M6)."
    return ""


def _fish(count: int) -> str:
    return f"{count} fish"


def standings(outcome: Outcome, setup: Setup | PublicSetup) -> Standings:
    """Each player's side and the fish that count for it (M2, M8): the free fish for the fish
    friends, the caught ones for the fisher fans; the side with more wins, two and two is a
    draw (named as what decided, M8).

    >>> from avanti.mare import Result, Setup, Side
    >>> from avanti.mare.state import Outcome
    >>> setup = Setup(("Ann", "Bob"), (Side.FISH_FRIENDS, Side.FISHER_FANS))
    >>> table = standings(Outcome(2, 2, Result.DRAW, None, (), (0.0, 0.0)), setup)
    >>> [standing.shown for standing in table.seats], table.decided
    (['2 fish free', '2 fish caught'], '2 fish free and 2 caught: a draw (M8)')
    """
    names = setup.players
    totals = []
    found = []
    for seat, side in enumerate(setup.sides):
        free = side is Side.FISH_FRIENDS
        count = outcome.free if free else outcome.caught
        words = "fish free (fish friends)" if free else "fish caught (fisher fans)"
        totals.append(count)
        found.append(
            (
                seat,
                count,
                f"{_fish(count)} {'free' if free else 'caught'}",
                Part(words=words, amount=count, shown=_fish(count), rule="M8"),
            )
        )
    ranks = places([(1 if seat in outcome.winners else 0,) for seat in range(len(names))])
    seats = tuple(
        Standing(
            seat=seat,
            name=names[seat],
            total=count,
            shown=shown,
            place=ranks[seat],
            won=seat in outcome.winners,
            parts=(part,),
        )
        for seat, count, shown, part in found
    )
    decided = ""
    if outcome.winner is None:
        decided = f"{outcome.free} fish free and {outcome.caught} caught: a draw (M8)"
    return Standings(
        seats=tuple(sorted(seats, key=lambda s: (s.place, s.seat))),
        total="fish",
        decided=decided,
        rule="M8" if decided else "",
    )


PRESENTATION = Presentation(
    picture=picture,
    describe=describe,
    narrate=narrate,
    explain=explain,
    standings=standings,
    confirm=confirm,
    encoding=encoding,
    lab=FORM,
)
"""How Avanti mare! is shown (:class:`~avanti.core.presentation.Presentation`)."""
