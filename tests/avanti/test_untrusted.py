"""Avanti behind a server: secret seeds, the public setup, player names, bounded setups and
caches, and setups built in Python checked exactly as documents are (A1-A7, A29, A30)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import avanti
from avanti import (
    CODEC,
    DEFAULT_BOARD,
    DEFAULT_DECK,
    MAX_AMOUNT,
    MAX_CASH,
    MAX_DECK_SIZE,
    MAX_ISLAND_LENGTH,
    MAX_ROUND,
    MAX_RUN,
    MAX_SEED_BITS,
    MAX_TRACK_LENGTH,
    Board,
    Deck,
    DecodeError,
    Game,
    InvalidSetup,
    Phase,
    PlaceEventMarker,
    PowerCard,
    PublicScenario,
    PublicSetup,
    RuleOptions,
    Scenario,
    Setup,
    Space,
)
from avanti.avanti import notation
from avanti.avanti.state import table_for
from avanti.core import limits
from tests.avanti.support import NAMES

# -- helpers ---------------------------------------------------------------------------------


def road(length: int, amount: int = 100) -> tuple[Space, ...]:
    """A road of ``length`` spaces: every fifth (3, 8, 13, ...) a parking lot, the rest tolls."""
    return tuple(
        Space.parking(amount) if index % 5 == 3 else Space.toll(amount) for index in range(length)
    )


def island(spaces: int, price: int = 1000) -> tuple[int | None, ...]:
    """An island path of ``spaces`` after the start: priced but for its last three (A5)."""
    return (None, *(price,) * (spaces - 3), None, None, None)


def deck(size: int) -> Deck:
    """``size`` cards, numbered as the default deck's cards are, round and round (A3)."""
    return Deck(tuple(PowerCard(i, DEFAULT_DECK.cards[i % 27].numbers) for i in range(size)))


def refused(**fields: Any) -> InvalidSetup:
    """The error of a three-player game with these ``new_game`` arguments; nothing is cached."""
    before = table_for.cache_info()
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(NAMES[:3], **fields)
    assert table_for.cache_info() == before, "a refused setup touched the table cache"
    return error.value


def document_error(setup: Setup) -> DecodeError:
    """The error of loading a game document that holds ``setup`` and no events."""
    with pytest.raises(DecodeError) as error:
        avanti.loads(CODEC.dumps(setup, ()))
    return error.value


# -- secret seeds (A29) ----------------------------------------------------------------------


def test_a29_a_game_without_a_seed_draws_an_unguessable_one() -> None:
    seeds = [avanti.new_game(NAMES[:3]).setup.seed for _ in range(8)]
    seeds += [Setup(NAMES[:3]).seed for _ in range(8)]
    assert len(set(seeds)) == 16  # 16 draws of 64 bits: a repeat has odds below 2**-56
    assert all(type(seed) is int and 0 <= seed < 2**64 for seed in seeds)
    assert avanti.new_game(NAMES[:3], seed=0).setup.seed == 0
    assert avanti.new_game(NAMES[:3], 0) == avanti.new_game(NAMES[:3], seed=0)


def test_a29_seeds_have_at_most_128_bits() -> None:
    assert MAX_SEED_BITS == 128
    for seed in (2**128 - 1, -(2**128) + 1):
        assert avanti.new_game(NAMES[:3], seed).setup.seed == seed
    for seed in (2**128, -(2**128), 10**4000):
        error = refused(seed=seed)
        assert error.rule == "A29"
        assert error.message.startswith("the seed must have at most 128 bits, not ")
        assert str(seed) not in error.message
    decoded = document_error(Setup(NAMES[:3], 2**128))
    assert decoded.errors == ("A29: the seed must have at most 128 bits, not 129 @ $.setup",)


# -- the public setup (A30) ------------------------------------------------------------------


def test_the_public_setup_is_the_setup_without_its_seed() -> None:
    options = RuleOptions(atm_last_car_wraps=False)
    game = avanti.new_game(NAMES[:4], 7, starting_seat=2, options=options, start_space=12)
    public = game.public_setup
    assert public == PublicSetup(
        players=("Jack", "Isabella", "Tina", "Steve"),
        starting_seat=2,
        board=DEFAULT_BOARD,
        deck=DEFAULT_DECK,
        options=options,
        start_space=12,
        scenario=None,
    )
    assert avanti.public_setup(game.setup) == public
    assert avanti.core.Game.public_setup.__get__(game) == public  # the core's road, same value
    assert not hasattr(public, "seed")


