"""Avanti on the core: its codec, its :class:`~avanti.core.Ruleset` record, the :class:`Game`
aggregate and the module-level entry points every game offers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from avanti import core
from avanti.avanti import rules, views
from avanti.avanti.board import DEFAULT_BOARD, Board
from avanti.avanti.commands import COMMANDS, Command
from avanti.avanti.deck import DEFAULT_DECK, Deck
from avanti.avanti.events import EVENTS, Event
from avanti.avanti.notation import notations
from avanti.avanti.options import RuleOptions
from avanti.avanti.rules import Outcome
from avanti.avanti.scenario import Scenario
from avanti.avanti.setup import PublicSetup, Setup, public_setup
from avanti.avanti.state import GameState
from avanti.avanti.views import View
from avanti.core.limits import new_seed

__all__ = ["CODEC", "RULES", "Game", "decide", "dumps", "execute", "loads", "new_game", "replay"]

CODEC: core.Codec[Setup, Command, Event] = core.Codec(
    format="avanti", version=1, setup_type=Setup, commands=COMMANDS, events=EVENTS
)
"""JSON for Avanti setups, commands, events and game documents (format ``"avanti"``, v1)."""

RULES: core.Ruleset[Setup, GameState, Command, Event, View, Outcome] = core.Ruleset(
    codec=CODEC,
    rule="A31",
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    fold=rules.fold,
    execute=rules.execute,
    legal_commands=rules.legal_commands,
    waiting=rules.waiting,
    view=views.view,
    redact=views.redact,
    outcome=rules.outcome,
    cause=rules.cause,
    gives_up=rules.gives_up,
    notations=notations,
    public=public_setup,
    setup_rule="A1",
)
"""The rules of Avanti (A1-A31) as one record, bound to :class:`Game`."""


class Game(core.Game[Setup, GameState, Command, Event, View, Outcome], rules=RULES):
    """A game of Avanti: its setup, its event log and its state (see :class:`avanti.core.Game`).

    Every method returns a new game; ``execute`` raises :class:`avanti.IllegalCommand` for a
    command that breaks a rule and leaves this game as it was.
    """

    __slots__ = ()

    @property
    def public_setup(self) -> PublicSetup:
        """The setup as every seat may know it (:class:`~avanti.PublicSetup`): no seed, no hidden
        card of a scenario. Send a front end this, never
        :attr:`~avanti.core.game.Game.setup`."""
        return public_setup(self.setup)

    def _repr_svg_(self) -> str:
        """The table as a spectator sees it, with the last command drawn, for notebooks (see
        :func:`avanti.avanti.svg.picture`)."""
        from avanti.avanti.svg import picture  # here: svg.py imports this module

        return str(picture(self.view(None), table=self.public_setup, last=self.last_events()))


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state`` (functional form), its form checked first.

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged (it is a value).
    """
    return RULES.decide(state, command)


def new_game(
    players: Sequence[str],
    seed: int | None = None,
    *,
    starting_seat: int = 0,
    board: Board = DEFAULT_BOARD,
    deck: Deck = DEFAULT_DECK,
    options: RuleOptions | None = None,
    start_space: int | None = None,
    scenario: Scenario | None = None,
) -> Game:
    """Start a game of Avanti for 3 to 5 named players (A1), shuffled from ``seed`` (A29).

    The seed is the server's secret: with it and the setup anyone can deal every hand and every
    shuffle to come. Left out (``None``), an unguessable one is drawn
    (:func:`avanti.core.limits.new_seed`); pass one only to replay a known game, in tests and
    examples. Show players :attr:`Game.public_setup`, never :attr:`~avanti.core.game.Game.setup`.
    The other arguments are the fields of :class:`Setup`.

    :raises InvalidSetup: the setup breaks a rule or a bound (the message names the rule).
    """
    setup = Setup(
        tuple(players),
        new_seed() if seed is None else seed,
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
    """Functional form: the state after ``command`` and the events it caused, in one pass.

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged (it is a value).
    """
    return RULES.execute(state, command)
