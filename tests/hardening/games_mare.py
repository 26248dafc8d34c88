"""Avanti mare! as a hardening spec: everything is public but the generator (M3)."""

from __future__ import annotations

import random
from typing import Any

import attrs
from hypothesis import strategies as st

from avanti import mare
from avanti.mare import CAUGHT, FISH, PIECES, SEA, START
from tests.hardening.spec import AnyGame, GameSpec

OPTIONS = st.one_of(
    st.just(mare.Options()),
    st.builds(
        mare.Options,
        boat_faces=st.sampled_from(
            [(mare.Face.RED, mare.Face.GREEN), (mare.Face.RED,), (mare.Face.GREEN,), ()]
        ),
        caught_fish_roll=st.sampled_from(mare.CaughtFishRoll),
        free_fish_roll=st.sampled_from(mare.FreeFishRoll),
        free_fish_move_owed=st.booleans(),
    ),
)


def start(seed: int, players: int, options: Any) -> AnyGame:
    names = [f"P{n}" for n in range(players)]
    return mare.new_game(names, seed=seed, first=seed % players, options=options or mare.Options())


def commands(game: AnyGame) -> st.SearchStrategy[Any]:
    seats = st.integers(-1, len(game.setup.players))
    return st.one_of(
        st.builds(mare.Roll, seats),
        st.builds(mare.MoveFish, seats, st.sampled_from(mare.Fish)),
        st.builds(mare.SkipMove, seats),
    )


def invariants(game: AnyGame) -> None:
    """M1, M5, M8: each fish in one place, the boat in the river, a result exactly at the end."""
    state: mare.GameState = game.state
    assert len(state.fish) == len(FISH)
    assert 0 <= state.boat <= PIECES
    for place in state.fish:
        # A fish is caught, free, or on a piece the boat has not yet taken.
        assert place in (CAUGHT, SEA) or state.boat < place <= PIECES
    assert 0 <= state.turn < state.seats
    for fish in FISH:
        # The log accounts for each fish's place: one piece per swim, from START (M1, M4).
        swims = sum(
            isinstance(e, mare.FishSwam | mare.FishFreed) and e.fish is fish for e in game.events
        )
        caught = [e.piece for e in game.events if isinstance(e, mare.FishCaught) and e.fish is fish]
        place = state.place(fish)
        if place == CAUGHT:
            assert len(caught) == 1
            assert swims == caught[0] - START
        else:
            assert not caught
            assert swims == place - START
    removed = sum(isinstance(e, mare.PieceRemoved) for e in game.events)
    assert removed == state.boat
    assert state.rng.draws == sum(isinstance(e, mare.DieRolled) for e in game.events)
    in_river = state.in_river()
    if state.result is None:
        assert in_river, "a game with no fish in the river must have ended (M8)"
    else:
        assert not in_river
        assert not state.move_due
        assert state.result is mare.Result.of(len(state.free()), len(state.caught()))
        assert game.outcome is not None
    if state.move_due:
        assert in_river
    # M6: declining is legal exactly where moving is, unless the options make the move owed.
    legal = game.legal_commands()
    moves = any(isinstance(c, mare.MoveFish) for c in legal)
    declines = any(isinstance(c, mare.SkipMove) for c in legal)
    assert declines == (moves and not state.options.free_fish_move_owed)
    assert moves == state.move_due


def twin(game: AnyGame, seat: int | None, rng: random.Random) -> AnyGame:
    """The same table with another generator: the only fact Avanti mare! hides (M3)."""
    seed = game.setup.seed + rng.randint(1, 2**64)
    return mare.Game.replay(attrs.evolve(game.setup, seed=seed), game.events, verify=False)


MARE = GameSpec(
    name="mare",
    game=mare.Game,
    start=start,
    players=(1, 6),
    commands=commands,
    invariants=invariants,
    options=OPTIONS,
    twin=twin,
    hides_events=False,
)
