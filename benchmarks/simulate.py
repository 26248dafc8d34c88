"""The simulator's speed on each engine: games per second, the cost of a task, and scaling.

Not part of the test gate: run ``python benchmarks/simulate.py`` from a checkout with the package
(and ``ray``) installed. It plays seeded games of Avanti mare! between random bots (the
default table of ``avanti simulate --game mare``) and prints:

- games per second with the local engine on one worker (in this process), on two worker
  processes, and with Ray on two workers; each engine started and warmed up before the clock
  starts, so only play is timed. The same games are also played one game per task, as the
  simulator did before it batched them;
- the control: an arithmetic job that touches no library code, run in the same pools, whose
  speed-up from one to two workers is what the machine gives two processes at that moment;
- each engine's cost per task: empty tasks submitted with every worker busy, wall time per task
  times the number of workers;
- the CPU time of one game in this process, and the driver's CPU time per game (unpickling a
  batch's records and handling each one), which bounds how many games per second one driver
  can gather from any cluster;
- an estimate on paper of the games per second of a cluster of ``--machines`` machines of
  ``--cores`` cores each, from those figures.

``--small`` plays a few games once (the test gate runs it to check that every figure prints);
``--address`` uses a running Ray cluster instead of starting one; ``--no-ray`` leaves Ray out.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any

from avanti.bots.engines import Engine, LocalEngine, RayEngine
from avanti.bots.simulate import Batch, Plan, play_batch, run
from avanti.catalog import game_info

SEED = 1
"""The root seed; each timed run takes a root seed of its own from here on."""


def plan(games: int, seed: int) -> Plan:
    """``games`` games of Avanti mare! at its usual table, every seat a random bot."""
    seats = len(game_info("mare").default_players)
    return Plan("mare", ("random",) * seats, games, seed)


def nothing(argument: int) -> int:
    """An empty task."""
    return argument


def arithmetic(rounds: int) -> float:
    """The control job: sum squares; return the CPU seconds it took."""
    start = time.process_time()
    total = 0
    for i in range(rounds):
        total += i * i
    return time.process_time() - start


def warm(engine: Engine) -> None:
    """Start every worker and import the library in it before anything is timed."""
    futures = [engine.submit(play_batch, Batch(plan(1, 0), (0,))) for _ in range(engine.workers)]
    wait(futures)
    for future in futures:
        future.result()


def games_per_second(engine: Engine, games: int, seed: int, batch: int | None) -> float:
    """Wall-clock games per second of a run on ``engine`` (``batch``: games per task)."""
    start = time.perf_counter()
    run(plan(games, seed), engine=engine, batch_size=batch)
    return games / (time.perf_counter() - start)


def jobs_per_second(engine: Engine, jobs: int, rounds: int) -> float:
    """The control: arithmetic jobs per second on ``engine``."""
    start = time.perf_counter()
    futures = [engine.submit(arithmetic, rounds) for _ in range(jobs)]
    wait(futures)
    return jobs / (time.perf_counter() - start)


def task_cost(engine: Engine, tasks: int) -> float:
    """Seconds of a worker's time per empty task, with ``2 * workers`` tasks in flight."""
    start = time.perf_counter()
    pending: set[Future[int]] = set()
    for i in range(tasks):
        pending.add(engine.submit(nothing, i))
        if len(pending) >= 2 * engine.workers:
            _, pending = wait(pending, return_when=FIRST_COMPLETED)
    wait(pending)
    return (time.perf_counter() - start) * engine.workers / tasks


def driver_cost(games: int) -> float:
    """CPU seconds the driver spends per game it gathers: unpickle a batch, walk its records."""
    result = play_batch(Batch(plan(games, 99), tuple(range(games))))
    data = pickle.dumps(result)
    start = time.process_time()
    for _ in range(5):
        kept = {}
        for record in pickle.loads(data).records:
            kept[record.index] = record
    return (time.process_time() - start) / (5 * games)


