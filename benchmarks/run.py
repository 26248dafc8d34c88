"""Benchmarks: per game, the cost of random play, replay and JSON, side by side with a yardstick.

Run with ``python -m nox -s bench`` (or ``python benchmarks/run.py`` with the package installed).
Absolute times on shared machines are noisy, so the figures that matter are ratios measured in the
same run: our random-play step against OpenSpiel's pure-Python ``python_block_dominoes`` step, and a
replay ``evolve`` against a checked ``execute``. Nothing here asserts a time; the report says which
targets are met.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from avanti.catalog import GAMES, GameInfo
from avanti.core.rng import Rng

PLAYERS = {"avanti": 4, "autorama": 4, "mare": 3}


def _best_of(repeats: int, run: Callable[[], float]) -> float:
    """The median of ``repeats`` runs of ``run`` (each returns seconds per unit)."""
    return statistics.median(run() for _ in range(repeats))


def _random_games(
    info: GameInfo, players: int, games: int, seed: int
) -> tuple[list[Any], list[list[Any]], int]:
    """Play ``games`` random games; return the games, each game's commands, and the step count."""
    names = [f"P{i}" for i in range(players)]
    stream = Rng(seed).stream()
    finished = []
    commands: list[list[Any]] = []
    steps = 0
    for n in range(games):
        game = info.new_game(names, seed=seed + n)
        played = []
        while not game.is_over:
            command = stream.choice(game.legal_commands())
            game = game.execute(command)
            played.append(command)
            steps += 1
        finished.append(game)
        commands.append(played)
    return finished, commands, steps


def measure_game(info: GameInfo, games: int, repeats: int) -> dict[str, float]:
    """Every figure for one game."""
    players = PLAYERS.get(info.name, 3)

    def step_cost() -> float:
        start = time.perf_counter()
        _, _, steps = _random_games(info, players, games, seed=1)
        return (time.perf_counter() - start) / steps

    def game_cost() -> float:
        start = time.perf_counter()
        _random_games(info, players, games, seed=2)
        return (time.perf_counter() - start) / games

    sample, sample_commands, _ = _random_games(info, players, max(2, games // 4), seed=3)
    events = sum(len(g.events) for g in sample)
    cls = type(sample[0])

    def replay_cost() -> float:
        start = time.perf_counter()
        for g in sample:
            cls.replay(g.setup, g.events, verify=False)
        return (time.perf_counter() - start) / events

    def execute_cost() -> float:
        start = time.perf_counter()
        for g, played in zip(sample, sample_commands, strict=True):
            game = cls.new(g.setup)
            for command in played:
                game = game.execute(command)
        return (time.perf_counter() - start) / events

    def checked_replay_cost() -> float:
        start = time.perf_counter()
        for g in sample:
            cls.replay(g.setup, g.events)
        return (time.perf_counter() - start) / events

    texts = [g.dumps() for g in sample]

    def dumps_cost() -> float:
        start = time.perf_counter()
        for g in sample:
            g.dumps()
        return (time.perf_counter() - start) / events

    def loads_cost() -> float:
        start = time.perf_counter()
        for text in texts:
            cls.loads(text)
        return (time.perf_counter() - start) / events

    figures = {
        "step_us": _best_of(repeats, step_cost) * 1e6,
        "games_per_s": 1 / _best_of(repeats, game_cost),
        "evolve_us": _best_of(repeats, replay_cost) * 1e6,
        "execute_us": _best_of(repeats, execute_cost) * 1e6,
        "checked_replay_us": _best_of(repeats, checked_replay_cost) * 1e6,
        "dumps_us_per_event": _best_of(repeats, dumps_cost) * 1e6,
        "loads_us_per_event": _best_of(repeats, loads_cost) * 1e6,
        "events_per_game": events / len(sample),
    }
    figures["peak_history_kib"] = _history_memory(info, players) / 1024
    return figures


def _history_memory(info: GameInfo, players: int) -> float:
    """Peak memory of one game kept with every intermediate game (full history of states)."""
    gc.collect()
    tracemalloc.start()
    names = [f"P{i}" for i in range(players)]
    stream = Rng(9).stream()
    history = [info.new_game(names, seed=9)]
    while not history[-1].is_over:
        history.append(history[-1].execute(stream.choice(history[-1].legal_commands())))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return float(peak)


def openspiel_step_us(games: int, repeats: int) -> float | None:
    """OpenSpiel's python_block_dominoes, the same random-play loop; None if not installed."""
    try:
        import pyspiel  # optional: installed by the bench session only
        from open_spiel.python.games import block_dominoes  # noqa: F401  registers the game
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")

    def run() -> float:
        stream = Rng(5).stream()
        steps = 0
        start = time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    action = stream.choice(state.chance_outcomes())[0]
                else:
                    action = stream.choice(state.legal_actions())
                state.apply_action(action)
                steps += 1
        return (time.perf_counter() - start) / steps

    return _best_of(repeats, run) * 1e6


def main() -> None:
    """Measure and print the report (``--json`` for machine-readable output)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="random games per measurement")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    yardstick = openspiel_step_us(args.games * 10, args.repeats)
    results: dict[str, Any] = {"openspiel_block_dominoes_step_us": yardstick, "games": {}}
    for name, info in GAMES.items():
        results["games"][name] = measure_game(info, args.games, args.repeats)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"OpenSpiel python_block_dominoes step: {(yardstick and f'{yardstick:.1f} us') or 'n/a'}")
    for name, f in results["games"].items():
        print(f"\n{GAMES[name].title} ({PLAYERS.get(name, 3)} players, random bots)")
        print(f"  random-play step       {f['step_us']:9.1f} us")
        per_game = f"({f['events_per_game']:.0f} events)"
        print(f"  full games per second  {f['games_per_s']:9.1f}   {per_game}")
        print(f"  replay evolve / event  {f['evolve_us']:9.2f} us")
        print(f"  execute / event        {f['execute_us']:9.2f} us")
        print(f"  checked replay / event {f['checked_replay_us']:9.2f} us")
        print(f"  dumps / event          {f['dumps_us_per_event']:9.2f} us")
        print(f"  loads / event          {f['loads_us_per_event']:9.2f} us")
        print(f"  peak memory, history   {f['peak_history_kib']:9.0f} KiB")
        evolve_ratio = f["evolve_us"] / f["execute_us"]
        print(
            f"  replay/execute ratio   {evolve_ratio:9.2f}   (target <= 0.20: "
            f"{'met' if evolve_ratio <= 0.2 else 'not met'})"
        )
        if yardstick:
            ratio = f["step_us"] / yardstick
            print(
                f"  step / OpenSpiel step  {ratio:9.2f}   (target <= 0.50 for Avanti: "
                f"{'met' if ratio <= 0.5 else 'not met'})"
            )


if __name__ == "__main__":
    main()
