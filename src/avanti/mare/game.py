"""Avanti mare! on the core: its codec, its :class:`~avanti.core.Ruleset` record, the ``Game``
aggregate and the module-level entry points shared by every game (``new_game``, ``replay``,
``dumps``, ``loads``, ``decide``, ``execute``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from avanti import core
from avanti.core.limits import new_seed
from avanti.mare import rules, views
from avanti.mare.commands import COMMANDS, Command
from avanti.mare.events import EVENTS, Event
from avanti.mare.notation import notations
from avanti.mare.scenario import Scenario
from avanti.mare.setup import MAX_PLAYERS, Options, PublicSetup, Setup, Side, public_setup
from avanti.mare.state import GameState, Outcome
from avanti.mare.svg import picture
from avanti.mare.views import View

__all__ = ["CODEC", "RULES", "Game", "decide", "dumps", "execute", "loads", "new_game", "replay"]

_T = TypeVar("_T")


def _owed_before_version_2(document: dict[str, core.JSONValue]) -> dict[str, core.JSONValue]:
    """A version 1 document as version 2: its game was played with the move of M6 owed.

    Version 2 added :attr:`Options.free_fish_move_owed`, whose default (``False``: the move may be
    declined) is not the reading a version 1 game was played under. So the option is written in
    as ``True``: the game loads as it was played, and if it goes on, it goes on under its own
    reading (a setup without options, every option at its default, gets this one option). A
    setup or options that are not JSON objects are left for the strict reader to report.
    """
    setup = document.get("setup")
    options = setup.get("options", {}) if isinstance(setup, dict) else None
    if not isinstance(setup, dict) or not isinstance(options, dict):
        return {**document, "version": 2}
    owed = {"free_fish_move_owed": True, **options}
    return {**document, "version": 2, "setup": {**setup, "options": owed}}


CODEC: core.Codec[Setup, Command, Event] = core.Codec(
    format="mare",
    formats=("avanti.mare",),
    version=2,
    setup_type=Setup,
    commands=COMMANDS,
    events=EVENTS,
    upcasters={1: _owed_before_version_2},
)
"""Reads and writes Avanti mare! setups, commands, events and game documents (format version 2).

Version 2 added ``free_fish_move_owed`` to the options and the ``SkipMove`` command with its
``MoveDeclined`` event; a version 1 document is read with ``free_fish_move_owed`` true, the
reading its game was played under.
"""


DEFAULT_OPTIONS = Options()
"""The rulebook's reading of every option (M9)."""


RULES: core.Ruleset[Setup, GameState, Command, Event, View, Outcome] = core.Ruleset(
    codec=CODEC,
    rule="M2",
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    fold=rules.fold,
    legal_commands=rules.legal_commands,
    waiting=rules.waiting,
    view=views.view,
    redact=views.redact,
    outcome=rules.outcome,
    cause=rules.cause,
    notations=notations,
    public=public_setup,
    setup_rule="M2",
)
"""The rules of Avanti mare! (M1-M9) as one record, bound to :class:`Game`."""


class Game(core.Game[Setup, GameState, Command, Event, View, Outcome], rules=RULES):
    """A game of Avanti mare!: its setup, its event log and its state. Every method returns a new
    game; see :class:`avanti.core.Game` for ``execute``, ``undo``, ``view`` and the rest."""

    __slots__ = ()

    @property
    def public_setup(self) -> PublicSetup:
        """The setup as every seat may know it: players, sides, first seat and options, never the
        seed (M3). Send a front end this, never :attr:`~avanti.core.game.Game.setup`."""
        return public_setup(self.setup)

    def _repr_svg_(self) -> str:
        """The table as a spectator sees it, as an SVG picture for notebooks: the players'
        names and the last command drawn (:func:`avanti.mare.svg.picture`)."""
        return str(picture(self.view(None), table=self.public_setup, last=self.last_events()))


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state`` (functional form), its form checked first.

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged (it is a value).
    """
    return RULES.decide(state, command)


def default_sides(players: int) -> tuple[Side, ...]:
    """Sides taken in turn around the table, fish friends first (a default only; M2)."""
    return tuple(
        Side.FISH_FRIENDS if seat % 2 == 0 else Side.FISHER_FANS for seat in range(players)
    )


def new_game(
    players: Sequence[str],
    seed: int | None = None,
    *,
    sides: Sequence[Side | str] | None = None,
    first: int = 0,
    options: Options = DEFAULT_OPTIONS,
    scenario: Scenario | None = None,
) -> Game:
    """Start a game for ``players`` (names, clockwise), with ``first`` rolling first (M2).

    ``seed`` seeds the die (M3). It is the server's secret: whoever knows it can foresee every
    roll, so left out it is drawn afresh by :func:`avanti.core.limits.new_seed`; pass one only to
    replay or test a known game, and show players :attr:`Game.public_setup`, never the setup.
    ``sides`` (each a :class:`Side` or its name, ``"fish-friends"`` or ``"fisher-fans"``) is the
    side each player backs (M2); it defaults to fish friends and fisher fans in turn, starting
    with seat 0. ``scenario`` starts from a built position (:class:`Scenario`) instead of every
    fish on the middle piece.

    :raises InvalidSetup: the setup breaks M2 (1-6 players with good, different names, one side
        each, a valid first seat), M3 (an int seed within ``MAX_SEED``) or M9 (the options); the
        message names the rule; a scenario breaks M1, M5 or M8.
    """
    names = _tuple(players, "players must be a sequence of names")
    if sides is not None:
        named = _tuple(sides, "sides must be a sequence of Side values")
        chosen = tuple(_side(side) for side in named)
    elif len(names) <= MAX_PLAYERS:
        chosen = default_sides(len(names))
    else:
        chosen = ()  # the count of players is refused first (M2): build nothing for them
    secret = new_seed() if seed is None else seed
    return Game.new(Setup(names, chosen, first, secret, options, scenario))


def _side(side: object) -> Any:
    """A side given by its name (``"fisher-fans"``) as its :class:`Side`; anything else as it
    is, for the setup's check to refuse with M2."""
    if type(side) is str and side in _SIDE_NAMES:
        return Side(side)
    return side


_SIDE_NAMES = frozenset(side.value for side in Side)


def _tuple(items: Iterable[_T], what: str) -> tuple[_T, ...]:
    """``items`` as a tuple for a setup, or :class:`InvalidSetup` naming M2 if it is one text
    (whose letters would become players) or no sequence at all."""
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise core.InvalidSetup(f"{what}, not {type(items).__name__}", rule="M2")
    return tuple(items)


def replay(setup: Setup, events: Iterable[Event], *, verify: bool = True) -> Game:
    """Rebuild a game from its setup and log, checking every event against the rules.

    ``verify=False`` only folds the events, for logs you wrote yourself and trust.

    :raises CorruptLog: an event does not follow from the rules (its index is in the error).
    """
    return Game.replay(setup, events, verify=verify)


def dumps(game: Game, *, indent: int | None = None) -> str:
    """The game as a JSON document (format ``mare``, version 2)."""
    return game.dumps(indent=indent)


def loads(text: str | bytes) -> Game:
    """Read a game written by :func:`dumps`, replaying and checking its log.

    :raises DecodeError: the document is malformed; each bad field is named by its JSON path.
    :raises CorruptLog: the log does not fit its setup.
    """
    return Game.loads(text)


def execute(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Functional form: the state after ``command`` and the events it caused, in one pass.

    :raises IllegalCommand: the command breaks a rule; ``state`` is unchanged (it is a value).
    """
    return RULES.execute(state, command)
