"""Benchmarks: per game, the cost of random play, replay and JSON, side by side with a yardstick.

Run with ``python -m nox -s bench`` (or ``python benchmarks/run.py`` with the package installed).
Absolute times on shared machines are noisy, so the figures that matter are ratios measured in the
same run: each repeat of a game's random-play loop runs right after the same loop over OpenSpiel's
pure-Python ``python_block_dominoes`` and ``python_kuhn_poker``, so drift in the machine's load
cancels out of the ratio; a replay ``evolve`` is compared with a checked ``execute``; and games
per second with two worker processes with games per second with one. Nothing here asserts a time:
the report prints the figures and the targets, and says which it meets.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from avanti.catalog import GAMES, GameInfo
from avanti.core.game import execute
from avanti.core.rng import Rng

PLAYERS = {"avanti": 4, "autorama": 4, "mare": 3}
"""Players per game in every measurement (Avanti's targets are for four random bots)."""

YARDSTICKS = ("python_block_dominoes", "python_kuhn_poker")
"""OpenSpiel's pure-Python games timed with the same random-play loop."""

STEP_TARGET = 0.5
"""Avanti's random-play step may cost at most this much of a block dominoes step."""
REPLAY_TARGET = 0.2
"""A replay ``evolve`` may cost at most this much of a checked ``execute``, per event."""
SCALING_TARGET = 1.7
"""Two worker processes must play at least this many times the games per second of one."""

WARM_UP_GAMES = 200
"""Untimed yardstick games played before timing (and a twentieth as many of the game's own)."""

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
"""What a single-process figure is timed with. CPU time (the default) leaves out the time this
process waits while others run, which on a shared machine is most of the noise."""


def machine() -> dict[str, Any]:
    """The machine the figures were measured on: CPU model, cores, load, Python."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "load_average": load,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
    }


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


def _ruleset_steps(info: GameInfo, players: int, games: int, seed: int) -> int:
    """The random-play loop on bare states through the ruleset, as a search bot would run it:
    no ``Game`` aggregate and no event log. Returns the step count."""
    names = [f"P{i}" for i in range(players)]
    stream = Rng(seed).stream()
    steps = 0
    for n in range(games):
        state = info.new_game(names, seed=seed + n).state
        rules = info.load().Game.rules
        while rules.outcome(state) is None:
            state = execute(rules, state, stream.choice(rules.legal_commands(state)))[0]
            steps += 1
    return steps


def load_yardsticks() -> dict[str, Any]:
    """OpenSpiel's pure-Python games by name; empty when OpenSpiel is not installed."""
    try:
        import pyspiel  # optional: installed by the bench session only
        from open_spiel.python.games import (  # noqa: F401  importing registers the games
            block_dominoes,
            kuhn_poker,
        )
    except ImportError:
        return {}
    return {name: pyspiel.load_game(name) for name in YARDSTICKS}


def yardstick_step(game: Any, games: int, clock: Callable[[], float], seed: int = 5) -> float:
    """Seconds per step of OpenSpiel's random-play loop: chance outcomes and actions alike."""
    stream = Rng(seed).stream()
    steps = 0
    start = clock()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = stream.choice(state.chance_outcomes())[0]
            else:
                action = stream.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return (clock() - start) / steps


def _median(repeats: int, run: Callable[[], float]) -> float:
    """The median of ``repeats`` runs of ``run`` (each returns seconds per unit)."""
    return statistics.median(run() for _ in range(repeats))


def measure_game(
    info: GameInfo,
    games: int,
    repeats: int,
    yardsticks: dict[str, Any],
    clock: Callable[[], float] = time.process_time,
) -> dict[str, Any]:
    """Every figure for one game; each step repeat runs right after a repeat of each yardstick."""
    players = PLAYERS.get(info.name, 3)
    steps_us: list[float] = []
    yard_us: dict[str, list[float]] = {name: [] for name in yardsticks}
    ratios: dict[str, list[float]] = {name: [] for name in yardsticks}
    # Warm up: import the game and build its tables; OpenSpiel's games run up to twice as slow
    # for their first hundred or so games in a process, which would flatter the first ratios.
    _random_games(info, players, WARM_UP_GAMES // 20, seed=0)
    for yardstick in yardsticks.values():
        yardstick_step(yardstick, WARM_UP_GAMES, clock)
    # Fresh seeds for every timed run: no cache inside the library may see the same games twice.
    seeds = itertools.count(1, 1000)
    for _ in range(repeats):
        for name, yardstick in yardsticks.items():
            yard_us[name].append(yardstick_step(yardstick, games * 5, clock) * 1e6)
        start = clock()
        _, _, steps = _random_games(info, players, games, seed=next(seeds))
        steps_us.append((clock() - start) / steps * 1e6)
        for name in yardsticks:
            ratios[name].append(steps_us[-1] / yard_us[name][-1])

    def ruleset_step() -> float:
        start = clock()
        steps = _ruleset_steps(info, players, games, seed=next(seeds))
        return (clock() - start) / steps

    def game_cost() -> float:
        start = clock()
        _random_games(info, players, games, seed=next(seeds))
        return (clock() - start) / games

    sample, sample_commands, _ = _random_games(info, players, max(2, games // 4), seed=3)
    events = sum(len(g.events) for g in sample)
    cls = type(sample[0])

    def replay_cost() -> float:
        start = clock()
        for g in sample:
            cls.replay(g.setup, g.events, verify=False)
        return (clock() - start) / events

    def execute_cost() -> float:
        start = clock()
        for g, played in zip(sample, sample_commands, strict=True):
            game = cls.new(g.setup)
            for command in played:
                game = game.execute(command)
        return (clock() - start) / events

    def checked_replay_cost() -> float:
        start = clock()
        for g in sample:
            cls.replay(g.setup, g.events)
        return (clock() - start) / events

    texts = [g.dumps() for g in sample]
    codec = cls.rules.codec

    def dumps_cost() -> float:
        start = clock()
        for g in sample:
            g.dumps()
        return (clock() - start) / events

    def decode_cost() -> float:
        start = clock()
        for text in texts:
            codec.loads(text)
        return (clock() - start) / events

    def loads_cost() -> float:
        start = clock()
        for text in texts:
            cls.loads(text)
        return (clock() - start) / events

    figures: dict[str, Any] = {
        "players": players,
        "step_us": statistics.median(steps_us),
        "yardstick_step_us": {name: statistics.median(us) for name, us in yard_us.items()},
        "step_ratio": {name: statistics.median(r) for name, r in ratios.items()},
        "ruleset_step_us": _median(repeats, ruleset_step) * 1e6,
        "games_per_s": 1 / _median(repeats, game_cost),
        "evolve_us": _median(repeats, replay_cost) * 1e6,
        "execute_us": _median(repeats, execute_cost) * 1e6,
        "checked_replay_us": _median(repeats, checked_replay_cost) * 1e6,
        "dumps_us_per_event": _median(repeats, dumps_cost) * 1e6,
        "decode_us_per_event": _median(repeats, decode_cost) * 1e6,
        "loads_us_per_event": _median(repeats, loads_cost) * 1e6,
        "events_per_game": events / len(sample),
    }
    figures["replay_ratio"] = figures["evolve_us"] / figures["execute_us"]
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


def _play_share(name: str, players: int, seeds: range) -> float:
    """One worker's share of a simulation: play a game from each seed; return the CPU seconds."""
    start = time.process_time()
    _random_games(GAMES[name], players, len(seeds), seeds.start)
    return time.process_time() - start


def _ready(_: int) -> int:
    return os.getpid()


def _arithmetic(rounds: int) -> float:
    """A control job that touches no library code: sum squares; return the CPU seconds."""
    start = time.process_time()
    total = 0
    for i in range(rounds):
        total += i * i
    return time.process_time() - start


def jobs_per_second(workers: int, jobs: int, rounds: int) -> float:
    """The control: arithmetic jobs per second with ``workers`` processes (what the machine
    gives two processes at this moment, whatever they run)."""
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_ready, range(workers * 2)))
        start = time.perf_counter()
        list(pool.map(_arithmetic, [rounds] * jobs))
        return jobs / (time.perf_counter() - start)


def games_per_second(name: str, workers: int, games: int, share: int) -> tuple[float, float]:
    """Random games per second with ``workers`` processes, each taking ``share`` games at a time,
    and the CPU seconds the workers spent per game.

    The processes are started before the clock starts, so only play is timed. If two workers
    spend the same CPU time per game as one, nothing in the library holds them back: a shortfall
    in speed-up is then the machine's other load.
    """
    players = PLAYERS.get(name, 3)
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_ready, range(workers * 2)))
        start = time.perf_counter()
        shares = [
            pool.submit(_play_share, name, players, range(first, min(first + share, games)))
            for first in range(0, games, share)
        ]
        cpu = sum(done.result() for done in shares)
        return games / (time.perf_counter() - start), cpu / games


