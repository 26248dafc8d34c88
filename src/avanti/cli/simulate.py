"""``avanti simulate``: many seeded games between bots, in parallel, with win rates and lengths."""

from __future__ import annotations

import argparse
import importlib
import json
import os
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from avanti.bots.simulate import GameRecord, Mean, Plan, Rate, Summary, run, summarize
from avanti.catalog import game_info
from avanti.cli.console import make_console, say
from avanti.cli.files import write_atomically
from avanti.cli.watch import bot_kinds, seat_count
from avanti.core.errors import InvalidArgument

__all__ = ["plan_from", "simulate", "summary_data"]


def plan_from(args: argparse.Namespace) -> Plan:
    """The simulation the arguments ask for."""
    info = game_info(args.game)
    text = args.bots or "random"
    several = len([part for part in text.split(",") if part.strip()]) > 1
    if several and args.players is not None:
        raise InvalidArgument("give either --players with one bot, or one bot per seat")
    kinds = bot_kinds(text, seat_count(info, text, args.players))
    return Plan(args.game, tuple(kinds), args.games, args.seed, args.rotate, args.iterations)


def _cell(rate: Rate) -> tuple[str, str, str]:
    low, high = rate.interval
    return (f"{rate.wins}/{rate.games}", f"{rate.share:.1%}", f"{low:.1%} - {high:.1%}")


def _mean(mean: Mean) -> str:
    return f"{mean.mean:.1f} (sd {mean.sd:.1f}, {mean.low}-{mean.high})"


def _tables(summary: Summary) -> list[Table]:
    plan = summary.plan
    seats = Table(title="Wins by seat (95% Wilson interval)")
    seats.add_column("Seat", justify="right")
    if not plan.rotate:
        seats.add_column("Bot")
    for name in ("Wins", "Rate", "95% CI"):
        seats.add_column(name, justify="right")
    for seat, rate in enumerate(summary.seats):
        bot = () if plan.rotate else (plan.bots[seat],)
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
    """The summary as JSON-ready data (what ``--json`` prints)."""
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


def _progress_console() -> Console:
    return Console(stderr=True)


def simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Run the simulation and print (or write) what it adds up to."""
    plan = plan_from(args)
    plan.check()
    if args.plot is not None:
        _pyplot()
    workers = args.workers if args.workers is not None else min(plan.games, os.cpu_count() or 1)
    progress_console = _progress_console()
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=progress_console,
        disable=not progress_console.is_terminal,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=plan.games)

        def done(record: GameRecord) -> None:
            progress.advance(task)

        records = run(plan, workers=workers, on_done=done)
    summary = summarize(plan, records)
    if args.json:
        out.write(json.dumps(summary_data(summary), indent=2) + "\n")
    else:
        console = make_console(out)
        title = game_info(plan.game).title
        seating = "rotating seats" if plan.rotate else "fixed seats"
        say(
            console,
            f"{title}: {plan.games} games, seeds {plan.seed} to "
            f"{plan.seed + plan.games - 1}, bots {', '.join(plan.bots)} ({seating}), "
            f"{workers} worker{'s' if workers != 1 else ''}",
            style="bold",
        )
        for table in _tables(summary):
            console.print(table)
        if summary.no_winner:
            say(console, f"{summary.no_winner} games ended without a winner (draws).")
    if args.plot is not None:
        _plot(summary, args.plot)
        if not args.json:
            say(make_console(out), f"Plot written to {args.plot}.")
    return 0
