"""Determinism: the same seed and commands give byte-identical logs, and the library never
touches the global ``random`` state.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.hardening.games import SPECS
from tests.hardening.spec import SEEDS, GameSpec, play_randomly

PICKS = st.lists(st.integers(0, 2**16), min_size=1, max_size=30)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(seed=SEEDS, picks=PICKS, data=st.data())
def test_the_same_seed_and_commands_give_the_same_bytes(
    spec: GameSpec, seed: int, picks: list[int], data: st.DataObject
) -> None:
    low, high = spec.players
    players = data.draw(st.integers(low, high))
    options = data.draw(spec.options)
    first = play_randomly(spec.start(seed, players, options), picks, 400)
    second = play_randomly(spec.start(seed, players, options), picks, 400)
    assert first.dumps().encode() == second.dumps().encode()
    assert first.dumps(indent=1) == second.dumps(indent=1)
    assert spec.game.loads(first.dumps()).dumps() == first.dumps()


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(seed=SEEDS, picks=PICKS, noise=st.integers())
def test_the_global_random_state_is_untouched(
    spec: GameSpec, seed: int, picks: list[int], noise: int
) -> None:
    high = spec.players[1]
    random.seed(noise)
    before = random.getstate()
    fresh = spec.start(seed, high, None)
    game = play_randomly(fresh, picks, 400)
    if game.version > fresh.version:
        game.undo()
    spec.game.loads(game.dumps())
    for seat in (None, *range(high)):
        game.view(seat)
        game.events_for(seat)
    assert random.getstate() == before


SCRIPT = """
import sys
from tests.hardening.games import SPECS
from tests.hardening.spec import play_randomly
spec = next(s for s in SPECS if s.name == sys.argv[1])
low, high = spec.players
for seed in range(3):
    players = high - seed % (high - low + 1)
    game = play_randomly(spec.start(seed, players, None), [seed, 5, 3, 7], 300)
    print(game.dumps())
"""


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_logs_do_not_depend_on_the_process_hash_seed(spec: GameSpec) -> None:
    """String hashing differs between processes: no log may depend on a set's order."""
    outputs = []
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, spec.name],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parents[2],
        )
        outputs.append(done.stdout)
    assert outputs[0].count("\n") == 3
    assert outputs[0] == outputs[1] == outputs[2]
