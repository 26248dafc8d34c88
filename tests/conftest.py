"""Hypothesis profiles for the whole test suite, chosen by the ``HYPOTHESIS_PROFILE`` variable.

``ci`` (the default) keeps the whole gate within a few minutes on two cores: the state machines of
``tests/hardening`` run modest numbers of examples and steps, and no example has a deadline (a
slow machine must not fail a correct test). ``soak`` runs many more examples and longer games, for
as long as it is given (``HYPOTHESIS_PROFILE=soak pytest tests/hardening``). ``light`` runs a
fifth of ``ci``'s examples, for the gate's runs on the other supported Pythons, which look for
differences between Python versions rather than for rare games. Tests that pin their
own ``@settings`` keep them under either profile. Whole games draw many choices, so neither a
slow example nor a long one fails a health check (an example over Hypothesis's size limit is
dropped and another drawn).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=50,
    stateful_step_count=40,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "soak",
    max_examples=5_000,
    stateful_step_count=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "light",
    max_examples=10,
    stateful_step_count=15,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
