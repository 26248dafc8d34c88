"""One real local Ray cluster for every Ray test of the session, shut down at the end.

Ray starts its own processes (a GCS server, a raylet, workers); the fixture starts them once with
two CPUs and no dashboard, and ``ray.shutdown()`` stops them all when the session ends. Ray's
notice about authentication tokens is silenced with ``RAY_AUTH_MODE=disabled``: the cluster
listens on this machine only and lives for the tests alone.

Ray gives its raylet a fixed 30 seconds to register with the GCS, and on a machine busy with
other work (the test gate runs two workers beside browsers and databases) that start can time
out while nothing is wrong: the fixture then stops what was started and starts the cluster again,
up to :data:`STARTS` times, so a test fails only when Ray cannot start at all.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from typing import Any

import pytest

STARTS = 3
"""How many times the fixture starts the cluster before it gives up."""


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[Any]:
    """The ``ray`` module, connected to a local cluster of two CPUs started for the tests."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        pytest.fail("the Ray tests need ray: pip install 'avanti[ray]'", pytrace=False)
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    # Ray hands the driver's sys.path to its workers, so they import tests.sim.bots as it does.
    for start in range(1, STARTS + 1):
        try:
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            break
        except Exception as error:  # Ray raises a bare Exception when its raylet starts late
            ray.shutdown()  # stops what this start left running
            if start == STARTS or "timed out during startup" not in str(error):
                raise
    try:
        yield ray
    finally:
        ray.shutdown()
