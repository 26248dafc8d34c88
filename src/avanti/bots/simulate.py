"""Many seeded games played by bots, on any engine, and what they add up to.

A :class:`Plan` names the game, the bot at each seat, how many games and the root seed. Game ``i``
takes its seed, and its bots the seed of their stream, from a seed sequence
(:func:`avanti.bots.seeds.game_seed`, :func:`~avanti.bots.seeds.bot_seed`): runs from different
root seeds share no game, and a game depends on its index alone. Each game is played whole inside
one task, so the records are the same, game by game, whatever the engine
(:mod:`avanti.bots.engines`) and the number of workers. Tasks carry batches of games, sized from
the time the last batch took so that each task runs for about :data:`TARGET_TASK_SECONDS`.

The bots are the built-in kinds (``random``, ``heuristic``, ``search``), bots of your own named
in a plan's ``entrants`` (:class:`Entrant`), or a ``module:attribute`` path to one. Win rates come
with 95% Wilson score intervals.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import math
import pickle
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from attrs import field, frozen

from avanti.bots.driver import play
from avanti.bots.engines import Engine, LocalEngine
from avanti.bots.kit import BOT_KINDS, kit_for, make_bot
from avanti.bots.seeds import bot_seed, game_seed
from avanti.catalog import GameInfo, game_info
from avanti.core.bots import Bot
from avanti.core.errors import InvalidArgument, InvalidSetup

__all__ = [
    "MAX_BATCH",
    "TARGET_TASK_SECONDS",
    "Batch",
    "BatchResult",
    "Entrant",
    "GameRecord",
    "Mean",
    "Plan",
    "Rate",
    "Summary",
    "load_bot",
    "play_batch",
    "play_one",
    "record_data",
    "record_from_data",
    "run",
    "summarize",
    "wilson",
]

Z95 = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""

TARGET_TASK_SECONDS = 0.25
"""How long a batch of games should take: long beside a task's fixed cost (well under a
millisecond locally, a few on Ray), short enough for steady progress and a quick Ctrl-C."""

MAX_BATCH = 2000
"""The most games one task carries."""


def load_bot(path: str) -> object:
    """The object a ``module:attribute`` path names (a bot, a bot class or a factory).

    :raises InvalidArgument: the path has no colon, or the module or attribute is missing.
    """
    module_name, colon, attribute = path.partition(":")
    if not colon or not module_name or not attribute:
        raise InvalidArgument(
            f"unknown bot {path!r}; choose from {', '.join(BOT_KINDS)}, "
            "or name your own as module:attribute"
        )
    try:
        target: object = importlib.import_module(module_name)
    except ImportError as error:
        raise InvalidArgument(f"cannot import bot {path!r}: {error}") from None
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise InvalidArgument(f"cannot find bot {path!r}: {module_name} has no {attribute}")
        target = getattr(target, part)
    return target


def _takes_no_arguments(cls: type) -> bool:
    try:
        inspect.signature(cls).bind()
    except TypeError:
        return False
    except ValueError:  # no signature to read (a built-in): try the factory form
        return False
    return True


def _build(spec: object, setup: Any, seat: int) -> Bot[Any, Any]:
    """A fresh bot from ``spec`` for ``seat``: see :class:`Entrant`."""
    if isinstance(spec, type):
        bot = spec() if _takes_no_arguments(spec) else spec(setup, seat)
    elif callable(getattr(spec, "choose", None)):
        bot = copy.deepcopy(spec)
    elif callable(spec):
        bot = spec(setup, seat)
    else:
        raise InvalidArgument(f"{spec!r} is neither a bot (it has no choose) nor a bot factory")
    if not callable(getattr(bot, "choose", None)):
        raise InvalidArgument(f"{spec!r} built {bot!r}, which is not a bot (it has no choose)")
    chosen: Bot[Any, Any] = bot
    return chosen


@frozen
class Entrant:
    """A bot of your own under a name: what a plan's ``entrants`` hold.

    ``bot`` is one of:

    - a bot (any object with ``choose``, see :class:`~avanti.core.bots.Bot`): every game gets a
      fresh deep copy, so what it learns in one game never reaches the next;
    - a bot class: ``cls()`` when it takes no arguments, else ``cls(setup, seat)``;
    - a factory: ``factory(setup, seat)`` returns the bot for ``seat`` of the game with ``setup``;
    - a ``module:attribute`` path to any of these.

    On worker processes and Ray the entrant travels by pickle, so a class or factory must be
    defined at module level in a module the workers can import.
    """

    name: str
    bot: object

    def build(self, setup: Any, seat: int) -> Bot[Any, Any]:
        """A fresh bot for ``seat`` of the game with ``setup``."""
        spec = load_bot(self.bot) if isinstance(self.bot, str) else self.bot
        return _build(spec, setup, seat)


@frozen
class Plan:
    """What to simulate: the game, the bot at each seat, how many games, from which root seed.

    ``bots`` names a bot per seat: a built-in kind (``random``, ``heuristic``, ``search``), the
    name of one of ``entrants`` (bots of your own), or a ``module:attribute`` path. With
    ``rotate`` the bots move one seat round the table from game to game (game ``i`` seats bot
    ``(s + i) % n`` at seat ``s``), so that no bot keeps a good or bad seat. ``schedule``, when
    given, replaces both: game ``i`` seats ``schedule[i % len(schedule)]`` (names of ``bots``);
    tournaments use it. ``iterations`` overrides the search bot's budget.
    """

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    rotate: bool = False
    iterations: int | None = None
    entrants: tuple[Entrant, ...] = ()
    schedule: tuple[tuple[str, ...], ...] = field(default=())

    @property
    def seats(self) -> int:
        """How many seats a game has."""
        return len(self.schedule[0]) if self.schedule else len(self.bots)

    def seating(self, index: int) -> tuple[str, ...]:
        """The bot at each seat in game ``index``."""
        if self.schedule:
            return self.schedule[index % len(self.schedule)]
        n = len(self.bots)
        shift = index % n if self.rotate else 0
        return tuple(self.bots[(seat + shift) % n] for seat in range(n))

    def entrant(self, name: str) -> Entrant:
        """The entrant called ``name``: one of ``entrants``, a built-in kind, or a path."""
        for entrant in self.entrants:
            if entrant.name == name:
                return entrant
        return Entrant(name, name)

    def check(self) -> None:
        """Raise :class:`~avanti.core.InvalidArgument`, :class:`~avanti.core.InvalidSetup` (a table
        the game does not seat) or :class:`~avanti.core.UnknownGame` when the plan cannot run.

        Every bot is built once for seat 0 of a game from seed 0, so a bot that cannot be built
        is reported here, in this process, before any game starts.
        """
        info = game_info(self.game)
        if self.games < 1:
            raise InvalidArgument(f"simulate at least one game, not {self.games}")
        names = [entrant.name for entrant in self.entrants]
        for name in names:
            if names.count(name) > 1:
                raise InvalidArgument(f"two entrants are called {name!r}")
            if name in BOT_KINDS:
                raise InvalidArgument(f"an entrant may not take the built-in name {name!r}")
        if not self.bots:
            raise InvalidArgument("name at least one bot")
        seats = {len(seating) for seating in self.schedule} or {len(self.bots)}
        if len(seats) > 1:
            raise InvalidArgument(f"every seating of a schedule seats as many bots, not {seats}")
        if not info.min_players <= self.seats <= info.max_players:
            raise InvalidSetup(
                f"{info.title} takes {info.min_players} to {info.max_players} players, "
                f"not {self.seats} (one bot sits at each seat)"
            )
        for seating in self.schedule:
            for name in seating:
                if name not in self.bots:
                    raise InvalidArgument(f"the schedule seats {name!r}, which is not in bots")
        setup: Any = None
        for name in dict.fromkeys(self.bots):
            if name in BOT_KINDS:
                continue
            if name not in names and ":" not in name:
                raise InvalidArgument(
                    f"unknown bot {name!r}; choose from {', '.join(BOT_KINDS)}"
                    + "".join(f", {n}" for n in names)
                    + " (or name a bot of your own as module:attribute)"
                )
            if setup is None:
                setup = info.new_game(info.player_names(self.seats), seed=0).setup
            self.entrant(name).build(setup, 0)
        if "search" in self.bots and kit_for(info).sampler is None:
            raise InvalidArgument(f"{info.title} has no search bot (it offers no state sampler)")

    def check_portable(self) -> None:
        """Raise :class:`~avanti.core.InvalidArgument` when the plan cannot be pickled, so it
        cannot reach worker processes (a bot defined inside a function, a lambda, ...)."""
        try:
            pickle.dumps(self)
        except Exception as error:
            raise InvalidArgument(
                f"the bots cannot be sent to worker processes ({error}): define each bot class "
                "or factory at module level in an importable module, or use one worker"
            ) from None


@frozen
class GameRecord:
    """One finished game: its index and seed, who sat where, the outcome, and how long it took.

    ``winners`` and ``returns`` are the outcome's (1.0 to each winner, 0.0 to the rest).
    """

    index: int
    seed: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    events: int
    commands: int
    counts: tuple[tuple[str, int], ...]
    returns: tuple[float, ...] = ()


def _play(plan: Plan, index: int, info: GameInfo, kit: Any) -> GameRecord:
    seed = game_seed(plan.seed, index)
    seating = plan.seating(index)
    game: Any = info.new_game(info.player_names(len(seating)), seed=seed)
    bots: dict[int, Bot[Any, Any]] = {}
    for seat, name in enumerate(seating):
        if name in BOT_KINDS:
            bots[seat] = make_bot(name, info, game.setup, seat, iterations=plan.iterations)
        else:
            bots[seat] = plan.entrant(name).build(game.setup, seat)
    commands = 0
    for step in play(game, bots, seed=bot_seed(plan.seed, index)):
        game = step.game
        commands += 1
    counts: Mapping[str, int] = kit.counts(game.events)
    outcome = game.outcome
    return GameRecord(
        index,
        seed,
        seating,
        tuple(outcome.winners),
        len(game.events),
        commands,
        tuple(sorted(counts.items())),
        tuple(float(r) for r in getattr(outcome, "returns", ())),
    )


def play_one(plan: Plan, index: int) -> GameRecord:
    """Play game ``index`` of ``plan`` to the end."""
    info = game_info(plan.game)
    return _play(plan, index, info, kit_for(info))


_BROKEN = (
    "It was killed (out of memory?), or it could not import the main module: each worker "
    "imports it afresh, so a script that simulates on several workers keeps its top level "
    'under `if __name__ == "__main__":`.'
)
"""What :func:`run` adds to a broken process pool's message."""


