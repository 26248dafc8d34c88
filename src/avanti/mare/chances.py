"""Exact odds of Avanti mare!, and a Monte Carlo run of the ruleset to check them against.

The game has one real choice (M6: after a free fish's colour, which other fish to move, or, unless
the options make the move owed, none), so once a policy for that choice is fixed the game is a
finite Markov chain over a small state space (the boat, and each fish's place). :func:`odds`
solves it exactly with rational numbers, by memoised recursion; :func:`simulate` plays whole games
through :meth:`Game.execute` with the same policy, so the two can be compared.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Literal, get_args

from attrs import frozen

from avanti import core
from avanti.core.errors import InvalidArgument
from avanti.core.limits import new_seed
from avanti.mare.commands import MoveFish, SkipMove
from avanti.mare.events import DieRolled
from avanti.mare.game import DEFAULT_OPTIONS, Game, new_game
from avanti.mare.rules import check_options
from avanti.mare.setup import (
    CAUGHT,
    FACES,
    FISH,
    MAX_PLAYERS,
    MAX_SEED,
    PIECES,
    SEA,
    START,
    CaughtFishRoll,
    FreeFishRoll,
    Options,
)
from avanti.mare.state import GameState, Result

__all__ = ["POLICIES", "Odds", "Policy", "Tally", "choose", "odds", "simulate"]

Policy = Literal["closest-to-boat", "closest-to-sea", "random", "best-for-fish", "best-for-fishers"]
"""How the roller answers a free fish's colour (M6): which other fish to move and, where the
options let the move be declined (the default), whether to decline instead.

``closest-to-boat``: the fish in the river nearest the boat; never declines. ``closest-to-sea``:
the one nearest the sea; never declines. (These two play as the published simulators do, which
always make the move.) ``random``: each legal choice with equal chance, as a random bot plays:
each fish in the river and, where the move may be declined, declining too. ``best-for-fish``: the
choice that maximises P(fish friends win) - P(fisher fans win); it declines where leaving every
fish where it is gives a larger margin than any move. ``best-for-fishers``: the choice that
maximises the reverse; it declines where that gives a smaller margin than any move. The "best"
policies play for that side whoever rolls: in the real game both sides roll in turn and each would
pick for itself, but here one side makes every choice, which bounds what that side can get. Ties
go to a move over declining, then to the fish nearest the boat, then to colour order.

Under the owed reading (:attr:`~avanti.mare.Options.free_fish_move_owed`) no policy declines;
``closest-to-boat``, ``closest-to-sea`` and (as it turns out) ``best-for-fish`` play the same games
under either reading.
"""

POLICIES: tuple[Policy, ...] = get_args(Policy)
"""Every policy name, in the order of the docs table."""

Key = tuple[int, tuple[int, ...]]
"""A position for the solver: the boat, and the fish places sorted (the fish are alike)."""

_POSITIONS = sum(math.comb(SEA + len(FISH) - boat, len(FISH)) for boat in range(PIECES + 1))
"""How many positions there are (6187): with the boat on ``boat`` (0-11, M5), each fish is caught,
free, or on one of the ``PIECES - boat`` pieces left (M1), and the fish are alike. A solver's
caches hold at most this many entries, so they never forget a value while solving."""
_SOLVERS = 32
"""How many solvers are kept at once, the least recently used dropped first. There is one per
policy and options (5 policies and 90 readings of M9 make 450); each holds at most
:data:`_POSITIONS` values, about 6 MB when every position is asked for and 3 MB for the odds from
the start, so the cache stays under 200 MB whatever is asked."""


@frozen
class Odds:
    """The exact chances of each result (M8) and the expected number of rolls still to come.

    ``fish + fishers + draw == 1`` exactly. ``expected_rolls`` counts die rolls, not ``MoveFish``
    or ``SkipMove`` commands; it is 0 for a finished game.
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


def _mean(values: list[tuple[Fraction, _Value]], rolls: Fraction, live: Fraction) -> _Value:
    """Weighted values over ``live`` faces, plus ``rolls`` rolls: a position's solved equation."""
    return _Value(
        sum((w * v.fish for w, v in values), _ZERO) / live,
        sum((w * v.fishers for w, v in values), _ZERO) / live,
        sum((w * v.draw for w, v in values), _ZERO) / live,
        (rolls + sum((w * v.rolls for w, v in values), _ZERO)) / live,
    )


