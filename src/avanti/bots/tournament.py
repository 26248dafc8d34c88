"""Tournaments between bots over every seat permutation, with ratings and their intervals.

A :class:`Tournament` is a schedule of seatings played ``rounds`` times: in a round robin every
table of ``seats`` bots drawn from the entrants, in a gauntlet the first entrant (the challenger)
at every table with the others; each table in every order of its seats, so no bot keeps a good
seat. It runs on the simulator (:func:`avanti.bots.simulate.run`), so it takes the same bots,
engines and seeds, and a later run with more rounds keeps every game of an earlier one.

Ratings (:func:`fit_ratings`) are a Bradley-Terry fit on the Elo scale. Each game counts, for every
winner and every loser seated by different bots, one win of the winner's bot over the loser's
(shared wins and draws give no pair). Strengths ``p`` maximise the likelihood of those pairwise
results, ``P(i beats j) = p_i / (p_i + p_j)``, with one drawn virtual game between every two bots
added as a weak prior that keeps an unbeaten bot's rating finite. A rating is
``1500 + 400 * log10(p_i / g)``, ``g`` the geometric mean of the strengths, so the field averages
1500 and 400 points mean odds of 10 to 1. Its 95% interval is ``1.96`` standard errors from the
inverse of the fit's Fisher information (under the constraint that the mean stays 1500). Pairs from
one game of three or more seats are not independent, so for such games the intervals are somewhat
narrower than they should be; the win rates beside them carry Wilson intervals of their own.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from attrs import frozen

from avanti.bots.simulate import Z95, Entrant, GameRecord, Plan, Rate
from avanti.core.errors import InvalidArgument

__all__ = ["FORMATS", "Rating", "Tournament", "fit_ratings", "pair_wins"]

FORMATS: tuple[str, ...] = ("round-robin", "gauntlet")
"""The tournament formats: every table of entrants, or the first entrant against the rest."""

ELO_SCALE = 400 / math.log(10)
"""Elo points per unit of natural log-strength."""

PRIOR_GAMES = 1.0
"""Drawn virtual games added between every two bots (half a win each way)."""


@frozen
class Tournament:
    """A tournament: the game, the entrants' names, the table size, rounds and root seed.

    ``bots`` are distinct names (built-in kinds, names of ``entrants``, or ``module:attribute``
    paths). ``seats`` is the table size (default: as many as there are bots). ``fmt`` is one of
    :data:`FORMATS`. With fewer bots than seats, tables repeat bots (each table holds at least two
    different bots).
    """

    game: str
    bots: tuple[str, ...]
    seats: int | None = None
    rounds: int = 1
    seed: int = 0
    fmt: str = "round-robin"
    iterations: int | None = None
    entrants: tuple[Entrant, ...] = ()

    @property
    def table(self) -> int:
        """How many seats a table has."""
        return self.seats if self.seats is not None else len(self.bots)

    def tables(self) -> tuple[tuple[str, ...], ...]:
        """The tables (which bots meet), each once, in a fixed order.

        :raises InvalidArgument: an unknown format, fewer than two bots, a repeated name, or a
            table of fewer than two seats.
        """
        if self.fmt not in FORMATS:
            raise InvalidArgument(f"unknown format {self.fmt!r}; choose from {', '.join(FORMATS)}")
        if len(self.bots) < 2:
            raise InvalidArgument("a tournament needs at least two bots")
        if len(set(self.bots)) != len(self.bots):
            raise InvalidArgument(f"name each bot once, not {', '.join(self.bots)}")
        if self.table < 2:
            raise InvalidArgument(f"a table seats at least two bots, not {self.table}")
        if self.fmt == "round-robin":
            return _tables(self.bots, self.table)
        challenger, others = self.bots[0], self.bots[1:]
        rest: Iterable[tuple[str, ...]]
        if self.table - 1 <= len(others):
            rest = itertools.combinations(others, self.table - 1)
        else:
            rest = itertools.combinations_with_replacement(others, self.table - 1)
        return tuple((challenger, *table) for table in rest)

    def schedule(self) -> tuple[tuple[str, ...], ...]:
        """Every table in every distinct order of its seats: one round of the tournament."""
        seatings: list[tuple[str, ...]] = []
        for table in self.tables():
            seatings.extend(sorted(set(itertools.permutations(table))))
        return tuple(seatings)

    def plan(self) -> Plan:
        """The simulation that plays the tournament: ``rounds`` times its schedule.

        :raises InvalidArgument: fewer than one round, or a bad format or table (see
            :meth:`tables`).
        """
        if self.rounds < 1:
            raise InvalidArgument(f"play at least one round, not {self.rounds}")
        schedule = self.schedule()
        return Plan(
            self.game,
            self.bots,
            self.rounds * len(schedule),
            self.seed,
            iterations=self.iterations,
            entrants=self.entrants,
            schedule=schedule,
        )


def _tables(bots: tuple[str, ...], seats: int) -> tuple[tuple[str, ...], ...]:
    if seats <= len(bots):
        return tuple(itertools.combinations(bots, seats))
    return tuple(
        table
        for table in itertools.combinations_with_replacement(bots, seats)
        if len(set(table)) > 1
    )


@frozen
class Rating:
    """One bot's rating: Elo-scale strength with its 95% interval, and its win rate.

    ``rate`` counts the bot's wins per seat it held, as the simulator does (its Wilson interval
    is ``rate.interval``).
    """

    name: str
    elo: float
    low: float
    high: float
    rate: Rate


def pair_wins(records: Sequence[GameRecord], names: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """``wins[i][j]``: how often bot ``names[i]`` won a game in which ``names[j]`` lost.

    Every winner counts once against every loser seated by a different bot.
    """
    where = {name: i for i, name in enumerate(names)}
    wins = [[0] * len(names) for _ in names]
    for record in records:
        for winner in record.winners:
            for loser in range(len(record.bots)):
                a, b = record.bots[winner], record.bots[loser]
                if loser not in record.winners and a != b:
                    wins[where[a]][where[b]] += 1
    return tuple(tuple(row) for row in wins)


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small invertible matrix, by Gauss-Jordan elimination."""
    n = len(matrix)
    work = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(work[r][column]))
        work[column], work[pivot] = work[pivot], work[column]
        scale = work[column][column]
        work[column] = [value / scale for value in work[column]]
        for row in range(n):
            if row != column and work[row][column] != 0.0:
                factor = work[row][column]
                work[row] = [a - factor * b for a, b in zip(work[row], work[column], strict=True)]
    return [row[n:] for row in work]


