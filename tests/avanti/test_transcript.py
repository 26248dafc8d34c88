"""A playthrough transcript: a whole seeded four-player game, one line per event.

The transcript in ``transcripts/four_players_seed_7.txt`` was read through by hand against the
rules (tolls by space, leapfrogs, quits, retreats, ATMs, the next run's marker and starting
player). Any change to the rules or to :func:`avanti.narrate` shows up here as a diff to read.
Regenerate it with ``PYTHONPATH=src python -m tests.avanti.test_transcript``.
"""

from __future__ import annotations

import random
from pathlib import Path

import avanti

TRANSCRIPT = Path(__file__).parent / "transcripts" / "four_players_seed_7.txt"


def transcript() -> str:
    """Play the game (a seeded bot that drives far more often than it quits) and describe it."""
    game = avanti.new_game(["Ann", "Bob", "Cy", "Dee"], 7)
    rnd = random.Random(7)
    while not game.is_over:
        commands: tuple[avanti.Command, ...] = game.legal_commands()
        if rnd.random() < 0.9:
            commands = tuple(c for c in commands if not isinstance(c, avanti.Quit)) or commands
        game = game.execute(rnd.choice(commands))
    return "".join(line + "\n" for line in avanti.narrate(game.events, game.setup))


def test_the_seed_7_game_reads_as_recorded() -> None:
    assert transcript() == TRANSCRIPT.read_text(encoding="utf-8")


if __name__ == "__main__":
    TRANSCRIPT.write_text(transcript(), encoding="utf-8")
