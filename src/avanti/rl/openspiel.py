"""Every game of the catalog as an OpenSpiel Python game: ``pyspiel.load_game("avanti_mare")``.

Importing this module registers each game of :mod:`avanti.catalog` with
``pyspiel.register_game`` under the short name ``avanti_<name>`` (``avanti_avanti``,
``avanti_mare``, ``avanti_autorama``), with two parameters: ``players`` (the catalog's default
table when left out) and ``document`` (a game document, the game's own ``dumps``, to start from
its position instead of the start; empty by default) and ``history`` (action ids, chance
outcomes among them, separated by commas, played from there before the game begins: a way to
study a late position).

The game type is sequential, with explicit stochastic chance nodes and imperfect information:

- **Chance.** Every random result the rules draw (a die roll, each step of a shuffle) is a
  chance node of ``n`` equally likely outcomes, ``n`` being the bound the rules draw under
  (:mod:`avanti.rl.table`): a roll of Avanti mare!'s die is six outcomes of ``1/6`` (M3); a
  shuffle of ``k`` cards is ``k - 1`` nodes of ``k, k - 1, ..., 2`` outcomes.
- **Players.** A seat's actions are the ids of the game's encoding (``num_distinct_actions`` is
  its ``num_actions``). Where several seats act at once (For Sale: Autorama's offers), they act
  one after another in seat order, each seeing only its own view.
- **Returns.** The game's ``outcome.returns`` (1.0 to each winner, 0.0 to the rest) at the end,
  zeros before; general sum.
- **Observations.** The observation tensor is the encoding's
  :meth:`~avanti.core.encoding.Encoding.observation` of the seat's view, the information-state
  tensor its :meth:`~avanti.core.encoding.Encoding.information_state` of the view and the seat's
  own event stream; both are cut into the encoding's named pieces. The observation string is
  the view, the information-state string the seat's own event stream: distinct for every
  history the seat can tell apart (perfect recall).
- **Resampling.** ``resample_from_infostate`` fills in what the seat cannot see with the game's
  sampler of hidden states (its bot kit), so OpenSpiel's IS-MCTS runs on every game.

A state pickles (and so ``pyspiel.serialize_game_and_state`` works) as its position: the
game, which is immutable, and any random results a command is still waiting for.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from avanti.catalog import GAMES, GameInfo, game_info
from avanti.core.encoding import Piece
from avanti.rl.table import Position, Table

__all__ = ["AvantiGame", "AvantiObserver", "AvantiState", "load_game", "register", "short_name"]

MAX_GAME_LENGTH = 10_000
"""The longest game declared to OpenSpiel, in decisions: far above any game played so far (a
game of Avanti mare! whose moves are declined again and again has no bound at all)."""


def short_name(name: str) -> str:
    """The OpenSpiel short name of a game of the catalog: ``avanti_<name>``."""
    return f"avanti_{name}"


@cache
def _table(name: str, players: int) -> Table:
    return Table(name, players)


@cache
def _chance_bound(table: Table) -> int:
    return table.chance_bounds()


@cache
def _initial(name: str, players: int, document: str, history: str) -> Position:
    """The position a game with these parameters starts from, worked out once."""
    table = _table(name, players)
    position = table.start_from(document) if document else table.start()
    for action in (int(text) for text in history.split(",") if text.strip()):
        if position.bound:
            position = table.draw(position, action)
        else:
            position = table.act(position, table.command(position, action))
    return position


def _game_type(info: GameInfo) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(info.name),
        long_name=info.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": len(info.default_players),
            "document": "",
            "history": "",
        },
    )


class AvantiGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """A game of the catalog as an OpenSpiel game (see the module); one subclass per game."""

    name: str = ""
    """The catalog name of the game, set on each registered subclass."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        info = game_info(self.name)
        params = dict(params or {})
        players = int(params.get("players", len(info.default_players)))
        document = str(params.get("document", ""))
        history = str(params.get("history", ""))
        table = _table(self.name, players)
        encoding = table.encoding
        chance = encoding.max_chance_outcomes or _chance_bound(table)
        game_info_ = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=chance,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(
            _game_type(info),
            game_info_,
            {"players": players, "document": document, "history": history},
        )
        self.table = table
        """The game's :class:`~avanti.rl.table.Table`."""
        self.document = document
        """The document the game starts from, or ``""`` for the start."""
        self.initial = _initial(self.name, players, document, history)
        """The position every game starts from (OpenSpiel clones a state by starting a new
        one, so it is worked out once)."""

    def new_initial_state(self) -> AvantiState:
        """The position before anything happened (or the document's position)."""
        return AvantiState(self, self.initial)

    def make_py_observer(
        self,
        iig_obs_type: Any = None,
        params: dict[str, Any] | None = None,
    ) -> AvantiObserver:
        """The observation (default) or, with ``perfect_recall``, the information state."""
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return AvantiObserver(self.table, information=recall, params=params)


