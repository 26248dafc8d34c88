"""A case's wanted random results made real: :func:`played_seed`.

Randomness comes only from the seeded generator in a game's state, and every random result is
written into an event, so the lab never scripts or loads a draw: it keeps the rules as they
are and looks for a seed instead. A case that names outcomes (``{"die": ["red"]}``) is played
with the first seed from its own on whose generator the game's :class:`~avanti.core.labform.
Outcome` foresees exactly those results, in order; the game document, the link and the exported
test all carry that seed, so each replays as any saved game does.
"""

from __future__ import annotations

from functools import lru_cache

from avanti.catalog import game_info
from avanti.core.errors import DecodeError, InvalidSetup
from avanti.lab.case import Case

__all__ = ["MAX_SEEDS", "played_seed"]

MAX_SEEDS = 100_000
"""The most seeds tried for one case's outcomes (four rolls of a six-sided die take about
1,300 on average)."""


def played_seed(case: Case) -> int:
    """The seed the lab plays ``case`` with: its own when it names no outcome, else the first
    from its own on whose generator every named draw gives the wanted results.

    :raises DecodeError: an outcome the game does not declare, too many results for it, or a
        result that is none of its choices.
    :raises InvalidSetup: no seed of the ``MAX_SEEDS`` tried gives the wanted results.
    """
    if not case.outcomes:
        return case.seed
    return _search(case.game, case.seed, tuple(sorted(case.outcomes.items())))


@lru_cache(maxsize=256)
def _search(game: str, seed: int, outcomes: tuple[tuple[str, tuple[str, ...]], ...]) -> int:
    info = game_info(game)
    form = info.load_lab_form()
    wanted = []
    for name, results in outcomes:
        outcome = form.outcome(name) if form is not None else None
        path = f"$.outcomes.{name[:40]}"
        if outcome is None:
            raise DecodeError((f"{name[:40]!r} is no random draw of {info.title} @ {path}",))
        if len(results) > outcome.most:
            raise DecodeError((f"a case names at most {outcome.most} results here @ {path}",))
        for index, result in enumerate(results):
            if result not in outcome.choices:
                choices = ", ".join(outcome.choices)
                raise DecodeError((f"{result[:40]!r} is none of {choices} @ {path}[{index}]",))
        wanted.append((outcome.foresee, results))
    for tried in range(seed, seed + MAX_SEEDS):
        if all(
            foresee(tried, draw) == result
            for foresee, results in wanted
            for draw, result in enumerate(results)
        ):
            return tried
    raise InvalidSetup(f"no seed from {seed} to {seed + MAX_SEEDS - 1} gives those results")
