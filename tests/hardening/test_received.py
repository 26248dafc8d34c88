"""Everything a seat can receive, compared between twins (issue 16).

For each game, at a few steps of a random game, a seat ``s`` (or a spectator) and a twin that
differs only in facts hidden from ``s`` (:attr:`GameSpec.twin`), ``s`` must receive the same:

1. view and event stream, as the JSON a front end gets;
2. the stream from a version on (``events_for(s, after=k)``);
3. the notation of each of its legal commands;
4. the answer to its own commands, legal or not: both refused with the same reason, rule and
   message, or both accepted and, when the command revealed nothing new to anyone (the same
   events in both full logs), the same view and stream afterwards;
5. what :meth:`~avanti.core.Game.parse_notation` makes of its notations and of junk;
6. the public setup;
7. the command line's output for it: ``avanti replay --seat``, the ``avanti play`` prompt (the
   events since it last looked, the table, the numbered commands) and the answers to what it
   types there (:mod:`avanti.cli.seat`).

A difference is a fact hidden from ``s`` reaching it. Items 3-5 and the prompt are for seats
only: a spectator has no commands, and unseated input is for trusted code.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avanti.catalog import GAMES, GameInfo
from avanti.cli import seat as cli
from avanti.core.errors import AvantiError
from tests.hardening.games import SPECS
from tests.hardening.spec import AnyGame, GameSpec, games, histories, numbers_in, seen_by

TOY_INFO = GameInfo(
    name="toy",
    title="Toy race",
    package="tests.toy",
    min_players=1,
    max_players=4,
    default_players=("Ann", "Bob"),
)
"""The toy race as the command line would know it (not registered: nothing else sees it)."""

EXAMPLES = max(5, settings().max_examples // 3)
"""Games per spec: 16 under the default profile, 1,666 under ``soak``."""

JUNK = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ["", " ", "0", "1", "2", "9", "99", "-1", "1.0", "²", "٣", "9" * 5000, "x" * 300]
    ),
    st.sampled_from(
        [
            "roll",
            "wait",
            "drive",
            "quit",
            "pass",
            "bid 0",
            "bid 3",
            "bid 3000",
            "invest 1",
            "play 1 for 1",
            "play 19 for 4",
            "marker 3",
            "move blue",
            "skip",
            "offer 12",
            "take back 3",
            "mechanic",
        ]
    ),
)
"""Text a person might type: noise, numbers of every size, and near misses of each game's
notation."""


def info_of(spec: GameSpec) -> GameInfo:
    """The catalog entry the command line knows the game by."""
    return TOY_INFO if spec.name == "toy" else GAMES[spec.name]


def refusal(error: Exception) -> tuple[Any, ...]:
    """Everything a refused caller reads from the error."""
    return (
        type(error).__name__,
        str(getattr(error, "reason", "")),
        getattr(error, "rule", ""),
        str(error),
    )


def parsed(game: AnyGame, text: str, seat: int) -> Any:
    """The command ``text`` names for ``seat``, or what the refusal says."""
    try:
        return game.parse_notation(text, seat)
    except AvantiError as error:
        return refusal(error)


def executed(game: AnyGame, command: Any) -> tuple[AnyGame | None, Any]:
    """The game after ``command``, or ``None`` and what the refusal says."""
    try:
        return game.execute(command), None
    except AvantiError as error:
        return None, refusal(error)


@st.composite
def probes(draw: st.DrawFn, spec: GameSpec, game: AnyGame, seat: int | None) -> dict[str, Any]:
    """What to ask of ``game`` and its twin for ``seat``: a version to stream from, commands of
    the seat, and text it might type."""
    after = draw(st.integers(0, game.version), label="after")
    if seat is None:
        return {"after": after, "commands": [], "texts": []}
    mine = list(game.legal_commands(seat))
    drawn = draw(st.lists(spec.commands(game), max_size=3), label="commands")
    commands = [attrs.evolve(command, seat=seat) for command in drawn]
    if mine:
        commands.append(draw(st.sampled_from(mine), label="legal command"))
    spellings = [s for c in mine for s in game.rules.notations(game.state, c)]
    texts = draw(st.lists(JUNK, max_size=3), label="junk")
    if spellings:
        texts += draw(st.lists(st.sampled_from(spellings), max_size=3), label="spellings")
    texts.append(str(len(mine) + 1))
    return {"after": after, "commands": commands, "texts": texts}


def received(
    spec: GameSpec, game: AnyGame, seat: int | None, probe: dict[str, Any]
) -> dict[str, Any]:
    """Everything ``seat`` receives from ``game`` for the questions of ``probe``, item by item
    (the numbers of the module's docstring)."""
    info = info_of(spec)
    after = probe["after"]
    codec = spec.codec
    got: dict[str, Any] = {
        "1. view and stream": seen_by(spec, game, seat),
        "2. stream after": [
            (position, json.loads(json.dumps(codec.event_to_data(event))))
            for position, event in game.events_for(seat, after=after)
        ],
        "7. replay --seat": cli.replay_text(info, game, seat),
        "7. table": cli.text([cli.table(info, game, seat)]),
    }
    if seat is not None:
        got["3. notation"] = [game.notation(c) for c in game.legal_commands(seat)]
        got["5. parse_notation"] = [parsed(game, text, seat) for text in probe["texts"]]
        got["7. play prompt"] = cli.text(cli.turn(info, game, seat, after=after))
        got["7. play answers"] = [cli.answer(game, seat, text) for text in probe["texts"]]
    return got


def assert_same_answers(
    spec: GameSpec, game: AnyGame, twin: AnyGame, seat: int, commands: list[Any]
) -> None:
    """Item 4: ``seat``'s own commands get the same answer from ``game`` and ``twin``."""
    for command in commands:
        after, refused = executed(game, command)
        twin_after, twin_refused = executed(twin, command)
        assert refused == twin_refused, ("4. answer", command)
        if after is None or twin_after is None:
            continue
        fresh = after.events[game.version :]
        if fresh == twin_after.events[twin.version :]:  # nothing new came out of hiding
            assert seen_by(spec, after, seat) == seen_by(spec, twin_after, seat), (
                "4. after",
                command,
            )


def check_twins(
    spec: GameSpec, game: AnyGame, seat: int | None, rng: random.Random, data: st.DataObject
) -> None:
    """Items 1-5 and 7 for ``game`` and a twin of it for ``seat``."""
    twin = spec.twin(game, seat, rng)
    probe = data.draw(probes(spec, game, seat), label="probe")
    mine = received(spec, game, seat, probe)
    theirs = received(spec, twin, seat, probe)
    assert mine.keys() == theirs.keys()
    for item, value in mine.items():
        assert value == theirs[item], f"{spec.name}, seat {seat}: {item} differs"
    if seat is not None:
        assert_same_answers(spec, game, twin, seat, probe["commands"])


@pytest.mark.parametrize("spec", SPECS, ids=str)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_a_seat_receives_the_same_from_its_twin(spec: GameSpec, data: st.DataObject) -> None:
    """Items 1-5 and 7, at the last step of a random game and at two steps on the way."""
    rng = data.draw(st.randoms(use_true_random=True), label="twin choices")
    history = data.draw(histories(spec, most=120), label="game")
    steps = {len(history) - 1, *data.draw(st.lists(st.integers(0, len(history) - 1), max_size=2))}
    for step in sorted(steps):
        game = history[step]
        seat = data.draw(st.one_of(st.none(), st.integers(0, spec.seats(game) - 1)), label="seat")
        check_twins(spec, game, seat, rng, data)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_a_seat_receives_the_same_public_setup_from_its_twin(
    spec: GameSpec, data: st.DataObject
) -> None:
    """Item 6: the public setup is the same for twins and holds no seed."""
    if getattr(spec.game.rules, "public", None) is None:
        pytest.skip(f"{spec.name} has no public_setup yet")
    rng = data.draw(st.randoms(use_true_random=True), label="twin choices")
    game = data.draw(games(spec, st.integers(2**40, 2**63)), label="game")
    seat = data.draw(st.one_of(st.none(), st.integers(0, spec.seats(game) - 1)), label="seat")
    public = game.public_setup
    assert spec.twin(game, seat, rng).public_setup == public
    data_ = json.loads(json.dumps(spec.codec.unstructure(public)))
    assert game.setup.seed not in numbers_in(data_)
    assert str(game.setup.seed) not in repr(public)
