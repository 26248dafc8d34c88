"""The ``avanti`` command line: watch, replay and check games.

``python -m avanti demo --game mare --seed 7`` plays a whole seeded game with bots and prints a
readable account; ``replay FILE`` prints the account of a saved game; ``validate FILE`` checks a
saved game and exits non-zero with the reason when it is not valid.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from avanti.bots import RandomBot
from avanti.bots.driver import play
from avanti.catalog import GAMES, GameInfo, game_info, info_for_document
from avanti.core.errors import AvantiError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="avanti", description="Play, watch and check games of Avanti and its siblings."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="bots play one full game; print what happens")
    demo.add_argument("--game", choices=sorted(GAMES), default="mare")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--players", type=int, default=None, help="number of seats")
    demo.add_argument("--save", type=Path, default=None, help="write the game to this JSON file")
    replay = sub.add_parser("replay", help="print the account of a saved game")
    replay.add_argument("file", type=Path)
    validate = sub.add_parser("validate", help="check a saved game (exit 0 when valid)")
    validate.add_argument("file", type=Path)
    return parser


def _print_account(info: GameInfo, game: Any, out: TextIO) -> None:
    for event in game.events:
        out.write(info.describe(event, game.setup) + "\n")


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    info = game_info(args.game)
    count = args.players or len(info.default_players)
    names = [*info.default_players, "Dee", "Eve", "Fay"][:count]
    game = info.new_game(names, seed=args.seed)
    out.write(f"{info.title}: {', '.join(names)} (seed {args.seed})\n\n")
    for event in game.events:
        out.write(info.describe(event, game.setup) + "\n")
    bots = {seat: RandomBot() for seat in range(len(names))}
    for step in play(game, bots, seed=args.seed):
        for event in step.events:
            out.write(info.describe(event, game.setup) + "\n")
        game = step.game
    out.write(f"\n{len(game.events)} events.\n")
    if args.save is not None:
        args.save.write_text(game.dumps(indent=1), encoding="utf-8")
        out.write(f"Saved to {args.save}.\n")
    return 0


def _load(path: Path) -> tuple[GameInfo, Any]:
    text = path.read_bytes()
    info = info_for_document(text)
    return info, info.load().loads(text)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            return _demo(args, out)
        info, game = _load(args.file)
        if args.command == "replay":
            _print_account(info, game, out)
        else:
            out.write(f"{args.file}: a valid {info.title} game, {len(game.events)} events.\n")
        return 0
    except (AvantiError, OSError) as error:
        sys.stderr.write(f"avanti: {error}\n")
        return 1
