"""Players that choose commands, for every game in the catalog: build one with :func:`make_bot`.

A bot sees only what its seat may see (a view) and its legal commands, and draws any randomness it
needs from the :class:`~avanti.core.rng.Stream` it is given, so a seeded run is reproducible.

Three kinds of bot play the games in the catalog:

- ``random``: :class:`RandomBot`, a uniformly random legal command; the baseline.
- ``heuristic``: a hand-written strategy per game, in the game's own ``bots`` module and
  documented on its class (:class:`avanti.avanti.bots.AvantiBot`, :class:`avanti.mare.bots.MareBot`,
  :class:`avanti.autorama.bots.AutoramaBot`).
- ``search``: :class:`~avanti.core.search.SearchBot`, Monte Carlo tree search over hidden states
  sampled from the view by the game's :class:`~avanti.core.search.StateSampler`.

The protocol and the generic bots live in :mod:`avanti.core.bots` and :mod:`avanti.core.search`
(below the games, which build on them); this package is the tools' side: :func:`make_bot`, the
driver (:mod:`avanti.bots.driver`) and the simulator (:mod:`avanti.bots.simulate`).
"""

from __future__ import annotations

from avanti.bots.kit import BOT_KINDS, kit_for, make_bot
from avanti.core.bots import Bot, GameKit, RandomBot
from avanti.core.search import SearchBot, StateSampler

__all__ = [
    "BOT_KINDS",
    "Bot",
    "GameKit",
    "RandomBot",
    "SearchBot",
    "StateSampler",
    "kit_for",
    "make_bot",
]
