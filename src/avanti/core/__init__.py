"""The game-agnostic core: rulesets, the immutable game aggregate, randomness, errors and JSON.

Nothing here knows any particular game; every game of the library is built on it.
"""

from avanti.core.codec import Codec, JSONValue, make_converter
from avanti.core.errors import (
    AvantiError,
    CoreReason,
    CorruptLog,
    DecodeError,
    IllegalCommand,
    InvalidArgument,
    InvalidBoard,
    InvalidSetup,
    UnknownGame,
    VersionConflict,
    refuse,
)
from avanti.core.game import Game, LegalCommands, Seen, execute, fold
from avanti.core.rng import Rng, Stream
from avanti.core.ruleset import Ruleset
from avanti.core.store import EventStore, MemoryEventStore

__all__ = [
    "AvantiError",
    "Codec",
    "CoreReason",
    "CorruptLog",
    "DecodeError",
    "EventStore",
    "Game",
    "IllegalCommand",
    "InvalidArgument",
    "InvalidBoard",
    "InvalidSetup",
    "JSONValue",
    "LegalCommands",
    "MemoryEventStore",
    "Rng",
    "Ruleset",
    "Seen",
    "Stream",
    "UnknownGame",
    "VersionConflict",
    "execute",
    "fold",
    "make_converter",
    "refuse",
]
