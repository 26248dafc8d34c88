"""Hidden information: what a seat sees depends only on what it may know.

For each game, a twin that differs only in facts hidden from seat ``s`` gives ``s`` the same view
and the same event stream; and the JSON a front end would send to ``s`` holds none of the hidden
values (never the seed; for card games, no card of another hand).
"""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from avanti import CoreReason, IllegalCommand
from tests.hardening.games import SPECS
from tests.hardening.spec import BIG_SEEDS, GameSpec, histories, numbers_in, played, seen_by


def seats(spec: GameSpec, players: int) -> st.SearchStrategy[int | None]:
    return st.one_of(st.none(), st.integers(0, players - 1))


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(data=st.data())
def test_a_twin_differing_in_hidden_facts_looks_the_same(
    spec: GameSpec, data: st.DataObject
) -> None:
    """At every step of a game, for one seat or a spectator."""
    rng = data.draw(st.randoms(use_true_random=True), label="twin choices")
    for game in data.draw(histories(spec, most=150), label="game"):
        seat = data.draw(seats(spec, spec.seats(game)), label="seat")
        twin = spec.twin(game, seat, rng)
        assert twin.view(seat) == game.view(seat)
        assert twin.events_for(seat) == game.events_for(seat)
        if seat is not None:  # what a seat may do is shown to it, so it must hide nothing either
            assert twin.legal_commands(seat) == game.legal_commands(seat)
        assert seen_by(spec, twin, seat) == seen_by(spec, game, seat)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(data=st.data())
def test_no_hidden_value_reaches_a_seat(spec: GameSpec, data: st.DataObject) -> None:
    """No view or event stream holds the seed (M3, A30) or another hidden value of the game, at
    any step of a game, for one seat or a spectator."""
    for game in data.draw(histories(spec, seeds=BIG_SEEDS, most=150), label="game"):
        seed: int = game.setup.seed
        seat = data.draw(seats(spec, spec.seats(game)), label="seat")
        view, events = seen_by(spec, game, seat)
        text = json.dumps([view, events])
        assert seed not in numbers_in([view, events])
        assert str(seed) not in text
        assert str(seed & (2**64 - 1)) not in text
        assert spec.leaks(game, seat, view, events) == []


@pytest.mark.parametrize("spec", [s for s in SPECS if not s.hides_events], ids=str)
@given(data=st.data())
def test_a_game_without_hidden_events_shows_every_seat_the_whole_log(
    spec: GameSpec, data: st.DataObject
) -> None:
    game = data.draw(played(spec, most=150), label="game")
    for seat in (None, *range(spec.seats(game))):
        assert game.events_for(seat) == game.events


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(data=st.data())
def test_a_seat_not_at_the_table_sees_what_a_spectator_sees(
    spec: GameSpec, data: st.DataObject
) -> None:
    """The ruleset's ``view(state, -1)`` must not be the last seat's view (Python's negative
    index), nor fail; ``Game.view`` and ``Game.events_for`` refuse such a seat outright."""
    game = data.draw(played(spec, most=150), label="game")
    n = spec.seats(game)
    seat = data.draw(st.one_of(st.integers(-n - 2, -1), st.integers(n, n + 3)), label="seat")
    rules = game.rules
    assert attrs.evolve(rules.view(game.state, seat), seat=None) == game.view(None)
    redacted = (rules.redact(event, seat) for event in game.events)
    assert tuple(event for event in redacted if event is not None) == game.events_for(None)
    for look in (game.view, game.events_for):
        with pytest.raises(IllegalCommand) as refused:
            look(seat)
        assert refused.value.reason is CoreReason.NO_SUCH_SEAT
