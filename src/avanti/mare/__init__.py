"""Avanti mare!, the river race of four fish against a fishing boat, on the avanti core.

The rules as this library reads them are M1-M9 of ``RULES-mare.md``; the variants published
simulators use are :class:`Options` (M9). The entry points have the same names as in every game::

    game = new_game(["Ann", "Bob"])  # the seed of the die is drawn afresh: the server's secret
    game = game.execute(Roll(seat=0))
    game.public_setup  # what every seat may know: all of the setup but the seed

:func:`odds` gives the exact chances of each result under a policy for the one choice (M6: after a
free fish's colour, which other fish to move, or none), and :func:`simulate` plays many games to
check them. :func:`picture` draws a view as an SVG picture (a notebook shows a game or a view as
one by itself).
"""

from avanti.core import CoreReason, CorruptLog, DecodeError, IllegalCommand, InvalidSetup
from avanti.mare.chances import POLICIES, Odds, Policy, Tally, choose, odds, simulate
from avanti.mare.commands import Command, MoveFish, Roll, SkipMove
from avanti.mare.describe import describe, narrate
from avanti.mare.encoding import encoding
from avanti.mare.events import (
    DieRolled,
    Event,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    GameEnded,
    MoveDeclined,
    MoveOffered,
    PieceRemoved,
    RollIgnored,
    TurnPassed,
)
from avanti.mare.explain import explain
from avanti.mare.game import CODEC, RULES, Game, decide, dumps, execute, loads, new_game, replay
from avanti.mare.rules import Reason, cause, evolve, legal_commands, outcome, waiting
from avanti.mare.scenario import Scenario
from avanti.mare.setup import (
    CAUGHT,
    FACES,
    FISH,
    MAX_BOAT_FACES,
    MAX_PLAYERS,
    MAX_SEED,
    PIECES,
    SEA,
    START,
    CaughtFishRoll,
    Face,
    Fish,
    FreeFishRoll,
    Options,
    PublicSetup,
    Setup,
    Side,
    public_setup,
)
from avanti.mare.state import GameState, Outcome, Result
from avanti.mare.svg import picture
from avanti.mare.views import View, redact, view

__all__ = [
    "CAUGHT",
    "CODEC",
    "FACES",
    "FISH",
    "MAX_BOAT_FACES",
    "MAX_PLAYERS",
    "MAX_SEED",
    "PIECES",
    "POLICIES",
    "RULES",
    "SEA",
    "START",
    "CaughtFishRoll",
    "Command",
    "CoreReason",
    "CorruptLog",
    "DecodeError",
    "DieRolled",
    "Event",
    "Face",
    "Fish",
    "FishCaught",
    "FishChosen",
    "FishFreed",
    "FishSwam",
    "FreeFishRoll",
    "Game",
    "GameEnded",
    "GameState",
    "IllegalCommand",
    "InvalidSetup",
    "MoveDeclined",
    "MoveFish",
    "MoveOffered",
    "Odds",
    "Options",
    "Outcome",
    "PieceRemoved",
    "Policy",
    "PublicSetup",
    "Reason",
    "Result",
    "Roll",
    "RollIgnored",
    "Scenario",
    "Setup",
    "Side",
    "SkipMove",
    "Tally",
    "TurnPassed",
    "View",
    "cause",
    "choose",
    "decide",
    "describe",
    "dumps",
    "encoding",
    "evolve",
    "execute",
    "explain",
    "legal_commands",
    "loads",
    "narrate",
    "new_game",
    "odds",
    "outcome",
    "picture",
    "public_setup",
    "redact",
    "replay",
    "simulate",
    "view",
    "waiting",
]
