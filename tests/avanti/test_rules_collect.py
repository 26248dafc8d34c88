"""Rules A15-A27: collecting, procuring money, the end of a run, standings, ATMs, investing and
the next run. Positions are on the default board; the docstrings give the spaces and tolls."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import avanti
from avanti import (
    DEFAULT_BOARD,
    AtmWithdrawn,
    BankPaid,
    BankPayment,
    CardsDealt,
    DeckShuffled,
    Drive,
    EventMarkerPlaced,
    FigureAdvanced,
    FigureRetreated,
    GameEnded,
    IllegalCommand,
    Invest,
    Invested,
    Phase,
    Pile,
    Reason,
    RoundStarted,
    RuleOptions,
    RunEnded,
    RunStarted,
    TollPaid,
)
from avanti.avanti.positions import atm_owners, standings
from avanti.avanti.state import table_for
from tests.avanti.support import (
    ISABELLA,
    JACK,
    NAMES,
    STEVE,
    TINA,
    WILLIAM,
    new_events,
    of_type,
    play_randomly,
    scenario_game,
)


def last_drive(
    distances: tuple[int, ...], seat: int, card: int, number: int, **more: Any
) -> avanti.Game:
    """A driving step in which only ``seat`` still has to act, marker on space 0."""
    n = len(distances)
    fields: dict[str, Any] = {
        "marker": 0,
        "distances": distances,
        "hands": tuple((20 + s,) for s in range(n)),
        "laid": tuple((card, number) if s == seat else None for s in range(n)),
        "phase": Phase.DRIVING,
        "round": 2,
    }
    fields.update(more)
    return scenario_game(n, **fields)


def test_a15_leader_collects_each_toll_in_seat_order_after_the_leader() -> None:
    """Marker 0. Seat 2 drives 4 from 10 to 14 and leads. Seat 3 on 11 pays 400, seat 0 on 4
    pays 400, seat 1 on 12 (a parking lot) pays nothing. Seat 2's own space does not matter."""
    game = last_drive((4, 12, 10, 11), 2, 0, 4)
    after = game.execute(Drive(2))
    paid = [(t.payer, t.payee, t.amount) for t in of_type(new_events(game, after), TollPaid)]
    assert paid == [(3, 2, 400), (0, 2, 400)]
    assert after.state.cash == (4600, 5000, 5800, 4600)


def test_a16_collection_is_automatic() -> None:
    """No command collects: the last Drive's events already hold every toll, and the next
    round begins at once."""
    game = last_drive((4, 12, 10, 11), 2, 0, 4)
    after = game.execute(Drive(2))
    events = new_events(game, after)
    assert isinstance(events[-1], RoundStarted)
    assert len(of_type(events, TollPaid)) == 2
    assert after.state.phase is Phase.PLANNING


def test_a17_procuring_money_surplus_stays_with_the_debtor() -> None:
    """Seat 0 owes 400 (space 4) with 100 in hand, figure on island 4 (price 3,000): it steps
    back once for 1,500, pays 400 and keeps 1,200."""
    game = last_drive((4, 12, 10, 11), 2, 0, 4, cash=(100, 5000, 5000, 5000), island=(4, 0, 0, 0))
    after = game.execute(Drive(2))
    events = new_events(game, after)
    start = events.index(FigureRetreated(0, 4, 3))
    assert events[start : start + 3] == (
        FigureRetreated(0, 4, 3),
        BankPaid(0, 1500, BankPayment.RETREAT, None),
        TollPaid(0, 2, 400),
    )
    assert after.state.cash[0] == 1200
    assert after.state.island[0] == 3


def test_a17_unpriced_space_yields_nothing_and_steps_go_on() -> None:
    """Seat 0 owes 400 with 0 cash on island 9 (unpriced): back to 8 for nothing, then to 7 for
    2,500 (half of 5,000)."""
    game = last_drive((4, 12, 10, 11), 2, 0, 4, cash=(0, 5000, 5000, 5000), island=(9, 0, 0, 0))
    after = game.execute(Drive(2))
    events = new_events(game, after)
    assert of_type(events, FigureRetreated) == [FigureRetreated(0, 9, 8), FigureRetreated(0, 8, 7)]
    assert of_type(events, BankPaid) == [BankPaid(0, 2500, BankPayment.RETREAT, None)]
    assert after.state.cash[0] == 2100


