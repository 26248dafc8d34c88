"""The Avanti :class:`Game` and the module-level entry points every ruleset offers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from typing_extensions import override

from avanti import core
from avanti.avanti.board import DEFAULT_BOARD, Board
from avanti.avanti.commands import Command
from avanti.avanti.deck import DEFAULT_DECK, Deck
from avanti.avanti.events import Event
from avanti.avanti.options import RuleOptions
from avanti.avanti.rules import RULES, AvantiRules, Outcome
from avanti.avanti.scenario import Scenario
from avanti.avanti.setup import Setup
from avanti.avanti.state import GameState
from avanti.avanti.views import View

__all__ = ["Game", "dumps", "execute", "loads", "new_game", "replay"]


class Game(core.Game[Setup, GameState, Command, Event, View, Outcome]):
    """A game of Avanti: its setup, its event log and its state (see :class:`avanti.core.Game`).

    Every method returns a new game; ``execute`` raises :class:`avanti.IllegalCommand` for a
    command that breaks a rule and leaves this game as it was.
    """

    __slots__ = ()

    @classmethod
    @override
    def rules(cls) -> AvantiRules:
        """The Avanti ruleset."""
        return RULES


def new_game(
    players: Sequence[str],
    seed: int = 0,
    *,
    starting_seat: int = 0,
    board: Board = DEFAULT_BOARD,
    deck: Deck = DEFAULT_DECK,
    options: RuleOptions | None = None,
    start_space: int | None = None,
    scenario: Scenario | None = None,
) -> Game:
    """Start a game of Avanti for 3 to 5 named players (A1), shuffled from ``seed`` (A29).

    The other arguments are the fields of :class:`Setup`.

    :raises InvalidSetup: the setup breaks a rule (the message names it).
    """
    setup = Setup(
        tuple(players),
        seed,
        starting_seat,
        board,
        deck,
        options if options is not None else RuleOptions(),
        start_space,
        scenario,
    )
    return Game.new(setup)


def replay(setup: Setup, events: Iterable[Event], *, verify: bool = True) -> Game:
    """Rebuild a game from its setup and log, checking the log unless ``verify=False``.

    :raises CorruptLog: the log does not follow from the setup (``index`` says where).
    """
    return Game.replay(setup, events, verify=verify)


def dumps(game: Game, *, indent: int | None = None) -> str:
    """The game as a versioned JSON document (format ``"avanti"``)."""
    return game.dumps(indent=indent)


def loads(text: str | bytes) -> Game:
    """Read a game written by :func:`dumps`, checking its log against the rules.

    :raises DecodeError: the document is malformed (every bad field is listed).
    :raises CorruptLog: the log does not follow from its setup.
    """
    return Game.loads(text)


def execute(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Functional form: the state after ``command`` and the events it caused.

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged (it is a value).
    """
    return core.execute(RULES, state, command)
