"""Where the cars are and what follows from it: ranking, turn order, moving, ATM owners.

Pure functions of a state, shared by the rules, the views and the scenario checks.
"""

from __future__ import annotations

from collections.abc import Iterable

from avanti.avanti.state import StateLike

__all__ = ["atm_owners", "clockwise", "drive_hops", "standings", "turn_order"]


def clockwise(first: int, players: int) -> tuple[int, ...]:
    """Every seat, clockwise from ``first`` (A1)."""
    return tuple((first + i) % players for i in range(players))


def standings(state: StateLike) -> tuple[int, ...]:
    """Every seat, best first: larger distance ahead (A12).

    Only cars still on the start space can tie; they rank by the previous run's final order
    (``state.ranking``).
    """
    # ``ranking`` lists every seat once; a stable sort of it, furthest first, keeps its order
    # among equal distances (``reverse`` keeps equal keys in their order too).
    return tuple(sorted(state.ranking, key=state.distances.__getitem__, reverse=True))


def turn_order(state: StateLike) -> tuple[int, ...]:
    """The driving order of this round, fixed when driving begins (A10, A28).

    The seats that laid a card act; in a run's first round the starting player goes first,
    otherwise the one whose car is last; the rest follow clockwise.
    """
    laid = state.laid
    rotations = state.table.rotations
    if state.round == 1:
        candidates: Iterable[int] = rotations[state.starting_seat]
    else:
        candidates = reversed(standings(state))
    first = next(s for s in candidates if laid[s] is not None)
    return tuple([s for s in rotations[first] if laid[s] is not None])


def drive_hops(state: StateLike, seat: int, number: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
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


def atm_owners(state: StateLike) -> tuple[tuple[int, int, int], ...]:
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
        # The nearest car at or ahead of the lot: the fewest spaces forward to an occupied one.
        ahead = min((here - space) % length for here in at)
        # Without wrapping the search stops on reaching the marker (unless it starts there).
        if not wraps and 0 < (marker - space) % length <= ahead:
            continue
        paid.append((at[(space + ahead) % length], space, amount))
    return tuple(paid)
