"""PettingZoo's own checks on every game and table size, and what the environment shows."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import avanti.rl as rl
from avanti import mare
from avanti.core.errors import IllegalCommand, InvalidArgument, UnknownGame
from tests.rl.conftest import tables


@pytest.mark.parametrize(("name", "players"), tables())
def test_pettingzoo_api_and_seed_tests_pass(name: str, players: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about any Dict observation space, its classic games' shape too.
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.env(name, players), num_cycles=300)
        seed_test(lambda: rl.env(name, players), num_cycles=50)
        api_test(rl.raw_env(name, players), num_cycles=100)


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_each_env_is_named_after_its_game_and_wrapped_as_the_classic_games(name: str) -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper, TerminateIllegalWrapper

    import avanti.rl.autorama_v1
    import avanti.rl.avanti_v1
    import avanti.rl.mare_v1
    from avanti.rl.aec import AvantiEnv

    module = {
        "avanti": avanti.rl.avanti_v1,
        "mare": avanti.rl.mare_v1,
        "autorama": avanti.rl.autorama_v1,
    }[name]
    wrapped = module.env()
    assert isinstance(wrapped, OrderEnforcingWrapper)
    assert isinstance(wrapped.unwrapped, AvantiEnv)
    assert wrapped.metadata["name"] == f"{name}_v1"
    assert module.raw_env().metadata["name"] == f"{name}_v1"
    assert isinstance(module.env(illegal_reward=-1).env, TerminateIllegalWrapper)
    with pytest.raises(AssertionError, match="reset"):  # OrderEnforcingWrapper: reset first
        wrapped.step(0)


def test_the_classic_illegal_move_wrapper_ends_the_game_with_its_reward() -> None:
    env = rl.env("mare", 2, illegal_reward=-1)
    env.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        env.step(5)  # SkipMove with no move offered (M6)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards["player_0"] == -1
    assert env.unwrapped.game.version == 0  # the game itself refused nothing, ran nothing


def test_m3_the_environment_plays_the_seeded_game() -> None:
    env = rl.env("mare", 2)
    env.reset(seed=5)
    game = mare.new_game(["Ann", "Bob", "Cy"][:2], seed=5)
    assert env.agent_selection == "player_0"
    observation = env.observe("player_0")
    assert observation["action_mask"].tolist() == [1, 0, 0, 0, 0, 0]  # only Roll (M3)
    assert env.observe("player_1")["action_mask"].tolist() == [0] * 6
    enc = mare.encoding(game.public_setup)
    assert observation["observation"].tolist() == enc.observation(game.view(0))
    env.step(0)
    assert env.game.events == game.execute(mare.Roll(0)).events


def test_rewards_are_the_games_returns() -> None:
    env = rl.env("mare", 2)
    env.reset(seed=11)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    expected = mare.new_game(["Ann", "Bob"], seed=11)
    while not expected.is_over:
        expected = expected.execute(expected.legal_commands()[0])
    assert expected.outcome is not None
    assert list(totals.values()) == list(expected.outcome.returns)


def test_information_observations_and_renderings() -> None:
    env = rl.env("mare", 2, observation="information", render_mode="ansi")
    env.reset(seed=1)
    assert env.observe("player_0")["observation"].shape == (3 * 2 + 77,)
    text = env.render()
    assert text is not None
    assert "6:BOYP" in text  # every fish on piece 6 (M1)
    svg = rl.env("mare", 2, render_mode="svg")
    svg.reset(seed=1)
    picture = svg.render()
    assert picture is not None
    assert picture.startswith("<svg")


def test_bad_arguments_and_illegal_actions_are_refused() -> None:
    with pytest.raises(UnknownGame):
        rl.env("chess")
    with pytest.raises(InvalidArgument, match="observation"):
        rl.env("mare", observation="board")
    with pytest.raises(InvalidArgument, match="render_mode"):
        rl.env("mare", render_mode="human")
    env = rl.raw_env("mare", 2)
    env.reset(seed=1)
    with pytest.raises(IllegalCommand) as error:
        env.step(5)  # SkipMove with no move offered (M6)
    assert error.value.rule == "M6"
    with pytest.raises(InvalidArgument, match="not None"):
        env.step(None)
    with pytest.raises(InvalidArgument, match="0 to 5"):
        env.step(6)
    assert env.game.version == 0


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_the_mask_and_the_steps_equal_the_game_played_alongside(name: str) -> None:
    env = rl.env(name)
    env.reset(seed=11)
    inner = env.unwrapped
    enc = inner.table.encoding
    game = inner.table.new_game(11)  # the same deal, played by the library alone
    rng = np.random.default_rng(2)
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = int(agent.removeprefix("player_"))
        legal = game.legal_commands(seat)
        assert list(observation["action_mask"]) == enc.mask(legal)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        game = game.execute(enc.command(action, seat))
        assert inner.game.events == game.events
    assert game.is_over
