"""The For Sale: Autorama bots: the heuristic (F4-F17), the sampler of hidden cards, and play."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from avanti import autorama
from avanti.autorama import (
    Bid,
    DeclineMechanic,
    Offer,
    Pass,
    PlayAdvisor,
    Score,
    TakeBack,
    UseMechanic,
)
from avanti.autorama.bots import AutoramaBot, AutoramaSampler, reward
from avanti.bots.driver import play
from avanti.bots.kit import make_bot
from avanti.bots.simulate import Plan, run, summarize
from avanti.catalog import game_info
from avanti.core import Rng

AUTORAMA = game_info("autorama")


def view(**changes: Any) -> autorama.View:
    """Seat 0's view at the first auction (cash 28, F2), with some fields replaced."""
    return attrs.evolve(autorama.new_game(["Ann", "Bob", "Cy"], seed=1).view(0), **changes)


def choose(v: autorama.View, legal: list[Any]) -> Any:
    return AutoramaBot(0).choose(v, legal, Rng(0).stream())


def test_f4_bids_by_its_hand_jumping_halfway_to_what_the_spread_is_worth_to_it() -> None:
    """The spread of (1, 5, 20, 30) is 29. An empty hand (its best below the middle advisor, 20)
    wants it at a third, 9, as much as a third of 28 cash; one holding a 20 at a quarter, 7; one
    holding a 30 (the table's best) at a sixth, 4. Each bids halfway from the lowest bid allowed
    to its limit, rounding up."""
    bids = [Pass(0), *(Bid(0, amount) for amount in range(12))]
    assert choose(view(table=(1, 5, 20, 30), cash=28), bids) == Bid(0, 5)  # (0 + 9 + 1) // 2
    assert choose(view(table=(1, 5, 20, 30), cash=28, advisors=(20,)), bids) == Bid(0, 4)
    assert choose(view(table=(1, 5, 20, 30), cash=28, advisors=(30,)), bids) == Bid(0, 2)
    spread = view(table=(1, 5, 20, 30), cash=28)
    assert choose(spread, [Pass(0), Bid(0, 7), Bid(0, 8)]) == Bid(0, 8)  # (7 + 9 + 1) // 2
    assert choose(spread, [Pass(0), Bid(0, 10), Bid(0, 11)]) == Pass(0)
    assert choose(
        view(table=(1, 5, 20, 30), cash=28, advisors=(20,)), [Pass(0), *bids[9:]]
    ) == Pass(0)
    poor = view(table=(1, 5, 20, 30), cash=6)  # a third of 6 is 2
    assert choose(poor, [Pass(0), Bid(0, 3)]) == Pass(0)
    assert choose(spread, [Bid(0, 20)]) == Bid(0, 20)
    assert choose(spread, [Pass(0)]) == Pass(0)


def test_heuristic_bots_bid_apart_from_each_other_as_their_hands_differ() -> None:
    """F4: in the first auction of seed 3 (advisors 10, 13, 26, 28, a spread of 18), four
    heuristic bots with empty hands want the prize at 6 (a third of 18); Ann opens at 3, Bob
    must beat it and jumps to 5, Cy to 6, and Dee, asked for 7, passes."""
    game = autorama.new_game(["Ann", "Bob", "Cy", "Dee"], seed=3)
    bots = {seat: AutoramaBot(seat) for seat in range(4)}
    stream = Rng(1).stream()
    while not any(isinstance(event, autorama.AdvisorHired) for event in game.events):
        seat = game.waiting[0]
        command = bots[seat].choose(game.view(seat), tuple(game.legal_commands(seat)), stream)
        game = game.execute(command)
    bids = [(e.seat, e.amount) for e in game.events if isinstance(e, autorama.BidPlaced)]
    assert bids == [(0, 3), (1, 5), (2, 6)]
    assert isinstance(game.events[-1], autorama.AdvisorHired)
    assert game.events[-1].seat == 3


