"""What the rules lab offers to set up an Avanti mare! case as a form (:data:`FORM`).

The position is a :class:`~avanti.mare.Scenario` (the boat and each fish, M1, M5), the sides
(M2) and whose roll it is. The die's next rolls are an outcome a case names (M3): the lab finds
a seed whose generator rolls them, so the game stays one the rules play. The readings switch
:class:`~avanti.mare.Options` (M5-M7, M9).
"""

from __future__ import annotations

from avanti.core.labform import FieldKind, FormField, LabForm, Outcome
from avanti.core.rng import Stream
from avanti.mare.setup import FACES, FISH, PIECES, SEA, Options, Side

__all__ = ["FORM", "foresee_roll"]

_BOOK = Options()


def foresee_roll(seed: int, draw: int) -> str:
    """The face the die shows on the ``draw``-th roll (from 0) of a game seeded ``seed``: each
    roll is one random event, ``FACES[below(6)]`` of the sub-stream ``(seed, draw)`` (M3)."""
    return FACES[Stream(seed, draw).below(len(FACES))].value


def _choice(path: str, label: str, rule: str, values: tuple[str, ...], default: str) -> FormField:
    return FormField(
        path=path, label=label, kind=FieldKind.CHOICE, rule=rule, choices=values, default=default
    )


FORM = LabForm(
    fields=(
        FormField(
            path="first", label="Whose roll it is", kind=FieldKind.SEAT, rule="M2", default=0
        ),
        FormField(
            path="sides",
            label="Each player's side",
            kind=FieldKind.SEAT_CHOICES,
            rule="M2",
            choices=tuple(side.value for side in Side),
            item=Side.FISH_FRIENDS.value,
            optional=True,
            unset="taken in turn, fish friends first",
        ),
        FormField(
            path="scenario.boat",
            label="River pieces the boat has taken",
            kind=FieldKind.COUNT,
            rule="M5",
            least=0,
            most=PIECES - 1,
            default=0,
        ),
        FormField(
            path="scenario.fish",
            label=f"Where each fish is: a river piece 1-{PIECES}, {SEA} free in the sea, 0 caught",
            kind=FieldKind.COUNTS,
            rule="M1",
            least=0,
            most=SEA,
            labels=tuple(fish.value for fish in FISH),
            default=[6, 6, 6, 6],
        ),
    ),
    options=(
        FormField(
            path="boat_faces",
            label="The fishers' faces that move the boat",
            kind=FieldKind.CHOICES,
            rule="M5",
            choices=("red", "green"),
            default=[face.value for face in _BOOK.boat_faces],
        ),
        _choice(
            "caught_fish_roll",
            "What a caught fish's colour does",
            "M7",
            ("boat", "nothing", "reroll"),
            _BOOK.caught_fish_roll.value,
        ),
        _choice(
            "free_fish_roll",
            "What a free fish's colour does",
            "M6",
            ("other-fish", "nothing", "reroll"),
            _BOOK.free_fish_roll.value,
        ),
        FormField(
            path="free_fish_move_owed",
            label="The move a free fish's colour offers must be made",
            kind=FieldKind.FLAG,
            rule="M6",
            default=_BOOK.free_fish_move_owed,
        ),
    ),
    outcomes=(
        Outcome(
            name="die",
            label="The die's next rolls",
            choices=tuple(face.value for face in FACES),
            foresee=foresee_roll,
            rule="M3",
        ),
    ),
    example={
        "game": "mare",
        "question": "M7: what does a caught fish's colour do?",
        "players": ["Ann", "Bob"],
        "seed": 0,
        "setup": {"first": 0, "scenario": {"boat": 2, "fish": [12, 0, 6, 8]}},
        "outcomes": {"die": ["orange"]},
        "readings": [
            {"name": "It moves the boat", "options": {"caught_fish_roll": "boat"}},
            {"name": "It does nothing", "options": {"caught_fish_roll": "nothing"}},
        ],
        "commands": ["roll"],
    },
)
"""The Avanti mare! case form of the rules lab (its presentation's ``lab``)."""
