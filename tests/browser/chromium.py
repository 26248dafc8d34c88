"""One place that finds a Chromium for the browser tests and launches it headless.

The executable is, in this order: the ``AVANTI_CHROMIUM`` variable; ``chromium``,
``chromium-browser`` or ``google-chrome`` on ``PATH`` (Debian's ``chromium`` package); Playwright's
own download (``playwright install chromium``). When none launches, the tests fail with one line
that says what to install: a browser test that cannot run is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil

from playwright.sync_api import Browser, Error, Playwright

__all__ = ["ARGS", "INSTALL", "candidates", "launch"]

ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Headless, and nothing fetched from the network behind the tests' back."""

INSTALL = (
    "no Chromium could be launched for the browser tests: install Debian's chromium package "
    "(apt-get install chromium), run 'playwright install chromium', or set AVANTI_CHROMIUM"
)
"""The one line a run without a browser fails with."""


def candidates() -> list[str | None]:
    """The executables to try, in order; ``None`` is Playwright's own browser."""
    found: list[str | None] = []
    chosen = os.environ.get("AVANTI_CHROMIUM")
    if chosen:
        found.append(chosen)
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path is not None and path not in found:
            found.append(path)
    found.append(None)
    return found


def launch(playwright: Playwright) -> Browser:
    """A headless Chromium: the first of :func:`candidates` that launches.

    :raises RuntimeError: none launches (its message is :data:`INSTALL` and the reasons).
    """
    problems: list[str] = []
    for executable in candidates():
        try:
            return playwright.chromium.launch(executable_path=executable, args=list(ARGS))
        except Error as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else "failed"
            problems.append(f"{executable or 'playwright'}: {first[:200]}")
    raise RuntimeError(f"{INSTALL} ({'; '.join(problems)})")
