"""An agent that learns Avanti mare!: a small policy gradient (REINFORCE) in numpy.

The only real choice in Avanti mare! comes after a free fish's colour: move one of the fish
still in the river, or decline (M6); everything else is a roll (M3). The agent scores each of
the six action ids with a linear function of the seat's observation (the game's encoding,
:mod:`avanti.mare.encoding`), one set of weights per side (M2), and picks among the legal ones
by a softmax. It trains against the random bot, in either seat, with REINFORCE: after each
game, every choice it made moves its weights along ``(return - baseline) * grad log pi``, the
baseline being the side's running mean return.

Then it plays fresh games against the random bot and against the heuristic bot (exact odds,
:class:`avanti.mare.bots.MareBot`), seats alternating, and prints each win rate with a 95%
Wilson interval beside what the random and the heuristic bot themselves score against the same
opponent on the same seeds.

Run as it is, it trains a few hundred games (the documentation build's check that it works);
``--minutes 3`` is the run on the docs page, and ``--plot FILE.png`` draws the learning curve
(needs matplotlib, the ``plot`` extra). Needs numpy (the ``rl`` extra).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

try:
    import numpy as np
except ImportError:  # pragma: no cover - the examples session installs numpy
    print("skipped: this example needs numpy (pip install 'avanti[rl]')")
    sys.exit(0)

from avanti import mare
from avanti.bots.simulate import wilson
from avanti.core.bots import RandomBot
from avanti.core.rng import Stream
from avanti.mare.bots import MareBot

PLAYERS = ("Ann", "Bob")
"""Two seats: the default sides put one on each side (M2)."""

Chooser = Callable[[Any, int, Sequence[Any], Stream], Any]
"""A player: (game, seat, legal commands, generator) -> command."""


class Agent:
    """A linear softmax policy over the six action ids, one weight matrix per side."""

    def __init__(self, encoding: Any, rate: float, seed: int) -> None:
        self.encoding = encoding
        self.rate = rate
        size = encoding.observation_size + 1  # and a bias
        self.weights = np.zeros((2, encoding.num_actions, size))
        self.baseline = np.zeros(2)
        self.random = np.random.default_rng(seed)
        self.trace: list[tuple[int, Any, Any, int]] = []

    def policy(self, side: int, features: Any, legal: list[int]) -> Any:
        """The probabilities of the legal action ids."""
        scores = self.weights[side][legal] @ features
        scores -= scores.max()
        odds = np.exp(scores)
        return odds / odds.sum()

    def features(self, game: Any, seat: int) -> Any:
        """The seat's observation and a constant 1."""
        return np.append(np.asarray(self.encoding.observation(game.view(seat))), 1.0)

    def choose(self, game: Any, seat: int, commands: Sequence[Any], rng: Stream) -> Any:
        """A choice drawn from the policy (remembered for learning); forced moves as they are."""
        if len(commands) == 1:
            return commands[0]
        side = _side(game, seat)
        features = self.features(game, seat)
        legal = [self.encoding.action_id(c) for c in commands]
        pick = int(self.random.choice(len(legal), p=self.policy(side, features, legal)))
        self.trace.append((side, features, legal, pick))
        return commands[pick]

    def best(self, game: Any, seat: int, commands: Sequence[Any], rng: Stream) -> Any:
        """The policy's likeliest choice (how it plays once trained)."""
        if len(commands) == 1:
            return commands[0]
        side = _side(game, seat)
        legal = [self.encoding.action_id(c) for c in commands]
        return commands[int(np.argmax(self.policy(side, self.features(game, seat), legal)))]

    def learn(self, reward: float) -> None:
        """One REINFORCE step over the choices of the game just played."""
        for side, features, legal, pick in self.trace:
            advantage = reward - self.baseline[side]
            gradient = -self.policy(side, features, legal)
            gradient[pick] += 1.0
            self.weights[side][legal] += self.rate * advantage * np.outer(gradient, features)
        for side in {side for side, *_ in self.trace}:
            self.baseline[side] += 0.01 * (reward - self.baseline[side])
        self.trace.clear()


def _side(game: Any, seat: int) -> int:
    return 0 if game.setup.sides[seat] is mare.Side.FISH_FRIENDS else 1


