"""The notation of commands, both ways (``Game.notation``, ``Game.parse_notation``).

On random games of every game: each legal command reads back from its notation and from every
other spelling; no spelling names two commands of one seat; and a twin that differs only in
facts hidden from the command's seat writes the same notation (A30, F14, M3). Then worked
examples per game, written out by hand, and the refusals (unknown, ambiguous, not text).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import avanti
from avanti import Phase, autorama, mare
from avanti.core import CoreReason, IllegalCommand
from avanti.core.notation import normalize, parse, spellings
from tests.hardening.games import SPECS
from tests.hardening.spec import AnyGame, GameSpec, games

# -- properties on random games ------------------------------------------------------------------


def spellings_of(game: AnyGame, command: Any) -> tuple[str, ...]:
    """Every spelling of ``command`` in ``game``, the notation first."""
    found: tuple[str, ...] = game.rules.notations(game.state, command)
    return found


def names_by_seat(game: AnyGame) -> dict[int, dict[str, Any]]:
    """For each seat, each normalized spelling of its legal commands and the command it names;
    asserts that no spelling names two commands of one seat."""
    table: dict[int, dict[str, Any]] = {}
    for command in game.legal_commands():
        names = table.setdefault(command.seat, {})
        for text in spellings_of(game, command):
            other = names.setdefault(normalize(text), command)
            assert other == command, f"{text!r} names both {other!r} and {command!r}"
    return table


def check_moment(spec: GameSpec, game: AnyGame, data: st.DataObject) -> None:
    """Every property of the notation in one state of ``game``."""
    table = names_by_seat(game)
    for seat, names in table.items():
        mine = game.legal_commands(seat)
        notations = [game.notation(c) for c in mine]
        assert len(set(notations)) == len(mine), notations
        for command, text in zip(mine, notations, strict=True):
            assert text == normalize(text), "the notation is written as it is read"
            assert text == spellings_of(game, command)[0]
            assert names[text] == command
            assert game.parse_notation(text, seat) == command
    if not table:
        return
    # Every spelling of one command, read with its seat and without.
    command = data.draw(st.sampled_from(game.legal_commands()), label="command")
    for text in spellings_of(game, command):
        assert game.parse_notation(text, command.seat) == command
        sharing = {s for s, names in table.items() if normalize(text) in names}
        if sharing == {command.seat}:
            assert game.parse_notation(text) == command
        else:  # another seat may say the same ("invest 1"): reading it needs the seat
            with pytest.raises(IllegalCommand) as caught:
                game.parse_notation(text)
            assert caught.value.reason is CoreReason.AMBIGUOUS_NOTATION
    # A twin that differs only in what the seat may not see writes the same for that seat.
    seat = command.seat
    rng = data.draw(st.randoms(use_true_random=False), label="twin choices")
    twin = spec.twin(game, seat, rng)
    assert twin.legal_commands(seat) == game.legal_commands(seat)
    for mine_command in game.legal_commands(seat):
        assert spellings_of(twin, mine_command) == spellings_of(game, mine_command)


@st.composite
def stretches(draw: st.DrawFn, spec: GameSpec, most: int = 25) -> list[AnyGame]:
    """A stretch of a random game: from a moment drawn evenly from a whole game played at
    random (so that every phase comes up, late ones too), the game after each of up to ``most``
    more commands, each chosen by Hypothesis."""
    rng = draw(st.randoms(use_true_random=False), label="the game played at random")
    game = draw(games(spec))
    whole = [game]
    while legal := game.legal_commands():
        game = game.execute(rng.choice(legal))
        whole.append(game)
    game = whole[rng.randrange(len(whole))]
    stretch = [game]
    for _ in range(draw(st.integers(0, most))):
        legal = game.legal_commands()
        if not legal:
            break
        game = game.execute(legal[draw(st.integers(0, len(legal) - 1))])
        stretch.append(game)
    return stretch


@pytest.mark.parametrize("spec", SPECS, ids=str)
@given(data=st.data())
def test_notation_reads_back_is_unique_and_hides_nothing(
    spec: GameSpec, data: st.DataObject
) -> None:
    """At every step of a stretch of a random game: read-back, uniqueness per seat, twins."""
    for game in data.draw(stretches(spec), label="game"):
        check_moment(spec, game, data)


# -- helpers for the worked examples -------------------------------------------------------------


GameT = TypeVar("GameT", bound=AnyGame)


def until(game: GameT, wanted: Callable[[GameT], bool], seed: int = 0) -> GameT:
    """Play random legal commands (seeded) until ``wanted(game)``; fails if the game ends first."""
    rng = random.Random(seed)
    while not wanted(game):
        legal = game.legal_commands()
        assert legal, "the game ended before the wanted moment"
        game = game.execute(rng.choice(legal))
    return game


def refused(game: AnyGame, text: object, seat: int | None = None) -> IllegalCommand:
    """The error ``parse_notation`` raises for ``text``; the game is left as it was."""
    events, state = game.events, game.state
    with pytest.raises(IllegalCommand) as caught:
        game.parse_notation(text, seat)  # type: ignore[arg-type]  # not text, on purpose
    assert game.events is events
    assert game.state is state
    return caught.value


def all_notations(game: AnyGame, seat: int | None = None) -> list[str]:
    return [game.notation(c) for c in game.legal_commands(seat)]


# -- Avanti --------------------------------------------------------------------------------------


def test_avanti_marker_step_names_each_road_space() -> None:
    """A7: the starting player puts the event marker on one of the 34 road spaces."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=0)
    assert all_notations(game)[:4] == ["marker 0", "marker 1", "marker 2", "marker 3"]
    assert all_notations(game)[-1] == "marker 33"
    assert game.parse_notation("Place the marker on 12") == avanti.PlaceEventMarker(0, 12)
    assert game.parse_notation("marker on space 7", 0) == avanti.PlaceEventMarker(0, 7)
    assert refused(game, "marker 34").reason is CoreReason.UNKNOWN_NOTATION


