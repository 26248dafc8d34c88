"""Many seeded games played by bots, in parallel processes, and what they add up to.

Game ``i`` of a run uses seed ``seed + i`` for the game and a separate stream of the same seed for
the bots, and every game is played in one process from start to end, so the results are the same
whatever the number of workers. Win rates come with 95% Wilson score intervals.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from attrs import frozen

from avanti.bots import BOT_KINDS
from avanti.bots.driver import play
from avanti.bots.kit import kit_for, make_bot
from avanti.catalog import game_info
from avanti.core.errors import InvalidArgument, InvalidSetup

__all__ = [
    "GameRecord",
    "Mean",
    "Plan",
    "Rate",
    "Summary",
    "play_one",
    "run",
    "summarize",
    "wilson",
]

BOT_SEED_OFFSET = 1 << 64
"""Added to a game's seed to seed its bots, so their stream differs from the game's own."""

Z95 = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""


@frozen
class Plan:
    """What to simulate: the game, one bot kind per seat, how many games, from which seed.

    With ``rotate`` the bots move one seat round the table from game to game (game ``i`` seats
    bot ``(s + i) % n`` at seat ``s``), so that no bot keeps a good or bad seat.
    ``iterations`` overrides the search bot's budget.
    """

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    rotate: bool = False
    iterations: int | None = None

    def seating(self, index: int) -> tuple[str, ...]:
        """The bot kind at each seat in game ``index``."""
        n = len(self.bots)
        shift = index % n if self.rotate else 0
        return tuple(self.bots[(seat + shift) % n] for seat in range(n))

    def check(self) -> None:
        """Raise :class:`~avanti.core.InvalidArgument`, :class:`~avanti.core.InvalidSetup` (a table
        the game does not seat) or :class:`~avanti.core.UnknownGame` when the plan cannot run."""
        info = game_info(self.game)
        if self.games < 1:
            raise InvalidArgument(f"simulate at least one game, not {self.games}")
        for kind in self.bots:
            if kind not in BOT_KINDS:
                raise InvalidArgument(f"unknown bot {kind!r}; choose from {', '.join(BOT_KINDS)}")
        if not info.min_players <= len(self.bots) <= info.max_players:
            raise InvalidSetup(
                f"{info.title} takes {info.min_players} to {info.max_players} players, "
                f"not {len(self.bots)} (one bot sits at each seat)"
            )
        if "search" in self.bots and kit_for(info).sampler is None:
            raise InvalidArgument(f"{info.title} has no search bot (it offers no state sampler)")


@frozen
class GameRecord:
    """One finished game: its index and seed, who sat where, who won, and how long it took."""

    index: int
    seed: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    events: int
    commands: int
    counts: tuple[tuple[str, int], ...]


def play_one(plan: Plan, index: int) -> GameRecord:
    """Play game ``index`` of ``plan`` to the end (used in worker processes)."""
    info = game_info(plan.game)
    kit = kit_for(info)
    seed = plan.seed + index
    seating = plan.seating(index)
    game: Any = info.new_game(info.player_names(len(seating)), seed=seed)
    bots = {
        seat: make_bot(kind, info, game.setup, seat, iterations=plan.iterations)
        for seat, kind in enumerate(seating)
    }
    commands = 0
    for step in play(game, bots, seed=seed + BOT_SEED_OFFSET):
        game = step.game
        commands += 1
    counts: Mapping[str, int] = kit.counts(game.events)
    return GameRecord(
        index,
        seed,
        seating,
        tuple(game.outcome.winners),
        len(game.events),
        commands,
        tuple(sorted(counts.items())),
    )


def run(
    plan: Plan, *, workers: int = 1, on_done: Callable[[GameRecord], None] | None = None
) -> tuple[GameRecord, ...]:
    """Play every game of ``plan`` on ``workers`` processes; records in game order.

    ``workers=1`` plays in this process. ``on_done`` is called as each game finishes (in the
    order they finish), for a progress bar.
    """
    plan.check()
    if workers < 1:
        raise InvalidArgument(f"workers must be at least 1, got {workers}")
    records: list[GameRecord] = []
    if workers == 1:
        for index in range(plan.games):
            records.append(play_one(plan, index))
            if on_done is not None:
                on_done(records[-1])
        return tuple(records)
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        futures = [pool.submit(play_one, plan, index) for index in range(plan.games)]
        for future in as_completed(futures):
            record = future.result()
            records.append(record)
            if on_done is not None:
                on_done(record)
    except BaseException:  # Ctrl-C or a failed game: stop this pool's workers at once
        # The pool's own table (emptied by shutdown) holds every worker it started.
        started = set((pool._processes or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        _stop((set(multiprocessing.active_children()) - others) | started)
        raise
    pool.shutdown()
    return tuple(sorted(records, key=lambda r: r.index))


def _stop(workers: set[multiprocessing.process.BaseProcess]) -> None:
    """Terminate the workers, and kill any that has not ended a few seconds later.

    Returns once each worker's exit code is known. The pool's own thread may reap a worker at
    the same moment (after ``shutdown``); then this process's ``join`` returns before the exit
    code is recorded, so it waits a little for that too.
    """
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(timeout=5)
        if worker.is_alive():
            worker.kill()
            worker.join(timeout=5)
        deadline = time.monotonic() + 5
        while worker.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.01)


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the run and reports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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

    ``seats[s]``: wins of whoever sat at seat ``s``. ``bots``: wins of each bot kind per seat
    it held (a kind at two seats counts two seat-games per game). ``no_winner``: games that
    ended without a winner (draws). Shared victories count as a win for each winner.
    """

    plan: Plan
    seats: tuple[Rate, ...]
    bots: tuple[tuple[str, Rate], ...]
    no_winner: int
    events: Mean
    commands: Mean
    counts: tuple[tuple[str, Mean], ...]


def summarize(plan: Plan, records: tuple[GameRecord, ...]) -> Summary:
    """Add up the records of a run of ``plan``."""
    n = len(plan.bots)
    seat_wins = [0] * n
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
