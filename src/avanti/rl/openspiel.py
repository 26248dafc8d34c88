"""Every game of the catalog as an OpenSpiel Python game: ``pyspiel.load_game("avanti_mare")``.

Importing this module registers each game of :mod:`avanti.catalog` with
``pyspiel.register_game`` under the short name ``avanti_<name>`` (``avanti_avanti``,
``avanti_mare``, ``avanti_autorama``), with these parameters: ``players`` (the catalog's default
table when left out); ``document`` (a game document, the game's own ``dumps``, to start from
its position instead of the start; empty by default); ``history`` (action ids, chance
outcomes among them, separated by commas, played from there before the game begins: a way to
study a late position); ``chance`` (``"explicit"``, the default, or ``"sampled"``); and ``seed``
(the sampled mode's seed of seeds, ``-1`` for a fresh secret one).

The game type is sequential, with stochastic chance; its information, utility, bound on chance
outcomes and longest game are the game's own facts (:attr:`~avanti.core.encoding.Encoding.facts`,
declared beside its encoding):

- **Chance.** With ``chance="explicit"`` (``EXPLICIT_STOCHASTIC``) every random result the rules
  draw (a die roll, each step of a shuffle) is a chance node of ``n`` equally likely outcomes,
  ``n`` being the bound the rules draw under (:mod:`avanti.rl.table`): a roll of Avanti mare!'s
  die is six outcomes of ``1/6`` (M3); a shuffle of ``k`` cards is ``k - 1`` nodes of
  ``k, k - 1, ..., 2`` outcomes. With ``chance="sampled"`` (``SAMPLED_STOCHASTIC``) there are
  no chance nodes: each new initial state is a game dealt from the next seed of the game's
  sequence, and every random result is drawn by that game's own seeded generator, as in
  ordinary play; a clone goes on with the same generator, so it meets the same results (a
  search that must not foresee the dice uses the explicit mode).
- **Players.** A seat's actions are the ids of the game's encoding (``num_distinct_actions`` is
  its ``num_actions``). Where several seats act at once (For Sale: Autorama's offers), they act
  one after another in seat order, each seeing only its own view.
- **Returns.** The game's ``outcome.returns`` (1.0 to each winner, 0.0 to the rest) at the end,
  zeros before.
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
from avanti.core.encoding import Facts, Piece
from avanti.core.errors import InvalidArgument
from avanti.core.limits import new_seed
from avanti.core.rng import Stream
from avanti.rl.table import Position, Table

__all__ = ["AvantiGame", "AvantiObserver", "AvantiState", "load_game", "register", "short_name"]

MAX_GAME_LENGTH = 10_000
"""The longest game declared to OpenSpiel where the rules set no bound (the game's
:attr:`~avanti.core.encoding.Facts.longest_game` is ``None``: a game of Avanti mare! whose
moves are declined again and again has none): far above any game played so far."""


_CHANCE = int(pyspiel.PlayerId.CHANCE)
"""OpenSpiel's player id of chance."""
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
"""OpenSpiel's player id of the end."""


@cache
def _uniform(bound: int) -> tuple[tuple[int, float], ...]:
    """The ``bound`` outcomes of a uniform draw, each with its probability, worked out once."""
    return tuple((outcome, 1.0 / bound) for outcome in range(bound))


def short_name(name: str) -> str:
    """The OpenSpiel short name of a game of the catalog: ``avanti_<name>``."""
    return f"avanti_{name}"


@cache
def _table(name: str, players: int) -> Table:
    return Table(name, players)


@cache
def _initial(name: str, players: int, document: str, history: str) -> Position:
    """The position a game with these parameters starts from, worked out once."""
    table = _table(name, players)
    position = table.start_from(document) if document else table.start()
    return _play(table, position, history)


CHANCE_MODES = {
    "explicit": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    "sampled": pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
}
"""The ``chance`` parameter's values and the OpenSpiel chance mode of each."""


@cache
def _facts(name: str, players: int, document: str) -> Facts:
    """The facts of the game a document holds (its own options and setup)."""
    table = _table(name, players)
    facts: Facts = table.make_encoding(table.start_from(document).game.public_setup).facts
    return facts


def _play(table: Table, position: Position, history: str) -> Position:
    for action in (int(text) for text in history.split(",") if text.strip()):
        if position.bound:
            position = table.draw(position, action)
        else:
            position = table.act(position, table.command(position, action))
    return position


