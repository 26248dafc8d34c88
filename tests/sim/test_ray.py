"""The Ray engine on a real local Ray cluster: the same games as the local engine, seed for seed."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from avanti.bots.engines import RayEngine, make_engine
from avanti.bots.simulate import Entrant, Plan, run
from avanti.bots.tournament import Tournament, fit_ratings
from avanti.cli import main
from avanti.core.errors import InvalidArgument
from tests.sim.bots import FirstBot, LastBot, never_done

PATIENCE = 120.0
"""How long a future is waited for before the test fails (a guard, never a measure)."""

MINE = "tests.sim.bots:FirstBot"


def test_ray_plays_a_users_bots_as_the_local_engine_does(ray_cluster: Any) -> None:
    plan = Plan(
        "mare",
        ("first", "last", "heuristic"),
        40,
        seed=12,
        rotate=True,
        entrants=(Entrant("first", FirstBot), Entrant("last", LastBot)),
    )
    engine = RayEngine()
    assert engine.workers == 2  # the cluster's CPUs
    on_ray = run(plan, engine=engine, batch_size=3)
    engine.close()
    assert ray_cluster.is_initialized()  # a cluster the engine did not start stays up
    assert on_ray == run(plan, workers=1)
    assert {r.bots[0] for r in on_ray} == {"first", "last", "heuristic"}


def test_a_tournament_on_ray_rates_as_the_local_one(ray_cluster: Any) -> None:
    t = Tournament("mare", ("heuristic", MINE, "random"), seats=2, rounds=2, seed=3)
    on_ray = run(t.plan(), engine=make_engine("ray"))
    assert on_ray == run(t.plan(), workers=2)
    assert fit_ratings(on_ray, t.bots) == fit_ratings(run(t.plan()), t.bots)


def test_the_command_line_writes_the_same_file_on_ray(ray_cluster: Any, tmp_path: Path) -> None:
    argv = ["simulate", "--game", "avanti", "--games", "8", "--bots", f"heuristic,{MINE},random"]
    argv += ["--rotate", "--seed", "21", "--json"]
    out = io.StringIO()
    assert main([*argv, str(tmp_path / "ray.json"), "--engine", "ray"], out=out) == 0
    assert "2 workers (ray)" in out.getvalue()
    assert main([*argv, str(tmp_path / "local.json"), "--workers", "1"], out=io.StringIO()) == 0
    assert (tmp_path / "ray.json").read_bytes() == (tmp_path / "local.json").read_bytes()


def test_cancelling_a_ray_engine_ends_its_unfinished_tasks(ray_cluster: Any) -> None:
    """Finished tasks are let go as more are submitted (at most four a worker are held);
    ``close(cancel=True)`` cancels a task still running, whose future then says so, and leaves
    a cluster the engine did not start up."""
    engine = RayEngine(workers=1)
    results = [engine.submit(abs, -n).result(timeout=PATIENCE) for n in range(1, 7)]
    assert results == [1, 2, 3, 4, 5, 6]
    assert len(engine._refs) <= 2  # the 5th submit let go of the four finished before it
    running = engine.submit(never_done, None)
    engine.close(cancel=True)
    error = running.exception(timeout=PATIENCE)
    assert isinstance(error, ray_cluster.exceptions.TaskCancelledError), repr(error)
    assert engine._refs == []
    assert ray_cluster.is_initialized()


def test_without_ray_the_engine_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(InvalidArgument, match=r"pip install 'avanti\[ray\]'"):
        make_engine("ray")
    with pytest.raises(InvalidArgument, match="unknown engine 'spark'; choose from local, ray"):
        make_engine("spark")
