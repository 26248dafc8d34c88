"""For Sale: Autorama's commands in words: the long label a front end shows beside a command's
notation (F4, F5, F9, F10, F14-F16), money in dollars."""

from __future__ import annotations

from avanti.autorama.cards import dollars
from avanti.autorama.commands import (
    Bid,
    Command,
    Offer,
    OfferWithLawyer,
    Pass,
    PlayAdvisor,
    TakeBack,
    UseMechanic,
)
from avanti.autorama.describe import advisor_name
from avanti.autorama.setup import PublicSetup, Setup
from avanti.autorama.views import View

__all__ = ["explain"]


def explain(setup: Setup | PublicSetup, command: Command, view: View | None = None) -> str:
    """A command of For Sale: Autorama in words (F4, F5, F9, F10, F14-F16).

    An offer of two says which Lawyer it uses where a player may choose one (F15): the one it
    names, or the highest for a plain :class:`Offer`; with ``lawyer_single_use``, that the named
    one is then discarded. ``view`` (the seat's view) is accepted as by every game's
    ``explain``. Money in dollars, as the table counts it (F2).
    """
    if isinstance(command, Bid):
        return f"bid {dollars(command.amount)}"
    if isinstance(command, Pass):
        return "pass: take the lowest advisor and half your bid back"
    if isinstance(command, PlayAdvisor):
        boost = " with its boost (pays $3,000)" if command.boost else ""
        return f"play {advisor_name(command.advisor)}{boost}"
    if isinstance(command, Offer):
        vehicles = " and ".join(str(v) for v in command.vehicles)
        options = setup.options
        which = "your highest" if options.lawyer_single_use or options.lawyer_choice else "a"
        lawyer = f" (with {which} Lawyer)" if len(command.vehicles) == 2 else ""
        return f"offer vehicle{'s' if lawyer else ''} {vehicles}{lawyer}"
    if isinstance(command, OfferWithLawyer):
        vehicles = " and ".join(str(v) for v in command.vehicles)
        then = ", then discard it" if setup.options.lawyer_single_use else ""
        return f"offer vehicles {vehicles} with Lawyer {command.lawyer}{then}"
    if isinstance(command, TakeBack):
        return f"take back vehicle {command.vehicle}"
    if isinstance(command, UseMechanic):
        return "use a Mechanic: take the second-lowest check"
    return "keep your Mechanics: take the lowest check"
