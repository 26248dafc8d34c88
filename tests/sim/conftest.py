"""One real local Ray cluster for every Ray test of the session, shut down at the end.

Ray starts its own processes (a GCS server, a raylet, workers); the fixture starts them once with
two CPUs and no dashboard, and ``ray.shutdown()`` stops them all when the session ends. Ray's
notice about authentication tokens is silenced with ``RAY_AUTH_MODE=disabled``: the cluster
listens on this machine only and lives for the tests alone.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """The ``ray`` module, connected to a local cluster of two CPUs started for the tests."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        pytest.fail("the Ray tests need ray: pip install 'avanti[ray]'", pytrace=False)
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    # Ray hands the driver's sys.path to its workers, so they import tests.sim.bots as it does.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()
