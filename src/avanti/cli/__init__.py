"""The ``avanti`` command line: watch, play, simulate, replay and check games.

- ``avanti demo [--game G] [--seed N]``: bots play one game, told event by event, table drawn.
- ``avanti play [--human 0,2] [--side SIDE] [--save FILE]``: people and bots at one table;
  ``save FILE`` at any prompt, ``leave`` to leave. A seat is shown only what it may see; the
  seed is a secret random one unless ``--seed`` is given.
- ``avanti simulate --game G --games N --bots random,heuristic,...``: many games in parallel,
  with win rates (95% Wilson intervals) and game lengths; ``--json [FILE]``, ``--plot FILE.png``,
  ``--engine ray``, ``--resume``.
- ``avanti tournament --bots heuristic,random,search``: every seat order, with ratings.
- ``avanti replay FILE [--step] [--seat N]``: a saved game command by command, whole or as one
  seat saw it.
- ``avanti validate FILE``: exit 0 when a saved game is valid, 1 with the reason when not.
- ``avanti odds --game mare``: the exact odds of Avanti mare!.
- ``avanti serve [--database FILE_OR_URI] [--host H] [--port P]``: the game server, HTTP and
  WebSocket (the ``server`` extra).
- ``avanti lab [--port P]``: the rules lab alone, on a store in memory and the loopback address.
- ``avanti --version``: the library's version, ``avanti.__version__``.

:func:`main` takes its arguments, output and input as parameters, so it can be driven in-process.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from avanti import __version__
from avanti.bots import BOT_KINDS
from avanti.catalog import DEFAULT_GAME, GAMES
from avanti.cli.lab import add_arguments as lab_arguments
from avanti.cli.serve import add_arguments as serve_arguments
from avanti.core.errors import AvantiError, DecodeError

__all__ = ["main"]

INTERRUPTED = 130
"""The exit code after Ctrl-C, as shells report a program stopped by SIGINT."""


GAME_HELP = "which game (default: %(default)s)"
"""The help of ``--game``; argparse fills in the default (the usage line lists the choices)."""

EXAMPLES = {
    "demo": (
        "avanti demo --game mare --seed 3",
        "avanti demo --bots heuristic,random,random --save game.json",
    ),
    "play": (
        "avanti play --game mare --side fisher-fans --save game.json",
        "avanti play --game autorama --human 0,2 --bots random",
    ),
    "simulate": (
        "avanti simulate --game mare --games 200 --bots heuristic,random --rotate",
        "avanti simulate --players 4 --games 50 --engine ray --json results.json",
    ),
    "tournament": (
        "avanti tournament --game mare --bots heuristic,random,search --seats 2 --rounds 20",
        "avanti tournament --bots heuristic,random --format gauntlet --json t.json --resume",
    ),
    "replay": ("avanti replay game.json --step", "avanti replay game.json --seat 1"),
    "validate": ("avanti validate game.json",),
    "odds": ("avanti odds --policy closest-to-boat --exact",),
    "serve": (
        "avanti serve --database games.db --port 8080",
        "avanti serve --database postgresql://games@db/avanti --host 0.0.0.0",
    ),
    "lab": ("avanti lab", "avanti lab --port 0"),
}
"""One or two example command lines for each subcommand, shown at the end of its help."""


def _epilog(command: str) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[command])


def _add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help: str
) -> argparse.ArgumentParser:
    """A subcommand whose help ends with its examples, line breaks kept."""
    return sub.add_parser(
        name,
        help=help,
        description=help[:1].upper() + help[1:] + ("" if help.endswith("!") else "."),
        epilog=_epilog(name),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _game_option(command: argparse.ArgumentParser, choices: list[str], default: str) -> None:
    command.add_argument("--game", choices=choices, default=default, help=GAME_HELP)


def _game_options(command: argparse.ArgumentParser, seed: int | None = 7) -> None:
    _game_option(command, sorted(GAMES), DEFAULT_GAME)
    command.add_argument(
        "--seed",
        type=int,
        default=seed,
        help="the game's seed (default: "
        + ("a secret random one, which no seat is shown" if seed is None else str(seed))
        + ")",
    )
    command.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of seats (default: one per bot named in --bots, else the game's usual table)",
    )
    command.add_argument(
        "--iterations", type=int, default=None, help="the search bot's budget per decision"
    )


def _run_options(command: argparse.ArgumentParser, grow: str) -> None:
    """The options ``simulate`` and ``tournament`` share: engine, seed, files, resumption."""
    command.add_argument(
        "--engine", choices=["local", "ray"], default="local", help="where games run (local)"
    )
    command.add_argument("--address", default=None, help="an existing Ray cluster's address")
    command.add_argument(
        "--workers", type=int, default=None, help="processes or Ray tasks (default: CPUs)"
    )
    command.add_argument(
        "--seed", type=int, default=None, help="the root of every game's seed (default 0)"
    )
    command.add_argument("--iterations", type=int, default=None, help="the search bot's budget")
    command.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="FILE",
        help="write every game and the results to FILE as they finish (alone: print as JSON)",
    )
    command.add_argument(
        "--resume",
        action="store_true",
        help=f"go on with the run in --json FILE (a larger --{grow} plays more)",
    )


def _mare_policies() -> tuple[str, ...]:
    """The M6 policies ``avanti odds --policy`` takes, by name."""
    from avanti.cli.odds import POLICIES

    return tuple(POLICIES)


def _mare_variants() -> tuple[str, ...]:
    """The M9 variants ``avanti odds --variant`` takes, by name."""
    from avanti.cli.odds import VARIANTS

    return tuple(VARIANTS)


def _parser() -> argparse.ArgumentParser:
    """The argument parser of the ``avanti`` command."""
    top = argparse.ArgumentParser(
        prog="avanti",
        description="Play, watch, simulate and check games of Avanti and its kin.",
        epilog="'avanti COMMAND --help' shows a command's options and examples.",
    )
    top.add_argument(
        "--version", action="version", version=f"avanti {__version__}", help="print the version"
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    kinds = ", ".join(BOT_KINDS)

    demo = _add_command(sub, "demo", "bots play one full game; watch what happens")
    _game_options(demo)
    demo.add_argument(
        "--bots", default="heuristic", help=f"one bot for all seats or one per seat ({kinds})"
    )
    demo.add_argument("--save", type=Path, default=None, help="write the game to this JSON file")

    play = _add_command(sub, "play", "play at a table with bots")
    _game_options(play, seed=None)  # a seed a player knows deals every hand it cannot see
    play.add_argument("--human", default="0", help="the seats people play, e.g. 0,2 (default 0)")
    play.add_argument(
        "--bots",
        default="heuristic",
        help=f"one bot for the other seats, or one per seat, human seats' skipped ({kinds})",
    )
    play.add_argument("--resume", type=Path, default=None, help="go on with a saved game")
    play.add_argument(
        "--save",
        type=Path,
        default=None,
        metavar="FILE",
        help="write the game to FILE after every command and at the end",
    )
    play.add_argument(
        "--side",
        default=None,
        choices=sorted({side for info in GAMES.values() for side in info.sides}),
        help="the side your seats back, in a game with sides (Avanti mare!, M2)",
    )

    simulate = _add_command(sub, "simulate", "many games between bots, with win rates")
    _game_option(simulate, sorted(GAMES), DEFAULT_GAME)
    simulate.add_argument("--games", type=int, default=None, help="how many games (default 100)")
    simulate.add_argument(
        "--bots",
        default=None,
        help="one bot per seat, e.g. heuristic,random or mybots:Greedy (default random)",
    )
    simulate.add_argument(
        "--players", type=int, default=None, help="number of seats, with a single bot"
    )
    simulate.add_argument(
        "--rotate", action="store_true", help="move the bots one seat on every game"
    )
    _run_options(simulate, "games")
    simulate.add_argument("--plot", type=Path, default=None, help="draw win rates to a PNG file")

    tournament = _add_command(sub, "tournament", "bots meet in every seat order; ratings")
    _game_option(tournament, sorted(GAMES), DEFAULT_GAME)
    tournament.add_argument(
        "--bots", default=None, help="the entrants, e.g. heuristic,random,mybots:Greedy"
    )
    tournament.add_argument(
        "--seats", type=int, default=None, help="seats per table (default: one per bot)"
    )
    tournament.add_argument(
        "--rounds", type=int, default=None, help="times each seating is played (default 1)"
    )
    tournament.add_argument(
        "--format",
        choices=["round-robin", "gauntlet"],
        default=None,
        help="every table of bots, or the first bot against the rest (default round-robin)",
    )
    _run_options(tournament, "rounds")
    tournament.add_argument("--plot", type=Path, default=None, help="draw ratings to a PNG file")

    replay = _add_command(sub, "replay", "print a saved game command by command")
    replay.add_argument("file", type=Path, help="a game saved as JSON")
    replay.add_argument("--step", action="store_true", help="wait for Enter between commands")
    replay.add_argument("--seat", type=int, default=None, help="show only what this seat saw")

    validate = _add_command(sub, "validate", "check a saved game (exit 0 when valid)")
    validate.add_argument("file", type=Path, help="a game saved as JSON")

    odds = _add_command(sub, "odds", "the exact odds of Avanti mare!")
    _game_option(odds, ["mare"], "mare")
    odds.add_argument(
        "--policy",
        default="all",
        help=f"an M6 policy: {', '.join(_mare_policies())}, or all (default)",
    )
    odds.add_argument(
        "--variant",
        default="rulebook",
        help=f"an M9 variant: {', '.join(_mare_variants())}, or all",
    )
    odds.add_argument("--exact", action="store_true", help="write out every fraction")

    serve = _add_command(sub, "serve", "serve games over HTTP and WebSockets")
    serve_arguments(serve)
    lab = _add_command(sub, "lab", "the rules lab on this computer, on a store in memory")
    lab_arguments(lab)
    return top


def _run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    # Each command imports only its own module: ``serve`` and ``lab`` run on the ``server``
    # extra alone, which brings no rich (the terminal's modules import it at their top).
    if args.command == "serve":
        from avanti.cli.serve import serve

        return serve(args, out)
    if args.command == "lab":
        from avanti.cli.lab import lab

        return lab(args, out)
    if args.command == "demo":
        from avanti.cli.watch import demo

        return demo(args, out)
    if args.command == "play":
        from avanti.cli.play import play

        return play(args, out, inp)
    if args.command in ("simulate", "tournament"):
        from avanti.cli import simulate

        run = simulate.simulate if args.command == "simulate" else simulate.tournament
        return run(args, out)
    if args.command == "replay":
        from avanti.cli.watch import replay

        return replay(args, out, inp)
    if args.command == "validate":
        from avanti.cli.watch import validate

        return validate(args, out)
    from avanti.cli.odds import odds_command

    return odds_command(args, out)


def _check_odds(args: argparse.Namespace) -> None:
    if args.command == "odds":
        from avanti.cli.odds import check

        check(args)


def _one_line(error: Exception) -> str:
    """What went wrong, in one line: a :class:`DecodeError` gives its first problem and a count
    of the rest, not one line per problem."""
    if isinstance(error, DecodeError):
        from avanti.cli.console import problems

        return f"cannot decode document {problems(error)}"
    return str(error)


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
        if args.command not in (
            "serve",
            "lab",
        ):  # the server draws nothing: avanti[server] is enough
            import rich  # noqa: F401
    except ImportError:
        sys.stderr.write(
            "avanti: the command line needs rich: run python -m pip install '.[cli]' "
            "in a checkout of avanti (or install rich)\n"
        )
        return 1
    try:
        _check_odds(args)
        return _run(args, out, inp)
    except KeyboardInterrupt:
        sys.stderr.write("\navanti: interrupted\n")
        return INTERRUPTED
    except (AvantiError, OSError) as error:
        sys.stderr.write(f"avanti: {_one_line(error)}\n")
        return 1
