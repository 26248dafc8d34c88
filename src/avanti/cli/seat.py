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
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

from attrs import frozen
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from avanti.catalog import GameInfo
from avanti.cli.console import make_console
from avanti.cli.render import drawing_for
from avanti.core.errors import IllegalCommand
from avanti.core.terminal import NumberChoice

__all__ = [
    "Field",
    "Told",
    "answer",
    "choices",
    "ending",
    "legend",
    "menu",
    "news",
    "numbered",
    "opens",
    "parts_of",
    "replay_text",
    "show",
    "span",
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


def legend(info: GameInfo, game: Any) -> list[Text]:
    """The key to the table's abbreviations, one line each, as the game's drawing gives it
    (Avanti's ``P200``, its ``who`` row and its dream island, A5); none for a game without."""
    return [Text(line, style="dim") for line in drawing_for(info).legend(game.setup)]


def span(values: Sequence[int]) -> str:
    """The numbers of a :class:`Field` in a few characters: ``"0-33"``, ``"0-20000, in
    1000s"`` (every 1000th number from 0 to 20000), ``"1-3, 7, 9-12"`` where some are missing."""
    ordered = sorted(set(values))
    step = math.gcd(*(b - a for a, b in itertools.pairwise(ordered))) or 1
    runs: list[list[int]] = []
    for value in ordered:
        if runs and value == runs[-1][-1] + step:
            runs[-1].append(value)
        else:
            runs.append([value])
    parts = [f"{run[0]}" if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]
    return ", ".join(parts) + (f", in {step}s" if step != 1 else "")


@frozen
class Field:
    """A seat's legal commands that differ only in the number chosen (the road space of
    Avanti's event marker, A7; an Autorama bid, F4), listed as one line with the legal range
    and picked by typing a number of it.

    ``word`` and ``name`` are those of the game's :class:`~avanti.core.terminal.NumberChoice`;
    ``values[i]`` is the number typed for ``commands[i]``, ascending.
    """

    word: str
    name: str
    words: str
    values: tuple[int, ...]
    commands: tuple[Any, ...]

    @property
    def form(self) -> str:
        """The line's command with a placeholder for its number: ``"bid <amount>"``."""
        return f"{self.word} <{self.name}>"

    @property
    def span(self) -> str:
        """The legal numbers in a few characters (:func:`span`): ``"0-20000, in 1000s"``."""
        return span(self.values)

    @property
    def example(self) -> int:
        """A legal number to show in the line's help: the middle one."""
        return self.values[len(self.values) // 2]

    @classmethod
    def of(cls, places: Sequence[tuple[NumberChoice, Any]]) -> Field:
        """The field of commands placed by the game's drawing (all of one form)."""
        ordered = sorted(places, key=lambda place: place[0].value)
        first = ordered[0][0]
        return cls(
            first.word,
            first.name,
            first.words,
            tuple(choice.value for choice, _ in ordered),
            tuple(command for _, command in ordered),
        )


def menu(info: GameInfo, game: Any, seat: int) -> list[tuple[int | None, Any]]:
    """``seat``'s menu: each legal command, or a :class:`Field` in place of commands that
    differ only in a number (two or more of one form), with the number that picks it.

    Where the game numbers every command itself (road spaces, A4), a command keeps its own
    number and a field has none (its numbers are typed as they are); otherwise the lines are
    numbered by place, from 1."""
    drawing = drawing_for(info)
    mine = tuple(game.legal_commands(seat))
    places = [drawing.field(command) for command in mine]
    forms: dict[str, list[tuple[NumberChoice, Any]]] = {}
    for place, command in zip(places, mine, strict=True):
        if place is not None:
            forms.setdefault(place.form, []).append((place, command))
    entries: list[Any] = []
    for place, command in zip(places, mine, strict=True):
        group = forms.get(place.form, []) if place is not None else []
        if len(group) < 2 or len({choice.value for choice, _ in group}) < len(group):
            entries.append(command)
        elif group[0][1] is command:
            entries.append(Field.of(group))
    if _own_numbers(info, mine):
        return [
            (None, entry) if isinstance(entry, Field) else (drawing.number(entry), entry)
            for entry in entries
        ]
    return list(enumerate(entries, start=1))


def _own_numbers(info: GameInfo, commands: Sequence[Any]) -> bool:
    """Whether the game numbers every one of ``commands`` itself (road spaces, A4)."""
    number = drawing_for(info).number
    return bool(commands) and all(number(command) is not None for command in commands)


def choices(info: GameInfo, game: Any, seat: int) -> list[Text]:
    """The prompt of ``seat``: who is to move, then its menu (:func:`menu`): each legal command
    with its notation and what it does in words (with its price, where it has one: A22), and
    each :class:`Field` as one line with the legal range (``marker <space> (0-33)``).

    A command the game numbers itself is listed under its own number (a road space is typed as
    the board prints it, A4); the others by their place in the list, from 1."""
    drawing = drawing_for(info)
    setup = game.setup
    view = game.view(seat)
    also = drawing.player(setup, seat)
    who = f"{setup.players[seat]} (seat {seat}{', ' + also if also else ''})"
    lines = [Text(f"{who}, your move:", style="bold")]
    for number, entry in menu(info, game, seat):
        mark = "" if number is None else f"{number}. "
        if isinstance(entry, Field):
            typed = (
                f"type the {entry.name}, such as {entry.example}"
                if number is None
                else f"{number}, then the {entry.name}, or '{entry.word} {entry.example}'"
            )
            words = f"{entry.words}: {typed}" if entry.words else typed
            lines.append(Text(f"  {mark}{entry.form} ({entry.span})  ({words})"))
            continue
        words = drawing.explain(setup, entry, view)
        label = f"  ({words})" if words else ""
        lines.append(Text(f"  {mark}{game.notation(entry)}{label}"))
    return lines


def numbered(info: GameInfo, game: Any, seat: int) -> list[tuple[int, Any]]:
    """``seat``'s legal commands with the number that picks each: the game's own number for
    every command when it has one for all of them (road spaces, A4), else 1, 2, 3, ...

    This is the list before :func:`menu` gathers numbers into fields: what a number picks
    where the game numbers its commands itself."""
    mine = tuple(game.legal_commands(seat))
    own = [drawing_for(info).number(command) for command in mine]
    if mine and all(number is not None for number in own):
        return [
            (number, command)
            for number, command in zip(own, mine, strict=True)
            if number is not None
        ]
    return list(enumerate(mine, start=1))


def opens(info: GameInfo, game: Any, seat: int, line: str) -> Field | None:
    """The :class:`Field` a line typed at ``seat``'s prompt opens, so the number is asked for
    next: the field's number in the menu, or its word alone (``"bid"``); else ``None``."""
    words = line.strip().lower()
    for number, entry in menu(info, game, seat):
        if isinstance(entry, Field) and (
            words == entry.word.lower() or (number is not None and words == str(number))
        ):
            return entry
    return None


def turn(info: GameInfo, game: Any, seat: int, after: int = 0) -> list[RenderableType]:
    """What ``seat`` is shown when asked for a command: the events since version ``after``, the
    table as it sees it with its key, and its choices."""
    return [
        *news(info, game, seat, after),
        table(info, game, seat),
        *legend(info, game),
        *choices(info, game, seat),
    ]


SHOWN_DIGITS = 8
"""How many digits of a number not on the list are repeated back."""


def answer(game: Any, seat: int, line: str, info: GameInfo | None = None) -> tuple[Any | None, str]:
    """What a line typed at ``seat``'s prompt picks: ``(command, "")``, or ``(None, why not)``.

    A number picks from the numbered list of :func:`choices` (given the game's ``info``, by the
    numbers that list shows, road spaces included; without it, by place from 1); the number of
    a :class:`Field` alone picks nothing (:func:`opens` says which field it opens), and the
    answer names the numbers it takes. Other text is read as notation among ``seat``'s own
    legal commands (``"bid 5000"``), so the refusal names only what ``seat`` may do.
    """
    if info is None:
        picks: list[tuple[int, Any]] = list(enumerate(game.legal_commands(seat), start=1))
    elif _own_numbers(info, tuple(game.legal_commands(seat))):
        picks = numbered(info, game, seat)
    else:
        picks = [(number, entry) for number, entry in menu(info, game, seat) if number is not None]
    words = line.strip()
    if words.isascii() and words.isdigit():  # not int() of any length, nor of "²" (no number)
        digits = words.lstrip("0") or "0"
        if len(digits) <= SHOWN_DIGITS:
            picked = [entry for number, entry in picks if number == int(digits)]
            if picked and isinstance(picked[0], Field):
                field = picked[0]
                return None, (
                    f"{words} is {field.form}: type the {field.name} too, "
                    f"such as '{field.word} {field.example}' ({field.span})"
                )
            if picked:
                return picked[0], ""
        shown = words if len(words) <= SHOWN_DIGITS else f"{words[:SHOWN_DIGITS]}..."
        if not picks:
            return None, f"{shown} is not on the list: seat {seat} has no command to choose now."
        low, high = min(number for number, _ in picks), max(number for number, _ in picks)
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
