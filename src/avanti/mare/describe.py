"""Avanti mare!'s events in plain English, one line each, for transcripts and the command line."""

from __future__ import annotations

from collections.abc import Sequence

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
from avanti.mare.setup import PIECES, PublicSetup, Setup, Side

__all__ = ["describe", "narrate"]


def describe(event: Event, setup: Setup | PublicSetup, *, seat: int | None = None) -> str:
    """One plain English line for ``event``, naming players from ``setup`` (the full setup or
    the :class:`~avanti.mare.PublicSetup` a seat has); for transcripts and front ends.

    ``seat``: the seat the line is for; its own deeds read in the second person.

    >>> from avanti.mare import DieRolled, Face, Setup, Side, describe
    >>> setup = Setup(("Ann", "Bob"), (Side.FISH_FRIENDS, Side.FISHER_FANS))
    >>> describe(DieRolled(1, Face.RED), setup), describe(DieRolled(1, Face.RED), setup, seat=1)
    ('Bob rolls red.', 'You roll red.')
    """
    names = tuple("you" if i == seat else name for i, name in enumerate(setup.players))
    you = seat is not None and getattr(event, "seat", None) == seat
    who = "You" if you else names[getattr(event, "seat", 0)]
    if isinstance(event, DieRolled):
        return f"{who} {'roll' if you else 'rolls'} {event.face}."
    if isinstance(event, FishChosen):
        return f"{who} {'choose' if you else 'chooses'} the {event.fish} fish."
    if isinstance(event, MoveDeclined):
        return f"{who} {'decline' if you else 'declines'} to move another fish."
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
        moves = ("move" if you else "moves") if setup.options.free_fish_move_owed else "may move"
        return f"The {event.free} fish is free already: {names[event.seat]} {moves} another fish."
    if isinstance(event, RollIgnored):
        again = f"; {names[event.seat]} {'roll' if you else 'rolls'} again" if event.again else ""
        return f"Nothing happens for {event.face}{again}."
    if isinstance(event, TurnPassed):
        return "Your turn." if you else f"{names[event.seat]}'s turn."
    return _ended(event, setup, seat)


def narrate(
    events: Sequence[Event],
    setup: Setup | PublicSetup,
    *,
    seat: int | None = None,
    after: int = 0,
) -> tuple[str, ...]:
    """One line per event of ``events[after:]``, as :func:`describe` says it for ``seat``
    (every game offers ``narrate``; in Avanti mare! no line depends on an earlier event)."""
    return tuple(describe(event, setup, seat=seat) for event in events[after:])


def _ended(event: GameEnded, setup: Setup | PublicSetup, seat: int | None) -> str:
    counts = f"{event.free} fish free and {event.caught} caught"
    winner = event.result.winner
    if winner is None:
        return f"The game ends with {counts}: a draw."
    seats = [
        "you" if i == seat else name
        for i, (name, side) in enumerate(zip(setup.players, setup.sides, strict=True))
        if side is winner
    ]
    backers = f" ({', '.join(seats)})" if seats else ""
    side = "fish friends" if winner is Side.FISH_FRIENDS else "fisher fans"
    return f"The game ends with {counts}: the {side} win{backers}."
