"""One game of the catalog, seen by a learning tool: its package, its encoding, and every step
with the random results left open as explicit draws, or drawn by the game's own generator.

:class:`Table` is what both adapters stand on. It reaches a game only through the catalog and
the protocols (``new_game``, ``Game``, ``encoding``, the kit's sampler), so it serves every game.

A :class:`Position` is a game between two of the tool's steps. Where a command (or the game's
start, which shuffles) needs a random result, the position is a *chance node*: the command waits,
with the results chosen so far (``prefix``), for one more, uniform in ``range(bound)``. The game
runs under :func:`avanti.core.rng.scripted`, so its own code draws exactly the results the tool
chose, with the probabilities the seeded generator would give them (every ``below(n)`` is
uniform): a die face is ``1/6`` (M3), each step of a shuffle (Fisher-Yates, from the last card)
``1/n`` for ``n`` cards still to place.

**Chance without replays.** A command runs once up to its first draw; a shuffle announces the
bounds of all its draws at once (:attr:`~avanti.core.rng.DrawNeeded.ahead`), so its chance nodes
after the first only note their result, and the command runs again only when every result of the
shuffle is chosen. A shuffle of 27 cards is 26 chance nodes and two runs of the command, not 27.

**Sampled chance.** :meth:`Table.start_sampled` deals a game from a seed, and every position
after it draws its random results from the game's own seeded generator, as ordinary play does
(``Position.seeded``): no chance node at all, and a game equal, event for event, to the one the
library plays from that seed.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from attrs import field, frozen

from avanti.catalog import GameInfo, game_info
from avanti.core.encoding import Encoding
from avanti.core.errors import InvalidArgument
from avanti.core.rng import DrawNeeded, Rng, scripted

__all__ = ["Position", "Table"]

SCRIPTED_SEED = 0
"""The seed of every game a :class:`Table` starts: unused, since every random result is
scripted, but a setup needs one."""


@frozen
class Position:
    """A game between two steps of a tool, or a command waiting for random results.

    ``game`` is the core game (``None`` while its start still waits for draws). ``pending`` is
    the command waiting for draws (``None``: none, or the start when ``game`` is ``None``);
    ``prefix`` the results chosen for it so far; ``bound`` the number of equally likely results
    of the next draw (0 when nothing waits); ``ahead`` the bounds of the draws known to follow
    it (the rest of a shuffle). ``sampled`` marks a position whose hidden facts a sampler
    guessed (:meth:`Table.resample`) and every position after it; ``seeded`` one whose random
    results come from the game's own seeded generator (:meth:`Table.start_sampled`), which is
    never a chance node.
    """

    game: Any
    pending: Any = None
    prefix: tuple[int, ...] = ()
    bound: int = 0
    sampled: bool = False
    ahead: tuple[int, ...] = ()
    seeded: bool = False
    is_over: bool = field(init=False)
    """Whether the game has ended (and nothing waits)."""
    seat: int | None = field(init=False)
    """The seat to act now: the lowest seat waited for (a simultaneous step is played in seat
    order); ``None`` at a chance node or at the end."""
    moves: dict[int, Any] | None = field(init=False, default=None, eq=False, repr=False)
    """The legal commands of the seat to act by action id, in the order of the ids, once
    :meth:`Table.moves` has numbered them (``None`` until then): a cache, filled at most once,
    since the position never changes."""

    def __attrs_post_init__(self) -> None:
        # Worked out once: a tool asks for them several times a step.
        over = not self.bound and bool(self.game.is_over)
        object.__setattr__(self, "is_over", over)
        seat = None if self.bound or over else self.game.waiting[0]
        object.__setattr__(self, "seat", seat)

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        """The position itself: it and its game are immutable (OpenSpiel clones states by
        copying them deeply)."""
        return self

    @property
    def is_chance(self) -> bool:
        """Whether a random result is awaited."""
        return self.bound > 0


class Table:
    """A game of the catalog for ``players`` seats, with its encoding (see the module).

    :raises UnknownGame: no game of that name.
    :raises InvalidSetup: the game does not take that many players.
    :raises InvalidArgument: the game's package offers no ``encoding``.
    """

    def __init__(self, name: str, players: int) -> None:
        info = game_info(name)
        self.info: GameInfo = info
        """The game's catalog entry."""
        self.names: tuple[str, ...] = info.player_names(players)
        """The players' names, from the catalog's default table."""
        self.package: ModuleType = info.load()
        """The game's package."""
        make = info.load_presentation().encoding
        if make is None:
            raise InvalidArgument(f"{info.title} offers no encoding (its presentation's encoding)")
        self.make_encoding: Callable[[Any], Encoding[Any, Any, Any]] = make
        """The game's encoding for a public setup (its presentation's ``encoding``)."""
        sample = self.package.new_game(list(self.names), seed=SCRIPTED_SEED)
        self.encoding: Encoding[Any, Any, Any] = make(sample.public_setup)
        """The game's encoding for this table's public setup."""

    @property
    def players(self) -> int:
        """How many seats."""
        return len(self.names)

    # -- ordinary play, drawn from the seed ---------------------------------------------------

    def new_game(self, seed: int) -> Any:
        """A game of this table dealt from ``seed`` (ordinary play: no script)."""
        return self.package.new_game(list(self.names), seed=seed)

    # -- play with explicit draws -------------------------------------------------------------

    def start(self) -> Position:
        """The position before anything happened: a chance node if the start shuffles."""
        return self._start(())

    def start_sampled(self, seed: int) -> Position:
        """The start of the game dealt from ``seed``; it and every position after it draw their
        random results from the game's own seeded generator (no chance nodes)."""
        return Position(self.new_game(seed), seeded=True)

    def start_from(self, document: str, *, seeded: bool = False) -> Position:
        """The position of a game document (the game's own ``dumps``), read and checked with
        its seed; every later random result is left open (or with ``seeded``, drawn from that
        seed as the game would go on).

        :raises DecodeError: the document is malformed or of another game.
        :raises CorruptLog: its log does not fit its setup.
        :raises InvalidArgument: its game has another number of players than the table.
        """
        game = self.package.loads(document)
        if len(game.setup.players) != self.players:
            raise InvalidArgument(
                f"the document's game has {len(game.setup.players)} players, the table"
                f" {self.players}"
            )
        return Position(game, seeded=seeded)

    def _start(self, prefix: tuple[int, ...]) -> Position:
        try:
            with scripted(prefix):
                game = self.package.new_game(list(self.names), seed=SCRIPTED_SEED)
        except DrawNeeded as need:
            return Position(None, None, prefix, need.bound, ahead=need.ahead)
        return Position(game)

    def act(self, position: Position, command: Any) -> Position:
        """The position after ``command``: a chance node if it needs a random result.

        :raises IllegalCommand: the command is not legal now (nothing changes).
        :raises InvalidArgument: the position waits for a random result.
        """
        if position.bound:
            raise InvalidArgument("the position waits for a random result, not a command")
        return self._execute(position, command, ())

    def draw(self, position: Position, outcome: int) -> Position:
        """The position after the awaited random result ``outcome``.

        :raises InvalidArgument: no result is awaited, or ``outcome`` is not in
            ``range(position.bound)``.
        """
        if not position.bound:
            raise InvalidArgument("no random result is awaited here")
        if type(outcome) is not int or not 0 <= outcome < position.bound:
            raise InvalidArgument(f"a result of this draw is 0 to {position.bound - 1}")
        prefix = (*position.prefix, outcome)
        ahead = position.ahead
        if ahead:  # the rest of a shuffle: note the result, run nothing yet
            return Position(
                position.game, position.pending, prefix, ahead[0], position.sampled, ahead[1:]
            )
        if position.game is None:
            return self._start(prefix)
        return self._execute(position, position.pending, prefix)

    def _execute(self, position: Position, command: Any, prefix: tuple[int, ...]) -> Position:
        game = position.game
        if position.seeded:
            return Position(game.execute(command), seeded=True)
        try:
            with scripted(prefix):
                after = game.execute(command)
        except DrawNeeded as need:
            return Position(game, command, prefix, need.bound, position.sampled, need.ahead)
        return Position(after, sampled=position.sampled)

    def legal_commands(self, position: Position) -> tuple[Any, ...]:
        """The commands of the seat to act (none at a chance node or the end)."""
        seat = position.seat
        if seat is None:
            return ()
        return tuple(position.game.legal_commands(seat))

    def moves(self, position: Position) -> dict[int, Any]:
        """The legal commands of the seat to act by action id, sorted by id (empty at a
        chance node or the end): numbered once per position and kept on it
        (:attr:`Position.moves`), so that the legal actions, the mask and the command an id
        stands for are all one look-up after the first.

        In a sampled position (``Position.sampled``) a guessed hidden fact may allow a command no
        real game allows (a bid above any cash a seat can have), which the encoding does not
        number: such commands are left out there, and only there.
        """
        moves = position.moves
        if moves is not None:
            return moves
        action_id = self.encoding.action_id
        commands = self.legal_commands(position)
        if position.sampled:
            numbered: dict[int, Any] = {}
            for command in commands:
                try:
                    numbered.setdefault(action_id(command), command)
                except InvalidArgument:
                    continue
        else:  # the first command of each id, as in the loop above
            numbered = {action_id(command): command for command in reversed(commands)}
        moves = {action: numbered[action] for action in sorted(numbered)}
        object.__setattr__(position, "moves", moves)
        return moves

    def legal_actions(self, position: Position) -> list[int]:
        """The sorted action ids of the seat to act (the keys of :meth:`moves`)."""
        return list(self.moves(position))

    def command(self, position: Position, action: int) -> Any:
        """The command ``action`` stands for, for the seat to act.

        Legal or not: :meth:`act` refuses an illegal one with the game's own
        :class:`~avanti.core.errors.IllegalCommand`, naming the rule.

        :raises InvalidArgument: nobody acts now, or ``action`` is out of range.
        """
        seat = position.seat
        if seat is None:
            raise InvalidArgument("no seat acts at a chance node or at the end")
        moves = position.moves
        if moves is not None and type(action) is int:
            legal = moves.get(action)
            if legal is not None:
                return legal
        return self.encoding.command(action, seat)

    def returns(self, position: Position) -> list[float]:
        """Each seat's return: the game's ``outcome.returns`` at the end, zeros before."""
        if position.game is None or position.bound or not position.game.is_over:
            return [0.0] * self.players
        return [float(r) for r in position.game.outcome.returns]

    def resample(self, position: Position, seat: int, seed: int) -> Position:
        """A position ``seat`` cannot tell from ``position``: the hidden parts of the state drawn
        afresh by the game's sampler (from ``seed``), the log and every view unchanged.

        A position that waits for a draw, or a game whose kit has no sampler, is returned as
        it is (for a game without hidden facts that is exact).
        """
        sampler = self.info.load_kit().sampler
        if position.bound or sampler is None or position.game.is_over:
            return position
        game = position.game
        view = game.view(seat)
        state = sampler(game.setup).sample_state(view, seat, Rng(seed).stream())
        return Position(
            type(game)(game.setup, game.events, state), sampled=True, seeded=position.seeded
        )

    def chance_bounds(self, games: int = 2, seed: int = 0) -> int:
        """The largest number of results one draw had over the start and ``games`` games
        played by random choices (every draw uniform, every command uniform among the legal
        ones): a check of the bound each game declares
        (:attr:`~avanti.core.encoding.Facts.max_chance_outcomes`), which it never exceeds."""
        stream = Rng(seed, 1 << 40).stream()
        largest = 1
        for _ in range(games):
            position = self.start()
            while not position.is_over:
                if position.bound:
                    largest = max(largest, position.bound)
                    position = self.draw(position, stream.below(position.bound))
                else:
                    commands = self.legal_commands(position)
                    position = self.act(position, stream.choice(commands))
        return largest
