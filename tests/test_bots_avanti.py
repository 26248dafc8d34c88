"""The Avanti bots: the heuristic's rules of thumb (A7-A22), the sampler of hidden cards (A30),
the search bot's evaluation, and play against the random bot."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import avanti
from avanti import Drive, Invest, Outcome, Phase, PlaceEventMarker, PlayCard, Quit, Space
from avanti.avanti.bots import AvantiBot, AvantiSampler, counts, evaluate, reward
from avanti.bots.driver import play
from avanti.bots.kit import make_bot
from avanti.bots.simulate import Plan, run, summarize
from avanti.catalog import game_info
from avanti.core import Rng

AVANTI = game_info("avanti")
NAMES = ["Ann", "Bob", "Cy"]


def planning() -> avanti.Game:
    """Run 1, round 1: every car on road space 0; seat 0 holds cards 13 (2/5/7), 23 (3/6/7), 3."""
    return avanti.new_game(NAMES, seed=1, start_space=0)


def choose(bot: AvantiBot, view: avanti.View, legal: list[Any]) -> Any:
    return bot.choose(view, legal, Rng(0).stream())


def test_a8_lays_the_number_that_lands_best_on_the_default_road() -> None:
    game = planning()
    bot = AvantiBot(game.setup.board, 0)
    view = game.view(0)
    # From space 0: 3 lands on a lot (P200) and draws a card; 6 lands on a 1,000 toll; 7 on P300.
    assert choose(bot, view, [PlayCard(0, 23, 6), PlayCard(0, 23, 3)]) == PlayCard(0, 23, 3)
    assert choose(bot, view, [PlayCard(0, 23, 3), PlayCard(0, 23, 7)]) == PlayCard(0, 23, 7)
    assert choose(bot, view, list(game.legal_commands()[:9])) in game.legal_commands()


def test_a13_a_red_card_that_nearly_empties_the_hand_costs_more() -> None:
    game = planning()
    bot = AvantiBot(game.setup.board, 0)
    short = attrs.evolve(game.view(0), hand=(13, 23))
    # 7 scores 840 + 150 but loses 600 with two cards in hand; 3 scores 360 + 100 + 300.
    assert choose(bot, short, [PlayCard(0, 23, 7), PlayCard(0, 23, 3)]) == PlayCard(0, 23, 3)


def test_a11_landing_counts_the_hops_over_other_cars() -> None:
    game = planning()
    bot = AvantiBot(game.setup.board, 0)
    view = attrs.evolve(game.view(0), distances=(0, 3, 6), road_spaces=(0, 3, 6))
    assert bot._landing(view, 3) == 9
    assert bot._landing(view, 2) == 2


def driving_view(number: int) -> tuple[AvantiBot, avanti.View]:
    game = planning()
    view = attrs.evolve(
        game.view(0),
        phase=Phase.DRIVING,
        distances=(0, 10, 12),
        road_spaces=(0, 10, 12),
        laid=(23, number),
        to_act=0,
    )
    return AvantiBot(game.setup.board, 0), view


def test_a14_quits_rather_than_land_on_a_dear_toll_behind_the_leader() -> None:
    bot, view = driving_view(6)  # from the 100 toll of space 0 to the 1,000 toll of space 6
    assert choose(bot, view, [Drive(0), Quit(0)]) == Quit(0)
    bot, view = driving_view(3)  # a parking lot
    assert choose(bot, view, [Drive(0), Quit(0)]) == Drive(0)
    assert choose(bot, view, [Drive(0)]) == Drive(0)


def test_a22_invests_what_leaves_the_reserve() -> None:
    game = planning()
    bot = AvantiBot(game.setup.board, 0)
    view = attrs.evolve(game.view(0), phase=Phase.INVESTING, cash=(5000, 0, 0), island=(0, 0, 0))
    legal = [Invest(0, steps) for steps in range(4)]
    # Steps cost 1,000, 2,000, 2,000: two steps leave exactly the 2,000 reserve.
    assert choose(bot, view, legal) == Invest(0, 2)
    poor = attrs.evolve(view, cash=(2500, 0, 0))
    assert choose(bot, poor, legal) == Invest(0, 0)


def test_a7_puts_the_marker_behind_the_cheapest_stretch_of_road() -> None:
    road = (*(Space.toll(500),) * 10, *(Space.parking(400),) * 4, *(Space.toll(500),) * 6)
    board = attrs.evolve(avanti.DEFAULT_BOARD, track=road)
    game = avanti.new_game(NAMES, seed=2, board=board)
    legal = game.legal_commands()
    assert isinstance(legal[0], PlaceEventMarker)
    # Spaces 6 to 9 see all four lots within seven spaces; the first of them wins the tie.
    assert choose(AvantiBot(game.setup.board, 0), game.view(0), list(legal)) == PlaceEventMarker(
        0, 6
    )


def test_a30_the_sampler_agrees_with_every_view_and_redeals_the_hidden_cards() -> None:
    for players, seed in ((3, 4), (5, 5)):
        game: Any = avanti.new_game(["Ann", "Bob", "Cy", "Dee", "Eve"][:players], seed=seed)
        sampler = AvantiSampler.of(game.setup)
        stream = Rng(99).stream()
        bots = {s: make_bot("heuristic", AVANTI, game.setup, s) for s in range(players)}
        others: set[tuple[int, ...]] = set()
        for step in play(game, bots, seed=seed):
            game = step.game
            for seat in range(players):
                view = game.view(seat)
                sampled = sampler.sample_state(view, seat, stream)
                assert game.rules.view(sampled, seat) == view
                assert sampled.hands[seat] == game.state.hands[seat]
                others.add(sampled.hands[(seat + 1) % players])
        assert len(others) > 100  # the hidden hands are dealt afresh every time


def test_the_sampler_refuses_a_view_that_does_not_add_up() -> None:
    game = planning()
    view = attrs.evolve(game.view(0), draw_size=game.view(0).draw_size + 1)
    with pytest.raises(ValueError, match="does not add up"):
        AvantiSampler.of(game.setup).sample_state(view, 0, Rng(1).stream())


def test_a20_reward_is_one_for_the_winner_and_a_little_for_progress() -> None:
    outcome = Outcome(
        winner=1, ranking=(1, 0, 2), island=(8, 10, 4), winners=(1,), returns=(0.0, 1.0, 0.0)
    )
    assert [reward(outcome, seat) for seat in range(3)] == [0.2, 1.0, 0.1]


def test_evaluate_scores_a_rollout_once_its_run_is_over() -> None:
    game: Any = planning()
    start = game.state
    bots = {s: make_bot("heuristic", AVANTI, game.setup, s) for s in range(3)}
    scored = None
    for step in play(game, bots, seed=1):
        state = step.game.state
        result = evaluate(start, state)
        if state.phase is not Phase.INVESTING:
            assert result is None
        elif scored is None:
            scored = (state, result)
            assert evaluate(state, state) is None  # the same run's investing: play on
    assert scored is not None
    state, result = scored
    assert result is not None
    wealth = [i * 2500 + c for i, c in zip(state.island, state.cash, strict=True)]
    richest = wealth.index(max(wealth))
    assert result[richest] > 0.5
    assert all(score < 0.5 for seat, score in enumerate(result) if seat != richest)


def test_runs_are_counted_from_the_log() -> None:
    game: Any = planning()
    bots = {s: make_bot("random", AVANTI, game.setup, s) for s in range(3)}
    for step in play(game, bots, seed=3):
        game = step.game
    started = sum(isinstance(e, avanti.RunStarted) for e in game.events)
    assert counts(game.events) == {"runs": started}
    assert started >= 2


def test_the_heuristic_beats_the_random_bot() -> None:
    plan = Plan("avanti", ("heuristic", "random", "random"), 30, seed=100, rotate=True)
    summary = summarize(plan, run(plan))
    (_, heuristic), (_, random) = summary.bots
    assert heuristic.wins >= 25
    assert heuristic.share > random.share


def test_the_search_bot_may_be_asked_before_lower_seats_have_laid_a_card() -> None:
    game = planning()
    bot = make_bot("search", AVANTI, game.setup, 2, iterations=12)
    mine = [c for c in game.legal_commands() if c.seat == 2]
    chosen = bot.choose(game.view(2), mine, Rng(4).stream())
    assert chosen in mine


def test_the_search_bot_plays_whole_games_of_avanti() -> None:
    plan = Plan("avanti", ("search", "heuristic", "random"), 1, seed=5, iterations=4)
    (record,) = run(plan)
    assert record.bots == ("search", "heuristic", "random")
    assert len(record.winners) == 1
    assert dict(record.counts)["runs"] >= 2
