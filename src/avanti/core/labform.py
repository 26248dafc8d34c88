"""What the rules lab needs to know of a game to set up a case as a form: a :class:`LabForm`.

A game declares, once and as data, the fields of a position the lab offers (each a
:class:`FormField` with its :class:`FieldKind`: a count, a choice, a list that follows the
player count, cards from the game's box, a card laid with one of its numbers), the options a
reading may change, the cards in its box (each :class:`BoxCard` with its words and numbers),
the random draws a case may name as outcomes (each an :class:`Outcome`: the next rolls of a
die) and an example case. The lab's page builds its forms from :meth:`LabForm.to_data` and
names no game; the game's presentation holds its form (``Presentation.lab``).

This record is the lab's share of what a game shows of itself: one field (``lab``) of the
game's :class:`~avanti.core.presentation.Presentation`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any

from attrs import field, frozen

from avanti.core.codec import JSONValue

__all__ = ["BoxCard", "FieldKind", "FormField", "LabForm", "Outcome"]


class FieldKind(enum.StrEnum):
    """How a field is filled in, and the JSON value it writes.

    A ``SEAT_...`` kind writes a list with one entry per seat, which follows the player count:
    a seat added gets the field's ``item``, a seat taken away loses its entry.
    """

    COUNT = "count"
    """A whole number from ``least`` to ``most``."""
    CHOICE = "choice"
    """One of ``choices`` (a text)."""
    CHOICES = "choices"
    """Any of ``choices``, in their order: a list of texts."""
    FLAG = "flag"
    """Yes or no: ``true`` or ``false``."""
    SEAT = "seat"
    """One seat, by number."""
    COUNTS = "counts"
    """One whole number per label of ``labels`` (``least`` to ``most``): a list as long as the
    labels."""
    CARDS = "cards"
    """Cards of the box's ``deck``, in order (a pile: its top card first)."""
    SEAT_COUNTS = "seat-counts"
    """A whole number per seat."""
    SEAT_FLAGS = "seat-flags"
    """Yes or no per seat."""
    SEAT_CHOICES = "seat-choices"
    """One of ``choices`` per seat."""
    SEAT_CARDS = "seat-cards"
    """Cards of the box's ``deck`` per seat (a hand: a list per seat, at most ``most`` cards
    when ``most`` is set)."""
    SEAT_LAID = "seat-laid"
    """Per seat, a card of the box's ``deck`` and one of its numbers (``[card, number]``), or
    none (``null``)."""


@frozen(kw_only=True)
class FormField:
    """One field of a case's position (its ``path`` in the setup, ``"scenario.marker"``) or of a
    reading (the option's name), and how it is filled in.

    ``label`` says what it is in the rulebook's words and ``rule`` the rule it follows.
    ``default`` is the value a new case starts from (for a ``SEAT_...`` kind the whole list is
    built from ``item``, the value of one seat). An ``optional`` field may be left unset: it is
    then left out of the setup, and the game's own default applies (said by ``unset``).
    ``rest`` (for ``CARDS``): the cards of the deck that no other field names follow the chosen
    ones, in the box's order, so choosing the top of a pile is enough.
    """

    path: str
    label: str
    kind: FieldKind
    rule: str = ""
    least: int = 0
    most: int = 0
    choices: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    deck: str = ""
    default: Any = None
    item: Any = None
    optional: bool = False
    unset: str = ""
    rest: bool = False

    def to_data(self) -> dict[str, JSONValue]:
        """The field as the lab's page reads it."""
        return {
            "path": self.path,
            "label": self.label,
            "kind": self.kind.value,
            "rule": self.rule,
            "least": self.least,
            "most": self.most,
            "choices": list(self.choices),
            "labels": list(self.labels),
            "deck": self.deck,
            "default": self.default,
            "item": self.item,
            "optional": self.optional,
            "unset": self.unset,
            "rest": self.rest,
        }


@frozen
class BoxCard:
    """One card in a game's box: its id, its words, and the numbers printed on it (if any)."""

    card: int
    words: str
    numbers: tuple[int, ...] = ()

    def to_data(self) -> dict[str, JSONValue]:
        """The card as the lab's page reads it."""
        return {"card": self.card, "words": self.words, "numbers": list(self.numbers)}


@frozen(kw_only=True)
class Outcome:
    """A random draw a case may name in advance (``name``, as the case's ``outcomes`` key): the
    results it wants, in order, each one of ``choices``, at most ``most`` of them.

    Randomness comes only from the seeded generator in the state (``avanti.core.Rng``), so the
    lab keeps every game as the rules play it: it looks for a seed whose generator gives the
    wanted results. ``foresee(seed, k)`` is the result of the ``k``-th random event of a game
    started from the case's position with ``seed`` (``k`` counts from 0).
    """

    name: str
    label: str
    choices: tuple[str, ...]
    foresee: Callable[[int, int], str]
    most: int = 4
    rule: str = ""

    def to_data(self) -> dict[str, JSONValue]:
        """The outcome as the lab's page reads it (``foresee`` stays on the server)."""
        return {
            "name": self.name,
            "label": self.label,
            "choices": list(self.choices),
            "most": self.most,
            "rule": self.rule,
        }


def _box(value: Mapping[str, tuple[BoxCard, ...]]) -> Mapping[str, tuple[BoxCard, ...]]:
    return dict(value)


@frozen(kw_only=True)
class LabForm:
    """What the rules lab offers for one game: the position's ``fields`` (in the order the page
    shows them), the ``options`` a reading may change (each with the library's reading as its
    ``default``), the ``box`` (each deck's cards, in the box's order, by the deck's name),
    the ``outcomes`` a case may name, and an ``example`` case (as JSON) to start from."""

    fields: tuple[FormField, ...]
    options: tuple[FormField, ...]
    example: Mapping[str, Any]
    box: Mapping[str, tuple[BoxCard, ...]] = field(factory=dict, converter=_box)
    outcomes: tuple[Outcome, ...] = ()

    def outcome(self, name: str) -> Outcome | None:
        """The outcome named ``name``, or ``None``."""
        return next((outcome for outcome in self.outcomes if outcome.name == name), None)

    def to_data(self) -> dict[str, JSONValue]:
        """The form as the lab's page reads it."""
        return {
            "fields": [item.to_data() for item in self.fields],
            "options": [item.to_data() for item in self.options],
            "box": {deck: [card.to_data() for card in cards] for deck, cards in self.box.items()},
            "outcomes": [outcome.to_data() for outcome in self.outcomes],
            "example": dict(self.example),
        }