def test_a17_bank_covers_the_rest_for_a_debtor_on_island_zero() -> None:
    game = last_drive((4, 12, 10, 11), 2, 0, 4, cash=(0, 5000, 5000, 5000))
    after = game.execute(Drive(2))
    events = new_events(game, after)
    assert BankPaid(2, 400, BankPayment.SHORTFALL, 0) in events
    assert not [t for t in of_type(events, TollPaid) if t.payer == 0]
    assert after.state.cash[2] == 5800


def test_a18_run_ends_when_a_car_reaches_the_marker() -> None:
    """Seat 2 drives 5 from 30 to 35, past the marker on space 0."""
    game = last_drive((4, 12, 30, 11), 2, 0, 5)
    after = game.execute(Drive(2))
    assert of_type(new_events(game, after), RunEnded) == [RunEnded(1, (2, 1, 3, 0))]


def test_a18_run_ends_when_nobody_can_go_on() -> None:
    game = last_drive((4, 12, 10, 11), 2, 0, 4, hands=((), (), (), ()))
    after = game.execute(Drive(2))
    assert of_type(new_events(game, after), RunEnded)


def test_a18_run_ends_when_only_the_leader_can_go_on() -> None:
    game = last_drive((4, 12, 10, 11), 2, 0, 4, hands=((), (), (20,), ()))
    after = game.execute(Drive(2))
    assert of_type(new_events(game, after), RunEnded)


def test_a18_run_goes_on_while_someone_besides_the_leader_can() -> None:
    game = last_drive((4, 12, 10, 11), 2, 0, 4, hands=((20,), (), (), ()))
    after = game.execute(Drive(2))
    assert not of_type(new_events(game, after), RunEnded)
    assert after.state.phase is Phase.PLANNING
    assert after.state.quit == (False, True, True, True)


def quitter_keeps_cards(options: RuleOptions) -> tuple[avanti.Game, avanti.Game]:
    """Marker 0. Seat 0 leads at 20 with a card in hand; seat 1 has quit on 5 and still holds
    two cards; seat 2, the last to act, drives 4 (a red number: no draw) from 8 to 12 with its
    last card. Seat 1 pays seat 0 the toll of space 5 (500); seat 2 stands on a lot."""
    scenario = avanti.Scenario(
        marker=0,
        distances=(20, 5, 8),
        hands=((20,), (21, 22), ()),
        quit=(False, True, False),
        laid=(None, None, (0, 4)),
        phase=Phase.DRIVING,
        round=2,
    )
    game = avanti.new_game(("A", "B", "C"), seed=0, options=options, scenario=scenario)
    return game, game.execute(Drive(2))


def test_a18_a_quitter_holding_cards_does_not_keep_the_run_going() -> None:
    """A18 (c), our reading: seat 0 leads and is the only player who can go on (seat 1 has quit,
    seat 2 has no card left), so the run ends, though seat 1 still holds two cards."""
    game, after = quitter_keeps_cards(RuleOptions())
    events = new_events(game, after)
    assert TollPaid(1, 0, 500) in events
    assert of_type(events, RunEnded) == [RunEnded(1, (0, 2, 1))]


def test_a18_option_literal_reading_a_quitter_holding_cards_keeps_the_run_going() -> None:
    """A18 (c), the rulebook's words read literally (``quitters_cards_keep_run_going``): seat 1
    still has Power cards, so the leader's owner is not the only one with cards left, and the
    run goes on. Round 3 begins; seat 2, in the run with no card, quits at once (A8), and seat 0
    drives on alone."""
    game, after = quitter_keeps_cards(RuleOptions(quitters_cards_keep_run_going=True))
    events = new_events(game, after)
    assert TollPaid(1, 0, 500) in events
    assert not of_type(events, RunEnded)
    assert events[-2:] == (
        RoundStarted(1, 3),
        avanti.PlayerQuit(2, avanti.QuitReason.OUT_OF_CARDS),
    )
    assert after.state.phase is Phase.PLANNING
    assert after.state.quit == (False, True, True)
    assert {(type(c), c.seat) for c in after.legal_commands()} == {(avanti.PlayCard, 0)}


