"""The learning tools' cost beside the library's own loop and beside the ecosystem's games.

Run with ``python -m nox -s rlbench`` (or ``python benchmarks/rl.py`` with ``.[rl]`` installed).
In one run, for every game of the catalog:

- random playouts through ``pyspiel`` with explicit chance nodes and in the sampled mode
  (``chance="sampled"``), against the plain loop (``Game.legal_commands`` and
  ``Game.execute``), and OpenSpiel's ``python_kuhn_poker`` and ``python_block_dominoes`` under
  the same loop; the ratio is the cost of a player's action in the playout over the cost of a
  command in the plain loop (the loops play different games, chance drawn by different
  generators), and the microseconds per step count every action applied, chance outcomes
  included, so that a game's figure stands beside OpenSpiel's own games';
- PettingZoo steps per second (``env.last()`` and ``env.step``, random legal actions from the
  mask) against the plain loop's commands per second, against the plain loop that also
  encodes each step's observation (what an environment must hand its agent), against
  PettingZoo's own floor (an env that does nothing, in the same wrapper: :func:`floor_env`), and
  PettingZoo's ``texas_holdem_v4`` and ``connect_four_v3`` under the same loop (each left
  out, and said so, where its package cannot be imported);
- OpenSpiel's MCTS bot (100 simulations, random rollouts) playing whole games of Avanti mare!;
  with ``--baseline DIR`` (a checkout of an older commit) the same games of that code too, game
  by game in turns, each in a fresh process; with ``--mcts-split`` where the search's time goes
  (the game's Python callbacks, the rules inside them, and OpenSpiel's own code around them).

Each repeat times the loops back to back, so the machine's drift cancels out of the ratios; the
figures are CPU time of this process. Nothing here asserts a time: the report prints the ratios
and the targets, and says which it meets.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

PLAYERS = {"avanti": 4, "mare": 3, "autorama": 4}
"""Players per game in every measurement."""

EXPLICIT_TARGET = 2.0
"""A pyspiel playout with explicit chance may cost at most this many plain loops."""
SAMPLED_TARGET = 1.2
"""A pyspiel playout in the sampled mode may cost at most this many plain loops."""
STEP_TARGET = 1.3
"""A PettingZoo step may cost at most this many plain-loop commands."""

SAMPLED_SEED = 2026
"""The sampled mode's seed of seeds: every run plays the same games."""

clock = time.process_time


def plain_loop(name: str, players: int, *, observe: bool = False) -> Callable[[int], int]:
    """One random game through the library alone; returns the commands executed. With
    ``observe``, each step also encodes the acting seat's view as a ``float32`` array, as an
    environment's observation (the encoding's ``observation``)."""
    import numpy as np

    from avanti.catalog import game_info
    from avanti.core.rng import Stream

    info = game_info(name)
    package = info.load()
    names = list(info.player_names(players))
    encoding = package.encoding(package.new_game(names, seed=0).public_setup)

    def play(seed: int) -> int:
        game = package.new_game(names, seed=seed)
        picks = Stream(seed, 1 << 40)
        steps = 0
        while not game.is_over:
            seat = game.waiting[0]
            if observe:
                np.array(encoding.observation(game.view(seat)), np.float32)
            commands = game.legal_commands(seat)
            game = game.execute(commands[picks.below(len(commands))])
            steps += 1
        return steps

    return play


def spiel_loop(game: Any, *, every: bool = False) -> Callable[[int], int]:
    """One random playout of an OpenSpiel game (chance drawn by its probabilities, choices
    by the same generator as the plain loop's); returns the players' actions (with ``every``,
    every action applied, chance outcomes included)."""

    from avanti.core.rng import Stream

    def play(seed: int) -> int:
        pick = Stream(seed, 1 << 40)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = pick.below(1 << 53) / (1 << 53)
                action = outcomes[-1][0]
                for outcome, probability in outcomes:
                    r -= probability
                    if r < 0:
                        action = outcome
                        break
                steps += every
            else:
                actions = state.legal_actions()
                action = actions[pick.below(len(actions))]
                steps += 1
            state.apply_action(action)
        return steps

    return play


def zoo_loop(env: Any) -> Callable[[int], int]:
    """One random episode of a PettingZoo AEC env (legal actions from the mask); returns the
    steps that carried an action."""
    import numpy as np

    from avanti.core.rng import Stream

    def play(seed: int) -> int:
        pick = Stream(seed, 1 << 40)
        env.reset(seed=seed)
        steps = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[pick.below(len(legal))]))
            steps += 1
        return steps

    return play