def measure_scaling(name: str, games: int, repeats: int) -> dict[str, float]:
    """Games per second with one and with two workers, alternating, and the median speed-up."""
    one: list[tuple[float, float]] = []
    two: list[tuple[float, float]] = []
    control: list[float] = []
    for _ in range(repeats):
        one.append(games_per_second(name, 1, games, max(1, games // 8)))
        two.append(games_per_second(name, 2, games, max(1, games // 8)))
        control.append(jobs_per_second(2, 8, 1_000_000) / jobs_per_second(1, 8, 1_000_000))
    return {
        "one_worker_games_per_s": statistics.median(rate for rate, _ in one),
        "two_workers_games_per_s": statistics.median(rate for rate, _ in two),
        "speedup": statistics.median(b[0] / a[0] for a, b in zip(one, two, strict=True)),
        "one_worker_cpu_ms_per_game": statistics.median(cpu for _, cpu in one) * 1e3,
        "two_workers_cpu_ms_per_game": statistics.median(cpu for _, cpu in two) * 1e3,
        "control_speedup": statistics.median(control),
    }


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(results: dict[str, Any]) -> None:
    """Print the figures and the targets in plain text."""
    m = results["machine"]
    print(f"Machine: {m['cpu']}, {m['cores']} cores, load average {m['load_average']}")
    print(f"Python:  {m['python']} on {m['platform']}")
    print(f"Clock:   {results['clock']} time for one-process figures, wall time for workers")
    for name, f in results["games"].items():
        print(f"\n{GAMES[name].title} ({f['players']} players, random bots)")
        print(f"  random-play step       {f['step_us']:9.1f} us")
        for yard, us in f["yardstick_step_us"].items():
            ratio = f["step_ratio"][yard]
            print(f"    {yard + ' step':28s} {us:7.1f} us  ours / theirs {ratio:5.2f}")
        print(f"  step on bare states    {f['ruleset_step_us']:9.1f} us   (ruleset, no Game)")
        per_game = f"({f['events_per_game']:.0f} events)"
        print(f"  full games per second  {f['games_per_s']:9.1f}   {per_game}")
        print(f"  replay evolve / event  {f['evolve_us']:9.2f} us")
        print(f"  execute / event        {f['execute_us']:9.2f} us")
        print(f"  replay / execute       {f['replay_ratio']:9.2f}")
        print(f"  checked replay / event {f['checked_replay_us']:9.2f} us")
        print(f"  dumps / event          {f['dumps_us_per_event']:9.2f} us")
        print(f"  decode / event         {f['decode_us_per_event']:9.2f} us   (JSON to events)")
        print(f"  loads / event          {f['loads_us_per_event']:9.2f} us   (decode + checked)")
        print(f"  peak memory, history   {f['peak_history_kib']:9.0f} KiB")
    scaling = results.get("scaling")
    if scaling:
        print(f"\nSimulation of {scaling['game']} with worker processes")
        for label, key in (("1 worker ", "one_worker"), ("2 workers", "two_workers")):
            rate = scaling[f"{key}_games_per_s"]
            cpu = scaling[f"{key}_cpu_ms_per_game"]
            print(f"  {label}              {rate:9.1f} games/s  {cpu:6.2f} ms CPU per game")
        print(f"  speed-up               {scaling['speedup']:9.2f}")
        print(
            f"  control speed-up       {scaling['control_speedup']:9.2f}   "
            "(arithmetic jobs, same pool: what the machine allows now)"
        )
    print("\nTargets (Avanti, 4 players, random bots)")
    avanti = results["games"].get("avanti")
    if avanti:
        ratio = avanti["step_ratio"].get("python_block_dominoes")
        if ratio is not None:
            print(
                f"  step <= {STEP_TARGET} x block dominoes step: {ratio:.2f}  "
                f"{_verdict(ratio <= STEP_TARGET)}"
            )
        else:
            print("  step vs block dominoes: OpenSpiel not installed, not measured")
        replay = avanti["replay_ratio"]
        print(
            f"  replay evolve <= {REPLAY_TARGET} x execute: {replay:.2f}  "
            f"{_verdict(replay <= REPLAY_TARGET)}"
        )
    if scaling:
        speedup = scaling["speedup"]
        print(
            f"  2 workers >= {SCALING_TARGET} x games/s of 1: {speedup:.2f}  "
            f"{scaling_verdict(speedup, scaling['control_speedup'])}"
        )


def scaling_verdict(speedup: float, control: float) -> str:
    """Whether two workers met the scaling target; when they did not, whether the machine let
    two processes run side by side at the time (the control job's speed-up) at all."""
    if speedup >= SCALING_TARGET:
        return "met"
    if control < SCALING_TARGET:
        return (
            f"NOT met, and not measurable now: the control job got only {control:.2f}x from two "
            "processes (rerun on an idle machine)"
        )
    return "NOT met"


def main() -> None:
    """Measure and print the report (``--json`` for machine-readable output)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="random games per measurement")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only these")
    parser.add_argument(
        "--scaling-games", type=int, default=1600, help="games per scaling run (0 to skip)"
    )
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="timer of one-process figures"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    yardsticks = load_yardsticks()
    results: dict[str, Any] = {"machine": machine(), "clock": args.clock, "games": {}}
    for name in args.game or GAMES:
        results["games"][name] = measure_game(
            GAMES[name], args.games, args.repeats, yardsticks, CLOCKS[args.clock]
        )
    if args.scaling_games > 0:
        name = "avanti" if "avanti" in results["games"] else next(iter(results["games"]))
        results["scaling"] = {"game": name}
        results["scaling"].update(measure_scaling(name, args.scaling_games, args.repeats))
    results["machine"]["load_average_after"] = machine()["load_average"]
    if args.json:
        json.dump(results, sys.stdout, indent=2)
        print()
        return
    report(results)


if __name__ == "__main__":
    main()
