"""How For Sale: Autorama is shown, declared once: :data:`PRESENTATION` (its catalog entry
reaches it).

Its picture, its events and commands in words, the commands that ask first (a bid, a pass, an
advisor played, a vehicle offered: none can be taken back, F4, F5, F9, F14), every total
explained (:func:`~avanti.autorama.standings.standings`, F19, F20), its cards, its encoding
and its lab form.
"""

from __future__ import annotations

from avanti.autorama.cards import dollars
from avanti.autorama.commands import Bid, Command, Offer, OfferWithLawyer, Pass, PlayAdvisor
from avanti.autorama.describe import advisor_name, box, describe, narrate
from avanti.autorama.encoding import encoding
from avanti.autorama.explain import explain
from avanti.autorama.lab import FORM
from avanti.autorama.setup import PublicSetup, Setup
from avanti.autorama.standings import standings
from avanti.autorama.svg import picture
from avanti.core.presentation import Money, Presentation

__all__ = ["PRESENTATION", "confirm"]


def _vehicles(vehicles: tuple[int, ...]) -> str:
    return " and ".join(f"vehicle {vehicle}" for vehicle in vehicles)


def confirm(setup: Setup | PublicSetup, command: Command) -> str:
    """The question asked before a command that cannot be taken back: a bid (F4), a pass
    (F5), an advisor played face up (F9, F10) and a vehicle offered face down (F14); ``""``
    else."""
    if isinstance(command, Bid):
        return f"Bid {dollars(command.amount)}? A bid stands until you pass or win (F4)."
    if isinstance(command, Pass):
        return "Pass? You take the lowest advisor and get back half your bid (F5)."
    if isinstance(command, PlayAdvisor):
        boost = f", paying {dollars(3)} to boost it" if command.boost else ""
        return f"Play {advisor_name(command.advisor)}{boost}? It is played face up (F9)."
    if isinstance(command, Offer | OfferWithLawyer):
        return f"Offer {_vehicles(command.vehicles)} face down? Offers are revealed together (F14)."
    return ""


PRESENTATION = Presentation(
    picture=picture,
    describe=describe,
    narrate=narrate,
    explain=explain,
    standings=standings,
    confirm=confirm,
    box=box,
    encoding=encoding,
    money=Money(prefix="$", scale=1000),  # thousands of dollars (F2)
    lab=FORM,
)
"""How For Sale: Autorama is shown (:class:`~avanti.core.presentation.Presentation`)."""
