"""A game behind a server: secret seeds, the public setup, and setups built to hurt (F1-F4).

Every bad setup is refused with :class:`InvalidSetup` naming the rule, whether it was built in
Python or read from a document, before anything is built or remembered from it; messages name the
field or seat, never a hidden or hostile value.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avanti import autorama
from avanti.autorama import (
    CODEC,
    RULES,
    Bid,
    Game,
    InvalidSetup,
    Options,
    Pass,
    Phase,
    PublicScenario,
    PublicSetup,
    Scenario,
    Setup,
    dumps,
    hiring,
    loads,
    new_game,
    notation,
    public_setup,
    scoring,
    selling,
)
from avanti.autorama.reasons import Reason
from avanti.autorama.setup import MAX_BID, MAX_CASH, MAX_ROUNDS, MAX_SEED_BITS
from avanti.core import DecodeError
from avanti.core import Game as CoreGame
from tests.autorama.helpers import RULEBOOK_PLAYERS, build, refused
from tests.autorama.test_hidden import twins

NAMES = ("Ann", "Bob", "Cy")
AUCTION: dict[str, Any] = {
    "advisor_deck": (8, 11, 15),
    "vehicle_deck": (1, 2, 3),
    "check_deck": (0, 2, 3),
}
"""One round of each phase for three players, starting with an auction (seat 0 bids first)."""


def document_with(change: dict[str, Any], *, scenario: bool = False) -> str:
    """A saved three-player game, its setup (or its scenario) edited as ``change`` says."""
    game = build(**AUCTION) if scenario else new_game(NAMES, seed=0)
    data = json.loads(dumps(game))
    (data["setup"]["scenario"] if scenario else data["setup"]).update(change)
    return json.dumps(data)


def setup_error(text: str) -> str:
    """The one problem ``loads`` finds in ``text``, which must be under ``$.setup``."""
    with pytest.raises(DecodeError) as info:
        loads(text)
    (problem,) = info.value.errors
    assert problem.endswith(" @ $.setup")
    return problem.removesuffix(" @ $.setup")


def caches() -> dict[str, tuple[int, int]]:
    """What each cache of the package holds, and how often it was asked (found or not): a
    full cache keeps its size when it takes a new entry, but not its count of questions."""
    found = {
        f"{module.__name__}.{name}": (info.currsize, info.hits + info.misses)
        for module in (hiring, notation, scoring, selling)
        for name, value in vars(module).items()
        if isinstance(value, functools._lru_cache_wrapper)
        for info in [value.cache_info()]
    }
    assert len(found) == 9
    return found


# -- 1. secret seeds -------------------------------------------------------------------------


def test_f1_a_game_without_a_seed_gets_a_secret_one() -> None:
    seeds = [new_game(NAMES).setup.seed for _ in range(8)]
    assert len(set(seeds)) == 8  # 64 random bits each: a repeat has odds of 1 in 2**59
    assert all(type(seed) is int and 0 <= seed < 2**64 for seed in seeds)
    drawn = [Setup(NAMES).seed for _ in range(8)]  # the setup record draws one too
    assert len(set(drawn)) == 8
    assert all(0 <= seed < 2**64 for seed in drawn)


def test_f1_a_seed_given_is_kept_and_deals_the_same_game() -> None:
    assert new_game(NAMES, seed=0).setup.seed == 0
    assert new_game(NAMES, 0) == new_game(NAMES, seed=0)
    assert new_game(NAMES, seed=5).events == new_game(NAMES, seed=5).events


# -- 2. the public setup ---------------------------------------------------------------------


def test_the_public_setup_of_a_shuffled_game_holds_no_seed() -> None:
    options = Options(lawyer_choice=True)
    game = new_game(("Ann", "Bob", "Cy", "Di"), seed=12345, first=2, options=options)
    assert game.public_setup == PublicSetup(
        players=("Ann", "Bob", "Cy", "Di"), first=2, options=options, scenario=None
    )
    assert game.public_setup == public_setup(game.setup)
    assert CoreGame.public_setup.fget(game) == game.public_setup  # type: ignore[attr-defined]  # the core's untyped property
    data = CODEC.unstructure(game.public_setup)
    assert data == {
        "players": ["Ann", "Bob", "Cy", "Di"],
        "first": 2,
        "options": {
            "lawyer_single_use": False,
            "sales_associate_refunds_winner": False,
            "lawyer_choice": True,
        },
        "scenario": None,
    }
    assert "12345" not in json.dumps(data)


def test_twin_games_differing_only_in_the_seed_have_one_public_setup() -> None:
    a, b = new_game(NAMES, seed=1), new_game(NAMES, seed=2)
    assert a.events != b.events
    assert a.public_setup == b.public_setup


def test_f2_f8_f12_the_public_scenario_counts_cards_and_shows_kept_advisors() -> None:
    game = build(
        phase=Phase.BUYING,
        vehicle_deck=(9, 12, 30),
        check_deck=(0, 2, 3, 4, 5, 6),
        advisors=((21,), (15,), (29,)),
        vehicles=((7,), (8,), (10,)),
        kept=((19,), (), ()),
        checks=((13,), (), ()),
        cash=(37, 1, 0),
    )
    # Advisors named: 3 in hand and 1 kept, so 26 of 30 are out of the game; vehicles: 3 in
    # the deck and 3 in hand, 24 out; checks: 6 in the deck and 1 won, 23 out (of 30).
    assert game.public_setup == PublicSetup(
        players=RULEBOOK_PLAYERS,
        first=0,
        options=Options(),
        scenario=PublicScenario(
            phase=Phase.BUYING,
            round=1,
            advisors_left=0,
            vehicles_left=3,
            checks_left=6,
            removed=(26, 24, 23),
            advisor_counts=(1, 1, 1),
            vehicle_counts=(1, 1, 1),
            check_counts=(1, 0, 0),
            kept=((19,), (), ()),
        ),
    )
    text = json.dumps(CODEC.unstructure(game.public_setup))
    assert "seed" not in text
    assert "cash" not in text
    assert "37" not in text  # Isaac's cash (F2)
    assert "13" not in text  # his check (F8)


def test_f1_f2_twin_scenarios_differing_in_hidden_facts_have_one_public_setup() -> None:
    a, b = twins()  # other deck orders and contents, Becky's hand, Chloe's cash
    assert a.setup != b.setup
    assert a.public_setup == b.public_setup


def test_the_ruleset_names_the_public_setup_and_the_setup_rule() -> None:
    assert RULES.public is public_setup
    assert RULES.setup_rule == "F1"
    assert {"PublicSetup", "PublicScenario", "public_setup"} <= set(autorama.__all__)


# -- 3. names --------------------------------------------------------------------------------

BAD_NAMES = ["\ud800", "Ann\nBob", "x" * 41, "", " Ann"]


@pytest.mark.parametrize(
    "name", BAD_NAMES, ids=["surrogate", "newline", "41-characters", "empty", "leading-space"]
)
def test_f1_a_bad_player_name_is_refused_from_python_and_from_a_document(name: str) -> None:
    with pytest.raises(InvalidSetup) as info:
        new_game(("Ann", name, "Cy"), seed=0)
    assert info.value.rule == "F1"
    assert str(info.value).startswith("F1: seat 1: a name must")
    if name.strip():
        assert name not in str(info.value)
    text = document_with({"players": ["Ann", name, "Cy"]})
    assert setup_error(text) == str(info.value)
    assert loads(document_with({})) == new_game(NAMES, seed=0)  # the untouched one still loads


def test_f1_a_name_of_40_characters_is_accepted() -> None:
    game = new_game(("Ann", "x" * 40, "Cy"), seed=0)
    assert loads(dumps(game)) == game


# -- 4 and 7. bounded setups -----------------------------------------------------------------


def test_f2_the_money_supply_is_what_the_box_holds() -> None:
    assert MAX_CASH == 12 * 5 + 60 * 1  # twelve $5,000 tokens and sixty $1,000 tokens
    assert MAX_BID == 120 + 3 * 3 + 3 * 4 == 141  # plus every Sales Director and GM bonus
    assert MAX_CASH >= 4 * 28  # starting cash for four
    assert MAX_CASH == 6 * 20  # starting cash for six
    assert MAX_ROUNDS == 10  # 30 cards dealt to 3 players
    assert MAX_SEED_BITS == 128


def test_f2_all_the_money_in_the_box_makes_an_auction_of_122_commands() -> None:
    game = build(**AUCTION, cash=(MAX_CASH, 0, 0))
    legal = game.legal_commands()
    assert len(legal) == 122  # Pass, and every bid from 0 to 120
    assert legal[0] == Pass(0)
    assert Bid(0, 120) in legal
    assert Bid(0, 5) in legal
    refused(game, Bid(0, 121), Reason.BID_OVER_CASH, "F4")


@pytest.mark.parametrize("cash", [(41, 40, 40), (10**7, 0, 0), (10**15, 0, 0), (0, 0, 10**5000)])
def test_f2_a_scenario_cannot_hand_out_more_than_the_box_holds(cash: tuple[int, ...]) -> None:
    before = caches()
    with pytest.raises(InvalidSetup) as info:
        build(**AUCTION, cash=cash)
    assert str(info.value) == (
        "F2: the cash of all seats together cannot exceed the money in the box (120 thousand)"
    )
    assert caches() == before


@pytest.mark.parametrize("cash", [10**7, 10**15])
def test_f2_a_549_byte_document_with_huge_cash_is_refused_at_once(cash: int) -> None:
    before = caches()
    text = document_with({"cash": [cash, 0, 0]}, scenario=True)
    assert len(text) < 600
    assert setup_error(text) == (
        "F2: the cash of all seats together cannot exceed the money in the box (120 thousand)"
    )
    assert caches() == before


def test_f2_cash_cannot_be_negative_and_the_seat_is_named() -> None:
    with pytest.raises(InvalidSetup) as info:
        build(**AUCTION, cash=(28, -1, 28))
    assert str(info.value) == "F2: seat 1: cash cannot be negative"


@pytest.mark.parametrize(("players", "last"), [(3, 10), (4, 7), (5, 6), (6, 5)])
def test_f4_a_scenario_round_is_one_the_deck_can_deal(players: int, last: int) -> None:
    names = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")[:players]
    deals: dict[str, Any] = {  # one round of each phase for this many players
        "advisor_deck": tuple(range(1, 1 + players)),
        "vehicle_deck": tuple(range(1, 1 + players)),
        "check_deck": (0, 0, 2, 2, 3, 3)[:players],
    }
    game = new_game(names, seed=0, scenario=Scenario(round=last, **deals))
    assert game.state.round == last
    for bad in (last + 1, 0, 10**5000):  # a number too long even to write out
        with pytest.raises(InvalidSetup) as info:
            new_game(names, seed=0, scenario=Scenario(round=bad, **deals))
        assert str(info.value) == (
            f"F4: rounds are counted from 1, and a phase has at most {last} with {players} players"
        )


def test_f4_the_rounds_before_and_the_rounds_left_fit_one_deck() -> None:
    # Three players, four rounds of advisors left: round 7 is the last that fits (6 + 4 = 10).
    deals: dict[str, Any] = {
        "advisor_deck": tuple(range(1, 13)),
        "vehicle_deck": tuple(range(1, 13)),
        "check_deck": tuple(range(2, 14)),
    }
    assert new_game(NAMES, seed=0, scenario=Scenario(round=7, **deals)).state.round == 7
    with pytest.raises(InvalidSetup) as info:
        new_game(NAMES, seed=0, scenario=Scenario(round=8, **deals))
    assert str(info.value) == (
        "F4: round 8 with 4 more to deal makes more than the 10 rounds a deck deals to 3 players"
    )


def test_f1_a_scenario_names_no_more_cards_than_a_deck_holds() -> None:
    before = caches()
    with pytest.raises(InvalidSetup) as info:
        build(**{**AUCTION, "advisor_deck": (8,) * 1_000_000})
    assert str(info.value) == "F1: the scenario names more advisors than the 30 of the deck"
    with pytest.raises(InvalidSetup) as info:
        build(**AUCTION, checks=((0,) * 28, (), (2, 2, 3)))  # 3 + 31 checks
    assert str(info.value) == "F1: the scenario names more checks than the 30 of the deck"
    assert caches() == before


@pytest.mark.parametrize("card", [31, -1, 10**5000], ids=["31", "-1", "10^5000"])
def test_f1_a_card_not_in_the_deck_is_refused_without_repeating_it(card: int) -> None:
    with pytest.raises(InvalidSetup) as info:
        build(**{**AUCTION, "vehicle_deck": (1, 2, card)})
    assert str(info.value) == "F1: the scenario names a vehicle that is not in the deck"


@pytest.mark.parametrize("seed", [2**128, -(2**128), 10**5000], ids=["2^128", "-2^128", "10^5000"])
def test_f1_a_seed_wider_than_128_bits_is_refused(seed: int) -> None:
    with pytest.raises(InvalidSetup) as info:
        new_game(NAMES, seed=seed)
    assert str(info.value) == "F1: the seed must be a whole number of at most 128 bits"
    for fine in (2**128 - 1, -(2**128) + 1):
        game = new_game(NAMES, seed=fine)
        assert loads(dumps(game)) == game


def test_f1_a_wide_seed_in_a_document_is_refused_like_one_from_python() -> None:
    assert setup_error(document_with({"seed": 2**128})) == (
        "F1: the seed must be a whole number of at most 128 bits"
    )


@pytest.mark.parametrize("change", [{"seed": 1.5}, {"first": 1.0}, {"seed": True}])
def test_f1_a_seed_or_start_player_of_the_wrong_type_is_an_invalid_setup(
    change: dict[str, object],
) -> None:
    """Regression: ``seed=1.5`` raised a bare TypeError, and ``first=1.0`` was written into the
    events, so the saved game no longer loaded. Relies on the core's check of a setup's form."""
    with pytest.raises(InvalidSetup) as info:
        new_game(NAMES, **change)  # type: ignore[arg-type]  # the wrong type on purpose
    assert info.value.rule == "F1"
    assert "1.5" not in str(info.value)
    with pytest.raises(DecodeError):
        loads(document_with(change))


# -- 5. caches -------------------------------------------------------------------------------


def test_every_cache_of_the_package_is_bounded() -> None:
    sizes = {
        f"{module.__name__}.{name}": value.cache_parameters()["maxsize"]
        for module in (hiring, notation, scoring, selling)
        for name, value in vars(module).items()
        if isinstance(value, functools._lru_cache_wrapper)
    }
    assert None not in sizes.values(), sizes
    assert len(sizes) == 9
    assert sizes["avanti.autorama.selling._offer"] == 6 * (
        30 + 435
    )  # every seat's every single and pair (F14, F15)


def lookups() -> int:
    """How many times the notation's caches were asked, found or not."""
    infos = [
        value.cache_info()
        for value in vars(notation).values()
        if isinstance(value, functools._lru_cache_wrapper)
    ]
    return sum(info.hits + info.misses for info in infos)