def test_twins_that_differ_only_in_the_seed_have_one_public_setup() -> None:
    one = avanti.new_game(NAMES[:3], 1, start_space=3)
    two = avanti.new_game(NAMES[:3], 2, start_space=3)
    assert one.state.hands != two.state.hands
    assert one.public_setup == two.public_setup


def test_the_public_setup_writes_to_json_without_the_seed() -> None:
    seed = 2**63 + 123_456_789  # a number found nowhere else in a game
    game = avanti.new_game(NAMES[:3], seed)
    data = Game.rules.codec.unstructure(game.public_setup)
    assert set(data) == {
        "players",
        "starting_seat",
        "board",
        "deck",
        "options",
        "start_space",
        "scenario",
    }
    text = json.dumps(data)
    assert str(seed) not in text
    assert "seed" not in text
    assert data["players"] == ["Jack", "Isabella", "Tina"]
    assert len(data["board"]["track"]) == 34
    assert len(data["deck"]["cards"]) == 27


SCENE: dict[str, Any] = {
    "marker": 0,
    "distances": (5, 9, 2),
    "hands": ((0, 9), (1, 10), (2,)),
    "laid": (None, None, (11, 2)),
    "discard": (3, 4),
    "cash": (100, 200, 300),
    "round": 2,
}
"""Seat 2 has laid card 11 for 2 (card 11 prints 2, 4, 7); cards 3 and 4 lie face up."""


def test_a30_a_scenario_shows_hand_sizes_never_hands() -> None:
    game = avanti.new_game(NAMES[:3], 5, scenario=Scenario(**SCENE))
    public = game.public_setup.scenario
    assert public == PublicScenario(
        marker=0,
        distances=(5, 9, 2),
        cash=(100, 200, 300),
        island=(0, 0, 0),
        quit=(False, False, False),
        hand_sizes=(2, 2, 1),
        has_laid=(False, False, True),
        draw_size=27 - 5 - 1 - 2,  # 5 in hands, 1 laid, 2 discarded
        discard=(3, 4),
        phase=Phase.PLANNING,
        to_act=None,
        invested=(False, False, False),
        run=1,
        round=2,
        ranking=(0, 1, 2),
    )
    assert public.draw_size == len(game.state.draw)
    # A twin: other cards in the hands and face down, and a drawn pile in another order.
    draw = tuple(range(26, 10, -1))
    twin_scene = {**SCENE, "hands": ((5, 6), (7, 8), (10,)), "laid": (None, None, (9, 2))}
    twin_scene["draw"] = (0, 1, 2, *draw)
    twin = avanti.new_game(NAMES[:3], 6, scenario=Scenario(**twin_scene))
    assert twin.state.hands != game.state.hands
    assert twin.public_setup == game.public_setup
    data = CODEC.unstructure(game.public_setup)["scenario"]
    assert not {"hands", "laid", "draw"} & set(data)


# -- player names (A1) -----------------------------------------------------------------------

BAD_NAMES = [
    ("\ud800", "a name must be printable (no control characters or line breaks)"),
    ("Cy\n", "a name must be printable (no control characters or line breaks)"),
    ("C" * 41, "a name must have 1 to 40 characters, not 41"),
    ("", "a name must have 1 to 40 characters, not 0"),
    (" Ann", "a name must not begin or end with a space"),
]


@pytest.mark.parametrize(
    ("name", "problem"), BAD_NAMES, ids=["surrogate", "newline", "41", "empty", "space"]
)
def test_a1_a_bad_name_is_refused_in_python_and_in_a_document(name: str, problem: str) -> None:
    before = table_for.cache_info()
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(["Ann", "Bob", name])
    assert str(error.value) == f"A1: seat 2: {problem}"
    good = avanti.new_game(["Ann", "Bob", "Cy"], seed=0)
    text = good.dumps().replace('"Cy"', json.dumps(name), 1)
    with pytest.raises(DecodeError) as decoded:
        avanti.loads(text)
    assert decoded.value.errors == (f"A1: seat 2: {problem} @ $.setup",)
    assert table_for.cache_info().currsize == before.currsize
    assert good == avanti.loads(good.dumps())  # the good game is as it was


