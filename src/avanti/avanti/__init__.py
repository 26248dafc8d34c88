"""Avanti (Zoch), the flagship game: board, deck, options, state, commands, events, rules, views,
notation, bots and terminal drawing.

``import avanti`` re-exports this package's public names, so ``avanti.new_game`` and
``avanti.avanti.new_game`` are the same function.
"""

from avanti.avanti.board import DEFAULT_BOARD, Board, Space, SpaceKind, load_board
from avanti.avanti.commands import Command, Drive, Invest, PlaceEventMarker, PlayCard, Quit
from avanti.avanti.deck import DEFAULT_DECK, Deck, PowerCard, is_yellow, load_deck
from avanti.avanti.describe import describe
from avanti.avanti.events import (
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
from avanti.avanti.evolve import evolve
from avanti.avanti.game import CODEC, RULES, Game, decide, dumps, execute, loads, new_game, replay
from avanti.avanti.legal import legal_commands
from avanti.avanti.options import RuleOptions
from avanti.avanti.reasons import Reason
from avanti.avanti.rules import Outcome, waiting
from avanti.avanti.scenario import Scenario
from avanti.avanti.setup import Setup
from avanti.avanti.state import GameState, Phase
from avanti.avanti.views import View, redact, view
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

__all__ = [
    "CODEC",
    "DEFAULT_BOARD",
    "DEFAULT_DECK",
    "RULES",
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
    "waiting",
]
