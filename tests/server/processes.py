"""``avanti serve`` in child processes, for the tests of several servers on one database."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.server.support import PATIENCE

__all__ = ["ServeProcess"]

_RUNNING = re.compile(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")


class ServeProcess:
    """``python -m avanti serve --database DATABASE --port 0`` in a child process.

    Its log (JSON lines) goes to a file in ``folder``; the port it listens on is read there.
    """

    def __init__(self, database: str, folder: Path, name: str) -> None:
        self.log = folder / f"{name}.log"
        self._log = self.log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "avanti", "serve", "--database", database, "--port", "0"],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.port = self._wait_for_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            found = _RUNNING.search(self.log.read_text(encoding="utf-8", errors="replace"))
            if found is not None:
                return int(found.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.kill()
        raise AssertionError(f"avanti serve did not start:\n{self.log.read_text()[-2000:]}")

    def ws_url(self, game_id: str) -> str:
        """The address of a game's stream on this server."""
        return f"ws://127.0.0.1:{self.port}/games/{game_id}/stream"

    def stop(self) -> tuple[int, str]:
        """Stop the server with SIGTERM, as a service manager does; its exit code and output."""
        self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=PATIENCE)
        self._log.close()
        return self.process.returncode, out.decode()

    def kill(self) -> None:
        """Kill the server if it still runs."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate(timeout=PATIENCE)
        self._log.close()