def test_a19_standings_three_two_one_and_never_past_the_last_space() -> None:
    """Ranking 2, 1, 3, 0: seat 2 moves 3, seat 1 moves 2 but stops at space 12, seat 3 moves 1."""
    game = last_drive((4, 12, 30, 11), 2, 0, 5, island=(0, 8, 0, 0))
    after = game.execute(Drive(2))
    assert of_type(new_events(game, after), FigureAdvanced) == [
        FigureAdvanced(2, 1, 0, 3),
        FigureAdvanced(1, 2, 8, 10),
        FigureAdvanced(3, 3, 0, 1),
    ]


def test_a19_with_three_players_only_first_and_second_move() -> None:
    game = last_drive((4, 12, 30), 2, 0, 5)
    after = game.execute(Drive(2))
    assert of_type(new_events(game, after), FigureAdvanced) == [
        FigureAdvanced(2, 1, 0, 3),
        FigureAdvanced(1, 2, 0, 2),
    ]


def test_a19_a_figure_does_not_pass_the_last_space() -> None:
    board = attrs.evolve(DEFAULT_BOARD, island=(None, 1000, 1000, 1000, None), island_depth=1)
    scenario = avanti.Scenario(
        marker=0,
        distances=(4, 12, 30),
        hands=((20,), (21,), (22,)),
        island=(0, 0, 2),
        laid=(None, None, (0, 5)),
        phase=Phase.DRIVING,
        round=2,
    )
    game = avanti.new_game(("A", "B", "C"), seed=0, board=board, scenario=scenario)
    after = game.execute(Drive(2))
    assert FigureAdvanced(2, 1, 2, 4) in of_type(new_events(game, after), FigureAdvanced)


def test_a20_game_ends_on_the_dream_island_without_atms_or_investing() -> None:
    game = last_drive((4, 12, 30, 11), 2, 0, 5, island=(0, 0, 7, 0))
    after = game.execute(Drive(2))
    events = new_events(game, after)
    assert events[-1] == GameEnded(2, (2, 1, 3, 0))
    assert not of_type(events, AtmWithdrawn)
    assert after.is_over
    assert after.legal_commands() == ()


def test_a20_a_tie_on_the_island_goes_to_the_better_rank_in_the_last_run() -> None:
    """Seat 2 (first, island 7 + 3) and seat 1 (second, island 8 + 2) both reach space 10."""
    game = last_drive((4, 12, 30, 11), 2, 0, 5, island=(0, 8, 7, 0))
    after = game.execute(Drive(2))
    assert after.outcome is not None
    assert after.outcome.winner == 2
    assert after.outcome.ranking == (2, 1, 3, 0)


def atm_game(options: RuleOptions) -> avanti.Game:
    """Marker 20. Cars at distances 4, 14 and, after seat 2 drives 5 from 20, 25."""
    scenario = avanti.Scenario(
        marker=20,
        distances=(4, 14, 20),
        hands=((), (), ()),
        laid=(None, None, (0, 5)),
        phase=Phase.DRIVING,
        round=2,
    )
    return avanti.new_game(("A", "B", "C"), seed=0, options=options, scenario=scenario)


def test_a21_each_atm_pays_the_first_car_at_or_ahead_of_it() -> None:
    """Marker 20; cars on spaces 24 (seat 0), 34 % 34 = 0 (seat 1) and 45 % 34 = 11 (seat 2).
    Seat 0 takes the lot at 22 (400); seat 1 the lots at 26 and 31 (300, 500); seat 2 the lots at
    3 and 7 (200, 400). The lots at 12 and 17 (500, 200) lie past the leader: the last car, seat
    0, takes them too, counting the leader as the car behind it."""
    game = atm_game(RuleOptions())
    after = game.execute(Drive(2))
    atms = {(a.seat, a.space, a.amount) for a in of_type(new_events(game, after), AtmWithdrawn)}
    assert atms == {
        (0, 22, 400),
        (1, 26, 300),
        (1, 31, 500),
        (2, 3, 200),
        (2, 7, 400),
        (0, 12, 500),
        (0, 17, 200),
    }


