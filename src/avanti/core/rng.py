"""A seeded random generator that is a value.

The generator lives inside a game's state as a frozen value: ``decide`` reads it and the event it
produces carries the random result, so ``evolve`` never draws. The stream is counter based: the
``k``-th random event of a game uses the sub-stream ``(seed, k)``; after it the state holds
``Rng(seed, k + 1)``. That makes every random result reproducible from the seed and the number of
random events before it, which is how a replayed log is checked against its setup.

The bits come from SplitMix64 and unbiased integers from rejection sampling: the results are the
same on every platform and Python version, and the global :mod:`random` state is never touched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from attrs import frozen

__all__ = ["Rng", "Stream"]

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


@frozen
class Rng:
    """The generator's state: the game's seed and how many random events came before.

    Part of every game state; hidden from every view (A30). ``Rng(seed=7)`` starts a fresh stream.
    """

    seed: int
    draws: int = 0

    def stream(self) -> Stream:
        """The random source for the next random event."""
        return Stream(self.seed, self.draws)

    def advanced(self) -> Rng:
        """The generator after one more random event (what ``evolve`` stores)."""
        return Rng(self.seed, self.draws + 1)
