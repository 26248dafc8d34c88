"""Start a game from a mid-game position: a :class:`Scenario`, checked like a setup.

A scenario is part of :class:`~avanti.avanti.setup.Setup`, so a game started from one replays,
saves and loads like any other. Tests and examples use it to set up the rulebook's illustrations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from attrs import field, frozen

from avanti.avanti.positions import clockwise, turn_order
from avanti.avanti.runend import HAND_SIZE
from avanti.avanti.state import GameState, Laid, Phase, Table
from avanti.core import InvalidSetup, Rng

__all__ = ["Scenario", "scenario_state"]

STARTING_CASH = 5000
"""Each player's cash at the start of the game (A2)."""


# Converters, so that lists given in Python make the same (hashable, comparable) scenario as
# the tuples read back from JSON.
def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _maybe_ints(values: Iterable[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(values)


def _maybe_flags(values: Iterable[bool] | None) -> tuple[bool, ...] | None:
    return None if values is None else tuple(values)


def _hands(hands: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(hand) for hand in hands)


def _laid(laid: Iterable[Iterable[int] | None] | None) -> tuple[Laid | None, ...] | None:
    if laid is None:
        return None
    return tuple(None if entry is None else _pair(tuple(entry)) for entry in laid)


def _pair(entry: tuple[int, ...]) -> Laid:
    card, number = entry
    return (card, number)


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

    :func:`avanti.new_game` checks it and raises :class:`~avanti.core.errors.InvalidSetup` naming
    what is wrong: a card duplicated or missing, two cars on one road space other than the start,
    negative cash, a hand over three cards, a number not on its card, and so on.
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


def _fail(message: str, rule: str) -> InvalidSetup:
    return InvalidSetup(f"scenario: {message}", rule=rule)


def _per_seat(name: str, values: tuple[object, ...], players: int) -> None:
    if len(values) != players:
        raise _fail(f"{name} has {len(values)} entries for {players} players", "A1")


def _check_cards(
    scenario: Scenario, table: Table, laid: tuple[Laid | None, ...]
) -> tuple[int, ...]:
    """Every card exactly once in hands, draw, discard and laid cards; returns the draw pile."""
    ids = range(len(table.deck.cards))
    placed = [card for hand in scenario.hands for card in hand]
    placed += list(scenario.discard)
    placed += [entry[0] for entry in laid if entry is not None]
    if scenario.draw is not None:
        placed += list(scenario.draw)
    counts = Counter(placed)
    for card, count in sorted(counts.items()):
        if card not in ids:
            raise _fail(f"card {card} is not in the deck (ids run 0..{len(ids) - 1})", "A3")
        if count > 1:
            raise _fail(f"card {card} appears {count} times", "A3")
    missing = [card for card in ids if card not in counts]
    if scenario.draw is None:
        return tuple(missing)
    if missing:
        raise _fail(f"cards {missing} are in no hand or pile", "A3")
    return scenario.draw


def _check_cars(scenario: Scenario, table: Table) -> None:
    length = table.track_length
    if not 0 <= scenario.marker < length:
        raise _fail(f"the marker is on road space {scenario.marker}, not 0..{length - 1}", "A4")
    seen: dict[int, int] = {}
    at_start = any(distance == 0 for distance in scenario.distances)
    for seat, distance in enumerate(scenario.distances):
        if distance < 0:
            raise _fail(f"seat {seat}'s car has driven {distance}, less than 0", "A12")
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


def _check_island(scenario: Scenario, table: Table, island: tuple[int, ...]) -> None:
    for seat, space in enumerate(island):
        if not 0 <= space <= table.island_length:
            raise _fail(f"seat {seat}'s figure is on island space {space}", "A5")
        if space >= table.dream_island_start:
            raise _fail(f"seat {seat}'s figure is on the dream island: the game is over", "A20")


def _check_laid(
    scenario: Scenario, table: Table, laid: tuple[Laid | None, ...], quit: tuple[bool, ...]
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
        if 0 <= card < len(table.numbers) and number not in table.numbers[card]:
            raise _fail(f"seat {seat} laid card {card} with {number}, not on it", "A3")
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
            raise _fail(f"to_act {to_act} must list distinct active seats", "A10")
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
    """The state ``scenario`` describes, after checking it against the rules.

    :raises InvalidSetup: naming what is wrong and the rule it breaks.
    """
    n = table.players
    cash = scenario.cash if scenario.cash is not None else (STARTING_CASH,) * n
    island = scenario.island if scenario.island is not None else (0,) * n
    laid = scenario.laid if scenario.laid is not None else (None,) * n
    quit = scenario.quit if scenario.quit is not None else (False,) * n
    invested = scenario.invested if scenario.invested is not None else (False,) * n
    ranking = scenario.ranking if scenario.ranking is not None else clockwise(starting_seat, n)
    for name, values in (
        ("distances", scenario.distances),
        ("hands", scenario.hands),
        ("cash", cash),
        ("island", island),
        ("laid", laid),
        ("quit", quit),
        ("invested", invested),
    ):
        _per_seat(name, values, n)
    if sorted(ranking) != list(range(n)):
        raise _fail(f"ranking {ranking} must list every seat once", "A12")
    if scenario.run < 1 or scenario.round < 1:
        raise _fail("run and round count from 1", "A8")
    for seat, amount in enumerate(cash):
        if amount < 0:
            raise _fail(f"seat {seat} has {amount} monetas, less than 0", "A2")
    _check_cars(scenario, table)
    _check_island(scenario, table, island)
    _check_laid(scenario, table, laid, quit)
    draw = _check_cards(scenario, table, laid)
    _check_phase(scenario, n, laid, quit)
    state = GameState(
        table=table,
        phase=scenario.phase,
        run=scenario.run,
        round=scenario.round,
        starting_seat=starting_seat,
        marker=scenario.marker,
        distances=scenario.distances,
        cash=cash,
        island=island,
        hands=scenario.hands,
        draw=draw,
        discard=scenario.discard,
        laid=laid,
        quit=quit,
        order=(),
        turn=0,
        ranking=ranking,
        invested=invested,
        winner=None,
        rng=Rng(seed),
    )
    if scenario.phase is Phase.DRIVING:
        order = scenario.to_act if scenario.to_act is not None else turn_order(state)
        state = state.but(order=order)
    return state
