"""Exact odds of Avanti mare!, and a Monte Carlo run of the ruleset to check them against.

The game has one real choice (M6: which other fish to move when a free fish's colour comes up),
so once a policy for that choice is fixed the game is a finite Markov chain over a small state
space (the boat, and each fish's place). :func:`odds` solves it exactly with rational numbers,
by memoised recursion; :func:`simulate` plays whole games through :meth:`Game.execute` with the
same policy, so the two can be compared.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Literal, get_args

from attrs import frozen

from avanti import core
from avanti.core.errors import InvalidArgument
from avanti.mare.commands import MoveFish
from avanti.mare.events import DieRolled
from avanti.mare.game import DEFAULT_OPTIONS, Game, new_game
from avanti.mare.setup import CAUGHT, FACES, FISH, SEA, CaughtFishRoll, FreeFishRoll, Options
from avanti.mare.state import GameState, Result

__all__ = ["POLICIES", "Odds", "Policy", "Tally", "choose", "odds", "simulate"]

Policy = Literal["closest-to-boat", "closest-to-sea", "random", "best-for-fish", "best-for-fishers"]
"""How the roller picks the fish to move after a free fish's colour (M6).

``closest-to-boat``: the fish in the river nearest the boat; ``closest-to-sea``: the one nearest
the sea; ``random``: each fish in the river with equal chance; ``best-for-fish``: the move that
maximises P(fish friends win) - P(fisher fans win); ``best-for-fishers``: the move that maximises
the reverse. The "best" policies play for that side whoever rolls: in the real game both sides
roll in turn and each would pick for itself, but here one side makes every choice, which bounds
what that side can get. Ties go to the fish nearest the boat, then to colour order.
"""

POLICIES: tuple[Policy, ...] = get_args(Policy)
"""Every policy name, in the order of the docs table."""

Key = tuple[int, tuple[int, ...]]
"""A position for the solver: the boat, and the fish places sorted (the fish are alike)."""


@frozen
class Odds:
    """The exact chances of each result (M8) and the expected number of rolls still to come.

    ``fish + fishers + draw == 1`` exactly. ``expected_rolls`` counts die rolls, not ``MoveFish``
    commands; it is 0 for a finished game.
    """

    fish: Fraction
    fishers: Fraction
    draw: Fraction
    expected_rolls: Fraction


@frozen
class _Value:
    fish: Fraction
    fishers: Fraction
    draw: Fraction
    rolls: Fraction

    @property
    def margin(self) -> Fraction:
        return self.fish - self.fishers


_ZERO = Fraction(0)
_ONE = Fraction(1)


def _in_river(place: int) -> bool:
    return CAUGHT < place < SEA


def _key(boat: int, places: tuple[int, ...] | list[int]) -> Key:
    return boat, tuple(sorted(places))


def _swum(places: tuple[int, ...], index: int) -> tuple[int, ...]:
    moved = list(places)
    moved[index] += 1
    return tuple(moved)


class _Solver:
    """The value of every position under one policy and one set of options."""

    def __init__(self, policy: Policy, options: Options) -> None:
        if policy not in POLICIES:
            raise InvalidArgument(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
        self.policy = policy
        self.options = options
        self.value: Callable[[Key], _Value] = cache(self._value)

    def _value(self, key: Key) -> _Value:
        boat, places = key
        if not any(_in_river(p) for p in places):
            free = places.count(SEA)
            result = Result.of(free, len(places) - free)
            return _Value(
                _ONE if result is Result.FISH else _ZERO,
                _ONE if result is Result.FISHERS else _ZERO,
                _ONE if result is Result.DRAW else _ZERO,
                _ZERO,
            )
        options = self.options
        outcomes: list[_Value] = []
        idle = 0  # faces that leave the position as it is (ignored rolls)
        boat_moves = len(options.boat_faces)
        for index, place in enumerate(places):  # one face per fish colour (M4, M6, M7)
            if _in_river(place):
                outcomes.append(self.value(_key(boat, _swum(places, index))))
            elif place == CAUGHT:
                if options.caught_fish_roll is CaughtFishRoll.BOAT:
                    boat_moves += 1
                else:
                    idle += 1
            elif options.free_fish_roll is FreeFishRoll.OTHER_FISH:
                outcomes.append(self.after_choice(boat, places))
            else:
                idle += 1
        idle += 2 - len(options.boat_faces)  # red or green left out of boat_faces
        if boat_moves:
            piece = boat + 1
            caught = tuple(CAUGHT if p == piece else p for p in places)
            outcomes.extend([self.value(_key(piece, caught))] * boat_moves)
        live = len(FACES) - idle
        # V = (sum of the moving faces' values + idle * V) / 6, solved for V.
        return _Value(
            sum((v.fish for v in outcomes), _ZERO) / live,
            sum((v.fishers for v in outcomes), _ZERO) / live,
            sum((v.draw for v in outcomes), _ZERO) / live,
            (len(FACES) + sum((v.rolls for v in outcomes), _ZERO)) / live,
        )

    def choices(self, boat: int, places: tuple[int, ...]) -> list[tuple[int, _Value]]:
        """Each fish in the river (by index into ``places``) and the value after moving it."""
        return [
            (i, self.value(_key(boat, _swum(places, i))))
            for i, place in enumerate(places)
            if _in_river(place)
        ]

    def pick(self, boat: int, places: tuple[int, ...], random_pick: int = 0) -> int:
        """The index of the fish the policy moves (``random_pick`` serves the random policy)."""
        options = self.choices(boat, places)
        policy = self.policy
        if policy == "random":
            return options[random_pick % len(options)][0]
        if policy == "closest-to-boat":
            return min(options, key=lambda o: (places[o[0]], o[0]))[0]
        if policy == "closest-to-sea":
            return min(options, key=lambda o: (-places[o[0]], o[0]))[0]
        sign = 1 if policy == "best-for-fish" else -1
        return min(options, key=lambda o: (-sign * o[1].margin, places[o[0]], o[0]))[0]

    def after_choice(self, boat: int, places: tuple[int, ...]) -> _Value:
        """The value of a position where the roller now moves a fish by the policy (M6)."""
        if self.policy != "random":
            return self.value(_key(boat, _swum(places, self.pick(boat, places))))
        values = [v for _, v in self.choices(boat, places)]
        n = len(values)
        return _Value(
            sum((v.fish for v in values), _ZERO) / n,
            sum((v.fishers for v in values), _ZERO) / n,
            sum((v.draw for v in values), _ZERO) / n,
            sum((v.rolls for v in values), _ZERO) / n,
        )


@cache
def _solver(policy: Policy, options: Options) -> _Solver:
    return _Solver(policy, options)


def odds(
    policy: Policy = "closest-to-boat",
    options: Options | None = None,
    state: GameState | None = None,
) -> Odds:
    """The exact chances of each result (M8) under ``policy`` for the M6 choice.

    From the start of a game with ``options`` (the rulebook's by default), or from ``state``,
    which carries its own options (giving different ``options`` too raises ``InvalidArgument``). If
    ``state`` owes a ``MoveFish``, the policy makes that move first. The "best" policies choose
    for their side whoever rolls; see :data:`Policy`.

    :raises InvalidArgument: an unknown policy, or options that contradict the state's.
    """
    if state is not None and options is not None and options != state.options:
        raise InvalidArgument(
            "the state carries its own options; leave options out or pass the same"
        )
    chosen = state.options if state is not None else options or DEFAULT_OPTIONS
    solver = _solver(policy, chosen)
    if state is None:
        state = new_game(["Ann"], options=chosen).state
    if state.move_due:
        value = solver.after_choice(state.boat, state.fish)
    else:
        value = solver.value(_key(state.boat, state.fish))
    return Odds(value.fish, value.fishers, value.draw, value.rolls)


def choose(state: GameState, policy: Policy, stream: core.Stream | None = None) -> MoveFish:
    """The ``MoveFish`` that ``policy`` plays in ``state``, which must owe one (M6).

    ``stream`` supplies the random policy's draw (the first fish in the river if left out).
    """
    if not state.move_due:
        raise InvalidArgument("no MoveFish is due in this state")
    solver = _solver(policy, state.options)
    choices = len(state.in_river())
    draw = stream.below(choices) if stream is not None and policy == "random" else 0
    index = solver.pick(state.boat, state.fish, draw)
    return MoveFish(state.turn, FISH[index])


@frozen
class Tally:
    """What :func:`simulate` counted: games, results (M8), and rolls in all and squared."""

    games: int
    fish: int
    fishers: int
    draw: int
    rolls: int
    rolls_squared: int

    @property
    def mean_rolls(self) -> float:
        """The average number of die rolls per game."""
        return self.rolls / self.games

    @property
    def rolls_error(self) -> float:
        """The standard error of :attr:`mean_rolls`, from the sample variance."""
        n = self.games
        if n < 2:
            return math.nan
        variance = (self.rolls_squared - self.rolls**2 / n) / (n - 1)
        return math.sqrt(variance / n)

    def error(self, p: float) -> float:
        """The standard error of a share with true value ``p`` over these games."""
        return math.sqrt(p * (1 - p) / self.games)


def simulate(
    games: int,
    policy: Policy = "closest-to-boat",
    options: Options | None = None,
    *,
    seed: int = 0,
    players: int = 2,
) -> Tally:
    """Play ``games`` whole games with :meth:`Game.execute`, making each M6 choice by ``policy``.

    Game ``i`` uses seed ``seed + i``; the random policy draws from a separate stream of the same
    seed, so the games' own dice are untouched. Two runs meant to be independent need seeds at
    least ``games`` apart: ``seed=1`` and ``seed=2`` share all but one game. For benchmarks and
    soak runs as well as tests.

    :raises InvalidArgument: ``games`` is below 1, or the policy is unknown.
    """
    if games < 1:
        raise InvalidArgument(f"simulate at least one game, not {games}")
    chosen = options or DEFAULT_OPTIONS
    names = [f"P{n}" for n in range(players)]
    counts = dict.fromkeys(Result, 0)
    rolls = rolls_squared = 0
    for i in range(games):
        game: Game = new_game(names, seed=seed + i, options=chosen)
        picks = core.Rng(seed + i, 1 << 40).stream()
        while not game.is_over:
            state = game.state
            command = choose(state, policy, picks) if state.move_due else game.legal_commands()[0]
            game = game.execute(command)
        result = game.state.result
        assert result is not None
        counts[result] += 1
        n = sum(isinstance(event, DieRolled) for event in game.events)
        rolls += n
        rolls_squared += n * n
    return Tally(
        games=games,
        fish=counts[Result.FISH],
        fishers=counts[Result.FISHERS],
        draw=counts[Result.DRAW],
        rolls=rolls,
        rolls_squared=rolls_squared,
    )
