"""Bots for Avanti: the heuristic driver, the sampler of hidden cards, and the game's kit.

What a seat cannot see in Avanti (A30) is other hands, other laid cards and their numbers, the
draw pile's order and the generator. :class:`AvantiSampler` deals the unseen cards at random
into those places, so the search bot can play out games that agree with everything it saw.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import field, frozen

from avanti.avanti.board import Board
from avanti.avanti.commands import Command, Drive, Invest, PlaceEventMarker, PlayCard, Quit
from avanti.avanti.deck import is_yellow
from avanti.avanti.events import RunEnded
from avanti.avanti.rules import Outcome
from avanti.avanti.setup import Setup
from avanti.avanti.state import GameState, Phase, Table
from avanti.avanti.views import View
from avanti.core.bots import GameKit
from avanti.core.rng import Stream
from avanti.core.search import fresh_rng

__all__ = ["KIT", "AvantiBot", "AvantiSampler", "counts", "reward"]


@frozen
class AvantiBot:
    """A careful driver: cheap landings, parking lots, cards kept in hand, steady investing.

    - Laying a card (A8): every (card, number) is scored by where the car would land, hops
      over other cars included (A11): each space of progress is worth ``progress`` monetas
      (leading the run earns island steps, A19, and the leader collects, A15), the toll of
      the landing space counts against it and a parking lot for half its ATM (A15, A21). A
      yellow number (1-3) earns a card back (A13) and is worth ``yellow``; a red number
      (4-7) that leaves the hand with one card or none costs ``last_card``, since a player
      without cards drops out of the run (A8).
    - Driving (A9): drives, unless the laid card would land on a toll at least ``quit_at``
      dearer than the one it stands on and still not lead: then it quits (A14).
    - Investing (A22): buys the most island steps that leave ``reserve`` monetas for tolls,
      since running short forces a retreat at half price (A17).
    - The event marker (A7): the space whose seven spaces ahead are cheapest to land on.

    Ties go to the first of the legal commands. It never draws from ``rng``.
    """

    board: Board = field(repr=False)
    """The road and island path the game is played on (public, A4, A5)."""
    seat: int
    progress: int = field(default=120, repr=False)
    yellow: int = field(default=300, repr=False)
    last_card: int = field(default=600, repr=False)
    quit_at: int = field(default=700, repr=False)
    reserve: int = field(default=2_000, repr=False)
    length: int = field(init=False, repr=False, eq=False)
    tolls: tuple[int, ...] = field(init=False, repr=False, eq=False)
    lots: dict[int, int] = field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        track = self.board.track
        put = object.__setattr__
        put(self, "length", len(track))
        put(self, "tolls", tuple(0 if s.is_parking else s.amount for s in track))
        put(self, "lots", {i: s.amount for i, s in enumerate(track) if s.is_parking})

    def choose(self, view: View, legal_commands: Sequence[Command], rng: Stream) -> Command:
        """The best-scoring legal command for this seat, by the rules of thumb above."""
        first = legal_commands[0]
        if isinstance(first, PlayCard):
            return max(legal_commands, key=lambda c: self._card_score(view, c))
        if isinstance(first, (Drive, Quit)):
            return self._drive_or_quit(view, legal_commands)
        if isinstance(first, Invest):
            return self._invest(view, legal_commands)
        return max(legal_commands, key=self._marker_score)

    def _value(self, space: int) -> int:
        """What landing on a road space is worth: half a lot's ATM, or minus its toll."""
        lot = self.lots.get(space)
        return lot // 2 if lot is not None else -self.tolls[space]

    def _landing(self, view: View, number: int) -> int:
        """The distance the car reaches driving ``number`` from here (A11), others standing."""
        marker = view.marker or 0
        taken = {space for s, space in enumerate(view.road_spaces) if s != self.seat}
        at = view.distances[self.seat]
        while True:
            at += number
            if (marker + at) % self.length not in taken:
                return at

    def _card_score(self, view: View, command: Command) -> float:
        assert isinstance(command, PlayCard)
        start = view.distances[self.seat]
        at = self._landing(view, command.number)
        score = self.progress * (at - start) + self._value(((view.marker or 0) + at) % self.length)
        if at >= self.length:
            score += self.progress * self.length  # reaching the marker ends the run (A18)
        if is_yellow(command.number):
            score += self.yellow
        elif view.hand is not None and len(view.hand) <= 2:
            score -= self.last_card
        return score

    def _drive_or_quit(self, view: View, legal: Sequence[Command]) -> Command:
        drive = next(c for c in legal if isinstance(c, Drive))
        quit = next((c for c in legal if isinstance(c, Quit)), None)
        if quit is None or view.laid is None:
            return drive
        at = self._landing(view, view.laid[1])
        marker = view.marker or 0
        here = self.tolls[view.road_spaces[self.seat]]
        there = self.tolls[(marker + at) % self.length]
        others = max((d for s, d in enumerate(view.distances) if s != self.seat), default=0)
        if there - here >= self.quit_at and at <= others and at < self.length:
            return quit
        return drive

    def _invest(self, view: View, legal: Sequence[Command]) -> Command:
        cash = view.cash[self.seat]
        at = view.island[self.seat]
        prices = self.board.island
        best = legal[0]
        for command in legal:
            assert isinstance(command, Invest)
            cost = sum(prices[at + i] or 0 for i in range(1, command.steps + 1))
            if cash - cost >= self.reserve and command.steps > getattr(best, "steps", 0):
                best = command
        return best

    def _marker_score(self, command: Command) -> int:
        assert isinstance(command, PlaceEventMarker)
        return sum(self._value((command.space + n) % self.length) for n in range(1, 8))


