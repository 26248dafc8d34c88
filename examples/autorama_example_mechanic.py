"""For Sale: Autorama worked example: the phase 3 Mechanic (F14-F17).

The position is built with :class:`avanti.autorama.Scenario`, the example's commands are played,
and the rulebook's numbers are asserted (the shared helpers live in ``autorama_examples.py``, which
runs every worked example in turn). :func:`illustration` is the checked game before and after the
example's commands, which the docs draw beside the example.
"""

from __future__ import annotations

from autorama_examples import Illustration, mechanic


def illustration() -> Illustration:
    """The reveal as Chloe sees it: the three offers face up, then the checks (F16, F17)."""
    return mechanic()


if __name__ == "__main__":
    mechanic()
