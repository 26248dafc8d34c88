"""What the rules lab offers to set up an Avanti case as a form (:data:`FORM`).

The position is a :class:`~avanti.avanti.Scenario`: the event marker and each car's distance
(A4, A12), cash, figures, who has quit, the hands and the laid cards (each a card of the box
with one of its numbers, A8), and the draw pile, top first, so the next card drawn is chosen
from the box (A13). The readings switch :class:`~avanti.avanti.RuleOptions` (A18, A21).
"""

from __future__ import annotations

from avanti.avanti.board import DEFAULT_BOARD
from avanti.avanti.deck import DEFAULT_DECK
from avanti.avanti.options import RuleOptions
from avanti.avanti.runend import HAND_SIZE
from avanti.avanti.scenario import MAX_CASH, MAX_ROUND, MAX_RUN, STARTING_CASH
from avanti.core.labform import BoxCard, FieldKind, FormField, LabForm

__all__ = ["FORM"]

_DECK = "power"
_SPACES = len(DEFAULT_BOARD.track)
_BOOK = RuleOptions()


def _words(card: int, numbers: tuple[int, ...]) -> str:
    return f"card {card} ({', '.join(map(str, numbers))})"


FORM = LabForm(
    fields=(
        FormField(
            path="scenario.phase",
            label="The step of the round",
            kind=FieldKind.CHOICE,
            rule="A8",
            choices=("planning", "driving", "investing"),
            default="planning",
        ),
        FormField(
            path="scenario.run",
            label="Run",
            kind=FieldKind.COUNT,
            rule="A8",
            least=1,
            most=MAX_RUN,
            default=1,
        ),
        FormField(
            path="scenario.round",
            label="Round",
            kind=FieldKind.COUNT,
            rule="A8",
            least=1,
            most=MAX_ROUND,
            default=1,
        ),
        FormField(
            path="scenario.marker",
            label="The event marker's road space",
            kind=FieldKind.COUNT,
            rule="A7",
            least=0,
            most=_SPACES - 1,
            default=0,
        ),
        FormField(
            path="scenario.distances",
            label="How far each car has driven this run (its road space: marker + distance)",
            kind=FieldKind.SEAT_COUNTS,
            rule="A12",
            least=0,
            most=100 * _SPACES,
            item=0,
        ),
        FormField(
            path="scenario.quit",
            label="Has quit this run",
            kind=FieldKind.SEAT_FLAGS,
            rule="A14",
            item=False,
            optional=True,
            unset="nobody has quit",
        ),
        FormField(
            path="scenario.hands",
            label="The cards in hand",
            kind=FieldKind.SEAT_CARDS,
            rule="A8",
            most=HAND_SIZE,
            deck=_DECK,
            item=[],
        ),
        FormField(
            path="scenario.laid",
            label="The card laid this round, and its number",
            kind=FieldKind.SEAT_LAID,
            rule="A8",
            deck=_DECK,
            item=None,
            optional=True,
            unset="nobody has laid a card",
        ),
        FormField(
            path="scenario.cash",
            label="Cash",
            kind=FieldKind.SEAT_COUNTS,
            rule="A2",
            least=0,
            most=MAX_CASH,
            item=STARTING_CASH,
            optional=True,
            unset=f"{STARTING_CASH:,} each",
        ),
        FormField(
            path="scenario.island",
            label="Each figure's island space",
            kind=FieldKind.SEAT_COUNTS,
            rule="A5",
            least=0,
            most=len(DEFAULT_BOARD.island) - 1,
            item=0,
            optional=True,
            unset="every figure on the start space",
        ),
        FormField(
            path="scenario.draw",
            label="The draw pile, top first: the next cards drawn (the cards named nowhere"
            " else follow, by number)",
            kind=FieldKind.CARDS,
            rule="A13",
            deck=_DECK,
            default=[],
            rest=True,
        ),
        FormField(
            path="scenario.discard",
            label="The discard pile, top last",
            kind=FieldKind.CARDS,
            rule="A13",
            deck=_DECK,
            default=[],
        ),
    ),
    options=(
        FormField(
            path="atm_last_car_wraps",
            label="The last car counts the leader as the car behind it",
            kind=FieldKind.FLAG,
            rule="A21",
            default=_BOOK.atm_last_car_wraps,
        ),
        FormField(
            path="atm_behind_in_race_order",
            label="'The car immediately behind' is the next car back in the race order",
            kind=FieldKind.FLAG,
            rule="A21",
            default=_BOOK.atm_behind_in_race_order,
        ),
        FormField(
            path="quitters_cards_keep_run_going",
            label="A quitter still holding cards keeps the run going",
            kind=FieldKind.FLAG,
            rule="A18",
            default=_BOOK.quitters_cards_keep_run_going,
        ),
    ),
    box={
        _DECK: tuple(
            BoxCard(card.id, _words(card.id, card.numbers), card.numbers)
            for card in DEFAULT_DECK.cards
        )
    },
    example={
        "game": "avanti",
        "question": "A21: does the last car collect the lots past the leader?",
        "players": ["Jack", "Isabella", "Tina", "Steve", "William"],
        "seed": 1,
        "setup": {
            "scenario": {
                "phase": "driving",
                "round": 5,
                "marker": 22,
                "distances": [29, 15, 28, 30, 31],
                "quit": [False, True, False, True, False],
                "hands": [[], [], [], [], []],
                "laid": [[0, 1], None, [18, 3], None, [19, 3]],
            }
        },
        "readings": [
            {"name": "The last car counts the leader", "options": {"atm_last_car_wraps": True}},
            {
                "name": "The last car has no car behind it",
                "options": {"atm_last_car_wraps": False},
            },
        ],
        "commands": ["drive", "drive", "drive"],
    },
)
"""The Avanti case form of the rules lab (its presentation's ``lab``)."""
