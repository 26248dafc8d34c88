"""The contract every game fills in the same way: who acts now, a command's form checked in the
core, membership in the legal commands, and a seat's stream with positions to resume from."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import avanti
from avanti import autorama, core, mare
from avanti.core import CoreReason, IllegalCommand
from tests.hardening.games import SPECS
from tests.hardening.spec import AnyGame, GameSpec, histories

# -- who acts now ---------------------------------------------------------------------------------


def test_avanti_waits_for_the_marker_then_every_planner_then_the_driver() -> None:
    """A7: the starting player places the marker; A8: everyone lays a card; A9: one drives."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7, starting_seat=1)
    assert game.waiting == (1,)
    game = game.execute(avanti.PlaceEventMarker(1, 12))
    assert game.waiting == (0, 1, 2)
    seat_1 = next(c for c in game.legal_commands(1) if isinstance(c, avanti.PlayCard))
    game = game.execute(seat_1)
    assert game.waiting == (0, 2)  # seat 1 has laid its card (A8)
    for seat in (0, 2):
        game = game.execute(next(iter(game.legal_commands(seat))))
    assert game.state.phase is avanti.Phase.DRIVING
    assert game.waiting == (game.state.order[0],)  # A9: the first in the turn order drives


def test_mare_waits_for_the_seat_on_turn_and_nobody_at_the_end() -> None:
    """M2: turns go round the table; M8: nobody acts once the game is over."""
    game = mare.new_game(["Ann", "Bob", "Cy"], seed=2)
    seen = []
    while not game.is_over:
        seen.append(game.waiting)
        assert game.waiting == (game.state.turn,)
        game = game.execute(game.legal_commands()[0])
    assert game.waiting == ()
    assert seen[:3] == [(0,), (1,), (2,)]


def test_autorama_waits_for_the_bidder_then_for_every_offer_at_once() -> None:
    """F4: one bidder at a time; F14: every seat offers face down at the same time."""
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=0)
    assert game.waiting == (0,)
    while game.state.phase is not autorama.Phase.SELLING:
        game = game.execute(game.legal_commands()[0])
    assert game.waiting == (0, 1, 2)
    game = game.execute(next(iter(game.legal_commands(1))))
    assert game.waiting == (0, 2)


def test_the_default_waiting_is_the_seats_of_the_legal_commands() -> None:
    from tests import toy

    game = toy.new_game(["Ann", "Bob"], seed=1)
    assert game.waiting == (0,)
    assert game.execute(toy.Wait(0)).waiting == (1,)


# -- the form of a command, and membership --------------------------------------------------------


def test_mare_roll_true_is_not_in_the_legal_commands() -> None:
    game = mare.new_game(["Ann", "Bob"], seed=1).execute(mare.Roll(0))
    assert game.waiting == (1,)
    legal = game.legal_commands()
    assert mare.Roll(True) == mare.Roll(1)
    assert mare.Roll(True) not in legal
    assert mare.Roll(1) in legal
    with pytest.raises(IllegalCommand) as refused:
        game.execute(mare.Roll(True))
    assert refused.value.reason is CoreReason.MALFORMED_COMMAND
    assert str(refused.value) == "M2: Roll.seat must be int, not True (bool)"


def test_avanti_lookalike_cards_and_numbers_are_not_in_the_legal_commands() -> None:
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7).execute(avanti.PlaceEventMarker(0, 12))
    play = next(c for c in game.legal_commands(1) if isinstance(c, avanti.PlayCard))
    legal = game.legal_commands()
    assert play in legal
    for twin in (
        avanti.PlayCard(True, play.card, play.number),
        avanti.PlayCard(1, float(play.card), play.number),  # type: ignore[arg-type]
        avanti.PlayCard(1, play.card, float(play.number)),  # type: ignore[arg-type]
    ):
        assert twin == play
        assert twin not in legal
        with pytest.raises(IllegalCommand) as refused:
            game.execute(twin)
        assert (refused.value.reason, refused.value.rule) == (CoreReason.MALFORMED_COMMAND, "A31")


def test_autorama_bid_true_is_not_in_the_legal_commands() -> None:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=0)
    legal = game.legal_commands(0)
    assert autorama.Bid(0, 1) in legal
    assert autorama.Bid(0, True) not in legal
    assert autorama.Bid(False, 1) not in legal
    with pytest.raises(IllegalCommand) as refused:
        game.execute(autorama.Bid(0, True))
    assert str(refused.value) == "F1: Bid.amount must be int, not True (bool)"


def test_a_command_of_another_game_is_refused_by_the_core_naming_the_game_rule() -> None:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=0)
    with pytest.raises(IllegalCommand) as refused:
        game.execute(mare.Roll(0))  # type: ignore[arg-type]  # on purpose
    assert (refused.value.reason, refused.value.rule) == (CoreReason.UNKNOWN_COMMAND, "F1")
    assert (
        "(one of: Bid, DeclineMechanic, Offer, OfferWithLawyer, Pass, PlayAdvisor, TakeBack, "
        "UseMechanic)" in refused.value.message
    )
    assert mare.Roll(0) not in game.legal_commands()  # type: ignore[comparison-overlap]


def test_the_functional_forms_check_the_form_too() -> None:
    state = mare.new_game(["Ann", "Bob"], seed=1).state
    for step in (mare.decide, mare.execute):
        with pytest.raises(IllegalCommand) as refused:
            step(state, mare.Roll(False))
        assert refused.value.reason is CoreReason.MALFORMED_COMMAND
    assert core.execute(mare.RULES, state, mare.Roll(0))[1][0].seat == 0  # type: ignore[union-attr]


def test_a_ruleset_fills_in_its_optional_functions_once() -> None:
    from tests import toy

    rules = toy.RULES
    state = toy.new_game(["Ann", "Bob"], seed=1).state
    after, events = rules.execute(state, toy.Roll(0))
    assert rules.fold(state, events) == after
    assert rules.waiting(after) == (1,)


# -- a seat's stream, resumed from any version ----------------------------------------------------


@pytest.mark.parametrize("spec", SPECS, ids=str)
@settings(max_examples=10)
@given(data=st.data())
def test_a_stream_resumes_from_every_version_with_exactly_its_tail(
    spec: GameSpec, data: st.DataObject
) -> None:
    history: list[AnyGame] = data.draw(histories(spec, most=60), label="history")
    game = history[-1]
    for seat in (None, *range(spec.seats(game))):
        full = game.events_for(seat, after=0)
        assert [seen.event for seen in full] == list(game.events_for(seat))
        positions = [seen.position for seen in full]
        assert positions == sorted(set(positions))
        for seen in full:
            assert game.rules.redact(game.events[seen.position], seat) == seen.event
        for version in range(game.version + 1):
            tail = game.events_for(seat, after=version)
            assert tail == tuple(s for s in full if s.position >= version)
        # A client that saw the stream at an earlier game resumes at that game's version.
        earlier = history[data.draw(st.integers(0, len(history) - 1), label="earlier")]
        seen_then = earlier.events_for(seat, after=0)
        assert seen_then + game.events_for(seat, after=earlier.version) == full


def test_resuming_after_a_version_that_is_not_there_is_refused() -> None:
    game = mare.new_game(["Ann", "Bob"], seed=1)
    for after in (-1, game.version + 1, True, 1.0):
        with pytest.raises(ValueError, match="after must be a version from 0 to"):
            game.events_for(0, after=after)  # type: ignore[arg-type]  # on purpose
    assert game.events_for(0, after=game.version) == ()
