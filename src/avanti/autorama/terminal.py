"""The table of For Sale: Autorama for the terminal, as a seat (or a spectator) sees it."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from avanti.autorama import (
    AdvisorHired,
    Bid,
    GameEnded,
    Phase,
    Setup,
    Step,
    VehicleBought,
    VehicleSold,
    View,
    dollars,
)
from avanti.autorama.explain import explain
from avanti.core.terminal import Drawing, NumberChoice

__all__ = ["DRAWING", "draw", "explain", "header"]

_ON_TABLE = {Phase.HIRING: "advisors", Phase.BUYING: "vehicles", Phase.SELLING: "checks"}

_PHASES = {
    Phase.HIRING: "Phase 1, round {round}: hiring advisors",
    Phase.BUYING: "Phase 2, round {round}: buying vehicles",
    Phase.SELLING: "Phase 3, round {round}: selling vehicles",
}
"""The header of the table in each phase of play (F4, F9, F14)."""

_STEPS = {
    Step.OFFERING: "offering vehicles face down",
    Step.TAKING_BACK: "Lawyers take vehicles back",
    Step.MECHANIC: "a Mechanic may be used",
    Step.SETTLING: "checks go out",
}
"""What a round of phase 3 waits for (F14-F17)."""


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(str(card) for card in cards) or "none"


def _money(amounts: tuple[int, ...]) -> str:
    """Checks or cash in dollars, as the rulebook counts money (F2): ``$3,000, $11,000``."""
    return ", ".join(dollars(amount) for amount in amounts) or "none"


def header(view: View) -> str:
    """Where the game stands, in words: ``"Phase 3, round 2: selling vehicles; Lawyers take
    vehicles back"``, or ``"The game is over: every vehicle is sold"`` (F18)."""
    if view.phase is Phase.OVER:
        return "The game is over: every vehicle is sold"
    line = _PHASES[view.phase].format(round=view.round)
    return line + (f"; {_STEPS[view.step]}" if view.step is not None else "")


def draw(setup: Setup, view: View) -> RenderableType:
    """The cards on the table, each seat's public facts, and the seat's own hand.

    Money (bids, cash, checks) is shown in dollars, as :func:`~avanti.autorama.describe` and
    the rulebook give it (F2).
    """
    shown = _ON_TABLE.get(view.phase, "cards")
    cards = _money(view.table) if view.phase is Phase.SELLING else _cards(view.table)
    table_line = Text(f"On the table ({shown}): {cards}")
    left = Text(
        f"Left in the decks: {view.advisors_left} advisors, {view.vehicles_left} vehicles, "
        f"{view.checks_left} checks",
        style="dim",
    )
    seats = Table(box=None, pad_edge=False, show_edge=False)
    for name in ("Seat", "Player", "Bid", "Played", "Offer", "Advisors", "Vehicles", "Checks"):
        seats.add_column(name)
    for seat, name in enumerate(setup.players):
        bid = view.bids[seat]
        played = view.played[seat]
        offer = view.offers[seat]
        mark = " (you)" if seat == view.seat else ""
        mark += " <" if view.turn == seat else ""
        seats.add_row(
            str(seat),
            name + mark,
            "-" if bid is None else dollars(bid) + ("" if view.active[seat] else " passed"),
            "-" if played is None else str(played),
            "hidden" if offer is None and view.offered[seat] else _cards(offer or ()),
            str(view.advisor_counts[seat]),
            str(view.vehicle_counts[seat]),
            str(view.check_counts[seat]),
        )
    parts: list[RenderableType] = [Text(header(view), style="bold"), table_line, left, seats]
    if view.seat is not None:
        parts.append(
            Text(
                f"Yours: cash {dollars(view.cash or 0)}; advisors {_cards(view.advisors)}; "
                f"vehicles {_cards(view.vehicles)}; checks {_money(view.checks)}"
            )
        )
    return Group(*parts)


def _after(events: tuple[Any, ...]) -> bool:
    """Draw the table once a card changes hands or the game ends."""
    return any(isinstance(e, (AdvisorHired, VehicleBought, VehicleSold, GameEnded)) for e in events)


def _field(command: Any) -> NumberChoice | None:
    """A bid is one amount from a range (F4), typed in dollars as its notation reads it
    (``bid 5000``): the menu lists the bids as ``bid <amount> (0-20000, in 1000s)``."""
    if isinstance(command, Bid):
        return NumberChoice("bid", "amount", command.amount * 1000, "your whole bid (F4)")
    return None


DRAWING = Drawing(
    draw=draw,
    after=_after,
    explain=explain,
    examples=("bid 5000", "pass", "play 14", "offer 12"),
    field=_field,
)
"""How the command line draws For Sale: Autorama."""