class AvantiState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type hints
    """A position of a game of the catalog, for OpenSpiel (see the module)."""

    def __init__(self, game: AvantiGame, position: Position) -> None:
        super().__init__(game)
        self._key = (game.name, game.num_players())
        self.position = position
        """The game and any random results a command waits for."""

    @property
    def table(self) -> Table:
        """The game's table (shared by every state of the game)."""
        return _table(*self._key)

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while a random result is awaited, ``TERMINAL`` at the
        end."""
        position = self.position
        if position.bound:
            return int(pyspiel.PlayerId.CHANCE)
        seat = position.seat
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.position.seat:
            return []
        return self.table.legal_actions(self.position)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The awaited draw's outcomes, each equally likely."""
        bound = self.position.bound
        return [(outcome, 1.0 / bound) for outcome in range(bound)]

    def _apply_action(self, action: int) -> None:
        table = self.table
        position = self.position
        if position.bound:
            self.position = table.draw(position, int(action))
        else:
            self.position = table.act(position, table.command(position, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"result {action}"
        game = self.position.game
        command = self.table.encoding.command(int(action), player)
        if game is not None and command in game.legal_commands(player):
            return f"{player}: {game.notation(command)}"
        return f"{player}: {command!r}"

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.position.bound == 0 and self.position.is_over

    def returns(self) -> list[float]:
        """The game's returns at the end (``outcome.returns``), zeros before."""
        return self.table.returns(self.position)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AvantiState:
        """A state ``player_id`` cannot tell from this one, its hidden facts drawn afresh by the
        game's sampler (seeded from ``probability_sampler``)."""
        seed = int(probability_sampler() * (1 << 62))
        clone: AvantiState = self.clone()
        clone.position = self.table.resample(self.position, player_id, seed)
        return clone

    def __str__(self) -> str:
        position = self.position
        if position.game is None:
            return f"start, waiting for results after {list(position.prefix)}"
        game = position.game
        text = f"after {game.version} events: {game.state!r}"
        if position.bound:
            text += f"\n{position.pending!r} waits for results after {list(position.prefix)}"
        return text


class AvantiObserver:
    """OpenSpiel's observer of a game of the catalog: the encoding's observation, or with
    ``information`` its information state; the tensor is cut into the encoding's pieces."""

    def __init__(
        self, table: Table, *, information: bool, params: dict[str, Any] | None = None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.table = table
        self.information = information
        """Whether this observer gives the information state (perfect recall)."""
        encoding = table.encoding
        pieces: tuple[Piece, ...] = (
            encoding.information_pieces if information else encoding.observation_pieces
        )
        size = pieces[-1].stop if pieces else 0
        self.tensor = np.zeros(size, np.float32)
        """The flat tensor, overwritten by :meth:`set_from`."""
        self.dict = {piece.name: self.tensor[piece.start : piece.stop] for piece in pieces}
        """Each piece of the tensor by name (views of :attr:`tensor`)."""

    def set_from(self, state: AvantiState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` may see in ``state`` (zeros before the
        start has been dealt)."""
        game = state.position.game
        if game is None:
            self.tensor.fill(0.0)
            return
        encoding = self.table.encoding
        view = game.view(player)
        if self.information:
            numbers = encoding.information_state(view, game.events_for(player))
        else:
            numbers = encoding.observation(view)
        self.tensor[:] = numbers

    def string_from(self, state: AvantiState, player: int) -> str:
        """The view of ``player`` (observation), or its own event stream (information state)."""
        game = state.position.game
        if game is None:
            return f"seat {player}: the start is being dealt"
        if self.information:
            return f"seat {player}: {game.events_for(player)!r}"
        return f"seat {player}: {game.view(player)!r}"


def register(info: GameInfo) -> None:
    """Register one game of the catalog with OpenSpiel, as ``avanti_<name>``."""
    cls = type(f"AvantiGame_{info.name}", (AvantiGame,), {"name": info.name})
    globals()[cls.__name__] = cls  # so that pickle finds the class by its name
    pyspiel.register_game(_game_type(info), cls)


def load_game(
    name: str, players: int | None = None, document: str = "", history: Sequence[int] = ()
) -> AvantiGame:
    """``pyspiel.load_game`` for a game of the catalog (registered on import), from the start,
    from ``document``'s position, and after the actions of ``history`` (see the module).

    :raises UnknownGame: no game of that name.
    """
    info = game_info(name)
    params: dict[str, Any] = {"players": players or len(info.default_players)}
    if document:
        params["document"] = document
    if history:
        params["history"] = ",".join(str(action) for action in history)
    game: AvantiGame = pyspiel.load_game(short_name(info.name), params)
    return game


for _info in GAMES.values():
    register(_info)
