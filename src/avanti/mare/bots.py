"""Bots for Avanti mare!: the side-aware heuristic, the exact state sampler, and the game's kit.

The only choice in the game comes after a free fish's colour (M6): which other fish to move, or
(unless the options make the move owed) none; every other command is a forced ``Roll``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from attrs import frozen

from avanti.core.bots import GameKit
from avanti.core.rng import Rng, Stream
from avanti.core.search import fresh_rng
from avanti.mare import Command, GameState, MoveFish, Outcome, Setup, Side, SkipMove, View, odds

__all__ = ["KIT", "MareBot", "MareSampler", "reward"]


@frozen
class MareBot:
    """Side-aware M6 choice: the move (or none) that is best for your own side, by the exact odds.

    After a free fish's colour the roller may move one of the fish still in the river, or
    decline (M6). For each such choice the bot rebuilds the resulting position from the view (the
    river as it is, for a declined move) and asks :func:`avanti.mare.odds` (``closest-to-boat``
    for later choices) for its exact chances: a fish friend plays the choice with the best margin
    P(fish friends win) - P(fisher fans win), a fisher fan the choice with the worst. Ties go to a
    move over declining, then to the fish nearest the boat, then colour order. A seat without a
    side (a spectator's view) plays as a fish friend. Every other decision is forced.
    """

    seat: int

    def choose(self, view: View, legal_commands: Sequence[Command], rng: Stream) -> Command:
        """The side-aware choice among ``MoveFish`` and ``SkipMove``; the only command otherwise."""
        choices = [c for c in legal_commands if isinstance(c, MoveFish | SkipMove)]
        if len(choices) < 2:
            return legal_commands[0]
        side = view.sides[self.seat] if 0 <= self.seat < len(view.sides) else None
        sign = -1 if side is Side.FISHER_FANS else 1

        def key(choice: MoveFish | SkipMove) -> tuple[Fraction, int, int]:
            if isinstance(choice, SkipMove):
                return (-sign * _margin(view, None), 1, 0)
            return (-sign * _margin(view, choice), 0, view.fish[choice.fish.slot])

        return min(choices, key=key)


def _margin(view: View, move: MoveFish | None) -> Fraction:
    """P(fish friends win) - P(fisher fans win) once ``move`` is made (``None``: once the move is
    declined and every fish stays), exactly (M6, M8)."""
    places = list(view.fish)
    if move is not None:
        places[move.fish.slot] += 1
    after = GameState(
        sides=view.sides,
        options=view.options,
        boat=view.boat,
        fish=tuple(places),
        turn=view.turn,
        move_due=False,
        result=None,
        rng=Rng(0),
    )
    chances = odds("closest-to-boat", state=after)
    return chances.fish - chances.fishers


@frozen
class MareSampler:
    """The state behind a view of Avanti mare!: exact, since the table is public (M3).

    Only the generator is hidden from players; it is drawn afresh, so the dice to come are as
    unknown to the search as to the player.
    """

    def sample_state(self, view: View, seat: int, rng: Stream) -> GameState:
        """The state with the view's every fact and an unforeseeable generator."""
        v = view
        return GameState(
            sides=v.sides,
            options=v.options,
            boat=v.boat,
            fish=v.fish,
            turn=v.turn,
            move_due=v.move_due,
            result=v.result,
            rng=fresh_rng(rng),
        )


def reward(outcome: Outcome, seat: int) -> float:
    """1 when the seat's side won, 0.5 for a draw (two and two, M8), else 0."""
    if outcome.winner is None:
        return 0.5
    return 1.0 if seat in outcome.winners else 0.0


def _heuristic(setup: Setup, seat: int) -> MareBot:
    return MareBot(seat)


def _sampler(setup: Setup) -> MareSampler:
    return MareSampler()


KIT = GameKit(
    heuristic=_heuristic,
    sampler=_sampler,
    reward=reward,
    iterations=200,
)
"""The bots of Avanti mare!: :class:`MareBot`, and search over :class:`MareSampler` states."""
