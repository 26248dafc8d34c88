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

    By default a lot pays the owner of the first car at or ahead of it along the road; where cars
    share a space (only the start space), the one ranked ahead. Put another way, a car collects
    the lots from just past the car behind it along the road up to its own space, and the last
    car, whose car behind is the leader, collects the lots from just past the leader to itself.

    ``atm_last_car_wraps=False``: the last car has no car behind it, so a lot that the last car
    would get only by counting the leader as the car behind it (the first car ahead of the lot is
    the last car, the first car behind it is the leader) pays nobody. A lot a car stands on
    always pays that car.

    ``atm_behind_in_race_order=True``: the car behind a car is the next car in the race (A12),
    and a car collects the lots whose distance from the marker, give or take whole laps, lies
    from just past that car's distance up to its own; the last car's car behind is the leader
    one lap back (or none, without wrapping). A lot on two such stretches (possible only once
    the leader is a lap or more ahead of the last car) pays the car further ahead.
    """
    table = state.table
    length = table.track_length
    ranked = standings(state)
    at: dict[int, int] = {}
    for seat in reversed(ranked):  # the better-ranked car wins a shared space
        at[state.road_space(seat)] = seat
    options = table.options
    wraps = options.atm_last_car_wraps
    if options.atm_behind_in_race_order:
        stretches = _race_stretches(state, ranked, wraps)
        marker = state.marker
        paid: list[tuple[int, int, int]] = []
        for space, amount in table.lots:
            owner = at.get(space)
            if owner is None:
                owner = _race_atm_owner(stretches, (space - marker) % length, length)
            if owner is not None:
                paid.append((owner, space, amount))
        return tuple(paid)
    leader_space = state.road_space(ranked[0])
    last_space = state.road_space(ranked[-1])
    paid = []
    for space, amount in table.lots:
        # The nearest car at or ahead of the lot: the fewest spaces forward to an occupied one.
        ahead = min((here - space) % length for here in at)
        if not wraps and ahead and (space + ahead) % length == last_space:
            # The lot pays the last car; if the nearest car behind it is the leader, the last
            # car gets it only by counting the leader as the car behind it.
            behind = min((space - here) % length for here in at)
            if (space - behind) % length == leader_space:
                continue
        paid.append((at[(space + ahead) % length], space, amount))
    return tuple(paid)


def _race_stretches(
    state: StateLike, ranked: tuple[int, ...], wraps: bool
) -> list[tuple[int, int, int]]:
    """Each car's stretch in race order (A21 option), as ``(low, high, seat)`` distances.

    A car collects the lots whose distance from the marker, give or take whole laps, lies in
    ``low < distance <= high``: from just past the next car back in the race up to itself.
    Cars sharing a distance (only on the start space) count once, as the better-ranked one.
    With ``wraps`` the last car's car behind is the leader one lap back; without, it has none.
    """
    distances = state.distances
    line: list[tuple[int, int]] = []  # (distance, seat), furthest first, one per distance
    for seat in ranked:
        if not line or line[-1][0] != distances[seat]:
            line.append((distances[seat], seat))
    stretches = [(line[i + 1][0], far, seat) for i, (far, seat) in enumerate(line[:-1])]
    if wraps:
        stretches.append((line[0][0] - state.table.track_length, line[-1][0], line[-1][1]))
    return stretches


def _race_atm_owner(stretches: list[tuple[int, int, int]], base: int, length: int) -> int | None:
    """The owner of a free lot ``base`` spaces past the marker under the race-order reading.

    The first stretch, in race order, that holds the lot's distance give or take whole laps: a
    lot on two stretches (the leader is a lap or more ahead of the last car) pays the car
    further ahead. ``None`` when no stretch holds it (only without wrapping).
    """
    for low, high, seat in stretches:
        # The smallest distance past ``low`` that lands on the lot's space.
        if low + 1 + (base - low - 1) % length <= high:
            return seat
    return None
