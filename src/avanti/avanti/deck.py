"""The Power cards as data (A3).

A :class:`Deck` is a value: build one in code, load one from a file with :func:`load_deck`, or
use :data:`DEFAULT_DECK`. Every deck is checked when it is built and a malformed one raises
:class:`~avanti.core.errors.InvalidBoard` naming the bad field, the value found there and the rule.
Whether a deck is big enough to deal to a given number of players is checked by the game's setup.

**The file format.** A deck file is TOML (``.toml``) or JSON (``.json``); the suffix decides.
It has one key, ``cards``, a list of tables, each with exactly two keys:

``id``
    The card's number, so a command can name it; the ids run 0, 1, 2, ... in list order.
``numbers``
    The three numbers printed on the card, each from 1 to 7 (A3).

For example, in TOML::

    cards = [
        { id = 0, numbers = [1, 4, 5] },
        { id = 1, numbers = [2, 6, 7] },
    ]

TOML's ``[[cards]]`` tables mean the same as the inline list. :func:`deck_to_data` writes this
format as plain data and :func:`deck_from_data` reads it back.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from attrs import frozen

from avanti.avanti.board import _is_int, _list, _mapping, read_data
from avanti.core.errors import InvalidBoard

__all__ = [
    "DEFAULT_DECK",
    "HIGHEST_NUMBER",
    "LOWEST_NUMBER",
    "Deck",
    "PowerCard",
    "deck_from_data",
    "deck_to_data",
    "is_yellow",
    "load_deck",
]

LOWEST_NUMBER = 1
"""The lowest number a Power card may print (A3)."""
HIGHEST_NUMBER = 7
"""The highest number a Power card may print (A3)."""
_HIGHEST_YELLOW = 3


def is_yellow(number: int) -> bool:
    """Whether ``number`` is yellow (1-3): driving with it draws a card afterwards (A3, A13).

    The numbers 4-7 are red and draw nothing.
    """
    return number <= _HIGHEST_YELLOW


@frozen
class PowerCard:
    """A Power card (A3): an id to name it by, and the three numbers printed on it.

    Laying a card means choosing one of its numbers (A8); the car then drives that far (A11).

    :raises InvalidBoard: naming ``id`` or ``numbers[i]`` if the id is not a whole number, zero or
        more, or the card does not print exactly three numbers from 1 to 7.
    """

    id: int
    """The card's id, its position in the deck, by which commands name it (A8)."""
    numbers: tuple[int, int, int]
    """The three printed numbers, each from 1 to 7 (A3)."""

    def __attrs_post_init__(self) -> None:
        if not _is_int(self.id) or self.id < 0:
            raise InvalidBoard("id", self.id, "A3: a card id is a whole number, 0 or more")
        numbers: object = self.numbers
        if not isinstance(numbers, tuple) or len(numbers) != 3:
            raise InvalidBoard("numbers", numbers, "A3: a card prints exactly three numbers")
        for index, number in enumerate(numbers):
            if not _is_int(number) or not LOWEST_NUMBER <= number <= HIGHEST_NUMBER:
                raise InvalidBoard(
                    f"numbers[{index}]", number, "A3: a card number is a whole number from 1 to 7"
                )

    def has(self, number: int) -> bool:
        """Whether ``number`` is printed on this card, so the card can be played with it (A8)."""
        return number in self.numbers


