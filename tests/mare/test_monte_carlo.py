"""The exact odds against 20,000 seeded games per policy and reading of M6, played by the rules.

For each policy and each reading of M6 (the move after a free fish's colour may be declined, the
default; or it is owed, as published simulators read it, M9), :func:`avanti.mare.simulate` plays
20,000 whole games through ``Game.execute`` and every share (fish friends, fisher fans, draw) and
the mean number of rolls must lie within 3 standard errors of :func:`avanti.mare.odds`.

A policy that never declines plays the very same games under both readings (the dice come from
the game's seed, the choices are the same), so its one run is checked against both readings'
exact odds, which are equal; ``test_a_policy_that_never_declines_plays_the_same_games`` checks
that premise game by game. The runs are spread over worker processes.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from avanti import core
from avanti.mare import (
    POLICIES,
    Command,
    Game,
    Options,
    Policy,
    SkipMove,
    Tally,
    choose,
    new_game,
    odds,
    simulate,
)

GAMES = 20_000
SEED = 20_261_130
LIMIT = 3.0
"""How many standard errors a simulated figure may lie from the exact one."""

READINGS = {"may decline": Options(), "owed": Options(free_fish_move_owed=True)}
NEVER_DECLINE: tuple[Policy, ...] = ("closest-to-boat", "closest-to-sea", "best-for-fish")
"""The policies that never decline (``best-for-fish`` could, but moving never hurts the fish)."""


def _runs() -> list[tuple[Policy, str]]:
    """The (policy, reading) runs to play: one per policy and reading, less the shared ones."""
    return [
        (policy, reading)
        for reading in READINGS
        for policy in POLICIES
        if reading == "owed" or policy not in NEVER_DECLINE
    ]


def _seed(policy: Policy) -> int:
    """The first seed of ``policy``'s runs: the policies' runs share no game (seeds ``GAMES``
    apart), while a policy's two readings roll the same dice."""
    return SEED + POLICIES.index(policy) * GAMES


def _run(policy: Policy, reading: str) -> Tally:
    return simulate(GAMES, policy, READINGS[reading], seed=_seed(policy))


@pytest.fixture(scope="module")
def tallies() -> dict[tuple[Policy, str], Tally]:
    """Every run, in parallel: each worker process plays whole runs (spawned, so fresh)."""
    runs = _runs()
    workers = max(1, min(len(runs), os.cpu_count() or 1))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {run: pool.submit(_run, *run) for run in runs}
        return {run: future.result() for run, future in futures.items()}


def _distances(exact_policy: Policy, options: Options, tally: Tally) -> dict[str, float]:
    exact = odds(exact_policy, options)
    distances = {}
    for name, p, count in (
        ("fish", exact.fish, tally.fish),
        ("fishers", exact.fishers, tally.fishers),
        ("draw", exact.draw, tally.draw),
    ):
        distances[name] = (count / tally.games - float(p)) / tally.error(float(p))
    rolls = (tally.mean_rolls - float(exact.expected_rolls)) / tally.rolls_error
    distances["rolls"] = rolls
    return distances


@pytest.mark.parametrize("reading", list(READINGS))
@pytest.mark.parametrize("policy", POLICIES)
def test_m6_m9_the_exact_odds_agree_with_20000_games(
    policy: Policy, reading: str, tallies: dict[tuple[Policy, str], Tally]
) -> None:
    options = READINGS[reading]
    shared = policy in NEVER_DECLINE
    if shared:  # the same games under both readings, and the same exact odds
        assert odds(policy, options) == odds(policy, READINGS["owed"])
    tally = tallies[policy, "owed" if shared else reading]
    assert tally.games == tally.fish + tally.fishers + tally.draw == GAMES
    distances = _distances(policy, options, tally)
    assert all(abs(d) < LIMIT for d in distances.values()), distances


def _commands(policy: Policy, options: Options, seed: int) -> list[Command]:
    """The commands of one game played as :func:`simulate` plays it."""
    game: Game = new_game(["P0", "P1"], seed=seed, options=options)
    picks = core.Rng(seed, 1 << 40).stream()
    played: list[Command] = []
    while not game.is_over:
        state = game.state
        command = choose(state, policy, picks) if state.move_due else game.legal_commands()[0]
        played.append(command)
        game = game.execute(command)
    return played


@pytest.mark.parametrize("policy", NEVER_DECLINE)
def test_a_policy_that_never_declines_plays_the_same_games(policy: Policy) -> None:
    for seed in range(_seed(policy), _seed(policy) + 300):
        may = _commands(policy, READINGS["may decline"], seed)
        assert not any(isinstance(command, SkipMove) for command in may)
        assert may == _commands(policy, READINGS["owed"], seed)
