"""The parameters of a new game: :class:`Setup`, checked by :func:`start`, and
:class:`PublicSetup`, the part of it every seat may know.

Every size and amount a setup holds has an upper bound, checked before anything is built or
remembered from it, so that the largest setup the library accepts still plays at normal speed and
fits a saved game well inside the core's document limits (:mod:`avanti.core.limits`):
:data:`MAX_TRACK_LENGTH`, :data:`MAX_ISLAND_LENGTH`, :data:`MAX_DECK_SIZE`, :data:`MAX_AMOUNT`
and :data:`MAX_SEED_BITS` here, and a scenario's :data:`MAX_CASH`, :data:`MAX_RUN` and
:data:`MAX_ROUND`. Each is several times what the default board, deck and game use.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from attrs import field, frozen

from avanti.avanti.board import DEFAULT_BOARD, Board
from avanti.avanti.deck import DEFAULT_DECK, Deck
from avanti.avanti.events import Event, EventMarkerPlaced, RunStarted
from avanti.avanti.evolve import Log
from avanti.avanti.options import RuleOptions
from avanti.avanti.positions import clockwise
from avanti.avanti.runend import HAND_SIZE, deal
from avanti.avanti.scenario import (
    MAX_CASH,
    MAX_ROUND,
    MAX_RUN,
    STARTING_CASH,
    PublicScenario,
    Scenario,
    check_scenario,
    public_scenario,
    scenario_state,
)
from avanti.avanti.state import GameState, Phase, table_for
from avanti.core import InvalidSetup, Rng
from avanti.core.limits import names_problem, new_seed

__all__ = [
    "MAX_AMOUNT",
    "MAX_CASH",
    "MAX_DECK_SIZE",
    "MAX_ISLAND_LENGTH",
    "MAX_PLAYERS",
    "MAX_ROUND",
    "MAX_RUN",
    "MAX_SEED_BITS",
    "MAX_TRACK_LENGTH",
    "MIN_PLAYERS",
    "PublicSetup",
    "Setup",
    "public_setup",
    "start",
]

MIN_PLAYERS = 3
"""Avanti takes 3 to 5 players (A1)."""
MAX_PLAYERS = 5
"""Avanti takes 3 to 5 players (A1)."""
MAX_TRACK_LENGTH = 100
"""The most road spaces a board may have (A4): about three times the default 34. Random games
with a board and deck of the largest sizes take about 2,000 events and 150 kB saved, a fifth of
:data:`avanti.core.limits.MAX_EVENTS` and a seventh of its document limit."""
MAX_ISLAND_LENGTH = 40
"""The most island spaces after the start space (A5): over three times the default 12."""
MAX_DECK_SIZE = 100
"""The most Power cards a deck may hold (A3): nearly four times the default 27."""
MAX_AMOUNT = 100_000
"""The largest toll, ATM amount (A4) or island price (A5) a board may print: twenty times the
default board's dearest price, 5,000."""
MAX_SEED_BITS = 128
"""The most bits a seed may have, sign aside (A29): ``-(2**128) < seed < 2**128``. The generator
mixes 128 bits of the seed; :func:`avanti.core.limits.new_seed` draws 64."""


def _names(players: Sequence[str]) -> tuple[str, ...]:
    """A list of names becomes a tuple, as a JSON array does; anything else is kept as it is,
    for the setup's form check to refuse."""
    result: Any = tuple(players) if isinstance(players, list) else players
    return result  # type: ignore[no-any-return]  # a tuple, or what the form check refuses


@frozen
class Setup:
    """Everything a game starts from; with the event log it determines the whole game.

    ``players`` are the names, seat 0 first, clockwise (A1): 1 to 40 printable characters each
    (:func:`avanti.core.limits.name_problem`), all different, compared exactly (``"Ann"`` and
    ``"ann"`` are two players: names are shown as given, not folded). ``seed`` seeds every
    shuffle (A29): it is the server's secret, since with it anyone can deal every hand and every
    shuffle to come; left out, an unguessable one is drawn (:func:`avanti.core.limits.new_seed`).
    ``starting_seat`` starts the first run (A7). ``start_space``, when given, is the first run's
    event marker space, so the starting player skips ``PlaceEventMarker`` (A7). ``scenario``
    starts from a mid-game position instead of a fresh deal (then ``start_space`` must be
    ``None``: the scenario places the marker). Show players :func:`public_setup`, never this.
    """

    players: tuple[str, ...] = field(converter=_names)
    seed: int = field(factory=new_seed)
    starting_seat: int = 0
    board: Board = DEFAULT_BOARD
    deck: Deck = DEFAULT_DECK
    options: RuleOptions = field(factory=RuleOptions)
    start_space: int | None = None
    scenario: Scenario | None = None


