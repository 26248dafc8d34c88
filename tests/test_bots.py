"""The bots: the random bot, the Avanti mare! heuristic and sampler, search, simulation."""

from __future__ import annotations

import multiprocessing
import signal
from typing import Any

import attrs
import pytest

from avanti.bots import BOT_KINDS, RandomBot
from avanti.bots.driver import play
from avanti.bots.kit import kit_for, make_bot
from avanti.bots.seeds import game_seed
from avanti.bots.simulate import Plan, Rate, run, summarize, wilson
from avanti.catalog import GAMES, GameInfo, game_info
from avanti.core import Rng, search
from avanti.core.bots import GameKit
from avanti.core.search import SearchBot
from avanti.mare import (
    CAUGHT,
    RULES,
    SEA,
    Fish,
    GameState,
    MoveFish,
    Options,
    Result,
    Roll,
    Side,
    new_game,
    odds,
)
from avanti.mare.bots import MareBot, MareSampler, reward

MARE = game_info("mare")
SIDES = (Side.FISH_FRIENDS, Side.FISHER_FANS)


def owing(fish: tuple[int, ...], boat: int = 0, seat: int = 0) -> GameState:
    """A two-player state where ``seat`` owes a MoveFish (M6)."""
    return GameState(SIDES, Options(free_fish_move_owed=True), boat, fish, seat, True, None, Rng(5))


def test_random_bot_picks_a_legal_command_reproducibly() -> None:
    legal = [MoveFish(0, fish) for fish in Fish]
    picks = [RandomBot().choose(None, legal, Rng(9).stream()) for _ in range(3)]
    assert picks[0] in legal
    assert picks == [picks[0]] * 3
    spread = {RandomBot().choose(None, legal, Rng(seed).stream()) for seed in range(40)}
    assert spread == set(legal)


def test_mare_bot_rolls_when_rolling_is_all_there_is() -> None:
    game = new_game(["Ann", "Bob"], seed=1)
    assert MareBot(0).choose(game.view(0), [Roll(0)], Rng(1).stream()) == Roll(0)


def best_move(state: GameState, sign: int) -> Fish:
    """The fish whose move gives the best exact margin for a side (+1 fish, -1 fishers)."""
    scores = {}
    for fish in state.in_river():
        places = list(state.fish)
        places[fish.slot] += 1
        after = GameState(SIDES, Options(), state.boat, tuple(places), 1, False, None, Rng(0))
        o = odds("closest-to-boat", state=after)
        scores[fish] = sign * (o.fish - o.fishers)
    return max(scores, key=lambda f: scores[f])


@pytest.mark.parametrize(
    "fish", [(6, 6, 9, SEA), (1, SEA, 11, CAUGHT), (3, 7, SEA, 10), (2, 2, SEA, 2)]
)
def test_m6_mare_bot_plays_the_best_move_for_its_own_side(fish: tuple[int, ...]) -> None:
    boat = min(p for p in fish if p != CAUGHT) - 1
    for seat, sign in ((0, 1), (1, -1)):
        state = owing(fish, boat=boat, seat=seat)
        legal = RULES.legal_commands(state)
        chosen = MareBot(seat).choose(RULES.view(state, seat), legal, Rng(0).stream())
        assert isinstance(chosen, MoveFish)
        assert chosen.fish is best_move(state, sign)


def test_m6_fish_friends_and_fisher_fans_choose_differently_somewhere() -> None:
    state = owing((6, 6, 9, SEA), boat=5)
    legal = RULES.legal_commands(state)
    friend = MareBot(0).choose(RULES.view(state, 0), legal, Rng(0).stream())
    fan = MareBot(1).choose(RULES.view(state, 1), legal, Rng(0).stream())
    assert friend != fan


