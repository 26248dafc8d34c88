"""``avanti lab``: the rules lab on this computer alone.

The same app as ``avanti serve``, on a store in memory (nothing is kept after it stops), bound to
the loopback address only, so no other computer can reach it; it prints the lab's address and
opens nothing. ``--port 0`` takes any free port.
"""

from __future__ import annotations

import argparse
import logging
import socket
from typing import TextIO

from avanti.core.errors import InvalidArgument

__all__ = ["HOST", "add_arguments", "lab"]

HOST = "127.0.0.1"
"""The loopback address the lab listens on."""


def add_arguments(command: argparse.ArgumentParser) -> None:
    """The options of ``avanti lab``."""
    command.add_argument(
        "--port",
        type=int,
        default=8000,
        help="the loopback port to listen on; 0 takes a free one (default: %(default)s)",
    )


def lab(args: argparse.Namespace, out: TextIO) -> int:
    """Serve the lab until stopped; the exit code."""
    try:
        import uvicorn

        from avanti.cli.serve import _graceful_sigterm
        from avanti.server import ServerLimits, create_app
        from avanti.server.log import configure
        from avanti.server.transport.uvicorn import uvicorn_config
        from avanti.store import MemoryEventStore
    except ImportError:  # pragma: no cover - depends on the environment
        raise InvalidArgument(
            "the rules lab needs the server's extra: python -m pip install 'avanti[server]'"
        ) from None
    if not 0 <= args.port <= 65_535:
        raise InvalidArgument(f"--port must be from 0 to 65535, not {args.port}")
    limits = ServerLimits()
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((HOST, args.port))
    except OSError as error:
        listening.close()
        raise InvalidArgument(f"cannot listen on {HOST}:{args.port}: {error.strerror}") from None
    port = listening.getsockname()[1]
    configure(logging.WARNING)
    with MemoryEventStore() as store:
        app = create_app(store, limits=limits)
        config = uvicorn_config(app, limits, host=HOST, port=port, lifespan="on")
        out.write(f"avanti: the rules lab is at http://{HOST}:{port}/lab (Ctrl-C stops it)\n")
        out.flush()
        server = uvicorn.Server(config)
        with _graceful_sigterm(server):
            server.run(sockets=[listening])
    # tests/server/test_lab_command.py runs these lines, but coverage stops following the main
    # thread once uvicorn has raised SIGTERM again (as for avanti serve)
    out.write("avanti: the lab has stopped\n")  # pragma: no cover
    return 0  # pragma: no cover
