"""The smallest front end: show the view, list the legal commands, read a choice, execute.

Run it in a terminal to play every seat of a game yourself (type the number of a command), or with
``--auto`` to let it take the first legal command each time; it does that too when its input or
output is not a terminal, so ``nox -s examples`` can run it. ``--game`` picks any game in the
catalog.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from avanti.catalog import GAMES, GameInfo, game_info

Chooser = Callable[[Sequence[Any]], int]
"""Given the legal commands (never empty), the index of the one to play."""


def first(commands: Sequence[Any]) -> int:
    """Always the first legal command."""
    return 0


def ask(commands: Sequence[Any]) -> int:
    """Ask on the terminal until a valid number is typed."""
    while True:
        answer = input(f"command [0-{len(commands) - 1}]: ").strip()
        if answer.isdigit() and int(answer) < len(commands):
            return int(answer)
        print("  please type one of the numbers above")


def play(game: Any, info: GameInfo, choose: Chooser) -> Any:
    """Play ``game`` to its end, choosing each command with ``choose``; return the ended game."""
    codec = game.rules.codec
    while not game.is_over:
        # The seat to ask next: the lowest seat that may act (in some steps several may).
        seat = min(command.seat for command in game.legal_commands())
        legal = game.legal_commands(seat)  # only this seat's commands are shown to it
        print(f"\nseat {seat} sees: {json.dumps(codec.unstructure(game.view(seat)))}")
        for number, command in enumerate(legal):
            print(f"  [{number}] {json.dumps(codec.command_to_data(command))}")
        seen = len(game.events_for(seat))
        game = game.execute(legal[choose(legal)])
        for event in game.events_for(seat)[seen:]:
            print(f"  > {info.describe(event, game.setup)}")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="mare")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--auto", action="store_true", help="always take the first command")
    args = parser.parse_args(argv)
    info = game_info(args.game)
    players = list(info.default_players)
    game = info.new_game(players, seed=args.seed)
    # Ask only a person at a terminal: when input or output is redirected (as under
    # ``nox -s examples``, which captures the output), play on by itself.
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and not args.auto
    game = play(game, info, ask if interactive else first)
    print(f"\nresult: {json.dumps(game.rules.codec.unstructure(game.outcome))}")
    # The ended game must be exactly the one its log replays to, and round-trip through JSON.
    module = info.load()
    assert module.loads(module.dumps(game)) == game
    assert game.legal_commands() == ()
    return 0


if __name__ == "__main__":
    sys.exit(main())
