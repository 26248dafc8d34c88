"""``avanti demo``, ``avanti replay`` and ``avanti validate``: watch and check whole games."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from avanti.bots.driver import play
from avanti.bots.kit import make_bot
from avanti.catalog import GameInfo, game_info, info_for_document
from avanti.cli.console import make_console, problems, say
from avanti.cli.files import write_text_atomically
from avanti.cli.render import drawing_for
from avanti.cli.seat import ending, parts_of, show, title, told
from avanti.core.errors import DecodeError, InvalidArgument

__all__ = ["bot_kinds", "demo", "load", "replay", "seat_count", "validate"]


def bot_kinds(text: str, seats: int) -> list[str]:
    """One bot kind per seat from ``"heuristic"`` (every seat) or ``"search,random,..."``."""
    kinds = [part.strip() for part in text.split(",") if part.strip()]
    if len(kinds) == 1:
        return kinds * seats
    if len(kinds) != seats:
        raise InvalidArgument(
            f"give one bot for every seat or one for all: {seats} seats, {text!r}"
        )
    return kinds


def seat_count(info: GameInfo, bots: str, players: int | None) -> int:
    """How many seats a table has: ``players`` when given, else one per bot when ``bots`` names
    several (``"heuristic,random,random"`` is three seats), else the game's usual table.

    :raises InvalidArgument: the count is outside the game's seat limits, naming them.
    """
    named = len([part for part in bots.split(",") if part.strip()])
    seats = players if players is not None else named if named > 1 else None
    return len(info.player_names(seats))


def demo(args: argparse.Namespace, out: TextIO) -> int:
    """Bots play one seeded game; print every event and draw the table as it goes, with the
    key to its abbreviations under the first drawing."""
    info = game_info(args.game)
    names = list(info.player_names(seat_count(info, args.bots, args.players)))
    game: Any = info.new_game(names, seed=args.seed)
    kinds = bot_kinds(args.bots, len(names))
    bots = {
        seat: make_bot(kind, info, game.setup, seat, iterations=args.iterations)
        for seat, kind in enumerate(kinds)
    }
    console = make_console(out)
    board = drawing_for(info)
    say(console, f"{info.title}: {', '.join(names)} (seed {args.seed})", style="bold")
    say(console, f"Bots: {', '.join(kinds)}")
    say(console)
    for line in info.narrate(game.events, game.setup):
        say(console, line)
    console.print(board.draw(game.setup, game.view(None)))
    for line in board.legend(game.setup):
        say(console, line, style="dim")
    commands = 0
    for step in play(game, bots, seed=args.seed):
        commands += 1
        told = len(step.game.events) - len(step.events)
        for line in info.narrate(step.game.events, game.setup, after=told):
            say(console, line)
        game = step.game
        if board.after(step.events) or game.is_over:
            console.print(board.draw(game.setup, game.view(None)))
    say(console)
    say(console, f"{commands} commands, {len(game.events)} events.", style="bold")
    if args.save is not None:
        write_text_atomically(args.save, game.dumps(indent=1))
        say(console, f"Saved to {args.save}.")
    return 0


def load(path: Path) -> tuple[GameInfo, Any]:
    """Read a saved game of any kind in the catalog, checking its log against the rules.

    :raises InvalidArgument: the file is no game document, or does not decode as the game its
        ``format`` names (a document of another game, say); the message is one line naming the
        file, the game, the first problem and how many more there are.
    :raises CorruptLog: the document decodes but its log does not fit its setup.
    """
    text = path.read_bytes()
    try:
        info = info_for_document(text)
    except DecodeError as error:
        raise InvalidArgument(f"{path}: not a game document {problems(error)}") from error
    try:
        return info, info.load().loads(text)
    except DecodeError as error:
        parts = [part for part in ("setup", "events") if _about(error, part)]
        what = "the " + " and the ".join(parts) if parts else "the document"
        verb = "do" if len(parts) > 1 or parts == ["events"] else "does"
        raise InvalidArgument(
            f"{path}: not a valid {info.title} game: {what} {verb} not fit {problems(error)}"
        ) from error


def _about(error: DecodeError, part: str) -> bool:
    """Whether a problem lies in ``$.setup`` or ``$.events`` (each problem ends with its path)."""
    return any(re.search(rf" @ \$\.{part}\b", problem) for problem in error.errors)


def replay(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Print a saved game command by command; with ``--step``, wait for Enter between them.

    With ``--seat``, as that seat saw it (:func:`avanti.cli.seat.told`); without, the whole
    log, for whoever holds the file."""
    info, game = load(args.file)
    console = make_console(out)
    names = game.setup.players
    seat = args.seat
    if seat is not None and not 0 <= seat < len(names):
        raise InvalidArgument(f"there is no seat {seat}: the seats are 0 to {len(names) - 1}")
    whole = seat is None
    chunks = told(info, game, seat, whole=whole)
    show(console, [title(info, game, len(chunks) - 1)])
    for one in chunks:
        if one.heading is not None and args.step and not _wait(console, inp):
            return 0
        show(console, parts_of(one))
    show(console, [Text(), ending(info, game, seat, whole=whole)])
    return 0


def _wait(console: Console, inp: TextIO) -> bool:
    say(console, "(Enter: next command; q: stop)", style="dim")
    line = inp.readline()
    return bool(line) and line.strip().lower() not in {"q", "quit"}


def validate(args: argparse.Namespace, out: TextIO) -> int:
    """Check a saved game; say what it is (exit 0) or raise the error that makes it invalid."""
    info, game = load(args.file)
    state = "finished" if game.is_over else "in progress"
    out.write(f"{args.file}: a valid {info.title} game, {len(game.events)} events, {state}.\n")
    return 0
