"""Properties of random legal play for 3-6 players, checked after every event."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from avanti.autorama import (
    RULES,
    AdvisorHired,
    AdvisorPlayed,
    Bid,
    BonusReceived,
    Command,
    DeclineMechanic,
    Event,
    Game,
    GameState,
    IllegalCommand,
    Offer,
    OfferWithLawyer,
    Options,
    Pass,
    Phase,
    PlayAdvisor,
    TakeBack,
    UseMechanic,
    decide,
    describe,
    evolve,
    loads,
    new_game,
    replay,
)
from avanti.autorama.cards import ADVISORS, BOOST_COST, CHECKS, VEHICLES
from avanti.core import Stream

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
FAST = settings(max_examples=100, deadline=None)


def cards_by_deck(state: GameState) -> tuple[Counter[int], Counter[int], Counter[int]]:
    """Every card of each deck, wherever it is (removed cards included)."""

    def flat(hands: tuple[tuple[int, ...], ...]) -> list[int]:
        return [c for hand in hands for c in hand]

    table = {state.phase: state.table}
    advisors = Counter(
        [
            *state.advisor_deck,
            *state.removed_advisors,
            *table.get(Phase.HIRING, ()),
            *flat(state.advisors),
            *(a for a in state.played if a is not None),
            *flat(state.kept),
            *state.spent,
        ]
    )
    vehicles = Counter(
        [
            *state.vehicle_deck,
            *state.removed_vehicles,
            *table.get(Phase.BUYING, ()),
            *flat(state.vehicles),
            *flat(tuple(o for o in state.offers if o is not None)),
            *state.sold,
        ]
    )
    checks = Counter(
        [
            *state.check_deck,
            *state.removed_checks,
            *table.get(Phase.SELLING, ()),
            *flat(state.checks),
        ]
    )
    return advisors, vehicles, checks


def supply_flow(event: Event) -> int:
    """Money from the supply to the players (negative: paid to the supply) in ``event``."""
    if isinstance(event, AdvisorHired):
        return -event.paid
    if isinstance(event, AdvisorPlayed) and event.boosted:
        return -BOOST_COST
    if isinstance(event, BonusReceived):
        return event.amount
    return 0


def check_invariants(game: Game) -> None:
    """Fold the log event by event and check the invariants after each one."""
    state = RULES.start(game.setup)[0]
    full = (Counter(ADVISORS), Counter(VEHICLES), Counter(CHECKS))
    money = sum(state.cash)
    for event in game.events:
        state = evolve(state, event)
        money += supply_flow(event)
        assert cards_by_deck(state) == full
        assert min(state.cash) >= 0
        assert sum(state.cash) == money
        assert all((b or 0) <= c for b, c in zip(state.bids, state.cash, strict=True))
    assert state == game.state


def universe(state: GameState, stream: Stream) -> list[Command]:
    """A sample of commands, legal and not, to test that exactly the listed ones are legal."""
    seats = range(-1, state.players + 1)
    commands: list[Command] = []
    for seat in seats:
        commands += [Pass(seat), UseMechanic(seat), DeclineMechanic(seat)]
        commands += [Bid(seat, stream.below(45) - 2) for _ in range(3)]
        commands += [PlayAdvisor(seat, stream.below(32), stream.below(2) == 1) for _ in range(3)]
        commands += [Offer(seat, (stream.below(32),)) for _ in range(3)]
        commands += [Offer(seat, (stream.below(32), stream.below(32))) for _ in range(3)]
        commands += [
            OfferWithLawyer(seat, (stream.below(32), stream.below(32)), 18 + stream.below(5))
            for _ in range(3)
        ]
        commands += [TakeBack(seat, stream.below(32)) for _ in range(3)]
    return commands


def play_randomly(players: int, seed: int, choices: int, *, probe: bool = False) -> list[Game]:
    """Every game along one random legal path; with ``probe``, check ``legal_commands`` on the way.

    The probe checks that every listed command executes and that a sample of unlisted ones is
    refused and leaves the game as it was.
    """
    stream = Stream(choices, 1)
    options = Options(
        lawyer_single_use=choices % 2 == 1,
        sales_associate_refunds_winner=choices % 3 == 0,
        lawyer_choice=choices % 5 == 0,
    )
    games = [new_game(NAMES[:players], seed=seed, first=seed % players, options=options)]
    while not games[-1].is_over:
        game = games[-1]
        legal = game.legal_commands()
        assert legal
        if probe:
            for command in legal:
                decide(game.state, command)
            listed = set(legal)
            for command in universe(game.state, stream):
                if command in listed:
                    continue
                before = game.state
                try:
                    game.execute(command)
                except IllegalCommand:
                    assert game.state == before
                else:
                    raise AssertionError(f"{command!r} executes but is not listed")
        games.append(game.execute(stream.choice(legal)))
    return games


@FAST
@given(st.integers(3, 6), st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_legal_play_ends_with_a_scored_result(players: int, seed: int, choices: int) -> None:
    games = play_randomly(players, seed, choices)
    final = games[-1]
    result = final.outcome
    assert result is not None
    assert len(result.scores) == players
    best = max((s.total, s.cash) for s in result.scores)
    assert result.winners == tuple(s.seat for s in result.scores if (s.total, s.cash) == best)
    assert all(not hand for hand in final.state.vehicles)
    check_invariants(final)
    for event in final.events:
        assert describe(event, final.setup)
    for seat in (None, *range(players)):
        for event in final.events_for(seat):
            assert describe(event, final.setup)


@FAST
@given(st.integers(3, 6), st.integers(0, 2**32), st.integers(0, 2**32))
def test_replay_json_undo_and_determinism(players: int, seed: int, choices: int) -> None:
    games = play_randomly(players, seed, choices)
    final = games[-1]
    assert replay(final.setup, final.events) == final
    assert loads(final.dumps()) == final
    assert final.undo() == games[-2]
    middle = games[len(games) // 2]
    assert middle.undo() == games[len(games) // 2 - 1]
    assert play_randomly(players, seed, choices)[-1] == final


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32), st.integers(0, 2**32))
def test_legal_commands_are_exactly_the_accepted_ones(
    players: int, seed: int, choices: int
) -> None:
    play_randomly(players, seed, choices, probe=True)
