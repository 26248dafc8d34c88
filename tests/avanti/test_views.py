"""A30: what each seat may see, through :func:`avanti.view` and :func:`avanti.redact`."""

from __future__ import annotations

import random

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

import avanti
from avanti import CardDrawn, CardPlayed, CardsDealt, DeckShuffled, GameState, PlayCard
from avanti.core import Rng
from tests.avanti.support import NAMES, play_randomly


def dealt() -> avanti.Game:
    return avanti.new_game(NAMES[:3], 8, start_space=4)


def test_a30_own_hand_and_only_counts_of_others() -> None:
    game = dealt()
    view = game.view(1)
    assert view.hand == game.state.hands[1]
    assert view.hand_sizes == (3, 3, 3)
    assert view.draw_size == 18
    assert not hasattr(view, "hands")
    assert not hasattr(view, "draw")
    assert not hasattr(view, "rng")


def test_a30_a_spectator_sees_no_hand() -> None:
    view = dealt().view(None)
    assert view.hand is None
    assert view.laid is None
    assert view.cash == (5000, 5000, 5000)


def test_a30_a_laid_card_shows_only_as_laid_until_revealed() -> None:
    game = dealt()
    card = game.state.hands[1][0]
    number = avanti.DEFAULT_DECK.cards[card].numbers[0]
    game = game.execute(PlayCard(1, card, number))
    assert game.view(1).laid == (card, number)
    assert game.view(0).laid is None
    assert game.view(0).has_laid == (False, True, False)
    played = game.events[-1]
    assert avanti.redact(played, 1) == played
    assert avanti.redact(played, 0) == CardPlayed(1, None, None)
    assert avanti.redact(played, None) == CardPlayed(1, None, None)


def test_a30_dealt_and_drawn_cards_show_to_their_owner_and_shuffles_to_nobody() -> None:
    game = dealt()
    for seat in (0, 1, 2, None):
        seen = game.events_for(seat)
        shuffles = [e for e in seen if isinstance(e, DeckShuffled)]
        assert shuffles == [DeckShuffled(avanti.Pile.ALL, 27, None)]
        for event in seen:
            if isinstance(event, CardsDealt):
                assert (event.cards is not None) == (event.seat == seat)
                assert event.count == 3
    assert avanti.redact(CardDrawn(2, 5), 2) == CardDrawn(2, 5)
    assert avanti.redact(CardDrawn(2, 5), 0) == CardDrawn(2, None)


def hide_differently(state: GameState, seat: int, shuffle_seed: int) -> GameState:
    """The same public facts with other hands, other laid cards, draw order and generator."""
    rnd = random.Random(shuffle_seed)
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.draw)
    laid = list(state.laid)
    pool += [entry[0] for s, entry in enumerate(laid) if s != seat and entry is not None]
    rnd.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(pool[: len(hands[s])]), pool[len(hands[s]) :]
        entry = laid[s]
        if entry is not None:
            laid[s], pool = (pool[0], rnd.randint(1, 7)), pool[1:]
    return attrs.evolve(
        state,
        hands=tuple(hands),
        laid=tuple(laid),
        draw=tuple(pool),
        rng=Rng(shuffle_seed, rnd.randint(0, 99)),
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 4), st.integers(0, 10_000))
def test_a30_views_do_not_depend_on_hidden_facts(
    seed: int, steps: int, seat: int, other_seed: int
) -> None:
    state = play_randomly(3 + seed % 3, seed, steps).state
    seat %= state.players
    other = hide_differently(state, seat, other_seed)
    assert avanti.view(other, seat) == avanti.view(state, seat)
    assert avanti.view(other, None) == avanti.view(state, None)
