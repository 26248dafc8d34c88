"""For Sale: Autorama on the core: its codec, its :class:`~avanti.core.Ruleset` record, the
``Game`` aggregate and the module-level entry points shared by every game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from avanti import core
from avanti.autorama import rules, views
from avanti.autorama.commands import COMMANDS, Command
from avanti.autorama.events import EVENTS, Event
from avanti.autorama.notation import notations
from avanti.autorama.scoring import Outcome
from avanti.autorama.setup import Options, PublicSetup, Scenario, Setup, public_setup
from avanti.autorama.state import GameState
from avanti.autorama.views import View
from avanti.core.limits import new_seed

__all__ = ["CODEC", "RULES", "Game", "decide", "dumps", "execute", "loads", "new_game", "replay"]

CODEC: core.Codec[Setup, Command, Event] = core.Codec(
    format="autorama",
    formats=("avanti.autorama",),
    version=1,
    setup_type=Setup,
    commands=COMMANDS,
    events=EVENTS,
)
"""JSON for this game's setups, commands, events, views and outcomes (format version 1)."""

RULES: core.Ruleset[Setup, GameState, Command, Event, View, Outcome] = core.Ruleset(
    codec=CODEC,
    rule="F1",
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
    notations=notations,
    public=public_setup,
    setup_rule="F1",
)
"""The rules of For Sale: Autorama (F1-F20) as one record, bound to :class:`Game`."""


class Game(core.Game[Setup, GameState, Command, Event, View, Outcome], rules=RULES):
    """A game of For Sale: Autorama (F1-F20): its setup, its event log and its state.

    Make one with :func:`new_game`, :func:`replay` or :func:`loads`.
    """

    __slots__ = ()

    @property
    def public_setup(self) -> PublicSetup:
        """The setup as every seat may know it (:class:`~avanti.autorama.PublicSetup`): names,
        start player, options and a scenario's public facts; never the seed (F1) nor anybody's
        cash or cards (F2, F8). Send a front end this, never
        :attr:`~avanti.core.game.Game.setup`."""
        return public_setup(self.setup)

    def _repr_svg_(self) -> str:
        """The table as a spectator sees it, with the last command's events outlined, for
        notebooks (:func:`avanti.autorama.svg.picture`)."""
        from avanti.autorama.svg import picture  # here: loaded only when drawn

        return picture(self.view(None), table=self.public_setup, last=self.last_events())


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state`` (functional form), its form checked first.

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged (it is a value).
    """
    return RULES.decide(state, command)


def new_game(
    players: Sequence[str],
    seed: int | None = None,
    *,
    first: int = 0,
    options: Options = Options(),  # noqa: B008  Options is frozen, so sharing it is safe
    scenario: Scenario | None = None,
) -> Game:
    """Start a game for 3-6 players (F1), ``first`` starting the first round (F3).

    ``seed`` deals every card (F1) and is the server's secret: left out, a fresh one nobody can
    guess is drawn with :func:`avanti.core.limits.new_seed`. Pass a seed only to deal a known
    game again (tests, examples, replays), and show players :attr:`Game.public_setup`, never
    ``game.setup``. With a ``scenario`` the game starts from that built position instead of
    shuffled decks.

    :raises InvalidSetup: the setup breaks F1-F3 or the scenario does not fit together; a seed,
        start player or option of the wrong type is refused the same way (rule F1).
    """
    chosen = new_seed() if seed is None else seed
    return Game.new(Setup(tuple(players), chosen, first, options, scenario))


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
    """Functional form: the state after ``command`` and the events it caused, in one pass.

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged (it is a value).
    """
    return RULES.execute(state, command)
