"""Avanti mare!'s events in plain English, one line each, for transcripts and the command line."""

from __future__ import annotations

from avanti.mare.events import (
    DieRolled,
    Event,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    GameEnded,
    MoveDeclined,
    MoveOffered,
    PieceRemoved,
    RollIgnored,
    TurnPassed,
)
from avanti.mare.setup import PIECES, Setup, Side

__all__ = ["describe"]


def describe(event: Event, setup: Setup) -> str:
    """One plain English line for ``event``, naming players from ``setup``; for transcripts."""
    names = setup.players
    if isinstance(event, DieRolled):
        return f"{names[event.seat]} rolls {event.face}."
    if isinstance(event, FishChosen):
        return f"{names[event.seat]} chooses the {event.fish} fish."
    if isinstance(event, MoveDeclined):
        return f"{names[event.seat]} declines to move another fish."
    if isinstance(event, FishSwam):
        return f"The {event.fish} fish swims to piece {event.piece}."
    if isinstance(event, FishFreed):
        return f"The {event.fish} fish swims into the sea and is free."
    if isinstance(event, PieceRemoved):
        where = (
            "reaches the sea" if event.piece == PIECES else f"moves up to piece {event.piece + 1}"
        )
        return f"Piece {event.piece} is taken away; the boat {where}."
    if isinstance(event, FishCaught):
        return f"The {event.fish} fish on piece {event.piece} is caught."
    if isinstance(event, MoveOffered):
        moves = "moves" if setup.options.free_fish_move_owed else "may move"
        return f"The {event.free} fish is free already: {names[event.seat]} {moves} another fish."
    if isinstance(event, RollIgnored):
        again = f"; {names[event.seat]} rolls again" if event.again else ""
        return f"Nothing happens for {event.face}{again}."
    if isinstance(event, TurnPassed):
        return f"{names[event.seat]}'s turn."
    return _ended(event, setup)


def _ended(event: GameEnded, setup: Setup) -> str:
    counts = f"{event.free} fish free and {event.caught} caught"
    winner = event.result.winner
    if winner is None:
        return f"The game ends with {counts}: a draw."
    seats = [name for name, side in zip(setup.players, setup.sides, strict=True) if side is winner]
    backers = f" ({', '.join(seats)})" if seats else ""
    side = "fish friends" if winner is Side.FISH_FRIENDS else "fisher fans"
    return f"The game ends with {counts}: the {side} win{backers}."
