"""Playthrough transcripts: a whole game as text a person can read and review.

After every command a transcript shows the command (in the game's notation and as data), the
events it caused (in plain English and as data), what each seat and a spectator may see, and the
legal commands (notation and data). Checked-in transcripts are compared by the tests, so any
change in behaviour shows up as a readable diff.
"""

from __future__ import annotations

import json
from typing import Any

from avanti.bots import RandomBot
from avanti.bots.driver import play
from avanti.catalog import GameInfo

__all__ = ["playthrough"]


def _data(codec: Any, value: object) -> str:
    return json.dumps(codec.unstructure(value), sort_keys=True, ensure_ascii=False)


def _state_block(info: GameInfo, game: Any, seats: int) -> list[str]:
    codec = game.rules.codec
    lines = ["views:"]
    for seat in (*range(seats), None):
        label = "spectator" if seat is None else f"seat {seat}"
        lines.append(f"  {label}: {_data(codec, game.view(seat))}")
    legal = game.legal_commands()
    lines.append(f"legal commands ({len(legal)}):")
    lines.extend(
        f"  {game.notation(c)}: {json.dumps(codec.command_to_data(c), sort_keys=True)}"
        for c in legal
    )
    return lines


def _event_block(info: GameInfo, game: Any, events: tuple[Any, ...]) -> list[str]:
    """The last ``events`` of ``game``, in words (after the whole log before them) and as data."""
    codec = game.rules.codec
    lines = ["events:"]
    told = info.narrate(game.events, game.setup, after=len(game.events) - len(events))
    for event, line in zip(events, told, strict=True):
        lines.append(f"  - {line}")
        lines.append(f"    {json.dumps(codec.event_to_data(event), sort_keys=True)}")
    return lines


def playthrough(info: GameInfo, players: list[str], seed: int) -> str:
    """The transcript of one game of ``info`` played by random bots seeded with ``seed``."""
    game: Any = info.new_game(players, seed=seed)
    seats = len(players)
    lines = [
        f"# {info.title} playthrough: seed {seed}, players {', '.join(players)}",
        "",
        "## opening",
        *_event_block(info, game, game.events),
        *_state_block(info, game, seats),
    ]
    bots = {seat: RandomBot() for seat in range(seats)}
    for number, step in enumerate(play(game, bots, seed=seed), start=1):
        codec = step.game.rules.codec
        lines += [
            "",
            f"## command {number}: {game.notation(step.command)}: "
            f"{json.dumps(codec.command_to_data(step.command))}",
            *_event_block(info, step.game, step.events),
            *_state_block(info, step.game, seats),
        ]
        game = step.game
    lines += ["", f"## result: {_data(game.rules.codec, game.outcome)}", ""]
    return "\n".join(lines)
