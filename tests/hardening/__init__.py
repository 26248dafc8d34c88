"""Hardening: "it keeps working, loses nothing, leaks nothing", as properties of every game.

Each property is written once over a :class:`~tests.hardening.spec.GameSpec` and runs on every
spec in :data:`tests.hardening.games.SPECS`; a new game needs a spec module (how to start a game,
well-typed commands, invariants, a hidden twin) and one line in ``SPECS``.

- ``test_machines``: a Hypothesis state machine per game mixing legal, illegal, ill-typed and
  look-alike commands, wrong seats, stale versions and undo; after every step the invariants hold,
  the log replays and the JSON reads back, and exactly the listed commands execute.
- ``test_hostile``, ``test_hostile_boards``: hostile JSON documents, board and deck files.
- ``test_hidden``: twins differing only in hidden facts look the same to a seat; no view or
  event stream holds the seed or another hidden value.
- ``test_received``: everything a seat can receive (views, streams, notation, errors about its own
  commands, the public setup, the command line's per-seat output) is the same for twins.
- ``test_determinism``: byte-identical logs, the global ``random`` state and hash seeds untouched.
- ``test_scenarios``: positions to start from, refused or sound in play.
- ``test_regressions``: the bugs these properties found.

``HYPOTHESIS_PROFILE=soak pytest tests/hardening`` runs them long (see ``tests/conftest.py``).
"""