def test_avanti_planning_names_cards_by_id() -> None:
    """A8: each seat lays a card for one of its numbers; cards 0 and 6 both print 1/4/5, so a
    card is named by its id, not by its face."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=0, start_space=0)
    assert all_notations(game, 0) == [
        "play 9 for 2",
        "play 9 for 4",
        "play 9 for 5",
        "play 13 for 2",
        "play 13 for 5",
        "play 13 for 7",
        "play 22 for 3",
        "play 22 for 5",
        "play 22 for 7",
    ]
    assert all_notations(game, 1)[:3] == ["play 19 for 3", "play 19 for 4", "play 19 for 6"]
    assert game.parse_notation("  PLAY 19  for 4 ") == avanti.PlayCard(1, 19, 4)
    for text in ("play card 19 for 4", "lay 19 for 4", "Lay card 19 to drive 4", "19 for 4"):
        assert game.parse_notation(text, 1) == avanti.PlayCard(1, 19, 4)
    assert avanti.DEFAULT_DECK.cards[0].numbers == avanti.DEFAULT_DECK.cards[6].numbers
    assert game.notation(avanti.PlayCard(0, 0, 4)) != game.notation(avanti.PlayCard(0, 6, 4))


def test_avanti_refuses_another_seats_card_and_a_number_not_on_the_card() -> None:
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=0, start_space=0)
    error = refused(game, "play 19 for 4", seat=0)
    assert error.reason is CoreReason.UNKNOWN_NOTATION
    assert "names no legal command of seat 0; legal now: 'play 9 for 2';" in error.message
    assert refused(game, "play 19 for 5").reason is CoreReason.UNKNOWN_NOTATION  # A3
    assert refused(game, "play 19").reason is CoreReason.UNKNOWN_NOTATION


def test_avanti_driving_turn() -> None:
    """A9: the seat to act drives or quits."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=0, start_space=0)
    game = until(game, lambda g: g.state.phase is Phase.DRIVING)
    seat = game.legal_commands()[0].seat
    assert all_notations(game) == ["drive", "quit"]
    assert game.parse_notation("Drive") == avanti.Drive(seat)
    assert game.parse_notation("quit the run", seat) == avanti.Quit(seat)
    assert refused(game, "drive", seat=(seat + 1) % 3).reason is CoreReason.UNKNOWN_NOTATION


