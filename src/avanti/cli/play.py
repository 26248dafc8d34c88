"""``avanti play``: people and bots at one table, in the terminal.

Human seats see only their own view and the events as their seat may see them, their own
deeds in the second person; the legal commands are listed by number with their notation (road
spaces under their own numbers, A4), and a number or the notation picks one. Commands that
differ only in a number (Avanti's event marker, A7; Autorama's bids, F4) are one line with the
legal range, and the number is typed: with the notation (``bid 5000``), or after the line's
number or word, at a prompt of its own (Enter alone goes back). A command that cannot be taken
back (Avanti's ``quit``, A14) is asked about first. ``save FILE`` writes the game to JSON at any
prompt (``avanti play --resume FILE`` goes on with it; ``--save FILE`` writes it after every
command and at the end), ``help`` lists the inputs, ``leave`` leaves, in every game, and at a
terminal first offers to save the game when it is not over. Bad input is refused with the
reason and asked again.
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
from avanti.cli.render import drawing_for
from avanti.cli.seat import Field, answer, news, opens, show, turn
from avanti.cli.seat import table as seat_table
from avanti.cli.watch import bot_kinds, load, seat_count
from avanti.core.errors import InvalidArgument, InvalidSetup
from avanti.core.limits import new_seed
from avanti.core.rng import Rng

__all__ = ["help_text", "parse_seats", "play"]

LEAVE = "leave"
"""The one word that leaves the game, in every game (end of input and Ctrl-C leave too)."""

NOT_LEAVING = frozenset({"exit", "quit", "q", "bye"})
"""Words a person may type to leave that are not ``leave``: where the game reads none of them
as a command, the answer names ``leave``."""

YES = frozenset({"yes", "y"})
"""Answers that confirm a command the terminal asks about."""


def help_text(info: GameInfo) -> str:
    """The help of ``avanti play`` for one game, with inputs of that game as examples."""
    examples = drawing_for(info).examples
    such = " or ".join(f"'{example}'" for example in examples[:2])
    like = f" (such as {such})" if such else ""
    return (
        f"Type the number of a command, or the command itself as listed{like}, to play it; "
        "'save FILE' writes the game to a JSON file; "
        f"'{LEAVE}' leaves (end of input and Ctrl-C do too)."
    )


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
    """One game at the terminal: the game so far, who is human, the bots, the file ``--save``
    names (if any), and the version of the log each watcher has been told up to."""

    def __init__(
        self,
        info: GameInfo,
        game: Any,
        humans: frozenset[int],
        bots: dict[int, Bot[Any, Any]],
        save: Path | None = None,
    ) -> None:
        self.info = info
        self.game = game
        self.humans = humans
        self.bots = bots
        self.save = save
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
    hint = help_text(table.info)
    show(console, turn(table.info, game, seat, after=table.told[seat]))
    table.told[seat] = game.version
    while True:
        line = _ask(console, inp, f"{name}> ")
        if line is None:
            say(console)
            say(console, "End of input: leaving the game.")
            return None
        text = line.strip()
        if text.lower() in {"help", "?", ""}:
            say(console, hint)
            continue
        if text.lower() == LEAVE:
            if table.save is None and _interactive(inp):
                _offer_to_save(console, inp, game)
            say(console, "Leaving the game.")
            return None
        if text.split(maxsplit=1)[0].lower() == "save":
            _save(console, game, text)
            continue
        field = opens(table.info, game, seat, text)
        if field is not None:
            ended, command = _fill(console, inp, table.info, game, seat, field)
            if ended:
                say(console)
                say(console, "End of input: leaving the game.")
                return None
            if command is None:
                say(console, "Not played; choose again.")
                continue
        else:
            command, why = answer(game, seat, text, table.info)
        if command is not None:
            question = drawing_for(table.info).confirm(game.setup, command)
            if not question:
                return command
            sure = _ask(console, inp, question)
            if sure is not None and sure.strip().lower() in YES:
                return command
            say(console, "Not played; choose again.")
            continue
        if text.isascii() and text.isdigit():
            say(console, why, style="red")
        elif text.lower() in NOT_LEAVING:
            say(console, f"{why}. To leave the game, type '{LEAVE}'.", style="red")
        else:
            say(console, f"{why}. {hint}", style="red")


def _fill(
    console: Console, inp: TextIO, info: GameInfo, game: Any, seat: int, field: Field
) -> tuple[bool, Any | None]:
    """Ask for the number of a :class:`~avanti.cli.seat.Field`, its legal range shown, until
    one is legal: ``(False, command)``; ``(False, None)`` for Enter alone (choose again);
    ``(True, None)`` at the end of input. What is typed reads as the field's notation
    (``5000`` as ``bid 5000``, ``5k`` too), and a refusal names the range again."""
    while True:
        line = _ask(console, inp, f"{field.form} ({field.span}; Enter alone goes back): ")
        if line is None:
            return True, None
        if not line.strip():
            return False, None
        command, _ = answer(game, seat, f"{field.word} {line.strip()}", info)
        if command is not None:
            return False, command
        say(
            console,
            f"{line.strip()} is not among the {field.name}s to choose: {field.span}.",
            style="red",
        )


def _offer_to_save(console: Console, inp: TextIO, game: Any) -> None:
    """Before leaving a game that is not over, ask for a file to save it to, until it is saved
    or the answer is Enter alone (or the end of input)."""
    while True:
        line = _ask(
            console,
            inp,
            "Save the game before leaving? Type a file name, or Enter to leave without saving: ",
        )
        if line is None:
            say(console)
            return
        if not line.strip() or _save(console, game, f"save {line.strip()}"):
            return


def _ask(console: Console, inp: TextIO, prompt: str) -> str | None:
    """Print ``prompt`` and read one line (``None`` at the end of input); piped input is echoed,
    so the account reads as a session would."""
    console.print(prompt, end="", markup=False, highlight=False)
    line = inp.readline()
    if line and not _interactive(inp):
        say(console, line.rstrip("\n"))
    return line or None


def _interactive(inp: TextIO) -> bool:
    return inp.isatty() if hasattr(inp, "isatty") else False


def _save(console: Console, game: Any, text: str) -> bool:
    """``save FILE``: write the game to FILE and say how to go on with it; whether it is saved."""
    parts = text.split(maxsplit=1)
    if len(parts) < 2:
        say(console, "Say where: save FILE", style="red")
        return False
    path = Path(parts[1])
    try:
        write_text_atomically(path, game.dumps(indent=1))
    except OSError as error:
        say(console, f"Could not save to {path}: {error.strerror or error}", style="red")
        return False
    say(console, f"Saved to {path}; go on with: avanti play --resume {path}")
    return True


def play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Run an interactive game; 0 when it ends or the player leaves."""
    if args.resume is not None:
        info, game = load(args.resume)
    else:
        info = game_info(args.game)
        names = info.player_names(seat_count(info, args.bots, args.players))
        seed = new_seed() if args.seed is None else args.seed
        sides = _sides(info, args.side, parse_seats(args.human, len(names)), len(names))
        game = info.new_game(names, seed=seed, sides=sides)
    seats = len(game.setup.players)
    humans = parse_seats(args.human, seats)
    kinds = bot_kinds(args.bots, seats)
    bots = {
        seat: make_bot(kinds[seat], info, game.setup, seat, iterations=args.iterations)
        for seat in range(seats)
        if seat not in humans
    }
    console = make_console(out)
    table = _Table(info, game, humans, bots, args.save)
    player = drawing_for(info).player
    who = ", ".join(
        f"{name} ({', '.join(filter(None, (role, player(game.setup, seat))))})"
        for seat, name in enumerate(game.setup.players)
        for role in ("you" if seat in humans else kinds[seat],)
    )
    say(console, f"{info.title}: {who}", style="bold")
    say(console, help_text(info), style="dim")
    # The bots draw from a stream of their own: a secret one unless --seed asks for a game to be
    # played again, so no choice of a bot tells a person anything of the game's seed.
    stream = Rng(new_seed() if args.seed is None else args.seed, 1 << 32).stream()
    while not table.game.is_over:
        seat = table.game.waiting[0]
        mine = tuple(table.game.legal_commands(seat))
        if seat in humans:
            command = _human_turn(table, seat, console, inp)
            if command is None:
                _keep(console, table.game, args.save)
                return 0
        else:
            command = bots[seat].choose(table.game.view(seat), mine, stream)
        table.game = table.game.execute(command)
        if args.save is not None:
            write_text_atomically(args.save, table.game.dumps(indent=1))
        if not humans:
            table.catch_up(console, None)
    watcher = min(humans) if humans else None
    if watcher is not None:
        table.catch_up(console, watcher)
    show(console, [seat_table(info, table.game, watcher)])
    say(console, "The game is over.", style="bold")
    _keep(console, table.game, args.save)
    if args.save is None and humans and _interactive(inp):
        line = _ask(console, inp, "Save the game? Type a file name, or Enter to finish: ")
        if line is not None and line.strip():
            _save(console, table.game, f"save {line.strip()}")
    return 0


def _keep(console: Console, game: Any, path: Path | None) -> None:
    """With ``--save FILE``: write the game once more and say where it is."""
    if path is None:
        return
    write_text_atomically(path, game.dumps(indent=1))
    again = "" if game.is_over else f"; go on with: avanti play --resume {path}"
    say(console, f"Saved to {path}{again}")


def _sides(
    info: GameInfo, side: str | None, humans: frozenset[int], seats: int
) -> list[str] | None:
    """Each seat's side when ``--side`` names the side of the people's seats (M2): the bots'
    seats take the sides in turn from seat 0, as a game does by default; ``None`` without it.

    :raises InvalidSetup: ``--side`` for a game without sides, or no side of the game.
    """
    if side is None:
        return None
    if not info.sides:
        raise InvalidSetup(f"--side: {info.title} has no sides to pick")
    if side not in info.sides:
        raise InvalidSetup(f"--side takes {' or '.join(info.sides)}, not {side!r}")
    return [side if seat in humans else info.sides[seat % len(info.sides)] for seat in range(seats)]
