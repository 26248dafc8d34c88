"""Every game of the catalog as a PettingZoo AEC environment: ``avanti.rl.env("mare", players=4)``.

The environment has the shape of PettingZoo's classic games:

- Each is named after its game and version, as ``metadata["name"]``: ``avanti_v1``,
  ``mare_v1``, ``autorama_v1`` (:func:`env_name`), and each has a module of that name with
  ``env`` and ``raw_env`` (``from avanti.rl import mare_v1``).
- :func:`env` wraps the environment as the classic games do, in PettingZoo's
  ``OrderEnforcingWrapper`` (``reset`` before ``step``, no private attribute by accident);
  :func:`raw_env` gives it bare. An illegal action raises the game's own
  :class:`~avanti.core.errors.IllegalCommand`, naming the rule, and changes nothing; with
  ``illegal_reward`` (the classic games' ``-1``), PettingZoo's ``TerminateIllegalWrapper`` ends
  the game instead, that reward to the agent who tried it, as in ``connect_four_v3``.

- Agents ``player_0 .. player_{n-1}`` are the seats. One acts at a time: the lowest seat the game
  waits for, so a simultaneous step (For Sale: Autorama's offers) is played in seat order, each
  seat seeing only its own view.
- ``observation_space(agent)`` is a ``Dict`` of ``observation`` (a ``float32`` ``Box``: the
  encoding's :meth:`~avanti.core.encoding.Encoding.observation` of the seat's view, or with
  ``observation="information"`` its information state) and ``action_mask`` (an ``int8`` ``Box``
  of ``num_actions`` flags, ones at the legal actions of the agent to act, zeros for every other
  agent); ``action_space(agent)`` is ``Discrete(num_actions)``.
- Random results come from the game's own seeded generator: ``reset(seed=s)`` deals the game
  ``new_game(players, seed=s)``, so the same seed and actions give the same game.
- Rewards are zero until the end, then the game's ``outcome.returns`` (1.0 to each winner).
- ``render()`` gives the terminal drawing of the table as a spectator sees it, as text
  (``render_mode="ansi"``), or the SVG picture (``render_mode="svg"``).
"""

from __future__ import annotations

import io
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from avanti.core.errors import InvalidArgument
from avanti.core.limits import new_seed
from avanti.rl.table import Position, Table

__all__ = ["VERSION", "AvantiEnv", "env", "env_name", "raw_env"]

VERSION = 1
"""The environments' version, the ``_v1`` of their names: it changes with anything that can
change an episode (the rules, the encoding, the rewards)."""


def env_name(name: str) -> str:
    """The PettingZoo name of a game's environment: ``"mare_v1"``."""
    return f"{name}_v{VERSION}"


OBSERVATIONS = ("view", "information")
"""What ``observation`` holds: the encoding's observation of the view, or its information
state."""


class AvantiEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A game of the catalog as a PettingZoo AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "svg"],
        "name": env_name("avanti"),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        name: str = "avanti",
        players: int | None = None,
        *,
        observation: str = "view",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if observation not in OBSERVATIONS:
            raise InvalidArgument(f"observation is 'view' or 'information', not {observation!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidArgument(f"render_mode is 'ansi', 'svg' or None, not {render_mode!r}")
        from avanti.catalog import game_info

        info = game_info(name)
        table = Table(name, players or len(info.default_players))
        # each game its own name, as PettingZoo names each of its envs
        self.metadata = {**self.metadata, "name": env_name(info.name)}  # type: ignore[misc]
        self.table = table
        """The game's :class:`~avanti.rl.table.Table`: its package and encoding."""
        self.information = observation == "information"
        self.render_mode = render_mode
        encoding = table.encoding
        size = encoding.information_size if self.information else encoding.observation_size
        self.possible_agents = [f"player_{seat}" for seat in range(table.players)]
        self.agents = self.possible_agents[:]
        self._spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(
                        low=0, high=1, shape=(encoding.num_actions,), dtype=np.int8
                    ),
                }
            )
            for agent in self.possible_agents
        }
        self._actions = {
            agent: spaces.Discrete(encoding.num_actions) for agent in self.possible_agents
        }
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._position: Position | None = None
        self.game: Any = None
        """The core game being played (``None`` before :meth:`reset`)."""

    def observation_space(self, agent: str) -> Any:
        """A ``Dict`` of ``observation`` and ``action_mask`` (see the module)."""
        return self._spaces[agent]

    def action_space(self, agent: str) -> Any:
        """``Discrete(num_actions)``: the encoding's action ids."""
        return self._actions[agent]

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def _now(self) -> Position:
        """The game being played as a table position, with its numbered legal commands
        (:meth:`~avanti.rl.table.Table.moves`) worked out at most once per step."""
        position = self._position
        if position is None or position.game is not self.game:
            position = self._position = Position(self.game, seeded=True)
        return position

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s seat may see, and its action mask (ones only when it is to act)."""
        seat = self._seats[agent]
        table = self.table
        encoding = table.encoding
        game = self.game
        view = game.view(seat)
        if self.information:
            numbers = encoding.information_state(view, game.events_for(seat))
        else:
            numbers = encoding.observation(view)
        mask = np.zeros(encoding.num_actions, np.int8)
        position = self._now()
        if seat == position.seat and agent == self.agent_selection:
            mask[list(table.moves(position))] = 1
        return {"observation": np.array(numbers, np.float32), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game from ``seed`` (a fresh secret seed when left out)."""
        self.game = self.table.new_game(new_seed() if seed is None else seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self._select()

    def _select(self) -> None:
        seat = self._now().seat
        if seat is None:
            self.agent_selection = self._agent_selector.next()
        else:
            self.agent_selection = self.possible_agents[seat]

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to act (``None`` once it is done).

        :raises IllegalCommand: the action is not legal now (the game's own error, naming the
            rule); nothing changes.
        :raises InvalidArgument: ``action`` is no action id (``None`` while the game goes on, or
            out of range).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidArgument(f"{agent} is to act: give an action id, not None")
        # the agent to act is the position's seat: the legal command the id stands for,
        # numbered once (any other id decoded, for the game to refuse)
        command = self.table.command(self._now(), int(action))
        self.game = self.game.execute(command)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards[agent] = 0.0
        if self._now().is_over:
            returns = self.game.outcome.returns
            for other, value in zip(self.possible_agents, returns, strict=True):
                self.rewards[other] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self._agent_selector.reinit(self.agents)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as a spectator sees it: the terminal drawing as text (``"ansi"``) or the
        SVG picture (``"svg"``); ``None`` without a render mode."""
        if self.render_mode is None or self.game is None:
            return None
        if self.render_mode == "svg":
            return str(self.game._repr_svg_())
        drawing = self.table.info.load_drawing()
        if drawing is None:
            return repr(self.game.view(None))
        from rich.console import Console

        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, force_terminal=False)
        console.print(drawing.draw(self.game.setup, self.game.view(None)))
        return out.getvalue()

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    name: str = "avanti",
    players: int | None = None,
    *,
    observation: str = "view",
    render_mode: str | None = None,
) -> AvantiEnv:
    """A PettingZoo AEC environment for the game ``name`` of the catalog, for ``players`` seats
    (the catalog's default table when left out), unwrapped. See :class:`AvantiEnv`.

    :raises UnknownGame: no game of that name.
    :raises InvalidSetup: the game does not take that many players.
    :raises InvalidArgument: an unknown ``observation`` or ``render_mode``, or a game without an
        encoding.
    """
    return AvantiEnv(name, players, observation=observation, render_mode=render_mode)


def env(
    name: str = "avanti",
    players: int | None = None,
    *,
    observation: str = "view",
    render_mode: str | None = None,
    illegal_reward: float | None = None,
) -> Any:
    """:func:`raw_env` wrapped as PettingZoo's classic environments are: in
    ``OrderEnforcingWrapper``, and with ``illegal_reward`` in ``TerminateIllegalWrapper`` too
    (see the module). ``env.unwrapped`` is the :class:`AvantiEnv`.

    :raises UnknownGame: no game of that name.
    :raises InvalidSetup: the game does not take that many players.
    :raises InvalidArgument: an unknown ``observation`` or ``render_mode``, or a game without an
        encoding.
    """
    from pettingzoo.utils import wrappers

    inner: Any = raw_env(name, players, observation=observation, render_mode=render_mode)
    if illegal_reward is not None:
        inner = wrappers.TerminateIllegalWrapper(inner, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(inner)