def test_avanti_investing_needs_the_seat_when_two_seats_say_the_same() -> None:
    """A22: every seat invests at once, so "invest 1" may be said by several seats."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=1, start_space=0)
    game = until(game, lambda g: g.state.phase is Phase.INVESTING)
    assert all_notations(game, 1) == ["invest 0", "invest 1"]
    error = refused(game, "invest 1")
    assert error.reason is CoreReason.AMBIGUOUS_NOTATION
    assert "more than one seat (0, 1, 2)" in error.message
    assert game.parse_notation("invest 1", 1) == avanti.Invest(1, 1)
    assert game.parse_notation("Buy 1 step", 2) == avanti.Invest(2, 1)
    assert game.parse_notation("invest in 2 island steps", 2) == avanti.Invest(2, 2)
    assert "more than one seat (0, 2)" in refused(game, "invest 2").message  # seat 1 cannot
    assert game.parse_notation("pass", 1) == avanti.Invest(1, 0)
    assert refused(game, "invest 2", seat=1).reason is CoreReason.UNKNOWN_NOTATION


def test_a_finished_game_names_no_command() -> None:
    game = until(avanti.new_game(["Ann", "Bob", "Cy"], seed=2), lambda g: g.is_over)
    error = refused(game, "drive")
    assert error.reason is CoreReason.UNKNOWN_NOTATION
    assert error.message == "'drive' names no legal command: there is none for anyone now"


# -- Avanti mare! --------------------------------------------------------------------------------


def test_mare_roll_and_move() -> None:
    """M3: roll; M6: after a free fish's colour, move a fish still in the river."""
    game = mare.new_game(["Ann", "Bob"], seed=0)
    assert all_notations(game) == ["roll"]
    assert game.parse_notation("Roll the die") == mare.Roll(0)
    game = until(game, lambda g: g.state.move_due)
    seat = game.state.turn
    assert all_notations(game) == ["move orange", "move yellow", "skip"]
    orange = mare.MoveFish(seat, mare.Fish.ORANGE)
    for text in ("move orange", "Orange", "move the orange fish", "O", "move o"):
        assert game.parse_notation(text) == orange
    error = refused(game, "move blue")  # blue has left the river (M6)
    assert error.reason is CoreReason.UNKNOWN_NOTATION
    assert "legal now: 'move orange'; 'move yellow'; 'skip'" in error.message
    assert refused(game, "roll").reason is CoreReason.UNKNOWN_NOTATION


def test_mare_skip_declines_the_move() -> None:
    """M6: the roller "may" move another fish, so "skip" (and its variants) declines."""
    game = until(mare.new_game(["Ann", "Bob"], seed=0), lambda g: g.state.move_due)
    skip = mare.SkipMove(game.state.turn)
    assert game.notation(skip) == "skip"
    for text in ("skip", "Skip the move", "skip move", "DECLINE", "decline the move", "no move"):
        assert game.parse_notation(text) == skip
    assert game.parse_notation("pass", game.state.turn) == skip
    assert refused(game.execute(skip), "skip").reason is CoreReason.UNKNOWN_NOTATION


def test_mare_skip_is_refused_where_the_move_is_owed() -> None:
    """M6 read as owed (M9): no spelling declines, and the message lists only the moves."""
    options = mare.Options(free_fish_move_owed=True)
    game = until(mare.new_game(["Ann", "Bob"], seed=0, options=options), lambda g: g.state.move_due)
    assert all_notations(game) == ["move orange", "move yellow"]
    error = refused(game, "skip")
    assert error.reason is CoreReason.UNKNOWN_NOTATION
    assert "legal now: 'move orange'; 'move yellow'" in error.message


# -- For Sale: Autorama --------------------------------------------------------------------------


def test_autorama_bids_in_dollars_as_the_table_shows_them() -> None:
    """F2, F4: bids are in dollars, as the table shows cash ($28,000) and bids ($3,000)."""
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=1)
    assert all_notations(game)[:4] == ["pass", "bid 0", "bid 1000", "bid 2000"]
    assert all_notations(game)[-1] == "bid 28000"
    for text in ("bid 5", "BID  5", "bid $5,000", "bid 5000", "bid 5k", "raise to $5,000"):
        assert game.parse_notation(text) == autorama.Bid(0, 5)
    assert game.parse_notation("drop out", 0) == autorama.Pass(0)
    assert refused(game, "bid $29,000").reason is CoreReason.UNKNOWN_NOTATION  # over the cash (F4)
    assert refused(game, "bid 5", seat=1).reason is CoreReason.UNKNOWN_NOTATION  # not its turn


def boosts(game: autorama.Game) -> list[autorama.PlayAdvisor]:
    return [c for c in game.legal_commands() if isinstance(c, autorama.PlayAdvisor) and c.boost]


def pairs(game: autorama.Game) -> list[autorama.Offer]:
    legal = game.legal_commands()
    return [c for c in legal if isinstance(c, autorama.Offer) and len(c.vehicles) == 2]


