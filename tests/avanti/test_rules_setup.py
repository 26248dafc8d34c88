"""Rules A1-A7 and A29: players, money, cards, road, island, the deal and the event marker."""

from __future__ import annotations

import pytest

import avanti
from avanti import (
    DEFAULT_DECK,
    CardsDealt,
    DeckShuffled,
    EventMarkerPlaced,
    InvalidSetup,
    Phase,
    PlaceEventMarker,
    PlayCard,
    RunStarted,
)
from tests.avanti.support import NAMES, drive_round, lay, scenario_game


def test_a1_three_to_five_players_in_numbered_seats() -> None:
    for n in (3, 4, 5):
        game = avanti.new_game(NAMES[:n])
        assert game.state.players == n
        assert len(game.state.cash) == n
    for bad in (NAMES[:2], (*NAMES, "Zoe")):
        with pytest.raises(InvalidSetup) as error:
            avanti.new_game(bad)
        assert error.value.rule == "A1"


def test_a1_players_need_names() -> None:
    with pytest.raises(InvalidSetup, match="name"):
        avanti.new_game(["Ann", "", "Cy"])


def test_a1_player_names_must_differ_exactly() -> None:
    with pytest.raises(InvalidSetup, match="names must differ") as error:
        avanti.new_game(["Ann", "Bob", "Ann"])
    assert error.value.rule == "A1"
    assert avanti.new_game(["Ann", "ann", "Bob"]).setup.players == ("Ann", "ann", "Bob")
    text = avanti.new_game(["Ann", "Bob", "Cy"]).dumps().replace('"Cy"', '"Ann"', 1)
    with pytest.raises(avanti.DecodeError, match="A1: player names must differ"):
        avanti.loads(text)  # a document read back is checked as new_game checks


def test_a2_everyone_starts_with_5000() -> None:
    game = avanti.new_game(NAMES[:4], seed=0)
    assert game.state.cash == (5000, 5000, 5000, 5000)


def test_a3_a_card_is_played_with_one_of_its_three_numbers() -> None:
    game = avanti.new_game(NAMES[:3], 2, start_space=0)
    card = game.state.hands[0][0]
    numbers = DEFAULT_DECK.cards[card].numbers
    played = {
        cmd.number
        for cmd in game.legal_commands()
        if isinstance(cmd, PlayCard) and (cmd.seat, cmd.card) == (0, card)
    }
    assert played == set(numbers)
    missing = next(n for n in range(1, 8) if n not in numbers)
    with pytest.raises(avanti.IllegalCommand) as error:
        game.execute(PlayCard(0, card, missing))
    assert error.value.reason is avanti.Reason.NUMBER_NOT_ON_CARD
    assert error.value.rule == "A3"


def test_a4_the_road_is_a_loop_a_car_past_the_marker_keeps_counting() -> None:
    """Marker on 30; a car at distance 2 drives 4 to distance 6, road space (30 + 6) % 34 = 2."""
    game = scenario_game(
        3,
        marker=30,
        distances=(2, 0, 0),
        hands=((9,), (10,), (11,)),
        laid=((18, 4), None, None),
        quit=(False, True, True),
        phase=Phase.DRIVING,
        round=2,
    )
    game = drive_round(game)
    assert game.state.distances[0] == 6
    assert game.state.road_space(0) == 2
    assert game.view(None).road_spaces == (2, 30, 30)


def test_a4_cars_share_the_start_space_until_they_leave_it() -> None:
    game = avanti.new_game(NAMES[:5], 3, start_space=7)
    assert game.view(None).road_spaces == (7, 7, 7, 7, 7)


def test_a5_island_path_with_dream_island() -> None:
    game = avanti.new_game(NAMES[:3], seed=0)
    assert game.state.island == (0, 0, 0)
    assert game.state.table.island_length == 12
    assert game.state.table.dream_island_start == 10


def test_a6_shuffle_and_deal_three_each_rest_is_the_draw_pile() -> None:
    game = avanti.new_game(NAMES[:4], 11)
    shuffle = game.events[1]
    assert isinstance(shuffle, DeckShuffled)
    assert shuffle.order is not None
    assert sorted(shuffle.order) == list(range(27))
    dealt = [e for e in game.events if isinstance(e, CardsDealt)]
    assert [e.seat for e in dealt] == [0, 1, 2, 3]
    assert [e.cards for e in dealt] == [shuffle.order[3 * i : 3 * i + 3] for i in range(4)]
    assert game.state.draw == shuffle.order[12:]
    assert game.state.discard == ()
    assert len(game.state.draw) == 15


def test_a6_a_deck_too_small_to_deal_is_refused() -> None:
    small = avanti.Deck(DEFAULT_DECK.cards[:8])
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(NAMES[:3], deck=small)
    assert error.value.rule == "A6"


def test_a7_starting_player_places_the_marker_and_every_car_starts_there() -> None:
    game = avanti.new_game(NAMES[:3], 5, starting_seat=2)
    assert isinstance(game.events[0], RunStarted)
    assert game.state.phase is Phase.MARKER
    assert set(game.legal_commands()) == {PlaceEventMarker(2, s) for s in range(34)}
    game = game.execute(PlaceEventMarker(2, 12))
    assert game.events[-1] == EventMarkerPlaced(2, 12)
    assert game.state.phase is Phase.PLANNING
    assert game.view(0).road_spaces == (12, 12, 12)
    assert game.view(0).marker == 12


def test_a7_setup_may_name_the_start_space_and_skip_the_command() -> None:
    game = avanti.new_game(NAMES[:3], 5, start_space=12)
    assert game.events[-1] == EventMarkerPlaced(None, 12)
    assert game.state.phase is Phase.PLANNING
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(NAMES[:3], start_space=34)
    assert error.value.rule == "A7"
    with pytest.raises(InvalidSetup):
        avanti.new_game(NAMES[:3], starting_seat=3)


def test_a29_the_seed_is_a_whole_number() -> None:
    """The core checks the setup's form before the rules see it, naming the field by its path
    and the type found, never the value; the record's setup rule is A1."""
    with pytest.raises(InvalidSetup) as error:
        avanti.new_game(NAMES[:3], "7")  # type: ignore[arg-type]  # a str on purpose
    assert error.value.rule == "A1"
    assert str(error.value).startswith("A1: setup.seed must be")
    assert str(error.value).endswith("not str")
    with pytest.raises(InvalidSetup, match=r"setup\.seed"):
        avanti.new_game(NAMES[:3], True)  # a bool is no seed, as in JSON


def test_a29_same_seed_same_log_other_seed_other_deal() -> None:
    one = avanti.new_game(NAMES[:5], 42, start_space=0)
    two = avanti.new_game(NAMES[:5], 42, start_space=0)
    other = avanti.new_game(NAMES[:5], 43, start_space=0)
    assert one == two
    assert one.state.hands != other.state.hands


def test_a29_a_log_replays_without_the_generator() -> None:
    """Each shuffle's order is in its event: folding the log alone rebuilds the hands."""
    game = avanti.new_game(NAMES[:3], 9, start_space=0)
    game = lay(
        game, (0, game_number(game, 0)), (1, game_number(game, 1)), (2, game_number(game, 2))
    )
    game = drive_round(game)
    again = avanti.replay(game.setup, game.events, verify=False)
    assert again.state == game.state
    assert game.state.rng.draws == sum(isinstance(e, DeckShuffled) for e in game.events)


def game_number(game: avanti.Game, seat: int) -> int:
    """The first number on the seat's first card."""
    return DEFAULT_DECK.cards[game.state.hands[seat][0]].numbers[0]
