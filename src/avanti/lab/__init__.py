"""The rules lab: a rules question as a value, played under two readings side by side.

A :class:`Case` holds a game, a position in the format the library reads, two readings of the
rules (option settings) and commands in the game's notation. :func:`compare` plays it under
both readings and returns a :class:`Comparison`: per reading the picture after each command and
the events in words, and the steps where the two part. A notebook shows a comparison as the two
pictures and event lists side by side; :func:`pytest_text` writes a case out as a test, and a
case travels in a link as :meth:`Case.to_fragment`. A case may name the results of a random
draw (the next rolls of a die) as ``outcomes``: :func:`played_seed` finds the seed that gives
them. :func:`step_through` shows a saved game
at every command boundary, each :class:`Moment` with its events in words and its picture.
"""

from avanti.lab.case import MAX_COMMANDS, MAX_FRAGMENT, Case, Reading
from avanti.lab.compare import Comparison, Difference, Step, Trial, compare, start
from avanti.lab.export import pytest_text
from avanti.lab.outcomes import MAX_SEEDS, played_seed
from avanti.lab.replay import Moment, step_through

__all__ = [
    "MAX_COMMANDS",
    "MAX_FRAGMENT",
    "MAX_SEEDS",
    "Case",
    "Comparison",
    "Difference",
    "Moment",
    "Reading",
    "Step",
    "Trial",
    "compare",
    "played_seed",
    "pytest_text",
    "start",
    "step_through",
]
