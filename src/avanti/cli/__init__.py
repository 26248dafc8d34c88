"""The ``avanti`` command line: watch, play, simulate, replay and check games.

- ``avanti demo [--game G] [--seed N]``: bots play one game, told event by event, table drawn.
- ``avanti play [--human 0,2]``: people and bots at one table; ``save FILE`` at any prompt.
- ``avanti simulate --game G --games N --bots random,heuristic,...``: many games in parallel,
  with win rates (95% Wilson intervals) and game lengths; ``--json``, ``--plot FILE.png``.
- ``avanti replay FILE [--step]``: a saved game command by command.
- ``avanti validate FILE``: exit 0 when a saved game is valid, 1 with the reason when not.
- ``avanti odds --game mare``: the exact odds of Avanti mare!.

:func:`main` takes its arguments, output and input as parameters, so it can be driven in-process.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from avanti.bots import BOT_KINDS
from avanti.catalog import DEFAULT_GAME, GAMES
from avanti.core.errors import AvantiError

__all__ = ["main"]

INTERRUPTED = 130
"""The exit code after Ctrl-C, as shells report a program stopped by SIGINT."""


def _game_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME)
    command.add_argument("--seed", type=int, default=7, help="the game's seed (default 7)")
    command.add_argument("--players", type=int, default=None, help="number of seats")
    command.add_argument(
        "--iterations", type=int, default=None, help="the search bot's budget per decision"
    )


def _parser() -> argparse.ArgumentParser:
    """The argument parser of the ``avanti`` command."""
    top = argparse.ArgumentParser(
        prog="avanti", description="Play, watch, simulate and check games of Avanti and its kin."
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    kinds = ", ".join(BOT_KINDS)

    demo = sub.add_parser("demo", help="bots play one full game; watch what happens")
    _game_options(demo)
    demo.add_argument(
        "--bots", default="heuristic", help=f"one bot for all seats or one per seat ({kinds})"
    )
    demo.add_argument("--save", type=Path, default=None, help="write the game to this JSON file")

    play = sub.add_parser("play", help="play at a table with bots")
    _game_options(play)
    play.add_argument("--human", default="0", help="the seats people play, e.g. 0,2 (default 0)")
    play.add_argument("--bots", default="heuristic", help=f"the bots at the other seats ({kinds})")
    play.add_argument("--resume", type=Path, default=None, help="go on with a saved game")

    simulate = sub.add_parser("simulate", help="many games between bots, with win rates")
    simulate.add_argument("--game", choices=sorted(GAMES), default=DEFAULT_GAME)
    simulate.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    simulate.add_argument("--bots", default=None, help="one bot per seat, e.g. heuristic,random")
    simulate.add_argument("--players", type=int, default=None, help="seats, with a single bot")
    simulate.add_argument("--workers", type=int, default=None, help="processes (default: CPUs)")
    simulate.add_argument("--seed", type=int, default=0, help="game i uses seed S+i (default 0)")
    simulate.add_argument(
        "--rotate", action="store_true", help="move the bots one seat on every game"
    )
    simulate.add_argument("--iterations", type=int, default=None, help="the search bot's budget")
    simulate.add_argument("--json", action="store_true", help="print the results as JSON")
    simulate.add_argument("--plot", type=Path, default=None, help="draw win rates to a PNG file")

    replay = sub.add_parser("replay", help="print a saved game command by command")
    replay.add_argument("file", type=Path)
    replay.add_argument("--step", action="store_true", help="wait for Enter between commands")
    replay.add_argument("--seat", type=int, default=None, help="show only what this seat saw")

    validate = sub.add_parser("validate", help="check a saved game (exit 0 when valid)")
    validate.add_argument("file", type=Path)

    odds = sub.add_parser("odds", help="the exact odds of Avanti mare!")
    odds.add_argument("--game", choices=["mare"], default="mare")
    odds.add_argument("--policy", default="all", help="an M6 policy, or all (default)")
    odds.add_argument("--variant", default="rulebook", help="an M9 variant, or all")
    odds.add_argument("--exact", action="store_true", help="write out every fraction")
    return top


def _run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from avanti.cli import odds, play, simulate, watch

    if args.command == "demo":
        return watch.demo(args, out)
    if args.command == "play":
        return play.play(args, out, inp)
    if args.command == "simulate":
        return simulate.simulate(args, out)
    if args.command == "replay":
        return watch.replay(args, out, inp)
    if args.command == "validate":
        return watch.validate(args, out)
    return odds.odds_command(args, out)


def _check_odds(args: argparse.Namespace) -> None:
    if args.command != "odds":
        return
    from avanti.cli.odds import VARIANTS
    from avanti.mare import POLICIES

    if args.policy != "all" and args.policy not in POLICIES:
        raise ValueError(f"unknown policy {args.policy!r}; choose all, {', '.join(POLICIES)}")
    if args.variant != "all" and args.variant not in VARIANTS:
        raise ValueError(f"unknown variant {args.variant!r}; choose all, {', '.join(VARIANTS)}")


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, inp: TextIO | None = None
) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code.

    ``out`` and ``inp`` default to standard output and input. Errors are reported in one line
    on standard error (exit 1); Ctrl-C exits with 130; bad arguments exit with 2.
    """
    out = out or sys.stdout
    inp = inp or sys.stdin
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else 2
    try:
        import rich  # noqa: F401
    except ImportError:
        sys.stderr.write(
            "avanti: the command line needs rich: python -m pip install 'avanti[cli]'\n"
        )
        return 1
    try:
        _check_odds(args)
        return _run(args, out, inp)
    except KeyboardInterrupt:
        sys.stderr.write("\navanti: interrupted\n")
        return INTERRUPTED
    except (AvantiError, OSError, ValueError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        sys.stderr.write(f"avanti: {message}\n")
        return 1
