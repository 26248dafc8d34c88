"""``avanti play``: people and bots at one table, in the terminal.

Human seats see only their own view and the events as their seat may see them; the legal
commands are listed by number with their notation, and a number or the notation picks one.
``save FILE`` writes the game to JSON at any prompt (``avanti play --resume FILE`` goes on with
it), ``help`` lists the inputs, ``quit`` leaves. Bad input is refused with the reason and asked
again.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

from avanti.bots import Bot
from avanti.bots.kit import make_bot
from avanti.catalog import GameInfo, game_info
from avanti.cli.console import make_console, say
from avanti.cli.files import write_text_atomically
from avanti.cli.seat import answer, news, show, turn
from avanti.cli.seat import table as seat_table
from avanti.cli.watch import bot_kinds, load, seat_count
from avanti.core.errors import InvalidArgument
from avanti.core.limits import new_seed
from avanti.core.rng import Rng

__all__ = ["parse_seats", "play"]

HELP = (
    "Type the number of a command, or the command itself as listed (such as 'drive' or "
    "'bid 5000'), to play it; 'save FILE' writes the game to a JSON file; "
    "'leave' leaves (end of input and Ctrl-C do too)."
)

LEAVE = frozenset({"leave", "exit", "quit", "q"})
"""Words that leave the game, unless the game reads them as a command (Avanti's ``quit``)."""


def parse_seats(text: str, seats: int) -> frozenset[int]:
    """The human seats from ``"0,2"``.

    :raises InvalidArgument: a part that is no seat at the table, named.
    """
    chosen: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or not 0 <= int(part) < seats:
            raise InvalidArgument(f"--human takes seats from 0 to {seats - 1}, got {part!r}")
        chosen.add(int(part))
    return frozenset(chosen)


class _Table:
    """One game at the terminal: the game so far, who is human, the bots, and the version of
    the log each watcher has been told up to."""

    def __init__(
        self, info: GameInfo, game: Any, humans: frozenset[int], bots: dict[int, Bot[Any, Any]]
    ) -> None:
        self.info = info
        self.game = game
        self.humans = humans
        self.bots = bots
        self.told: dict[int | None, int] = dict.fromkeys(humans or (None,), 0)

    def catch_up(self, console: Console, seat: int | None) -> None:
        """Tell ``seat`` what happened since it last looked, as its seat may see it."""
        show(console, news(self.info, self.game, seat, after=self.told[seat]))
        self.told[seat] = self.game.version


def _human_turn(table: _Table, seat: int, console: Console, inp: TextIO) -> Any | None:
    """Ask ``seat`` for a command until it gives a good one; ``None`` to leave the game.

    The seat is shown only what :func:`avanti.cli.seat.turn` builds from its own view, its
    events and its own commands; what it types is read by :func:`avanti.cli.seat.answer`."""
    game = table.game
    name = game.setup.players[seat]
    show(console, turn(table.info, game, seat, after=table.told[seat]))
    table.told[seat] = game.version
    while True:
        console.print(f"{name}> ", end="", markup=False, highlight=False)
        line = inp.readline()
        if line and not _interactive(inp):
            say(console, line.rstrip("\n"))  # echo piped input, so the account reads well
        if not line:
            say(console)
            say(console, "End of input: leaving the game.")
            return None
        text = line.strip()
        if text.lower() in {"help", "?", ""}:
            say(console, HELP)
            continue
        if text.split(maxsplit=1)[0].lower() == "save":
            _save(console, game, text)
            continue
        command, why = answer(game, seat, text)
        if command is not None:
            return command
        if text.isascii() and text.isdigit():
            say(console, why, style="red")
        elif text.lower() in LEAVE:
            say(console, "Leaving the game.")
            return None
        else:
            say(console, f"{why}. {HELP}", style="red")


def _interactive(inp: TextIO) -> bool:
    return inp.isatty() if hasattr(inp, "isatty") else False


def _save(console: Console, game: Any, text: str) -> None:
    parts = text.split(maxsplit=1)
    if len(parts) < 2:
        say(console, "Say where: save FILE", style="red")
        return
    path = Path(parts[1])
    try:
        write_text_atomically(path, game.dumps(indent=1))
    except OSError as error:
        say(console, f"Could not save to {path}: {error.strerror or error}", style="red")
        return
    say(console, f"Saved to {path}; go on with: avanti play --resume {path}")


def play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Run an interactive game; 0 when it ends or the player leaves."""
    if args.resume is not None:
        info, game = load(args.resume)
    else:
        info = game_info(args.game)
        names = info.player_names(seat_count(info, args.bots, args.players))
        game = info.new_game(names, seed=new_seed() if args.seed is None else args.seed)
    seats = len(game.setup.players)
    humans = parse_seats(args.human, seats)
    kinds = bot_kinds(args.bots, seats)
    bots = {
        seat: make_bot(kinds[seat], info, game.setup, seat, iterations=args.iterations)
        for seat in range(seats)
        if seat not in humans
    }
    console = make_console(out)
    table = _Table(info, game, humans, bots)
    who = ", ".join(
        f"{name} ({'you' if seat in humans else kinds[seat]})"
        for seat, name in enumerate(game.setup.players)
    )
    say(console, f"{info.title}: {who}", style="bold")
    say(console, HELP, style="dim")
    # The bots draw from a stream of their own: a secret one unless --seed asks for a game to be
    # played again, so no choice of a bot tells a person anything of the game's seed.
    stream = Rng(new_seed() if args.seed is None else args.seed, 1 << 32).stream()
    while not table.game.is_over:
        seat = table.game.waiting[0]
        mine = tuple(table.game.legal_commands(seat))
        if seat in humans:
            command = _human_turn(table, seat, console, inp)
            if command is None:
                return 0
        else:
            command = bots[seat].choose(table.game.view(seat), mine, stream)
        table.game = table.game.execute(command)
        if not humans:
            table.catch_up(console, None)
    watcher = min(humans) if humans else None
    if watcher is not None:
        table.catch_up(console, watcher)
    show(console, [seat_table(info, table.game, watcher)])
    say(console, "The game is over.", style="bold")
    return 0
