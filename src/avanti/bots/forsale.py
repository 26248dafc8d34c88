"""Bots for For Sale: Autorama: the heuristic dealer and the game's kit.

Autorama hides a great deal from each seat (others' cash, advisors, vehicles and checks, F2, F8)
and offers no sampler of hidden states yet, so it has no search bot: ``make_bot("search", ...)``
says so. Its heuristic and random bots play it like any other game.
"""

from __future__ import annotations

from collections.abc import Sequence

from avanti.autorama import (
    Bid,
    Command,
    DeclineMechanic,
    Offer,
    Outcome,
    Pass,
    PlayAdvisor,
    Setup,
    TakeBack,
    UseMechanic,
    View,
)
from avanti.bots.kit import GameKit
from avanti.core.rng import Stream

__all__ = ["KIT", "AutoramaBot", "reward", "winners"]


class AutoramaBot:
    """Pays for spread, plays its strength where it counts, sells by the size of the checks.

    - Hiring advisors (F4, F5): the prize of winning an auction is the gap between the best and
      the worst advisor on the table. The bot keeps bidding the lowest amount allowed while the
      high bid is below a quarter of that gap (and below a third of its cash), then passes.
    - Buying vehicles (F9-F11): when the vehicles on the table are far apart (the best at least
      ``wide`` above the worst) it plays its best advisor to take the best vehicle; otherwise
      its worst advisor, saving the good ones. It never pays for a Fleet Manager's boost.
    - Selling (F14-F17): with a big check on the table (``big`` or more) it offers its best
      vehicle, with only small checks its worst, otherwise its middle one; it offers one
      vehicle at a time, takes back the lower of two offered (F15), and always uses a Mechanic
      when asked (F16), since the second-lowest check is never below the lowest.

    Ties go to the first legal command; it never draws from ``rng``.
    """

    def __init__(self, seat: int, *, wide: int = 12, big: int = 12, small: int = 5) -> None:
        self.seat = seat
        self.wide = wide
        self.big = big
        self.small = small

    def __repr__(self) -> str:
        return f"AutoramaBot(seat={self.seat})"

    def choose(self, view: View, legal_commands: Sequence[Command], rng: Stream) -> Command:
        """The command the rules of thumb above pick among ``legal_commands``."""
        first = legal_commands[0]
        if isinstance(first, (Bid, Pass)):
            return self._auction(view, legal_commands)
        if isinstance(first, PlayAdvisor):
            return self._buy(view, legal_commands)
        if isinstance(first, Offer):
            return self._offer(view, legal_commands)
        if isinstance(first, TakeBack):
            return min(legal_commands, key=lambda c: c.vehicle if isinstance(c, TakeBack) else 0)
        for command in legal_commands:
            if isinstance(command, UseMechanic):
                return command
        for command in legal_commands:
            if isinstance(command, DeclineMechanic):
                return command
        return first

    def _auction(self, view: View, legal: Sequence[Command]) -> Command:
        bids = [c for c in legal if isinstance(c, Bid)]
        passing = next((c for c in legal if isinstance(c, Pass)), None)
        if not bids:
            return passing or legal[0]
        table = view.table or (0,)
        cash = view.cash or 0
        limit = min((max(table) - min(table)) // 4, cash // 3)
        cheapest = min(bids, key=lambda c: c.amount)
        if cheapest.amount <= limit or passing is None:
            return cheapest
        return passing

    def _buy(self, view: View, legal: Sequence[Command]) -> Command:
        plain: list[Command] = [c for c in legal if isinstance(c, PlayAdvisor) and not c.boost]
        plays = plain or list(legal)
        table = view.table or (0,)
        advisor = {id(c): c.advisor if isinstance(c, PlayAdvisor) else 0 for c in plays}
        if max(table) - min(table) >= self.wide:
            return max(plays, key=lambda c: advisor[id(c)])
        return min(plays, key=lambda c: advisor[id(c)])

    def _offer(self, view: View, legal: Sequence[Command]) -> Command:
        singles = sorted(
            (c for c in legal if isinstance(c, Offer) and len(c.vehicles) == 1),
            key=lambda c: c.vehicles[0] if isinstance(c, Offer) else 0,
        )
        if not singles:
            return legal[0]
        top = max(view.table or (0,))
        if top >= self.big:
            return singles[-1]
        if top <= self.small:
            return singles[0]
        return singles[len(singles) // 2]


def reward(outcome: Outcome, seat: int) -> float:
    """1 for a sole winner, shared equally in a shared victory (F20), else 0."""
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def winners(outcome: Outcome) -> tuple[int, ...]:
    """Every seat that shares the victory (F20)."""
    return outcome.winners


def _heuristic(setup: Setup, seat: int) -> AutoramaBot:
    return AutoramaBot(seat)


KIT = GameKit(
    heuristic=_heuristic,
    sampler=None,
    reward=reward,
    winners=winners,
    hidden_information=True,
)
"""The bots of For Sale: Autorama: :class:`AutoramaBot`; no search bot (no sampler yet)."""
