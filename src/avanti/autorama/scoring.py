"""Scoring (F19) and the winners (F20).

A player's money is their checks, their cash and the bonuses of the advisors they kept. Controllers
and Restoration Specialists each go on a different check (and a check takes at most one of them);
the library tries every legal assignment and keeps the best, reporting which advisor went where.
"""

from __future__ import annotations

import functools

from attrs import frozen

from avanti.autorama.cards import Kind, kind_of
from avanti.autorama.state import StateLike

Pairs = tuple[tuple[int, int], ...]
"""(advisor, index of check) pairs."""

__all__ = ["Assignment", "Outcome", "Score", "best_assignment", "score", "score_seat"]


@frozen
class Assignment:
    """F19: ``advisor`` (a Controller or Restoration Specialist) made ``check`` worth ``worth``."""

    advisor: int
    check: int
    worth: int


@frozen
class Score:
    """One player's money at the end (F19), in thousands of dollars.

    ``checks`` are the check values as dealt, ``check_total`` their worth after ``assignments``;
    ``bonus`` is the Financial Advisors' bonus; ``total = check_total + cash + bonus``;
    ``financial`` names the Financial Advisors that earned it, one ``cash`` each.
    """

    seat: int
    checks: tuple[int, ...]
    assignments: tuple[Assignment, ...]
    check_total: int
    cash: int
    bonus: int
    total: int
    financial: tuple[int, ...] = ()


@frozen
class Outcome:
    """The result of a finished game: every seat's score and the winners (F20).

    ``winners`` holds more than one seat when the victory is shared. As in every game,
    ``returns`` gives each seat 1.0 if it won (or shares the win) and 0.0 if not.
    """

    scores: tuple[Score, ...]
    winners: tuple[int, ...]
    returns: tuple[float, ...]


def _worth(advisor: int, check: int) -> int:
    """What ``check`` is worth with ``advisor`` on it (F19), or ``check`` if it does not help."""
    if kind_of(advisor) is Kind.CONTROLLER:
        return max(check, advisor)  # Controllers 10/11/12 make a check worth 10/11/12.
    if 2 <= check <= 9:
        return 2 * check  # a Restoration Specialist doubles a check of 2 to 9.
    return check


def best_assignment(checks: tuple[int, ...], advisors: tuple[int, ...]) -> tuple[Assignment, ...]:
    """F19: the assignment of Controllers and Restoration Specialists that adds the most.

    Each advisor goes on a different check, and only where it raises the value. Among equally
    good assignments the first found wins, trying advisors from the lowest and checks from the
    lowest, so the lowest Controller goes on the lowest check.
    """
    special = sorted(
        a for a in advisors if kind_of(a) in (Kind.CONTROLLER, Kind.RESTORATION_SPECIALIST)
    )
    order = sorted(range(len(checks)), key=lambda i: checks[i])
    best_gain = 0
    best: tuple[tuple[int, int], ...] = ()

    def search(
        i: int, used: frozenset[int], gain: int, chosen: tuple[tuple[int, int], ...]
    ) -> None:
        nonlocal best_gain, best
        if gain > best_gain:
            best_gain, best = gain, chosen
        if i == len(special):
            return
        advisor = special[i]
        tried: set[int] = set()
        for j in order:
            value = checks[j]
            if j in used or value in tried:
                continue
            tried.add(value)
            extra = _worth(advisor, value) - value
            if extra > 0:
                search(i + 1, used | {j}, gain + extra, (*chosen, (advisor, j)))
        search(i + 1, used, gain, chosen)

    search(0, frozenset(), 0, ())
    return tuple(Assignment(a, checks[j], _worth(a, checks[j])) for a, j in best)


_best_assignment = functools.lru_cache(maxsize=256)(best_assignment)
"""best_assignment remembered: the end of a game scores each seat more than once (the last
round's events, then every ``outcome``), and the search is the costly part. Checks and kept
advisors are tuples of ints, so equal questions get the same answer."""


def score_seat(seat: int, checks: tuple[int, ...], kept: tuple[int, ...], cash: int) -> Score:
    """F19: one player's money from their checks, kept advisors and cash."""
    assignments = _best_assignment(checks, kept)
    check_total = sum(checks) + sum(a.worth - a.check for a in assignments)
    financial = tuple(sorted(a for a in kept if kind_of(a) is Kind.FINANCIAL_ADVISOR))
    bonus = len(financial) * cash
    return Score(
        seat=seat,
        checks=checks,
        assignments=assignments,
        check_total=check_total,
        cash=cash,
        bonus=bonus,
        total=check_total + cash + bonus,
        financial=financial,
    )


def score(state: StateLike) -> Outcome:
    """F19, F20: every seat's score, and the winners: most money, then most cash, else shared."""
    scores = tuple(
        score_seat(s, state.checks[s], state.kept[s], state.cash[s]) for s in range(state.players)
    )
    best = max((s.total, s.cash) for s in scores)
    winners = tuple(s.seat for s in scores if (s.total, s.cash) == best)
    returns = tuple(1.0 if s.seat in winners else 0.0 for s in scores)
    return Outcome(scores=scores, winners=winners, returns=returns)
