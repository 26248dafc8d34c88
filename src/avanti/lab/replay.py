"""Step through a saved game command by command: :func:`step_through`.

A saved game is shown at every command boundary: after its opening events (the deal), then
after each command, each :class:`Moment` with the events since the one before in words (every
hidden fact told) and the picture of the table as one seat, or the spectator, sees it. The log
is folded once from its start and told in words once, so the work grows with the game's length,
never with its square.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from avanti.catalog import GameInfo
from avanti.core.errors import InvalidArgument
from avanti.core.svg import Svg

__all__ = ["Moment", "step_through"]


@frozen
class Moment:
    """A saved game at one command boundary: its version (the events so far), the command whose
    events end here (``None`` for the opening), those events in words, every hidden fact told,
    and the picture of the table."""

    version: int
    command: Any
    lines: tuple[str, ...]
    picture: Svg


def step_through(info: GameInfo, game: Any, *, seen_by: int | None = None) -> tuple[Moment, ...]:
    """``game`` (a game of ``info``'s kind) at every command boundary: first after its opening
    events, then after each command; the pictures drawn as ``seen_by`` (a seat, its own hand face
    up, or ``None``, the spectator) sees the table.

    The log is folded once, each moment's state kept as the fold passes it, and the game's
    ``narrate`` tells it once (one line per event, as every game's does).

    :raises InvalidArgument: ``seen_by`` is no seat of the game.
    """
    rules = type(game).rules
    setup = game.setup
    players = len(setup.players)
    if seen_by is not None and (type(seen_by) is not int or not 0 <= seen_by < players):
        raise InvalidArgument(f"seen_by must be a seat 0..{players - 1} or None")
    shown = info.load_presentation()
    events = game.events
    table = game.public_setup
    cuts = [index for index, event in enumerate(events) if rules.cause(event) is not None]
    boundaries = [cuts[0] if cuts else len(events), *cuts[1:], len(events)]
    lines = shown.narrate(events, setup)
    state, _ = rules.start(setup)
    moments: list[Moment] = []
    before = 0
    for version in boundaries:
        state = rules.fold(state, events[before:version])
        command = rules.cause(events[before]) if before < version and moments else None
        picture = Svg(shown.picture(rules.view(state, seen_by), table=table))
        moments.append(Moment(version, command, tuple(lines[before:version]), picture))
        before = version
    return tuple(moments)
