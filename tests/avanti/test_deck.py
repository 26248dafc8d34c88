"""The Power cards as data (A3): the default deck, validation, plain data and files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from avanti.avanti.deck import (
    DEFAULT_DECK,
    Deck,
    PowerCard,
    deck_from_data,
    deck_to_data,
    is_yellow,
    load_deck,
)
from avanti.core.errors import InvalidBoard

BOARDS = Path(__file__).resolve().parents[2] / "docs" / "boards"


def attempt(data: object) -> Deck | InvalidBoard:
    """The deck ``data`` makes, or the InvalidBoard it raises (any other error propagates)."""
    try:
        return deck_from_data(data)
    except InvalidBoard as error:
        return error


def check(error: pytest.ExceptionInfo[InvalidBoard], field: str, value: object) -> None:
    """The error names ``field`` and the ``value`` found there."""
    assert error.value.field == field
    assert error.value.value == value


def two_cards() -> dict[str, Any]:
    """A valid two-card deck as plain data."""
    return {"cards": [{"id": 0, "numbers": [1, 4, 5]}, {"id": 1, "numbers": [2, 6, 7]}]}


# --- the default deck ----------------------------------------------------------------------------


def test_a3_default_deck_has_27_cards_with_ids_0_to_26() -> None:
    assert len(DEFAULT_DECK) == 27
    assert list(DEFAULT_DECK.ids) == list(range(27))
    assert [card.id for card in DEFAULT_DECK] == list(range(27))


def test_a3_default_deck_has_9_cards_per_yellow_number() -> None:
    yellows = Counter(card.numbers[0] for card in DEFAULT_DECK)
    assert yellows == {1: 9, 2: 9, 3: 9}
    assert all(card.numbers[0] == card.id // 9 + 1 for card in DEFAULT_DECK)


def test_a3_each_card_prints_one_yellow_and_two_different_reds() -> None:
    for card in DEFAULT_DECK:
        yellow, red1, red2 = card.numbers
        assert is_yellow(yellow)
        assert not is_yellow(red1)
        assert not is_yellow(red2)
        assert red1 < red2


def test_a3_red_numbers_appear_as_printed() -> None:
    reds = Counter(n for card in DEFAULT_DECK for n in card.numbers[1:])
    # Per yellow number: 4 in four pairs, 5 in five, 6 in five, 7 in four; times three.
    assert reds == {4: 12, 5: 15, 6: 15, 7: 12}


def test_a3_default_deck_pairs_in_order() -> None:
    pairs = [card.numbers[1:] for card in DEFAULT_DECK.cards[:9]]
    assert pairs == [(4, 5), (4, 6), (4, 7), (5, 6), (5, 7), (6, 7), (4, 5), (5, 6), (6, 7)]
    assert DEFAULT_DECK.card(0) == PowerCard(0, (1, 4, 5))
    assert DEFAULT_DECK.card(13) == PowerCard(13, (2, 5, 7))
    assert DEFAULT_DECK.card(26) == PowerCard(26, (3, 6, 7))


def test_a3_yellow_numbers_are_1_to_3() -> None:
    assert [n for n in range(1, 8) if is_yellow(n)] == [1, 2, 3]


def test_a8_card_has_its_printed_numbers_only() -> None:
    card = PowerCard(4, (1, 5, 7))
    assert [n for n in range(1, 8) if card.has(n)] == [1, 5, 7]


def test_card_lookup_of_an_unknown_id() -> None:
    for bad in (-1, 27, "3", True):
        with pytest.raises(KeyError, match="no Power card"):
            DEFAULT_DECK.card(bad)  # type: ignore[arg-type]  # "3" is bad input under test
    assert 26 in DEFAULT_DECK.ids
    assert 27 not in DEFAULT_DECK.ids


def test_deck_repr_is_a_constructor_expression() -> None:
    namespace = {"Deck": Deck, "PowerCard": PowerCard}
    assert eval(repr(DEFAULT_DECK), namespace) == DEFAULT_DECK
    assert repr(PowerCard(2, (1, 4, 7))) == "PowerCard(id=2, numbers=(1, 4, 7))"


# --- validation in code --------------------------------------------------------------------------


@pytest.mark.parametrize("number", [0, 8, -1])
def test_a3_number_outside_1_to_7(number: int) -> None:
    with pytest.raises(InvalidBoard, match="A3") as error:
        PowerCard(0, (1, number, 5))
    check(error, "numbers[1]", number)


@pytest.mark.parametrize("number", [4.0, True, "4", None])
def test_a3_number_not_a_whole_number(number: object) -> None:
    with pytest.raises(InvalidBoard, match="A3") as error:
        PowerCard(0, (1, 5, number))  # type: ignore[arg-type]  # the bad input under test
    check(error, "numbers[2]", number)


@pytest.mark.parametrize("numbers", [(), (1, 4), (1, 4, 5, 6), [1, 4, 5]])
def test_a3_card_without_exactly_three_numbers(numbers: Any) -> None:
    with pytest.raises(InvalidBoard, match="A3") as error:
        PowerCard(0, numbers)
    check(error, "numbers", numbers)


@pytest.mark.parametrize("card_id", [-1, 1.0, "0", None])
def test_a3_card_id_not_a_whole_number(card_id: Any) -> None:
    with pytest.raises(InvalidBoard, match="A3") as error:
        PowerCard(card_id, (1, 4, 5))
    check(error, "id", card_id)


def test_a3_empty_deck() -> None:
    with pytest.raises(InvalidBoard, match="A3") as error:
        Deck(())
    check(error, "cards", ())


def test_a3_deck_not_a_tuple() -> None:
    cards = [PowerCard(0, (1, 4, 5))]
    with pytest.raises(InvalidBoard, match="A3") as error:
        Deck(cards)  # type: ignore[arg-type]  # the bad input under test
    check(error, "cards", cards)


def test_a3_deck_entry_not_a_card() -> None:
    with pytest.raises(InvalidBoard, match="A3") as error:
        Deck((PowerCard(0, (1, 4, 5)), (1, 1, 4, 5)))  # type: ignore[arg-type]  # bad input under test
    check(error, "cards[1]", (1, 1, 4, 5))


def test_a3_duplicate_card_ids() -> None:
    cards = (PowerCard(0, (1, 4, 5)), PowerCard(1, (1, 4, 6)), PowerCard(0, (1, 4, 7)))
    with pytest.raises(InvalidBoard, match="repeated") as error:
        Deck(cards)
    check(error, "cards[2].id", 0)


@pytest.mark.parametrize(
    ("ids", "field", "value"), [((1, 2), "cards[0].id", 1), ((0, 2), "cards[1].id", 2)]
)
def test_a3_ids_not_0_to_n_minus_1(ids: tuple[int, int], field: str, value: int) -> None:
    with pytest.raises(InvalidBoard, match=r"A3: card ids run 0\.\.1") as error:
        Deck(tuple(PowerCard(i, (1, 4, 5)) for i in ids))
    check(error, field, value)


def test_a3_ids_out_of_order() -> None:
    with pytest.raises(InvalidBoard, match="should be 0") as error:
        Deck((PowerCard(1, (1, 4, 5)), PowerCard(0, (1, 4, 6))))
    check(error, "cards[0].id", 1)


def test_a3_card_may_repeat_a_number() -> None:
    assert PowerCard(0, (3, 3, 7)).has(3)


# --- plain data ----------------------------------------------------------------------------------


def test_data_round_trip_of_the_default_deck() -> None:
    data = deck_to_data(DEFAULT_DECK)
    assert data["cards"][0] == {"id": 0, "numbers": [1, 4, 5]}
    assert data["cards"][26] == {"id": 26, "numbers": [3, 6, 7]}
    assert deck_from_data(data) == DEFAULT_DECK
    assert deck_to_data(deck_from_data(data)) == data


def test_data_round_trip_of_two_cards() -> None:
    deck = deck_from_data(two_cards())
    assert deck == Deck((PowerCard(0, (1, 4, 5)), PowerCard(1, (2, 6, 7))))
    assert deck_to_data(deck) == two_cards()


@pytest.mark.parametrize(
    ("change", "field", "found"),
    [
        (lambda d: d["cards"][1]["numbers"].__setitem__(1, 8), "cards[1].numbers[1]", 8),
        (lambda d: d["cards"][1]["numbers"].__setitem__(0, "2"), "cards[1].numbers[0]", "2"),
        (lambda d: d["cards"][0]["numbers"].pop(), "cards[0].numbers", (1, 4)),
        (lambda d: d["cards"][0].__setitem__("numbers", 145), "cards[0].numbers", 145),
        (lambda d: d["cards"][1].__setitem__("id", 0), "cards[1].id", 0),
        (lambda d: d["cards"][1].__setitem__("id", 5), "cards[1].id", 5),
        (lambda d: d["cards"][1].__setitem__("id", 1.0), "cards[1].id", 1.0),
        (lambda d: d["cards"][1].__setitem__("colour", "red"), "cards[1].colour", "red"),
        (lambda d: d["cards"][1].pop("id"), "cards[1].id", None),
        (lambda d: d["cards"][0].pop("numbers"), "cards[0].numbers", None),
        (lambda d: d["cards"].__setitem__(1, [2, 6, 7]), "cards[1]", [2, 6, 7]),
        (lambda d: d.__setitem__("cards", []), "cards", ()),
        (lambda d: d.__setitem__("cards", {"id": 0}), "cards", {"id": 0}),
        (lambda d: d.__setitem__("name", "mine"), "name", "mine"),
        (lambda d: d.pop("cards"), "cards", None),
    ],
)
def test_data_bad_field_is_named(change: Any, field: str, found: object) -> None:
    data = two_cards()
    change(data)
    with pytest.raises(InvalidBoard) as error:
        deck_from_data(data)
    check(error, field, found)


@pytest.mark.parametrize("data", [None, [], "deck", 27])
def test_data_not_a_table(data: object) -> None:
    with pytest.raises(InvalidBoard) as error:
        deck_from_data(data)
    check(error, "(top level)", data)


# --- files ---------------------------------------------------------------------------------------


def test_shipped_default_deck_file_loads_as_the_default() -> None:
    assert load_deck(BOARDS / "default-deck.toml") == DEFAULT_DECK


def test_toml_file_with_card_tables(tmp_path: Path) -> None:
    file = tmp_path / "two.toml"
    file.write_text(
        "[[cards]]\nid = 0\nnumbers = [1, 4, 5]\n\n[[cards]]\nid = 1\nnumbers = [2, 6, 7]\n",
        encoding="utf-8",
    )
    assert load_deck(file) == deck_from_data(two_cards())


def test_json_file_round_trip(tmp_path: Path) -> None:
    file = tmp_path / "deck.json"
    file.write_text(json.dumps(deck_to_data(DEFAULT_DECK)), encoding="utf-8")
    assert load_deck(file) == DEFAULT_DECK


def test_file_bad_number_is_named(tmp_path: Path) -> None:
    file = tmp_path / "bad.json"
    file.write_text('{"cards": [{"id": 0, "numbers": [1, 4, 9]}]}', encoding="utf-8")
    with pytest.raises(InvalidBoard, match="A3") as error:
        load_deck(file)
    check(error, "cards[0].numbers[2]", 9)


def test_file_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(InvalidBoard, match="cannot read") as error:
        load_deck(missing)
    check(error, "file", str(missing))


def test_file_not_valid_toml(tmp_path: Path) -> None:
    file = tmp_path / "broken.toml"
    file.write_text("cards = [{ id = 0 ", encoding="utf-8")
    with pytest.raises(InvalidBoard, match="not valid TOML") as error:
        load_deck(file)
    check(error, "file", str(file))


# --- properties ----------------------------------------------------------------------------------

numbers = st.integers(1, 7)


@st.composite
def decks(draw: st.DrawFn) -> Deck:
    """Any valid deck: one or more cards, ids 0..n-1, three numbers from 1 to 7 each."""
    printed = draw(st.lists(st.tuples(numbers, numbers, numbers), min_size=1, max_size=40))
    return Deck(tuple(PowerCard(i, n) for i, n in enumerate(printed)))


@given(decks())
def test_any_deck_round_trips_through_plain_data(deck: Deck) -> None:
    data = deck_to_data(deck)
    assert deck_from_data(data) == deck
    assert deck_from_data(json.loads(json.dumps(data))) == deck


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(st.one_of(json_values, st.builds(lambda junk: {"cards": junk}, json_values)))
def test_junk_raises_only_invalid_board(junk: object) -> None:
    result = attempt(junk)
    if isinstance(result, InvalidBoard):
        assert isinstance(result.field, str)
        assert result.message
    else:
        assert deck_from_data(deck_to_data(result)) == result


@given(st.sampled_from(["id", "numbers"]), json_values)
def test_junk_in_a_card_raises_only_invalid_board(key: str, junk: object) -> None:
    data = two_cards()
    data["cards"][1][key] = junk
    result = attempt(data)
    if isinstance(result, InvalidBoard):
        assert result.field.startswith(f"cards[1].{key}")
    else:
        assert deck_to_data(result) == data
