"""Start a game from a mid-game position: a :class:`Scenario`, checked like a setup.

A scenario is part of :class:`~avanti.avanti.setup.Setup`, so a game started from one replays,
saves and loads like any other. Tests and examples use it to set up the rulebook's illustrations.
:func:`check_scenario` checks one against the board, the deck and the table size before anything
is built from it; :func:`scenario_state` then builds the state it describes.
:func:`public_scenario` is what every seat may know of one (A30).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from attrs import field, frozen

from avanti.avanti.board import Board
from avanti.avanti.deck import HIGHEST_NUMBER, Deck
from avanti.avanti.positions import clockwise, turn_order
from avanti.avanti.runend import HAND_SIZE
from avanti.avanti.state import GameState, Laid, Phase, Table
from avanti.core import InvalidSetup, Rng

__all__ = [
    "MAX_CASH",
    "MAX_ROUND",
    "MAX_RUN",
    "STARTING_CASH",
    "PublicScenario",
    "Scenario",
    "check_scenario",
    "public_scenario",
    "scenario_state",
]

STARTING_CASH = 5000
"""Each player's cash at the start of the game (A2)."""
MAX_CASH = 10_000_000
"""The most monetas a seat may hold in a scenario (A2): 2,000 times the starting cash. The bank
never runs out (A2), so this bounds the numbers a scenario may start from, not the game."""
MAX_RUN = 1_000
"""The highest run number a scenario may start in (A8); a game on the largest board takes a few
dozen runs."""
MAX_ROUND = 1_000
"""The highest round number a scenario may start in (A8); a run on the longest road takes about
a hundred rounds."""


# Converters: a list given in Python makes the same (hashable, comparable) scenario as the tuple
# read back from JSON. Anything else is kept as it is, for the setup's form check to refuse
# (``avanti.core`` checks every field's exact type before the rules see the setup).
def _tuple(values: Any) -> Any:
    return tuple(values) if isinstance(values, list) else values


def _ints(values: Sequence[int]) -> tuple[int, ...]:
    return _tuple(values)  # type: ignore[no-any-return]  # a tuple, or left for the form check


