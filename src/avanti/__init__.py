"""avanti: typed, immutable, event-sourced rules for Avanti, For Sale: Autorama and Avanti mare!

``import avanti`` gives the flagship, Avanti (Zoch): every public name of its package
``avanti.avanti`` is re-exported here, so ``avanti.new_game(["Ann", "Bob", "Cy"], seed=7)`` starts
a game. The errors are shared by every game: ``avanti.IllegalCommand`` is raised by all of them.
"""

from avanti.avanti import *  # noqa: F403  (the flagship's public names, listed there once)
from avanti.avanti import __all__ as _flagship

__version__ = "0.1.0"

__all__ = [*_flagship, "__version__"]
