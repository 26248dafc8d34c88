"""How Avanti is shown, declared once: :data:`PRESENTATION` (its catalog entry reaches it).

Its picture, its events and commands in words, the commands that ask first (laying a card
face down, A8; quitting a run, A14), how the game came out (:func:`standings`: each figure's
island space, a tie going to the better rank in the last run, A20), its encoding and its lab
form.
"""

from __future__ import annotations

from avanti.avanti.commands import Command, PlayCard
from avanti.avanti.describe import describe, narrate
from avanti.avanti.encoding import encoding
from avanti.avanti.explain import explain
from avanti.avanti.lab import FORM
from avanti.avanti.rules import Outcome, gives_up
from avanti.avanti.setup import PublicSetup, Setup
from avanti.avanti.svg import picture
from avanti.avanti.views import View
from avanti.core.presentation import Part, Presentation, Standing, Standings

__all__ = ["PRESENTATION", "confirm", "standings"]


def confirm(setup: Setup | PublicSetup, command: Command) -> str:
    """The question asked before a command that cannot be taken back: quitting a run (A14:
    :func:`~avanti.avanti.rules.gives_up`) and laying a card face down (A8); ``""`` else."""
    if gives_up(command):
        return (
            "Quit this delivery run? Your car stays where it is and you lay no more cards "
            "until the run ends (A14)."
        )
    if isinstance(command, PlayCard):
        return f"Lay this card face down to drive {command.number}? It stays laid this round (A8)."
    return ""


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def standings(outcome: Outcome, setup: Setup | PublicSetup) -> Standings:
    """Each figure's island space, best first (A19, A20); when the furthest figures share a
    space, the rule that decided between them (the better rank in the last run, A20).

    >>> from avanti.avanti.rules import Outcome
    >>> from avanti.avanti.setup import Setup
    >>> table = standings(Outcome(1, (1, 0, 2), (9, 9, 4), (1,), (0.0, 1.0, 0.0)),
    ...                   Setup(("Ann", "Bob", "Cy")))
    >>> table.decided
    'Bob and Ann both reach island space 9: Bob wins, having ranked better in the last run (A20)'
    """
    names = setup.players
    island = outcome.island
    seats = tuple(
        Standing(
            seat=seat,
            name=names[seat],
            total=island[seat],
            shown=f"island space {island[seat]}",
            place=place + 1,
            won=seat in outcome.winners,
            parts=(
                Part(
                    words="the figure's space on the island path",
                    amount=island[seat],
                    shown=str(island[seat]),
                    rule="A19",
                ),
            ),
        )
        for place, seat in enumerate(outcome.ranking)
    )
    best = island[outcome.winner]
    tied = [seat for seat in outcome.ranking if island[seat] == best]
    decided = ""
    if len(tied) > 1:
        both = "both" if len(tied) == 2 else "all"
        decided = (
            f"{_and([names[seat] for seat in tied])} {both} reach island space {best}: "
            f"{names[outcome.winner]} wins, having ranked better in the last run (A20)"
        )
    return Standings(
        seats=seats, total="island space", decided=decided, rule="A20" if decided else ""
    )


def _marker(view: View) -> int | None:
    """Where the event marker stands (A7): the lines name road spaces counted from it."""
    return view.marker


PRESENTATION = Presentation(
    picture=picture,
    describe=describe,
    narrate=narrate,
    explain=explain,
    standings=standings,
    confirm=confirm,
    marker=_marker,
    encoding=encoding,
    lab=FORM,
)
"""How Avanti is shown (:class:`~avanti.core.presentation.Presentation`)."""
