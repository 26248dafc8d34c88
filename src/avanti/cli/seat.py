"""What one seat sees on the command line, as pure functions of a game and a seat.

Every per-seat output of ``avanti play`` (the events since a seat last looked, the table, the
numbered list of its commands, the answer to what it types) and of ``avanti replay --seat`` is
built here from a :class:`~avanti.core.Game` and a seat (``None`` for a spectator): from
:meth:`~avanti.core.Game.events_for`, :meth:`~avanti.core.Game.view` and the notation of the
seat's own legal commands, never from the state, the seed or the whole log (A30, F3, M3). The
command line prints these parts; :func:`text` renders them to the plain text it would print, so
a test can compare what a seat is shown in two games that differ only in facts hidden from it.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from attrs import frozen
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from avanti.catalog import GameInfo
from avanti.cli.console import make_console
from avanti.cli.render import drawing_for
from avanti.core.errors import IllegalCommand

__all__ = [
    "Told",
    "answer",
    "choices",
    "ending",
    "news",
    "numbered",
    "parts_of",
    "replay_text",
    "show",
    "table",
    "text",
    "title",
    "told",
    "turn",
]


def show(console: Console, parts: Iterable[RenderableType]) -> None:
    """Print parts to ``console``: each :class:`~rich.text.Text` as one line as it is (long lines
    are not broken), anything else (a table, a rule) as rich lays it out."""
    for part in parts:
        if isinstance(part, Text):
            console.print(part, soft_wrap=True)
        else:
            console.print(part)


def text(parts: Iterable[RenderableType]) -> str:
    """The plain text ``parts`` print as on a console that is not a terminal (fixed width, no
    colours): what a pipe or a file receives."""
    out = io.StringIO()
    show(make_console(out), parts)
    return out.getvalue()


def news(info: GameInfo, game: Any, seat: int | None, after: int = 0) -> list[Text]:
    """The events from version ``after`` on, one line each, as ``seat`` may see them and
    spoken to ``seat`` ("You draw card 7."); the earlier events give the lines their context
    (the road spaces of Avanti's cars, A4)."""
    seen = game.events_for(seat, after=0)
    new = sum(1 for one in seen if one.position < after)
    events = [one.event for one in seen]
    return [Text(line) for line in info.narrate(events, game.setup, seat=seat, after=new)]


def table(info: GameInfo, game: Any, seat: int | None) -> RenderableType:
    """The table drawn from ``seat``'s view."""
    drawn: RenderableType = drawing_for(info).draw(game.setup, game.view(seat))
    return drawn


def choices(info: GameInfo, game: Any, seat: int) -> list[Text]:
    """The prompt of ``seat``: who is to move, then its legal commands by number, each with its
    notation and what it does in words (with its price, where it has one: A22).

    A command the game numbers itself is listed under its own number (a road space is typed as
    the board prints it, A4); the others by their place in the list, from 1."""
    drawing = drawing_for(info)
    setup = game.setup
    view = game.view(seat)
    also = drawing.player(setup, seat)
    who = f"{setup.players[seat]} (seat {seat}{', ' + also if also else ''})"
    lines = [Text(f"{who}, your move:", style="bold")]
    for number, command in numbered(info, game, seat):
        words = drawing.explain(setup, command, view)
        label = f"  ({words})" if words else ""
        lines.append(Text(f"  {number}. {game.notation(command)}{label}"))
    return lines


def numbered(info: GameInfo, game: Any, seat: int) -> list[tuple[int, Any]]:
    """``seat``'s legal commands with the number that picks each: the game's own number for
    every command when it has one for all of them (road spaces, A4), else 1, 2, 3, ..."""
    mine = tuple(game.legal_commands(seat))
    own = [drawing_for(info).number(command) for command in mine]
    if mine and all(number is not None for number in own):
        return [
            (number, command)
            for number, command in zip(own, mine, strict=True)
            if number is not None
        ]
    return list(enumerate(mine, start=1))


def turn(info: GameInfo, game: Any, seat: int, after: int = 0) -> list[RenderableType]:
    """What ``seat`` is shown when asked for a command: the events since version ``after``, the
    table as it sees it, and its choices."""
    return [*news(info, game, seat, after), table(info, game, seat), *choices(info, game, seat)]


SHOWN_DIGITS = 8
"""How many digits of a number not on the list are repeated back."""


def answer(game: Any, seat: int, line: str, info: GameInfo | None = None) -> tuple[Any | None, str]:
    """What a line typed at ``seat``'s prompt picks: ``(command, "")``, or ``(None, why not)``.

    A number picks from the numbered list of :func:`choices` (given the game's ``info``, by the
    numbers that list shows, road spaces included; without it, by place from 1); other text is
    read as notation among ``seat``'s own legal commands, so the refusal names only what
    ``seat`` may do.
    """
    if info is not None:
        menu = numbered(info, game, seat)
    else:
        menu = list(enumerate(game.legal_commands(seat), start=1))
    words = line.strip()
    if words.isascii() and words.isdigit():  # not int() of any length, nor of "²" (no number)
        digits = words.lstrip("0") or "0"
        if len(digits) <= SHOWN_DIGITS:
            picked = [command for number, command in menu if number == int(digits)]
            if picked:
                return picked[0], ""
        shown = words if len(words) <= SHOWN_DIGITS else f"{words[:SHOWN_DIGITS]}..."
        if not menu:
            return None, f"{shown} is not on the list: seat {seat} has no command to choose now."
        low, high = min(number for number, _ in menu), max(number for number, _ in menu)
        return None, f"{shown} is not on the list: choose {low} to {high}."
    try:
        return game.parse_notation(words, seat), ""
    except IllegalCommand as error:
        return None, error.message


@frozen
class Told:
    """One command of a replay as a seat saw it: its heading (``None`` for the opening events,
    which no command caused) and one line per event."""

    heading: str | None
    lines: tuple[str, ...]


def _chunks(game: Any) -> list[tuple[Any, str, tuple[Any, ...]]]:
    """The log split into (command, its notation, its events); the opening events come first,
    with ``None`` for a command. Each notation is written in the state before its command.

    Works from the game's setup and log alone, without checking the log (a game folded with
    ``verify=False`` is told as it stands)."""
    rules = game.rules
    chunks: list[tuple[Any, str, list[Any]]] = [(None, "", [])]
    state, _ = rules.start(game.setup)
    for event in game.events:
        command = rules.cause(event)
        if command is not None:
            chunks.append((command, rules.notations(state, command)[0], []))
        chunks[-1][2].append(event)
        state = rules.evolve(state, event)
    return [(command, words, tuple(events)) for command, words, events in chunks]


def told(info: GameInfo, game: Any, seat: int | None, *, whole: bool = False) -> list[Told]:
    """The game command by command as ``seat`` saw it (``None``: a spectator), or, with
    ``whole``, as it happened.

    A seat reads another seat's command only as far as its events show it: a command with an
    event hidden from the seat is headed by its player's name alone (a card laid face down is no
    "play 19 for 4" to the others, A30, F14), and a command none of whose events the seat sees is
    left out. Commands are numbered in the order the seat saw them.
    """
    redact = game.rules.redact
    names = game.setup.players
    setup = game.setup
    result: list[Told] = []
    told_so_far: list[Any] = []
    for command, words, events in _chunks(game):
        shown = list(events) if whole else [redact(event, seat) for event in events]
        before = len(told_so_far)
        told_so_far += [event for event in shown if event is not None]
        lines = info.narrate(told_so_far, setup, seat=None if whole else seat, after=before)
        if command is None:
            result.append(Told(None, lines))
            continue
        if not lines:
            continue
        hidden = any(seen != event for seen, event in zip(shown, events, strict=True))
        name = names[command.seat]
        result.append(Told(f"{len(result)}. {name}" + ("" if hidden else f": {words}"), lines))
    return result


def title(info: GameInfo, game: Any, commands: int) -> Text:
    """The first line of a replay: the game, its players and how many commands it tells."""
    players = ", ".join(game.setup.players)
    return Text(f"{info.title}: {players}; {commands} commands", style="bold")


def ending(info: GameInfo, game: Any, seat: int | None, *, whole: bool = False) -> Text:
    """The last line of a replay: how the game ended, as the last event ``seat`` saw says it, or
    that it is not over."""
    if not game.is_over:
        return Text("The game is not over yet.")
    events = game.events if whole else game.events_for(seat)
    reader = None if whole else seat
    return Text(info.narrate(events, game.setup, seat=reader, after=len(events) - 1)[0])


def parts_of(one: Told) -> list[RenderableType]:
    """What one told command prints: a rule with its heading, then its events."""
    heading: list[RenderableType] = [] if one.heading is None else [Rule(one.heading)]
    return [*heading, *(Text(line) for line in one.lines)]


def replay_text(info: GameInfo, game: Any, seat: int | None, *, whole: bool = False) -> str:
    """The whole of ``avanti replay`` for ``seat`` (``--seat``), or with ``whole`` for the
    file's owner, as plain text."""
    chunks = told(info, game, seat, whole=whole)
    parts: list[RenderableType] = [title(info, game, len(chunks) - 1)]
    for one in chunks:
        parts += parts_of(one)
    parts += [Text(), ending(info, game, seat, whole=whole)]
    return text(parts)
