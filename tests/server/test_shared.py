"""What the seats' updates of one version share (:class:`avanti.server.protocol.wire.Shared`):
built once, it gives each seat exactly what the seat's own :func:`events_data` and
:func:`legal_data` give (hidden facts blanked for it, only its own commands), A30."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import avanti
from avanti import autorama, mare
from avanti.core.errors import IllegalCommand
from avanti.server.protocol.wire import Shared, events_data, legal_data, update

AnyGame = Any
NAMES = {"avanti": ["Ann", "Bob", "Cy"], "autorama": ["Ann", "Bob", "Cy"], "mare": ["Ann", "Bob"]}
MODULES: dict[str, Any] = {"avanti": avanti, "autorama": autorama, "mare": mare}


def versions(name: str, seed: int) -> list[AnyGame]:
    """Every version of a game of ``name`` played to its end by seeded random commands."""
    game = MODULES[name].new_game(NAMES[name], seed=seed)
    rng = random.Random(seed)
    played = [game]
    while not game.is_over:
        game = game.execute(rng.choice(list(game.legal_commands(game.waiting[0]))))
        played.append(game)
    return played


def as_json(value: object) -> object:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("name", "seed"), [("avanti", 3), ("autorama", 4), ("mare", 5)])
def test_each_seat_gets_from_the_shared_parts_what_it_gets_alone(name: str, seed: int) -> None:
    played = versions(name, seed)
    seats: list[int | None] = [None, *range(len(NAMES[name]))]
    rng = random.Random(seed)
    hidden = 0
    for game in [*played[:: max(1, len(played) // 40)], played[-1]]:
        shared = Shared(game)
        for seat in rng.sample(seats, len(seats)):  # any seat may come first
            after = rng.randrange(game.version + 1)
            mine = events_data(game, seat, after, shared)
            assert as_json(mine) == as_json(events_data(game, seat, after))
            assert as_json(legal_data(game, seat, shared)) == as_json(legal_data(game, seat))
            whole = [{"position": i, "event": e} for i, e in enumerate(game.events)][after:]
            hidden += len(mine) != len(whole) or any(
                seen["event"] != type(game).rules.codec.event_to_data(event["event"])
                for seen, event in zip(mine, whole, strict=False)
            )
        message = update(game, 0, 0, shared=shared)
        assert as_json(message) == as_json(update(game, 0, 0))
    # the games did hide something from some seat, so the check had teeth (every event of
    # Avanti mare! is public: its seats see each event alike)
    assert hidden > 0 if name != "mare" else hidden == 0


def laid(seat: int, card: int | None, number: int | None) -> dict[str, object]:
    """A ``CardPlayed`` event as the codec writes it."""
    return {"type": "CardPlayed", "seat": seat, "card": card, "number": number}


def test_a_seat_sees_its_own_card_and_no_other_seat_does() -> None:
    """Avanti's laid cards show only to their owner (A30): the first seat to be built may not
    pass its card to the next, whichever order they come in."""
    game = avanti.new_game(NAMES["avanti"], seed=7)
    game = game.execute(game.legal_commands()[0])  # the marker placed (A7): cards are laid
    mover = game.waiting[0]
    play = next(c for c in game.legal_commands(mover) if isinstance(c, avanti.PlayCard))
    after = game.execute(play)
    shared = Shared(after)
    own = shared.events(mover, game.version)
    other = shared.events((mover + 1) % 3, game.version)
    spectator = shared.events(None, game.version)
    assert as_json(own) == [
        {"position": game.version, "event": laid(mover, play.card, play.number)}
    ]
    assert as_json(other) == [{"position": game.version, "event": laid(mover, None, None)}]
    assert as_json(spectator) == as_json(other)
    assert shared.legal((mover + 1) % 3) == legal_data(after, (mover + 1) % 3)


def test_a_seat_not_at_the_table_is_refused_as_without_it() -> None:
    game = avanti.new_game(NAMES["avanti"], seed=1)
    shared = Shared(game)
    shared.legal(1)
    shared.events(1, 0)
    for bad in (3, -1, True):
        with pytest.raises(IllegalCommand):
            shared.legal(bad)
        with pytest.raises(IllegalCommand):
            shared.events(bad, 0)
