"""The board as data (A4, A5): the default board, validation, plain data and files."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from avanti.avanti.board import (
    DEFAULT_BOARD,
    Board,
    Space,
    SpaceKind,
    board_from_data,
    board_to_data,
    load_board,
    read_data,
)
from avanti.core.errors import InvalidBoard

BOARDS = Path(__file__).resolve().parents[2] / "docs" / "boards"
RULES_PAGE = BOARDS.parent / "rules" / "avanti.md"


def small_data() -> dict[str, Any]:
    """A valid three-space board as plain data."""
    return {
        "track": [{"toll": 100}, {"atm": 200}, {"toll": 300}],
        "island": [0, 1000, 2000, 0],
        "island_depth": 1,
    }


def attempt(data: object) -> Board | InvalidBoard:
    """The board ``data`` makes, or the InvalidBoard it raises (any other error propagates)."""
    try:
        return board_from_data(data)
    except InvalidBoard as error:
        return error


def check(error: pytest.ExceptionInfo[InvalidBoard], field: str, value: object) -> None:
    """The error names ``field`` and the ``value`` found there."""
    assert error.value.field == field
    assert error.value.value == value


# --- the default board ---------------------------------------------------------------------------


def test_a4_default_board_has_34_spaces() -> None:
    assert DEFAULT_BOARD.track_length == 34
    assert len(DEFAULT_BOARD.track) == 34


def test_a4_default_board_has_7_parking_lots_paying_2500() -> None:
    """Illus. 13 pays 2,500 in one withdrawal in which every lot pays someone (A21): Tina 400,
    Steve 1,100, Isabella 300 + 500 + 200. So the lots hold 2,500 in all."""
    lots = [i for i, space in enumerate(DEFAULT_BOARD.track) if space.is_parking]
    assert lots == [3, 7, 12, 17, 22, 26, 31]
    assert [DEFAULT_BOARD.track[i].amount for i in lots] == [200, 400, 500, 200, 400, 300, 500]
    assert sum(DEFAULT_BOARD.track[i].amount for i in lots) == 400 + 1100 + 300 + 500 + 200


def _amount(text: str) -> int:
    return int(text.replace(",", ""))


def test_a4_a5_the_rules_page_names_a_source_for_every_default_board_value() -> None:
    """The rules page's board tables list every road and island space once, with the value of
    the default board and where it comes from: an illustration or our choice."""
    page = RULES_PAGE.read_text(encoding="utf-8")
    section = page.split("(avanti-board-sources)=", 1)[1].split("\n## ", 1)[0]
    road_table, island_table = section.split("| Island space |", 1)
    road = re.findall(r"^\| (\d+) \| (toll|ATM) ([\d,]+) \| (.+) \|$", road_table, re.M)
    island = re.findall(r"^\| (\d+) \| (no price|[\d,]+)[^|]* \| (.+) \|$", island_table, re.M)
    assert [int(space) for space, _, _, _ in road] == list(range(DEFAULT_BOARD.track_length))
    for space, kind, amount, source in road:
        printed = DEFAULT_BOARD.track[int(space)]
        assert (kind == "ATM", _amount(amount)) == (printed.is_parking, printed.amount), space
        assert source.startswith(("Illus.", "Our choice")), space
    assert [int(space) for space, _, _ in island] == list(range(len(DEFAULT_BOARD.island)))
    for space, price, source in island:
        expected = None if price == "no price" else _amount(price)
        assert expected == DEFAULT_BOARD.island[int(space)], space
        assert source.startswith(("Illus.", "Our choice", "The rulebook", "As space")), space


def test_a4_default_board_tolls_as_printed() -> None:
    tolls = {i: s.amount for i, s in enumerate(DEFAULT_BOARD.track) if not s.is_parking}
    assert len(tolls) == 27
    assert (tolls[0], tolls[6], tolls[16], tolls[24], tolls[33]) == (100, 1000, 1000, 1000, 300)
    assert Counter(tolls.values()) == {100: 6, 200: 5, 300: 5, 400: 4, 500: 4, 1000: 3}
    assert sum(tolls.values()) == 9_700


def test_a5_default_island_prices_and_dream_island() -> None:
    board = DEFAULT_BOARD
    assert board.island_length == 12
    assert board.island == (
        None, 1000, 2000, 2000, 3000, 3000, 4000, 4000, 5000, None, None, None, None,
    )  # fmt: skip
    assert [i for i, price in enumerate(board.island) if price is None] == [0, 9, 10, 11, 12]
    assert board.island_depth == 3
    assert board.dream_island_start == 10
    assert [i for i in range(13) if board.is_dream_island(i)] == [10, 11, 12]
    assert not board.is_dream_island(13)


def test_a4_space_helpers_and_repr() -> None:
    assert Space.toll(300) == Space(SpaceKind.TOLL, 300)
    assert Space.parking(200) == Space(SpaceKind.PARKING, 200)
    assert Space.parking(200).is_parking
    assert not Space.toll(300).is_parking
    assert repr(Space.toll(300)) == "Space.toll(300)"
    assert repr(Space.parking(200)) == "Space.parking(200)"
    assert repr(SpaceKind.PARKING) == "SpaceKind.PARKING"
    assert SpaceKind("toll") is SpaceKind.TOLL
    assert SpaceKind.PARKING.value == "parking"


def test_board_repr_is_a_constructor_expression() -> None:
    namespace = {"Board": Board, "Space": Space}
    assert eval(repr(DEFAULT_BOARD), namespace) == DEFAULT_BOARD


def test_boards_are_hashable_values() -> None:
    again = board_from_data(board_to_data(DEFAULT_BOARD))
    assert again == DEFAULT_BOARD
    assert hash(again) == hash(DEFAULT_BOARD)


# --- validation in code --------------------------------------------------------------------------

GOOD_TRACK = (Space.toll(100), Space.parking(200))
GOOD_ISLAND = (None, 1000, None)


def test_a4_no_spaces() -> None:
    with pytest.raises(InvalidBoard, match="A4") as error:
        Board((), GOOD_ISLAND, 1)
    check(error, "track", ())


def test_a4_track_entry_not_a_space() -> None:
    with pytest.raises(InvalidBoard, match="A4") as error:
        Board((Space.toll(100), 300), GOOD_ISLAND, 1)  # type: ignore[arg-type]  # the bad input under test
    check(error, "track[1]", 300)


def test_a4_track_not_a_tuple() -> None:
    with pytest.raises(InvalidBoard, match="A4") as error:
        Board([Space.toll(100)], GOOD_ISLAND, 1)  # type: ignore[arg-type]  # the bad input under test
    check(error, "track", [Space.toll(100)])


@pytest.mark.parametrize("kind", [SpaceKind.TOLL, SpaceKind.PARKING])
def test_a4_negative_amount(kind: SpaceKind) -> None:
    with pytest.raises(InvalidBoard, match="A4") as error:
        Space(kind, -100)
    check(error, "amount", -100)


@pytest.mark.parametrize("amount", [1.5, True, "100", None])
def test_a4_amount_not_a_whole_number(amount: object) -> None:
    with pytest.raises(InvalidBoard, match="A4") as error:
        Space(SpaceKind.TOLL, amount)  # type: ignore[arg-type]  # the bad input under test
    check(error, "amount", amount)


def test_a4_kind_not_a_space_kind() -> None:
    with pytest.raises(InvalidBoard, match="A4") as error:
        Space("toll", 100)  # type: ignore[arg-type]  # the bad input under test
    check(error, "kind", "toll")


def test_a4_zero_amount_is_allowed() -> None:
    assert Space.toll(0).amount == 0
    assert Space.parking(0).amount == 0


def test_a5_depth_below_one() -> None:
    with pytest.raises(InvalidBoard, match="A5") as error:
        Board(GOOD_TRACK, GOOD_ISLAND, 0)
    check(error, "island_depth", 0)


def test_a5_depth_not_a_whole_number() -> None:
    with pytest.raises(InvalidBoard, match="A5") as error:
        Board(GOOD_TRACK, GOOD_ISLAND, "3")  # type: ignore[arg-type]  # the bad input under test
    check(error, "island_depth", "3")


def test_a5_island_shorter_than_its_depth() -> None:
    with pytest.raises(InvalidBoard, match="A5") as error:
        Board(GOOD_TRACK, (None, 1000, None), 3)
    check(error, "island", (None, 1000, None))
    assert "has 2" in str(error.value)


def test_a5_island_without_a_start_space() -> None:
    with pytest.raises(InvalidBoard, match="A5") as error:
        Board(GOOD_TRACK, (), 1)
    check(error, "island", ())


def test_a5_island_not_a_tuple() -> None:
    with pytest.raises(InvalidBoard, match="A5") as error:
        Board(GOOD_TRACK, [None, None], 1)  # type: ignore[arg-type]  # the bad input under test
    check(error, "island", [None, None])


def test_a5_island_as_long_as_its_depth_is_allowed() -> None:
    board = Board(GOOD_TRACK, (None, None), 1)
    assert board.island_length == 1
    assert board.dream_island_start == 1
    assert board.is_dream_island(1)
    assert not board.is_dream_island(0)


def test_a5_priced_start_space() -> None:
    with pytest.raises(InvalidBoard, match="A5") as error:
        Board(GOOD_TRACK, (500, 1000, None), 1)
    check(error, "island[0]", 500)


@pytest.mark.parametrize("price", [0, -1000])
def test_a22_price_not_positive(price: int) -> None:
    with pytest.raises(InvalidBoard, match="A22") as error:
        Board(GOOD_TRACK, (None, 1000, price, None), 1)
    check(error, "island[2]", price)


def test_a5_price_not_a_whole_number() -> None:
    with pytest.raises(InvalidBoard, match="A5") as error:
        Board(GOOD_TRACK, (None, 1000.0, None), 1)  # type: ignore[arg-type]  # the bad input under test
    check(error, "island[1]", 1000.0)


def test_a24_priced_dream_island_is_allowed() -> None:
    board = Board(GOOD_TRACK, (None, 1000, 2000), 1)
    assert board.is_dream_island(2)
    assert board.island[2] == 2000


def test_invalid_board_message_names_field_value_and_rule() -> None:
    with pytest.raises(InvalidBoard) as error:
        Board(GOOD_TRACK, (None, 1000, -5, None), 1)
    assert str(error.value).startswith("island[2] = -5: A22:")


# --- plain data ----------------------------------------------------------------------------------


def test_data_round_trip_of_the_default_board() -> None:
    data = board_to_data(DEFAULT_BOARD)
    assert data["track"][:4] == [{"toll": 100}, {"toll": 200}, {"toll": 300}, {"atm": 200}]
    assert data["island"] == [0, 1000, 2000, 2000, 3000, 3000, 4000, 4000, 5000, 0, 0, 0, 0]
    assert data["island_depth"] == 3
    assert board_from_data(data) == DEFAULT_BOARD
    assert board_to_data(board_from_data(data)) == data


def test_data_round_trip_of_a_small_board() -> None:
    board = board_from_data(small_data())
    assert board == Board(
        (Space.toll(100), Space.parking(200), Space.toll(300)), (None, 1000, 2000, None), 1
    )
    assert board_to_data(board) == small_data()


def test_data_null_price_reads_as_unpriced() -> None:
    data = small_data()
    data["island"] = [None, 1000, 2000, None]
    assert board_from_data(data) == board_from_data(small_data())


def set_path(data: dict[str, Any], path: tuple[Any, ...], value: object) -> dict[str, Any]:
    target: Any = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "field", "found"),
    [
        (("track", 1, "atm"), -200, "track[1].atm", -200),
        (("track", 0, "toll"), -1, "track[0].toll", -1),
        (("track", 2, "toll"), "300", "track[2].toll", "300"),
        (("track", 2, "toll"), 300.0, "track[2].toll", 300.0),
        (("track", 2, "toll"), True, "track[2].toll", True),
        (("track", 1), 200, "track[1]", 200),
        (("track", 1), {}, "track[1]", {}),
        (("track", 1), {"toll": 1, "atm": 2}, "track[1]", {"toll": 1, "atm": 2}),
        (("track", 1), {"tol": 100}, "track[1].tol", 100),
        (("track",), [], "track", ()),
        (("track",), {"toll": 100}, "track", {"toll": 100}),
        (("island", 2), -2000, "island[2]", -2000),
        (("island", 2), "2000", "island[2]", "2000"),
        (("island", 0), 500, "island[0]", 500),
        (("island",), [0], "island", (None,)),
        (("island",), "0,1000", "island", "0,1000"),
        (("island_depth",), 0, "island_depth", 0),
        (("island_depth",), 1.0, "island_depth", 1.0),
        (("island_depth",), 4, "island", (None, 1000, 2000, None)),
        (("length",), 3, "length", 3),
    ],
)
def test_data_bad_field_is_named(
    path: tuple[Any, ...], value: object, field: str, found: object
) -> None:
    with pytest.raises(InvalidBoard) as error:
        board_from_data(set_path(small_data(), path, value))
    check(error, field, found)


@pytest.mark.parametrize("key", ["track", "island", "island_depth"])
def test_data_missing_key_is_named(key: str) -> None:
    data = small_data()
    del data[key]
    with pytest.raises(InvalidBoard, match="missing") as error:
        board_from_data(data)
    check(error, key, None)


@pytest.mark.parametrize("data", [None, [], "board", 3])
def test_data_not_a_table(data: object) -> None:
    with pytest.raises(InvalidBoard) as error:
        board_from_data(data)
    check(error, "(top level)", data)


# --- files ---------------------------------------------------------------------------------------


def test_shipped_default_board_file_loads_as_the_default() -> None:
    assert load_board(BOARDS / "default-board.toml") == DEFAULT_BOARD


def test_toml_file_with_track_tables(tmp_path: Path) -> None:
    file = tmp_path / "small.toml"
    file.write_text(
        "island = [0, 1000, 2000, 0]\nisland_depth = 1\n\n[[track]]\ntoll = 100\n\n"
        "[[track]]\natm = 200\n\n[[track]]\ntoll = 300\n",
        encoding="utf-8",
    )
    assert load_board(file) == board_from_data(small_data())


def test_json_file_round_trip(tmp_path: Path) -> None:
    file = tmp_path / "default.JSON"
    file.write_text(json.dumps(board_to_data(DEFAULT_BOARD)), encoding="utf-8")
    assert load_board(str(file)) == DEFAULT_BOARD


def test_file_bad_value_is_named(tmp_path: Path) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(
        "island = [0, 1000]\nisland_depth = 1\ntrack = [{ toll = 100 }, { atm = -5 }]\n",
        encoding="utf-8",
    )
    with pytest.raises(InvalidBoard, match="A4") as error:
        load_board(file)
    check(error, "track[1].atm", -5)


def test_file_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(InvalidBoard, match="cannot read") as error:
        load_board(missing)
    check(error, "file", str(missing))


def test_file_that_is_a_directory(tmp_path: Path) -> None:
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(InvalidBoard, match="cannot read") as error:
        load_board(folder)
    check(error, "file", str(folder))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("broken.toml", "track = [\n"),
        ("broken.json", '{"track": [}'),
        ("nan.json", '{"track": NaN'),
        ("deep.json", "[" * 100_000 + "]" * 100_000),
        ("long.json", '{"island_depth": ' + "9" * 5000 + "}"),
    ],
)
def test_file_not_valid_toml_or_json(tmp_path: Path, name: str, text: str) -> None:
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidBoard, match="not valid") as error:
        load_board(file)
    check(error, "file", str(file))


def test_file_not_utf8(tmp_path: Path) -> None:
    file = tmp_path / "latin.toml"
    file.write_bytes(b"island_depth = 1 # \xe9\n")
    with pytest.raises(InvalidBoard, match="UTF-8") as error:
        load_board(file)
    check(error, "file", str(file))


def test_file_with_another_suffix(tmp_path: Path) -> None:
    file = tmp_path / "board.yaml"
    file.write_text("island_depth: 1\n", encoding="utf-8")
    with pytest.raises(InvalidBoard, match=r"\.toml or \.json") as error:
        load_board(file)
    check(error, "file", str(file))


def test_json_key_given_twice(tmp_path: Path) -> None:
    file = tmp_path / "twice.json"
    file.write_text('{"island_depth": 1, "island_depth": 2}', encoding="utf-8")
    with pytest.raises(InvalidBoard, match="twice") as error:
        read_data(file)
    check(error, "island_depth", 2)


def test_json_top_level_not_an_object(tmp_path: Path) -> None:
    file = tmp_path / "list.json"
    file.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(InvalidBoard) as error:
        load_board(file)
    check(error, "(top level)", [1, 2])


# --- properties ----------------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any valid board: a non-empty road, an island at least as long as its depth."""
    spaces = st.builds(Space, st.sampled_from(SpaceKind), st.integers(0, 10_000))
    track = tuple(draw(st.lists(spaces, min_size=1, max_size=40)))
    depth = draw(st.integers(1, 4))
    prices = st.one_of(st.none(), st.integers(1, 10_000))
    rest = draw(st.lists(prices, min_size=depth, max_size=depth + 15))
    return Board(track, (None, *rest), depth)


@given(boards())
def test_any_board_round_trips_through_plain_data(board: Board) -> None:
    data = board_to_data(board)
    assert board_from_data(data) == board
    assert board_from_data(json.loads(json.dumps(data))) == board


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(json_values)
def test_junk_raises_only_invalid_board(junk: object) -> None:
    result = attempt(junk)
    if isinstance(result, InvalidBoard):
        assert isinstance(result.field, str)
        assert result.message
    else:
        assert board_from_data(board_to_data(result)) == result


@given(
    st.sampled_from(["track", "island", "island_depth"]),
    json_values,
    st.integers(0, 3),
)
def test_junk_in_one_field_raises_only_invalid_board(key: str, junk: object, index: int) -> None:
    data = small_data()
    if isinstance(data[key], list) and index < len(data[key]):
        data[key][index] = junk
    else:
        data[key] = junk
    result = attempt(data)
    if isinstance(result, InvalidBoard):
        assert result.field.startswith(key) or result.field == "island"
    else:
        assert board_from_data(board_to_data(result)) == result