def timed(play: Callable[[int], int], games: int, seed: int) -> tuple[float, int]:
    """CPU seconds and steps of ``games`` games from seeds ``seed, seed + 1, ...``."""
    start = clock()
    steps = sum(play(seed + g) for g in range(games))
    return clock() - start, steps


def compare(loops: dict[str, Callable[[int], int]], games: int, repeats: int) -> dict[str, Any]:
    """Every loop ``games`` games per repeat, back to back; the median seconds per game and
    per step of each."""
    times: dict[str, list[float]] = {key: [] for key in loops}
    per_step: dict[str, list[float]] = {key: [] for key in loops}
    for play in loops.values():
        play(10_000)  # warm up caches (a table's encoding, OpenSpiel's registration)
    for r in range(repeats):
        for key, play in loops.items():
            seconds, steps = timed(play, games, 1 + r * games)
            times[key].append(seconds / games)
            per_step[key].append(seconds / max(steps, 1))
    return {key: (statistics.median(times[key]), statistics.median(per_step[key])) for key in loops}


def ecosystem_envs() -> dict[str, Any]:
    """PettingZoo's classic envs that import here, by name (a reason in place of those that
    do not)."""
    envs: dict[str, Any] = {}
    for name in ("texas_holdem_v4", "connect_four_v3"):
        try:
            module = __import__(f"pettingzoo.classic.{name}", fromlist=["env"])
            envs[name] = module.env()
        except Exception as error:  # a missing optional package (rlcard, pygame)
            envs[name] = f"not installed here ({type(error).__name__}: {error})"
    return envs


FLOOR_LENGTH = 30
"""Steps of each episode of :func:`floor_env`."""


def floor_env() -> Any:
    """PettingZoo's own cost per step: an AEC env of two agents whose rules, observation and
    mask cost nothing (the same arrays every step, every action legal, the episode over after
    :data:`FLOOR_LENGTH` steps), wrapped in ``OrderEnforcingWrapper`` as ``env()`` wraps the
    games. Under :func:`zoo_loop` it times the loop, ``last``, the wrapper's forwarding and the
    rewards' bookkeeping alone: what no environment under that wrapper can go below."""
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector, wrappers

    class Floor(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
        metadata: ClassVar[dict[str, Any]] = {
            "name": "floor_v0",
            "render_modes": [],
            "is_parallelizable": False,
        }

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["player_0", "player_1"]
            self._seen = {
                "observation": np.zeros(8, np.float32),
                "action_mask": np.ones(4, np.int8),
            }
            self._space = spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (8,), np.float32),
                    "action_mask": spaces.Box(0, 1, (4,), np.int8),
                }
            )

        def observation_space(self, agent: str) -> Any:
            return self._space

        def action_space(self, agent: str) -> Any:
            return spaces.Discrete(4)

        def observe(self, agent: str) -> Any:
            return self._seen

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self._selector = AgentSelector(self.agents)
            self.agent_selection = self._selector.next()
            self.steps = 0

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self.steps += 1
            self._cumulative_rewards[agent] = 0.0
            if self.steps >= FLOOR_LENGTH:
                self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self._selector.next()
            self._accumulate_rewards()

    return wrappers.OrderEnforcingWrapper(Floor())


def sampled_game(name: str, players: int) -> Any:
    """The game in the sampled mode, or ``None`` where this version has none."""
    import avanti.rl as rl

    try:
        return rl.load_game(name, players, chance="sampled", seed=SAMPLED_SEED)
    except TypeError:
        return None