def test_a21_option_without_wrap_lots_past_the_leader_pay_nobody() -> None:
    """The position above with ``atm_last_car_wraps=False``: the last car (seat 0, space 24) has
    no car behind it, so the lots from just past the leader (space 11) up to it, at 12, 17 and
    22, pay nobody. Every other lot pays as before."""
    game = atm_game(RuleOptions(atm_last_car_wraps=False))
    after = game.execute(Drive(2))
    atms = {(a.seat, a.space) for a in of_type(new_events(game, after), AtmWithdrawn)}
    assert atms == {(1, 26), (1, 31), (2, 3), (2, 7)}


def leader_past_the_marker(options: RuleOptions) -> avanti.Game:
    """Marker 0, distances (5, 10, 20, 29, 27); Steve (seat 3) drives 6 (card 3) from 29 to 35."""
    scenario = avanti.Scenario(
        marker=0,
        distances=(5, 10, 20, 29, 27),
        hands=((), (), (), (), ()),
        laid=(None, None, None, (3, 6), None),
        phase=Phase.DRIVING,
        round=3,
    )
    return avanti.new_game(NAMES, 1, options=options, scenario=scenario)


def test_a21_option_without_wrap_a_leader_past_the_marker_keeps_the_lots_behind_it() -> None:
    """Steve drives 6 from 29 to 35, road space 1: past the marker, so the run ends.

    Cars on road spaces 1 (Steve, the leader), 5 (Jack, the last car), 10 (Isabella), 20 (Tina)
    and 27 (William). Each lot on the default board, the first car forward and backward from it,
    and who takes it:

    ====  ====  ===============  ===============  ========  ==========================
    lot   ATM   forward          backward         default   ``atm_last_car_wraps=False``
    ====  ====  ===============  ===============  ========  ==========================
     3    200   Jack (5), last   Steve (1), lead  Jack      nobody
     7    400   Isabella (10)    Jack (5)         Isabella  Isabella
    12    500   Tina (20)        Isabella (10)    Tina      Tina
    17    200   Tina (20)        Isabella (10)    Tina      Tina
    22    400   William (27)     Tina (20)        William   William
    26    300   William (27)     Tina (20)        William   William
    31    500   Steve (1)        William (27)     Steve     Steve
    ====  ====  ===============  ===============  ========  ==========================

    The lot at 31 lies between the leader and the car behind it, so it pays the leader under
    both readings, although the leader passed the marker to reach it. Only the lot at 3, which
    Jack gets by counting the leader as the car behind him, depends on the option.
    """
    paid = {}
    for wraps in (True, False):
        game = leader_past_the_marker(RuleOptions(atm_last_car_wraps=wraps))
        after = game.execute(Drive(STEVE))
        assert after.state.distances[STEVE] == 35
        atms = of_type(new_events(game, after), AtmWithdrawn)
        paid[wraps] = [(a.space, a.seat, a.amount) for a in atms]
    assert paid[True] == [
        (3, JACK, 200),
        (7, ISABELLA, 400),
        (12, TINA, 500),
        (17, TINA, 200),
        (22, WILLIAM, 400),
        (26, WILLIAM, 300),
        (31, STEVE, 500),
    ]
    assert paid[False] == paid[True][1:]


def lapped(options: RuleOptions) -> avanti.Game:
    """Marker 0. Jack quit on the start space (distance 0); Isabella stands 30 out; Tina drives 7
    from 31 to 38 (road space 4) and ends the run, more than a lap ahead of Jack."""
    scenario = avanti.Scenario(
        marker=0,
        distances=(0, 30, 31),
        hands=((), (), ()),
        quit=(True, False, False),
        laid=(None, None, (2, 7)),
        phase=Phase.DRIVING,
        round=4,
    )
    return avanti.new_game(NAMES[:3], seed=0, options=options, scenario=scenario)


