"""The seed sequence: each game's seed is a hash of the root seed and the game's index."""

from __future__ import annotations

import hashlib

import pytest

from avanti.bots.seeds import SeedSequence, bot_seed, game_seed
from avanti.core.errors import InvalidArgument


def test_a_seed_is_blake2b_of_the_root_and_the_path() -> None:
    # The root 7 and the path (3,), each written as a sign, a 2-byte length and the magnitude:
    # root "+", 1 byte, 7; path length "+", 1 byte, 1; index "+", 1 byte, 3.
    data = b"+\x00\x01\x07" + b"+\x00\x01\x01" + b"+\x00\x01\x03"
    digest = hashlib.blake2b(data, digest_size=8, person=b"avanti.seeds").digest()
    assert game_seed(7, 3) == SeedSequence(7).child(3).seed == int.from_bytes(digest, "big")
    # Zero has no magnitude bytes; a negative root is written with "-".
    zero = hashlib.blake2b(b"+\x00\x00" + b"+\x00\x00", digest_size=8, person=b"avanti.seeds")
    assert SeedSequence(0).seed == int.from_bytes(zero.digest(), "big")
    assert SeedSequence(-7).seed != SeedSequence(7).seed


def test_the_bots_stream_is_a_child_of_the_game() -> None:
    assert bot_seed(7, 3) == SeedSequence(7, (3, 0)).seed
    assert bot_seed(7, 3) != game_seed(7, 3)
    assert SeedSequence(7).spawn(2, 4) == (SeedSequence(7, (2,)), SeedSequence(7, (3,)))


def test_runs_from_seeds_1_and_2_share_no_game() -> None:
    # 100,000 games each: with 64-bit seeds the chance of any shared seed among the 200,000 is
    # about 200_000**2 / 2**65, 1.1e-9. With seed + i they would share 99,999 games.
    one = {game_seed(1, i) for i in range(100_000)}
    two = {game_seed(2, i) for i in range(100_000)}
    assert len(one) == len(two) == 100_000
    assert one.isdisjoint(two)
    assert all(0 <= seed < 2**64 for seed in one)


def test_a_child_index_is_never_negative() -> None:
    with pytest.raises(InvalidArgument, match="at least 0, not -1"):
        SeedSequence(1).child(-1)
