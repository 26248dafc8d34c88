"""Every game the hardening properties run on: adding a game is one line in ``SPECS``."""

from __future__ import annotations

from tests.hardening.games_autorama import AUTORAMA
from tests.hardening.games_avanti import AVANTI
from tests.hardening.games_mare import MARE
from tests.hardening.games_toy import TOY
from tests.hardening.spec import GameSpec

SPECS: tuple[GameSpec, ...] = (TOY, MARE, AVANTI, AUTORAMA)
"""The games under test, by spec."""
