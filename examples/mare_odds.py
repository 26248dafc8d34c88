"""Print the exact odds of Avanti mare! for every policy and variant, as a Markdown table.

The table in ``docs/rules/mare.md`` is this script's output (a test keeps the two the same).
Each probability is exact (a fraction); the table shows it to 4 decimal places, and the exact
fraction too when it is short.
"""

from __future__ import annotations

from fractions import Fraction

from avanti.mare import POLICIES, CaughtFishRoll, Face, FreeFishRoll, Odds, Options, Policy, odds

OWED = Options(free_fish_move_owed=True)
"""The move after a free fish's colour read as owed (M6), as published simulators play it."""

VARIANTS: tuple[tuple[str, Options, tuple[Policy, ...]], ...] = (
    ("rulebook", Options(), POLICIES),
    ("move owed", OWED, POLICIES),
    (
        "caught colour ignored",
        Options(caught_fish_roll=CaughtFishRoll.NOTHING, free_fish_move_owed=True),
        POLICIES,
    ),
    ("free colour ignored", Options(free_fish_roll=FreeFishRoll.NOTHING), ("closest-to-boat",)),
    (
        "both ignored",
        Options(caught_fish_roll=CaughtFishRoll.NOTHING, free_fish_roll=FreeFishRoll.NOTHING),
        ("closest-to-boat",),
    ),
    (
        "red only moves the boat",
        Options(boat_faces=(Face.RED,), free_fish_move_owed=True),
        POLICIES,
    ),
)
"""The variants in the table: a name, its options, and the policies that make a difference.

The rulebook lets the roller decline the move after a free fish's colour (M6: "may"); every
other row makes it, as the published simulators whose readings they are do. (With the free
fish's colour ignored no move is offered, so there is nothing to decline.)"""

SHORT = 12
"""The longest fraction (in characters) still written out in the table."""


def cell(value: Fraction) -> str:
    """A probability to 4 places, with its exact fraction when that is short."""
    text = f"{float(value):.4f}"
    exact = str(value)
    return f"{text} ({exact})" if len(exact) <= SHORT and value.denominator != 1 else text


def table() -> str:
    """The Markdown table of every variant and policy."""
    lines = [
        "| Variant | Policy (M6) | Fish friends win | Fisher fans win | Draw | Expected rolls |",
        "|---|---|---|---|---|---|",
    ]
    for name, options, policies in VARIANTS:
        for policy in policies:
            o: Odds = odds(policy, options)
            assert o.fish + o.fishers + o.draw == 1
            shown = policy if len(policies) > 1 else "any"
            lines.append(
                f"| {name} | {shown} | {cell(o.fish)} | {cell(o.fishers)} | {cell(o.draw)} "
                f"| {cell(o.expected_rolls)} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