def test_a1_forty_characters_is_a_name_and_names_are_never_echoed() -> None:
    game = avanti.new_game(["A" * 40, "Bob", "Cy"], seed=0)
    assert avanti.loads(game.dumps()) == game
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(["Bob", "Mallory <script>", "Mallory <script>"])
    assert str(error.value) == "A1: player names must differ: seat 2 has the name of seat 1"


def test_a1_players_are_a_tuple_of_names() -> None:
    assert Setup(["Ann", "Bob", "Cy"]).players == ("Ann", "Bob", "Cy")
    with pytest.raises(InvalidSetup, match=r"setup\.players must be a tuple") as error:
        Game.new(Setup("Ann"))  # a str is a sequence of str, but no tuple of names
    assert error.value.rule == "A1"


# -- bounded setups (A3-A5) ------------------------------------------------------------------


def test_the_largest_setup_plays_and_saves() -> None:
    board = Board(road(MAX_TRACK_LENGTH, MAX_AMOUNT), island(MAX_ISLAND_LENGTH, MAX_AMOUNT), 3)
    game = avanti.new_game(NAMES, 3, board=board, deck=deck(MAX_DECK_SIZE), start_space=0)
    assert len(game.state.draw) == MAX_DECK_SIZE - 15
    choices = random.Random(3)
    while not game.is_over:  # a whole game: nobody ever invests, so it is a long one
        legal = game.legal_commands()
        passes = [c for c in legal if isinstance(c, avanti.Invest) and c.steps == 0]
        game = game.execute(passes[0] if passes else choices.choice(legal))
    text = game.dumps()
    assert len(game.events) < limits.MAX_EVENTS // 2
    assert len(text.encode("utf-8")) < limits.MAX_DOCUMENT_BYTES // 2
    assert avanti.loads(text) == game


@pytest.mark.parametrize(
    ("fields", "words", "rule"),
    [
        (
            {"board": Board(road(MAX_TRACK_LENGTH + 1), island(12), 3)},
            "a road has at most 100 spaces, not 101",
            "A4",
        ),
        (
            {"board": Board(road(34), island(MAX_ISLAND_LENGTH + 1), 3)},
            "an island path has at most 40 spaces after the start, not 41",
            "A5",
        ),
        ({"deck": deck(MAX_DECK_SIZE + 1)}, "a deck has at most 100 cards, not 101", "A3"),
        (
            {"board": Board(road(34, MAX_AMOUNT + 1), island(12), 3)},
            "road space 0's amount is more than 100,000 monetas",
            "A4",
        ),
        (
            {"board": Board((*road(33), Space.parking(MAX_AMOUNT + 1)), island(12), 3)},
            "road space 33's amount is more than 100,000 monetas",
            "A4",
        ),
        (
            {"board": Board(road(34), island(12, MAX_AMOUNT + 1), 3)},
            "island space 1's price is more than 100,000 monetas",
            "A5",
        ),
    ],
    ids=["road", "island", "deck", "toll", "atm", "price"],
)
def test_a_setup_beyond_a_bound_is_refused_before_its_table_is_built(
    fields: dict[str, Any], words: str, rule: str
) -> None:
    error = refused(**fields)
    assert error.message == words
    assert error.rule == rule
    setup = Setup(NAMES[:3], 0, **fields)
    assert document_error(setup).errors == (f"{rule}: {words} @ $.setup",)


def test_a_huge_island_is_refused_quickly_and_leaves_no_table_behind() -> None:
    """A board with a 100,000-space island once built a table of 500,000 commands and kept it in
    ``table_for``'s cache, even though nothing could be played on it."""
    huge = Board(road(34), (None,) * 100_001, 3)
    error = refused(board=huge)
    assert error.message == "an island path has at most 40 spaces after the start, not 100000"
    text = avanti.new_game(NAMES[:3], seed=0).dumps()
    document = json.loads(text)
    document["setup"]["board"]["island"] = [None] * 100_001
    before = table_for.cache_info()
    with pytest.raises(DecodeError) as decoded:
        avanti.loads(json.dumps(document))
    assert all(problem.endswith("@ $.setup") for problem in decoded.value.errors)
    assert table_for.cache_info() == before


