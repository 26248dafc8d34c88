"""For Sale: Autorama worked example: the phase 1 auction with Isaac, Becky and Chloe (F4-F7).

The position is built with :class:`avanti.autorama.Scenario`, the example's commands are played,
and the rulebook's numbers are asserted (the shared helpers live in ``autorama_examples.py``, which
runs every worked example in turn). :func:`illustration` is the checked game before and after the
example's commands, which the docs draw beside the example.
"""

from __future__ import annotations

from autorama_examples import Illustration, auction


def illustration() -> Illustration:
    """The auction as a spectator sees it: the three advisors up, then who took which (F4-F7)."""
    return auction()


if __name__ == "__main__":
    auction()
