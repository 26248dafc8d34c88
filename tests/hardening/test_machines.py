"""A Hypothesis state machine per game: legal, illegal and ill-typed commands, stale versions and
undo, in any mix; after every step the game's invariants hold, the log replays to the same game
and the JSON document reads back as the same game.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from avanti import core
from tests.hardening.games import SPECS
from tests.hardening.spec import AnyGame, GameSpec, games, junk_commands


class GameMachine(RuleBasedStateMachine):
    """Drives one game of ``spec``; ``history`` holds the game after each executed command."""

    spec: GameSpec

    def __init__(self) -> None:
        super().__init__()
        self.history: list[AnyGame] = []
        self.commands: list[Any] = []

    @property
    def game(self) -> AnyGame:
        return self.history[-1]

    def push(self, command: Any, game: AnyGame) -> None:
        """Record ``game``, the game after ``command``, checking it against the slow path: the
        events ``decide`` gives, folded by one ``evolve`` per event (a ruleset's own ``execute``
        and ``fold`` must agree with them exactly)."""
        rules = self.spec.game.rules
        before = self.game
        events = rules.decide(before.state, command)
        assert game.events == before.events + events
        assert functools.reduce(rules.evolve, events, before.state) == game.state
        self.commands.append(command)
        self.history.append(game)

    def rejects(self, command: Any, expected_version: int | None = None) -> core.AvantiError:
        """Execute a command that must fail; check the failure changed nothing, and return it."""
        game = self.game
        before = copy.deepcopy(game)
        with pytest.raises((core.IllegalCommand, core.VersionConflict)) as refused:
            game.execute(command, expected_version=expected_version)
        assert str(refused.value), "every refusal says why"
        if expected_version is None:  # the slow path refuses it too
            with pytest.raises(core.IllegalCommand):
                self.spec.game.rules.decide(game.state, command)
        assert game == before
        assert game.state == before.state
        return refused.value

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self.history = [data.draw(games(self.spec), label="new game")]

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal(self, data: st.DataObject) -> None:
        game = self.game
        command = data.draw(st.sampled_from(game.legal_commands()), label="legal")
        after = game.execute(command, expected_version=game.version)
        assert after.version > game.version
        assert after.events[: game.version] == game.events, "a command only appends to the log"
        self.push(command, after)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_run(self, data: st.DataObject) -> None:
        """Several legal commands in a row, so that games get deep and reach their end."""
        for _ in range(data.draw(st.integers(1, 40), label="run length")):
            legal = self.game.legal_commands()
            if not legal:
                return
            command = legal[data.draw(st.integers(0, len(legal) - 1))]
            self.push(command, self.game.execute(command))

    @rule(data=st.data())
    def any_command(self, data: st.DataObject) -> None:
        """A well-typed command is accepted exactly when ``legal_commands`` lists it."""
        command = data.draw(self.spec.commands(self.game), label="command")
        if command in self.game.legal_commands():
            self.push(command, self.game.execute(command))
        else:
            error = self.rejects(command)
            assert isinstance(error, core.IllegalCommand)

    def accepts_like(self, command: Any, listed: Any) -> None:
        """``command`` equals the listed ``listed`` (``True == 1``, ``2.0 == 2``): it is refused,
        or it does exactly what ``listed`` does, down to the JSON of the log."""
        try:
            after = self.game.execute(command)
        except core.IllegalCommand:
            return
        expected = self.game.execute(listed)
        assert after.dumps() == expected.dumps(), f"{command!r} is logged unlike {listed!r}"
        assert self.spec.game.loads(after.dumps()) == after

    @rule(data=st.data())
    def junk(self, data: st.DataObject) -> None:
        """Fields of any type, or something that is no command: refused with ``IllegalCommand``."""
        command = data.draw(junk_commands(self.spec), label="junk")
        for listed in self.game.legal_commands():
            if listed == command:
                self.accepts_like(command, listed)
                return
        error = self.rejects(command)
        assert isinstance(error, core.IllegalCommand)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def lookalike(self, data: st.DataObject) -> None:
        """A listed command with a field of equal value but another type (``1.0``, ``True``)."""
        listed = data.draw(st.sampled_from(self.game.legal_commands()), label="legal")
        fields = [f.name for f in attrs.fields(type(listed))]
        name = data.draw(st.sampled_from(fields), label="field")
        value = getattr(listed, name)
        if type(value) is bool:
            other: Any = int(value)
        elif type(value) is int:
            other = data.draw(st.sampled_from([float(value), *([bool(value)] * (value in (0, 1)))]))
        elif type(value) is tuple:
            other = list(value)
        else:
            other = str(value)
        self.accepts_like(attrs.evolve(listed, **{name: other}), listed)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def wrong_seat(self, data: st.DataObject) -> None:
        """A listed command moved to another seat is refused unless that seat may issue it too."""
        game = self.game
        command = data.draw(st.sampled_from(game.legal_commands()), label="legal")
        seat = data.draw(
            st.integers(-2, self.spec.seats(game) + 1).filter(lambda s: s != command.seat)
        )
        moved = attrs.evolve(command, seat=seat)
        if moved not in game.legal_commands():
            error = self.rejects(moved)
            assert isinstance(error, core.IllegalCommand)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def stale(self, data: st.DataObject) -> None:
        """A listed command with a stale ``expected_version`` raises ``VersionConflict``."""
        game = self.game
        command = data.draw(st.sampled_from(game.legal_commands()), label="legal")
        version = data.draw(st.integers(-1, game.version + 2).filter(lambda v: v != game.version))
        error = self.rejects(command, expected_version=version)
        assert isinstance(error, core.VersionConflict)
        assert (error.expected, error.actual) == (version, game.version)

    @rule()
    def undo(self) -> None:
        """Undo steps back one command; doing the command again gives the same game (no re-draw)."""
        game = self.game
        if len(self.history) == 1:
            with pytest.raises(core.IllegalCommand) as refused:
                game.undo()
            assert refused.value.reason is core.CoreReason.NOTHING_TO_UNDO
            return
        before = game.undo()
        assert before == self.history[-2]
        assert before.execute(self.commands[-1]) == game
        self.history.pop()
        self.commands.pop()

    @invariant()
    def holds(self) -> None:
        game = self.game
        self.spec.invariants(game)
        legal = game.legal_commands()
        assert game.is_over == (not legal), "a game goes on exactly while some command is legal"
        assert len(set(legal)) == len(legal), "no command is listed twice"
        for command in legal:
            assert game.is_legal(command), f"{command!r} is listed but refused"
        by_seat = [game.legal_commands(seat) for seat in range(self.spec.seats(game))]
        assert sorted(map(repr, legal)) == sorted(repr(c) for mine in by_seat for c in mine)
        seats = tuple(sorted({command.seat for command in legal}))
        assert game.waiting == seats, "the seats waited for are exactly those with a command"

    @invariant()
    def replays(self) -> None:
        game = self.game
        kind = self.spec.game
        assert kind.replay(game.setup, game.events) == game
        rules = kind.rules
        start, _ = rules.start(game.setup)
        assert functools.reduce(rules.evolve, game.events, start) == game.state
        assert kind.loads(game.dumps()) == game
        assert kind.loads(game.dumps(indent=2)) == game


run: Callable[..., None] = run_state_machine_as_test
"""Hypothesis's runner (typed here: some of its releases leave it unannotated)."""


def machine_for(spec: GameSpec) -> type[GameMachine]:
    return type(f"{spec.name.title()}Machine", (GameMachine,), {"spec": spec})


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_state_machine(spec: GameSpec) -> None:
    run(machine_for(spec), settings=settings())
