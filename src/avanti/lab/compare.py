"""Play a :class:`~avanti.lab.case.Case` under both of its readings and set the answers side by
side: :func:`compare`.

Each reading is a :class:`Trial`: the position the library built (or the refusal, in words,
naming the rule by its id), and after each command the picture and the events in words.
A :class:`Comparison` holds the two trials and the :class:`Difference` of each step, and shows
itself in a notebook as the two pictures and the two event lists side by side. Every game is
reached through the catalog, so a case of any catalog game runs the same way.
"""

from __future__ import annotations

import json
from typing import Any

from attrs import frozen

from avanti.catalog import game_info
from avanti.core.errors import DecodeError, IllegalCommand, InvalidArgument, InvalidSetup
from avanti.core.presentation import Presentation
from avanti.core.svg import Svg
from avanti.lab.case import Case, Reading, _thawed
from avanti.lab.outcomes import played_seed

__all__ = [
    "Comparison",
    "Difference",
    "Step",
    "Trial",
    "compare",
    "document",
    "play",
    "position",
    "seat_and_text",
    "start",
]


@frozen
class Step:
    """One command played under one reading: its text, the events it caused in words, and the
    picture of the table after it. Step 0 of a trial is the position itself (``command`` is
    empty, ``lines`` too)."""

    command: str
    lines: tuple[str, ...]
    picture: Svg


@frozen
class Trial:
    """One reading played out: the steps it got through, then, if the library refused the
    position or a command, the refusal in words (led by the rule's id) and the index of the
    command refused (``None`` for the position itself)."""

    reading: Reading
    steps: tuple[Step, ...]
    refusal: str | None = None
    refused_at: int | None = None

    @property
    def lines(self) -> tuple[str, ...]:
        """Every event line of the trial, in order."""
        return tuple(line for step in self.steps for line in step.lines)


@frozen
class Difference:
    """Where the two readings part at one step: the lines only the first reading has, the lines
    only the second has, and whether the pictures after the step differ."""

    step: int
    first: tuple[str, ...]
    second: tuple[str, ...]
    pictures_differ: bool


@frozen
class Comparison:
    """A case played under both of its readings: the two :class:`Trial` values and the
    :class:`Difference` of every step where they part, and the seed both were played with
    (the case's own, or the one found for its outcomes: :func:`avanti.lab.played_seed`;
    ``None`` when its outcomes could not be had). A notebook shows it as the two pictures and
    event lists side by side (its ``_repr_html_``)."""

    case: Case
    trials: tuple[Trial, Trial]
    differences: tuple[Difference, ...]
    seed: int | None = None

    @property
    def same_events(self) -> bool:
        """Whether both readings give the same events in words and the same refusals (their
        pictures may still differ, as when a picture shows the reading's options)."""
        first, second = self.trials
        return first.lines == second.lines and (first.refusal, first.refused_at) == (
            second.refusal,
            second.refused_at,
        )

    @property
    def same(self) -> bool:
        """Whether both readings give the same events, pictures and refusals."""
        first, second = self.trials
        return not self.differences and first.refusal == second.refusal

    def _repr_html_(self) -> str:
        from avanti.lab.html import comparison_html  # here: html.py imports this module

        return comparison_html(self)


def position(case: Case, reading: Reading) -> str:
    """The case's position under ``reading`` as a game document without events: a fresh game's
    setup with the case's setup fields and the reading's options put in. Nothing is checked
    here but the names of the fields; :func:`start` checks the rest.

    :raises DecodeError: a field of the position or the options is not one of the game's.
    :raises UnknownGame: no game of the catalog has the case's name.
    :raises InvalidSetup: the players do not fit the game (how many, their names), or no seed
        gives the case's outcomes.
    """
    info = game_info(case.game)
    fresh = info.new_game(list(case.players), seed=played_seed(case))
    data = json.loads(info.load().dumps(fresh))
    data["events"] = []
    setup = data["setup"]
    for key, value in case.setup.items():
        if key not in setup or key in ("options", "players", "seed"):
            raise DecodeError((f"{key[:40]!r} is no setup field a case may set @ $.setup",))
        setup[key] = _thawed(value)
    options = setup["options"]
    for key, value in reading.options.items():
        if key not in options:
            raise DecodeError((f"{key[:40]!r} is no option of {info.title} @ $.options",))
        options[key] = _thawed(value)
    return json.dumps(data, separators=(",", ":"))


def start(case: Case, reading: Reading) -> Any:
    """The game the case's position and ``reading`` start, checked by the library like any
    setup: the position (``position(case, reading)``) read by the game's codec and started by
    its ``Game``.

    :raises InvalidSetup: the position breaks a rule (the message names it).
    :raises DecodeError: a field of the position or the options is unknown or of the wrong form.
    :raises UnknownGame: no game of the catalog has the case's name.
    """
    module = game_info(case.game).load()
    setup, _ = module.CODEC.loads(position(case, reading))
    return module.Game.new(setup)