def cpu_per_game(games: int, seed: int) -> float:
    """CPU seconds per game in this process: what one core gives, however loaded the machine."""
    start = time.process_time()
    run(plan(games, seed))
    return (time.process_time() - start) / games


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure, as a dictionary.

    Every engine is started and warmed up first; then each repeat times every engine in turn,
    so the engines are compared at nearly the same moment, and each speed-up is the median of
    the per-repeat ratios (drift in the machine's load cancels out).
    """
    makers: dict[str, Callable[[], Engine]] = {
        "local-1": lambda: LocalEngine(1),
        "local-2": lambda: LocalEngine(2),
    }
    if not args.no_ray:
        makers["ray-2"] = lambda: RayEngine(2, args.address)
    engines: dict[str, Engine] = {}
    rates: dict[str, list[float]] = {name: [] for name in makers}
    per_game: dict[str, list[float]] = {name: [] for name in makers}
    control: dict[str, list[float]] = {name: [] for name in makers}
    cost: dict[str, float] = {}
    seed = SEED
    try:
        for name, make in makers.items():
            engines[name] = make()
            warm(engines[name])
        for _ in range(args.repeats):
            for name, engine in engines.items():
                seed += 1
                rates[name].append(games_per_second(engine, args.games, seed, None))
                seed += 1
                one_game = max(1, args.games // 10)
                per_game[name].append(games_per_second(engine, one_game, seed, 1))
                control[name].append(jobs_per_second(engine, 4 * engine.workers, args.rounds))
        for name, engine in engines.items():
            cost[name] = task_cost(engine, args.tasks)
    finally:
        for engine in engines.values():
            engine.close()

    def ratios(values: dict[str, list[float]]) -> dict[str, float]:
        base = values["local-1"]
        return {
            name: statistics.median(a / b for a, b in zip(runs, base, strict=True))
            for name, runs in values.items()
        }

    results: dict[str, Any] = {
        "games": args.games,
        "repeats": args.repeats,
        "cpus": os.cpu_count(),
        "games_per_s": {name: statistics.median(values) for name, values in rates.items()},
        "games_per_s_one_game_per_task": {n: statistics.median(v) for n, v in per_game.items()},
        "control_jobs_per_s": {n: statistics.median(v) for n, v in control.items()},
        "task_cost_ms": {n: c * 1e3 for n, c in cost.items()},
        "driver_us_per_game": driver_cost(max(10, args.games // 10)) * 1e6,
        "cpu_ms_per_game": cpu_per_game(args.games, seed + 1) * 1e3,
        "speedup": ratios(rates),
        "control_speedup": ratios(control),
    }
    results["estimate"] = estimate(results, args.machines, args.cores)
    return results


def estimate(results: dict[str, Any], machines: int, cores: int) -> dict[str, float]:
    """Games per second of ``machines`` machines of ``cores`` cores on Ray, on paper.

    Each worker (one per core) plays a game in the CPU time one game takes in this process,
    plus its share of Ray's cost per task (a task carries about a quarter of a second of
    games); the driver gathers at most ``1 / driver cost`` games a second (CPU time too). The
    smaller of the two is the estimate. CPU times are used because they do not depend on what
    else the machine runs at the moment.
    """
    seconds_per_game = results["cpu_ms_per_game"] / 1e3
    task = results["task_cost_ms"].get("ray-2", results["task_cost_ms"]["local-2"]) / 1e3
    batch = max(1, round(0.25 / seconds_per_game))
    per_worker = 1 / (seconds_per_game + task / batch)
    workers = machines * cores
    driver = 1e6 / results["driver_us_per_game"]
    return {
        "machines": machines,
        "workers": workers,
        "batch": batch,
        "workers_games_per_s": workers * per_worker,
        "driver_limit_games_per_s": driver,
        "games_per_s": min(workers * per_worker, driver),
    }


def report(results: dict[str, Any]) -> None:
    """Print the figures as a Markdown table and a few lines."""
    print(f"Avanti mare!, random bots, {results['games']} games a run, {results['repeats']} runs")
    print()
    print("| engine | games/s | speed-up | one game per task | control speed-up | task cost |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, rate in results["games_per_s"].items():
        print(
            f"| {name} | {rate:,.0f} | {results['speedup'][name]:.2f}x | "
            f"{results['games_per_s_one_game_per_task'][name]:,.0f} | "
            f"{results['control_speedup'][name]:.2f}x | "
            f"{results['task_cost_ms'][name]:.3f} ms |"
        )
    print()
    print(f"CPU per game, one process: {results['cpu_ms_per_game']:.3f} ms")
    print(f"driver cost per game: {results['driver_us_per_game']:.1f} us")
    e = results["estimate"]
    print(
        f"estimate for {e['machines']} machines ({e['workers']} workers, {e['batch']} games a "
        f"task): workers {e['workers_games_per_s']:,.0f} games/s, driver limit "
        f"{e['driver_limit_games_per_s']:,.0f} games/s: about {e['games_per_s']:,.0f} games/s"
    )
    speedup, control = results["speedup"]["local-2"], results["control_speedup"]["local-2"]
    verdict = "met" if speedup >= 1.7 else "NOT met"
    if speedup < 1.7 and control < 1.7:
        verdict += f" (the control job got {control:.2f}x: the machine could not show it now)"
    print(f"2 local workers >= 1.7x one worker: {speedup:.2f}x, {verdict}")
    if "ray-2" in results["games_per_s"]:
        ray = results["games_per_s"]["ray-2"] / results["games_per_s"]["local-2"]
        print(f"Ray on 2 workers within 15% of the local engine: {ray:.2f}x of local-2")


def main() -> None:
    """Measure and print (``--json``: the figures as JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games a timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per engine")
    parser.add_argument("--rounds", type=int, default=2_000_000, help="control job size")
    parser.add_argument("--tasks", type=int, default=2_000, help="empty tasks to time")
    parser.add_argument("--machines", type=int, default=10, help="machines in the estimate")
    parser.add_argument("--cores", type=int, default=2, help="cores a machine in the estimate")
    parser.add_argument("--address", default=None, help="a running Ray cluster")
    parser.add_argument("--no-ray", action="store_true", help="leave Ray out")
    parser.add_argument("--small", action="store_true", help="a quick run: every figure once")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.small:
        args.games, args.repeats, args.rounds, args.tasks = 40, 1, 20_000, 20
    results = measure(args)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        report(results)


if __name__ == "__main__":
    main()
