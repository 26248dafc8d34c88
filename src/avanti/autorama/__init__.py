"""For Sale: Autorama, by Stefan Dorra: hire advisors, buy vehicles, sell them for checks.

Rules are cited by the ids F1-F20 of the rules page. Money is counted in thousands of dollars
(``1`` is $1,000); :func:`describe` writes it in dollars.

>>> from avanti import autorama
>>> game = autorama.new_game(["Ann", "Bob", "Cy"], seed=7)
>>> game.view(0).phase
<Phase.HIRING: 'hiring'>

Left out, the seed is drawn afresh for every game (it deals every card, so it stays on the
server); a front end is sent :attr:`Game.public_setup`, which holds no seed:

>>> game.public_setup.players
('Ann', 'Bob', 'Cy')
"""

from avanti.autorama.cards import Kind, dollars, kind_of
from avanti.autorama.commands import (
    Bid,
    Command,
    DeclineMechanic,
    Offer,
    OfferWithLawyer,
    Pass,
    PlayAdvisor,
    TakeBack,
    UseMechanic,
)
from avanti.autorama.describe import advisor_name, box, describe, narrate
from avanti.autorama.encoding import AutoramaEncoding, encoding
from avanti.autorama.events import (
    AdvisorHired,
    AdvisorPlayed,
    AdvisorsRevealed,
    BidPlaced,
    BonusReceived,
    ChecksRevealed,
    ConsultantPaid,
    DecksShuffled,
    Event,
    GameEnded,
    LawyerDiscarded,
    MechanicDeclined,
    MechanicUsed,
    OffersRevealed,
    Passed,
    VehicleBought,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
    VehicleSold,
    VehiclesRevealed,
    VehicleTakenBack,
)
from avanti.autorama.evolve import evolve
from avanti.autorama.explain import explain
from avanti.autorama.game import CODEC, RULES, Game, decide, dumps, execute, loads, new_game, replay
from avanti.autorama.reasons import Reason
from avanti.autorama.rules import legal_commands, outcome, waiting
from avanti.autorama.scoring import Assignment, Outcome, Score, best_assignment
from avanti.autorama.setup import (
    Options,
    Phase,
    PublicScenario,
    PublicSetup,
    Scenario,
    Setup,
    public_setup,
)
from avanti.autorama.state import GameState, Step
from avanti.autorama.svg import picture
from avanti.autorama.views import View, redact, view
from avanti.core import IllegalCommand, InvalidSetup

__all__ = [
    "CODEC",
    "RULES",
    "AdvisorHired",
    "AdvisorPlayed",
    "AdvisorsRevealed",
    "Assignment",
    "AutoramaEncoding",
    "Bid",
    "BidPlaced",
    "BonusReceived",
    "ChecksRevealed",
    "Command",
    "ConsultantPaid",
    "DecksShuffled",
    "DeclineMechanic",
    "Event",
    "Game",
    "GameEnded",
    "GameState",
    "IllegalCommand",
    "InvalidSetup",
    "Kind",
    "LawyerDiscarded",
    "MechanicDeclined",
    "MechanicUsed",
    "Offer",
    "OfferWithLawyer",
    "OffersRevealed",
    "Options",
    "Outcome",
    "Pass",
    "Passed",
    "Phase",
    "PlayAdvisor",
    "PublicScenario",
    "PublicSetup",
    "Reason",
    "Scenario",
    "Score",
    "Setup",
    "Step",
    "TakeBack",
    "UseMechanic",
    "VehicleBought",
    "VehicleSold",
    "VehicleTakenBack",
    "VehiclesOffered",
    "VehiclesOfferedWithLawyer",
    "VehiclesRevealed",
    "View",
    "advisor_name",
    "best_assignment",
    "box",
    "decide",
    "describe",
    "dollars",
    "dumps",
    "encoding",
    "evolve",
    "execute",
    "explain",
    "kind_of",
    "legal_commands",
    "loads",
    "narrate",
    "new_game",
    "outcome",
    "picture",
    "public_setup",
    "redact",
    "replay",
    "view",
    "waiting",
]
