"""Hostile board and deck files for Avanti (A3-A5): only ``InvalidBoard`` may come out, naming
the bad field; whatever loads writes back to the same data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from avanti import DEFAULT_BOARD, DEFAULT_DECK, InvalidBoard
from avanti.avanti.board import board_from_data, board_to_data, load_board
from avanti.avanti.deck import deck_from_data, deck_to_data, load_deck
from tests.hardening.test_hostile import JSON, KINDS, mutation

BOARD = board_to_data(DEFAULT_BOARD)
DECK = deck_to_data(DEFAULT_DECK)


def read_soundly(read: Any, write: Any, data: Any) -> None:
    try:
        value = read(data)
    except InvalidBoard as error:
        refused = error
    else:
        assert read(write(value)) == value
        return
    assert refused.field, "an InvalidBoard names its field"
    assert refused.message
    assert str(refused).startswith(refused.field)


@pytest.mark.parametrize(
    ("original", "read", "write"),
    [(BOARD, board_from_data, board_to_data), (DECK, deck_from_data, deck_to_data)],
    ids=["board", "deck"],
)
@given(data=st.data())
def test_mutated_boards_and_decks_fail_cleanly(
    original: Any, read: Any, write: Any, data: st.DataObject
) -> None:
    changed = json.loads(json.dumps(original))
    for _ in range(data.draw(st.integers(1, 3))):
        changed = data.draw(mutation(changed))
    read_soundly(read, write, changed)


@given(value=st.one_of(JSON, *KINDS.values()))
def test_arbitrary_data_is_no_board_and_no_deck(value: Any) -> None:
    with pytest.raises(InvalidBoard):
        board_from_data(value)
    with pytest.raises(InvalidBoard):
        deck_from_data(value)


@pytest.mark.parametrize("suffix", [".json", ".toml", ".txt", ""])
@given(content=st.one_of(st.binary(max_size=60), st.text(max_size=60), JSON.map(json.dumps)))
def test_arbitrary_files_are_invalid_boards(
    tmp_path_factory: pytest.TempPathFactory, suffix: str, content: bytes | str
) -> None:
    path = tmp_path_factory.mktemp("files") / f"board{suffix}"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    for load in (load_board, load_deck):
        with pytest.raises(InvalidBoard) as refused:
            load(path)
        assert refused.value.field


def test_deeply_nested_files_are_invalid_boards(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    toml = tmp_path / "deep.toml"
    toml.write_text("a = " + "[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for path in (deep, toml):
        with pytest.raises(InvalidBoard) as refused:
            load_board(path)
        assert refused.value.field == "file"
