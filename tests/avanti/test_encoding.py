"""Avanti's encoding for agents: action ids, masks, observations and information states.

Properties over random games (3 to 5 players, random boards, options and start spaces, and
games restarted from a scenario of a random position): every legal command has an id in range
that maps back to it, every id maps to a command that maps back to it, the mask of a seat's
legal commands marks exactly their ids, and the vectors have their documented sizes and finite
values. A twin game that differs only in facts hidden from a seat (A30) gives that seat the same
numbers. Unit tests check the documented layout and slices on positions worked out by hand.
"""

from __future__ import annotations

import math
import random
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import avanti
from avanti import (
    DEFAULT_BOARD,
    DEFAULT_DECK,
    AvantiEncoding,
    Drive,
    InvalidSetup,
    Invest,
    Phase,
    PlaceEventMarker,
    PlayCard,
    Quit,
)
from avanti.avanti.encoding import RUN_SCALE, longest_purchase
from avanti.core.encoding import check_pieces
from avanti.core.errors import InvalidArgument
from tests.avanti.support import NAMES, drive_round, hands_for, lay, scenario_game
from tests.hardening.games_avanti import AVANTI, twin
from tests.hardening.spec import AnyGame, histories
from tests.hardening.test_scenarios import scenario_of

# -- helpers -------------------------------------------------------------------------------------


def piece(encoding: AvantiEncoding, vector: list[float], name: str) -> list[float]:
    """The slice of ``vector`` that the piece ``name`` covers."""
    for part in encoding.information_pieces:
        if part.name == name:
            return vector[part.start : part.stop]
    raise AssertionError(f"no piece {name!r}")


def encoding_of(game: AnyGame) -> AvantiEncoding:
    """The encoding of ``game``'s public setup."""
    setup = game.public_setup
    assert isinstance(setup, avanti.PublicSetup)
    return avanti.encoding(setup)


def restarted(game: AnyGame) -> AnyGame | None:
    """A game started from a scenario of ``game``'s position (no marker step), or ``None``
    where no scenario describes it."""
    scenario = scenario_of(game.state)
    if scenario is None:
        return None
    try:
        started: AnyGame = avanti.new_game(
            game.setup.players,
            seed=1,
            starting_seat=game.state.starting_seat,
            board=game.setup.board,
            deck=game.setup.deck,
            options=game.setup.options,
            scenario=scenario,
        )
    except InvalidSetup:  # a position the scenario checks refuse (none seen so far)
        return None
    return started


def check_every_id(encoding: AvantiEncoding) -> None:
    """Every id of every seat maps to a command whose id it is."""
    for seat in range(encoding.players):
        commands = [encoding.command(a, seat) for a in range(encoding.num_actions)]
        assert [encoding.action_id(c) for c in commands] == list(range(encoding.num_actions))
        assert {c.seat for c in commands} == {seat}


def check_position(encoding: AvantiEncoding, game: AnyGame) -> None:
    """The contract on one position of ``game``."""
    legal = game.legal_commands()
    for command in legal:
        action = encoding.action_id(command)
        assert 0 <= action < encoding.num_actions
        assert encoding.command(action, command.seat) == command
    waiting: tuple[int, ...] = game.waiting
    for seat in waiting:
        mine = game.legal_commands(seat)
        ids = {encoding.action_id(c) for c in mine}
        assert len(ids) == len(mine)  # no two commands of a seat share an id
        mask = encoding.mask(mine)
        assert len(mask) == encoding.num_actions
        assert {a for a, flag in enumerate(mask) if flag} == ids
        assert encoding.legal_actions(mine) == sorted(ids)
    for seat in (None, *range(encoding.players)):
        view = game.view(seat)
        observation = encoding.observation(view)
        information = encoding.information_state(view, game.events_for(seat))
        assert len(observation) == encoding.observation_size
        assert len(information) == encoding.information_size
        assert information[: encoding.observation_size] == observation
        assert all(math.isfinite(x) and x >= 0 for x in information)
        assert sum(piece(encoding, observation, "phase")) == 1
        assert sum(piece(encoding, observation, "seat")) == (seat is not None)


# -- properties over random games ----------------------------------------------------------------


@settings(max_examples=25)
@given(data=st.data())
def test_ids_round_trip_and_masks_are_the_legal_commands(data: st.DataObject) -> None:
    history = data.draw(histories(AVANTI, most=120), label="game")
    encoding = encoding_of(history[0])
    check_every_id(encoding)
    assert encoding.marker_step == (history[0].setup.start_space is None)
    for game in history:
        check_position(encoding, game)
    again = restarted(history[data.draw(st.integers(0, len(history) - 1), label="restart at")])
    if again is not None:
        encoding = encoding_of(again)
        assert not encoding.marker_step
        check_every_id(encoding)
        for _ in range(30):
            check_position(encoding, again)
            legal = again.legal_commands()
            if not legal:
                break
            again = again.execute(legal[data.draw(st.integers(0, len(legal) - 1))])