def _game_type(info: GameInfo, chance: str, facts: Facts) -> Any:
    information = pyspiel.GameType.Information.IMPERFECT_INFORMATION
    if facts.perfect_information:
        information = pyspiel.GameType.Information.PERFECT_INFORMATION
    utility = pyspiel.GameType.Utility.GENERAL_SUM
    if facts.constant_sum is not None:
        utility = pyspiel.GameType.Utility.CONSTANT_SUM
    return pyspiel.GameType(
        short_name=short_name(info.name),
        long_name=info.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=CHANCE_MODES[chance],
        information=information,
        utility=utility,
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
            "chance": "explicit",
            "seed": -1,
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
        chance = str(params.get("chance", "explicit"))
        if chance not in CHANCE_MODES:
            raise InvalidArgument(f"chance is 'explicit' or 'sampled', not {chance!r}")
        seed = int(params.get("seed", -1))
        table = _table(self.name, players)
        encoding = table.encoding
        facts = encoding.facts
        if document:  # the document's own options may bound the game
            facts = _facts(self.name, players, document)
        length = MAX_GAME_LENGTH
        if facts.longest_game is not None and facts.most_draws is not None:
            length = facts.longest_game + (0 if chance == "sampled" else facts.most_draws)
        game_info_ = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=facts.max_chance_outcomes,
            num_players=players,
            min_utility=facts.min_return,
            max_utility=facts.max_return,
            utility_sum=facts.constant_sum,
            max_game_length=length,
        )
        super().__init__(
            _game_type(info, chance, facts),
            game_info_,
            {
                "players": players,
                "document": document,
                "history": history,
                "chance": chance,
                "seed": seed,
            },
        )
        self.table = table
        """The game's :class:`~avanti.rl.table.Table`."""
        self.document = document
        """The document the game starts from, or ``""`` for the start."""
        self.history = history
        """The actions played before the game begins, separated by commas."""
        self.sampled = chance == "sampled"
        """Whether random results are drawn by each game's own generator (no chance nodes)."""
        self.seed = new_seed() if seed < 0 else seed
        """The sampled mode's seed of seeds: the ``k``-th new initial state is dealt from
        ``Stream(seed, k).below(2**62)``."""
        self.dealt = 0
        """How many games the sampled mode has dealt."""
        self.initial = None if self.sampled else _initial(self.name, players, document, history)
        """The position every game starts from with explicit chance (OpenSpiel clones a
        state by starting a new one, so it is worked out once); ``None`` when sampled."""

    def new_initial_state(self) -> AvantiState:
        """The position before anything happened (or the document's position); when sampled,
        a game dealt from the next seed."""
        if self.initial is not None:
            return AvantiState(self, self.initial)
        table = self.table
        if self.document:
            position = table.start_from(self.document, seeded=True)
        else:
            position = table.start_sampled(Stream(self.seed, self.dealt).below(1 << 62))
            self.dealt += 1
        return AvantiState(self, _play(table, position, self.history))

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
            return _CHANCE
        seat = position.seat
        return _TERMINAL if seat is None else seat

    def is_chance_node(self) -> bool:
        """Whether a random result is awaited (answered here, without a call through
        OpenSpiel's C++ back into :meth:`current_player`)."""
        return self.position.bound > 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (the seat to act when left out), as OpenSpiel's own
        ``legal_actions`` gives them: for the seat to act, the position's numbered commands
        (:meth:`~avanti.rl.table.Table.moves`, worked out once per position) without a call
        through C++; anything else (a chance node, the end, another seat) as OpenSpiel answers
        it."""
        position = self.position
        seat = position.seat
        if seat is not None and (player is None or player == seat):
            return list(self.table.moves(position))
        if player is None:
            return list(super().legal_actions())
        return list(super().legal_actions(player))

    def _legal_actions(self, player: int) -> list[int]:
        position = self.position
        if player != position.seat:
            return []
        return list(self.table.moves(position))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The awaited draw's outcomes, each equally likely."""
        return list(_uniform(self.position.bound))

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
        return self.position.is_over

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
    """Register one game of the catalog with OpenSpiel, as ``avanti_<name>``, with the facts
    of its default table."""
    cls = type(f"AvantiGame_{info.name}", (AvantiGame,), {"name": info.name})
    globals()[cls.__name__] = cls  # so that pickle finds the class by its name
    facts = _table(info.name, len(info.default_players)).encoding.facts
    pyspiel.register_game(_game_type(info, "explicit", facts), cls)


def load_game(
    name: str,
    players: int | None = None,
    document: str = "",
    history: Sequence[int] = (),
    *,
    chance: str = "explicit",
    seed: int | None = None,
) -> AvantiGame:
    """``pyspiel.load_game`` for a game of the catalog (registered on import), from the start,
    from ``document``'s position, and after the actions of ``history``, with explicit or
    sampled chance and, when sampled, the seed of its games' seeds (see the module).

    :raises UnknownGame: no game of that name.
    :raises InvalidArgument: ``chance`` is neither ``"explicit"`` nor ``"sampled"``.
    """
    info = game_info(name)
    params: dict[str, Any] = {"players": players or len(info.default_players)}
    if chance != "explicit":
        params["chance"] = chance
    if seed is not None:
        params["seed"] = seed
    if document:
        params["document"] = document
    if history:
        params["history"] = ",".join(str(action) for action in history)
    game: AvantiGame = pyspiel.load_game(short_name(info.name), params)
    return game


for _info in GAMES.values():
    register(_info)
