"""The encoding for agents: action ids, masks, observation and information-state vectors.

The layout checked by hand here is the one the module ``avanti.autorama.encoding`` documents.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avanti.autorama import (
    AutoramaEncoding,
    Bid,
    Command,
    DeclineMechanic,
    Game,
    Offer,
    OfferWithLawyer,
    Options,
    Pass,
    Phase,
    PlayAdvisor,
    TakeBack,
    UseMechanic,
    encoding,
    new_game,
)
from avanti.core import InvalidArgument, Stream
from avanti.core.encoding import check_pieces
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play
from tests.autorama.test_hidden import twins
from tests.hardening.games_autorama import twin

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
OPTIONS = st.builds(Options, st.booleans(), st.booleans(), st.booleans())


def fresh(players: int, options: Options = Options()) -> Game:  # noqa: B008  Options is frozen
    return new_game(NAMES[:players], seed=players, options=options)


def piece(
    enc: AutoramaEncoding, vector: list[float], name: str, *, info: bool = False
) -> list[float]:
    """The slice ``name`` of an observation (or, with ``info``, an information state)."""
    pieces = enc.information_pieces if info else enc.observation_pieces
    found = next(p for p in pieces if p.name == name)
    return vector[found.start : found.stop]


def phase_two(phase: Phase) -> Game:
    """A three-player position built to start in ``phase``."""
    if phase is Phase.HIRING:
        return build(advisor_deck=(1, 2, 3), vehicle_deck=(1, 2, 3), check_deck=(0, 2, 3))
    if phase is Phase.BUYING:
        return build(
            phase=Phase.BUYING,
            vehicle_deck=(1, 2, 3),
            check_deck=(0, 2, 3),
            advisors=((1,), (2,), (3,)),
        )
    return build(phase=Phase.SELLING, check_deck=(0, 2, 3), vehicles=((1,), (2,), (3,)))


# -- the action layout, by hand ------------------------------------------------------------------


def test_the_action_ids_of_a_three_player_game_follow_the_documented_table() -> None:
    enc = encoding(fresh(3).public_setup)
    assert enc.num_actions == 563
    assert enc.max_bid == 31  # F2: 28, and 1 from each of the three Consultants (F7)
    starts = {s.name: (s.start, s.size) for s in enc.sections}
    assert starts == {
        "pass": (0, 1),
        "bid": (1, 32),
        "play": (33, 30),
        "boost": (63, 3),
        "offer": (66, 30),
        "offer-pair": (96, 435),
        "take-back": (531, 30),
        "mechanic": (561, 2),
    }
    cases: list[tuple[Command, int]] = [
        (Pass(2), 0),
        (Bid(0, 0), 1),
        (Bid(1, 5), 6),
        (Bid(2, 31), 32),
        (PlayAdvisor(0, 1), 33),
        (PlayAdvisor(0, 13), 45),
        (PlayAdvisor(0, 30), 62),
        (PlayAdvisor(1, 13, True), 63),
        (PlayAdvisor(1, 15, True), 65),
        (Offer(0, (1,)), 66),
        (Offer(0, (30,)), 95),
        (Offer(0, (1, 2)), 96),
        (Offer(0, (1, 30)), 124),  # the 29th pair that starts with 1
        (Offer(0, (2, 3)), 125),
        (Offer(0, (29, 30)), 530),
        (TakeBack(2, 1), 531),
        (TakeBack(2, 30), 560),
        (UseMechanic(1), 561),
        (DeclineMechanic(1), 562),
    ]
    for command, action in cases:
        assert enc.action_id(command) == action
        assert enc.command(action, command.seat) == command


def test_f2_five_and_six_players_bid_at_most_twenty_three() -> None:
    for players in (5, 6):
        enc = encoding(fresh(players).public_setup)
        assert enc.max_bid == 23
        assert enc.num_actions == 555
        assert enc.action_id(Bid(0, 23)) == 24
        assert enc.action_id(PlayAdvisor(0, 1)) == 25


def test_f15_named_lawyers_come_last_and_only_with_an_option_that_lets_one_name_them() -> None:
    for options in (Options(lawyer_choice=True), Options(lawyer_single_use=True)):
        enc = encoding(fresh(4, options).public_setup)
        assert enc.num_actions == 563 + 435 * 3
        assert enc.action_id(OfferWithLawyer(0, (1, 2), 19)) == 563
        assert enc.action_id(OfferWithLawyer(0, (1, 2), 21)) == 565
        assert enc.action_id(OfferWithLawyer(0, (1, 3), 19)) == 566
        assert enc.action_id(OfferWithLawyer(0, (29, 30), 21)) == 1867
        assert enc.action_id(Offer(0, (29, 30))) == 530  # the rest is laid out as without
    enc = encoding(fresh(4, Options(sales_associate_refunds_winner=True)).public_setup)
    assert enc.num_actions == 563
    with pytest.raises(InvalidArgument):
        enc.action_id(OfferWithLawyer(0, (1, 2), 19))


def test_a_scenario_drops_the_phases_it_never_reaches_and_bids_up_to_the_box() -> None:
    hiring, buying, selling = (
        encoding(phase_two(p).public_setup) for p in (Phase.HIRING, Phase.BUYING, Phase.SELLING)
    )
    assert hiring.max_bid == 120  # the cash of a scenario is hidden; the box holds 120 (F2)
    assert hiring.num_actions == 1 + 121 + 33 + 30 + 435 + 30 + 2
    assert buying.num_actions == 33 + 30 + 435 + 30 + 2
    assert selling.num_actions == 30 + 435 + 30 + 2
    assert buying.action_id(PlayAdvisor(0, 1)) == 0
    assert selling.action_id(Offer(0, (1,))) == 0
    for enc in (buying, selling):
        with pytest.raises(InvalidArgument):
            enc.action_id(Pass(0))
        with pytest.raises(InvalidArgument):
            enc.action_id(Bid(0, 0))
    with pytest.raises(InvalidArgument):
        selling.action_id(PlayAdvisor(0, 1))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_id_stands_for_one_command_of_each_seat_and_back(players: int) -> None:
    setups = [fresh(players, options).public_setup for options in (Options(), Options(True))]
    if players == 3:
        setups += [phase_two(p).public_setup for p in (Phase.HIRING, Phase.BUYING, Phase.SELLING)]
    for public in setups:
        enc = encoding(public)
        for seat in range(players):
            commands = [enc.command(a, seat) for a in range(enc.num_actions)]
            assert len(set(commands)) == enc.num_actions
            assert all(c.seat == seat for c in commands)
            assert [enc.action_id(c) for c in commands] == list(range(enc.num_actions))


def test_an_encoding_is_built_once_per_public_setup() -> None:
    game = fresh(3)
    assert encoding(game.public_setup) is encoding(fresh(3).public_setup)
    assert encoding(game.public_setup).public_setup == game.public_setup


# -- refusals ------------------------------------------------------------------------------------


def test_commands_no_state_accepts_have_no_id() -> None:
    enc = encoding(fresh(3).public_setup)
    never: list[object] = [
        Bid(0, 32),  # over the starting cash and every Consultant's 1 (F2, F7)
        Bid(0, -1),
        PlayAdvisor(0, 12, True),  # only a Fleet Manager is boosted (F10)
        PlayAdvisor(0, 31),
        Offer(0, ()),
        Offer(0, (2, 1)),  # two vehicles in ascending order (F14)
        Offer(0, (3, 3)),
        Offer(0, (1, 2, 3)),
        Offer(0, (31,)),
        TakeBack(0, 0),
        OfferWithLawyer(0, (1, 2), 19),  # no option lets a player name its Lawyer (F15)
        "Pass",
    ]
    for command in never:
        with pytest.raises(InvalidArgument) as error:
            enc.action_id(command)  # type: ignore[arg-type]
        assert "action id" in str(error.value) or "not a command" in str(error.value)


def test_bad_ids_and_seats_are_refused_with_the_range() -> None:
    enc = encoding(fresh(3).public_setup)
    with pytest.raises(InvalidArgument, match=r"action id 563 is out of range: .* 0 to 562"):
        enc.command(563, 0)
    with pytest.raises(InvalidArgument, match="action id -1 is out of range"):
        enc.command(-1, 0)
    with pytest.raises(InvalidArgument, match="there is no seat 3: the seats are 0 to 2"):
        enc.command(0, 3)
    with pytest.raises(InvalidArgument, match="there is no seat -1"):
        enc.command(0, -1)
    for odd in (True, 1.0, "1", None):
        with pytest.raises(InvalidArgument, match="an action id is a whole number"):
            enc.command(odd, 0)  # type: ignore[arg-type]
    assert enc.command(np.int64(6), 1) == Bid(1, 5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="PublicSetup"):
        encoding(fresh(3).setup)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="3 players"):
        enc.observation(fresh(4).view(0))


# -- observation and information state, by hand --------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_vectors_have_the_documented_pieces_and_sizes(players: int) -> None:
    enc = encoding(fresh(players).public_setup)
    assert enc.observation_size == check_pieces(enc.observation_pieces) == 225 + 89 * players
    assert enc.information_size == enc.observation_size + 139 * players
    assert enc.information_pieces[: len(enc.observation_pieces)] == enc.observation_pieces
    assert all(p.meaning for p in enc.information_pieces)


def test_f2_the_cash_slice_of_a_four_player_game_reads_a_quarter() -> None:
    game = fresh(4)
    enc = encoding(game.public_setup)
    own = enc.observation(game.view(0))
    assert piece(enc, own, "cash") == [0.25]  # 28 of the table's 112 (F2)
    assert piece(enc, own, "seat") == [1, 0, 0, 0]
    assert piece(enc, own, "phase") == [1, 0, 0, 0]
    assert piece(enc, own, "round") == [1 / 7]  # round 1 of at most 30 // 4
    assert piece(enc, own, "decks") == [24 / 30, 28 / 30, 28 / 30]  # 2 removed (F1), 4 dealt
    assert piece(enc, own, "removed") == [2 / 30] * 3
    table = piece(enc, own, "table_advisors")
    assert [a for a in range(1, 31) if table[a - 1]] == list(game.view(0).table)
    assert piece(enc, own, "advisor_counts") == [0.0] * 4
    spectator = enc.observation(game.view(None))
    assert piece(enc, spectator, "cash") == [0.0]
    assert piece(enc, spectator, "seat") == [0, 0, 0, 0]


def test_f4_seats_are_listed_from_the_viewer_clockwise() -> None:
    game = fresh(4).execute(Bid(0, 3))  # seat 0 starts (F3)
    enc = encoding(game.public_setup)
    mine = enc.observation(game.view(0))
    theirs = enc.observation(game.view(1))
    assert piece(enc, mine, "bids") == [3 / 112, 0, 0, 0]
    assert piece(enc, mine, "bidding") == [1, 0, 0, 0]
    assert piece(enc, theirs, "bids") == [0, 0, 0, 3 / 112]  # seat 0 is seat 1's last
    assert piece(enc, theirs, "turn") == [1, 0, 0, 0]  # seat 1 is to bid
    assert piece(enc, mine, "turn") == [0, 1, 0, 0]
    assert piece(enc, theirs, "start") == [0, 0, 0, 1]
    assert piece(enc, theirs, "seat") == [0, 1, 0, 0]


def consultant_game() -> Game:
    """A one-round game of three: an auction of a Sales Associate (2), a Consultant (5) and a
    General Manager (30), then vehicles 10, 20, 30 and checks 0, 5, 15."""
    return build(advisor_deck=(2, 5, 30), vehicle_deck=(10, 20, 30), check_deck=(0, 5, 15))


def test_f5_f7_the_information_state_tells_what_each_seat_paid_and_took() -> None:
    game = play(
        consultant_game(),
        Bid(ISAAC, 4),
        Bid(BECKY, 6),
        Pass(CHLOE),  # takes Sales Associate 2, all of nothing back (F5)
        Pass(ISAAC),  # takes Consultant 5, pays 2 of 4, gets 1 from Chloe (F5, F7)
    )  # Becky takes General Manager 30 and pays 6 (F6)
    enc = encoding(game.public_setup)
    info = enc.information_state(game.view(ISAAC), game.events_for(ISAAC))
    assert len(info) == enc.information_size
    assert piece(enc, info, "paid", info=True) == [2 / 84, 6 / 84, 0]
    assert piece(enc, info, "cash_change", info=True) == [-1 / 84, -6 / 84, -1 / 84]
    # A scenario's starting cash is hidden: only Isaac's own cash is known, from his view.
    assert piece(enc, info, "cash_known", info=True) == [1, 0, 0]
    assert piece(enc, info, "cash_seen", info=True) == [27 / 84, 0, 0]
    hired = piece(enc, info, "advisors_seen", info=True)
    assert [a for a in range(1, 31) if hired[a - 1]] == [5]
    assert [a for a in range(1, 31) if hired[30 + a - 1]] == [30]
    assert [a for a in range(1, 31) if hired[60 + a - 1]] == [2]
    # The view forgets who took what; the hand counts say only how many.
    obs = enc.observation(game.view(ISAAC))
    assert piece(enc, obs, "advisor_counts") == [1 / 10] * 3
    assert piece(enc, obs, "advisors")[5 - 1] == 1


def test_f11_f17_the_information_state_remembers_purchases_and_sales() -> None:
    game = play(
        consultant_game(),
        Bid(ISAAC, 4),
        Bid(BECKY, 6),
        Pass(CHLOE),
        Pass(ISAAC),
        PlayAdvisor(BECKY, 30),  # Becky took the last advisor, so she starts (F9)
        PlayAdvisor(CHLOE, 2),
        PlayAdvisor(ISAAC, 5),  # 30 takes vehicle 30, 5 takes 20, 2 takes 10 (F11)
        Offer(ISAAC, (20,)),
    )
    enc = encoding(game.public_setup)
    seen_by_chloe = enc.observation(game.view(CHLOE))
    assert piece(enc, seen_by_chloe, "offered") == [0, 1, 0]  # Chloe, Isaac, Becky
    assert piece(enc, seen_by_chloe, "offers") == [0.0] * 90  # face down (F14)
    seen_by_isaac = enc.observation(game.view(ISAAC))
    assert piece(enc, seen_by_isaac, "offers")[20 - 1] == 1
    assert piece(enc, seen_by_isaac, "table_checks") == [0.5, 0, 0, 0, 0.5] + [0] * 9 + [0.5]
    game = play(game, Offer(BECKY, (30,)), Offer(CHLOE, (10,)))  # 30: 15, 20: 5, 10: 0 (F17)
    assert game.is_over
    info = enc.information_state(game.view(ISAAC), game.events_for(ISAAC))
    sold = piece(enc, info, "sold_seen", info=True)
    assert [v for v in range(1, 31) if sold[30 + v - 1]] == [30]  # Becky's
    checks = piece(enc, info, "checks_seen", info=True)
    assert checks[15:30] == [0] * 14 + [0.5]  # one check of 15 for Becky
    assert checks[0:15] == [0] * 4 + [0.5] + [0] * 10  # one of 5 for Isaac
    played = piece(enc, info, "played_seen", info=True)
    assert [a for a in range(1, 31) if played[60 + a - 1]] == [2]  # Chloe's
    assert piece(enc, info, "vehicles_seen", info=True) == [0.0] * 90
    assert piece(enc, info, "advisors_seen", info=True) == [0.0] * 90
    assert piece(enc, enc.observation(game.view(ISAAC)), "phase") == [0, 0, 0, 1]


def test_f2_in_a_shuffled_game_every_seat_s_cash_is_known_from_the_stream() -> None:
    game = fresh(3)
    enc = encoding(game.public_setup)
    info = enc.information_state(game.view(None), game.events_for(None))
    assert piece(enc, info, "cash_known", info=True) == [1, 1, 1]
    assert piece(enc, info, "cash_seen", info=True) == [1 / 3] * 3  # 28 of 84 each


# -- properties over random games ----------------------------------------------------------------


def random_games(players: int, seed: int, choices: int, options: Options) -> list[Game]:
    """Every game along one random legal path, to the end."""
    stream = Stream(choices, 1)
    games = [new_game(NAMES[:players], seed=seed, first=seed % players, options=options)]
    while not games[-1].is_over:
        games.append(games[-1].execute(stream.choice(games[-1].legal_commands())))
    return games


def finite(vector: list[float]) -> bool:
    return all(math.isfinite(x) and -2 < x < 2 for x in vector)


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32), st.integers(0, 2**32), OPTIONS)
def test_legal_commands_round_trip_and_masks_mark_exactly_them(
    players: int, seed: int, choices: int, options: Options
) -> None:
    games = random_games(players, seed, choices, options)
    enc = encoding(games[0].public_setup)
    for game in games:
        legal = game.legal_commands()
        for command in legal:
            action = enc.action_id(command)
            assert 0 <= action < enc.num_actions
            assert enc.command(action, command.seat) == command
        for seat in game.waiting:
            mine = game.legal_commands(seat)
            mask = enc.mask(mine)
            assert len(mask) == enc.num_actions
            marked = [a for a, flag in enumerate(mask) if flag]
            assert marked == enc.legal_actions(mine)
            assert {enc.command(a, seat) for a in marked} == set(mine)
        seat = game.version % (players + 1)
        for who in (None if seat == players else seat, None):
            view = game.view(who)
            observation = enc.observation(view)
            information = enc.information_state(view, game.events_for(who))
            assert len(observation) == enc.observation_size
            assert len(information) == enc.information_size
            assert information[: enc.observation_size] == observation
            assert finite(information)


@settings(max_examples=12, deadline=None)
@given(
    st.integers(3, 6),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
    OPTIONS,
    st.randoms(use_true_random=False),
)
def test_a_twin_differing_in_hidden_facts_gets_the_same_vectors(
    players: int, seed: int, choices: int, options: Options, rng: random.Random
) -> None:
    """Deck order, removed cards (F1) and other seats' face-down offers (F14) changed."""
    games = random_games(players, seed, choices, options)
    enc = encoding(games[0].public_setup)
    for game in games[:: max(1, len(games) // 12)]:
        seat = rng.choice([None, *range(players)])
        other = twin(game, seat, rng)
        assert enc.observation(other.view(seat)) == enc.observation(game.view(seat))
        assert enc.information_state(
            other.view(seat), other.events_for(seat)
        ) == enc.information_state(game.view(seat), game.events_for(seat))


def test_twins_differing_in_a_hand_and_in_cash_look_the_same_to_the_others() -> None:
    """F2, F8: Becky's hand and Chloe's cash differ; Isaac and a spectator see no difference."""
    first, second = twins()
    enc = encoding(first.public_setup)
    assert encoding(second.public_setup) is enc
    later = (play(first, PlayAdvisor(ISAAC, 5)), play(second, PlayAdvisor(ISAAC, 5)))
    for a, b in ((first, second), later):
        for seat in (ISAAC, None):
            assert enc.observation(a.view(seat)) == enc.observation(b.view(seat))
            assert enc.information_state(a.view(seat), a.events_for(seat)) == (
                enc.information_state(b.view(seat), b.events_for(seat))
            )
        for seat in (BECKY, CHLOE):
            assert enc.observation(a.view(seat)) != enc.observation(b.view(seat))


@pytest.mark.parametrize("phase", [Phase.HIRING, Phase.BUYING, Phase.SELLING])
def test_games_from_a_scenario_number_every_legal_command(phase: Phase) -> None:
    """F4-F16 from a built position: the sections left out are never needed."""
    kept = ((7, 19, 20), (8,), ()) if phase is Phase.SELLING else ()
    for options in (Options(), Options(lawyer_choice=True)):
        for choices in range(5):
            stream = Stream(choices, 1)
            if phase is Phase.SELLING:
                game = build(
                    phase=phase,
                    check_deck=(0, 2, 3, 4, 5, 6),
                    vehicles=((1, 2), (3, 4), (5, 6)),
                    kept=kept,
                    options=options,
                )
            else:
                game = phase_two(phase)
            enc = encoding(game.public_setup)
            while not game.is_over:
                for seat in game.waiting:
                    mine = game.legal_commands(seat)
                    marked = [a for a, flag in enumerate(enc.mask(mine)) if flag]
                    assert [enc.command(a, seat) for a in marked] == sorted(mine, key=enc.action_id)
                game = game.execute(stream.choice(game.legal_commands()))