def test_the_notation_of_a_command_no_game_can_hold_is_not_remembered() -> None:
    game = new_game(NAMES, seed=0)
    before, asked = caches(), lookups()
    assert game.notation(Bid(0, 10**6)) == "bid 1000000000"
    assert game.notation(Bid(0, -3)) == "bid -3000"
    assert game.notation(autorama.Offer(0, tuple(range(1, 31)))).startswith("offer 1 2 3")
    assert game.notation(autorama.TakeBack(0, 99)) == "take back 99"
    with_lawyer = autorama.OfferWithLawyer(0, (3, 99), 19)
    assert game.notation(with_lawyer) == "offer 3 and 99 with lawyer 19"
    assert game.notation(autorama.PlayAdvisor(0, 0)) == "play 0"
    assert caches() == before
    assert lookups() == asked  # not even looked up
    assert game.notation(Bid(0, 7)) == "bid 7000"  # one the table may see: remembered
    assert lookups() == asked + 1


# -- 6. setups built in Python are checked like documents ------------------------------------

NAME_TEXT = st.one_of(
    st.sampled_from(["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "x" * 40]),
    st.text(max_size=42),
)
SMALL = st.integers(-2, 40)
WIDE = st.one_of(SMALL, st.integers(-(2**130), 2**130), st.sampled_from([10**7, 10**15, 10**5000]))
CARDS = st.lists(st.one_of(st.integers(-1, 32), WIDE), max_size=12).map(tuple)
HANDS = st.one_of(st.just(()), st.lists(CARDS, min_size=1, max_size=7).map(tuple))
SCENARIOS = st.builds(
    Scenario,
    phase=st.sampled_from(Phase),
    round=st.one_of(SMALL, WIDE),
    advisor_deck=CARDS,
    vehicle_deck=CARDS,
    check_deck=CARDS,
    cash=st.one_of(st.just(()), st.lists(st.one_of(SMALL, WIDE), max_size=7).map(tuple)),
    advisors=HANDS,
    vehicles=HANDS,
    checks=HANDS,
    kept=HANDS,
)
SETUPS = st.builds(
    Setup,
    players=st.lists(NAME_TEXT, min_size=1, max_size=8).map(tuple),
    seed=WIDE,
    first=st.one_of(SMALL, WIDE),
    options=st.builds(Options, st.booleans(), st.booleans(), st.booleans()),
    scenario=st.one_of(st.none(), st.none(), SCENARIOS),
)


def started(setup: Setup) -> Game | InvalidSetup:
    """The game ``setup`` starts, or the error that refuses it."""
    try:
        return Game.new(setup)
    except InvalidSetup as error:
        return error


@settings(max_examples=300, deadline=None)
@given(setup=SETUPS)
def test_a_setup_is_accepted_if_and_only_if_its_game_can_be_saved_and_read_back(
    setup: Setup,
) -> None:
    game = started(setup)
    if isinstance(game, InvalidSetup):
        assert game.rule in {"F1", "F2", "F3", "F4", "F9"}
        assert len(str(game)) < 200  # nothing long or hostile is echoed
        try:
            text = CODEC.dumps(setup, ())
            text.encode("utf-8")
        except ValueError:  # a lone surrogate or a number JSON cannot carry: no document
            return
        assert setup_error(text) == str(game)  # a document is refused the same way
        return
    text = dumps(game)
    assert len(text.encode("utf-8")) < 10_000
    assert loads(text) == game
    assert json.loads(json.dumps(CODEC.unstructure(game.public_setup)))["players"] == list(
        setup.players
    )
    assert "seed" not in CODEC.unstructure(game.public_setup)  # a key (a player may be named seed)
    if game.state.phase is Phase.HIRING:
        assert len(game.legal_commands()) <= MAX_BID + 2