@frozen
class Deck:
    """All the Power cards of a game (A3), in id order: ``cards[i].id == i``.

    :raises InvalidBoard: naming ``cards`` or ``cards[i]...`` if the deck is empty, holds something
        other than a :class:`PowerCard`, repeats an id, or its ids do not run 0..n-1 in order.
    """

    cards: tuple[PowerCard, ...]
    """Every card of the deck, card ``i`` at index ``i`` (A3)."""

    def __attrs_post_init__(self) -> None:
        cards: object = self.cards
        if not isinstance(cards, tuple):
            raise InvalidBoard("cards", cards, "A3: a deck is a tuple of Power cards")
        if not cards:
            raise InvalidBoard("cards", cards, "A3: a deck needs at least one card")
        seen: set[int] = set()
        for index, card in enumerate(cards):
            if not isinstance(card, PowerCard):
                raise InvalidBoard(f"cards[{index}]", card, "A3: each deck entry is a PowerCard")
            if card.id in seen:
                raise InvalidBoard(f"cards[{index}].id", card.id, "A3: this card id is repeated")
            seen.add(card.id)
        for index, card in enumerate(cards):
            if card.id != index:
                raise InvalidBoard(
                    f"cards[{index}].id",
                    card.id,
                    f"A3: card ids run 0..{len(cards) - 1} in order, so this one should be {index}",
                )

    @property
    def ids(self) -> range:
        """The ids of the cards, ``0..len(deck)-1``: what a command may name (A8)."""
        return range(len(self.cards))

    def card(self, id: int) -> PowerCard:
        """The card with this id.

        :raises KeyError: if no card has this id.
        """
        if _is_int(id) and 0 <= id < len(self.cards):
            return self.cards[id]
        raise KeyError(f"no Power card has id {id!r}; ids run 0..{len(self.cards) - 1}")

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[PowerCard]:
        return iter(self.cards)


_YELLOW_NUMBERS = (1, 2, 3)
_RED_PAIRS = ((4, 5), (4, 6), (4, 7), (5, 6), (5, 7), (6, 7), (4, 5), (5, 6), (6, 7))

DEFAULT_DECK = Deck(
    tuple(
        PowerCard(yellow_index * len(_RED_PAIRS) + pair_index, (yellow, red1, red2))
        for yellow_index, yellow in enumerate(_YELLOW_NUMBERS)
        for pair_index, (red1, red2) in enumerate(_RED_PAIRS)
    )
)
"""The deck this library plays with by default (our own numbers; the published ones are unknown).

27 cards, each printing one yellow number and two different red ones as (yellow, red, red): for
each yellow number 1, 2, 3 in turn, the red pairs (4,5), (4,6), (4,7), (5,6), (5,7), (6,7),
(4,5), (5,6), (6,7). Card ``9 * (yellow - 1) + k`` has the k-th pair, so cards 0-8 carry a 1,
9-17 a 2 and 18-26 a 3 (A3).
"""


# --- plain data and files ------------------------------------------------------------------------


def _card_from_data(data: object, path: str) -> PowerCard:
    table = _mapping(data, path, ("id", "numbers"))
    numbers = _list(table["numbers"], f"{path}.numbers")
    try:
        return PowerCard(table["id"], tuple(numbers))  # PowerCard checks the length and numbers
    except InvalidBoard as error:
        raise InvalidBoard(f"{path}.{error.field}", error.value, error.message) from None


def deck_from_data(data: object) -> Deck:
    """Build a :class:`Deck` from plain data in the file format of this module.

    ``data`` is what :mod:`tomllib` or :func:`json.loads` gives for a deck file.

    :raises InvalidBoard: naming the field (``cards[5].numbers[1]``, ``cards[2].id``, ...) for a
        missing or unknown key, a value of the wrong type, or a value the rules forbid.
    """
    table = _mapping(data, "", ("cards",))
    return Deck(
        tuple(
            _card_from_data(card, f"cards[{i}]")
            for i, card in enumerate(_list(table["cards"], "cards"))
        )
    )


def deck_to_data(deck: Deck) -> dict[str, Any]:
    """The plain data of ``deck`` in the file format of this module.

    ``deck_from_data(deck_to_data(deck)) == deck`` for every deck; :func:`json.dumps` can write
    the result as it is.
    """
    return {"cards": [{"id": card.id, "numbers": list(card.numbers)} for card in deck.cards]}


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Load a deck from a TOML or JSON file in the format of this module.

    :raises InvalidBoard: naming the field and value if the file cannot be read or the deck in it
        is malformed (see :func:`deck_from_data` and :func:`avanti.avanti.board.read_data`).
    """
    return deck_from_data(read_data(path))