@frozen
class Batch:
    """One task: the plan, the indices of the games to play, and the game's catalog entry.

    :func:`run` sends the entry along, so that a worker process plays a game that was added to
    the catalog in the calling process only (:func:`~avanti.catalog.register`); without it the
    worker looks the game up in its own catalog.
    """

    plan: Plan
    indices: tuple[int, ...]
    info: GameInfo | None = None


@frozen
class BatchResult:
    """What a task hands back: the records of its games and the seconds it spent playing."""

    records: tuple[GameRecord, ...]
    seconds: float


def play_batch(batch: Batch) -> BatchResult:
    """Play the games of ``batch`` (the function every engine runs)."""
    start = time.perf_counter()
    info = batch.info if batch.info is not None else game_info(batch.plan.game)
    kit = kit_for(info)
    records = tuple(_play(batch.plan, index, info, kit) for index in batch.indices)
    return BatchResult(records, time.perf_counter() - start)


def _batch_size(per_game: float | None, largest: int, remaining: int, workers: int) -> int:
    """The next batch's size: about :data:`TARGET_TASK_SECONDS` of play, at most eight times the
    largest batch so far, and small enough near the end that every worker keeps busy."""
    if per_game is None:
        return 1
    wanted = TARGET_TASK_SECONDS / per_game if per_game > 0 else MAX_BATCH
    size = min(int(wanted), 8 * largest, MAX_BATCH, remaining // (2 * workers))
    return max(1, size)


def run(
    plan: Plan,
    *,
    workers: int = 1,
    on_done: Callable[[GameRecord], None] | None = None,
    engine: Engine | None = None,
    done: Iterable[GameRecord] = (),
    batch_size: int | None = None,
) -> tuple[GameRecord, ...]:
    """Play every game of ``plan``; records in game order.

    With no ``engine``, a :class:`~avanti.bots.engines.LocalEngine` of ``workers`` processes
    (``workers=1`` plays in this process), closed at the end. ``done`` holds games already played
    (from an interrupted run): they are kept and not played again. ``on_done`` is called as each
    new game finishes (in the order they finish), for a progress bar or a checkpoint.
    ``batch_size`` fixes the games per task (by default it follows the games' speed).

    On Ctrl-C (or a failed game) the unfinished tasks are stopped and the exception goes on;
    the games ``on_done`` saw are finished and may be passed as ``done`` to a later run.
    """
    plan.check()
    if batch_size is not None and batch_size < 1:
        raise InvalidArgument(f"a batch holds at least one game, not {batch_size}")
    records = {record.index: record for record in done}
    beyond = sorted(index for index in records if not 0 <= index < plan.games)
    if beyond:
        raise InvalidArgument(
            f"{len(beyond)} finished games lie beyond the plan's {plan.games} (the first is "
            f"game {beyond[0]}); a run may grow, never shrink"
        )
    info = game_info(plan.game)
    own = engine is None
    if engine is None:
        engine = LocalEngine(workers)
    todo = [index for index in range(plan.games) if index not in records]
    in_flight: dict[Future[BatchResult], int] = {}
    try:
        if engine.workers > 1 or not isinstance(engine, LocalEngine):
            plan.check_portable()
        position = 0
        per_game: float | None = None
        largest = 1
        while position < len(todo) or in_flight:
            while position < len(todo) and len(in_flight) < 2 * engine.workers:
                remaining = len(todo) - position
                size = batch_size or _batch_size(per_game, largest, remaining, engine.workers)
                chunk = tuple(todo[position : position + size])
                position += len(chunk)
                largest = max(largest, len(chunk))
                in_flight[engine.submit(play_batch, Batch(plan, chunk, info))] = len(chunk)
            finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in finished:
                del in_flight[future]
                try:
                    result = future.result()
                except BrokenProcessPool as error:
                    raise BrokenProcessPool(f"{error} {_BROKEN}") from error
                if result.records:
                    per_game = result.seconds / len(result.records)
                for record in result.records:
                    records[record.index] = record
                    if on_done is not None:
                        on_done(record)
    except BaseException:  # Ctrl-C or a failed game: stop what is still running
        for future in in_flight:
            future.cancel()
        if own:
            engine.close(cancel=True)
        raise
    if own:
        engine.close()
    return tuple(records[index] for index in range(plan.games))


def record_data(record: GameRecord) -> dict[str, Any]:
    """One game as JSON-ready data: what ``avanti simulate --json FILE`` writes under ``games``."""
    return {
        "index": record.index,
        "seed": record.seed,
        "bots": list(record.bots),
        "winners": list(record.winners),
        "returns": list(record.returns),
        "events": record.events,
        "commands": record.commands,
        "counts": dict(record.counts),
    }


def record_from_data(data: Any) -> GameRecord:
    """The record that :func:`record_data` wrote.

    :raises InvalidArgument: ``data`` is not such a record.
    """
    try:
        return GameRecord(
            _int(data["index"]),
            _int(data["seed"]),
            tuple(str(bot) for bot in data["bots"]),
            tuple(_int(seat) for seat in data["winners"]),
            _int(data["events"]),
            _int(data["commands"]),
            tuple(sorted((str(k), _int(v)) for k, v in dict(data["counts"]).items())),
            tuple(float(r) for r in data["returns"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidArgument(f"not a game record: {data!r} ({error})") from None


def _int(value: object) -> int:
    if type(value) is not int:
        raise ValueError(f"{value!r} is not an integer")
    return value


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / games`` (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@frozen
class Rate:
    """Wins out of games, the share, and its 95% Wilson interval."""

    wins: int
    games: int

    @property
    def share(self) -> float:
        """``wins / games`` (0 when there were no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of :attr:`share`."""
        return wilson(self.wins, self.games)


@frozen
class Mean:
    """The mean of a per-game number, with its standard deviation, minimum and maximum."""

    mean: float
    sd: float
    low: int
    high: int

    @classmethod
    def of(cls, values: list[int]) -> Mean:
        """Summarise ``values`` (at least one)."""
        n = len(values)
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        return cls(mean, sd, min(values), max(values))


@frozen
class Summary:
    """What a run adds up to.

    ``seats[s]``: wins of whoever sat at seat ``s``. ``bots``: wins of each bot per seat it held
    (a bot at two seats counts two seat-games per game). ``no_winner``: games that ended without
    a winner (draws). Shared victories count as a win for each winner.
    """

    plan: Plan
    seats: tuple[Rate, ...]
    bots: tuple[tuple[str, Rate], ...]
    no_winner: int
    events: Mean
    commands: Mean
    counts: tuple[tuple[str, Mean], ...]


def summarize(plan: Plan, records: tuple[GameRecord, ...]) -> Summary:
    """Add up the records of a run of ``plan`` (at least one)."""
    seat_wins = [0] * plan.seats
    kinds = list(dict.fromkeys(plan.bots))
    bot_wins = dict.fromkeys(kinds, 0)
    bot_games = dict.fromkeys(kinds, 0)
    for record in records:
        for seat, kind in enumerate(record.bots):
            won = seat in record.winners
            seat_wins[seat] += won
            bot_wins[kind] += won
            bot_games[kind] += 1
    names = sorted({name for record in records for name, _ in record.counts})
    counts = tuple(
        (name, Mean.of([dict(r.counts).get(name, 0) for r in records])) for name in names
    )
    return Summary(
        plan,
        tuple(Rate(wins, len(records)) for wins in seat_wins),
        tuple((kind, Rate(bot_wins[kind], bot_games[kind])) for kind in kinds),
        sum(1 for r in records if not r.winners),
        Mean.of([r.events for r in records]),
        Mean.of([r.commands for r in records]),
        counts,
    )