def mcts_game(g: int, simulations: int, players: int = 2) -> float:
    """CPU seconds of game ``g`` of Avanti mare! between MCTS bots (``simulations``
    simulations, one random rollout a leaf, UCT constant 2), everything drawn from seed ``g``."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    import avanti.rl as rl

    game = rl.load_game("mare", players)
    rng = np.random.RandomState(g)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
    state = game.new_initial_state()
    start = clock()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(bot.step(state))
    return clock() - start


def mcts_seconds(games: int, simulations: int, players: int = 2) -> float:
    """CPU seconds per game of Avanti mare! between MCTS bots, games 0, 1, ... (see
    :func:`mcts_game`)."""
    return sum(mcts_game(g, simulations, players) for g in range(games)) / games


def mcts_in_turns(baseline: str, games: int, simulations: int) -> tuple[list[float], list[float]]:
    """The MCTS games of this code and of the source tree ``baseline`` (its ``src`` on the
    path), game by game in turns, each in a fresh process: the CPU seconds of each."""
    here = str(__import__("pathlib").Path(__file__).resolve().parents[1] / "src")
    there = os.path.join(os.path.abspath(baseline), "src")
    ours: list[float] = []
    theirs: list[float] = []
    for g in range(games):
        for src, into in ((there, theirs), (here, ours)):
            env = {**os.environ, "PYTHONPATH": src}
            args = [sys.executable, __file__, "--mcts-one", str(g), "--simulations"]
            out = subprocess.run(
                [*args, str(simulations)], env=env, capture_output=True, text=True, check=True
            )
            into.append(float(out.stdout.split()[-1]))
    return ours, theirs


def mcts_split(games: int, simulations: int) -> dict[str, float]:
    """Where the MCTS games' CPU time goes, in seconds per game: ``callbacks`` (every method
    of the game's state and game OpenSpiel calls), ``rules`` (``Game.execute`` and
    ``Game.legal_commands`` inside them) and ``openspiel`` (the rest: the bot's own Python,
    numpy's draws, the calls from C++). Each callback is timed, less the timer's own cost
    measured beforehand, so the shares are estimates to a few per cent."""
    from avanti.core.game import Game
    from avanti.rl import openspiel

    spent = {"callbacks": 0.0, "rules": 0.0}
    calls = {"callbacks": 0, "rules": 0}
    inside = {"callbacks": False, "rules": False}

    def timing(owner: Any, name: str, bucket: str) -> None:
        method = getattr(owner, name)

        def timed_method(*args: Any, **kwargs: Any) -> Any:
            if inside[bucket]:
                return method(*args, **kwargs)
            inside[bucket] = True
            start = clock()
            try:
                return method(*args, **kwargs)
            finally:
                spent[bucket] += clock() - start
                calls[bucket] += 1
                inside[bucket] = False

        setattr(owner, name, timed_method)

    class Empty:
        def nothing(self) -> None:
            """Nothing: the timer's own cost."""

    timing(Empty, "nothing", "rules")
    empty = Empty()
    start = clock()
    for _ in range(100_000):
        empty.nothing()
    cost = (clock() - start) / 100_000
    spent["rules"], calls["rules"] = 0.0, 0
    for name in ("execute", "legal_commands"):
        timing(Game, name, "rules")
    state = openspiel.AvantiState
    for name in ("_apply_action", "legal_actions", "_legal_actions", "is_terminal"):
        timing(state, name, "callbacks")
    for name in ("is_chance_node", "chance_outcomes", "current_player", "returns"):
        timing(state, name, "callbacks")
    timing(openspiel.AvantiGame, "new_initial_state", "callbacks")
    total = sum(mcts_game(g, simulations) for g in range(games))
    total -= (calls["callbacks"] + calls["rules"]) * cost
    callbacks = spent["callbacks"] - calls["callbacks"] * cost
    rules = spent["rules"] - calls["rules"] * cost
    return {
        "total": total / games,
        "callbacks": callbacks / games,
        "rules": rules / games,
        "openspiel": (total - callbacks) / games,
    }


def main(argv: list[str] | None = None) -> int:
    """Measure, print the tables in Markdown, and say which targets are met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per loop and repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (the median is shown)")
    parser.add_argument("--mcts-games", type=int, default=3, help="games of mare for MCTS")
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations")
    parser.add_argument("--baseline", help="a source tree whose MCTS games run in turns too")
    parser.add_argument("--mcts-split", action="store_true", help="where MCTS's time goes")
    parser.add_argument("--mcts-one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mcts_one is not None:  # one game, for --baseline's turns
        print(f"{mcts_game(args.mcts_one, args.simulations):.4f}")
        return 0

    import pyspiel
    from open_spiel.python.games import block_dominoes, kuhn_poker  # noqa: F401 (registers)

    import avanti.rl as rl

    print(f"Python {sys.version.split()[0]}, {args.games} games x {args.repeats} repeats")
    met: list[bool] = []
    print(
        "\n| game | plain loop games/s | pyspiel explicit | ratio | pyspiel sampled | ratio |"
        " plain loop µs/command | explicit µs/step | sampled µs/step |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, players in PLAYERS.items():
        loops = {
            "plain": plain_loop(name, players),
            "explicit": spiel_loop(rl.load_game(name, players)),
            "explicit, every": spiel_loop(rl.load_game(name, players), every=True),
        }
        sampled = sampled_game(name, players)
        if sampled is not None:
            loops["sampled"] = spiel_loop(sampled)
        figures = compare(loops, args.games, args.repeats)
        plain, plain_step = figures["plain"]
        # the cost of a player's action against a command's: the loops play different games
        # (the playouts draw chance from the picks' generator), whose lengths differ
        explicit = figures["explicit"][1] / plain_step
        met.append(explicit <= EXPLICIT_TARGET)
        row = f"| {name} ({players}) | {1 / plain:.1f} | {1 / figures['explicit'][0]:.1f}"
        row += f" | {explicit:.2f}x |"
        every = f" {figures['explicit, every'][1] * 1e6:.1f} |"
        if "sampled" in figures:
            ratio = figures["sampled"][1] / plain_step
            met.append(ratio <= SAMPLED_TARGET)
            row += f" {1 / figures['sampled'][0]:.1f} | {ratio:.2f}x |"
            every += f" {figures['sampled'][1] * 1e6:.1f} |"
        else:
            row += " none | - |"
            every += " - |"
        print(f"{row} {plain_step * 1e6:.1f} |{every}")
    yard = compare(
        {
            key: spiel_loop(pyspiel.load_game(key), every=True)
            for key in ("python_kuhn_poker", "python_block_dominoes")
        },
        args.games * 10,
        args.repeats,
    )
    for key, (seconds, step) in yard.items():
        print(f"| {key} (same loop) | | {1 / seconds:.1f} | | | | | {step * 1e6:.1f} | |")

    print(
        "\n| environment | steps/s | plain loop commands/s | cost per step |"
        " plain loop with the observation | ratio | PettingZoo's floor alone |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, players in PLAYERS.items():
        figures = compare(
            {
                "plain": plain_loop(name, players),
                "observed": plain_loop(name, players, observe=True),
                "zoo": zoo_loop(rl.env(name, players)),
                "floor": zoo_loop(floor_env()),
            },
            args.games,
            args.repeats,
        )
        ratio = figures["zoo"][1] / figures["plain"][1]
        observed = figures["observed"][1] / figures["plain"][1]
        floor = figures["floor"][1] / figures["plain"][1]
        met.append(ratio <= STEP_TARGET)
        print(
            f"| {name} ({players}) | {1 / figures['zoo'][1]:.0f} |"
            f" {1 / figures['plain'][1]:.0f} | {ratio:.2f}x |"
            f" {1 / figures['observed'][1]:.0f} | {observed:.2f}x | {floor:.2f}x |"
        )
    floor_loop = {"floor": zoo_loop(floor_env())}
    seconds, step = compare(floor_loop, args.games * 10, args.repeats)["floor"]
    floor_row = "PettingZoo's floor (an env that does nothing, same loop)"
    print(f"| {floor_row} | {1 / step:.0f} | | | | | |")
    for key, env in ecosystem_envs().items():
        if isinstance(env, str):
            print(f"| {key} | {env} | | | | | |")
            continue
        seconds, step = compare({key: zoo_loop(env)}, args.games * 10, args.repeats)[key]
        print(f"| {key} (same loop) | {1 / step:.0f} | | | | | |")

    if args.mcts_games:
        seconds = mcts_seconds(args.mcts_games, args.simulations)
        print(
            f"\nMCTS ({args.simulations} simulations, random rollouts), Avanti mare! for two:"
            f" {seconds:.2f} s per game"
        )
    if args.mcts_games and args.baseline:
        ours, theirs = mcts_in_turns(args.baseline, args.mcts_games, args.simulations)
        mine, old = statistics.mean(ours), statistics.mean(theirs)
        print(
            f"MCTS in turns, each game in a fresh process: {mine:.2f} s per game here,"
            f" {old:.2f} s for {args.baseline}: {old / mine:.2f}x as fast"
        )
    if args.mcts_games and args.mcts_split:
        split = mcts_split(args.mcts_games, args.simulations)
        print(
            f"MCTS's time per game: {split['total']:.2f} s, of which the game's callbacks"
            f" {split['callbacks']:.2f} s (the rules inside them {split['rules']:.2f} s) and"
            f" OpenSpiel's own code {split['openspiel']:.2f} s"
        )
    print(
        f"\ntargets (explicit <= {EXPLICIT_TARGET}x, sampled <= {SAMPLED_TARGET}x, step <="
        f" {STEP_TARGET}x): {sum(met)} of {len(met)} met"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
