"""For Sale: Autorama worked example: the phase 2 round with a Fleet Manager raised to 33 (F9-F11).

The position is built with :class:`avanti.autorama.Scenario`, the example's commands are played,
and the rulebook's numbers are asserted (the shared helpers live in ``autorama_examples.py``, which
runs every worked example in turn). :func:`illustration` is the checked game before and after the
example's commands, which the docs draw beside the example.
"""

from __future__ import annotations

from autorama_examples import Illustration, fleet_manager


def illustration() -> Illustration:
    """The round as Becky sees it: her Fleet Manager 15, then the 30 it bought (F9-F11)."""
    return fleet_manager()


if __name__ == "__main__":
    fleet_manager()