@frozen
class _Faces:
    """What the six faces do in one position, apart from the policy's M6 choice.

    ``fixed`` holds the value after each face whose effect is fixed (a swim, a boat move), one
    entry per face; ``free`` counts the faces of free fish, which offer the M6 choice; ``idle``
    the faces the options ignore, which leave the position as it is.
    """

    fixed: tuple[_Value, ...]
    free: int
    idle: int


class _Solver:
    """The value of every position under one policy and one set of options, both checked by
    :func:`_solver`, the one road to a solver."""

    def __init__(self, policy: Policy, options: Options) -> None:
        self.policy = policy
        self.options = options
        self.may_decline = not options.free_fish_move_owed
        self.value: Callable[[Key], _Value] = lru_cache(maxsize=_POSITIONS)(self._value)
        self.decided: Callable[[int, tuple[int, ...]], int | None] = lru_cache(maxsize=_POSITIONS)(
            self._decided
        )

    def faces(self, boat: int, places: tuple[int, ...]) -> _Faces:
        """The faces of a position with a fish in the river (M4-M7, M9)."""
        options = self.options
        fixed: list[_Value] = []
        free = idle = 0
        boat_moves = len(options.boat_faces)
        for index, place in enumerate(places):  # one face per fish colour (M4, M6, M7)
            if _in_river(place):
                fixed.append(self.value(_key(boat, _swum(places, index))))
            elif place == CAUGHT:
                if options.caught_fish_roll is CaughtFishRoll.BOAT:
                    boat_moves += 1
                else:
                    idle += 1
            elif options.free_fish_roll is FreeFishRoll.OTHER_FISH:
                free += 1
            else:
                idle += 1
        idle += 2 - len(options.boat_faces)  # red or green left out of boat_faces
        if boat_moves:
            piece = boat + 1
            caught = tuple(CAUGHT if p == piece else p for p in places)
            fixed.extend([self.value(_key(piece, caught))] * boat_moves)
        return _Faces(tuple(fixed), free, idle)

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
        faces = self.faces(boat, places)
        weighted = [(_ONE, v) for v in faces.fixed]
        stay = Fraction(faces.idle)  # faces after which the position is the same again
        if faces.free:
            declined, moves = self.choice(boat, places, faces)
            stay += faces.free * declined
            weighted += [(faces.free * w, v) for w, v in moves]
        # V = (sum of the weighted values + stay * V) / 6, solved for V; each face costs a roll.
        return _mean(weighted, Fraction(len(FACES)), len(FACES) - stay)

    def choices(self, boat: int, places: tuple[int, ...]) -> list[tuple[int, _Value]]:
        """Each fish in the river (by index into ``places``) and the value after moving it."""
        return [
            (i, self.value(_key(boat, _swum(places, i))))
            for i, place in enumerate(places)
            if _in_river(place)
        ]

    def declines(self, boat: int, places: tuple[int, ...], faces: _Faces | None = None) -> bool:
        """Whether a "best" policy declines the move here (M6): declining leaves the position
        as it is until a face with a fixed effect comes up, so it is worth the mean of those
        faces' values; the policy declines where that beats its best move for its side."""
        if not self.may_decline or self.policy not in ("best-for-fish", "best-for-fishers"):
            return False
        sign = 1 if self.policy == "best-for-fish" else -1
        fixed = (faces or self.faces(boat, places)).fixed
        stay = sum((v.margin for v in fixed), _ZERO) / len(fixed)
        best = max(sign * v.margin for _, v in self.choices(boat, places))
        return sign * stay > best

    def pick(self, boat: int, places: tuple[int, ...], random_pick: int = 0) -> int | None:
        """The index of the fish the policy moves, or ``None`` when it declines (M6).

        ``random_pick`` serves the random policy: the fish in the river in colour order, then
        declining (where the options allow it), each one pick in turn.
        """
        if self.policy != "random":
            return self.decided(boat, places)
        options = self.choices(boat, places)
        pick = random_pick % (len(options) + self.may_decline)
        return None if pick == len(options) else options[pick][0]

    def _decided(self, boat: int, places: tuple[int, ...]) -> int | None:
        """:meth:`pick` for the policies that draw nothing, remembered by position."""
        options = self.choices(boat, places)
        policy = self.policy
        if policy == "closest-to-boat":
            return min(options, key=lambda o: (places[o[0]], o[0]))[0]
        if policy == "closest-to-sea":
            return min(options, key=lambda o: (-places[o[0]], o[0]))[0]
        if self.declines(boat, places):
            return None
        sign = 1 if policy == "best-for-fish" else -1
        return min(options, key=lambda o: (-sign * o[1].margin, places[o[0]], o[0]))[0]

    def choice(
        self, boat: int, places: tuple[int, ...], faces: _Faces
    ) -> tuple[Fraction, list[tuple[Fraction, _Value]]]:
        """The chance that the policy declines, and each move it makes with its chance (M6)."""
        if self.policy == "random":
            values = [v for _, v in self.choices(boat, places)]
            share = Fraction(1, len(values) + self.may_decline)
            return (share if self.may_decline else _ZERO), [(share, v) for v in values]
        if self.declines(boat, places, faces):
            return _ONE, []
        index = self.pick(boat, places)
        assert index is not None  # only the random policy and declines() decline
        return _ZERO, [(_ONE, self.value(_key(boat, _swum(places, index))))]

    def after_choice(self, boat: int, places: tuple[int, ...]) -> _Value:
        """The value of a position where the roller now answers a free fish's colour (M6)."""
        declined, moves = self.choice(boat, places, self.faces(boat, places))
        weighted = list(moves)
        if declined:
            weighted.append((declined, self.value(_key(boat, places))))
        return _mean(weighted, _ZERO, _ONE)


