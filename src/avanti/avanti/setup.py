"""The parameters of a new game: :class:`Setup`, checked by :func:`start`."""

from __future__ import annotations

import math
from collections.abc import Iterable

from attrs import field, frozen

from avanti.avanti.board import DEFAULT_BOARD, Board
from avanti.avanti.deck import DEFAULT_DECK, Deck
from avanti.avanti.events import Event, EventMarkerPlaced, RunStarted
from avanti.avanti.evolve import Log
from avanti.avanti.options import RuleOptions
from avanti.avanti.positions import clockwise
from avanti.avanti.runend import HAND_SIZE, deal
from avanti.avanti.scenario import STARTING_CASH, Scenario, scenario_state
from avanti.avanti.state import GameState, Phase, table_for
from avanti.core import InvalidSetup, Rng

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "Setup", "start"]

MIN_PLAYERS = 3
"""Avanti takes 3 to 5 players (A1)."""
MAX_PLAYERS = 5
"""Avanti takes 3 to 5 players (A1)."""


def _names(players: Iterable[str]) -> tuple[str, ...]:
    return tuple(players)


@frozen
class Setup:
    """Everything a game starts from; with the event log it determines the whole game.

    ``players`` are the names, seat 0 first, clockwise (A1); they must differ, compared
    exactly (``"Ann"`` and ``"ann"`` are two players: names are shown as given, not folded).
    ``seed`` seeds every shuffle (A29). ``starting_seat`` starts the first run (A7).
    ``start_space``, when given, is the first run's event marker space, so the starting player
    skips ``PlaceEventMarker`` (A7). ``scenario`` starts from a mid-game position instead of a
    fresh deal (then ``start_space`` must be ``None``: the scenario places the marker).
    """

    players: tuple[str, ...] = field(converter=_names)
    seed: int = 0
    starting_seat: int = 0
    board: Board = DEFAULT_BOARD
    deck: Deck = DEFAULT_DECK
    options: RuleOptions = field(factory=RuleOptions)
    start_space: int | None = None
    scenario: Scenario | None = None


def _check(setup: Setup) -> None:
    n = len(setup.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidSetup(f"Avanti takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}", "A1")
    if any(not isinstance(name, str) or not name for name in setup.players):
        raise InvalidSetup("every player needs a name (a non-empty string)", "A1")
    if len(set(setup.players)) != n:
        raise InvalidSetup(f"player names must differ, got {list(setup.players)}", "A1")
    if type(setup.seed) is not int:
        raise InvalidSetup(f"the seed must be a whole number, not {setup.seed!r}", "A29")
    if type(setup.starting_seat) is not int or not 0 <= setup.starting_seat < n:
        raise InvalidSetup(f"the starting seat must be 0..{n - 1}", "A7")
    for name, value, kind in (
        ("board", setup.board, Board),
        ("deck", setup.deck, Deck),
        ("options", setup.options, RuleOptions),
    ):
        if not isinstance(value, kind):
            raise InvalidSetup(f"{name} must be a {kind.__name__}, not {value!r}", "A4")
    if setup.scenario is not None and not isinstance(setup.scenario, Scenario):
        raise InvalidSetup(f"scenario must be a Scenario, not {setup.scenario!r}", "A7")
    length = setup.board.track_length
    space = setup.start_space
    if space is not None and (type(space) is not int or not 0 <= space < length):
        raise InvalidSetup(f"the start space must be a road space 0..{length - 1}", "A7")
    if space is not None and setup.scenario is not None:
        raise InvalidSetup("a scenario places the event marker itself; omit start_space", "A7")
    if len(setup.deck.cards) < HAND_SIZE * n:
        message = f"{n} players need at least {HAND_SIZE * n} cards to deal {HAND_SIZE} each"
        raise InvalidSetup(message, "A6")
    _check_leapfrog_ends(setup.board, setup.deck, n)


def _check_leapfrog_ends(board: Board, deck: Deck, players: int) -> None:
    """Every move must end (A11): hops of ``k`` visit ``L / gcd(k, L)`` road spaces in a cycle.

    A driving car hops on while its landing space is taken. If such a cycle had fewer spaces
    than there are cars, the other cars could fill every one of them and the car would hop for
    ever; so each number on a card must reach at least as many spaces as there are players.
    """
    length = board.track_length
    for number in sorted({k for card in deck.cards for k in card.numbers}):
        reach = length // math.gcd(number, length)
        if reach < players:
            raise InvalidSetup(
                f"on a road of {length} spaces a move of {number} reaches only {reach} spaces, "
                f"fewer than the {players} cars: leapfrogging could never end",
                "A11",
            )


def start(setup: Setup) -> tuple[GameState, tuple[Event, ...]]:
    """The state before anything happened and the opening events (A6, A7).

    The opening shuffles and deals three cards to each player; with ``start_space`` it also
    places the event marker. From a scenario there are no opening events.

    :raises InvalidSetup: the setup breaks a rule (the message names it).
    """
    _check(setup)
    n = len(setup.players)
    table = table_for(n, setup.board, setup.deck, setup.options)
    if setup.scenario is not None:
        return scenario_state(setup.scenario, table, setup.starting_seat, setup.seed), ()
    state = GameState(
        table=table,
        phase=Phase.MARKER,
        run=0,
        round=1,
        starting_seat=setup.starting_seat,
        marker=0,
        distances=(0,) * n,
        cash=(STARTING_CASH,) * n,
        island=(0,) * n,
        hands=((),) * n,
        draw=(),
        discard=(),
        laid=(None,) * n,
        quit=(False,) * n,
        order=(),
        turn=0,
        ranking=clockwise(setup.starting_seat, n),
        invested=(False,) * n,
        winner=None,
        rng=Rng(setup.seed),
    )
    log = Log(state)
    log.add(RunStarted(1, setup.starting_seat))
    deal(log)
    if setup.start_space is not None:
        log.add(EventMarkerPlaced(None, setup.start_space))
    return state, tuple(log.events)
