"""avanti: typed, immutable, event-sourced rules for Avanti, For Sale: Autorama and Avanti mare!

``import avanti`` is the Avanti (Zoch) ruleset itself: ``avanti.new_game(["Ann", "Bob", "Cy"],
seed=7)`` starts a game; commands, events, views and the JSON entry points are re-exported here.
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
from avanti.game.board import DEFAULT_BOARD, Board, Space, SpaceKind, load_board
from avanti.game.commands import Command, Drive, Invest, PlaceEventMarker, PlayCard, Quit
from avanti.game.decide import decide
from avanti.game.deck import DEFAULT_DECK, Deck, PowerCard, is_yellow, load_deck
from avanti.game.describe import describe
from avanti.game.events import (
    AtmWithdrawn,
    BankPaid,
    BankPayment,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsDealt,
    CarMoved,
    DeckShuffled,
    DrivingBegan,
    Event,
    EventMarkerPlaced,
    FigureAdvanced,
    FigureRetreated,
    GameEnded,
    Invested,
    Pile,
    PlayerQuit,
    QuitReason,
    RoundStarted,
    RunEnded,
    RunStarted,
    TollPaid,
)
from avanti.game.evolve import evolve
from avanti.game.game import Game, dumps, execute, loads, new_game, replay
from avanti.game.legal import legal_commands
from avanti.game.options import RuleOptions
from avanti.game.reasons import Reason
from avanti.game.rules import CODEC, Outcome
from avanti.game.scenario import Scenario
from avanti.game.setup import Setup
from avanti.game.state import GameState, Phase
from avanti.game.views import View, redact, view

__version__ = "0.1.0"

__all__ = [
    "CODEC",
    "DEFAULT_BOARD",
    "DEFAULT_DECK",
    "AtmWithdrawn",
    "AvantiError",
    "BankPaid",
    "BankPayment",
    "Board",
    "CarMoved",
    "CardDiscarded",
    "CardDrawn",
    "CardPlayed",
    "CardsDealt",
    "Command",
    "CoreReason",
    "CorruptLog",
    "Deck",
    "DeckShuffled",
    "DecodeError",
    "Drive",
    "DrivingBegan",
    "Event",
    "EventMarkerPlaced",
    "FigureAdvanced",
    "FigureRetreated",
    "Game",
    "GameEnded",
    "GameState",
    "IllegalCommand",
    "InvalidBoard",
    "InvalidSetup",
    "Invest",
    "Invested",
    "Outcome",
    "Phase",
    "Pile",
    "PlaceEventMarker",
    "PlayCard",
    "PlayerQuit",
    "PowerCard",
    "Quit",
    "QuitReason",
    "Reason",
    "RoundStarted",
    "RuleOptions",
    "RunEnded",
    "RunStarted",
    "Scenario",
    "Setup",
    "Space",
    "SpaceKind",
    "TollPaid",
    "VersionConflict",
    "View",
    "__version__",
    "decide",
    "describe",
    "dumps",
    "evolve",
    "execute",
    "is_yellow",
    "legal_commands",
    "load_board",
    "load_deck",
    "loads",
    "new_game",
    "redact",
    "replay",
    "view",
]
