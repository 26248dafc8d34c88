"""``legal_commands`` is exact: everything it lists executes and nothing else does."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import avanti
from avanti import Command, Drive, Invest, PlaceEventMarker, PlayCard, Quit
from tests.avanti.support import NAMES


def candidates(game: avanti.Game) -> list[Command]:
    """A superset of every command that could be legal, plus near misses."""
    n = game.state.players
    seats = range(-1, n + 1)
    out: list[Command] = []
    for seat in seats:
        out += [Drive(seat), Quit(seat)]
        out += [Invest(seat, steps) for steps in range(-1, 14)]
        out += [PlaceEventMarker(seat, space) for space in range(-1, 35)]
        out += [PlayCard(seat, card, number) for card in range(28) for number in range(8)]
    return out


def check_exact(game: avanti.Game) -> None:
    legal = game.legal_commands()
    assert len(set(legal)) == len(legal)
    for command in legal:
        game.execute(command)
    accepted = {command for command in candidates(game) if game.is_legal(command)}
    assert accepted == set(legal)
    assert game.view(None).waiting == tuple(sorted({command.seat for command in legal}))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from((3, 4, 5)))
def test_legal_commands_are_exactly_the_accepted_ones(seed: int, players: int) -> None:
    game = avanti.new_game(NAMES[:players], seed)
    rnd = random.Random(seed)
    step = 0
    while not game.is_over:
        if step % 7 == 0:
            check_exact(game)
        game = game.execute(rnd.choice(game.legal_commands()))
        step += 1
    check_exact(game)
    assert game.legal_commands() == ()