def test_mare_sampler_rebuilds_the_view_exactly_with_a_fresh_generator() -> None:
    game = new_game(["Ann", "Bob", "Cy"], seed=4)
    for _ in range(12):
        game = game.execute(game.legal_commands()[0])
    view = game.view(1)
    sampled = MareSampler().sample_state(view, 1, Rng(2).stream())
    assert RULES.view(sampled, 1) == view
    assert sampled.rng != game.state.rng


def test_mare_reward_is_one_for_the_winning_side_and_half_for_a_draw() -> None:
    game = new_game(["Ann", "Bob"], seed=3)
    while not game.is_over:
        game = game.execute(game.legal_commands()[0])
    outcome = game.outcome
    assert outcome is not None
    if outcome.result is Result.DRAW:
        assert reward(outcome, 0) == reward(outcome, 1) == 0.5
    else:
        assert sorted(reward(outcome, seat) for seat in range(2)) == [0.0, 1.0]
        assert reward(outcome, outcome.winners[0]) == 1.0


def test_search_bot_finds_the_best_m6_move_by_sampling() -> None:
    state = owing((6, 6, 9, SEA), boat=5)
    legal = RULES.legal_commands(state)
    bot = make_bot("search", MARE, new_game(["A", "B"], seed=0).setup, 0, iterations=600)
    assert isinstance(bot, SearchBot)
    picks = {bot.choose(RULES.view(state, 0), legal, Rng(seed).stream()) for seed in range(2)}
    assert picks == {MoveFish(0, best_move(state, 1))}


def test_search_bot_returns_a_forced_command_without_searching() -> None:
    game = new_game(["Ann", "Bob"], seed=1)
    bot = make_bot("search", MARE, game.setup, 0, iterations=1)
    assert bot.choose(game.view(0), [Roll(0)], Rng(0).stream()) == Roll(0)


def test_search_bot_stops_a_rollout_that_never_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "MAX_ROLLOUT", 2)
    state = owing((6, 6, 9, SEA), boat=5)
    bot = make_bot("search", MARE, new_game(["A", "B"], seed=0).setup, 0, iterations=3)
    assert repr(bot) == "SearchBot(iterations=3, exploration=0.7)"
    with pytest.raises(RuntimeError, match="did not end within 2 commands"):
        bot.choose(RULES.view(state, 0), RULES.legal_commands(state), Rng(0).stream())


class StaleSampler:
    """A sampler that disagrees with the view: it always gives a position owing no move."""

    def sample_state(self, view: object, seat: int, rng: object) -> GameState:
        return GameState(SIDES, Options(), 0, (6, 6, 6, 6), 0, False, None, Rng(1))


def test_search_bot_survives_a_sampler_that_disagrees_with_the_view() -> None:
    state = owing((6, 6, 9, SEA), boat=5)
    legal = RULES.legal_commands(state)
    bot = SearchBot(
        rules=RULES,
        sampler=StaleSampler(),
        reward=reward,
        players=2,
        rollout=(MareBot(0), MareBot(1)),
        iterations=5,
    )
    assert bot.choose(RULES.view(state, 0), legal, Rng(0).stream()) == legal[0]


def test_search_bot_needs_a_positive_budget() -> None:
    kit = kit_for(MARE)
    assert kit.sampler is not None
    with pytest.raises(ValueError, match="at least one iteration"):
        SearchBot(
            rules=RULES,
            sampler=kit.sampler(None),
            reward=kit.reward,
            players=2,
            rollout=(RandomBot(), RandomBot()),
            iterations=0,
        )


def test_make_bot_builds_every_kind_and_refuses_unknown_ones() -> None:
    setup = new_game(["Ann", "Bob"], seed=0).setup
    made = [make_bot(kind, MARE, setup, 0) for kind in BOT_KINDS]
    assert [type(bot).__name__ for bot in made] == ["RandomBot", "MareBot", "SearchBot"]
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever", MARE, setup, 0)