def test_a21_option_race_order_the_car_behind_the_leader_is_second_in_the_race() -> None:
    """The car immediately behind, along the road or in the race (``atm_behind_in_race_order``).

    Cars on road spaces 0 (Jack, distance 0, the last car), 4 (Tina, distance 38, the leader)
    and 30 (Isabella, distance 30). Along the road the car behind Jack is Isabella, so Jack takes
    the lot at 31 (500); Tina takes the lot at 3 (the car behind her is Jack); Isabella takes the
    lots at 7 to 26. In race order the car behind the leader is Isabella (distance 30), so
    Tina's stretch runs from distance 31 to 38: road spaces 31-33 and 0-4, with the lots at 31
    and 3. Isabella's stretch runs from just past Jack (distance 0) to 30: road spaces 1-30,
    which also hold the lot at 3; a lot on two stretches pays the car further ahead, Tina. Jack,
    the last car, has the leader more than a lap ahead, so nothing lies behind him.
    """
    paid = {}
    for race in (False, True):
        game = lapped(RuleOptions(atm_behind_in_race_order=race))
        after = game.execute(Drive(TINA))
        assert after.state.distances == (0, 30, 38)
        paid[race] = {a.space: a.seat for a in of_type(new_events(game, after), AtmWithdrawn)}
    along = {3: TINA, 7: ISABELLA, 12: ISABELLA, 17: ISABELLA, 22: ISABELLA, 26: ISABELLA}
    assert paid[False] == {**along, 31: JACK}
    assert paid[True] == {**along, 31: TINA}


def test_a21_option_race_order_changes_nothing_while_the_leader_is_within_a_lap() -> None:
    """Steve leads at 35 and Jack, the last car, stands at 5: within a lap of each other, the cars
    come in the same order along the road as in the race, so both readings pay alike."""
    paid = []
    for race in (False, True):
        game = leader_past_the_marker(RuleOptions(atm_behind_in_race_order=race))
        after = game.execute(Drive(STEVE))
        paid.append(of_type(new_events(game, after), AtmWithdrawn))
    assert paid[0] == paid[1]
    assert len(paid[0]) == 7


def test_a21_the_readings_differ_only_where_the_rulebook_is_open() -> None:
    """Over every position of many random games: the race-order reading pays as the default
    while the leader is less than a lap ahead of the last car; without wrapping, the only lots
    that change hands are lots the default pays to the last car, and they pay nobody."""
    readings = {
        name: RuleOptions(**{name: not getattr(RuleOptions(), name)})
        for name in ("atm_last_car_wraps", "atm_behind_in_race_order")
    }
    lapped = 0
    for players, seed in [(n, seed) for n in (3, 4, 5) for seed in range(15)]:
        game = play_randomly(players, seed)
        state, _ = game.rules.start(game.setup)
        for event in game.events:
            state = avanti.evolve(state, event)
            table = state.table
            default = atm_owners(state)
            other = {
                name: atm_owners(
                    attrs.evolve(
                        state, table=table_for(table.players, table.board, table.deck, options)
                    )
                )
                for name, options in readings.items()
            }
            # Cars that share the last car's space (only the start space) count as one.
            last = state.road_space(standings(state)[-1])
            lost = set(default) - set(other["atm_last_car_wraps"])
            assert set(other["atm_last_car_wraps"]) <= set(default)
            assert {state.road_space(seat) for seat, _, _ in lost} <= {last}
            if max(state.distances) - min(state.distances) < table.track_length:
                assert other["atm_behind_in_race_order"] == default
            else:
                lapped += 1
    assert lapped > 0


def test_a21_a_lot_shared_on_the_start_space_pays_the_better_ranked_car() -> None:
    """Marker on the lot at 3; seats 0 and 1 quit there. Seat 1 ranked ahead last run."""
    game = scenario_game(
        3,
        marker=3,
        distances=(0, 0, 5),
        hands=((), (), ()),
        quit=(True, True, False),
        laid=(None, None, (0, 4)),
        phase=Phase.DRIVING,
        ranking=(1, 0, 2),
        round=2,
    )
    after = game.execute(Drive(2))
    atms = {(a.seat, a.space) for a in of_type(new_events(game, after), AtmWithdrawn)}
    assert (1, 3) in atms
    assert all(seat != 0 for seat, _ in atms)


def investing(**more: Any) -> avanti.Game:
    fields: dict[str, Any] = {
        "marker": 5,
        "distances": (3, 9, 0),
        "hands": ((), (), ()),
        "phase": Phase.INVESTING,
        "ranking": (1, 0, 2),
    }
    fields.update(more)
    return scenario_game(3, **fields)


def test_a22_each_step_costs_the_price_of_the_space_entered() -> None:
    game = investing(island=(2, 0, 0))
    after = game.execute(Invest(0, 2))
    assert new_events(game, after) == (Invested(0, 2, 5000, 2, 4),)
    assert after.state.cash[0] == 0


