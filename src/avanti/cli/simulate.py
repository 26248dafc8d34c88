"""``avanti simulate`` and ``avanti tournament``: many seeded games between bots, on any engine.

Both show their progress (games per second, time left) on a terminal, write every finished game
to ``--json FILE`` as they go (about once a second, and on Ctrl-C), and go on with an
interrupted or shorter run with ``--resume``. The file holds the plan, the summary and, under
``games``, one entry per game: its index, seed, the bot at each seat and the outcome (winners,
returns). It holds nothing about how the run was made (engine, workers, time), so the same plan
writes the same file, byte for byte, on any engine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from avanti.bots.engines import Engine, make_engine
from avanti.bots.simulate import (
    GameRecord,
    Mean,
    Plan,
    Rate,
    Summary,
    record_data,
    record_from_data,
    run,
    summarize,
)
from avanti.bots.tournament import Rating, Tournament, fit_ratings
from avanti.catalog import game_info
from avanti.cli.console import make_console, say
from avanti.cli.files import write_atomically, write_text_atomically
from avanti.cli.watch import bot_kinds, seat_count
from avanti.core.errors import InvalidArgument

__all__ = [
    "SIMULATION_FORMAT",
    "TOURNAMENT_FORMAT",
    "plan_from",
    "ratings_data",
    "simulate",
    "summary_data",
    "tournament",
    "tournament_from",
]

SIMULATION_FORMAT = "avanti-simulation"
"""The ``format`` of the file ``avanti simulate --json FILE`` writes."""
TOURNAMENT_FORMAT = "avanti-tournament"
"""The ``format`` of the file ``avanti tournament --json FILE`` writes."""
VERSION = 1
"""The version of both formats."""
CHECKPOINT_SECONDS = 1.0
"""The least time between two writes of ``--json FILE`` while a run goes on."""
DEFAULT_GAMES = 100
"""``avanti simulate``'s number of games when ``--games`` is not given."""


def _use_working_folder() -> None:
    """Let ``module:attribute`` bots name modules in the current folder, as ``python -m`` does."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def plan_from(args: argparse.Namespace) -> Plan:
    """The simulation the arguments ask for (``--resume`` aside)."""
    info = game_info(args.game)
    text = args.bots or "random"
    several = len([part for part in text.split(",") if part.strip()]) > 1
    if several and args.players is not None:
        raise InvalidArgument("give either --players with one bot, or one bot per seat")
    kinds = bot_kinds(text, seat_count(info, text, args.players))
    games = args.games if args.games is not None else DEFAULT_GAMES
    seed = args.seed if args.seed is not None else 0
    return Plan(args.game, tuple(kinds), games, seed, args.rotate, args.iterations)


def _plan_data(plan: Plan) -> dict[str, Any]:
    return {
        "game": plan.game,
        "bots": list(plan.bots),
        "games": plan.games,
        "seed": plan.seed,
        "rotate": plan.rotate,
        "iterations": plan.iterations,
    }


def _cell(rate: Rate) -> tuple[str, str, str]:
    low, high = rate.interval
    return (f"{rate.wins}/{rate.games}", f"{rate.share:.1%}", f"{low:.1%} - {high:.1%}")


def _mean(mean: Mean) -> str:
    return f"{mean.mean:.1f} (sd {mean.sd:.1f}, {mean.low}-{mean.high})"


def _fixed(plan: Plan) -> bool:
    return not plan.rotate and not plan.schedule


def _tables(summary: Summary) -> list[Table]:
    plan = summary.plan
    seats = Table(title="Wins by seat (95% Wilson interval)")
    seats.add_column("Seat", justify="right")
    if _fixed(plan):
        seats.add_column("Bot")
    for name in ("Wins", "Rate", "95% CI"):
        seats.add_column(name, justify="right")
    for seat, rate in enumerate(summary.seats):
        bot = (plan.bots[seat],) if _fixed(plan) else ()
        seats.add_row(str(seat), *bot, *_cell(rate))
    bots = Table(title="Wins by bot, per seat held (95% Wilson)")
    bots.add_column("Bot")
    for name in ("Wins", "Rate", "95% CI"):
        bots.add_column(name, justify="right")
    for kind, rate in summary.bots:
        bots.add_row(kind, *_cell(rate))
    lengths = Table(title="Game length per game")
    lengths.add_column("Measure")
    lengths.add_column("Mean (sd, min-max)", justify="right")
    lengths.add_row("events", _mean(summary.events))
    lengths.add_row("commands", _mean(summary.commands))
    for name, mean in summary.counts:
        lengths.add_row(name, _mean(mean))
    return [seats, bots, lengths]


def _rate_data(rate: Rate) -> dict[str, Any]:
    low, high = rate.interval
    return {"wins": rate.wins, "games": rate.games, "rate": rate.share, "ci95": [low, high]}


def _mean_data(mean: Mean) -> dict[str, float]:
    return {"mean": mean.mean, "sd": mean.sd, "min": mean.low, "max": mean.high}


def summary_data(summary: Summary) -> dict[str, Any]:
    """The summary as JSON-ready data (what ``--json`` alone prints)."""
    plan = summary.plan
    return {
        "game": plan.game,
        "games": plan.games,
        "seed": plan.seed,
        "bots": list(plan.bots),
        "rotate": plan.rotate,
        "iterations": plan.iterations,
        "seats": [_rate_data(rate) for rate in summary.seats],
        "by_bot": {kind: _rate_data(rate) for kind, rate in summary.bots},
        "no_winner": summary.no_winner,
        "events": _mean_data(summary.events),
        "commands": _mean_data(summary.commands),
        **{name: _mean_data(mean) for name, mean in summary.counts},
    }


def ratings_data(ratings: tuple[Rating, ...]) -> list[dict[str, Any]]:
    """Ratings as JSON-ready data, best first: the rating and its 95% interval, and the win
    rate per seat held with its 95% Wilson interval."""
    return [
        {"bot": r.name, "elo": r.elo, "elo_ci95": [r.low, r.high], "won": _rate_data(r.rate)}
        for r in ratings
    ]


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend.

    :raises InvalidArgument: matplotlib is not installed (the message says how to install it).
    """
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise InvalidArgument(
            "--plot needs matplotlib, which is not installed: run "
            "python -m pip install '.[plot]' in a checkout of avanti (or install matplotlib)"
        ) from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def _plot(summary: Summary, path: Path) -> None:
    plt = _pyplot()
    kinds = [kind for kind, _ in summary.bots]
    rates = [rate.share for _, rate in summary.bots]
    lows = [rate.share - rate.interval[0] for _, rate in summary.bots]
    highs = [rate.interval[1] - rate.share for _, rate in summary.bots]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.bar(kinds, rates, yerr=[lows, highs], capsize=6, color="#4878a8")
    plan = summary.plan
    axes.set_title(f"{game_info(plan.game).title}: win rate per seat held, {plan.games} games")
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_ylim(0, 1)
    figure.tight_layout()
    write_atomically(path, lambda file: figure.savefig(file, format="png"))
    plt.close(figure)