@frozen
class PublicSetup:
    """What every seat may know of a :class:`Setup`: everything but the seed and a scenario's
    hidden cards.

    Public: the players in their seats (A1), the starting player (A7), the board (A4, A5: the
    road and the island path are on the table), the deck's cards (A3: which cards exist, never
    their order), the rule options (A18, A21), the first start space when the setup names it (A7:
    the marker is placed in the open) and a scenario's public facts (:class:`PublicScenario`).
    Never the seed (A29: with it, every hand and shuffle can be dealt), a hand, a laid card or
    the order of the draw pile (A30).
    """

    players: tuple[str, ...]
    starting_seat: int
    board: Board
    deck: Deck
    options: RuleOptions
    start_space: int | None
    scenario: PublicScenario | None


def public_setup(setup: Setup) -> PublicSetup:
    """What every seat may know of ``setup`` (see :class:`PublicSetup`): what a front end needs
    to draw the table. ``setup`` must be one a game was started from (its checks passed)."""
    scenario = setup.scenario
    return PublicSetup(
        players=setup.players,
        starting_seat=setup.starting_seat,
        board=setup.board,
        deck=setup.deck,
        options=setup.options,
        start_space=setup.start_space,
        scenario=None
        if scenario is None
        else public_scenario(scenario, setup.deck, setup.starting_seat),
    )


def _check(setup: Setup) -> None:
    """Refuse a setup whose values break a rule or a bound, before anything is built from it.

    The form (every field of its declared type) has been checked by the core.
    """
    n = len(setup.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidSetup(f"Avanti takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}", "A1")
    problem = names_problem(setup.players)
    if problem is not None:
        raise InvalidSetup(problem, "A1")
    if setup.seed.bit_length() > MAX_SEED_BITS:
        message = f"the seed must have at most {MAX_SEED_BITS} bits, not {setup.seed.bit_length()}"
        raise InvalidSetup(message, "A29")
    if not 0 <= setup.starting_seat < n:
        raise InvalidSetup(f"the starting seat must be 0..{n - 1}", "A7")
    _check_bounds(setup.board, setup.deck)
    length = setup.board.track_length
    space = setup.start_space
    if space is not None and not 0 <= space < length:
        raise InvalidSetup(f"the start space must be a road space 0..{length - 1}", "A7")
    if space is not None and setup.scenario is not None:
        raise InvalidSetup("a scenario places the event marker itself; omit start_space", "A7")
    if len(setup.deck.cards) < HAND_SIZE * n:
        message = f"{n} players need at least {HAND_SIZE * n} cards to deal {HAND_SIZE} each"
        raise InvalidSetup(message, "A6")
    _check_leapfrog_ends(setup.board, setup.deck, n)
    if setup.scenario is not None:
        check_scenario(setup.scenario, n, setup.board, setup.deck, setup.starting_seat)


def _check_bounds(board: Board, deck: Deck) -> None:
    """The sizes first, then every amount: nothing larger than the bounds is looked at."""
    if board.track_length > MAX_TRACK_LENGTH:
        message = f"a road has at most {MAX_TRACK_LENGTH} spaces, not {board.track_length}"
        raise InvalidSetup(message, "A4")
    if board.island_length > MAX_ISLAND_LENGTH:
        message = (
            f"an island path has at most {MAX_ISLAND_LENGTH} spaces after the start, "
            f"not {board.island_length}"
        )
        raise InvalidSetup(message, "A5")
    if len(deck) > MAX_DECK_SIZE:
        raise InvalidSetup(f"a deck has at most {MAX_DECK_SIZE} cards, not {len(deck)}", "A3")
    for index, road in enumerate(board.track):
        if road.amount > MAX_AMOUNT:
            message = f"road space {index}'s amount is more than {MAX_AMOUNT:,} monetas"
            raise InvalidSetup(message, "A4")
    for index, price in enumerate(board.island):
        if price is not None and price > MAX_AMOUNT:
            message = f"island space {index}'s price is more than {MAX_AMOUNT:,} monetas"
            raise InvalidSetup(message, "A5")


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
    places the event marker. From a scenario there are no opening events. The whole setup is
    checked before its table is built (and remembered by ``table_for``), so a refused setup
    leaves nothing behind.

    :raises InvalidSetup: the setup breaks a rule or a bound (the message names the rule).
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