@lru_cache(maxsize=_SOLVERS)
def _cached_solver(policy: Policy, options: Options) -> _Solver:
    return _Solver(policy, options)


def _solver(policy: object, options: Options) -> _Solver:
    """The solver for ``policy`` and ``options``, both checked before anything is built or
    cached for them.

    :raises InvalidArgument: an unknown policy.
    :raises InvalidSetup: options that are no reading of the rules (M9).
    """
    if type(policy) is not str or policy not in POLICIES:
        shown = repr(policy) if type(policy) is str and len(policy) <= 40 else type(policy).__name__
        raise InvalidArgument(f"unknown policy {shown}; choose one of {', '.join(POLICIES)}")
    check_options(options)
    return _cached_solver(policy, options)


def _check_position(state: GameState) -> None:
    """Refuse a state that no game reaches, before the solver caches anything for it.

    The boat has taken 0 to 11 pieces (M5); each of the four fish is caught, free, or on a piece
    still in front of the boat (M1, M4, M5); a move is offered only while a fish swims (M6, M8).

    :raises InvalidArgument: the state is not such a position (the message names the field).
    """
    if type(state) is not GameState:
        raise InvalidArgument(f"state must be an avanti.mare.GameState, not {type(state).__name__}")
    boat = state.boat
    if type(boat) is not int or not 0 <= boat <= PIECES:
        raise InvalidArgument(f"M5: state.boat must be an int from 0 to {PIECES}")
    places = state.fish
    if type(places) is not tuple or len(places) != len(FISH):
        raise InvalidArgument(f"M1: state.fish must be a tuple of {len(FISH)} places")
    for fish, place in zip(FISH, places, strict=True):
        if type(place) is not int or not (place in (CAUGHT, SEA) or boat < place <= PIECES):
            raise InvalidArgument(
                f"M1: the {fish} fish must be caught ({CAUGHT}), free ({SEA}) or on a piece "
                f"from {boat + 1} to {PIECES}"
            )
    if type(state.move_due) is not bool:
        raise InvalidArgument("M6: state.move_due must be True or False")
    if state.move_due and not any(_in_river(place) for place in places):
        raise InvalidArgument("M6: a move is offered only while a fish is in the river")


