"""Bots for For Sale: Autorama: the heuristic dealer, a sampler of hidden cards, and the kit.

Autorama hides a great deal from each seat (F1, F2, F8, F14): the decks' order and the removed
cards, and the other players' cash, advisors, vehicles, checks and unrevealed offers.
:class:`AutoramaSampler` deals the unseen cards at random into those places and guesses the
other players' cash, so the search bot can play Autorama too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from attrs import field, frozen

from avanti.autorama import (
    Bid,
    Command,
    DeclineMechanic,
    GameState,
    Offer,
    Options,
    Outcome,
    Pass,
    Phase,
    PlayAdvisor,
    Setup,
    Step,
    TakeBack,
    UseMechanic,
    View,
)
from avanti.autorama.cards import ADVISORS, CHECKS, VEHICLES
from avanti.autorama.setup import starting_cash
from avanti.core.bots import GameKit
from avanti.core.rng import Stream
from avanti.core.search import fresh_rng

__all__ = ["KIT", "SPREAD", "AutoramaBot", "AutoramaSampler", "reward"]


@frozen
class AutoramaBot:
    """Pays for spread, plays its strength where it counts, sells by the size of the checks.

    - Hiring advisors (F4, F5): the prize of winning an auction is the gap between the best and
      the worst advisor on the table, and what it is worth depends on the hand (F9-F11: the
      advisors decide the vehicles). A hand that already holds an advisor as strong as the
      table's best wants it less (a sixth of the gap), a hand whose best is below the table's
      middle advisor wants it more (a third), any other a quarter; never more than a third of
      its cash. Up to that limit the bot jumps halfway from the lowest bid allowed to its limit,
      so its bids say how much it wants the prize; above it, it passes.
    - Buying vehicles (F9-F11): when the vehicles on the table are far apart (the best at least
      ``wide`` above the worst) it plays its best advisor to take the best vehicle; otherwise
      its worst advisor, saving the good ones. It never pays for a Fleet Manager's boost.
    - Selling (F14-F17): with a big check on the table (``big`` or more) it offers its best
      vehicle, with only small checks its worst, otherwise its middle one; it offers one
      vehicle at a time, takes back the lower of two offered (F15), and always uses a Mechanic
      when asked (F16), since the second-lowest check is never below the lowest.

    Ties go to the first legal command; it never draws from ``rng``.
    """

    seat: int
    wide: int = field(default=12, repr=False, kw_only=True)
    big: int = field(default=12, repr=False, kw_only=True)
    small: int = field(default=5, repr=False, kw_only=True)

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
        table = sorted(view.table or (0,))
        cash = view.cash or 0
        gap = table[-1] - table[0]
        held = max(view.advisors, default=0)
        if held >= table[-1]:
            worth = gap // 6
        elif held < table[len(table) // 2]:
            worth = gap // 3
        else:
            worth = gap // 4
        limit = min(worth, cash // 3)
        cheapest = min(bids, key=lambda c: c.amount)
        if cheapest.amount > limit:
            return cheapest if passing is None else passing
        target = (cheapest.amount + limit + 1) // 2
        return min(
            (c for c in bids if c.amount <= limit), key=lambda c: (abs(c.amount - target), c.amount)
        )

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


SPREAD = 4
"""How far (in thousands) another player's guessed cash may lie from the seat's own."""


@frozen
class AutoramaSampler:
    """Deals what a seat cannot see at random, consistently with its view (F1, F2, F8, F14).

    Each deck's unseen cards (all but the seat's own, those on the table, and those played,
    kept, spent, sold or offered in the open) are shuffled into the other hands and hidden
    offers (each of its known size), the deck (of its known size) and the removed cards.
    Another player's cash is not in the view and the view does not bound it, so it is guessed:
    the seat's own cash give or take :data:`SPREAD`, and never below the bid in front of that
    player. The guess, and the advisors other players hired in the open but which the view
    does not show, make these samples rough.
    """

    options: Options
    """The game's options (public)."""
    start_cash: int
    """Each player's cash at the start (F2)."""

    @classmethod
    def of(cls, setup: Setup) -> AutoramaSampler:
        """The sampler for a game started from ``setup``."""
        return cls(setup.options, starting_cash(len(setup.players)))

    def sample_state(self, view: View, seat: int, rng: Stream) -> GameState:
        """A state with the view's every public and own fact, the hidden cards dealt anew."""
        players = view.players
        others = [other for other in range(players) if other != seat]
        phase = view.phase
        table = view.table
        played = [card for card in view.played if card is not None]
        kept = [card for hand in view.kept for card in hand]
        shown = [card for offer in view.offers if offer is not None for card in offer]
        advisors = _unseen(
            ADVISORS,
            view.advisors,
            table if phase is Phase.HIRING else (),
            played,
            kept,
            view.spent,
        )
        vehicles = _unseen(
            VEHICLES, view.vehicles, table if phase is Phase.BUYING else (), view.sold, shown
        )
        checks = _unseen(CHECKS, view.checks, table if phase is Phase.SELLING else ())
        advisor_hands = _deal(rng, advisors, view.advisor_counts, seat, view.advisors)
        vehicle_hands = _deal(rng, vehicles, view.vehicle_counts, seat, view.vehicles)
        check_hands = _deal(rng, checks, view.check_counts, seat, view.checks)
        offers = list(view.offers)
        for other in others:
            if view.offered[other] and offers[other] is None:
                size = 2 if view.lawyers[other] is not None else 1
                offers[other] = tuple(sorted(vehicles[:size]))
                del vehicles[:size]
        advisor_deck = tuple(advisors[: view.advisors_left])
        vehicle_deck = tuple(vehicles[: view.vehicles_left])
        check_deck = tuple(checks[: view.checks_left])
        removed = (
            advisors[view.advisors_left :],
            vehicles[view.vehicles_left :],
            checks[view.checks_left :],
        )
        if tuple(len(cards) for cards in removed) != view.removed:
            raise ValueError(
                f"the view does not add up: {tuple(len(c) for c in removed)} unseen cards are "
                f"left for {view.removed} removed ones"
            )
        cash = [
            view.cash if other == seat and view.cash is not None else 0 for other in range(players)
        ]
        own = view.cash if view.cash is not None else self.start_cash
        for other in others:
            guess = own - SPREAD + rng.below(2 * SPREAD + 1)
            cash[other] = max(guess, view.bids[other] or 0, 0)
        revealed = phase is Phase.SELLING and all(offer is not None for offer in view.offers)
        return GameState(
            players=players,
            options=self.options,
            phase=phase,
            step=view.step if view.step is not None else Step.OFFERING,
            round=view.round,
            start=view.start,
            turn=view.turn,
            advisor_deck=advisor_deck,
            vehicle_deck=vehicle_deck,
            check_deck=check_deck,
            removed_advisors=tuple(sorted(removed[0])),
            removed_vehicles=tuple(sorted(removed[1])),
            removed_checks=tuple(sorted(removed[2])),
            table=table,
            cash=tuple(cash),
            bids=view.bids,
            active=view.active,
            advisors=advisor_hands,
            played=view.played,
            boosted=view.boosted,
            kept=view.kept,
            spent=view.spent,
            vehicles=vehicle_hands,
            offers=tuple(offers),
            lawyers=view.lawyers,
            revealed=revealed,
            mechanic=False,
            sold=view.sold,
            checks=check_hands,
            rng=fresh_rng(rng),
        )


def _unseen(deck: tuple[int, ...], *seen: Sequence[int]) -> list[int]:
    """The cards of ``deck`` (a multiset) left once every card in ``seen`` is taken out."""
    left = Counter(deck)
    for cards in seen:
        left.subtract(cards)
    return sorted(left.elements())


def _deal(
    rng: Stream, pool: list[int], counts: tuple[int, ...], seat: int, own: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Shuffle ``pool`` in place and deal each other seat its count of cards, sorted."""
    pool[:] = rng.shuffled(pool)
    hands: list[tuple[int, ...]] = []
    for other, count in enumerate(counts):
        if other == seat:
            hands.append(own)
            continue
        hands.append(tuple(sorted(pool[:count])))
        del pool[:count]
    return tuple(hands)


def reward(outcome: Outcome, seat: int) -> float:
    """1 for a sole winner, shared equally in a shared victory (F20), else 0."""
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def _heuristic(setup: Setup, seat: int) -> AutoramaBot:
    return AutoramaBot(seat)


KIT = GameKit(
    heuristic=_heuristic,
    sampler=AutoramaSampler.of,
    reward=reward,
    iterations=100,
)
"""The bots of For Sale: Autorama: :class:`AutoramaBot`, and search over sampled states."""