def play(seed: int, players: Sequence[Chooser]) -> tuple[float, ...]:
    """One game of the rulebook's reading, ``players[seat]`` choosing for each seat."""
    game = mare.new_game(list(PLAYERS), seed=seed)
    rng = Stream(seed, 1 << 40)
    while not game.is_over:
        seat = game.waiting[0]
        game = game.execute(players[seat](game, seat, game.legal_commands(seat), rng))
    outcome = game.outcome
    assert outcome is not None  # the game is over (M8)
    return tuple(float(value) for value in outcome.returns)


def bot(kind: Any) -> Chooser:
    """A library bot as a player: it sees only its seat's view."""

    def choose(game: Any, seat: int, commands: Sequence[Any], rng: Stream) -> Any:
        return kind(seat).choose(game.view(seat), commands, rng)

    return choose


def win_rate(player: Chooser, opponent: Chooser, games: int, seed: int) -> tuple[int, int]:
    """Wins of ``player`` in ``games`` games against ``opponent``, seats alternating."""
    wins = 0
    for g in range(games):
        seat = g % 2
        seats = [opponent, opponent]
        seats[seat] = player
        wins += play(seed + g, seats)[seat] == 1.0
    return wins, games


def main(argv: list[str] | None = None) -> int:
    """Train, evaluate, print the figures (and draw the curve)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=0.0, help="train this long")
    parser.add_argument("--games", type=int, default=300, help="training games without --minutes")
    parser.add_argument("--evaluate", type=int, default=100, help="evaluation games per opponent")
    parser.add_argument("--every", type=int, default=100, help="games between curve points")
    parser.add_argument("--curve", type=int, default=50, help="evaluation games per curve point")
    parser.add_argument("--rate", type=float, default=0.02, help="learning rate")
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    args = parser.parse_args(argv)

    encoding = mare.encoding(mare.new_game(list(PLAYERS), seed=0).public_setup)
    agent = Agent(encoding, args.rate, seed=1)
    random_bot = bot(lambda seat: RandomBot())
    heuristic = bot(MareBot)
    deadline = time.monotonic() + args.minutes * 60
    wins, games = win_rate(agent.best, random_bot, args.curve, 5_000_000)
    curve: list[tuple[int, float]] = [(0, wins / games)]
    played = 0
    while (time.monotonic() < deadline) if args.minutes else played < args.games:
        seat = played % 2
        seats: list[Chooser] = [random_bot, random_bot]
        seats[seat] = agent.choose
        agent.learn(play(10_000_000 + played, seats)[seat])
        played += 1
        if played % args.every == 0:
            wins, games = win_rate(agent.best, random_bot, args.curve, 5_000_000)
            curve.append((played, wins / games))
    print(f"trained on {played} games against the random bot")
    print("\n| player | opponent | games | wins | win rate | 95% Wilson interval |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for name, player in (("learned", agent.best), ("random", random_bot), ("heuristic", heuristic)):
        for against, opponent in (("random", random_bot), ("heuristic", heuristic)):
            wins, games = win_rate(player, opponent, args.evaluate, 0)
            low, high = wilson(wins, games)
            print(
                f"| {name} | {against} | {games} | {wins} | {wins / games:.3f} |"
                f" {low:.3f} to {high:.3f} |"
            )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(6.4, 3.4))
        axes.plot([x for x, _ in curve], [y for _, y in curve], marker="o", label="learned policy")
        references = (("random bot", random_bot, ":"), ("heuristic", heuristic, "--"))
        for name, player, style in references:
            wins, games = win_rate(player, random_bot, args.curve, 5_000_000)
            axes.axhline(wins / games, linestyle=style, color="grey", label=name)
        axes.set_ylim(0.35, 0.50)
        axes.legend(loc="lower right")
        axes.set_xlabel("training games")
        axes.set_ylabel(f"win rate against random ({args.curve} games)")
        axes.set_title("REINFORCE on Avanti mare! (two seats, rulebook reading)")
        axes.grid(alpha=0.3)
        figure.tight_layout()
        figure.savefig(args.plot, dpi=120)
        print(f"\nlearning curve written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
