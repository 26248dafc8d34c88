"""Rules A8-A14, A28 and A31: planning, driving order, moving, drawing and quitting."""

from __future__ import annotations

from typing import Any

import pytest

import avanti
from avanti import (
    DEFAULT_BOARD,
    Board,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CarMoved,
    DeckShuffled,
    Drive,
    DrivingBegan,
    IllegalCommand,
    InvalidSetup,
    Phase,
    Pile,
    PlayCard,
    PlayerQuit,
    Quit,
    QuitReason,
    Reason,
    RoundStarted,
    Space,
    TollPaid,
)
from avanti.avanti.positions import standings
from tests.avanti.support import drive_round, lay, new_events, of_type, scenario_game


def four_in_planning(**overrides: Any) -> avanti.Game:
    """Four players in round 2, marker on 0, cars at 5, 9, 2, 14, each holding two cards."""
    fields: dict[str, Any] = {
        "marker": 0,
        "distances": (5, 9, 2, 14),
        "hands": ((0, 9), (1, 10), (2, 11), (3, 12)),
        "round": 2,
    }
    fields.update(overrides)
    return scenario_game(4, **fields)


def test_a8_players_lay_cards_in_any_order_and_driving_waits_for_all() -> None:
    game = four_in_planning()
    game = game.execute(PlayCard(3, 3, 5))
    game = game.execute(PlayCard(1, 1, 6))
    assert game.state.phase is Phase.PLANNING
    assert game.view(0).has_laid == (False, True, False, True)
    game = game.execute(PlayCard(0, 0, 4))
    before = game
    game = game.execute(PlayCard(2, 11, 7))
    assert new_events(before, game) == (CardPlayed(2, 11, 7), DrivingBegan((2, 3, 0, 1)))
    assert game.state.phase is Phase.DRIVING


def test_a8_a_player_without_cards_quits_when_the_round_begins() -> None:
    """Seat 0 drives its last card with a red 4; at the next round it quits, out of cards."""
    game = four_in_planning(hands=((0,), (1, 10), (2, 11), (3, 12)))
    game = lay(game, (0, 4), (1, 1), (2, 2), (3, 5))
    before = game
    game = drive_round(game)
    events = new_events(before, game)
    start = events.index(RoundStarted(1, 3))
    assert events[start + 1] == PlayerQuit(0, QuitReason.OUT_OF_CARDS)
    assert game.state.quit == (True, False, False, False)
    assert all(cmd.seat != 0 for cmd in game.legal_commands())


def test_a9_on_your_turn_drive_or_quit() -> None:
    game = four_in_planning()
    game = lay(game, (0, 4), (1, 1), (2, 2), (3, 5))
    assert game.legal_commands() == (Drive(2), Quit(2))
    game = game.execute(Drive(2))
    assert game.legal_commands() == (Drive(3), Quit(3))


def test_a10_last_car_first_then_clockwise_skipping_quitters() -> None:
    """Cars at 5, 9, 2, 14 and seat 3 quit: seat 2 (last) acts, then 0 and 1; 3 is skipped."""
    game = four_in_planning(quit=(False, False, False, True), hands=((0, 9), (1, 10), (2, 11), ()))
    game = lay(game, (0, 4), (1, 1), (2, 2))
    assert game.state.order == (2, 0, 1)


def test_a10_a_quitters_car_is_not_the_last_car() -> None:
    """Seat 2's car is last but seat 2 has quit; seat 0 (next last) goes first."""
    game = four_in_planning(quit=(False, False, True, False), hands=((0, 9), (1, 10), (), (3, 12)))
    game = lay(game, (0, 4), (1, 1), (3, 5))
    assert game.state.order == (0, 1, 3)


def test_a10_order_is_fixed_when_driving_begins() -> None:
    """Seat 2 drives past everyone, but seat 3 still acts next as fixed."""
    game = four_in_planning()
    game = lay(game, (0, 4), (1, 1), (2, 7), (3, 5))
    assert game.state.order == (2, 3, 0, 1)
    game = game.execute(Drive(2))
    assert game.state.distances[2] == 16  # 2 + 7 = 9 is taken by seat 1: on to 16
    assert game.legal_commands()[0] == Drive(3)


def test_a11_leapfrog_repeats_until_free() -> None:
    """From 2 with a 3: 5 (seat 0), 8 (seat 1), 11 (seat 3) are taken, so it stops at 14."""
    game = four_in_planning(distances=(5, 8, 2, 11), hands=((0, 9), (1, 10), (18, 11), (3, 12)))
    game = lay(game, (0, 4), (1, 1), (2, 3), (3, 5))
    before = game
    game = game.execute(Drive(2))
    moved = of_type(new_events(before, game), CarMoved)[0]
    assert moved.hops == (5, 8, 11, 14)
    assert moved.bumped == (0, 1, 3)
    assert moved.start == 2