def test_a_refused_scenario_leaves_no_table_behind() -> None:
    board = Board(road(36), island(12), 3)  # a board no other test plays on
    error = refused(board=board, scenario=Scenario(**{**SCENE, "marker": 36}))
    assert str(error) == "A4: scenario: the marker must be on a road space 0..35"


# -- caches ----------------------------------------------------------------------------------


def test_the_caches_are_bounded() -> None:
    assert table_for.cache_info().maxsize == 32
    assert notation._marker.cache_info().maxsize == MAX_TRACK_LENGTH
    assert notation._play.cache_info().maxsize == MAX_DECK_SIZE * 7
    assert notation._invest.cache_info().maxsize == MAX_ISLAND_LENGTH + 1


def test_the_notation_of_a_command_no_setup_allows_is_not_remembered() -> None:
    game = avanti.new_game(NAMES[:3], seed=0)
    before = notation._marker.cache_info()
    assert game.notation(PlaceEventMarker(0, 10**6)) == "marker 1000000"
    assert game.notation(PlaceEventMarker(0, -1)) == "marker -1"
    assert game.notation(avanti.Invest(0, MAX_ISLAND_LENGTH + 1)) == "invest 41"
    assert game.notation(avanti.PlayCard(0, MAX_DECK_SIZE, 4)) == "play 100 for 4"
    after = notation._marker.cache_info()
    assert (after.currsize, after.misses) == (before.currsize, before.misses)
    assert game.notation(PlaceEventMarker(0, MAX_TRACK_LENGTH - 1)) == "marker 99"
    assert game.notation(avanti.PlayCard(0, MAX_DECK_SIZE - 1, 7)) == "play 99 for 7"
    assert notation._play.cache_info().currsize >= 1
    assert (game.notation(avanti.Drive(1)), game.notation(avanti.Quit(1))) == ("drive", "quit")
    assert notation._marker.cache_info().misses + notation._marker.cache_info().hits > (
        after.misses + after.hits
    )


# -- scenarios built in Python are checked as documents are ----------------------------------

BASE: dict[str, Any] = {"marker": 0, "distances": (5, 9, 2), "hands": ((0, 9), (1, 10), (2, 11))}


