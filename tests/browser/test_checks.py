"""The hidden-facts check of the browser tests finds what it looks for (a check that cannot
fail proves nothing): another seat's picture shown to a seat is caught."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from avanti import autorama
from avanti import avanti as flagship
from tests.browser.support import card_references, expected, hidden_problems


def _rows(svg: str) -> dict[int, str]:
    return {
        int(node.attrib["data-seat"]): "\n".join(node.itertext())
        for node in ET.fromstring(svg).iter()
        if node.get("class") == "seat"
    }


def test_card_references_read_lists() -> None:
    """``cards 5, 22 and 6``, ``data-card="3"`` and ``play 19 for 4`` name cards 3-22."""
    from tests.browser.support import _AVANTI_CARDS

    text = 'dealt cards 5, 22 and 6; <g data-card="3">; play 19 for 4; road space 7'
    assert card_references(_AVANTI_CARDS, text) == {3, 5, 6, 19, 22}


def test_avanti_another_seats_hand_is_caught() -> None:
    """A30: Bob's picture names his hand: shown to Ann, each of his cards is a problem; Ann's
    own picture has none."""
    game = flagship.new_game(["Ann", "Bob", "Cy"], seed=1)
    bob = game.view(1).hand
    assert bob is not None
    assert len(bob) == 3
    own = expected(game, "avanti", 0)["svg"]
    assert hidden_problems("avanti", game, 0, own, {}) == []
    leaked = expected(game, "avanti", 1)["svg"]
    problems = hidden_problems("avanti", game, 0, leaked, {})
    assert set(problems) >= {f"another seat's card {card}" for card in bob}


def test_autorama_cash_and_face_down_offers_are_caught() -> None:
    """F2, F14: a seat's row with another seat's cash, or its face-down offer, is caught."""
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=2)
    rng = random.Random(2)
    while game.view(1).offers[1] is None or game.view(0).offers[1] is not None:
        game = game.execute(rng.choice(list(game.legal_commands())))
    offer = game.view(1).offers[1]
    assert offer is not None
    assert game.view(0).offers[1] is None  # face down to Ann
    own = expected(game, "autorama", 0)["svg"]
    assert hidden_problems("autorama", game, 0, own, _rows(own)) == []
    bobs = expected(game, "autorama", 1)["svg"]
    problems = hidden_problems("autorama", game, 0, bobs, _rows(bobs))
    assert f"another seat's vehicle {offer[0]}" in problems
    assert any(problem.startswith("money in seat 1's row") for problem in problems)