@settings(max_examples=25)
@given(data=st.data())
def test_a30_a_twin_differing_in_hidden_facts_encodes_the_same(data: st.DataObject) -> None:
    """Hands, laid cards and numbers, and the draw pile's order hidden from the seat differ;
    its observation, information state and mask do not."""
    rng = data.draw(st.randoms(use_true_random=True), label="twin choices")
    history = data.draw(histories(AVANTI, most=120), label="game")
    encoding = encoding_of(history[0])
    for game in history[:: max(1, len(history) // 12)]:
        seat = data.draw(st.none() | st.integers(0, encoding.players - 1), label="seat")
        other = twin(game, seat, rng)
        view, twin_view = game.view(seat), other.view(seat)
        assert encoding.observation(twin_view) == encoding.observation(view)
        assert encoding.information_state(
            twin_view, other.events_for(seat)
        ) == encoding.information_state(view, game.events_for(seat))
        if seat is not None:
            assert encoding.mask(other.legal_commands(seat)) == encoding.mask(
                game.legal_commands(seat)
            )


def test_a30_the_twins_really_differ_in_what_they_hide() -> None:
    """The twin builder changes another seat's hand, so the twin test above can fail."""
    game = avanti.new_game(NAMES[:3], 5, start_space=0)
    other = twin(game, 0, random.Random(1))
    assert other.state.hands[0] == game.state.hands[0]
    assert other.state.hands[1:] != game.state.hands[1:]


# -- the documented layout, by hand --------------------------------------------------------------


def default_encoding(players: int = 3, **setup: Any) -> AvantiEncoding:
    return avanti.encoding(avanti.new_game(NAMES[:players], 7, **setup).public_setup)


def test_the_default_layout() -> None:
    """81 plays (27 cards x 3 numbers), Drive, Quit, Invest of 0-8 steps, 34 marker spaces."""
    encoding = default_encoding()
    assert DEFAULT_DECK.cards[4].numbers == (1, 5, 7)
    assert DEFAULT_DECK.cards[26].numbers == (3, 6, 7)
    assert encoding.num_actions == 81 + 2 + 9 + 34 == 126
    assert encoding.action_id(PlayCard(1, 0, 1)) == 0
    assert encoding.action_id(PlayCard(1, 4, 1)) == 12
    assert encoding.action_id(PlayCard(1, 4, 5)) == 13
    assert encoding.action_id(PlayCard(1, 4, 7)) == 14
    assert encoding.action_id(PlayCard(2, 26, 7)) == 80
    assert encoding.action_id(Drive(0)) == 81
    assert encoding.action_id(Quit(2)) == 82
    assert encoding.action_id(Invest(1, 0)) == 83
    assert encoding.action_id(Invest(1, 8)) == 91
    assert encoding.action_id(PlaceEventMarker(0, 0)) == 92
    assert encoding.action_id(PlaceEventMarker(0, 33)) == 125
    assert encoding.command(13, 2) == PlayCard(2, 4, 5)
    assert encoding.command(88, 0) == Invest(0, 5)
    assert encoding.command(100, 1) == PlaceEventMarker(1, 8)
    assert (encoding.drive_id, encoding.quit_id, encoding.invest_id) == (81, 82, 83)
    assert encoding.marker_id == 92


def test_a7_without_the_marker_step_the_marker_ids_are_dropped() -> None:
    """A named start space (A7) or a scenario places the marker: 92 ids, the others unmoved."""
    named = default_encoding(start_space=5)
    from_scenario = avanti.encoding(
        scenario_game(
            3, marker=0, distances=(0, 0, 0), hands=hands_for((1,), (2,), (3,))
        ).public_setup
    )
    for encoding in (named, from_scenario):
        assert encoding.num_actions == 92
        assert encoding.marker_id is None
        assert encoding.action_id(Invest(0, 8)) == 91
        with pytest.raises(InvalidArgument, match=r"places the event marker itself.*A7"):
            encoding.action_id(PlaceEventMarker(0, 3))


def test_a22_eight_steps_is_the_most_one_purchase_buys_and_it_can_be_legal() -> None:
    """Island spaces 1-8 cost 1,000 + 2,000 + 2,000 + 3,000 + 3,000 + 4,000 + 4,000 + 5,000 =
    24,000; space 9 is unpriced, so a purchase never goes further (A22)."""
    assert longest_purchase(DEFAULT_BOARD) == 8
    game = scenario_game(
        3,
        marker=0,
        distances=(0, 1, 2),
        hands=((), (), ()),
        cash=(24_000, 23_999, 0),
        phase=Phase.INVESTING,
    )
    encoding = avanti.encoding(game.public_setup)
    assert Invest(0, 8) in game.legal_commands(0)
    assert encoding.mask(game.legal_commands(0))[83:92] == [True] * 9
    assert encoding.mask(game.legal_commands(1))[83:92] == [True] * 8 + [False]
    assert encoding.legal_actions(game.legal_commands(2)) == [83]
    with pytest.raises(InvalidArgument, match=r"0 to 8 steps.*A22"):
        encoding.action_id(Invest(0, 9))


def test_a22_a24_purchases_on_a_custom_island() -> None:
    """A priced dream island may be bought into (A24), but nobody stands on it to buy more."""
    # Dream island 3-6 (depth 4): from space 2 the next space is unpriced; the priced row 4-6
    # starts on the dream island, where the game is already over.
    board = avanti.Board(DEFAULT_BOARD.track, (None, 100, 200, None, 100, 100, 100), 4)
    assert longest_purchase(board) == 2
    # Dream island 5-6 (depth 2), priced: from space 3, three steps reach space 6.
    board = avanti.Board(DEFAULT_BOARD.track, (None, 100, 200, None, 300, 400, 500), 2)
    assert longest_purchase(board) == 3
    encoding = avanti.encoding(avanti.new_game(NAMES[:4], 1, board=board).public_setup)
    assert encoding.num_actions == 81 + 2 + 4 + 34
    # No priced space at all: passing is the only purchase.
    bare = avanti.Board(DEFAULT_BOARD.track, (None, None, None), 1)
    assert longest_purchase(bare) == 0


def test_a3_a_number_printed_twice_on_a_card_has_one_id() -> None:
    cards = (avanti.PowerCard(0, (4, 4, 5)), *DEFAULT_DECK.cards[1:])
    deck = avanti.Deck(cards)
    encoding = avanti.encoding(avanti.new_game(NAMES[:3], 1, deck=deck).public_setup)
    assert encoding.plays[:3] == ((0, 4), (0, 5), (1, 1))
    assert encoding.num_actions == 80 + 2 + 9 + 34
    assert encoding.action_id(PlayCard(0, 1, 1)) == 2


def test_an_encoding_is_shared_by_equal_setups_and_depends_on_no_name_or_seed() -> None:
    one = avanti.new_game(["Ann", "Bob", "Cy"], seed=1)
    two = avanti.new_game(["Dee", "Eve", "Fay"], seed=2)
    assert avanti.encoding(one.public_setup) is avanti.encoding(two.public_setup)
    assert avanti.encoding(one.public_setup) != default_encoding(4)


# -- the observation and the information state, by hand ------------------------------------------


def test_the_pieces_tile_the_vectors_with_a_meaning_each() -> None:
    encoding = default_encoding(3)
    n, length, spaces, cards, plays = 3, 34, 13, 27, 81
    assert check_pieces(encoding.observation_pieces) == encoding.observation_size
    assert encoding.observation_size == (
        n * 14 + 5 + 1 + 1 + length + n * length + 1 + n * spaces + 1 + 2 * cards + plays
    )
    assert encoding.observation_size == 361
    assert encoding.information_pieces[: len(encoding.observation_pieces)] == (
        encoding.observation_pieces
    )
    assert encoding.information_size == 361 + cards + n * 7 + 4 * n == 421
    assert all(len(p.meaning) > 20 for p in encoding.information_pieces)


def test_the_cash_slice_is_a_share_of_all_the_cash_in_play() -> None:
    """Four players with 5,000 each: 0.25 each (A2); then 1,000, 3,000, 0 and 4,000."""
    game = avanti.new_game(NAMES[:4], 3)
    encoding = avanti.encoding(game.public_setup)
    observation = encoding.observation(game.view(0))
    assert piece(encoding, observation, "cash") == [0.25] * 4
    assert piece(encoding, observation, "money") == [1.0]
    hands = hands_for((1,), (2,), (3,), (4,))
    game = scenario_game(4, marker=0, distances=(0,) * 4, hands=hands, cash=(1000, 3000, 0, 4000))
    observation = avanti.encoding(game.public_setup).observation(game.view(None))
    assert piece(encoding, observation, "cash") == [0.125, 0.375, 0.0, 0.5]
    assert piece(encoding, observation, "money") == [0.4]
    game = scenario_game(4, marker=0, distances=(0,) * 4, hands=hands, cash=(0, 0, 0, 0))
    observation = avanti.encoding(game.public_setup).observation(game.view(None))
    assert piece(encoding, observation, "cash") + piece(encoding, observation, "money") == [0] * 5


def test_a_fresh_game_before_the_marker_is_placed() -> None:
    """Seat 0 starts (A7): the game waits for it to place the marker; no car is on the road."""
    game = avanti.new_game(NAMES[:3], 7)
    encoding = avanti.encoding(game.public_setup)
    observation = encoding.observation(game.view(1))
    assert piece(encoding, observation, "seat") == [0, 1, 0]
    assert piece(encoding, observation, "phase") == [1, 0, 0, 0, 0]
    assert piece(encoding, observation, "waiting") == [1, 0, 0]
    assert piece(encoding, observation, "starting_seat") == [1, 0, 0]
    assert piece(encoding, observation, "run") == piece(encoding, observation, "round")
    assert piece(encoding, observation, "run") == [1 / RUN_SCALE]
    assert sum(piece(encoding, observation, "marker") + piece(encoding, observation, "road")) == 0
    assert piece(encoding, observation, "hand_sizes") == [1.0, 1.0, 1.0]
    assert piece(encoding, observation, "draw_size") == [18 / 27]
    assert piece(encoding, observation, "ranking") == [0.0, 0.5, 1.0]
    hand = piece(encoding, observation, "hand")
    assert [card for card, flag in enumerate(hand) if flag] == sorted(game.state.hands[1])
    assert encoding.legal_actions(game.legal_commands(0)) == list(range(92, 126))


def test_a_round_driven_by_hand() -> None:
    """Marker on space 0; seats lay 1, 2 and 4 and drive in seat order (A28) to spaces 1, 2
    and 4. Seat 2 leads and collects 200 (space 1) and 300 (space 2) (A15); seats 0 and 1 drew
    cards 8 and 10 (A13)."""
    hands = hands_for((1, 5, 6), (2, 5, 6), (4, 5, 6))
    game = scenario_game(3, marker=0, distances=(0, 0, 0), hands=hands)
    encoding = avanti.encoding(game.public_setup)
    assert game.state.hands == ((0, 3, 1), (9, 4, 5), (2, 6, 7))
    game = lay(game, (0, 1), (1, 2))
    observation = encoding.observation(game.view(1))
    assert piece(encoding, observation, "has_laid") == [1, 1, 0]
    assert piece(encoding, observation, "waiting") == [0, 0, 1]
    laid = piece(encoding, observation, "laid")
    assert [a for a, flag in enumerate(laid) if flag] == [27]  # card 9 for 2: id 3 x 9 + 0
    assert encoding.observation(game.view(0))[:3] == [1, 0, 0]
    assert sum(piece(encoding, encoding.observation(game.view(None)), "laid")) == 0
    game = lay(game, (2, 4))
    assert piece(encoding, encoding.observation(game.view(0)), "order") == [1 / 3, 2 / 3, 1.0]
    game = drive_round(game)
    assert game.state.cash == (4800, 4700, 5500)
    assert game.state.hands == ((3, 1, 8), (4, 5, 10), (6, 7))
    view = game.view(0)
    information = encoding.information_state(view, game.events_for(0))
    assert piece(encoding, information, "phase") == [0, 1, 0, 0, 0]
    assert piece(encoding, information, "round") == [2 / RUN_SCALE]
    assert piece(encoding, information, "marker")[0] == 1
    assert piece(encoding, information, "distance") == [1 / 34, 2 / 34, 4 / 34]
    road = piece(encoding, information, "road")
    assert [i for i, flag in enumerate(road) if flag] == [1, 34 + 2, 68 + 4]
    assert piece(encoding, information, "toll") == [0.2, 0.3, 0.4]  # dearest toll 1,000
    assert piece(encoding, information, "cash") == [4800 / 15000, 4700 / 15000, 5500 / 15000]
    assert piece(encoding, information, "hand_sizes") == [1, 1, 2 / 3]
    discard = piece(encoding, information, "discard")
    assert [card for card, flag in enumerate(discard) if flag] == [0, 2, 9]
    hand = piece(encoding, information, "hand")
    assert [card for card, flag in enumerate(hand) if flag] == [1, 3, 8]
    assert piece(encoding, information, "shown") == discard
    driven = piece(encoding, information, "driven")  # once each in the 2 rounds so far
    assert {i: x for i, x in enumerate(driven) if x} == {0: 0.5, 7 + 1: 0.5, 14 + 3: 0.5}
    assert piece(encoding, information, "tolls_paid") == [200 / 15000, 300 / 15000, 0]
    assert piece(encoding, information, "tolls_received") == [0, 0, 500 / 15000]
    assert piece(encoding, information, "bank_paid") == [0, 0, 0]
    # A spectator's information state reads the same public history.
    spectator = encoding.information_state(game.view(None), game.events_for(None))
    assert spectator[encoding.observation_size :] == information[encoding.observation_size :]


def test_a13_shown_remembers_cards_shuffled_back_into_the_draw_pile() -> None:
    """An empty draw pile under a discard pile of 21 cards: seat 0 drives card 0 for 1, and to
    draw (A13) the 22 cards of the discard pile are shuffled into a new draw pile. The view's
    discard pile is then empty; the information state still shows card 0, driven this run."""
    hands = ((0, 1), (9, 10), (18, 19))
    rest = tuple(card for card in range(27) if card not in {0, 1, 9, 10, 18, 19})
    game = scenario_game(3, marker=0, distances=(0, 0, 0), hands=hands, draw=(), discard=rest)
    encoding = avanti.encoding(game.public_setup)
    before = encoding.observation(game.view(1))
    assert sum(piece(encoding, before, "discard")) == 21
    game = lay(game, (0, 1), (1, 5), (2, 6))
    game = game.execute(Drive(0))
    view = game.view(1)
    assert (view.discard, view.draw_size) == ((), 21)
    information = encoding.information_state(view, game.events_for(1))
    assert sum(piece(encoding, information, "discard")) == 0
    assert piece(encoding, information, "draw_size") == [21 / 27]
    shown = piece(encoding, information, "shown")
    assert [card for card, flag in enumerate(shown) if flag] == [0]


# -- bad input -----------------------------------------------------------------------------------


def test_bad_ids_and_seats_are_refused_by_name() -> None:
    encoding = default_encoding(3)
    with pytest.raises(InvalidArgument, match="no action id 126: the ids are 0 to 125"):
        encoding.command(126, 0)
    with pytest.raises(InvalidArgument, match="no action id -1"):
        encoding.command(-1, 0)
    with pytest.raises(InvalidArgument, match="no seat 3: the seats are 0 to 2"):
        encoding.command(0, 3)
    with pytest.raises(InvalidArgument, match="an action id is an int, not the bool True"):
        encoding.command(True, 0)
    with pytest.raises(InvalidArgument, match="a seat is an int, not str"):
        encoding.command(0, "1")  # type: ignore[arg-type]  # on purpose
    assert encoding.command(np.int64(81), np.int64(1)) == Drive(1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (PlayCard(0, 4, 2), r"card 4 prints \[1, 5, 7\], not 2 \(A3\)"),
        (PlayCard(0, 27, 1), r"no card 27; the card ids are 0 to 26 \(A3\)"),
        (PlayCard(3, 4, 5), r"no seat 3; the seats are 0 to 2 \(A1\)"),
        (Drive(-1), r"no seat -1"),
        (Invest(1, 9), r"0 to 8 steps on this board \(A22"),
        (Invest(1, -1), r"0 to 8 steps"),
        (PlaceEventMarker(0, 34), r"road spaces are 0 to 33 \(A4, A7\)"),
        ("play 4 for 5", r"'play 4 for 5' is not an Avanti command"),
        ([1, 2], r"not an Avanti command"),
    ],
)
def test_a_command_no_game_could_accept_has_no_id(command: Any, words: str) -> None:
    with pytest.raises(InvalidArgument, match=words):
        default_encoding(3).action_id(command)


def test_an_encoding_takes_the_public_setup_and_views_of_its_table() -> None:
    game = avanti.new_game(NAMES[:3], 7)
    with pytest.raises(InvalidArgument, match="not the setup: the setup holds the seed"):
        avanti.encoding(game.setup)  # type: ignore[arg-type]  # on purpose
    with pytest.raises(InvalidArgument, match=r"needs an avanti\.PublicSetup, not str"):
        avanti.encoding("avanti")  # type: ignore[arg-type]  # on purpose
    two = attrs.evolve(game.public_setup, players=("Ann", "Bob"))
    with pytest.raises(InvalidArgument, match=r"Avanti takes 3 to 5 players, not 2 \(A1\)"):
        avanti.encoding(two)
    bigger = avanti.new_game(NAMES[:4], 7)
    with pytest.raises(InvalidArgument, match="for 3 seats; the view shows 4"):
        avanti.encoding(game.public_setup).observation(bigger.view(0))
