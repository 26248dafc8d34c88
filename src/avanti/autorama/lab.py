"""What the rules lab offers to set up a For Sale: Autorama case as a form (:data:`FORM`).

The position is a :class:`~avanti.autorama.Scenario`: the phase and round, the three decks, top
first, so the next cards revealed are chosen from the box (F1), and per seat its cash (F2), its
advisors in hand and kept (F12), its vehicles and its checks. A card named nowhere is out of the
game, as the cards F1 removes. The readings switch :class:`~avanti.autorama.Options` (F6, F15).
"""

from __future__ import annotations

from avanti.autorama.describe import box
from avanti.autorama.setup import MAX_CASH, MAX_ROUNDS, Options
from avanti.core.labform import BoxCard, FieldKind, FormField, LabForm

__all__ = ["FORM"]

_BOOK = Options()


def _pile(deck: str, words: str) -> FormField:
    return FormField(
        path=f"scenario.{deck}_deck",
        label=f"The {words} deck, top first: the next {words}s revealed",
        kind=FieldKind.CARDS,
        rule="F1",
        deck=deck,
        default=[],
    )


def _hands(path: str, deck: str, label: str, rule: str) -> FormField:
    return FormField(
        path=f"scenario.{path}",
        label=label,
        kind=FieldKind.SEAT_CARDS,
        rule=rule,
        deck=deck,
        item=[],
    )


FORM = LabForm(
    fields=(
        FormField(
            path="scenario.phase",
            label="The phase",
            kind=FieldKind.CHOICE,
            rule="F4",
            choices=("hiring", "buying", "selling"),
            default="hiring",
        ),
        FormField(
            path="scenario.round",
            label="The round of the phase",
            kind=FieldKind.COUNT,
            rule="F4",
            least=1,
            most=MAX_ROUNDS,
            default=1,
        ),
        _pile("advisor", "advisor"),
        _pile("vehicle", "vehicle"),
        _pile("check", "check"),
        FormField(
            path="scenario.cash",
            label="Cash, in thousands",
            kind=FieldKind.SEAT_COUNTS,
            rule="F2",
            least=0,
            most=MAX_CASH,
            item=28,
            optional=True,
            unset="the starting cash",
        ),
        _hands("advisors", "advisor", "Advisors in hand", "F4"),
        _hands("kept", "advisor", "Advisors kept face up", "F12"),
        _hands("vehicles", "vehicle", "Vehicles", "F9"),
        _hands("checks", "check", "Checks won", "F14"),
    ),
    options=(
        FormField(
            path="sales_associate_refunds_winner",
            label="A Sales Associate refunds the player who wins it too",
            kind=FieldKind.FLAG,
            rule="F6",
            default=_BOOK.sales_associate_refunds_winner,
        ),
        FormField(
            path="lawyer_single_use",
            label="A Lawyer is discarded once used",
            kind=FieldKind.FLAG,
            rule="F15",
            default=_BOOK.lawyer_single_use,
        ),
        FormField(
            path="lawyer_choice",
            label="A player holding several Lawyers names the one used",
            kind=FieldKind.FLAG,
            rule="F15",
            default=_BOOK.lawyer_choice,
        ),
    ),
    box={
        deck: tuple(BoxCard(card, words) for card, words in cards) for deck, cards in box().items()
    },
    example={
        "game": "autorama",
        "question": "F6: is the winner of a Sales Associate refunded?",
        "players": ["Isaac", "Becky", "Chloe"],
        "seed": 1,
        "setup": {
            "scenario": {
                "phase": "hiring",
                "round": 1,
                "advisor_deck": [1, 2, 3],
                "vehicle_deck": [1, 2, 3],
                "check_deck": [0, 0, 2],
                "advisors": [[], [], []],
                "kept": [[], [], []],
                "vehicles": [[], [], []],
                "checks": [[], [], []],
            }
        },
        "readings": [
            {"name": "Only those who pass", "options": {"sales_associate_refunds_winner": False}},
            {"name": "The winner too", "options": {"sales_associate_refunds_winner": True}},
        ],
        "commands": ["bid 4000", "pass", "pass"],
    },
)
"""The For Sale: Autorama case form of the rules lab (its presentation's ``lab``)."""
