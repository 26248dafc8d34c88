"""Avanti mare!'s encoding: six actions, the view's slices, the die's history (M1-M8)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avanti import mare
from avanti.core.errors import InvalidArgument
from avanti.core.rng import Rng, scripted
from avanti.mare import FACES, Face, Fish, MoveFish, Roll, SkipMove
from avanti.mare.encoding import MareEncoding


def _piece(encoding: MareEncoding, name: str, numbers: list[float]) -> list[float]:
    piece = next(p for p in encoding.information_pieces if p.name == name)
    return numbers[piece.start : piece.stop]


def test_the_six_actions_and_their_commands() -> None:
    enc = mare.encoding(mare.new_game(["Ann", "Bob"], seed=1).public_setup)
    assert enc.num_actions == 6
    assert [enc.command(a, 1) for a in range(6)] == [
        Roll(1),
        MoveFish(1, Fish.BLUE),
        MoveFish(1, Fish.ORANGE),
        MoveFish(1, Fish.YELLOW),
        MoveFish(1, Fish.PINK),
        SkipMove(1),
    ]
    assert [enc.action_id(enc.command(a, 0)) for a in range(6)] == list(range(6))


def test_bad_ids_seats_and_commands_are_refused() -> None:
    enc = mare.encoding(mare.new_game(["Ann", "Bob"], seed=1).public_setup)
    with pytest.raises(InvalidArgument, match="0 to 5"):
        enc.command(6, 0)
    with pytest.raises(InvalidArgument, match="no seat 2"):
        enc.command(0, 2)
    with pytest.raises(InvalidArgument, match="not a command"):
        enc.action_id("roll")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="PublicSetup"):
        mare.encoding(mare.new_game(["Ann"], seed=1).setup)  # type: ignore[arg-type]


def test_slices_tile_the_vectors_with_the_sizes_documented() -> None:
    for players in (1, 2, 6):
        enc = mare.encoding(
            mare.new_game(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:players], seed=1).public_setup
        )
        assert enc.observation_size == 3 * players + 70
        assert enc.information_size == 3 * players + 77
        assert [p.name for p in enc.observation_pieces] == [
            "seat",
            "side",
            "fish_friends",
            "turn",
            "move_due",
            "boat",
            "fish",
            "result",
        ]


def test_m1_the_opening_view_as_numbers() -> None:
    game = mare.new_game(["Ann", "Bob"], seed=1)
    enc = mare.encoding(game.public_setup)
    numbers = enc.information_state(game.view(1), game.events_for(1))
    assert _piece(enc, "seat", numbers) == [0.0, 1.0]
    assert _piece(enc, "side", numbers) == [0.0, 1.0]  # seat 1 backs the fishers (M2)
    assert _piece(enc, "fish_friends", numbers) == [1.0, 0.0]
    assert _piece(enc, "turn", numbers) == [1.0, 0.0]
    assert _piece(enc, "boat", numbers) == [1.0] + [0.0] * 11
    fish = _piece(enc, "fish", numbers)
    for slot in range(4):  # every fish on piece 6 (M1)
        assert fish[slot * 13 : slot * 13 + 13] == [1.0 if p == 6 else 0.0 for p in range(13)]
    assert _piece(enc, "result", numbers) == [0.0, 0.0, 0.0]
    assert _piece(enc, "faces", numbers) == [0.0] * 6
    assert sum(enc.observation(game.view(None))[:4]) == 0.0  # a spectator has no seat or side


def _rolled(game: mare.Game, *faces: Face) -> mare.Game:
    for face in faces:
        with scripted((FACES.index(face),)):
            game = game.execute(Roll(game.state.turn))
    return game


def test_m4_m5_rolls_move_the_fish_and_the_boat_and_are_counted() -> None:
    game = _rolled(mare.new_game(["Ann", "Bob"], seed=1), Face.BLUE, Face.RED, Face.BLUE)
    enc = mare.encoding(game.public_setup)
    numbers = enc.information_state(game.view(0), game.events_for(0))
    fish = _piece(enc, "fish", numbers)
    assert fish[:13].index(1.0) == 8  # blue swam twice, 6 -> 8 (M4)
    assert _piece(enc, "boat", numbers).index(1.0) == 1  # red took piece 1 (M5)
    assert _piece(enc, "faces", numbers) == [2.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert _piece(enc, "own_rolls", numbers) == [2.0]  # seat 0 rolled first and third
    assert _piece(enc, "turn", numbers) == [0.0, 1.0]


def test_m8_the_result_once_the_game_is_over() -> None:
    # Blue, orange, yellow, pink swim six pieces each: all four free, fish friends win (M8).
    game = _rolled(mare.new_game(["Ann"], seed=1), *[f for f in FACES[:4] for _ in range(6)][:-1])
    assert not game.is_over
    game = _rolled(game, Face.PINK)
    enc = mare.encoding(game.public_setup)
    numbers = enc.observation(game.view(0))
    assert _piece(enc, "result", numbers) == [1.0, 0.0, 0.0]
    assert _piece(enc, "turn", numbers) == [0.0]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(1, 6), owed=st.booleans())
def test_round_trips_and_mask_equal_the_legal_commands(seed: int, players: int, owed: bool) -> None:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:players]
    game = mare.new_game(names, seed=seed, options=mare.Options(free_fish_move_owed=owed))
    enc = mare.encoding(game.public_setup)
    stream = Rng(seed, 1 << 40).stream()
    while not game.is_over:
        for seat in range(players):
            legal = game.legal_commands(seat)
            mask = enc.mask(legal)
            assert [enc.command(a, seat) in legal for a in range(6)] == mask
            assert all(enc.command(enc.action_id(c), seat) == c for c in legal)
        game = game.execute(stream.choice(game.legal_commands()))


@settings(max_examples=20, deadline=None)
@given(
    seeds=st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)),
    draws=st.lists(st.integers(0, 5), max_size=30),
)
def test_twins_with_other_seeds_get_the_same_numbers(
    seeds: tuple[int, int], draws: list[int]
) -> None:
    """Twin games: different seeds (the one hidden fact, M3), the same rolls. Every number the
    encoding gives each seat is the same."""
    twins = [mare.new_game(["Ann", "Bob"], seed=seed) for seed in seeds]
    for draw in draws:
        if twins[0].is_over:
            break
        command = twins[0].legal_commands()[0]
        with scripted((draw,)):
            twins[0] = twins[0].execute(command)
        with scripted((draw,)):
            twins[1] = twins[1].execute(command)
    assert twins[0].setup.seed != twins[1].setup.seed or seeds[0] == seeds[1]
    encs = [mare.encoding(game.public_setup) for game in twins]
    for seat in (0, 1, None):
        a, b = (enc.observation(game.view(seat)) for enc, game in zip(encs, twins, strict=True))
        assert a == b
    for seat in (0, 1):
        a, b = (
            enc.information_state(game.view(seat), game.events_for(seat))
            for enc, game in zip(encs, twins, strict=True)
        )
        assert a == b
