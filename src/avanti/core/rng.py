"""A seeded random generator that is a value.

The generator lives inside a game's state as a frozen value: ``decide`` reads it and the event it
produces carries the random result, so ``evolve`` never draws. The stream is counter based: the
``k``-th random event of a game uses the sub-stream ``(seed, k)``; after it the state holds
``Rng(seed, k + 1)``. That makes every random result reproducible from the seed and the number of
random events before it, which is how a replayed log is checked against its setup.

The bits come from SplitMix64 and unbiased integers from rejection sampling: the results are the
same on every platform and Python version, and the global :mod:`random` state is never touched.

**Scripted draws.** Search and learning tools (OpenSpiel's chance nodes) need to choose each
random result themselves rather than take it from the seed. Inside ``with scripted(outcomes):``
every :meth:`Rng.stream` of the current thread (a game's ``start`` shuffling its decks, a
``decide`` rolling a die) returns a :class:`ScriptedStream` that gives ``outcomes`` in order as
the results of :meth:`Stream.below` (``shuffled`` and ``choice`` are built on it) and raises
:class:`DrawNeeded` with the bound ``n`` when it needs one more. A shuffle that runs out raises it
once, with the bounds of every draw the shuffle still needs (``n, n - 1, ..., 2``: they do not
depend on the results), so that a tool can choose them all before running the command again: a
shuffle of ``k`` cards costs one more run of the command, not ``k - 1``. No game code changes for
it, and outside the block nothing does: ordinary play draws only from the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from contextvars import ContextVar, Token
from typing import TypeVar

from attrs import frozen

from avanti.core.errors import InvalidArgument

__all__ = ["DrawNeeded", "Rng", "Script", "ScriptedStream", "Stream", "scripted"]

T = TypeVar("T")

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


# ``below`` runs for every card of a shuffle and every bot's choice, so it steps the generator
# inline (SplitMix64: add the golden gamma, mix) instead of calling ``bits64`` and ``_mix``; the
# results are the same draws in the same order (tests pin them).


class Stream:
    """A short-lived mutable source of random numbers for one random event.

    Obtained from :meth:`Rng.stream`; use it inside ``decide`` only, and write what it gives you
    into the event.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int, counter: int) -> None:
        self._state = _mix((seed & _MASK) ^ _mix((counter * _GOLDEN + (seed >> 64)) & _MASK))

    def bits64(self) -> int:
        """Return 64 random bits."""
        self._state = (self._state + _GOLDEN) & _MASK
        return _mix(self._state)

    def below(self, n: int) -> int:
        """Return an integer uniform in ``range(n)``; ``n`` must be positive.

        Draws that fall in the last, incomplete multiple of ``n`` below 2**64 are drawn again,
        so every result is equally likely.
        """
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = _TWO64 - _TWO64 % n
        state = self._state
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * _M1) & _MASK
            z = ((z ^ (z >> 27)) * _M2) & _MASK
            z ^= z >> 31
            if z < limit:
                self._state = state
                return z % n

    def shuffled(self, items: Iterable[T]) -> tuple[T, ...]:
        """Return the items in a uniformly random order (Fisher-Yates, from the last item)."""
        out = list(items)
        below = self.below
        for i in range(len(out) - 1, 0, -1):
            j = below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        """Return one of the items, each with equal probability."""
        return items[self.below(len(items))]


class DrawNeeded(Exception):
    """A scripted stream ran out: the command (or the start) needs one more result, uniform in
    ``range(bound)``. Not an error of the game: whoever set the script chooses the result and
    tries again with it appended (an OpenSpiel chance node with ``bound`` outcomes).

    ``ahead`` holds the bounds of the draws known to follow this one before anything else can
    happen (the rest of a shuffle): whoever set the script may choose those too before trying
    again."""

    def __init__(self, bound: int, ahead: tuple[int, ...] = ()) -> None:
        super().__init__(f"one more random result is needed, from range({bound})")
        self.bound = bound
        """How many equally likely results the draw has: the ``n`` of ``below(n)``."""
        self.ahead = ahead
        """The bounds of the draws that follow this one whatever its result (a shuffle's
        ``n - 1, ..., 2``), in order; empty for a lone draw."""


