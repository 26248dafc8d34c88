"""Head to head: the library's search bot against OpenSpiel's IS-MCTS, at equal time per move.

Not part of the test gate (it takes many minutes): run ``python benchmarks/headtohead.py`` from a
checkout with the ``rl`` extra installed; ``--small`` plays two short games of Avanti mare! in a
few seconds (the gate runs it once).

Both bots play the OpenSpiel form of each game (:mod:`avanti.rl.openspiel`), whose chance nodes
are drawn from a seeded numpy generator, so a run is reproducible up to the time budget.

- **Search** (:class:`avanti.core.search.SearchBot`, the ``search`` kind of
  :func:`avanti.bots.make_bot`) sees its seat's view and legal commands, as in every other match.
- **IS-MCTS** (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, one random rollout per leaf,
  UCT constant 2, inconsistent action sets allowed since a guessed hidden fact can change what is
  legal) resamples states through the game's ``resample_from_infostate``. On a game of perfect
  information (Avanti mare!, whose table is public) there is nothing to resample, and OpenSpiel's
  IS-MCTS refuses such a game: its place is taken by OpenSpiel's MCTS, with the same rollouts and
  constant, named ``MCTS`` in the tables.

Equal time per move: each bot's seconds per iteration are measured as it plays (first on a
game's opening decisions, then after every decision, as a moving average), and each decision
gets the number of iterations that fills ``--budget`` seconds; the seconds each bot really spent
per decision, and its mean iterations, are printed beside the results. A
decision with one legal action is played without asking either bot. Seats rotate from game to
game (game ``i`` puts the search bot in seat ``i % players``, IS-MCTS in the others). Wins are
seat-games whose return is 1.0; the tables print 95% Wilson intervals, ready for
``docs/bots.md``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import avanti.rl as rl
from avanti.bots.kit import make_bot
from avanti.bots.simulate import wilson
from avanti.catalog import game_info
from avanti.core.rng import Rng
from avanti.rl.openspiel import AvantiGame, AvantiState

MATCHES: tuple[tuple[str, int, int], ...] = (
    ("mare", 2, 200),
    ("autorama", 3, 60),
    ("avanti", 3, 60),
)
"""Each match of the full run: the game, its players, and how many games."""
SMALL: tuple[tuple[str, int, int], ...] = (("mare", 2, 2),)
"""The ``--small`` run."""


class Player:
    """One side of the match: picks an action for a state with a number of iterations, which
    follows its measured time per iteration so that a decision takes ``budget`` seconds."""

    def __init__(self, name: str, pick: Callable[[AvantiState, int], int], budget: float) -> None:
        self.name = name
        self.pick = pick
        self.budget = budget
        self.iterations = 4
        self.per_iteration = 0.0
        self.seconds = 0.0
        self.decisions = 0
        self.used = 0

    def act(self, state: AvantiState) -> int:
        """The chosen action; its time is added to the tally and steers the next budget."""
        start = time.perf_counter()
        action = self.pick(state, self.iterations)
        spent = time.perf_counter() - start
        self.seconds += spent
        self.decisions += 1
        self.used += self.iterations
        measured = spent / self.iterations
        self.per_iteration = (
            measured if not self.per_iteration else 0.7 * self.per_iteration + 0.3 * measured
        )
        self.iterations = max(2, round(self.budget / self.per_iteration))  # IS-MCTS needs 2
        return action


def search_player(game: AvantiGame, seed: int, budget: float) -> Player:
    """The library's search bot, with the iterations of the moment."""
    table = game.table
    stream = Rng(seed, 1 << 40).stream()

    def pick(state: AvantiState, iterations: int) -> int:
        position = state.position
        seat = int(state.current_player())
        bot = make_bot("search", table.info, position.game.setup, seat, iterations=iterations)
        legal = table.legal_commands(position)
        command = bot.choose(position.game.view(seat), legal, stream)
        return table.encoding.action_id(command)

    return Player("search", pick, budget)


def ismcts_player(game: AvantiGame, seed: int, budget: float) -> Player:
    """OpenSpiel's IS-MCTS, with the simulations of the moment (its MCTS on a game of perfect
    information)."""
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION

    def plan(state: AvantiState, iterations: int) -> int:
        bot = mcts.MCTSBot(game, 2.0, iterations, evaluator, random_state=random_state)
        return int(bot.step(state))

    if perfect:
        return Player("MCTS", plan, budget)

    def pick(state: AvantiState, iterations: int) -> int:
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=2.0,
            max_simulations=iterations,
            random_state=random_state,
            allow_inconsistent_action_sets=True,
        )
        return int(bot.step(state))

    return Player("IS-MCTS", pick, budget)


def play(game: AvantiGame, seats: list[Player], seed: int) -> list[float]:
    """One game with ``seats[i]`` playing seat ``i``; the returns."""
    state = game.new_initial_state()
    chance = np.random.RandomState(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.randint(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        state.apply_action(seats[state.current_player()].act(state))
    return [float(value) for value in state.returns()]


def calibrate(game: AvantiGame, players: list[Player], seed: int) -> None:
    """A first measure of each player's time per iteration, over the first decisions of a
    game played against itself."""
    for player in players:
        seats = [player] * game.num_players()
        state = game.new_initial_state()
        chance = np.random.RandomState(seed)
        decisions = 0
        while not state.is_terminal() and decisions < 6:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[chance.randint(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            state.apply_action(seats[state.current_player()].act(state))
            decisions += 1
        player.seconds, player.decisions, player.used = 0.0, 0, 0


def match(name: str, players: int, games: int, budget: float, seed: int) -> str:
    """One match as Markdown table rows, after the time per move is matched."""
    game = rl.load_game(name, players)
    search = search_player(game, seed, budget)
    other = ismcts_player(game, seed, budget)
    calibrate(game, [search, other], seed)
    wins = {search.name: 0, other.name: 0}
    seat_games = {search.name: 0, other.name: 0}
    for index in range(games):
        seats = [search if seat == index % players else other for seat in range(players)]
        returns = play(game, seats, seed + index)
        for player, value in zip(seats, returns, strict=True):
            seat_games[player.name] += 1
            wins[player.name] += value == 1.0
    title = game_info(name).title
    rows = []
    for player in (search, other):
        n, w = seat_games[player.name], wins[player.name]
        low, high = wilson(w, n)
        per_move = player.seconds / max(player.decisions, 1) * 1000
        iterations = player.used / max(player.decisions, 1)
        rows.append(
            f"| {title} | {players} | {player.name} | {iterations:.0f} | {player.decisions} "
            f"| {per_move:.0f} ms "
            f"| {n} | {w} | {w / n:.1%} | {low:.1%} - {high:.1%} |"
        )
    return "\n".join(rows)


HEADER = (
    "| Game | Players | Bot | Mean iterations | Decisions | Time per decision | Seat-games | Wins "
    "| Win rate | 95% CI (Wilson) |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
)


def main(argv: list[str] | None = None) -> None:
    """Run the matches and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="two short games of mare only")
    parser.add_argument("--budget", type=float, default=None, help="seconds per move")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--game", default=None, help="play only this game's match")
    args = parser.parse_args(argv)
    budget = args.budget if args.budget is not None else (0.005 if args.small else 0.1)
    matches = SMALL if args.small else MATCHES
    print(f"Search bot against OpenSpiel IS-MCTS, {budget * 1000:.0f} ms per move each.\n")
    print(HEADER, flush=True)
    started = time.perf_counter()
    for name, players, games in matches:
        if args.game is None or args.game == name:
            print(match(name, players, games, budget, args.seed), flush=True)
    print(f"\n{time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
