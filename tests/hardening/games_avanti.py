"""Avanti as a hardening spec: hands, laid cards, the draw pile and the generator are hidden
(A30).
"""

from __future__ import annotations

import math
import random
from typing import Any

import attrs
from hypothesis import strategies as st

import avanti
from avanti import CardDrawn, CardPlayed, CardsDealt, DeckShuffled, Phase
from tests.hardening.spec import AnyGame, GameSpec


def _long_enough(length: int) -> bool:
    """Whether hops of every card number 1-7 reach 5 spaces of a road this long (A11)."""
    return all(length // math.gcd(number, length) >= 5 for number in range(1, 8))


AMOUNTS = st.sampled_from([0, 100, 200, 300, 500, 1000, 2000])
SPACES = st.one_of(st.builds(avanti.Space.toll, AMOUNTS), st.builds(avanti.Space.parking, AMOUNTS))


@st.composite
def boards(draw: st.DrawFn) -> avanti.Board:
    """Small boards: short roads end runs fast, and a priced dream island can be bought (A24)."""
    length = draw(st.integers(5, 40).filter(_long_enough))
    track = tuple(draw(st.lists(SPACES, min_size=length, max_size=length)))
    prices = draw(st.lists(st.one_of(st.none(), st.sampled_from([500, 1000, 3000])), min_size=3))
    depth = draw(st.integers(1, min(3, len(prices))))
    return avanti.Board(track, (None, *prices[:12]), depth)


@st.composite
def options(draw: st.DrawFn) -> tuple[avanti.RuleOptions, int | None, avanti.Board]:
    """The A18 and A21 options, the first start space (or ``None``: a command places it, A7), a
    board."""
    board = draw(st.one_of(st.just(avanti.DEFAULT_BOARD), boards()))
    space = draw(st.one_of(st.none(), st.integers(0, board.track_length - 1)))
    rules = avanti.RuleOptions(
        atm_last_car_wraps=draw(st.booleans()),
        atm_behind_in_race_order=draw(st.booleans()),
        quitters_cards_keep_run_going=draw(st.booleans()),
    )
    return rules, space, board


def start(seed: int, players: int, chosen: Any) -> AnyGame:
    rules, space, board = chosen or (avanti.RuleOptions(), None, avanti.DEFAULT_BOARD)
    names = [f"P{n}" for n in range(players)]
    return avanti.new_game(
        names,
        seed=seed,
        starting_seat=seed % players,
        board=board,
        options=rules,
        start_space=space,
    )


def commands(game: AnyGame) -> st.SearchStrategy[Any]:
    state: avanti.GameState = game.state
    seats = st.integers(-1, state.players)
    return st.one_of(
        st.builds(avanti.PlaceEventMarker, seats, st.integers(-1, state.table.track_length)),
        st.builds(
            avanti.PlayCard, seats, st.integers(-1, len(state.table.deck)), st.integers(0, 8)
        ),
        st.builds(avanti.Drive, seats),
        st.builds(avanti.Quit, seats),
        st.builds(avanti.Invest, seats, st.integers(-1, state.table.island_length + 1)),
    )


def state_invariants(state: avanti.GameState) -> None:
    """What holds in every state, however it was reached (from a scenario too)."""
    table = state.table
    n = state.players
    # A3, A6, A13: every card is in exactly one place.
    laid = [entry[0] for entry in state.laid if entry is not None]
    places = [c for hand in state.hands for c in hand] + list(state.draw) + list(state.discard)
    assert sorted(places + laid) == list(table.deck.ids)
    assert all(len(hand) <= 3 for hand in state.hands)
    for seat, entry in enumerate(state.laid):
        if entry is not None:
            assert table.deck.card(entry[0]).has(entry[1])
            assert not state.quit[seat]
    # A4, A11: one car per road space, except on the start space before leaving it.
    if state.phase is not Phase.MARKER:
        for a in range(n):
            for b in range(a):
                if state.distances[a] or state.distances[b]:
                    assert state.road_space(a) != state.road_space(b), (a, b, state.distances)
    assert all(d >= 0 for d in state.distances)
    # A2, A15, A17, A21, A22: cash is never negative and moves only as the log says.
    assert all(c >= 0 for c in state.cash)
    assert all(0 <= space <= table.island_length for space in state.island)
    # A20: the game is over exactly when it has a winner.
    assert (state.phase is Phase.OVER) == (state.winner is not None)


def invariants(game: AnyGame) -> None:
    state: avanti.GameState = game.state
    state_invariants(state)
    initial, _ = game.rules.start(game.setup)
    cash = list(initial.cash)
    island = list(initial.island)
    for event in game.events:
        match event:
            case avanti.TollPaid(payer=payer, payee=payee, amount=amount):
                assert amount > 0
                cash[payer] -= amount
                cash[payee] += amount
            case (
                avanti.BankPaid(seat=seat, amount=amount)
                | avanti.AtmWithdrawn(seat=seat, amount=amount)
            ):
                cash[seat] += amount
            case avanti.Invested(seat=seat, cost=cost, to_space=to_space):
                cash[seat] -= cost
                island[seat] = to_space
            case (
                avanti.FigureAdvanced(seat=seat, to_space=to_space)
                | avanti.FigureRetreated(seat=seat, to_space=to_space)
            ):
                island[seat] = to_space
    assert tuple(cash) == state.cash
    # A5, A19, A17: island figures stay on the path, where the log put them.
    assert tuple(island) == state.island
    assert (state.winner is not None) == (game.outcome is not None)
    assert state.rng.draws == sum(isinstance(e, DeckShuffled) for e in game.events)


def cards_in_view(view: Any) -> set[int]:
    """The card ids in a view's JSON: its hand, its laid card and the discard pile."""
    laid = [view["laid"][0]] if view["laid"] is not None else []
    return {*(view["hand"] or ()), *laid, *view["discard"]}


def cards_in_event(event: Any) -> set[int]:
    """The card ids in one event's JSON (``None`` where it is blanked for the seat)."""
    kind = event["type"]
    if kind == "DeckShuffled":
        return set(event["order"] or ())
    if kind == "CardsDealt":
        return set(event["cards"] or ())
    if kind in ("CardPlayed", "CardDrawn", "CarMoved", "CardDiscarded"):
        return set() if event["card"] is None else {event["card"]}
    return set()


def known_cards(game: AnyGame, seat: int | None) -> set[int]:
    """The cards ``seat`` may know by the rules (A30), read from the full log.

    Its own dealt, drawn and laid cards, and every card shown face up (driven or discarded).
    Computed without :func:`avanti.view` or :func:`avanti.redact`, so that a leak in either
    shows up as a difference between a game and its twin.
    """
    known: set[int] = set()
    for event in game.events:
        match event:
            case CardsDealt(seat=owner, cards=cards) if owner == seat and cards is not None:
                known.update(cards)
            case CardDrawn(seat=owner, card=int(card)) | CardPlayed(seat=owner, card=int(card)):
                if owner == seat:
                    known.add(card)
            case avanti.CarMoved(card=card) | avanti.CardDiscarded(card=card):
                known.add(card)
    return known


def revealed(events: tuple[Any, ...], index: int) -> bool:
    """Whether the card laid at ``events[index]`` was driven (its number shown) afterwards."""
    owner = events[index].seat
    for event in events[index + 1 :]:
        if isinstance(event, avanti.CarMoved) and event.seat == owner:
            return True
        if isinstance(event, CardPlayed | avanti.CardDiscarded) and event.seat == owner:
            return False
    return False


def twin(game: AnyGame, seat: int | None, rng: random.Random) -> AnyGame:
    """The same game with the cards ``seat`` may not know relabelled among themselves, and the
    numbers other seats laid and never drove changed (A30)."""
    unseen = sorted(set(game.state.table.deck.ids) - known_cards(game, seat))
    relabel = dict(zip(unseen, rng.sample(unseen, len(unseen)), strict=True))
    events = []
    for index, event in enumerate(game.events):
        match event:
            case DeckShuffled(order=order) if order is not None:
                event = attrs.evolve(event, order=tuple(relabel.get(c, c) for c in order))
            case CardsDealt(cards=cards) if cards is not None:
                event = attrs.evolve(event, cards=tuple(relabel.get(c, c) for c in cards))
            case CardPlayed(seat=owner, card=int(card)):
                number = event.number
                if owner != seat and not revealed(game.events, index):
                    number = rng.randint(1, 7)
                event = CardPlayed(owner, relabel.get(card, card), number)
            case CardDrawn(card=int(card)):
                event = attrs.evolve(event, card=relabel.get(card, card))
            case avanti.CarMoved(card=card) | avanti.CardDiscarded(card=card):
                event = attrs.evolve(event, card=relabel.get(card, card))
        events.append(event)
    return avanti.Game.replay(game.setup, events, verify=False)


def leaks(game: AnyGame, seat: int | None, view: Any, events: list[Any]) -> list[str]:
    """Cards of other hands, of the draw pile or laid face down by others, in ``seat``'s JSON."""
    state: avanti.GameState = game.state
    hidden = set(state.draw)
    for other in range(state.players):
        if other != seat:
            hidden |= set(state.hands[other])
            entry = state.laid[other]
            if entry is not None:
                hidden.add(entry[0])
    found = [f"view card {card}" for card in sorted(cards_in_view(view) & hidden)]
    for index, event in enumerate(events):
        kind = event["type"]
        if kind == "DeckShuffled" and event["order"] is not None:
            found.append(f"events[{index}].order")
        if kind in ("CardsDealt", "CardDrawn", "CardPlayed") and event["seat"] != seat:
            if event.get("cards", event.get("card")) is not None:
                found.append(f"events[{index}] shows another seat's card")
            if event.get("number") is not None:
                found.append(f"events[{index}] shows another seat's laid number")
    return found


AVANTI = GameSpec(
    name="avanti",
    game=avanti.Game,
    start=start,
    players=(3, 5),
    commands=commands,
    invariants=invariants,
    options=st.one_of(st.none(), options()),
    twin=twin,
    leaks=leaks,
)