def test_a11_a_car_that_laps_bumps_into_cars_still_on_the_start_space() -> None:
    """Marker 0, seat 0 at 31 drives 3 onto the start space where the quitter waits: on to 37."""
    game = scenario_game(
        3,
        marker=0,
        distances=(31, 0, 10),
        hands=((), (), ()),
        quit=(False, True, False),
        laid=((18, 3), None, None),
        phase=Phase.DRIVING,
        round=4,
    )
    before = game
    game = game.execute(Drive(0))
    moved = of_type(new_events(before, game), CarMoved)[0]
    assert moved.hops == (34, 37)
    assert moved.bumped == (1,)


def test_a12_ties_on_the_start_space_follow_the_previous_run_order() -> None:
    """Nobody has moved: standings follow the previous ranking (2, 0, 1)."""
    game = scenario_game(
        3,
        marker=0,
        distances=(0, 0, 0),
        hands=((0,), (1,), (2,)),
        laid=((9, 2), None, None),
        ranking=(2, 0, 1),
        phase=Phase.DRIVING,
        to_act=(0,),
    )
    assert standings(game.state) == (2, 0, 1)
    game = game.execute(Drive(0))
    assert standings(game.state) == (0, 2, 1)


def test_a12_first_run_ties_are_clockwise_from_the_starting_player() -> None:
    game = avanti.new_game(("A", "B", "C", "D"), seed=0, starting_seat=2, start_space=0)
    assert game.state.ranking == (2, 3, 0, 1)


def test_a13_yellow_number_discards_and_draws_red_does_not() -> None:
    game = four_in_planning(draw=tuple(range(13, 27)), discard=(4, 5, 6, 7, 8))
    game = lay(game, (0, 4), (1, 1), (2, 2), (3, 5))  # seat 2: card 11 with a yellow 2
    before = game
    game = game.execute(Drive(2))
    events = new_events(before, game)
    laid_card = before.state.laid[2]
    assert laid_card is not None
    assert CardDiscarded(2, laid_card[0]) in events
    assert CardDrawn(2, 13) in events
    before = game
    game = game.execute(Drive(3))
    assert not of_type(new_events(before, game), CardDrawn)  # seat 3: card 3 with a red 5


def test_a13_empty_draw_pile_reshuffles_the_discard_pile_first() -> None:
    """Draw pile empty, discard pile (4, 5) plus the card just played: shuffle, then draw."""
    hands = ((0, 9), (1, 10), (2, 11), (3, 12))
    rest = tuple(c for c in range(27) if c not in {0, 9, 1, 10, 2, 11, 3, 12, 4, 5})
    game = four_in_planning(hands=hands, draw=(), discard=(4, 5, *rest))
    game = game.execute(PlayCard(2, 11, 2))
    game = lay(game, (0, 4), (1, 6), (3, 5))
    before = game
    game = game.execute(Drive(2))
    events = new_events(before, game)
    shuffle = of_type(events, DeckShuffled)[0]
    assert shuffle.pile is Pile.DISCARD
    assert shuffle.order is not None
    assert sorted(shuffle.order) == sorted((4, 5, *rest, 11))
    assert of_type(events, CardDrawn) == [CardDrawn(2, shuffle.order[0])]
    assert game.state.discard == ()
    assert game.state.draw == shuffle.order[1:]


def test_a13_the_card_just_played_is_discarded_before_the_draw() -> None:
    """A nine-card deck, both piles empty: the discard pile holds only the card just driven
    with, so it is shuffled into a one-card draw pile and drawn back (A13's order: discard, then
    draw). Since the played card is always discarded first, both piles are never empty at a draw.
    """
    deck = avanti.Deck(avanti.DEFAULT_DECK.cards[:9])
    scenario = avanti.Scenario(
        marker=0,
        distances=(3, 5, 8),
        hands=((0, 1), (2, 3), (4, 5)),
        draw=(),
        laid=((6, 1), (7, 5), (8, 6)),
        phase=avanti.Phase.DRIVING,
        round=2,
    )
    game = avanti.new_game(("A", "B", "C"), seed=0, deck=deck, scenario=scenario)
    before = game
    game = game.execute(Drive(0))
    events = new_events(before, game)
    assert events[1:] == (
        CardDiscarded(0, 6),
        DeckShuffled(Pile.DISCARD, 1, (6,)),
        CardDrawn(0, 6),
    )
    assert game.state.hands[0] == (0, 1, 6)


