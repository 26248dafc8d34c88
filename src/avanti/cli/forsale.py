"""The table of For Sale: Autorama for the terminal, as a seat (or a spectator) sees it."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from avanti.autorama import (
    AdvisorHired,
    Bid,
    Command,
    GameEnded,
    Offer,
    Pass,
    PlayAdvisor,
    Setup,
    TakeBack,
    UseMechanic,
    VehicleBought,
    VehicleSold,
    View,
    advisor_name,
    dollars,
)
from avanti.cli.render import Board

__all__ = ["BOARD", "command", "draw"]

_ON_TABLE = {"hiring": "advisors", "buying": "vehicles", "selling": "checks"}


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(str(card) for card in cards) or "none"


def draw(setup: Setup, view: View) -> RenderableType:
    """The cards on the table, each seat's public facts, and the seat's own hand."""
    phase = view.phase.value
    step = f" ({view.step.value})" if view.step is not None else ""
    header = Text(f"Round {view.round} of {phase}{step}", style="bold")
    shown = _ON_TABLE.get(phase, "cards")
    table_line = Text(f"On the table ({shown}): {_cards(view.table)}")
    left = Text(
        f"Left in the decks: {view.advisors_left} advisors, {view.vehicles_left} vehicles, "
        f"{view.checks_left} checks",
        style="dim",
    )
    seats = Table(box=None, pad_edge=False, show_edge=False)
    for name in ("Seat", "Player", "Bid ($k)", "Played", "Offer", "Advisors", "Vehicles", "Checks"):
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
            "-" if bid is None else str(bid) + ("" if view.active[seat] else " passed"),
            "-" if played is None else str(played),
            "hidden" if offer is None and view.offered[seat] else _cards(offer or ()),
            str(view.advisor_counts[seat]),
            str(view.vehicle_counts[seat]),
            str(view.check_counts[seat]),
        )
    parts: list[RenderableType] = [header, table_line, left, seats]
    if view.seat is not None:
        parts.append(
            Text(
                f"Yours: cash {view.cash}; advisors {_cards(view.advisors)}; "
                f"vehicles {_cards(view.vehicles)}; checks {_cards(view.checks)}"
            )
        )
    return Group(*parts)


def _after(events: tuple[Any, ...]) -> bool:
    """Draw the table once a card changes hands or the game ends."""
    return any(isinstance(e, (AdvisorHired, VehicleBought, VehicleSold, GameEnded)) for e in events)


def command(setup: Setup, command: Command) -> str:
    """A command of For Sale: Autorama in words (F4, F5, F9, F10, F14-F16)."""
    if isinstance(command, Bid):
        return f"bid {dollars(command.amount)}"
    if isinstance(command, Pass):
        return "pass: take the lowest advisor and half your bid back"
    if isinstance(command, PlayAdvisor):
        boost = " with its boost (pays $3,000)" if command.boost else ""
        return f"play {advisor_name(command.advisor)}{boost}"
    if isinstance(command, Offer):
        vehicles = " and ".join(str(v) for v in command.vehicles)
        lawyer = " (with a Lawyer)" if len(command.vehicles) == 2 else ""
        return f"offer vehicle{'s' if lawyer else ''} {vehicles}{lawyer}"
    if isinstance(command, TakeBack):
        return f"take back vehicle {command.vehicle}"
    if isinstance(command, UseMechanic):
        return "use a Mechanic: take the second-lowest check"
    return "keep your Mechanics: take the lowest check"


BOARD = Board(draw, _after, command)
"""How the command line draws For Sale: Autorama."""
