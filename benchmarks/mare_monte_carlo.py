"""Check the exact Avanti mare! odds against a large seeded Monte Carlo run of the ruleset itself.

``python -m nox -s soak`` runs it with 100,000 games per policy (``--games`` to change). For each
policy it prints the exact probabilities, the simulated shares, and how many standard errors apart
they are; it exits non-zero if any share is more than 4 standard errors from the exact value.
"""

from __future__ import annotations

import argparse
import sys
import time

from avanti.mare import POLICIES, odds, simulate


def main() -> int:
    """Run the comparison; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args()
    worst = 0.0
    for policy in POLICIES:
        exact = odds(policy)
        start = time.perf_counter()
        tally = simulate(args.games, policy, seed=args.seed)
        seconds = time.perf_counter() - start
        print(f"{policy} ({args.games:,} games, {seconds:.0f} s)")
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