def document(case: Case, reading: Reading) -> str:
    """The game document of the started position under ``reading`` (its opening events
    included), as the game's ``dumps`` writes it and its ``loads`` reads it back.

    :raises InvalidSetup: the position breaks a rule (the message names it).
    :raises DecodeError: a field of the position or the options is unknown or of the wrong form.
    """
    text: str = game_info(case.game).load().dumps(start(case, reading))
    return text


def seat_and_text(command: str) -> tuple[int | None, str]:
    """A case's command split into the seat that leads it (``"1: bid 3"``), or ``None``, and
    its notation."""
    head, colon, rest = command.partition(":")
    if colon and head.strip().isdigit():
        return int(head.strip()), rest.strip()
    return None, command.strip()


def _narrate(shown: Presentation, game: Any, after: int, marker: int | None) -> tuple[str, ...]:
    """The events of ``game`` from ``after`` on, in words, for nobody in particular: the lab
    shows every hidden fact. A game whose lines name places counted from a marker (its
    presentation's ``marker``) is told where the marker stood in the position."""
    return shown.tell(game.events, game.setup, after=after, marker=marker)


def _picture(shown: Presentation, game: Any, seen_by: int | None) -> Svg:
    view = game.view(seen_by)
    return Svg(shown.picture(view, table=game.public_setup, last=game.last_events()))


def _seer(case: Case, seen_by: int | None) -> int | None:
    if seen_by is not None and not 0 <= seen_by < len(case.players):
        raise InvalidArgument(f"seen_by must be a seat 0..{len(case.players) - 1} or None")
    return seen_by


def play(case: Case, reading: Reading, *, seen_by: int | None = None) -> Trial:
    """Play the case's commands under one reading, stopping at the first refusal. The pictures
    are drawn as ``seen_by`` sees the table: a seat (its own hand face up) or ``None`` (the
    spectator). The events in words always tell every hidden fact.

    :raises InvalidArgument: ``seen_by`` is no seat of the case.
    """
    shown = game_info(case.game).load_presentation()
    seen_by = _seer(case, seen_by)
    try:
        game = start(case, reading)
    except (InvalidSetup, DecodeError) as error:
        return Trial(reading, (), str(error), None)
    steps = [Step("", (), _picture(shown, game, seen_by))]
    marker = None if shown.marker is None else shown.marker(game.view(None))
    for index, command in enumerate(case.commands):
        seat, text = seat_and_text(command)
        before = game.version
        try:
            game = game.execute(game.parse_notation(text, seat))
        except IllegalCommand as error:  # also for a seat that is not at the table
            return Trial(reading, tuple(steps), str(error), index)
        lines = _narrate(shown, game, before, marker)
        steps.append(Step(command, lines, _picture(shown, game, seen_by)))
    return Trial(reading, tuple(steps))


def _only(lines: tuple[str, ...], others: tuple[str, ...]) -> tuple[str, ...]:
    rest = list(others)
    kept = []
    for line in lines:
        if line in rest:
            rest.remove(line)
        else:
            kept.append(line)
    return tuple(kept)


def compare(case: Case, *, seen_by: int | None = None) -> Comparison:
    """Play ``case`` under both of its readings and find where they part; the pictures are
    drawn as ``seen_by`` sees the table (a seat, or ``None`` for the spectator: see
    :func:`play`).

    :raises InvalidArgument: ``seen_by`` is no seat of the case.

    >>> from avanti.catalog import DEFAULT_GAME, game_info
    >>> from avanti.lab import Case, Reading, compare
    >>> players = game_info(DEFAULT_GAME).default_players
    >>> compare(Case(DEFAULT_GAME, players, (Reading("book"), Reading("book")))).same
    True
    """
    first, second = (play(case, reading, seen_by=seen_by) for reading in case.readings)
    try:
        seed: int | None = played_seed(case)
    except (InvalidSetup, DecodeError):
        seed = None
    differences = []
    for index in range(max(len(first.steps), len(second.steps))):
        one = first.steps[index] if index < len(first.steps) else None
        two = second.steps[index] if index < len(second.steps) else None
        lines_one = one.lines if one else ()
        lines_two = two.lines if two else ()
        pictures_differ = (one.picture if one else None) != (two.picture if two else None)
        only_one, only_two = _only(lines_one, lines_two), _only(lines_two, lines_one)
        if only_one or only_two or pictures_differ:
            differences.append(Difference(index, only_one, only_two, pictures_differ))
    return Comparison(case, (first, second), tuple(differences), seed)
