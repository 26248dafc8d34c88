"""Where a simulation's games are played: this process, a pool of local processes, or Ray.

An :class:`Engine` takes tasks (a module-level function and its argument, both picklable) and hands
back a ``concurrent.futures.Future`` for each; the simulator keeps a few tasks in flight per
worker and gathers them as they finish. Three engines fill it in:

- :class:`LocalEngine` with one worker plays each task in this process, at once (nothing to
  pickle, nothing to start: the default for one worker).
- :class:`LocalEngine` with several workers runs a ``concurrent.futures.ProcessPoolExecutor``
  on this machine, its processes started by a clean server process (``forkserver``, or
  ``spawn`` where there is none), never forked from the caller, whose threads (Ray's, a web
  server's) a fork could leave holding a lock.
- :class:`RayEngine` runs tasks on a Ray cluster: a local one it starts itself, or an existing
  one given by its address (``ray`` comes with the ``ray`` extra: ``pip install 'avanti[ray]'``).

Results never depend on the engine: a game's seed and bots depend only on its index, and each
game is played whole inside one task.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from avanti.core.errors import InvalidArgument

__all__ = ["ENGINES", "Engine", "LocalEngine", "RayEngine", "make_engine"]

T = TypeVar("T")
R = TypeVar("R")

ENGINES: tuple[str, ...] = ("local", "ray")
"""The engine names :func:`make_engine` and ``avanti simulate --engine`` accept."""

RAY_MISSING = (
    "the Ray engine needs ray, which is not installed: run pip install 'avanti[ray]' "
    "(python -m pip install '.[ray]' in a checkout of avanti)"
)
"""What :class:`RayEngine` says when ``ray`` cannot be imported."""


class Engine(Protocol):
    """Runs picklable tasks somewhere and hands back a future for each.

    ``workers`` is how many tasks run at once. ``submit`` must not block for long (the local
    engine with one worker is the exception: it runs the task at once). ``close(cancel=True)``
    drops the tasks not yet finished and stops the workers at once (after Ctrl-C).
    """

    @property
    def workers(self) -> int:
        """How many tasks run side by side."""
        ...

    def submit(self, function: Callable[[T], R], argument: T) -> Future[R]:
        """Start ``function(argument)``; its result (or exception) arrives in the future."""
        ...

    def close(self, *, cancel: bool = False) -> None:
        """Release the workers; with ``cancel``, stop unfinished tasks at once."""
        ...


class LocalEngine:
    """This machine: one worker plays in this process; more run a process pool.

    The pool's processes start from a clean server process (see the module's docstring), so what
    they run must be importable by name, as :meth:`Plan.check_portable
    <avanti.bots.simulate.Plan.check_portable>` asks of a plan for more than one worker. They
    ignore Ctrl-C, which the calling process handles once: it closes the engine with
    ``cancel=True``, which terminates them.
    """

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise InvalidArgument(f"workers must be at least 1, got {workers}")
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._others: set[multiprocessing.process.BaseProcess] = set()
        if workers > 1:
            self._others = set(multiprocessing.active_children())
            start = (
                "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            )
            context = multiprocessing.get_context(start)
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=_ignore_interrupts
            )

    @property
    def workers(self) -> int:
        """How many processes play (1: this one)."""
        return self._workers

    def submit(self, function: Callable[[T], R], argument: T) -> Future[R]:
        """Run ``function(argument)`` now (one worker) or in the pool."""
        if self._pool is not None:
            return self._pool.submit(function, argument)
        future: Future[R] = Future()
        try:
            future.set_result(function(argument))
        except Exception as error:
            future.set_exception(error)
        return future

    def close(self, *, cancel: bool = False) -> None:
        """Shut the pool down; with ``cancel``, terminate its processes at once."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if not cancel:
            pool.shutdown()
            return
        # The pool's own table (emptied by shutdown) holds every worker it started.
        started = set((pool._processes or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        _stop((set(multiprocessing.active_children()) - self._others) | started)


def _stop(workers: set[multiprocessing.process.BaseProcess]) -> None:
    """Terminate the workers, and kill any that has not ended a few seconds later.

    Returns once each worker's exit code is known. The pool's own thread may reap a worker at
    the same moment (after ``shutdown``); then this process's ``join`` returns before the exit
    code is recorded, so it waits a little for that too (the forkserver reports a code once, so
    the second of two such readers records 255).
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
    """In a worker: leave Ctrl-C to the parent, which stops the run and reports once, and let
    SIGTERM end the worker at once (a handler that exits cleanly, as Ray's does, would let a
    stopped worker finish its batch)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _call(function: Callable[[T], R], argument: T) -> R:
    """A Ray task: ``function(argument)``."""
    return function(argument)


def import_ray() -> Any:
    """The ``ray`` module.

    :raises InvalidArgument: ray is not installed (the message says how to install it).
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise InvalidArgument(RAY_MISSING) from None


class RayEngine:
    """A Ray cluster: the one this process is connected to, one at ``address``, or a new one.

    When Ray is not yet initialised, the engine calls ``ray.init(address=address)`` (with
    ``num_cpus=workers`` when it starts a local cluster) and shuts Ray down on :meth:`close`;
    a connection made by the caller is left open. ``workers`` defaults to the cluster's CPUs.
    Each task asks Ray for one CPU. Functions and arguments travel by pickle, so they must be
    importable on the workers (the library is; install a bot's module there too).
    """

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        if workers is not None and workers < 1:
            raise InvalidArgument(f"workers must be at least 1, got {workers}")
        ray = import_ray()
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            options: dict[str, Any] = {"log_to_driver": False}
            if address is None:  # a new local cluster: no dashboard, ``workers`` CPUs
                options["include_dashboard"] = False
                if workers is not None:
                    options["num_cpus"] = workers
            ray.init(address=address, **options)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self._workers = workers if workers is not None else max(1, cpus)
        self._remote = ray.remote(num_cpus=1, max_retries=0)(_call)
        self._refs: list[Any] = []

    @property
    def workers(self) -> int:
        """How many tasks run side by side."""
        return self._workers

    def submit(self, function: Callable[[T], R], argument: T) -> Future[R]:
        """Start ``function(argument)`` as a Ray task."""
        ref = self._remote.remote(function, argument)
        self._refs.append(ref)
        if len(self._refs) > 4 * self._workers:
            ready, _ = self._ray.wait(self._refs, num_returns=len(self._refs), timeout=0)
            done = set(ready)
            self._refs = [r for r in self._refs if r not in done]
        future: Future[R] = ref.future()
        return future

    def close(self, *, cancel: bool = False) -> None:
        """Cancel unfinished tasks (with ``cancel``); shut Ray down if this engine started it."""
        if cancel:
            for ref in self._refs:
                # A task already finished or gone has nothing to cancel.
                with contextlib.suppress(Exception):
                    self._ray.cancel(ref, force=True)
        self._refs = []
        if self._started:
            self._started = False
            self._ray.shutdown()


def make_engine(name: str, workers: int | None = None, address: str | None = None) -> Engine:
    """The engine called ``name`` (one of :data:`ENGINES`).

    ``local`` defaults to one worker per CPU; ``address`` is for ``ray`` only.

    :raises InvalidArgument: an unknown name, ``address`` for the local engine, fewer than one
        worker, or ``ray`` when Ray is not installed.
    """
    if name == "local":
        if address is not None:
            raise InvalidArgument("--address names a Ray cluster; it needs --engine ray")
        return LocalEngine(workers if workers is not None else (os.cpu_count() or 1))
    if name == "ray":
        return RayEngine(workers, address)
    raise InvalidArgument(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")
