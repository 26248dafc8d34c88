"""Check the exact Avanti mare! odds against a large seeded Monte Carlo run of the ruleset itself.

``python -m nox -s soak`` runs it with 100,000 games per policy and reading of M6 (``--games`` to
change): the rulebook's, where the move after a free fish's colour may be declined, and the owed
move of published simulators (``--reading`` picks one). For each it prints the exact probabilities,
the simulated shares, and how many standard errors apart they are; it exits non-zero if any share
is more than 4 standard errors from the exact value.
"""

from __future__ import annotations

import argparse
import sys
import time

from avanti.mare import POLICIES, Options, odds, simulate

READINGS = {"may-decline": Options(), "owed": Options(free_fish_move_owed=True)}
"""The two readings of M6: the rulebook's "may" (the default), and the move owed."""


def main() -> int:
    """Run the comparison; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--reading", choices=[*READINGS, "both"], default="both")
    args = parser.parse_args()
    readings = list(READINGS) if args.reading == "both" else [args.reading]
    worst = 0.0
    for reading, policy in ((r, p) for r in readings for p in POLICIES):
        options = READINGS[reading]
        exact = odds(policy, options)
        start = time.perf_counter()
        tally = simulate(args.games, policy, options, seed=args.seed)
        seconds = time.perf_counter() - start
        print(f"{policy}, move {reading} ({args.games:,} games, {seconds:.0f} s)")
        for name, p, count in (
            ("fish", exact.fish, tally.fish),
            ("fishers", exact.fishers, tally.fishers),
            ("draw", exact.draw, tally.draw),
        ):
            share = count / tally.games
            z = (share - float(p)) / tally.error(float(p))
            worst = max(worst, abs(z))
            print(f"  {name:8} exact {float(p):.4f}  simulated {share:.4f}  ({z:+.2f} s.e.)")
        z_rolls = (tally.mean_rolls - float(exact.expected_rolls)) / tally.rolls_error
        worst = max(worst, abs(z_rolls))
        print(
            f"  rolls    exact {float(exact.expected_rolls):.3f} simulated "
            f"{tally.mean_rolls:.3f} ({z_rolls:+.2f} s.e.)"
        )
    print(f"largest distance: {worst:.2f} standard errors (limit 4)")
    return 0 if worst <= 4 else 1


if __name__ == "__main__":
    sys.exit(main())