def test_f9_plays_the_best_advisor_only_for_a_wide_spread_of_vehicles() -> None:
    legal = [PlayAdvisor(0, 4), PlayAdvisor(0, 14), PlayAdvisor(0, 14, True), PlayAdvisor(0, 25)]
    assert choose(view(table=(2, 9, 20)), legal) == PlayAdvisor(0, 25)
    assert choose(view(table=(10, 12, 15)), legal) == PlayAdvisor(0, 4)
    assert choose(view(table=(10, 12)), [PlayAdvisor(0, 14, True)]) == PlayAdvisor(0, 14, True)


def test_f14_offers_by_the_size_of_the_checks() -> None:
    legal = [Offer(0, (3,)), Offer(0, (17,)), Offer(0, (25,)), Offer(0, (3, 25))]
    assert choose(view(table=(0, 4, 15)), legal) == Offer(0, (25,))
    assert choose(view(table=(0, 2, 5)), legal) == Offer(0, (3,))
    assert choose(view(table=(3, 8)), legal) == Offer(0, (17,))
    assert choose(view(table=(3, 8)), [Offer(0, (3, 25))]) == Offer(0, (3, 25))


def test_f15_f16_takes_back_the_lower_vehicle_and_uses_a_mechanic() -> None:
    v = view()
    assert choose(v, [TakeBack(0, 22), TakeBack(0, 9)]) == TakeBack(0, 9)
    assert choose(v, [DeclineMechanic(0), UseMechanic(0)]) == UseMechanic(0)
    assert choose(v, [DeclineMechanic(0)]) == DeclineMechanic(0)


def test_f20_reward_shares_a_shared_victory() -> None:
    scores = tuple(
        Score(seat=s, checks=(), assignments=(), check_total=0, cash=9, bonus=0, total=9)
        for s in range(3)
    )
    shared = autorama.Outcome(scores=scores, winners=(0, 2), returns=(1.0, 0.0, 1.0))
    assert [reward(shared, seat) for seat in range(3)] == [0.5, 0.0, 0.5]
    assert shared.winners == (0, 2)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (6, 3)])
def test_the_sampler_agrees_with_every_view_and_redeals_the_hidden_cards(
    players: int, seed: int
) -> None:
    game: Any = AUTORAMA.new_game(list(AUTORAMA.player_names(players)), seed=seed)
    sampler = AutoramaSampler.of(game.setup)
    stream = Rng(7).stream()
    kinds = ("heuristic", "random")
    bots = {s: make_bot(kinds[s % 2], AUTORAMA, game.setup, s) for s in range(players)}
    hands: set[tuple[int, ...]] = set()
    for step in play(game, bots, seed=seed):
        game = step.game
        for seat in range(players):
            view = game.view(seat)
            sampled = sampler.sample_state(view, seat, stream)
            assert autorama.RULES.view(sampled, seat) == view
            mine = [c for c in game.legal_commands() if c.seat == seat]
            assert [c for c in autorama.RULES.legal_commands(sampled) if c.seat == seat] == mine
            other = (seat + 1) % players
            assert sampled.cash[other] >= (view.bids[other] or 0)
            hands.add(sampled.advisors[other])
    assert len(hands) > 50  # the hidden advisors are dealt afresh every time


def test_the_autorama_sampler_refuses_a_view_that_does_not_add_up() -> None:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=1)
    view = game.view(0)
    bad = attrs.evolve(view, removed=(view.removed[0] + 1, *view.removed[1:]))
    with pytest.raises(ValueError, match="does not add up"):
        AutoramaSampler.of(game.setup).sample_state(bad, 0, Rng(1).stream())


def test_the_search_bot_plays_whole_games_of_autorama() -> None:
    plan = Plan("autorama", ("search", "heuristic", "random"), 1, seed=9, iterations=3)
    (record,) = run(plan)
    assert record.bots == ("search", "heuristic", "random")
    assert record.winners


def test_the_heuristic_beats_the_random_bot_at_autorama() -> None:
    plan = Plan("autorama", ("heuristic", "random", "random"), 12, seed=40, rotate=True)
    summary = summarize(plan, run(plan))
    (_, heuristic), (_, random) = summary.bots
    assert heuristic.wins >= 10
    assert heuristic.share > random.share
