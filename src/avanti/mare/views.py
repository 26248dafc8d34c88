"""What a seat may see of a game of Avanti mare!, and the plain-English transcript of events.

Everything on the table is public in this game; only the seeded generator is hidden, so that
nobody can foresee the die (M3).
"""

from __future__ import annotations

from attrs import frozen

from avanti.mare.events import (
    DieRolled,
    Event,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    GameEnded,
    MoveOffered,
    PieceRemoved,
    RollIgnored,
    TurnPassed,
)
from avanti.mare.setup import PIECES, Options, Setup, Side
from avanti.mare.state import GameState, Result

__all__ = ["View", "describe", "redact", "view"]


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


def describe(event: Event, setup: Setup) -> str:
    """One plain English line for ``event``, naming players from ``setup``; for transcripts."""
    names = setup.players
    if isinstance(event, DieRolled):
        return f"{names[event.seat]} rolls {event.face}."
    if isinstance(event, FishChosen):
        return f"{names[event.seat]} chooses the {event.fish} fish."
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
        return f"The {event.free} fish is free already: {names[event.seat]} moves another fish."
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
