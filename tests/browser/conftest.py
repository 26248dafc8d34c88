"""Fixtures of the browser tests: one headless Chromium, a real server, a folder of screenshots."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.browser.chromium import launch
from tests.server.support import Served, serving


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """A headless Chromium for the browser tests (see :mod:`tests.browser.chromium`), closed
    after the last of them: while Playwright's synchronous API is open it runs an event loop in
    the main thread, and the tests after it that run one of their own would fail."""
    with sync_playwright() as playwright:
        try:
            chromium = launch(playwright)
        except RuntimeError as error:
            pytest.fail(str(error), pytrace=False)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The app under a real uvicorn on a free loopback port, over a fresh SQLite file."""
    with serving(tmp_path_factory.mktemp("browser") / "games.db", think=5.0) as server:
        yield server


@pytest.fixture(scope="session")
def screens(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the run keeps its screenshots: ``AVANTI_SCREENS``, or a folder pytest keeps."""
    chosen = os.environ.get("AVANTI_SCREENS")
    if chosen:
        folder = Path(chosen)
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path_factory.mktemp("screens", numbered=False)
