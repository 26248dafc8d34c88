"""For Sale: Autorama worked example: the Controller, Restoration Specialist and Financial Advisor
scoring examples (F19).

The position is built with :class:`avanti.autorama.Scenario`, the example's commands are played,
and the rulebook's numbers are asserted (the shared helpers live in ``autorama_examples.py``, which
runs every worked example in turn). :func:`illustration` is the checked game before and after the
example's commands, which the docs draw beside the example.
"""

from __future__ import annotations

from autorama_examples import Illustration, scoring


def illustration() -> Illustration:
    """As a spectator sees it: the advisors kept for scoring, then the totals (F19, F20)."""
    return scoring()


if __name__ == "__main__":
    scoring()
