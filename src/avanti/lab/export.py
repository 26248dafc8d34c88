"""A :class:`~avanti.lab.case.Case` written out as a pytest test: :func:`pytest_text`.

The test reads as the check-a-rule tutorial writes one: it starts the game from the case's
position under each reading (the game document the library reads), plays the commands in the
game's notation, and asserts the events in words that the lab showed, or the refusal. It imports
only the game's own package, so it keeps holding as a check on the library.
"""

from __future__ import annotations

import re

from avanti.catalog import game_info
from avanti.lab.case import Case
from avanti.lab.compare import Trial, document, play, position, seat_and_text

__all__ = ["pytest_text"]


def _name(text: str, fallback: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    name = "_".join(words)[:60].strip("_")
    return name or fallback


def _test(case: Case, trial: Trial, index: int, taken: set[str]) -> str:
    reading = trial.reading
    name = f"test_{_name(case.question, 'lab_case')}_{_name(reading.name, f'reading_{index}')}"
    while name in taken:
        name += f"_{index}"
    taken.add(name)
    start = f"READINGS[{index}]"
    if trial.refusal is not None and trial.refused_at is None:
        return (
            f"def {name}() -> None:\n"
            f"    with pytest.raises((InvalidSetup, DecodeError)) as refused:\n"
            f"        Game.new(CODEC.loads({start})[0])\n"
            f"    assert str(refused.value) == {trial.refusal!r}\n"
        )
    lines = "".join(f"        {line!r},\n" for line in trial.lines)
    body = f"    assert play({start}, COMMANDS[:{len(trial.steps) - 1}]) == (\n{lines}    )\n"
    if trial.refusal is not None:
        body += (
            f"    with pytest.raises(IllegalCommand) as refused:\n"
            f"        play({start}, COMMANDS[: {len(trial.steps)}])\n"
            f"    assert str(refused.value) == {trial.refusal!r}\n"
        )
    return f"def {name}() -> None:\n{body}"


def pytest_text(case: Case) -> str:
    """A pytest module that checks what ``case`` shows: one test per reading, asserting each
    event line (or the refusal, with its rule id) the lab showed under it.

    :raises DecodeError: the case names a setup field or option its game does not have.
    :raises UnknownGame: no game of the catalog has the case's name.
    """
    module = game_info(case.game).package
    trials = [play(case, reading) for reading in case.readings]
    texts = [
        (position if t.refusal and t.refused_at is None else document)(case, t.reading)
        for t in trials
    ]
    documents = "".join(f"    {text!r},\n" for text in texts)
    commands = "".join(f"    {seat_and_text(c)!r},\n" for c in case.commands)
    marker = game_info(case.game).load_presentation().marker is not None
    told = ", marker=start.view(None).marker" if marker else ""
    taken: set[str] = set()
    tests = "\n\n".join(_test(case, trial, i, taken) for i, trial in enumerate(trials))
    return f'''"""A rules question of the rules lab, kept as a test: one test per reading."""

from __future__ import annotations

import pytest

from avanti.core import DecodeError, IllegalCommand, InvalidSetup
from {module} import CODEC, Game, loads, narrate

QUESTION = {case.question!r}
NAMES = {tuple(r.name for r in case.readings)!r}
"""The two readings compared, by name."""
READINGS = (
{documents})
"""The game document of the position under each reading (the library checks it on loading)."""
COMMANDS: tuple[tuple[int | None, str], ...] = (
{commands})
"""The commands, each with the seat that gives it (or None), in the game's notation."""


def play(document: str, commands: tuple[tuple[int | None, str], ...]) -> tuple[str, ...]:
    """The events the commands cause from the position, in words."""
    game = start = loads(document)
    for seat, text in commands:
        game = game.execute(game.parse_notation(text, seat))
    return narrate(game.events, game.setup, after=start.version{told})


{tests}'''