def test_a22_the_whole_purchase_must_be_affordable() -> None:
    game = investing(island=(2, 0, 0))
    with pytest.raises(IllegalCommand) as error:
        game.execute(Invest(0, 3))
    assert (error.value.reason, error.value.rule) == (Reason.CANNOT_AFFORD, "A22")
    assert Invest(0, 2) in game.legal_commands()
    assert Invest(0, 3) not in game.legal_commands()


def test_a22_zero_steps_passes_and_one_invest_per_seat() -> None:
    game = investing()
    after = game.execute(Invest(1, 0))
    assert new_events(game, after) == (Invested(1, 0, 0, 0, 0),)
    with pytest.raises(IllegalCommand) as error:
        after.execute(Invest(1, 0))
    assert error.value.reason is Reason.ALREADY_INVESTED


def test_a23_and_a25_to_a28_next_run_starts_when_everyone_has_invested() -> None:
    """Last run: seat 1 won, seat 2 was last, still on the start space (marker 7). The next run
    starts with seat 1, the marker on space 7 + 0 = 7, every card reshuffled and dealt."""
    game = investing(distances=(3, 9, 0), marker=7)
    game = game.execute(Invest(0, 0)).execute(Invest(2, 1))
    before = game
    game = game.execute(Invest(1, 1))
    events = new_events(before, game)
    assert events[1] == RunStarted(2, 1)
    shuffle = events[2]
    assert isinstance(shuffle, DeckShuffled)
    assert shuffle.pile is Pile.ALL
    assert shuffle.order is not None
    assert sorted(shuffle.order) == list(range(27))
    assert [e.seat for e in of_type(events, CardsDealt)] == [1, 2, 0]
    assert events[-1] == EventMarkerPlaced(None, 7)
    assert game.state.distances == (0, 0, 0)
    assert game.state.starting_seat == 1
    assert game.state.run == 2
    assert all(len(hand) == 3 for hand in game.state.hands)
    assert len(game.state.draw) == 18
    assert game.state.discard == ()


def test_a25_marker_goes_to_the_last_cars_road_space() -> None:
    """Marker 30, last car (seat 2) at distance 6: road space (30 + 6) % 34 = 2."""
    game = investing(marker=30, distances=(9, 12, 6), ranking=(1, 0, 2))
    for seat in range(3):
        game = game.execute(Invest(seat, 0))
    assert EventMarkerPlaced(None, 2) in game.events
    assert game.view(0).road_spaces == (2, 2, 2)


def test_a26_winner_of_the_previous_run_starts_and_acts_first() -> None:
    game = investing(ranking=(2, 0, 1), distances=(3, 0, 9))
    for seat in range(3):
        game = game.execute(Invest(seat, 0))
    assert game.state.starting_seat == 2
    for seat in (0, 1, 2):
        card = game.state.hands[seat][0]
        game = game.execute(avanti.PlayCard(seat, card, avanti.DEFAULT_DECK.cards[card].numbers[0]))
    assert game.state.order == (2, 0, 1)


def test_a27_all_cards_are_gathered_including_quitters_hands() -> None:
    game = investing(hands=((0, 1), (2,), ()), discard=(3, 4))
    for seat in range(3):
        game = game.execute(Invest(seat, 0))
    cards = [c for hand in game.state.hands for c in hand] + list(game.state.draw)
    assert sorted(cards) == list(range(27))


def test_a24_buying_onto_a_priced_dream_island_ends_the_game_after_investing() -> None:
    board = attrs.evolve(DEFAULT_BOARD, island=(*DEFAULT_BOARD.island[:9], 1000, 1000, 1000, 1000))
    scenario = avanti.Scenario(
        marker=0,
        distances=(3, 9, 0),
        hands=((), (), ()),
        island=(8, 0, 0),
        phase=Phase.INVESTING,
        ranking=(1, 0, 2),
    )
    game = avanti.new_game(("A", "B", "C"), seed=0, board=board, scenario=scenario)
    game = game.execute(Invest(0, 2))
    assert not game.is_over
    game = game.execute(Invest(1, 0)).execute(Invest(2, 0))
    assert isinstance(game.events[-1], GameEnded)
    assert game.outcome is not None
    assert game.outcome.winner == 0
