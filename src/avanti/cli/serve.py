"""``avanti serve``: the game server (:mod:`avanti.server`) under uvicorn.

With no flags it keeps its games in ``avanti.db``, an SQLite file in the current folder, and
listens on ``127.0.0.1:8000``. ``--database postgresql://...`` keeps them in PostgreSQL, where
any number of ``avanti serve`` processes may serve the same games. ``--limit NAME=VALUE``
changes one of the server's limits; ``--forwarded-allow-ips`` names the proxies whose
``X-Forwarded-For`` header is trusted (none by default, so that no client can claim another
address to escape the limits per address). Logs are JSON lines on standard error. On SIGINT or
SIGTERM the server stops accepting connections, finishes the requests under way (every
acknowledged command is already in the store), closes the WebSockets (code 1012: clients
reconnect with their last version) and closes the store.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any, TextIO

from avanti.core.errors import InvalidArgument
from avanti.store import EventStore, SQLiteEventStore

__all__ = ["DEFAULT_DATABASE", "GC_THRESHOLDS", "GRACE_SECONDS", "open_store", "serve", "settle_gc"]

DEFAULT_DATABASE = "avanti.db"
"""The SQLite file ``avanti serve`` keeps its games in when no ``--database`` is given."""

GRACE_SECONDS = 30
"""How long a stopping server waits for the requests under way before it cancels them."""

GC_THRESHOLDS = (20_000, 20, 10)
"""The garbage collector's thresholds in a server process (Python's are ``(700, 10, 10)``).

A server allocates a game's new state and events for every command and keeps each game it
holds, so under the default thresholds the collector ran about 70 times a second, a full
collection now and then for up to 150 ms: about a tenth of the process's time, and the longest
stalls of every seat's answer. The objects are freed by their reference counts; cycles are
rare. Measured on the benchmark's load (201 seats): 30 young collections a run instead of 910,
and about 0.1 ms less CPU a command."""

POSTGRES_PREFIXES = ("postgresql://", "postgres://")
"""How a ``--database`` that names a PostgreSQL database begins."""


def open_store(database: str) -> EventStore:
    """The event store ``--database`` names: a PostgreSQL URI, else an SQLite file's path."""
    if database.startswith(POSTGRES_PREFIXES):
        try:
            from avanti.store.postgres import PostgresEventStore
        except ImportError as missing:  # pragma: no cover - depends on the environment
            raise InvalidArgument(str(missing)) from None
        return PostgresEventStore(database)
    return SQLiteEventStore(database)


@contextlib.contextmanager
def _graceful_sigterm(server: Any) -> Iterator[None]:
    """In the main thread, let SIGTERM ask uvicorn to stop gracefully, also outside the time it
    takes the signal itself (and when it raises the signal again once it has stopped, which
    would otherwise end the process before the store is closed)."""
    main = threading.current_thread() is threading.main_thread()

    def stop(signum: int, frame: FrameType | None) -> None:
        server.should_exit = True

    previous = signal.signal(signal.SIGTERM, stop) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def add_arguments(command: argparse.ArgumentParser) -> None:
    """The options of ``avanti serve``."""
    command.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        help="an SQLite file, or postgresql://... (default: %(default)s in the current folder)",
    )
    command.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)"
    )
    command.add_argument(
        "--port", type=int, default=8000, help="the port to listen on (default: %(default)s)"
    )
    command.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the server's limits (avanti.server.ServerLimits), e.g. "
        "--limit commands_per_second=20 --limit idle_timeout=600; repeat for several",
    )
    command.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help="the proxies (comma-separated addresses, or *) whose X-Forwarded-For header names "
        "the client; by default none is trusted and a client is known by its own address",
    )


def limits_from(pairs: list[str]) -> Any:
    """The :class:`~avanti.server.ServerLimits` that ``--limit NAME=VALUE`` options ask for.

    :raises InvalidArgument: an option is not ``NAME=VALUE``, names no limit, or gives a value
        the limit refuses.
    """
    import attrs

    from avanti.server import ServerLimits

    fields = {field.name: field for field in attrs.fields(ServerLimits)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or name not in fields or name == "bot_kinds":
            known = ", ".join(sorted(set(fields) - {"bot_kinds"}))
            raise InvalidArgument(
                f"--limit takes NAME=VALUE with NAME one of {known}, not {pair!r}"
            )
        whole = fields[name].type in (int, "int")
        try:
            changes[name] = int(text) if whole else float(text)
        except ValueError:
            kind = "a whole number" if whole else "a number"
            raise InvalidArgument(f"--limit {name} needs {kind}, not {text!r}") from None
    return attrs.evolve(ServerLimits(), **changes)  # each value checked by ServerLimits


def settle_gc() -> None:
    """Set the process's garbage collector for a long-running server: what is loaded by now
    (the library, the app) is collected once and frozen (never looked at again), and the
    thresholds are :data:`GC_THRESHOLDS`. Called by :func:`serve` once the app is built; a
    program that embeds the app decides this for its own process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve(args: argparse.Namespace, out: TextIO) -> int:
    """Serve games until stopped; the exit code."""
    try:
        import uvicorn

        from avanti.server import create_app
        from avanti.server.log import configure
        from avanti.server.transport.uvicorn import uvicorn_config
    except ImportError:  # pragma: no cover - depends on the environment
        raise InvalidArgument(
            "the game server needs its extra: python -m pip install 'avanti[server]'"
        ) from None
    if not 0 <= args.port <= 65_535:
        raise InvalidArgument(f"--port must be from 0 to 65535, not {args.port}")
    limits = limits_from(args.limit)
    configure(logging.INFO)
    with open_store(args.database) as store:
        app = create_app(store, limits=limits)
        config = uvicorn_config(
            app,
            limits,
            host=args.host,
            port=args.port,
            lifespan="on",
            timeout_graceful_shutdown=GRACE_SECONDS,
            proxy_headers=bool(args.forwarded_allow_ips),
            forwarded_allow_ips=args.forwarded_allow_ips or None,
        )
        server = uvicorn.Server(config)
        settle_gc()
        try:
            with _graceful_sigterm(server):
                server.run()
        except SystemExit:  # uvicorn could not start (the port is taken, ...): it logged why
            return 1
    # tests/server/test_serve.py runs these lines, but coverage stops following the main
    # thread once uvicorn has raised SIGTERM again
    out.write("avanti: the server has stopped\n")  # pragma: no cover
    return 0  # pragma: no cover
