"""Avanti mare! behind a server: secret seeds, the public setup, names, bounded setups and caches,
and setups built in Python checked exactly as those read from JSON (M2, M3, M9)."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from avanti import core
from avanti.core.limits import MAX_NAME_LENGTH
from avanti.mare import (
    CODEC,
    MAX_BOAT_FACES,
    MAX_PLAYERS,
    MAX_SEED,
    POLICIES,
    CaughtFishRoll,
    DecodeError,
    Face,
    Fish,
    FreeFishRoll,
    Game,
    IllegalCommand,
    InvalidSetup,
    MoveFish,
    Options,
    PublicSetup,
    Roll,
    Setup,
    Side,
    chances,
    choose,
    dumps,
    loads,
    new_game,
    notation,
    odds,
    public_setup,
    simulate,
)
from avanti.mare import game as mare_game

from .helpers import built

FF, FANS = Side.FISH_FRIENDS, Side.FISHER_FANS


def _document(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(game))
    return data


def _refusal(setup: Setup) -> InvalidSetup:
    with pytest.raises(InvalidSetup) as caught:
        Game.new(setup)
    return caught.value


# -- 1. secret seeds (M3) ------------------------------------------------------------------------


def test_m3_a_game_without_a_seed_gets_a_secret_one() -> None:
    seeds = [new_game(["Ann", "Bob"]).setup.seed for _ in range(8)]
    assert all(type(seed) is int and 0 <= seed < 2**64 for seed in seeds)
    assert len(set(seeds)) == 8  # 64 random bits each: a repeat has odds of about 2**-59


def test_m3_a_setup_built_without_a_seed_gets_a_secret_one_too() -> None:
    seeds = {Setup(("Ann",), (FF,)).seed for _ in range(8)}
    assert len(seeds) == 8
    assert all(0 <= seed < 2**64 for seed in seeds)


def test_m3_a_seed_given_is_kept() -> None:
    assert new_game(["Ann"], seed=0).setup.seed == 0
    assert new_game(["Ann"], 12345).setup.seed == 12345


def test_m3_simulate_without_a_seed_plays_secret_seeds() -> None:
    # A run with a given seed repeats exactly; without one its seeds are drawn afresh.
    assert simulate(4, seed=7) == simulate(4, seed=7)
    tally = simulate(4)
    assert tally.games == tally.fish + tally.fishers + tally.draw == 4


# -- 2. the public setup (M1-M3, M9) -------------------------------------------------------------


def test_m2_the_public_setup_is_the_setup_without_its_seed() -> None:
    options = Options(boat_faces=(Face.RED,), free_fish_move_owed=True)
    game = new_game(["Ann", "Bob", "Cy"], seed=99, sides=(FANS, FF, FANS), first=2, options=options)
    public = game.public_setup
    assert public == PublicSetup(("Ann", "Bob", "Cy"), (FANS, FF, FANS), 2, options)
    assert public == public_setup(game.setup)
    assert [a.name for a in attrs.fields(PublicSetup)] == [
        "players",
        "sides",
        "first",
        "options",
        "scenario",
    ]
    assert Game.rules.public is public_setup
    assert Game.rules.setup_rule == "M2"


def test_m3_twins_that_differ_only_in_the_seed_have_equal_public_setups() -> None:
    one = new_game(["Ann", "Bob"], seed=1)
    two = new_game(["Ann", "Bob"], seed=2**64 - 1)
    assert one.setup != two.setup
    assert one.public_setup == two.public_setup


def test_m3_the_public_setup_as_json_has_no_seed() -> None:
    game = new_game(["Ann", "Bob"], seed=1234567)
    data = CODEC.unstructure(game.public_setup)
    assert data == {
        "players": ["Ann", "Bob"],
        "sides": ["fish-friends", "fisher-fans"],
        "first": 0,
        "options": {
            "boat_faces": ["red", "green"],
            "caught_fish_roll": "boat",
            "free_fish_roll": "other-fish",
            "free_fish_move_owed": False,
        },
        "scenario": None,
    }
    assert "seed" not in json.dumps(data)
    assert "1234567" not in json.dumps(data)


# -- 3. names (M2) -------------------------------------------------------------------------------

BAD_NAMES = [
    ("\ud800", "seat 1: a name must be printable (no control characters or line breaks)"),
    ("Bob\nEve", "seat 1: a name must be printable (no control characters or line breaks)"),
    ("B" * 41, "seat 1: a name must have 1 to 40 characters, not 41"),
    ("", "seat 1: a name must have 1 to 40 characters, not 0"),
    (" Ann", "seat 1: a name must not begin or end with a space"),
]


@pytest.mark.parametrize(("name", "message"), BAD_NAMES)
def test_m2_a_bad_name_is_refused_by_new_game(name: str, message: str) -> None:
    with pytest.raises(InvalidSetup) as caught:
        new_game(["Ann", name], seed=0)
    assert (caught.value.rule, caught.value.message) == ("M2", message)


@pytest.mark.parametrize(("name", "message"), BAD_NAMES)
def test_m2_a_bad_name_is_refused_when_a_document_is_read(name: str, message: str) -> None:
    game = new_game(["Ann", "Bob"], seed=3).execute(Roll(0))
    data = _document(game)
    text = json.dumps(data)
    data["setup"]["players"][1] = name
    with pytest.raises(DecodeError) as caught:
        loads(json.dumps(data))
    assert caught.value.errors == (f"M2: {message} @ $.setup",)
    assert loads(text) == game  # the good document still reads as it did: nothing else changed


def test_m2_a_name_of_forty_characters_is_a_name() -> None:
    name = "B" * MAX_NAME_LENGTH
    game = new_game(["Ann", name], seed=0)
    assert loads(dumps(game)).setup.players == ("Ann", name)


def test_m2_messages_do_not_repeat_the_names() -> None:
    with pytest.raises(InvalidSetup) as caught:
        new_game(["Mallory" * 5, "Mallory" * 5], seed=0)
    assert str(caught.value) == "M2: player names must differ: seat 1 has the name of seat 0"


def test_m2_one_string_is_no_list_of_players() -> None:
    # "Ann" used to seat three players, "A", "n" and "n"; 5 raised a bare TypeError.
    for players, sides, message in (
        ("Ann", None, "players must be a sequence of names, not str"),
        (5, None, "players must be a sequence of names, not int"),
        (["Ann"], "fish-friends", "sides must be a sequence of Side values, not str"),
    ):
        with pytest.raises(InvalidSetup) as caught:
            new_game(players, seed=0, sides=sides)  # type: ignore[arg-type]  # on purpose
        assert (caught.value.rule, caught.value.message) == ("M2", message)


# -- 4. bounded setups (M2, M3, M9) --------------------------------------------------------------


def test_m2_a_huge_table_is_refused_by_its_count_before_anything_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_sides(players: int) -> tuple[Side, ...]:
        raise AssertionError(f"default sides built for {players} players")

    # new_game used to build 100,000 default sides before the count was checked.
    monkeypatch.setattr(mare_game, "default_sides", no_sides)
    players = tuple(f"P{n}" for n in range(100_000))
    with pytest.raises(InvalidSetup) as caught:
        new_game(players, seed=0)
    assert str(caught.value) == f"M2: Avanti mare! takes 1 to {MAX_PLAYERS} players, got 100000"
    assert MAX_PLAYERS == 6


def test_m9_boat_faces_are_refused_by_their_count_first() -> None:
    options = Options(boat_faces=(Face.RED,) * 100_000)
    with pytest.raises(InvalidSetup) as caught:
        new_game(["Ann"], seed=0, options=options)
    assert str(caught.value) == "M9: boat_faces names at most 2 faces (red, green), got 100000"
    assert MAX_BOAT_FACES == 2
    assert new_game(["Ann"], seed=0, options=Options(boat_faces=(Face.GREEN, Face.RED)))


@pytest.mark.parametrize(
    "seed", [MAX_SEED, -MAX_SEED, 10**5000, -(10**5000)], ids=["max", "-max", "huge", "-huge"]
)
def test_m3_a_seed_out_of_range_is_refused(seed: int) -> None:
    # 10**5000 used to start a game whose document could not be written (ValueError: Python
    # writes no int of more than 4300 digits).
    with pytest.raises(InvalidSetup) as caught:
        new_game(["Ann"], seed=seed)
    assert (
        str(caught.value) == "M3: the seed must lie strictly between -2**128 and 2**128 (MAX_SEED)"
    )


@pytest.mark.parametrize("seed", [MAX_SEED - 1, -MAX_SEED + 1, 0, -1])
def test_m3_every_seed_in_range_is_saved_and_read_back(seed: int) -> None:
    game = new_game(["Ann", "Bob"], seed=seed)
    for _ in range(5):
        game = game.execute(game.legal_commands()[0])
    assert loads(dumps(game)) == game


@pytest.mark.parametrize(
    ("first", "shown"),
    [(10**5000, "an int of 16610 bits"), (-(2**80), "an int of 81 bits")],
    ids=["huge", "-2**80"],
)
def test_m2_a_huge_first_seat_is_refused_without_writing_it_out(first: int, shown: str) -> None:
    # It used to raise a bare ValueError: the message tried to write the number out.
    with pytest.raises(InvalidSetup) as caught:
        new_game(["Ann", "Bob"], seed=0, first=first)
    assert str(caught.value) == f"M2: the first seat must be from 0 to 1, got {shown}"


def test_m2_a_setup_document_with_a_huge_table_is_refused_by_count() -> None:
    data = _document(new_game(["Ann"], seed=0))
    data["setup"]["players"] = [f"P{n}" for n in range(7)]
    data["setup"]["sides"] = ["fish-friends"] * 7
    with pytest.raises(DecodeError) as caught:
        loads(json.dumps(data))
    assert caught.value.errors == ("M2: Avanti mare! takes 1 to 6 players, got 7 @ $.setup",)


# -- 5. caches (M6, M9) --------------------------------------------------------------------------


def test_m9_odds_refuse_hostile_options_before_building_a_solver() -> None:
    before = chances._cached_solver.cache_info().currsize
    for options in (
        Options(boat_faces=(Face.RED,) * 50),
        Options(boat_faces=(Face.BLUE,)),
        Options(boat_faces=["red"]),  # type: ignore[arg-type]  # unhashable, on purpose
    ):
        with pytest.raises(InvalidSetup) as caught:
            odds("closest-to-boat", options)
        assert caught.value.rule == "M9"
    assert chances._cached_solver.cache_info().currsize == before


def test_m5_odds_refuse_a_position_off_the_river_before_caching_it() -> None:
    solver = chances._solver("closest-to-boat", Options())
    odds("closest-to-boat")
    before = (chances._cached_solver.cache_info().currsize, solver.value.cache_info().currsize)  # type: ignore[attr-defined]  # an lru_cache
    # A boat 500 pieces behind the river used to recurse until RecursionError, caching every
    # position on the way; a fish on piece -3 used to get odds.
    for state, words in (
        (built(boat=-500), "M5: state.boat must be an int from 0 to 11"),
        (built(boat=12), "M5: state.boat must be an int from 0 to 11"),
        (built(fish=(6, 6, 6, -3)), "M1: the pink fish must be caught (0), free (12)"),
        (built(fish=(6, 6, 2, 6), boat=4), "M1: the yellow fish must be caught (0), free (12)"),
        (built(fish=(6, 6, 6)), "M1: state.fish must be a tuple of 4 places"),  # type: ignore[arg-type]  # three fish, on purpose
        (built(fish=(0, 12, 12, 0), move_due=True), "M6: a move is offered only while a fish"),
        (attrs.evolve(built(), move_due=1), "M6: state.move_due must be True or False"),  # type: ignore[arg-type]  # on purpose
    ):
        with pytest.raises(core.InvalidArgument) as caught:
            odds(state=state)
        assert str(caught.value).startswith(words)
    after = (chances._cached_solver.cache_info().currsize, solver.value.cache_info().currsize)  # type: ignore[attr-defined]  # an lru_cache
    assert after == before


def test_m6_choose_refuses_a_position_off_the_river() -> None:
    with pytest.raises(core.InvalidArgument, match=r"M5: state\.boat"):
        choose(built(boat=-1, move_due=True), "random")
    with pytest.raises(core.InvalidArgument, match=r"state must be an avanti\.mare\.GameState"):
        choose(None, "random")  # type: ignore[arg-type]  # not a state, on purpose


def test_m6_a_policy_is_refused_without_echoing_a_long_text() -> None:
    with pytest.raises(core.InvalidArgument) as caught:
        odds("x" * 10_000)  # type: ignore[arg-type]  # not a policy, on purpose
    assert str(caught.value) == f"unknown policy str; choose one of {', '.join(POLICIES)}"


def test_m6_the_caches_of_the_odds_are_bounded() -> None:
    assert chances._cached_solver.cache_info().maxsize == 32
    solver = chances._solver("random", Options())
    # 6187 positions: sum over the boat b = 0..11 of the 4-fish multisets of 13 - b places.
    assert solver.value.cache_info().maxsize == 6187  # type: ignore[attr-defined]  # an lru_cache
    assert solver.decided.cache_info().maxsize == 6187  # type: ignore[attr-defined]  # an lru_cache


def test_m6_notation_spells_each_fish_from_a_fixed_table() -> None:
    state = built(fish=(6, 6, 6, 12), move_due=True)
    assert notation.notations(state, MoveFish(0, Fish.ORANGE))[:3] == (
        "move orange",
        "orange",
        "move the orange fish",
    )
    assert set(notation._MOVES) == set(Fish)  # four entries, built once: nothing to fill


def test_m6_notation_of_a_malformed_command_is_refused() -> None:
    state = built(fish=(6, 6, 6, 12), move_due=True)
    with pytest.raises(IllegalCommand) as caught:
        notation.notations(state, MoveFish(0, "x" * 10_000))  # type: ignore[arg-type]  # on purpose
    assert (caught.value.reason, caught.value.rule) == (core.CoreReason.MALFORMED_COMMAND, "M2")
    assert str(caught.value) == "M2: MoveFish.fish must be a Fish, not str"
    with pytest.raises(IllegalCommand) as other:
        notation.notations(state, "roll")  # type: ignore[arg-type]  # not a command, on purpose
    assert other.value.reason is core.CoreReason.UNKNOWN_COMMAND


def test_m2_simulate_checks_its_arguments_before_playing() -> None:
    # A billion players used to build a billion names before new_game refused them.
    with pytest.raises(core.InvalidArgument, match="M2: simulate games of 1 to 6 players"):
        simulate(1, players=10**9, seed=0)
    with pytest.raises(core.InvalidArgument, match="M3: the seeds seed to seed"):
        simulate(2, seed=MAX_SEED - 1)
    with pytest.raises(core.InvalidArgument, match="unknown policy 'nearest'"):
        simulate(1, "nearest", seed=0)  # type: ignore[arg-type]  # not a policy, on purpose
    with pytest.raises(InvalidSetup, match="M9"):
        simulate(1, options=Options(boat_faces=(Face.PINK,)), seed=0)
    with pytest.raises(core.InvalidArgument, match="at least one game, not float"):
        simulate(1.5, seed=0)  # type: ignore[arg-type]  # not a count, on purpose
    assert simulate(1, seed=MAX_SEED - 1).games == 1


# -- 6. setups built in Python are checked as JSON ones are -------------------------------------

BAD_VALUES = [
    (Setup((), (), 0, 0), "M2: Avanti mare! takes 1 to 6 players, got 0"),
    (
        Setup(("Ann", "Ann"), (FF, FF), 0, 0),
        "M2: player names must differ: seat 1 has the name of seat 0",
    ),
    (Setup(("Ann", "Bob"), (FF,), 0, 0), "M2: each of the 2 players needs a side, got 1 sides"),
    (Setup(("Ann", "Bob"), (FF, FF), 2, 0), "M2: the first seat must be from 0 to 1, got 2"),
    (Setup(("Ann", "Bob"), (FF, FF), -1, 0), "M2: the first seat must be from 0 to 1, got -1"),
    (
        Setup(("Ann",), (FF,), 0, 2**200),
        "M3: the seed must lie strictly between -2**128 and 2**128 (MAX_SEED)",
    ),
    (
        Setup(("Ann",), (FF,), 0, 0, Options(boat_faces=(Face.RED, Face.RED))),
        "M9: boat_faces must be distinct fishers' faces (red, green)",
    ),
    (
        Setup(("Ann",), (FF,), 0, 0, Options(boat_faces=(Face.GREEN,) * 3)),
        "M9: boat_faces names at most 2 faces (red, green), got 3",
    ),
]


@pytest.mark.parametrize(("setup", "message"), BAD_VALUES)
def test_m2_m3_m9_a_bad_value_gets_one_message_on_both_roads(setup: Setup, message: str) -> None:
    assert str(_refusal(setup)) == message
    text = CODEC.dumps(setup, ())
    with pytest.raises(DecodeError) as caught:
        loads(text)
    assert caught.value.errors == (f"{message} @ $.setup",)


GOOD_NAMES = st.text(
    st.characters(categories=["L", "N", "P", "S"]), min_size=1, max_size=MAX_NAME_LENGTH
)
ANY_NAMES = st.text(max_size=MAX_NAME_LENGTH + 2) | st.sampled_from([n for n, _ in BAD_NAMES])
GOOD_OPTIONS = st.builds(
    Options,
    boat_faces=st.sampled_from([(), (Face.RED,), (Face.GREEN,), (Face.RED, Face.GREEN)]),
    caught_fish_roll=st.sampled_from(CaughtFishRoll),
    free_fish_roll=st.sampled_from(FreeFishRoll),
    free_fish_move_owed=st.booleans(),
)
ANY_FACES = st.lists(st.sampled_from(Face), max_size=MAX_BOAT_FACES + 2).map(tuple)


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """A good setup, then (half the time) one field made bad: in value, size or form."""
    n = draw(st.integers(1, MAX_PLAYERS), label="players")
    names = tuple(draw(st.lists(GOOD_NAMES, min_size=n, max_size=n, unique=True)))
    setup = Setup(
        players=names,
        sides=tuple(draw(st.lists(st.sampled_from(Side), min_size=n, max_size=n))),
        first=draw(st.integers(0, n - 1)),
        seed=draw(st.integers(-MAX_SEED + 1, MAX_SEED - 1) | st.integers(0, 2**64 - 1)),
        options=draw(GOOD_OPTIONS),
    )
    bad: dict[str, Any] = draw(
        st.sampled_from(["none", "players", "sides", "first", "seed", "options"]).flatmap(
            lambda field: (
                st.just({})
                if field == "none"
                else st.fixed_dictionaries({field: _bad(setup)[field]})
            )
        )
    )
    return attrs.evolve(setup, **bad)


def _bad(setup: Setup) -> dict[str, st.SearchStrategy[Any]]:
    n = len(setup.players)
    return {
        "players": st.one_of(
            st.integers(0, n - 1).flatmap(
                lambda i: ANY_NAMES.map(
                    lambda name: (*setup.players[:i], name, *setup.players[i + 1 :])
                )
            ),
            st.lists(GOOD_NAMES, min_size=MAX_PLAYERS + 1, max_size=MAX_PLAYERS + 3).map(tuple),
            st.just(()),
            st.just((*setup.players, setup.players[0])),
            st.just(list(setup.players)),
        ),
        "sides": st.lists(st.sampled_from(Side), max_size=MAX_PLAYERS + 2).map(tuple)
        | st.just(list(setup.sides)),
        "first": st.integers(-3, MAX_PLAYERS + 3) | st.sampled_from([10**5000, -(2**70), True]),
        "seed": st.sampled_from([MAX_SEED - 1, -MAX_SEED + 1, MAX_SEED, -MAX_SEED, 10**5000, True])
        | st.integers(-(2**130), 2**130),
        "options": st.builds(
            Options,
            boat_faces=ANY_FACES | st.just([Face.RED]),
            caught_fish_roll=st.sampled_from(CaughtFishRoll),
            free_fish_roll=st.sampled_from(FreeFishRoll),
            free_fish_move_owed=st.booleans() | st.just(1),
        ),
    }


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), rolls=st.integers(0, 8))
def test_m2_m3_m9_a_setup_starts_exactly_when_its_document_reads_back(
    setup: Setup, rolls: int
) -> None:
    refusal: InvalidSetup | None = None
    try:
        game = Game.new(setup)
    except InvalidSetup as error:
        refusal = error
    if refusal is not None:
        if refusal.message.startswith("setup"):
            return  # the core's form check (a list for a tuple, True for an int): JSON has no such
        # A value the rules refuse: its document, where one can be written, is refused the same.
        try:
            text = CODEC.dumps(setup, ())
        except ValueError:  # an int of more than 4300 digits cannot be written
            return
        with pytest.raises(DecodeError) as caught:
            loads(text)
        assert caught.value.errors == (f"{refusal} @ $.setup",)
        return
    for _ in range(rolls):
        if game.is_over:
            break
        game = game.execute(game.legal_commands()[0])
    text = dumps(game)
    assert len(text.encode("utf-8")) >= len(text)  # every accepted name is valid Unicode
    assert loads(text) == game
    assert loads(text.encode("utf-8")) == game
    assert "seed" not in CODEC.unstructure(game.public_setup)  # a key (a player may be named seed)
