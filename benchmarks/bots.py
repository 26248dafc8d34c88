"""Bot strength: the heuristic bot against the random bot, and the search bot against the heuristic.

Not part of the test gate (it takes minutes): run ``python benchmarks/bots.py`` from a checkout
with the package importable. Every game is seeded (game ``i`` takes its seed from the seed
sequence rooted at ``SEED``, :mod:`avanti.bots.seeds`) and played
with the bots moving one seat round the table from game to game, so the tables are reproducible
and no bot keeps a good seat. Each table is printed as Markdown, with 95% Wilson intervals, ready
for ``docs/bots.md``.
"""

from __future__ import annotations

import argparse
import os
import time

from avanti.bots.kit import kit_for
from avanti.bots.simulate import Plan, Summary, run, summarize
from avanti.catalog import game_info

SEED = 0
"""The first seed of every match."""

MATCHES: tuple[tuple[str, Plan], ...] = (
    (
        "Heuristic against random",
        Plan("avanti", ("heuristic", "random", "random"), 1000, SEED, rotate=True),
    ),
    (
        "Search against heuristic",
        Plan("avanti", ("search", "heuristic", "heuristic"), 200, SEED, rotate=True),
    ),
)
"""The matches in the docs: a title, and the plan (game, bots per seat, games, seed)."""


def markdown(title: str, summary: Summary, seconds: float) -> str:
    """One match as a Markdown section: a line on how it was run, then a table per bot."""
    plan = summary.plan
    budget = ""
    if "search" in plan.bots:
        iterations = plan.iterations or kit_for(game_info(plan.game)).iterations
        budget = f"; search budget {iterations} sampled games per decision"
    lines = [
        f"### {title}",
        "",
        f"{game_info(plan.game).title}, {len(plan.bots)} players "
        f"({', '.join(plan.bots)}, seats rotating), {plan.games} games, seed {plan.seed}"
        f"{budget}; {seconds:.0f} s.",
        "",
        "| Bot | Seat-games | Wins | Win rate | 95% CI (Wilson) |",
        "|---|---:|---:|---:|---:|",
    ]
    for kind, rate in summary.bots:
        low, high = rate.interval
        lines.append(
            f"| {kind} | {rate.games} | {rate.wins} | {rate.share:.1%} | {low:.1%} - {high:.1%} |"
        )
    counts = "".join(f", {name} {mean.mean:.2f}" for name, mean in summary.counts)
    lines += [
        "",
        f"A fair share is {1 / len(plan.bots):.1%} per seat. Mean length: "
        f"{summary.events.mean:.0f} events, {summary.commands.mean:.0f} commands{counts}.",
    ]
    return "\n".join(lines)


def main() -> None:
    """Run the matches (``--quick``: a tenth of the games) and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument("--only", choices=["heuristic", "search"], default=None)
    args = parser.parse_args()
    for title, plan in MATCHES:
        if args.only is not None and plan.bots[0] != args.only:
            continue
        if args.quick:
            plan = Plan(plan.game, plan.bots, plan.games // 10, plan.seed, plan.rotate)
        started = time.perf_counter()
        records = run(plan, workers=args.workers)
        print(markdown(title, summarize(plan, records), time.perf_counter() - started))
        print(flush=True)


if __name__ == "__main__":
    main()