class Script:
    """The results a scripted block hands out, and the bounds they were drawn under.

    ``outcomes`` are given in order; :attr:`bounds` records the ``n`` of each ``below(n)`` that
    took one, so a caller can check each result was in range and count what was used.
    """

    __slots__ = ("bounds", "outcomes")

    def __init__(self, outcomes: Sequence[int]) -> None:
        self.outcomes: tuple[int, ...] = tuple(outcomes)
        """Every result to give, first to last."""
        self.bounds: list[int] = []
        """The bound of each result given so far (its length is how many were used)."""

    @property
    def used(self) -> int:
        """How many of :attr:`outcomes` were given out."""
        return len(self.bounds)


class ScriptedStream(Stream):
    """A stream whose results come from a :class:`Script` instead of the seed (see the module).

    :meth:`below` gives the script's next result (refusing one outside ``range(n)`` with
    :class:`~avanti.core.errors.InvalidArgument`) or raises :class:`DrawNeeded` when the script
    is used up. Unbounded draws (:meth:`bits64`) have no chance node of finite size and are
    refused.
    """

    __slots__ = ("_script",)

    def __init__(self, script: Script) -> None:
        self._state = 0
        self._script = script

    def bits64(self) -> int:
        """Refused: a scripted stream gives only bounded results (``below``)."""
        raise TypeError("a scripted stream gives only bounded draws (below, shuffled, choice)")

    def below(self, n: int) -> int:
        """The script's next result, which must lie in ``range(n)``.

        :raises DrawNeeded: the script is used up (with ``bound == n``).
        :raises InvalidArgument: the script's next result is not in ``range(n)``.
        """
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        script = self._script
        index = len(script.bounds)
        if index >= len(script.outcomes):
            raise DrawNeeded(n)
        outcome = script.outcomes[index]
        if not 0 <= outcome < n:
            raise InvalidArgument(f"scripted result {outcome!r} is not in range({n})")
        script.bounds.append(n)
        return outcome

    def shuffled(self, items: Iterable[T]) -> tuple[T, ...]:
        """The items in the order the script's results give (Fisher-Yates from the last item,
        as :meth:`Stream.shuffled`).

        :raises DrawNeeded: the script runs out within the shuffle: ``bound`` is the next
            draw's, ``ahead`` those of every later draw of the shuffle.
        :raises InvalidArgument: a result is out of its draw's range.
        """
        out = list(items)
        script = self._script
        index = len(script.bounds)
        left = len(script.outcomes) - index
        if left < len(out) - 1:
            bounds = tuple(range(len(out) - left, 1, -1))
            raise DrawNeeded(bounds[0], bounds[1:])
        below = self.below
        for i in range(len(out) - 1, 0, -1):
            j = below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)


_SCRIPT: ContextVar[Script | None] = ContextVar("avanti_rng_script", default=None)


class scripted(AbstractContextManager[Script]):
    """Within the block, every :meth:`Rng.stream` (in this thread or task) draws from
    ``outcomes`` in order, then raises :class:`DrawNeeded` (see the module). Yields the
    :class:`Script`, to see how many results were used.

    A class rather than a generator: a search enters one for every step it tries, and this
    costs a third of ``contextlib.contextmanager``'s overhead."""

    __slots__ = ("_script", "_token")
    _token: Token[Script | None]

    def __init__(self, outcomes: Sequence[int]) -> None:
        self._script = Script(outcomes)

    def __enter__(self) -> Script:
        """Start handing out the script's results; the :class:`Script`."""
        self._token = _SCRIPT.set(self._script)
        return self._script

    def __exit__(self, *exc: object) -> None:
        """Back to the seed's draws (or the enclosing script)."""
        _SCRIPT.reset(self._token)


@frozen
class Rng:
    """The generator's state: the game's seed and how many random events came before.

    Part of every game state; hidden from every view (A30). ``Rng(seed=7)`` starts a fresh stream.
    """

    seed: int
    draws: int = 0

    def stream(self) -> Stream:
        """The random source for the next random event (inside :func:`scripted`, the script's)."""
        script = _SCRIPT.get()
        if script is None:
            return Stream(self.seed, self.draws)
        return ScriptedStream(script)

    def advanced(self) -> Rng:
        """The generator after one more random event (what ``evolve`` stores)."""
        return Rng(self.seed, self.draws + 1)