@pytest.mark.parametrize("kind", [tuple, list])
@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("quit", (3, False, False), "setup.scenario.quit"),
        ("cash", (True, 5000, 5000), "setup.scenario.cash"),
        ("invested", (0, False, False), "setup.scenario.invested"),
        ("to_act", (3,), "to_act must list distinct active seats"),
        ("ranking", (0, 1, 3), "the ranking must list every seat once (0..2)"),
        ("ranking", (0, 1), "ranking has 2 entries for 3 players"),
        ("quit", (False, False), "quit has 2 entries for 3 players"),
        ("cash", (MAX_CASH + 1, 0, 0), "seat 0 has more than 10,000,000 monetas"),
        ("distances", (5, 9, 34 - 1 + 7 * 3 + 1), "seat 2's car has driven more than 54"),
    ],
)
def test_a_scenario_from_python_is_refused_as_its_document_is(
    kind: type, field: str, value: tuple[Any, ...], words: str
) -> None:
    fields = {**BASE, "round": 2, field: kind(value)}
    if field == "to_act" or field == "distances":
        fields.update(phase=Phase.DRIVING, laid=((3, 1), None, None))
    if field == "invested":
        fields.update(phase=Phase.INVESTING, hands=((), (), ()))
    scenario = Scenario(**fields)
    assert getattr(scenario, field) == tuple(value)  # a list is read as the tuple JSON gives
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(NAMES[:3], seed=0, scenario=scenario)
    assert words in str(error.value)
    setup = Setup(NAMES[:3], 0, scenario=scenario)
    problems = document_error(setup).errors
    if words.startswith("setup."):  # a wrong type: the codec names the field by its JSON path
        assert len(problems) == 1
        assert f"$.setup.scenario.{field}[0]" in problems[0]
    else:
        assert problems == (f"{error.value} @ $.setup",)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"run": MAX_RUN + 1}, "run and round count from 1 (run up to 1000, round up to 1000)"),
        ({"round": MAX_ROUND + 1}, "run and round count from 1"),
        ({"hands": ((0, 9), (1, 10), (2, 11)), "draw": tuple(range(12, 27)) * 2}, "the piles hold"),
        ({"draw": tuple(range(12, 27))}, "6 cards are in no hand or pile (card 3 first)"),
        ({"laid": ((3, 7), None, None)}, "seat 0 laid card 3 for a number not on it"),
    ],
)
def test_scenario_bounds_and_messages(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(NAMES[:3], seed=0, scenario=Scenario(**{**BASE, **changes}))
    assert words in str(error.value)


def test_a_furthest_car_in_the_driving_step_is_accepted() -> None:
    """On the 34-space road a car may stand at most 33 + 7 x 3 = 54 past the marker (A11)."""
    scenario = Scenario(
        marker=0,
        distances=(5, 9, 54),
        hands=((0, 9), (1, 10), (2, 11)),
        laid=((3, 1), None, None),
        phase=Phase.DRIVING,
        round=2,
    )
    game = avanti.new_game(NAMES[:3], seed=0, scenario=scenario)
    assert avanti.loads(game.dumps()) == game


def test_a_scenario_of_the_wrong_shape_is_refused_not_crashed() -> None:
    for fields in ({"hands": 5}, {"hands": "abc"}, {"laid": 3}, {"distances": {5, 9, 2}}):
        scenario = Scenario(**{**BASE, **fields})  # kept as given, for the form check
        with pytest.raises(InvalidSetup, match=r"setup\.scenario\.") as error:
            avanti.new_game(NAMES[:3], seed=0, scenario=scenario)
        assert error.value.rule == "A1"


def test_a_laid_card_that_is_no_pair_is_refused() -> None:
    scenario = Scenario(**BASE, laid=[[3, 1, 2], None, None])
    with pytest.raises(InvalidSetup, match=r"setup.scenario.laid\[0\]"):
        avanti.new_game(NAMES[:3], seed=0, scenario=scenario)


# -- everything accepted can be saved and read back ------------------------------------------

ODD_INTS = st.sampled_from([-1, 0, 1, 2, 3, 5, 34, 10**30, True, False])
NAMES_ANY = st.one_of(
    st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Eve", "Ann", " Fay", "G\n", "\ud800", "H" * 41]),
    st.text(max_size=42),
)
SEEDS_ANY = st.one_of(
    st.integers(),
    st.integers(-(2**130), 2**130),
    st.sampled_from([2**128 - 1, 2**128, -(2**128), 10**4000, "7", 1.5, True]),
)
AMOUNTS = st.sampled_from([0, 100, 2000, MAX_AMOUNT])
AMOUNTS_ANY = st.sampled_from([0, 100, 2000, MAX_AMOUNT, MAX_AMOUNT + 1])


@st.composite
def boards(draw: st.DrawFn, wild: bool) -> Board:
    """Boards at and (when ``wild``) beyond every bound: lengths, depths and amounts."""
    amounts = AMOUNTS_ANY if wild else AMOUNTS
    if wild:
        length = draw(st.one_of(st.integers(1, 40), st.sampled_from([99, 100, 101])))
        spaces = draw(st.one_of(st.integers(1, 14), st.sampled_from([39, 40, 41])))
    else:  # roads on which every move of 1-7 reaches 5 spaces or more (A11)
        length = draw(st.sampled_from([34, 35, 37, 99, MAX_TRACK_LENGTH]))
        spaces = draw(st.sampled_from([4, 12, MAX_ISLAND_LENGTH]))
    pattern = draw(st.lists(st.tuples(st.booleans(), amounts), min_size=1, max_size=5))
    track = tuple(
        Space.parking(amount) if lot else Space.toll(amount)
        for lot, amount in (pattern[i % len(pattern)] for i in range(length))
    )
    prices = draw(st.lists(st.one_of(st.none(), amounts.filter(bool)), min_size=1, max_size=4))
    path = (None, *(prices[i % len(prices)] for i in range(spaces)))
    depth = draw(st.integers(1, min(3, spaces)))
    return Board(track, path, depth)


DECK_SIZES = {False: [15, 27, MAX_DECK_SIZE], True: [1, 8, 9, 15, 30, 100, 101]}


@st.composite
def scenarios(draw: st.DrawFn, players: int) -> Scenario:
    """A valid scenario for ``players`` seats with up to two fields replaced by anything near."""
    fields: dict[str, Any] = {
        "marker": 0,
        "distances": (5, 9, 2, 13, 17)[:players],
        "hands": ((0, 9), (1, 10), (2, 11), (3, 12), (4, 13))[:players],
        "round": 2,
    }
    seats = st.lists(ODD_INTS, max_size=6)
    cards = st.integers(-1, 28)
    wide: dict[str, st.SearchStrategy[Any]] = {
        "marker": ODD_INTS,
        "distances": seats,
        "hands": st.lists(st.lists(cards, max_size=4), max_size=6),
        "cash": st.lists(st.sampled_from([0, 5000, -1, MAX_CASH, MAX_CASH + 1, True]), max_size=6),
        "island": seats,
        "draw": st.lists(cards, max_size=30),
        "discard": st.lists(cards, max_size=4),
        "laid": st.lists(st.one_of(st.none(), st.tuples(cards, st.integers(0, 8))), max_size=6),
        "quit": st.lists(st.one_of(st.booleans(), ODD_INTS), max_size=6),
        "phase": st.sampled_from(Phase),
        "to_act": seats,
        "invested": st.lists(st.booleans(), max_size=6),
        "run": st.sampled_from([0, 1, 2, MAX_RUN, MAX_RUN + 1]),
        "round": st.sampled_from([0, 1, 2, MAX_ROUND, MAX_ROUND + 1]),
        "ranking": st.one_of(st.permutations(range(players)), seats),
    }
    for name in draw(st.lists(st.sampled_from(sorted(wide)), max_size=2)):
        value = draw(wide[name])
        fields[name] = tuple(value) if draw(st.booleans()) and isinstance(value, list) else value
    return Scenario(**fields)


WILD = ("players", "seed", "seat", "board", "deck", "start", "scenario")
"""The parts of a setup that :func:`setups` may draw from a wide range, including bad values."""


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """Setups of every kind: each part valid, or (for up to two parts) anything near valid."""
    wild = draw(st.sets(st.sampled_from(WILD), max_size=2))
    if "players" in wild:
        players: Any = draw(st.lists(NAMES_ANY, max_size=6))
    else:
        players = draw(st.lists(st.sampled_from(NAMES), min_size=3, max_size=5, unique=True))
    players = tuple(players) if draw(st.booleans()) else players
    n = len(players)
    seed: Any = draw(SEEDS_ANY if "seed" in wild else st.integers(0, 2**64 - 1))
    seat = draw(ODD_INTS if "seat" in wild or n == 0 else st.integers(0, n - 1))
    board = draw(st.one_of(st.just(DEFAULT_BOARD), boards("board" in wild)))
    cards = draw(st.sampled_from(DECK_SIZES["deck" in wild]))
    space = draw(ODD_INTS if "start" in wild else st.integers(0, board.track_length - 1))
    scenario = draw(scenarios(max(n, 1))) if "scenario" in wild else None
    return Setup(
        players,
        seed,
        seat,
        board,
        deck(cards),
        RuleOptions(*draw(st.tuples(st.booleans(), st.booleans(), st.booleans()))),
        draw(st.one_of(st.none(), st.just(space))) if scenario is None else None,
        scenario,
    )


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), steps=st.integers(0, 6))
def test_a_setup_starts_if_and_only_if_its_game_saves_and_reads_back(
    setup: Setup, steps: int
) -> None:
    before = table_for.cache_info()
    try:
        game = Game.new(setup)
    except InvalidSetup as error:
        refusal = error
    else:
        for _ in range(steps):
            legal = game.legal_commands()
            if not legal:
                break
            game = game.execute(legal[len(legal) // 2])
        text = game.dumps()
        text.encode("utf-8")  # no lone surrogate slipped through
        assert avanti.loads(text) == game
        return
    assert table_for.cache_info() == before
    try:
        text = CODEC.dumps(setup, ())
    except (TypeError, ValueError):  # a float or str where JSON reads an int, written as such
        return
    with pytest.raises(DecodeError) as decoded:
        avanti.loads(text)
    if CODEC.setup_problem(setup) is None:  # right form: the rules refuse the document alike
        assert decoded.value.errors == (f"{refusal} @ $.setup",)
