"""What the hardening tests need to know about one game, and helpers they share.

Every property in ``tests/hardening`` is written once, over a :class:`GameSpec`; each game
contributes one spec (``tests/hardening/games.py`` lists them), so adding a game to every
property is one line there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any, TypeAlias

import attrs
from attrs import frozen
from hypothesis import strategies as st

from avanti import core

AnyGame: TypeAlias = core.Game[Any, Any, Any, Any, Any, Any]
"""A game of any kind, as the generic properties see it."""


NO_OPTIONS: st.SearchStrategy[Any] = st.none()


def _no_twin(game: AnyGame, seat: int | None, rng: random.Random) -> AnyGame:
    return game


def _no_leaks(game: AnyGame, seat: int | None, view: Any, events: list[Any]) -> list[str]:
    return []


@frozen
class GameSpec:
    """One game as the generic properties drive it.

    ``start(seed, players, options)`` makes a new game; ``players`` bounds the table size and
    ``options`` draws the game's options (``start`` reads ``None`` as the defaults).
    ``commands(game)`` draws well-typed commands of every kind, legal or not (seats and fields
    from a range a little wider than the legal one), and ``invariants(game)`` asserts what must
    hold in every state.

    ``twin(game, seat, rng)`` returns a game that differs from ``game`` only in facts hidden from
    ``seat``, chosen with ``rng``; ``leaks(game, seat, view, events)`` lists the hidden values
    found in the JSON of ``seat``'s view and event stream.
    """

    name: str
    game: type[AnyGame]
    start: Callable[[int, int, Any], AnyGame]
    players: tuple[int, int]
    commands: Callable[[AnyGame], st.SearchStrategy[Any]]
    invariants: Callable[[AnyGame], None]
    options: st.SearchStrategy[Any] = NO_OPTIONS
    twin: Callable[[AnyGame, int | None, random.Random], AnyGame] = _no_twin
    leaks: Callable[[AnyGame, int | None, Any, list[Any]], list[str]] = _no_leaks
    hides_events: bool = True
    """Whether some events show a seat less than the full log holds."""

    def __str__(self) -> str:
        return self.name

    @property
    def codec(self) -> core.Codec[Any, Any, Any]:
        """The game's JSON codec."""
        codec: core.Codec[Any, Any, Any] = self.game.rules.codec
        return codec

    def seats(self, game: AnyGame) -> int:
        """How many seats the game has."""
        players: tuple[str, ...] = game.setup.players
        return len(players)


# -- strategies ----------------------------------------------------------------------------------

BIG_SEEDS = st.integers(2**40, 2**63)
"""Seeds far from every other number in a game, so a leaked seed cannot hide among them."""
SEEDS = st.one_of(st.integers(0, 2**64), st.integers(-(2**70), 2**70))


def games(spec: GameSpec, seeds: st.SearchStrategy[int] = SEEDS) -> st.SearchStrategy[AnyGame]:
    """New games of ``spec`` with any seed, table size and options."""
    low, high = spec.players
    return st.builds(spec.start, seeds, st.integers(low, high), spec.options)


@st.composite
def histories(
    draw: st.DrawFn, spec: GameSpec, seeds: st.SearchStrategy[int] = SEEDS, most: int = 400
) -> list[AnyGame]:
    """A game of ``spec`` after each of some legal commands, each chosen by Hypothesis."""
    game = draw(games(spec, seeds))
    history = [game]
    for _ in range(draw(st.integers(0, most))):
        legal = game.legal_commands()
        if not legal:
            break
        game = game.execute(legal[draw(st.integers(0, len(legal) - 1))])
        history.append(game)
    return history


def played(
    spec: GameSpec, seeds: st.SearchStrategy[int] = SEEDS, most: int = 400
) -> st.SearchStrategy[AnyGame]:
    """A game of ``spec`` after some legal commands, each chosen by Hypothesis."""
    return histories(spec, seeds, most).map(lambda history: history[-1])


def play_randomly(game: AnyGame, picks: list[int], most: int) -> AnyGame:
    """Play legal commands chosen by ``picks`` in turn, until the end or ``most`` commands."""
    for step in range(most):
        legal = game.legal_commands()
        if not legal:
            break
        game = game.execute(legal[picks[step % len(picks)] % len(legal)])
    return game


ODD_VALUES: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(2**200), 2**200),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.lists(st.integers(), max_size=3),
    st.tuples(st.integers()),
    st.builds(object),
)
"""Values of any Python type, for command fields that expect something else."""


def junk_commands(spec: GameSpec) -> st.SearchStrategy[Any]:
    """Commands of the game's classes with any values in their fields, and non-commands."""
    kinds = [
        st.builds(cls, **{f.name: ODD_VALUES for f in attrs.fields(cls)})
        for cls in spec.codec.command_types
    ]
    return st.one_of(*kinds, ODD_VALUES)


# -- JSON helpers --------------------------------------------------------------------------------


def walk(value: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """Every node of a JSON tree with its path, parents before children."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}[{index}]")


def numbers_in(value: Any) -> set[int]:
    """Every integer (not boolean) in a JSON tree."""
    return {v for _, v in walk(value) if type(v) is int}


def seen_by(spec: GameSpec, game: AnyGame, seat: int | None) -> tuple[Any, list[Any]]:
    """``seat``'s view and event stream as JSON data, as a front end would receive them."""
    codec = spec.codec
    view = json.loads(json.dumps(codec.unstructure(game.view(seat))))
    events = [json.loads(json.dumps(codec.event_to_data(e))) for e in game.events_for(seat)]
    return view, events