def odds(
    policy: Policy = "closest-to-boat",
    options: Options | None = None,
    state: GameState | None = None,
) -> Odds:
    """The exact chances of each result (M8) under ``policy`` for the M6 choice.

    From the start of a game with ``options`` (the rulebook's by default: the move M6 offers may
    be declined), or from ``state``, which carries its own options (giving different ``options``
    too raises ``InvalidArgument``). If ``state`` has a move offered, the policy answers it first:
    a move, or declining where the options allow it. Each policy's rule for declining is in
    :data:`Policy`; the "best" policies choose for their side whoever rolls.

    Everything is checked before a solver is built or cached for the options, or a position
    stored in one.

    :raises InvalidArgument: an unknown policy, options that contradict the state's, or a state
        that no game reaches (a boat or fish off the river, M1, M5).
    :raises InvalidSetup: options that are no reading of the rules (M9).
    """
    if state is not None:
        _check_position(state)
        if options is not None and options != state.options:
            raise InvalidArgument(
                "the state carries its own options; leave options out or pass the same"
            )
    chosen = state.options if state is not None else DEFAULT_OPTIONS if options is None else options
    solver = _solver(policy, chosen)
    if state is None:
        value = solver.value(_key(0, (START,) * len(FISH)))  # the river of M1
    elif state.move_due:
        value = solver.after_choice(state.boat, state.fish)
    else:
        value = solver.value(_key(state.boat, state.fish))
    return Odds(value.fish, value.fishers, value.draw, value.rolls)


def choose(
    state: GameState, policy: Policy, stream: core.Stream | None = None
) -> MoveFish | SkipMove:
    """The ``MoveFish`` or ``SkipMove`` that ``policy`` plays in ``state``, which must have a move
    offered (M6). Each policy's rule for declining is in :data:`Policy`.

    ``stream`` supplies the random policy's draw, one of the fish in the river or declining (the
    first fish in the river if left out).

    :raises InvalidArgument: no move is offered, an unknown policy, or a state no game reaches.
    :raises InvalidSetup: the state's options are no reading of the rules (M9).
    """
    _check_position(state)
    if not state.move_due:
        raise InvalidArgument("no MoveFish is due in this state")
    solver = _solver(policy, state.options)
    choices = len(state.in_river()) + solver.may_decline
    draw = stream.below(choices) if stream is not None and policy == "random" else 0
    index = solver.pick(state.boat, state.fish, draw)
    return SkipMove(state.turn) if index is None else MoveFish(state.turn, FISH[index])


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
    seed: int | None = None,
    players: int = 2,
) -> Tally:
    """Play ``games`` whole games with :meth:`Game.execute`, making each M6 choice by ``policy``
    (a move or, where ``options`` allow it, declining).

    Game ``i`` uses seed ``seed + i``; the random policy draws from a separate stream of the same
    seed, so the games' own dice are untouched. Left out, ``seed`` is drawn afresh by
    :func:`avanti.core.limits.new_seed`, as for a game a server deals; pass one to repeat a run.
    Two runs meant to be independent need seeds at least ``games`` apart: ``seed=1`` and
    ``seed=2`` share all but one game. For benchmarks and soak runs as well as tests.

    Every argument is checked before the first game is dealt.

    :raises InvalidArgument: ``games`` is below 1, ``players`` is not 1 to 6 (M2), a seed
        ``seed + games - 1`` is out of range (M3), or the policy is unknown.
    :raises InvalidSetup: options that are no reading of the rules (M9).
    """
    if type(games) is not int or games < 1:
        shown = games if type(games) is int and games > -1000 else type(games).__name__
        raise InvalidArgument(f"simulate at least one game, not {shown}")
    if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
        raise InvalidArgument(f"M2: simulate games of 1 to {MAX_PLAYERS} players")
    seed = new_seed() if seed is None else seed
    if type(seed) is not int or not -MAX_SEED < seed < MAX_SEED - games + 1:
        raise InvalidArgument("M3: the seeds seed to seed + games - 1 must lie within MAX_SEED")
    chosen = DEFAULT_OPTIONS if options is None else options
    _solver(policy, chosen)  # the policy and the options, checked before any game is played
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