def _maybe_ints(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return _tuple(values)  # type: ignore[no-any-return]  # a tuple, or left for the form check


def _maybe_flags(values: Sequence[bool] | None) -> tuple[bool, ...] | None:
    return _tuple(values)  # type: ignore[no-any-return]  # a tuple, or left for the form check


def _hands(hands: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    if isinstance(hands, list | tuple):
        return tuple(map(_tuple, hands))
    return hands  # type: ignore[return-value]  # left for the form check to refuse


def _laid(laid: Sequence[Sequence[int] | None] | None) -> tuple[Laid | None, ...] | None:
    if isinstance(laid, list | tuple):
        return tuple(map(_tuple, laid))
    return laid  # type: ignore[return-value]  # None, or left for the form check to refuse


@frozen
class Scenario:
    """A position in the middle of a game, to start from instead of a fresh deal.

    Per seat: ``distances`` (how far each car has driven this run, A12), ``hands`` (card ids),
    ``cash`` (default 5,000 each, A2), ``island`` (figure spaces, default 0), ``laid`` (the
    ``(card, number)`` laid this round, or ``None``), ``quit`` (left this run, A14) and
    ``invested`` (in the investing step, A22). ``marker`` is the event marker's road space;
    ``draw`` the draw pile, top first (default: every card not placed elsewhere, by id);
    ``discard`` the discard pile, top last. ``phase`` is planning, driving or investing; in the
    driving step ``to_act`` lists the seats still to act this round, first to act first (default:
    the A10 order of every seat with a laid card). ``run`` and ``round`` count from 1;
    ``ranking`` is the previous run's final ranking (ties, A12), or in the investing step the
    ranking of the run just ended (A25, A26); by default clockwise from the starting player.
    The run's starting player is the setup's ``starting_seat``.

    Lists given for any of the sequences become tuples, as JSON arrays do.
    :func:`avanti.new_game` checks the scenario and raises
    :class:`~avanti.core.errors.InvalidSetup` naming what is wrong: a card duplicated or missing,
    two cars on one road space other than the start, negative cash, a hand over three cards, a
    number not on its card, a seat that is not at the table, a value beyond its bound
    (``MAX_CASH``, ``MAX_RUN``, ``MAX_ROUND``), and so on.
    """

    marker: int
    distances: tuple[int, ...] = field(converter=_ints)
    hands: tuple[tuple[int, ...], ...] = field(converter=_hands)
    cash: tuple[int, ...] | None = field(default=None, converter=_maybe_ints)
    island: tuple[int, ...] | None = field(default=None, converter=_maybe_ints)
    draw: tuple[int, ...] | None = field(default=None, converter=_maybe_ints)
    discard: tuple[int, ...] = field(default=(), converter=_ints)
    laid: tuple[Laid | None, ...] | None = field(default=None, converter=_laid)
    quit: tuple[bool, ...] | None = field(default=None, converter=_maybe_flags)
    phase: Phase = Phase.PLANNING
    to_act: tuple[int, ...] | None = field(default=None, converter=_maybe_ints)
    invested: tuple[bool, ...] | None = field(default=None, converter=_maybe_flags)
    run: int = 1
    round: int = 1
    ranking: tuple[int, ...] | None = field(default=None, converter=_maybe_ints)


@frozen
class PublicScenario:
    """What every seat may know of a :class:`Scenario` (A30): what :func:`avanti.view` shows.

    Public: the event marker (A7, A25), every car's distance (A12), cash (A30: cash is public in
    the physical game), island figures (A5), who has quit (A14), how many cards each hand holds
    and who has laid a card (A8: "has played", never which card or number), the size of the draw
    pile and the discard pile, face up (A13), the step, the driving order (A10), who has invested
    (A22), the run and round, and the last ranking (A12, A25). Never a hand's cards, a laid card
    or its number, or the order of the draw pile (A30).
    """

    marker: int
    distances: tuple[int, ...]
    cash: tuple[int, ...]
    island: tuple[int, ...]
    quit: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    has_laid: tuple[bool, ...]
    draw_size: int
    discard: tuple[int, ...]
    phase: Phase
    to_act: tuple[int, ...] | None
    invested: tuple[bool, ...]
    run: int
    round: int
    ranking: tuple[int, ...]


def public_scenario(scenario: Scenario, deck: Deck, starting_seat: int) -> PublicScenario:
    """What every seat may know of ``scenario`` (A30), its defaults filled in.

    ``deck`` and ``starting_seat`` are the setup's: they give the size of a default draw pile and
    the default ranking. The scenario must have been checked (:func:`check_scenario`).
    """
    n = len(scenario.distances)
    laid = scenario.laid if scenario.laid is not None else (None,) * n
    placed = sum(map(len, scenario.hands)) + len(scenario.discard)
    placed += sum(entry is not None for entry in laid)
    return PublicScenario(
        marker=scenario.marker,
        distances=scenario.distances,
        cash=scenario.cash if scenario.cash is not None else (STARTING_CASH,) * n,
        island=scenario.island if scenario.island is not None else (0,) * n,
        quit=scenario.quit if scenario.quit is not None else (False,) * n,
        hand_sizes=tuple(map(len, scenario.hands)),
        has_laid=tuple(entry is not None for entry in laid),
        draw_size=len(scenario.draw) if scenario.draw is not None else len(deck) - placed,
        discard=scenario.discard,
        phase=scenario.phase,
        to_act=scenario.to_act,
        invested=scenario.invested if scenario.invested is not None else (False,) * n,
        run=scenario.run,
        round=scenario.round,
        ranking=scenario.ranking if scenario.ranking is not None else clockwise(starting_seat, n),
    )


def _fail(message: str, rule: str) -> InvalidSetup:
    return InvalidSetup(f"scenario: {message}", rule=rule)


def _per_seat(name: str, values: tuple[object, ...], players: int) -> None:
    if len(values) != players:
        raise _fail(f"{name} has {len(values)} entries for {players} players", "A1")


def check_scenario(scenario: Scenario, players: int, board: Board, deck: Deck, first: int) -> None:
    """Check ``scenario`` for a table of ``players`` on ``board`` with ``deck``, whose run was
    started by seat ``first``, before anything is built from it.

    The setup's form has been checked (every field holds its declared type); this checks the
    values: one entry per seat, seats that are at the table, cars, figures and cards where the
    rules allow them, and numbers within their bounds.

    :raises InvalidSetup: naming what is wrong and the rule it breaks.
    """
    n = players
    for name, values in (
        ("distances", scenario.distances),
        ("hands", scenario.hands),
        ("cash", scenario.cash),
        ("island", scenario.island),
        ("laid", scenario.laid),
        ("quit", scenario.quit),
        ("invested", scenario.invested),
        ("ranking", scenario.ranking),
    ):
        if values is not None:
            _per_seat(name, values, n)
    laid = scenario.laid if scenario.laid is not None else (None,) * n
    quit = scenario.quit if scenario.quit is not None else (False,) * n
    if scenario.ranking is not None and sorted(scenario.ranking) != list(range(n)):
        raise _fail(f"the ranking must list every seat once (0..{n - 1})", "A12")
    if not (1 <= scenario.run <= MAX_RUN and 1 <= scenario.round <= MAX_ROUND):
        message = f"run and round count from 1 (run up to {MAX_RUN}, round up to {MAX_ROUND})"
        raise _fail(message, "A8")
    for seat, amount in enumerate(scenario.cash or ()):
        if amount < 0:
            raise _fail(f"seat {seat} has less than 0 monetas", "A2")
        if amount > MAX_CASH:
            raise _fail(f"seat {seat} has more than {MAX_CASH:,} monetas", "A2")
    _check_cars(scenario, board, n)
    _check_island(scenario.island or (), board)
    _check_laid(scenario, deck, laid, quit)
    _check_cards(scenario, deck, laid)
    _check_phase(scenario, n, laid, quit)


def _check_cards(scenario: Scenario, deck: Deck, laid: tuple[Laid | None, ...]) -> None:
    """Every card exactly once in hands, draw, discard and laid cards (A3)."""
    size = len(deck)
    piles = len(scenario.discard) + len(scenario.draw or ())
    if piles > size:
        raise _fail(f"the piles hold {piles} cards, more than the {size} of the deck", "A3")
    placed = [card for hand in scenario.hands for card in hand]
    placed += scenario.discard
    placed += [entry[0] for entry in laid if entry is not None]
    placed += scenario.draw or ()
    counts = Counter(placed)
    for card, count in sorted(counts.items()):
        if not 0 <= card < size:
            raise _fail(
                f"a card of a hand or pile is not in the deck (ids run 0..{size - 1})", "A3"
            )
        if count > 1:
            raise _fail(f"card {card} appears {count} times", "A3")
    if scenario.draw is not None and len(counts) < size:
        missing = next(card for card in range(size) if card not in counts)
        lost = size - len(counts)
        raise _fail(f"{lost} cards are in no hand or pile (card {missing} first)", "A3")


def _check_cars(scenario: Scenario, board: Board, players: int) -> None:
    """The marker on the road (A4), one car per space but the start (A4), and no car further
    than one move past the marker (A11, A18): the run ends after the round in which a car
    reaches it, and one move is at most ``players`` hops of 7."""
    length = board.track_length
    if not 0 <= scenario.marker < length:
        raise _fail(f"the marker must be on a road space 0..{length - 1}", "A4")
    furthest = length - 1 + HIGHEST_NUMBER * players
    seen: dict[int, int] = {}
    at_start = any(distance == 0 for distance in scenario.distances)
    for seat, distance in enumerate(scenario.distances):
        if distance < 0:
            raise _fail(f"seat {seat}'s car has driven less than 0", "A12")
        if distance > furthest:
            raise _fail(f"seat {seat}'s car has driven more than {furthest}", "A18")
        if distance == 0:
            continue
        space = (scenario.marker + distance) % length
        if space == scenario.marker and at_start:
            raise _fail(f"seat {seat}'s car shares the start space with cars yet to leave", "A4")
        if space in seen:
            other = seen[space]
            raise _fail(f"seats {other} and {seat} share road space {space}", "A4")
        seen[space] = seat
    if scenario.phase is Phase.PLANNING and any(d >= length for d in scenario.distances):
        raise _fail("a car has reached the marker, so the run is over", "A18")


def _check_island(island: tuple[int, ...], board: Board) -> None:
    for seat, space in enumerate(island):
        if not 0 <= space <= board.island_length:
            message = f"seat {seat}'s figure must be on an island space 0..{board.island_length}"
            raise _fail(message, "A5")
        if board.is_dream_island(space):
            raise _fail(f"seat {seat}'s figure is on the dream island: the game is over", "A20")


def _check_laid(
    scenario: Scenario, deck: Deck, laid: tuple[Laid | None, ...], quit: tuple[bool, ...]
) -> None:
    for seat, entry in enumerate(laid):
        hand_size = len(scenario.hands[seat]) + (entry is not None)
        if hand_size > HAND_SIZE:
            raise _fail(f"seat {seat} holds {hand_size} cards, more than {HAND_SIZE}", "A13")
        if entry is None:
            continue
        card, number = entry
        if quit[seat]:
            raise _fail(f"seat {seat} has quit but has a laid card", "A14")
        if 0 <= card < len(deck) and not deck.cards[card].has(number):
            raise _fail(f"seat {seat} laid card {card} for a number not on it", "A3")
        if scenario.phase is Phase.INVESTING:
            raise _fail(f"seat {seat} has a laid card between runs", "A13")


def _check_phase(
    scenario: Scenario, players: int, laid: tuple[Laid | None, ...], quit: tuple[bool, ...]
) -> None:
    phase = scenario.phase
    if phase not in (Phase.PLANNING, Phase.DRIVING, Phase.INVESTING):
        raise _fail(f"a scenario starts in planning, driving or investing, not {phase}", "A7")
    active = [seat for seat in range(players) if not quit[seat]]
    if phase is not Phase.INVESTING and not active:
        raise _fail("every player has quit, so the run is over", "A18")
    if phase is Phase.PLANNING:
        waiting = [seat for seat in active if laid[seat] is None]
        if not waiting:
            raise _fail("every active player has laid a card: that is the driving step", "A9")
        for seat in waiting:
            if not scenario.hands[seat]:
                raise _fail(f"seat {seat} has no cards, so it quits (A14)", "A8")
    if phase is Phase.DRIVING and scenario.to_act is not None:
        to_act = scenario.to_act
        if len(set(to_act)) != len(to_act) or not set(to_act) <= set(active):
            raise _fail("to_act must list distinct active seats", "A10")
        holders = {seat for seat in range(players) if laid[seat] is not None}
        if set(to_act) != holders:
            raise _fail("the seats to act must be exactly those with a laid card", "A9")
    if phase is Phase.DRIVING and not any(entry is not None for entry in laid):
        raise _fail("nobody has a laid card to drive with", "A9")
    if scenario.to_act is not None and phase is not Phase.DRIVING:
        raise _fail("to_act belongs to the driving step", "A10")
    if scenario.invested is not None and phase is not Phase.INVESTING:
        raise _fail("invested belongs to the investing step", "A22")
    if scenario.invested is not None and all(scenario.invested):
        raise _fail("every player has invested, so the next run has started", "A23")


def scenario_state(scenario: Scenario, table: Table, starting_seat: int, seed: int) -> GameState:
    """The state ``scenario`` describes on ``table``; it must have passed ``check_scenario``
    (the setup's check runs it before the table is built)."""
    n = table.players
    laid = scenario.laid if scenario.laid is not None else (None,) * n
    placed = {card for hand in scenario.hands for card in hand}
    placed.update(scenario.discard, (entry[0] for entry in laid if entry is not None))
    draw = scenario.draw
    if draw is None:
        draw = tuple(card for card in table.deck.ids if card not in placed)
    state = GameState(
        table=table,
        phase=scenario.phase,
        run=scenario.run,
        round=scenario.round,
        starting_seat=starting_seat,
        marker=scenario.marker,
        distances=scenario.distances,
        cash=scenario.cash if scenario.cash is not None else (STARTING_CASH,) * n,
        island=scenario.island if scenario.island is not None else (0,) * n,
        hands=scenario.hands,
        draw=draw,
        discard=scenario.discard,
        laid=laid,
        quit=scenario.quit if scenario.quit is not None else (False,) * n,
        order=(),
        turn=0,
        ranking=scenario.ranking if scenario.ranking is not None else clockwise(starting_seat, n),
        invested=scenario.invested if scenario.invested is not None else (False,) * n,
        winner=None,
        rng=Rng(seed),
    )
    if scenario.phase is Phase.DRIVING:
        order = scenario.to_act if scenario.to_act is not None else turn_order(state)
        state = state.but(order=order)
    return state
