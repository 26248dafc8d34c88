"""The game aggregate and the module-level entry points shared by every game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from typing_extensions import override

from avanti import core
from avanti.autorama.commands import Command
from avanti.autorama.events import Event
from avanti.autorama.rules import RULES, AutoramaRules
from avanti.autorama.scoring import Outcome
from avanti.autorama.setup import Options, Scenario, Setup
from avanti.autorama.state import GameState
from avanti.autorama.views import View

__all__ = ["Game", "dumps", "execute", "loads", "new_game", "replay"]


class Game(core.Game[Setup, GameState, Command, Event, View, Outcome]):
    """A game of For Sale: Autorama (F1-F20): its setup, its event log and its state.

    Make one with :func:`new_game`, :func:`replay` or :func:`loads`.
    """

    __slots__ = ()

    @classmethod
    @override
    def rules(cls) -> AutoramaRules:
        """The For Sale: Autorama ruleset."""
        return RULES


def new_game(
    players: Sequence[str],
    seed: int = 0,
    *,
    first: int = 0,
    options: Options = Options(),  # noqa: B008  Options is frozen, so sharing it is safe
    scenario: Scenario | None = None,
) -> Game:
    """Start a game for 3-6 players (F1), ``first`` starting the first round (F3).

    With a ``scenario`` the game starts from that built position instead of shuffled decks.

    :raises InvalidSetup: the setup breaks F1-F3 or the scenario does not fit together.
    """
    return Game.new(Setup(tuple(players), seed, first, options, scenario))


def replay(setup: Setup, events: Iterable[Event], *, verify: bool = True) -> Game:
    """Rebuild a game from its setup and log, checking the log against the rules (F1-F20).

    :raises CorruptLog: the log does not fit the setup (the index of the first bad event).
    """
    return Game.replay(setup, events, verify=verify)


def dumps(game: Game, *, indent: int | None = None) -> str:
    """The game as a JSON document (format ``"autorama"``, version 1).

    The document holds the setup and the whole log, hidden facts included (F1): it is for
    storage, not for players.
    """
    return game.dumps(indent=indent)


def loads(text: str | bytes) -> Game:
    """Read a game written by :func:`dumps`, checking its log against the rules (F1-F20).

    :raises DecodeError: the document is malformed. :raises CorruptLog: the log does not fit.
    """
    return Game.loads(text)


def execute(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """The functional form of a checked command: ``(new_state, events)`` (F4-F18).

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged.
    """
    return core.execute(RULES, state, command)