def test_bots_finish_whole_games_of_mare() -> None:
    for kinds in (("random", "heuristic"), ("search", "heuristic", "random")):
        game: Any = MARE.new_game(["Ann", "Bob", "Cy"][: len(kinds)], seed=2)
        bots = {s: make_bot(k, MARE, game.setup, s, iterations=20) for s, k in enumerate(kinds)}
        for step in play(game, bots, seed=2):
            game = step.game
        assert game.is_over


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0
    assert round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_simulation_is_the_same_on_one_or_two_workers() -> None:
    plan = Plan("mare", ("heuristic", "random", "search"), 6, seed=11, rotate=True, iterations=5)
    one = run(plan, workers=1)
    two = run(plan, workers=2)
    assert one == two
    assert [r.seed for r in one] == [game_seed(11, i) for i in range(6)]
    assert one[1].bots == ("random", "search", "heuristic")


def test_summary_counts_wins_by_seat_and_by_bot() -> None:
    plan = Plan("mare", ("heuristic", "heuristic"), 8, seed=3)
    records = run(plan)
    summary = summarize(plan, records)
    assert sum(rate.wins for rate in summary.seats) + summary.no_winner == 8
    assert summary.bots == (("heuristic", Rate(sum(r.wins for r in summary.seats), 16)),)
    assert summary.events.low <= summary.events.mean <= summary.events.high
    assert summary.commands.mean < summary.events.mean


def test_simulation_plans_are_checked() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        run(Plan("mare", ("random",), 0))
    with pytest.raises(ValueError, match="unknown bot"):
        run(Plan("mare", ("random", "psychic"), 1))
    with pytest.raises(ValueError, match="1 to 6 players"):
        run(Plan("mare", ("random",) * 7, 1))
    with pytest.raises(ValueError, match="workers"):
        run(Plan("mare", ("random",), 1), workers=0)
    with pytest.raises(KeyError, match="unknown game"):
        run(Plan("chess", ("random",), 1))


def test_an_interrupted_simulation_stops_its_workers() -> None:
    before = set(multiprocessing.active_children())
    workers: set[Any] = set()
    plan = Plan("mare", ("search", "heuristic"), 20, seed=1, iterations=2_000)

    def interrupt(record: object) -> None:
        workers.update(set(multiprocessing.active_children()) - before)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(plan, workers=2, on_done=interrupt)
    # On a loaded machine the second worker may not have been seen yet when the first game ends;
    # every worker that was seen must have been stopped, not left to finish its queued games
    # (that would take minutes and end with exit code 0). The workers start from a clean server
    # process, so none inherits a handler of this one's (Ray's SIGTERM handler exits cleanly).
    # That server reports a worker's exit code once: when the pool's own thread joins the worker
    # at the same moment as this one, the second reader finds the report gone and records 255
    # (multiprocessing's popen_forkserver), though the worker ended by the signal all the same.
    assert 1 <= len(workers) <= 2
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode in (-signal.SIGTERM, -signal.SIGKILL, 255)


KIT = attrs.evolve(kit_for(MARE), sampler=None)
"""Avanti mare!'s kit without its sampler: a game that offers none."""


class _Plain(GameInfo):
    """Avanti mare! under another name, with :data:`KIT` as its kit."""

    def load_kit(self) -> GameKit:
        return KIT


def test_a_game_without_a_sampler_has_no_search_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _Plain(
        name="plain",
        title=MARE.title,
        package=MARE.package,
        min_players=MARE.min_players,
        max_players=MARE.max_players,
        default_players=MARE.default_players,
    )
    monkeypatch.setitem(GAMES, "plain", plain)
    setup = new_game(["Ann", "Bob"], seed=0).setup
    assert type(make_bot("heuristic", plain, setup, 0)) is MareBot
    with pytest.raises(ValueError, match="offers no sampler of hidden states"):
        make_bot("search", plain, setup, 0)
    with pytest.raises(ValueError, match="has no search bot"):
        run(Plan("plain", ("search", "random"), 1))