def take_backs(game: autorama.Game) -> list[autorama.TakeBack]:
    return [c for c in game.legal_commands() if isinstance(c, autorama.TakeBack)]


def test_autorama_advisors_with_and_without_the_boost() -> None:
    """F9, F10: a Fleet Manager may be played plain or boosted, two distinct commands."""
    game = until(autorama.new_game(["Ann", "Bob", "Cy"], seed=1), lambda g: bool(boosts(g)))
    boosted = boosts(game)[0]
    number = boosted.advisor
    plain = autorama.PlayAdvisor(boosted.seat, number)
    assert game.notation(plain) == f"play {number}"
    assert game.notation(boosted) == f"play {number} boosted"
    assert game.parse_notation(f"Play Fleet Manager {number}") == plain
    assert game.parse_notation(f"advisor {number}") == plain
    assert game.parse_notation(f"play fleet manager {number} with its boost") == boosted
    assert game.parse_notation(f"boost {number}") == boosted
    assert game.parse_notation(f"play {number} as {number + 18}") == boosted


def test_autorama_offers_one_or_two_vehicles() -> None:
    """F14, F15: with a Lawyer a seat may offer two vehicles; then takes one back."""
    game = until(autorama.new_game(["Ann", "Bob", "Cy"], seed=0), lambda g: bool(pairs(g)))
    pair = pairs(game)[0]
    low, high = pair.vehicles
    single = autorama.Offer(pair.seat, (low,))
    assert game.notation(single) == f"offer {low}"
    assert game.notation(pair) == f"offer {low} and {high}"
    for text in (f"offer {high} and {low}", f"offer {low}, {high}", f"Offer {low} & {high}"):
        assert game.parse_notation(text) == pair  # offers of different seats never clash
    assert game.parse_notation(f"offer vehicle {low}") == single
    game = until(game, lambda g: bool(take_backs(g)))
    take = take_backs(game)[0]
    assert game.notation(take) == f"take back {take.vehicle}"
    assert game.parse_notation(f"take {take.vehicle} back") == take


def test_autorama_mechanic_choice() -> None:
    """F16: the lowest offer may use a Mechanic or decline."""

    def mechanic_open(game: autorama.Game) -> bool:
        return any(isinstance(c, autorama.UseMechanic) for c in game.legal_commands())

    for seed in range(40):
        game = autorama.new_game(["Ann", "Bob", "Cy"], seed=seed)
        game = until(game, lambda g: mechanic_open(g) or g.is_over, seed)
        if mechanic_open(game):
            break
    else:
        pytest.fail("no game of 40 asked for a Mechanic")
    seat = game.legal_commands()[0].seat
    assert all_notations(game) == ["use mechanic", "decline mechanic"]
    assert game.parse_notation("Mechanic") == autorama.UseMechanic(seat)
    assert game.parse_notation("no mechanic") == autorama.DeclineMechanic(seat)


# -- the core ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [19, None, b"drive", ["drive"], 1.5])
def test_a_notation_must_be_text(text: object) -> None:
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=0, start_space=0)
    error = refused(game, text)
    assert error.reason is CoreReason.UNKNOWN_NOTATION
    assert error.message.startswith("a notation is text, not ")


def test_normalize_and_spellings() -> None:
    assert normalize("  Bid   $1,000 ") == "bid 1000"
    assert normalize("PLAY\t19\n for 4") == "play 19 for 4"
    assert normalize("offer 3, 25") == "offer 3, 25"  # only a thousands comma goes
    assert spellings(["Invest 1", "invest 1", " invest  1 step"]) == ("invest 1", "invest 1 step")


def test_parse_names_a_game_bug_that_gives_one_seat_two_commands_the_same_spelling() -> None:
    """Same-seat clashes are the game's bug (the properties above rule them out), and the
    message says so instead of asking for a seat."""
    commands = [avanti.Invest(0, 1), avanti.Invest(0, 2)]
    with pytest.raises(IllegalCommand) as caught:
        parse("invest", commands, lambda c: ("invest", f"invest {c.steps}"), seat=0)
    assert caught.value.reason is CoreReason.AMBIGUOUS_NOTATION
    assert "names several commands ('invest'; 'invest')" in caught.value.message
    with pytest.raises(IllegalCommand) as caught:
        parse("x", [], lambda c: (), seat=0)
    assert caught.value.message == "'x' names no legal command: there is none for seat 0 now"
