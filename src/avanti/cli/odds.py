"""``avanti odds --game mare``: the exact chances of each result of Avanti mare!.

The default variant is the rulebook, where the move after a free fish's colour may be declined
(M6); ``--variant move-owed`` reads the move as owed, as published simulators do. Drawing the
table needs rich (the ``cli`` extra); the names of the policies and variants do not.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TextIO

from attrs import evolve

from avanti.core.errors import InvalidArgument
from avanti.mare import POLICIES, CaughtFishRoll, Face, FreeFishRoll, Options, Policy, odds

__all__ = ["POLICIES", "VARIANTS", "check", "odds_command"]

_OWED = Options(free_fish_move_owed=True)

VARIANTS: dict[str, Options] = {
    "rulebook": Options(),
    "move-owed": _OWED,
    "caught-ignored": evolve(_OWED, caught_fish_roll=CaughtFishRoll.NOTHING),
    "caught-reroll": evolve(_OWED, caught_fish_roll=CaughtFishRoll.REROLL),
    "free-ignored": evolve(_OWED, free_fish_roll=FreeFishRoll.NOTHING),
    "free-reroll": evolve(_OWED, free_fish_roll=FreeFishRoll.REROLL),
    "both-ignored": evolve(
        _OWED, caught_fish_roll=CaughtFishRoll.NOTHING, free_fish_roll=FreeFishRoll.NOTHING
    ),
    "red-only": evolve(_OWED, boat_faces=(Face.RED,)),
}
"""The variants of M9 by name: the rulebook, where the move after a free fish's colour may be
declined (M6: "may"), and the readings published simulators use, which all make that move:
``move-owed`` is the rulebook read their way, and each other variant changes one more option.
``--variant`` switches between them, ``--variant all`` shows every one."""

SHORT = 12
"""The longest fraction (in characters) still written out beside its decimal."""


def check(args: argparse.Namespace) -> None:
    """Refuse an unknown ``--policy`` or ``--variant`` before any work is done."""
    if args.policy != "all" and args.policy not in POLICIES:
        raise InvalidArgument(f"unknown policy {args.policy!r}; choose all, {', '.join(POLICIES)}")
    if args.variant != "all" and args.variant not in VARIANTS:
        raise InvalidArgument(
            f"unknown variant {args.variant!r}; choose all, {', '.join(VARIANTS)}"
        )


def _cell(value: Fraction) -> str:
    text = f"{float(value):.4f}"
    fraction = str(value)
    if value.denominator != 1 and len(fraction) <= SHORT:
        return f"{text} ({fraction})"
    return text


def odds_command(args: argparse.Namespace, out: TextIO) -> int:
    """Print the exact odds of each result under each chosen policy and variant."""
    from rich.table import Table  # here: the help lists the variants without rich

    from avanti.cli.console import make_console, say

    policies: tuple[Policy, ...] = POLICIES if args.policy == "all" else (args.policy,)
    variants = list(VARIANTS) if args.variant == "all" else [args.variant]
    table = Table(title="Avanti mare!: exact chances of each result (M8)")
    for name in ("Variant", "Policy (M6)", "Fish friends win", "Fisher fans win", "Draw"):
        table.add_column(name)
    table.add_column("Expected rolls", justify="right")
    exact: list[str] = []
    for variant in variants:
        for policy in policies:
            o = odds(policy, VARIANTS[variant])
            cells = (o.fish, o.fishers, o.draw, o.expected_rolls)
            table.add_row(variant, policy, *(_cell(value) for value in cells))
            exact.append(
                f"{variant}, {policy}: fish friends {o.fish}, fisher fans {o.fishers}, "
                f"draw {o.draw}, expected rolls {o.expected_rolls}"
            )
    console = make_console(out)
    console.print(table)
    if any(not VARIANTS[variant].free_fish_move_owed for variant in variants):
        say(
            console,
            "rulebook: after a free fish's colour the roller may decline to move (M6); the other "
            "variants always move, as published simulators do (--variant move-owed).",
            "dim",
        )
    if args.exact:
        for line in exact:
            say(console, line)
    say(console, "Exact values from avanti.mare.odds; each row's chances add up to 1.", "dim")
    return 0
