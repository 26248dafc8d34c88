"""Where an Avanti random-play step's time goes (4 players, random bots).

Three views of the same loop ``is_over``, ``legal_commands()``, seeded choice, ``execute``:

- the loop's parts, each timed where it runs (the timer's own cost taken off);
- each kind of command: how often it comes and what its ruleset ``execute`` costs;
- the fixed costs of the design, which every step pays whatever the rules do: a frozen state
  built from its draft, the draft, the event objects, the ``Game`` object and its longer log.

With OpenSpiel installed, each is also given as a share of a ``python_block_dominoes`` step
timed in the same run, the yardstick of ``benchmarks/run.py``. Figures are CPU time and vary
from run to run; nothing here is a test. Run with ``python benchmarks/anatomy.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import timeit
from collections import Counter, defaultdict
from collections.abc import Callable

from run import (  # benchmarks/run.py, beside this file
    WARM_UP_GAMES,
    load_yardsticks,
    yardstick_step,
)

from avanti import new_game
from avanti.avanti.commands import PlayCard
from avanti.avanti.events import CardPlayed
from avanti.avanti.game import RULES
from avanti.avanti.state import Draft
from avanti.core.rng import Rng

NAMES = ("P0", "P1", "P2", "P3")


def loop_parts(games: int, seed: int) -> tuple[dict[str, float], dict[str, tuple[float, float]]]:
    """Microseconds per step of each part of the loop, and per command kind (count per step,
    microseconds of the ruleset's ``execute``)."""
    clock = time.thread_time_ns
    overhead = min(-(clock() - clock()) for _ in range(1000))
    parts: dict[str, int] = defaultdict(int)
    kinds: dict[str, int] = defaultdict(int)
    counts: Counter[str] = Counter()
    stream = Rng(seed).stream()
    steps = 0
    for n in range(games):
        game = new_game(NAMES, seed=seed + n)
        while True:
            a = clock()
            over = game.is_over
            b = clock()
            if over:
                break
            commands = game.legal_commands()
            c = clock()
            command = stream.choice(commands)
            d = clock()
            after = game.execute(command)
            e = clock()
            RULES.execute(game.state, command)
            f = clock()
            game = after
            parts["is_over"] += b - a - overhead
            parts["legal_commands()"] += c - b - overhead
            parts["seeded choice"] += d - c - overhead
            parts["Game.execute"] += e - d - overhead
            parts["  of which the ruleset's execute"] += f - e - overhead
            kind = type(command).__name__
            kinds[kind] += f - e - overhead
            counts[kind] += 1
            steps += 1
    per_step = {name: total / steps / 1000 for name, total in parts.items()}
    per_kind = {kind: (counts[kind] / steps, kinds[kind] / counts[kind] / 1000) for kind in counts}
    return per_step, per_kind


def _micro(run: Callable[[], object], number: int = 20000) -> float:
    """Microseconds per call: the best of five timings."""
    return min(timeit.repeat(run, number=number, repeat=5)) / number * 1e6


def fixed_costs(events_per_step: float) -> dict[str, float]:
    """Microseconds per step of what every command costs by design, whatever the rules do."""
    game = new_game(NAMES, seed=3)
    state = game.state
    draft = Draft(state)
    log = tuple(range(110))  # about half a game's log
    caused = (1, 2, 3)
    kind = type(game)
    return {
        "a frozen state from a draft": _micro(draft.freeze),
        "a draft of a state": _micro(lambda: Draft(state)),
        f"event objects ({events_per_step:.1f} a step)": _micro(lambda: CardPlayed(0, 1, 2))
        * events_per_step,
        "the Game object": _micro(lambda: kind(game.setup, game.events, state)),
        "the longer log": _micro(lambda: log + caused),
        "a command object (PlayCard), for scale": _micro(lambda: PlayCard(0, 1, 2)),
    }


def dominoes_timer() -> Callable[[int], float] | None:
    """A function timing ``n`` games of OpenSpiel's block dominoes with ``run.py``'s loop, in
    microseconds per step, or ``None`` without OpenSpiel."""
    game = load_yardsticks().get("python_block_dominoes")
    if game is None:
        return None
    return lambda count: yardstick_step(game, count, time.process_time) * 1e6


def main() -> None:
    """Measure and print the three views."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="random games to time")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    dominoes = dominoes_timer()
    loop_parts(2, seed=0)  # warm up: imports, shared tables
    if dominoes:
        dominoes(WARM_UP_GAMES)
    # Each repeat of the yardstick runs right before a repeat of the loop, as in run.py.
    yards: list[float] = []
    runs = []
    for r in range(args.repeats):
        if dominoes:
            yards.append(dominoes(args.games))
        runs.append(loop_parts(args.games, seed=1 + 1000 * r))
    parts = {name: statistics.median(run[0][name] for run in runs) for name in runs[0][0]}
    kinds = {
        kind: (
            statistics.median(run[1][kind][0] for run in runs),
            statistics.median(run[1][kind][1] for run in runs),
        )
        for kind in runs[0][1]
    }
    game = new_game(NAMES, seed=11)
    stream = Rng(11).stream()
    commands = 0
    while not game.is_over:
        game = game.execute(stream.choice(game.legal_commands()))
        commands += 1
    events = (len(game.events) - len(RULES.start(game.setup)[1])) / commands
    fixed = fixed_costs(events)
    yard = statistics.median(yards) if yards else None
    step = sum(us for name, us in parts.items() if not name.startswith(" "))

    def share(us: float) -> str:
        return f"{us / yard:5.2f}" if yard else "  -  "

    print("Avanti, 4 players, random bots: microseconds per step (CPU time)")
    print(f"  {'part of the loop':40s} {'us':>6s}  {'/ dominoes step':>15s}")
    for name, us in parts.items():
        print(f"  {name:40s} {us:6.2f}  {share(us):>15s}")
    print(f"  {'the whole step':40s} {step:6.2f}  {share(step):>15s}")
    print("\n  command kind        per step   execute (us)   us per step")
    for kind, (per_step, us) in sorted(kinds.items(), key=lambda item: -item[1][0]):
        print(f"  {kind:18s} {per_step:9.2f} {us:14.2f} {per_step * us:13.2f}")
    print(f"\n  fixed costs of a step ({events:.1f} events a command)")
    floor = 0.0
    for name, us in fixed.items():
        print(f"  {name:40s} {us:6.2f}  {share(us):>15s}")
        if "for scale" not in name:
            floor += us
    floor += parts["is_over"] + parts["legal_commands()"] + parts["seeded choice"]
    print(f"  {'these, with is_over, legal and choice':40s} {floor:6.2f}  {share(floor):>15s}")
    if yard:
        print(f"\n  block dominoes step {yard:.2f} us; 0.5 of it is {yard / 2:.2f} us")
    else:
        print("\n  OpenSpiel is not installed: no yardstick (python -m nox -s bench installs it)")


if __name__ == "__main__":
    main()
