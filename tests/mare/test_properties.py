"""Properties of whole games, for any seed, any legal choices and any options (Hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avanti.mare import (
    FISH,
    CaughtFishRoll,
    Command,
    CorruptLog,
    DieRolled,
    Face,
    FishFreed,
    FishSwam,
    FreeFishRoll,
    Game,
    IllegalCommand,
    MoveDeclined,
    MoveFish,
    Options,
    PieceRemoved,
    Roll,
    RollIgnored,
    SkipMove,
    TurnPassed,
    dumps,
    loads,
    new_game,
    replay,
)

# Bound on the commands of a game with the move of M6 owed. Each fish swims at most 6 times
# (piece 6 to the sea), so at most 4 * 6 = 24 swims in all, and at most 11 pieces are removed.
# A roll swims a fish, removes a piece, or offers a MoveFish that swims a fish: so at most
# 24 + 11 = 35 rolls, and at most 24 MoveFish; rolls + moves <= 2 * 24 + 11 = 59 commands.
DEFAULT = Options()
OWED = Options(free_fish_move_owed=True)
MAX_SWIMS = 4 * 6
MAX_PIECES = 11
MAX_ROLLS = MAX_SWIMS + MAX_PIECES
MAX_COMMANDS = 2 * MAX_SWIMS + MAX_PIECES
# Under options that ignore some faces, a roll may also do nothing, and a declined move (M6, the
# default) leaves everything as it was; while the game goes on some fish is in the river and its
# face (1 in 6) always moves it, so 3000 such rolls end any game except with a probability far
# below 10^-200. A declined move takes two commands, the roll and the SkipMove.
MAX_IGNORED = 3000

options_st = st.builds(
    Options,
    boat_faces=st.sampled_from([(Face.RED, Face.GREEN), (Face.RED,), (Face.GREEN,), ()]),
    caught_fish_roll=st.sampled_from(CaughtFishRoll),
    free_fish_roll=st.sampled_from(FreeFishRoll),
    free_fish_move_owed=st.booleans(),
)
seeds = st.integers(0, 2**64)
picks_st = st.lists(st.integers(0, 3), min_size=1, max_size=20)
FAST = settings(max_examples=40, deadline=None)


def play(
    seed: int, picks: list[int], options: Options = DEFAULT, players: int = 2, stop: int = 10**6
) -> Game:
    """Play legal commands, choosing by ``picks`` in turn, until the end or ``stop`` commands."""
    game = new_game([f"P{n}" for n in range(players)], seed=seed, options=options)
    for step in range(stop):
        legal = game.legal_commands()
        if not legal:
            break
        game = game.execute(legal[picks[step % len(picks)] % len(legal)])
    return game


def universe(game: Game) -> list[Command]:
    """Every Roll, MoveFish and SkipMove of every seat, and of one seat not at the table."""
    seats = range(game.state.seats + 1)
    return (
        [Roll(s) for s in seats]
        + [MoveFish(s, f) for s in seats for f in FISH]
        + [SkipMove(s) for s in seats]
    )


@FAST
@given(seed=seeds, picks=picks_st, players=st.integers(1, 6))
def test_every_game_ends_within_the_bound(seed: int, picks: list[int], players: int) -> None:
    game = play(seed, picks, OWED, players=players, stop=MAX_COMMANDS + 1)
    assert game.is_over
    events = game.events
    assert sum(isinstance(e, DieRolled) for e in events) <= MAX_ROLLS
    assert sum(isinstance(e, FishSwam | FishFreed) for e in events) <= MAX_SWIMS
    assert sum(isinstance(e, PieceRemoved) for e in events) <= MAX_PIECES
    outcome = game.outcome
    assert outcome is not None
    assert outcome.free + outcome.caught == 4


@FAST
@given(seed=seeds, picks=picks_st, options=options_st)
def test_every_variant_ends_within_the_bound(seed: int, picks: list[int], options: Options) -> None:
    game = play(seed, picks, options, stop=MAX_COMMANDS + 2 * MAX_IGNORED)
    assert game.is_over
    ignored = sum(isinstance(e, RollIgnored) for e in game.events)
    declined = sum(isinstance(e, MoveDeclined) for e in game.events)
    rolls = sum(isinstance(e, DieRolled) for e in game.events)
    assert rolls - ignored - declined <= MAX_ROLLS
    assert not declined or not options.free_fish_move_owed


@FAST
@given(seed=seeds, picks=picks_st, options=options_st, stop=st.integers(0, 80))
def test_m6_skip_move_is_legal_exactly_where_move_fish_is(
    seed: int, picks: list[int], options: Options, stop: int
) -> None:
    game = play(seed, picks, options, stop=stop)
    legal = game.legal_commands()
    moves = [c for c in legal if isinstance(c, MoveFish)]
    skip = SkipMove(game.state.turn)
    if options.free_fish_move_owed:
        assert skip not in legal
    else:
        assert (skip in legal) == bool(moves)
    assert game.is_legal(skip) == (skip in legal)


@FAST
@given(seed=seeds, picks=picks_st, stop=st.integers(0, 80))
def test_m6_declining_leaves_every_fish_where_it_was(
    seed: int, picks: list[int], stop: int
) -> None:
    game = play(seed, picks, stop=stop)
    while not game.is_over and not game.state.move_due:  # on to the next offered move
        game = game.execute(game.legal_commands()[0])
    if game.is_over:
        return
    state = game.state
    after = game.execute(SkipMove(state.turn))
    turn = (state.turn + 1) % state.seats
    assert after.events[game.version :] == (MoveDeclined(state.turn), TurnPassed(turn))
    new = after.state
    assert (new.fish, new.boat, new.rng, new.result) == (state.fish, state.boat, state.rng, None)
    assert (new.turn, new.move_due) == (turn, False)


@FAST
@given(seed=seeds, picks=picks_st, options=options_st, stop=st.integers(0, 60))
def test_replay_and_json_give_the_same_game(
    seed: int, picks: list[int], options: Options, stop: int
) -> None:
    game = play(seed, picks, options, stop=stop)
    assert replay(game.setup, game.events) == game
    assert loads(dumps(game)) == game


@FAST
@given(seed=seeds, picks=picks_st)
def test_the_same_seed_gives_the_same_log(seed: int, picks: list[int]) -> None:
    assert play(seed, picks).events == play(seed, picks).events


@settings(max_examples=25, deadline=None)
@given(seed=seeds, picks=picks_st, stop=st.integers(0, 60), owed=st.booleans())
def test_legal_commands_are_exact_and_illegal_ones_change_nothing(
    seed: int, picks: list[int], stop: int, owed: bool
) -> None:
    game = play(seed, picks, OWED if owed else DEFAULT, stop=stop)
    legal = game.legal_commands()
    for command in universe(game):
        if command in legal:
            assert game.execute(command).version > game.version
            continue
        with pytest.raises(IllegalCommand):
            game.execute(command)
        assert game == replay(game.setup, game.events)


@FAST
@given(seed=seeds, picks=picks_st, data=st.data())
def test_a_tampered_die_face_is_caught_at_its_index(
    seed: int, picks: list[int], data: st.DataObject
) -> None:
    game = play(seed, picks)
    rolls = [i for i, e in enumerate(game.events) if isinstance(e, DieRolled)]
    index = data.draw(st.sampled_from(rolls))
    logged = game.events[index]
    assert isinstance(logged, DieRolled)
    face = data.draw(st.sampled_from([f for f in Face if f is not logged.face]))
    events = (*game.events[:index], DieRolled(logged.seat, face), *game.events[index + 1 :])
    with pytest.raises(CorruptLog) as caught:
        replay(game.setup, events)
    assert caught.value.index == index


@FAST
@given(seed=seeds, picks=picks_st, stop=st.integers(1, 60))
def test_undo_goes_back_one_command(seed: int, picks: list[int], stop: int) -> None:
    before = play(seed, picks, stop=stop - 1)
    after = play(seed, picks, stop=stop)
    if after.version > before.version:
        assert after.undo() == before