@frozen
class AvantiSampler:
    """Deals the cards a seat cannot see at random, consistently with its view (A30).

    The unseen cards are every card but the seat's own hand, its own laid card and the
    discard pile; they are shuffled into the other hands (each of its known size), the other
    laid cards (each with one of its numbers, at random) and the draw pile (of its known size).
    The generator is drawn afresh. It reads no history: a choice another player made that
    hints at their cards is not taken into account.
    """

    table: Table
    """The seats, board, deck and options of the game (public)."""
    start_space: int = 0
    """Where the event marker stands before it is placed (A7); no view shows it then."""

    @classmethod
    def of(cls, setup: Setup) -> AvantiSampler:
        """The sampler for a game started from ``setup``."""
        table = Table(len(setup.players), setup.board, setup.deck, setup.options)
        return cls(table, setup.start_space or 0)

    def sample_state(self, view: View, seat: int, rng: Stream) -> GameState:
        """A state with the view's every public and own fact, and the hidden cards dealt anew."""
        table = self.table
        players = table.players
        own_hand = view.hand or ()
        seen = set(own_hand) | set(view.discard)
        if view.laid is not None:
            seen.add(view.laid[0])
        unseen = list(rng.shuffled([card for card in table.deck.ids if card not in seen]))
        hands: list[tuple[int, ...]] = []
        laid: list[tuple[int, int] | None] = []
        for other in range(players):
            if other == seat:
                hands.append(tuple(own_hand))
                laid.append(view.laid)
                continue
            size = view.hand_sizes[other]
            hands.append(tuple(unseen[:size]))
            del unseen[:size]
            if view.has_laid[other]:
                card = unseen.pop()
                laid.append((card, rng.choice(table.numbers[card])))
            else:
                laid.append(None)
        if len(unseen) != view.draw_size:
            raise ValueError(
                f"the view does not add up: {len(unseen)} unseen cards are left for a draw "
                f"pile of {view.draw_size}"
            )
        turn = 0
        if view.phase is Phase.DRIVING:
            turn = view.order.index(view.to_act) if view.to_act is not None else len(view.order)
        return GameState(
            table=table,
            phase=view.phase,
            run=view.run,
            round=view.round,
            starting_seat=view.starting_seat,
            marker=view.marker if view.marker is not None else self.start_space,
            distances=view.distances,
            cash=view.cash,
            island=view.island,
            hands=tuple(hands),
            draw=tuple(unseen),
            discard=view.discard,
            laid=tuple(laid),
            quit=view.quit,
            order=view.order,
            turn=turn,
            ranking=view.ranking,
            invested=view.invested,
            winner=view.winner,
            rng=fresh_rng(rng),
        )


def reward(outcome: Outcome, seat: int) -> float:
    """1 for the winner (A20); others 0.25 times the share of the way to the dream island.

    The small share for progress lets a search tell a near miss from a rout.
    """
    if outcome.winner == seat:
        return 1.0
    best = max(outcome.island) or 1
    return 0.25 * outcome.island[seat] / best


STEP_VALUE = 2_500
"""What one island step is worth in monetas when a rollout is cut short (about its price)."""

SCALE = 2_000
"""How many monetas of lead make a cut-short rollout look like a likely win (about 73%)."""


def evaluate(start: GameState, state: GameState) -> tuple[float, ...] | None:
    """Score a rollout once the delivery run it started in is over (A18-A21), else ``None``.

    Each seat's wealth is its island space times :data:`STEP_VALUE` plus its cash; its reward
    is a logistic curve of its lead over the best other seat, so the richest seat scores above
    one half and the others below.
    """
    if state.phase is not Phase.INVESTING:
        return None
    if start.phase is Phase.INVESTING and state.run == start.run:
        return None
    wealth = [
        island * STEP_VALUE + cash for island, cash in zip(state.island, state.cash, strict=True)
    ]
    scores = []
    for seat, mine in enumerate(wealth):
        best_other = max(w for s, w in enumerate(wealth) if s != seat)
        scores.append(1 / (1 + math.exp(-(mine - best_other) / SCALE)))
    return tuple(scores)


def counts(events: tuple[Any, ...]) -> Mapping[str, int]:
    """How many delivery runs the game had."""
    return {"runs": sum(1 for event in events if isinstance(event, RunEnded))}


def _heuristic(setup: Setup, seat: int) -> AvantiBot:
    return AvantiBot(setup.board, seat)


KIT = GameKit(
    heuristic=_heuristic,
    sampler=AvantiSampler.of,
    reward=reward,
    iterations=100,
    counts=counts,
    evaluate=evaluate,
)
"""The bots of Avanti: :class:`AvantiBot`, and search over :class:`AvantiSampler` states."""
