"""Seeds for many games from one: a seed sequence, in pure Python.

A simulation of ``n`` games from a root seed gives game ``i`` the seed
``SeedSequence(root).child(i).seed`` and its bots the seed of that node's first child,
``SeedSequence(root).child(i).child(0).seed``, the way ``numpy.random.SeedSequence.spawn`` hands
each child a key of its own. A seed is the first 64 bits of the BLAKE2b hash of the root and the
key path, each number written with its sign and length, so two different (root, path) pairs never
hash the same input.

Why not ``root + i``: runs from the seeds 1 and 2 would then share every game but one. Here game
seeds behave as independent 64-bit random numbers: among ``n`` seeds the chance that any two
agree is about ``n * n / 2**65``, under one in a billion for two runs of 100,000 games each
(``2e5 ** 2 / 2**65`` is ``1.1e-9``). A seed depends on the root and the game's index only, never
on which process or machine plays the game, so a run gives the same games on any engine.
"""

from __future__ import annotations

import hashlib

from attrs import frozen

from avanti.core.errors import InvalidArgument

__all__ = ["SeedSequence", "bot_seed", "game_seed"]

_PERSON = b"avanti.seeds"
"""BLAKE2b's personalisation string: these hashes differ from any other use of BLAKE2b."""


def _word(number: int) -> bytes:
    """``number`` as a sign byte, a 2-byte length and its magnitude, big-endian: injective."""
    magnitude = abs(number)
    body = magnitude.to_bytes((magnitude.bit_length() + 7) // 8, "big")
    return (b"-" if number < 0 else b"+") + len(body).to_bytes(2, "big") + body


@frozen
class SeedSequence:
    """A root seed and a path of child indices: a node in a tree of independent seeds.

    ``SeedSequence(7).child(3)`` is the fourth child of the root 7; its :attr:`seed` is a 64-bit
    number that shares nothing with its siblings' or with those of any other root (beyond the
    chance of a 64-bit collision). Values, not generators: the same node always gives the same
    seed.
    """

    root: int
    path: tuple[int, ...] = ()

    def child(self, index: int) -> SeedSequence:
        """The ``index``-th child (``index >= 0``)."""
        if index < 0:
            raise InvalidArgument(f"a child index is at least 0, not {index}")
        return SeedSequence(self.root, (*self.path, index))

    def spawn(self, start: int, stop: int) -> tuple[SeedSequence, ...]:
        """The children ``start`` to ``stop - 1``."""
        return tuple(self.child(index) for index in range(start, stop))

    @property
    def seed(self) -> int:
        """This node's seed: 64 bits of ``BLAKE2b(root, *path)``, from 0 to ``2**64 - 1``."""
        data = _word(self.root) + _word(len(self.path)) + b"".join(map(_word, self.path))
        digest = hashlib.blake2b(data, digest_size=8, person=_PERSON).digest()
        return int.from_bytes(digest, "big")


def game_seed(root: int, index: int) -> int:
    """The seed of game ``index`` of a run from ``root``."""
    return SeedSequence(root, (index,)).seed


def bot_seed(root: int, index: int) -> int:
    """The seed of the bots' stream in game ``index`` of a run from ``root``."""
    return SeedSequence(root, (index, 0)).seed
