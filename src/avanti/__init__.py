"""avanti: typed, immutable, event-sourced rules for Avanti, For Sale: Autorama and Avanti mare!

The errors are shared by every game: ``avanti.IllegalCommand`` is raised by all of them.
"""

from avanti.core.errors import (
    AvantiError,
    CoreReason,
    CorruptLog,
    DecodeError,
    IllegalCommand,
    InvalidBoard,
    InvalidSetup,
    VersionConflict,
)

__version__ = "0.1.0"

__all__ = [
    "AvantiError",
    "CoreReason",
    "CorruptLog",
    "DecodeError",
    "IllegalCommand",
    "InvalidBoard",
    "InvalidSetup",
    "VersionConflict",
    "__version__",
]