def fit_ratings(records: Sequence[GameRecord], names: Sequence[str]) -> tuple[Rating, ...]:
    """The Bradley-Terry ratings of ``names`` from ``records``, best first (see the module).

    The fit runs Hunter's MM iteration to convergence; the result depends on the games, never
    on their order.
    """
    k = len(names)
    if k < 2:
        raise InvalidArgument("ratings need at least two bots")
    counts = pair_wins(records, names)
    wins = [[counts[i][j] + PRIOR_GAMES / 2 for j in range(k)] for i in range(k)]
    for i in range(k):
        wins[i][i] = 0.0
    played = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    total = [sum(row) for row in wins]
    strength = [1.0] * k
    for _ in range(10_000):
        new = [
            total[i] / sum(played[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            for i in range(k)
        ]
        centre = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / centre for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    information = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j:
                share = strength[i] * strength[j] / (strength[i] + strength[j]) ** 2
                information[i][j] = -played[i][j] * share
                information[i][i] += played[i][j] * share
    # The information matrix is singular along (1, ..., 1) (adding a constant to every
    # log-strength changes nothing); its pseudo-inverse is the covariance with the mean fixed.
    inverse = _inverse([[value + 1.0 / k for value in row] for row in information])
    variance = [inverse[i][i] - 1.0 / k for i in range(k)]
    seat_wins = dict.fromkeys(names, 0)
    seat_games = dict.fromkeys(names, 0)
    for record in records:
        for seat, name in enumerate(record.bots):
            seat_games[name] += 1
            seat_wins[name] += seat in record.winners
    ratings = []
    for i, name in enumerate(names):
        elo = 1500 + ELO_SCALE * math.log(strength[i])
        half = Z95 * ELO_SCALE * math.sqrt(max(variance[i], 0.0))
        rate = Rate(seat_wins[name], seat_games[name])
        ratings.append(Rating(name, elo, elo - half, elo + half, rate))
    return tuple(sorted(ratings, key=lambda r: (-r.elo, r.name)))