def test_a14_quitting_discards_the_laid_card_and_keeps_the_hand() -> None:
    game = four_in_planning()
    game = lay(game, (0, 4), (1, 1), (2, 2), (3, 5))
    before = game
    game = game.execute(Quit(2))
    assert new_events(before, game)[:2] == (
        PlayerQuit(2, QuitReason.VOLUNTARY),
        CardDiscarded(2, 11),
    )
    assert game.state.hands[2] == (2,)
    assert game.state.quit[2]
    assert game.state.distances[2] == 2


def test_a14_a_quitter_lays_no_more_cards_this_run() -> None:
    game = four_in_planning()
    game = lay(game, (0, 4), (1, 1), (2, 2), (3, 5))
    game = game.execute(Quit(2))
    game = drive_round(game)
    assert game.state.phase is Phase.PLANNING
    with pytest.raises(IllegalCommand) as error:
        game.execute(PlayCard(2, 2, 1))
    assert (error.value.reason, error.value.rule) == (Reason.HAS_QUIT, "A14")


def test_a14_a_quitters_car_still_blocks_its_space() -> None:
    """Seat 1 quit at 9; seat 2 drives 7 from 2 onto 9 and goes on to 16."""
    game = four_in_planning(quit=(False, True, False, False), hands=((0, 9), (), (2, 11), (3, 12)))
    game = lay(game, (0, 4), (2, 7), (3, 5))
    before = game
    game = game.execute(Drive(2))
    assert of_type(new_events(before, game), CarMoved)[0].bumped == (1,)


def test_a28_first_round_of_a_run_starting_player_first() -> None:
    game = avanti.new_game(("A", "B", "C", "D"), 3, starting_seat=2, start_space=0)
    hands = game.state.hands
    for seat in (3, 0, 1, 2):
        card = hands[seat][0]
        game = game.execute(PlayCard(seat, card, avanti.DEFAULT_DECK.cards[card].numbers[0]))
    assert game.state.order == (2, 3, 0, 1)


def test_a31_a_command_names_its_seat_and_the_seat_must_be_the_one_to_move() -> None:
    game = four_in_planning()
    game = lay(game, (0, 4), (1, 1), (2, 2), (3, 5))
    with pytest.raises(IllegalCommand) as error:
        game.execute(Drive(0))
    assert (error.value.reason, error.value.rule) == (Reason.NOT_YOUR_TURN, "A10")
    with pytest.raises(IllegalCommand) as error:
        game.execute(Drive(7))
    assert (error.value.reason, error.value.rule) == (Reason.NO_SUCH_SEAT, "A1")


def test_a14_a_quitter_still_pays_and_may_lead_and_collect() -> None:
    """Marker 0. Seat 0 quit in front at 20; seat 3 quit at 5 (toll 500). Seat 1 drives 2 from 4
    to 6 (toll 1,000); seat 2 stands on 11 (toll 400). The quitter in front collects all three."""
    game = scenario_game(
        4,
        marker=0,
        distances=(20, 4, 11, 5),
        hands=((0,), (1,), (2,), (3,)),
        quit=(True, False, False, True),
        laid=(None, (9, 2), None, None),
        phase=Phase.DRIVING,
        round=3,
    )
    before = game
    game = game.execute(Drive(1))
    paid = [(t.payer, t.payee, t.amount) for t in of_type(new_events(before, game), TollPaid)]
    assert paid == [(1, 0, 1000), (2, 0, 400), (3, 0, 500)]
    assert game.state.cash == (6900, 4000, 4600, 4500)


def test_a11_a_road_where_leapfrogging_could_never_end_is_refused() -> None:
    """On an 8-space road a move of 4 reaches only 2 spaces (0 and 4 from any start)."""
    small = Board(tuple(Space.toll(100) for _ in range(8)), DEFAULT_BOARD.island, 3)
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(["Ann", "Bob", "Cy"], board=small)
    assert error.value.rule == "A11"
    assert "a move of 4 reaches only 2 spaces" in str(error.value)
    # 9 spaces: every move 1-7 reaches 9 or 3 spaces (for 3 and 6), enough for three cars.
    nine = Board(tuple(Space.toll(100) for _ in range(9)), DEFAULT_BOARD.island, 3)
    assert avanti.new_game(["Ann", "Bob", "Cy"], board=nine).state.players == 3
    with pytest.raises(InvalidSetup):
        avanti.new_game(["Ann", "Bob", "Cy", "Dee"], board=nine)
