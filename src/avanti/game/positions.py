"""Where the cars are and what follows from it: ranking, turn order, moving, ATM owners.

Pure functions of a state, shared by the rules, the views and the scenario checks.
"""

from __future__ import annotations

from avanti.game.state import GameState

__all__ = ["atm_owners", "clockwise", "drive_hops", "standings", "turn_order"]


def clockwise(first: int, players: int) -> tuple[int, ...]:
    """Every seat, clockwise from ``first`` (A1)."""
    return tuple((first + i) % players for i in range(players))


def standings(state: GameState) -> tuple[int, ...]:
    """Every seat, best first: larger distance ahead (A12).

    Only cars still on the start space can tie; they rank by the previous run's final order
    (``state.ranking``).
    """
    previous = {seat: place for place, seat in enumerate(state.ranking)}
    distances = state.distances
    return tuple(sorted(range(state.table.players), key=lambda s: (-distances[s], previous[s])))


def turn_order(state: GameState) -> tuple[int, ...]:
    """The driving order of this round, fixed when driving begins (A10, A28).

    The seats that laid a card act; in a run's first round the starting player goes first,
    otherwise the one whose car is last; the rest follow clockwise.
    """
    players = state.table.players
    active = [seat for seat in range(players) if state.laid[seat] is not None]
    if state.round == 1:
        first = next(s for s in clockwise(state.starting_seat, players) if s in active)
    else:
        ranked = standings(state)
        first = next(s for s in reversed(ranked) if s in active)
    return tuple(s for s in clockwise(first, players) if s in active)


def drive_hops(state: GameState, seat: int, number: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The hops of ``seat``'s car driving ``number`` (A11): distances landed on, seats bumped.

    The car moves ``number`` spaces; while the road space it lands on holds another car (a
    quitter's car and a car still on the start space count), it moves ``number`` again.
    """
    length = state.table.track_length
    marker = state.marker
    distances = state.distances
    taken = {
        (marker + distances[other]) % length: other
        for other in range(state.table.players)
        if other != seat
    }
    hops: list[int] = []
    bumped: list[int] = []
    at = distances[seat]
    while True:
        at += number
        hops.append(at)
        owner = taken.get((marker + at) % length)
        if owner is None:
            return tuple(hops), tuple(bumped)
        bumped.append(owner)


def atm_owners(state: GameState) -> tuple[tuple[int, int, int], ...]:
    """Who withdraws from each ATM (A21), as ``(seat, space, amount)`` in road order.

    A lot pays the owner of the first car at or ahead of it on the loop; where cars share a
    space (only the start space), the one ranked ahead. With the option
    ``atm_last_car_wraps=False`` the search does not pass the event marker, so lots after the
    leader pay nobody.
    """
    table = state.table
    length = table.track_length
    ranked = standings(state)
    at: dict[int, int] = {}
    for seat in reversed(ranked):  # the better-ranked car wins a shared space
        at[state.road_space(seat)] = seat
    wraps = table.options.atm_last_car_wraps
    marker = state.marker
    paid: list[tuple[int, int, int]] = []
    for space, amount in table.lots:
        for step in range(length):
            here = (space + step) % length
            if step > 0 and here == marker and not wraps:
                break
            owner = at.get(here)
            if owner is not None:
                paid.append((owner, space, amount))
                break
    return tuple(paid)