def _plot_ratings(title: str, ratings: tuple[Rating, ...], path: Path) -> None:
    plt = _pyplot()
    names = [r.name for r in ratings]
    elos = [r.elo for r in ratings]
    below = [r.elo - r.low for r in ratings]
    above = [r.high - r.elo for r in ratings]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.errorbar(names, elos, yerr=[below, above], fmt="o", capsize=6, color="#4878a8")
    axes.axhline(1500, color="#999999", linestyle="--", linewidth=1)  # the field's mean
    axes.set_title(title, fontsize=10)
    axes.set_ylabel("rating, Elo scale (95% interval)")
    figure.tight_layout()
    write_atomically(path, lambda file: figure.savefig(file, format="png"))
    plt.close(figure)


def _progress_console() -> Console:
    return Console(stderr=True)


def _document(head: dict[str, Any], records: list[GameRecord]) -> str:
    """The JSON document: ``head``'s keys, then ``games``, one game a line, in game order."""
    text = json.dumps(head, indent=2)
    games = ",\n".join("    " + json.dumps(record_data(r)) for r in records)
    return text[:-2] + ',\n  "games": [\n' + games + ("\n" if games else "") + "  ]\n}\n"


def _read(path: Path, fmt: str) -> tuple[dict[str, Any], tuple[GameRecord, ...]]:
    """The head and the games of a file written by ``--json FILE``.

    :raises InvalidArgument: the file is not such a document.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InvalidArgument(f"cannot resume from {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != fmt or data.get("version") != VERSION:
        raise InvalidArgument(f"cannot resume from {path}: it is not an {fmt} file (version 1)")
    games = data.get("games")
    if not isinstance(games, list):
        raise InvalidArgument(f"cannot resume from {path}: it has no list of games")
    return data, tuple(record_from_data(entry) for entry in games)


class _Checkpoint:
    """Keeps the finished games and writes the document as they come.

    A write waits :data:`CHECKPOINT_SECONDS` after the last one, or ten times as long as the
    last one took if that is longer: a file of millions of games then costs at most a tenth of
    the driver's time.
    """

    def __init__(self, path: Path | None, head: Callable[[list[GameRecord], bool], dict[str, Any]]):
        self.path = path
        self.head = head
        self.records: dict[int, GameRecord] = {}
        self.due = 0.0

    def add(self, record: GameRecord) -> None:
        self.records[record.index] = record
        if self.path is not None and time.monotonic() >= self.due:
            self.write(complete=False)

    def write(self, *, complete: bool) -> None:
        if self.path is None:
            return
        start = time.monotonic()
        records = [self.records[index] for index in sorted(self.records)]
        write_text_atomically(self.path, _document(self.head(records, complete), records))
        end = time.monotonic()
        self.due = end + max(CHECKPOINT_SECONDS, 10 * (end - start))


def _play(
    plan: Plan,
    engine: Engine,
    checkpoint: _Checkpoint,
    done: tuple[GameRecord, ...],
    command: str,
) -> tuple[GameRecord, ...]:
    """Run ``plan``, showing progress on a terminal and keeping ``checkpoint`` up to date."""
    for record in done:
        checkpoint.records[record.index] = record
    console = _progress_console()
    started = time.monotonic()
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[speed]}"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=plan.games, completed=len(done), speed="")
        played = 0

        def finished(record: GameRecord) -> None:
            nonlocal played
            played += 1
            checkpoint.add(record)
            rate = played / max(time.monotonic() - started, 1e-9)
            progress.update(task, advance=1, speed=f"{rate:,.0f} games/s")

        try:
            records = run(plan, engine=engine, on_done=finished, done=done)
        except KeyboardInterrupt:
            checkpoint.write(complete=False)
            kept = len(checkpoint.records)
            where = (
                f"; they are in {checkpoint.path}, and "
                f"'avanti {command} --json {checkpoint.path} --resume' plays the rest"
                if checkpoint.path is not None
                else " (give --json FILE to keep them)"
            )
            sys.stderr.write(f"avanti: {kept} of {plan.games} games finished{where}\n")
            raise
    checkpoint.write(complete=True)
    return records


def _engine(args: argparse.Namespace, games: int) -> Engine:
    workers = args.workers
    if args.engine == "local" and workers is None:
        workers = min(games, os.cpu_count() or 1)
    return make_engine(args.engine, workers, args.address)


def _json_file(args: argparse.Namespace) -> Path | None:
    """The ``--json FILE`` path (``None`` when absent or ``-``: standard output)."""
    return None if args.json in (None, "-") else Path(args.json)


def _resume_file(args: argparse.Namespace) -> Path | None:
    path = _json_file(args)
    if not args.resume:
        return None
    if path is None:
        raise InvalidArgument("--resume goes on with the run in --json FILE; give the file")
    if not path.exists():
        raise InvalidArgument(f"cannot resume from {path}: there is no such file")
    return path


def _only_resumable(args: argparse.Namespace, names: tuple[str, ...], grow: str) -> None:
    given = [name for name in names if getattr(args, name) not in (None, False)]
    if given:
        raise InvalidArgument(
            f"--resume takes the plan from the file; give only --{grow} (to play more), "
            f"--workers, --engine and --address, not --{given[0]}"
        )


def simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Run the simulation and print (or write) what it adds up to."""
    _use_working_folder()
    resume = _resume_file(args)
    done: tuple[GameRecord, ...] = ()
    if resume is not None:
        _only_resumable(args, ("bots", "players", "seed", "rotate", "iterations"), "games")
        data, done = _read(resume, SIMULATION_FORMAT)
        stored = data.get("plan", {})
        try:
            plan = Plan(
                str(stored["game"]),
                tuple(str(b) for b in stored["bots"]),
                max(int(stored["games"]), args.games or 0),
                int(stored["seed"]),
                bool(stored["rotate"]),
                stored["iterations"],
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidArgument(f"cannot resume from {resume}: a bad plan ({error})") from None
    else:
        plan = plan_from(args)
    plan.check()
    if args.plot is not None:
        _pyplot()
    path = _json_file(args)

    def head(records: list[GameRecord], complete: bool) -> dict[str, Any]:
        summary = summary_data(summarize(plan, tuple(records))) if records else None
        return {
            "format": SIMULATION_FORMAT,
            "version": VERSION,
            "complete": complete,
            "plan": _plan_data(plan),
            "summary": summary,
        }

    engine = _engine(args, plan.games)
    try:
        records = _play(plan, engine, _Checkpoint(path, head), done, "simulate")
    except BaseException:
        engine.close(cancel=True)
        raise
    engine.close()
    summary = summarize(plan, records)
    if args.json == "-":
        out.write(json.dumps(summary_data(summary), indent=2) + "\n")
    else:
        console = make_console(out)
        title = game_info(plan.game).title
        seating = "rotating seats" if plan.rotate else "fixed seats"
        workers = engine.workers
        say(
            console,
            f"{title}: {plan.games} games, seed {plan.seed}, bots {', '.join(plan.bots)} "
            f"({seating}), {workers} worker{'s' if workers != 1 else ''} ({args.engine})",
            style="bold",
        )
        for table in _tables(summary):
            console.print(table)
        if summary.no_winner:
            say(console, f"{summary.no_winner} games ended without a winner (draws).")
        if path is not None:
            say(console, f"Every game written to {path}.")
    if args.plot is not None:
        _plot(summary, args.plot)
        if args.json != "-":
            say(make_console(out), f"Plot written to {args.plot}.")
    return 0


def tournament_from(args: argparse.Namespace) -> Tournament:
    """The tournament the arguments ask for (``--resume`` aside)."""
    bots = tuple(part.strip() for part in (args.bots or "").split(",") if part.strip())
    return Tournament(
        args.game,
        bots,
        args.seats,
        args.rounds if args.rounds is not None else 1,
        args.seed if args.seed is not None else 0,
        args.format or "round-robin",
        args.iterations,
    )


def _tournament_data(t: Tournament) -> dict[str, Any]:
    return {
        "game": t.game,
        "bots": list(t.bots),
        "seats": t.table,
        "rounds": t.rounds,
        "seed": t.seed,
        "format": t.fmt,
        "iterations": t.iterations,
    }


def tournament(args: argparse.Namespace, out: TextIO) -> int:
    """Play a tournament and print (or write) the ratings."""
    _use_working_folder()
    resume = _resume_file(args)
    done: tuple[GameRecord, ...] = ()
    if resume is not None:
        _only_resumable(args, ("bots", "seats", "seed", "format", "iterations"), "rounds")
        data, done = _read(resume, TOURNAMENT_FORMAT)
        stored = data.get("tournament", {})
        try:
            t = Tournament(
                str(stored["game"]),
                tuple(str(b) for b in stored["bots"]),
                int(stored["seats"]),
                max(int(stored["rounds"]), args.rounds or 0),
                int(stored["seed"]),
                str(stored["format"]),
                stored["iterations"],
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidArgument(f"cannot resume from {resume}: a bad plan ({error})") from None
    else:
        t = tournament_from(args)
    plan = t.plan()
    plan.check()
    if args.plot is not None:
        _pyplot()
    path = _json_file(args)

    def head(records: list[GameRecord], complete: bool) -> dict[str, Any]:
        summary = summary_data(summarize(plan, tuple(records))) if records else None
        return {
            "format": TOURNAMENT_FORMAT,
            "version": VERSION,
            "complete": complete,
            "tournament": _tournament_data(t),
            "ratings": ratings_data(fit_ratings(records, t.bots)),
            "summary": summary,
        }

    engine = _engine(args, plan.games)
    try:
        records = _play(plan, engine, _Checkpoint(path, head), done, "tournament")
    except BaseException:
        engine.close(cancel=True)
        raise
    engine.close()
    ratings = fit_ratings(records, t.bots)
    info = game_info(t.game)
    title = (
        f"{info.title}: {t.fmt} of {len(t.bots)} bots, {t.table} seats, "
        f"{t.rounds} round{'s' if t.rounds != 1 else ''}, {plan.games} games"
    )
    if args.json == "-":
        document = {"tournament": _tournament_data(t), "ratings": ratings_data(ratings)}
        out.write(json.dumps(document, indent=2) + "\n")
    else:
        console = make_console(out)
        say(console, f"{title}, seed {t.seed} ({args.engine})", style="bold")
        table = Table(title="Ratings, Elo scale (Bradley-Terry fit, 95% intervals)")
        table.add_column("Bot")
        for name in ("Rating", "95% CI", "Wins", "Win rate", "95% CI (Wilson)"):
            table.add_column(name, justify="right")
        for rating in ratings:
            low, high = rating.rate.interval
            table.add_row(
                rating.name,
                f"{rating.elo:.0f}",
                f"{rating.low:.0f} - {rating.high:.0f}",
                f"{rating.rate.wins}/{rating.rate.games}",
                f"{rating.rate.share:.1%}",
                f"{low:.1%} - {high:.1%}",
            )
        console.print(table)
        if path is not None:
            say(console, f"Every game written to {path}.")
    if args.plot is not None:
        _plot_ratings(title, ratings, args.plot)
        if args.json != "-":
            say(make_console(out), f"Plot written to {args.plot}.")
    return 0
