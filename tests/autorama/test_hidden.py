"""Hidden information: views and redacted streams show nothing a seat may not see."""

from __future__ import annotations

import json

from avanti.autorama import (
    CODEC,
    DecksShuffled,
    Game,
    Offer,
    Phase,
    PlayAdvisor,
    Scenario,
    new_game,
)
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, RULEBOOK_PLAYERS, build, play


def twins() -> tuple[Game, Game]:
    """Two phase 2 positions that differ only in hidden facts: the order and content of the
    decks beyond the table (so the removed cards too), Becky's hand and Chloe's cash."""
    a = build(
        phase=Phase.BUYING,
        vehicle_deck=(3, 9, 27, 4, 5, 6),
        check_deck=(0, 2, 3, 4, 5, 6),
        advisors=((5, 6), (20, 21), (12, 13)),
        cash=(28, 28, 28),
    )
    b = build(
        phase=Phase.BUYING,
        vehicle_deck=(3, 9, 27, 8, 7, 4),
        check_deck=(15, 14, 13, 12, 11, 10),
        advisors=((5, 6), (22, 30), (12, 13)),
        cash=(28, 28, 20),
    )
    return a, b


def test_views_of_states_differing_only_in_hidden_facts_are_equal() -> None:
    a, b = twins()
    assert a.state != b.state
    for seat in (ISAAC, None):
        assert a.view(seat) == b.view(seat)
        assert a.events_for(seat) == b.events_for(seat)
    assert a.view(BECKY) != b.view(BECKY)  # Becky sees her own hand
    assert a.view(CHLOE).cash == 28
    assert b.view(CHLOE).cash == 20
    a2 = play(a, PlayAdvisor(ISAAC, 5))
    b2 = play(b, PlayAdvisor(ISAAC, 5))
    assert a2.view(ISAAC) == b2.view(ISAAC)
    assert a2.events_for(ISAAC) == b2.events_for(ISAAC)


def test_secret_offers_are_hidden_until_all_are_in() -> None:
    base = build(
        phase=Phase.SELLING,
        check_deck=(13, 7, 0, 2, 3, 4),
        vehicles=((23, 1), (15, 2), (14, 3)),
    )
    a = play(base, Offer(BECKY, (15,)), Offer(ISAAC, (1,)))
    b = play(base, Offer(BECKY, (2,)), Offer(ISAAC, (1,)))
    for seat in (ISAAC, CHLOE, None):
        assert a.view(seat) == b.view(seat)
        assert a.events_for(seat) == b.events_for(seat)
    assert a.view(BECKY).offers[BECKY] == (15,)
    assert a.view(BECKY).vehicles == (2,)


def test_shuffle_and_removed_cards_are_hidden_from_everyone() -> None:
    a = new_game(RULEBOOK_PLAYERS, seed=1)
    b = new_game(RULEBOOK_PLAYERS, seed=2)
    blank = DecksShuffled(None, None, None, None, None, None)
    for seat in (ISAAC, BECKY, CHLOE, None):
        assert a.events_for(seat)[0] == blank
        assert b.events_for(seat)[0] == blank
    assert a.view(ISAAC).removed == (6, 6, 6)


def test_the_generator_and_seed_never_appear_in_a_view() -> None:
    scenario = Scenario(advisor_deck=(8, 11, 15), vehicle_deck=(1, 2, 3), check_deck=(0, 2, 3))
    a = new_game(RULEBOOK_PLAYERS, seed=1, scenario=scenario)
    b = new_game(RULEBOOK_PLAYERS, seed=987654321, scenario=scenario)
    assert a.state.rng != b.state.rng
    assert a.view(ISAAC) == b.view(ISAAC)
    text = json.dumps(CODEC.unstructure(b.view(ISAAC)))
    assert "seed" not in text
    assert "rng" not in text
    assert "987654321" not in text
