"""What a game starts from: players, seed, start player, options, and an optional built position.

A :class:`Setup` either starts a fresh game (the decks are shuffled from the seed, F1) or, with a
:class:`Scenario`, a position built by hand: deck orders, hands, cash, phase and round. Either way
``replay(setup, events)`` rebuilds the same game, because the scenario is part of the setup.
"""

from __future__ import annotations

import enum
from collections import Counter

from attrs import field, frozen

from avanti.autorama.cards import (
    ADVISORS,
    CHECKS,
    GENERAL_MANAGER_BONUS,
    SALES_DIRECTOR_BONUS,
    VEHICLES,
)
from avanti.core import InvalidSetup
from avanti.core.limits import names_problem, new_seed

__all__ = [
    "MAX_BID",
    "MAX_CASH",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_SEED_BITS",
    "MIN_PLAYERS",
    "Options",
    "Phase",
    "PublicScenario",
    "PublicSetup",
    "Scenario",
    "Setup",
    "public_setup",
    "removed_per_deck",
    "starting_cash",
    "validate",
]

MIN_PLAYERS = 3
"""F1: the fewest players."""
MAX_PLAYERS = 6
"""F1: the most players."""
MAX_CASH = 120
"""F2: the most cash a scenario may hand out, all seats together, in thousands: the money in
the box, 12 tokens of $5,000 and 60 of $1,000 ($120,000). Starting cash never needs more (28 each
for 3-4 players is at most 112, 20 each for 5-6 at most 120)."""
MAX_BID = MAX_CASH + 3 * SALES_DIRECTOR_BONUS + 3 * GENERAL_MANAGER_BONUS
"""F2, F4, F11: the most cash any seat can ever hold, so the highest bid it can ever make
(141): all of :data:`MAX_CASH` plus every bonus the three Sales Directors and the three General
Managers can earn from the supply. An auction therefore lists at most ``MAX_BID + 2`` commands
(a ``Pass`` and every ``Bid`` from 0 up)."""
MAX_ROUNDS = len(ADVISORS) // MIN_PLAYERS
"""F1, F4: the most rounds a phase can have (10): a deck of 30 cards dealt to 3 players, none
removed. With ``n`` players a phase has at most ``30 // n`` rounds."""
MAX_SEED_BITS = 128
"""F1: the widest seed, in bits (sign apart). The shuffles read the low 128 bits of a seed, so a
wider one deals nothing new; :func:`avanti.core.limits.new_seed` draws 64."""


class Phase(enum.Enum):
    """The three phases of the game (F4, F9, F14), and its end (F18)."""

    HIRING = "hiring"
    """Phase 1: advisors are auctioned (F4-F8)."""
    BUYING = "buying"
    """Phase 2: advisors buy vehicles (F9-F13)."""
    SELLING = "selling"
    """Phase 3: vehicles are sold for checks (F14-F18)."""
    OVER = "over"
    """Every vehicle is sold and the game is scored (F19, F20)."""


@frozen
class Options:
    """Readings of the rules that a table may switch.

    ``lawyer_single_use`` (F15): discard a Lawyer once it has been used. By default a Lawyer is
    kept and may be used again in a later round, since the rulebook does not discard it. A player
    holding several Lawyers then names the one used (and discarded) with
    :class:`~avanti.autorama.OfferWithLawyer`.

    ``lawyer_choice`` (F15): let a player holding several Lawyers name the one used
    (:class:`~avanti.autorama.OfferWithLawyer`) also when Lawyers are kept; the Lawyer named sets
    the order of take-backs. By default an offer of two uses the highest Lawyer.

    ``sales_associate_refunds_winner`` (F6): let a Sales Associate refund the whole bid also to the
    player who wins it as the last advisor of an auction. By default it does not: the winner pays,
    and the Sales Associate's refund is for those who pass.
    """

    lawyer_single_use: bool = False
    sales_associate_refunds_winner: bool = False
    lawyer_choice: bool = False


def starting_cash(players: int) -> int:
    """F2: 28 each with 3-4 players, 20 each with 5-6 (thousands of dollars)."""
    return 28 if players <= 4 else 20


def removed_per_deck(players: int) -> int:
    """F1: cards removed unseen from each deck: 6 with 3 players, 2 with 4, none with 5-6."""
    return {3: 6, 4: 2}.get(players, 0)


@frozen(kw_only=True)
class Scenario:
    """A built position to start from, instead of shuffled decks (for examples, tests, puzzles).

    The game starts by revealing the next round of ``phase`` from the top of its deck (the
    first item of a deck tuple is its top card). Per-seat tuples (``cash``, ``advisors``,
    ``vehicles``, ``checks``, ``kept``) have one entry per seat; left empty they mean starting
    cash (F2) and empty hands. ``kept`` holds advisors already played and kept face up (F12).
    Cards named nowhere are out of the game, like the cards removed in F1.

    Every player must hold what the rest of the game needs: in phase 2 one advisor per round of
    vehicles, in phase 3 one vehicle per round of checks, and so on.

    The box bounds it (checked before anything is built): each card at most as often as its
    deck holds it (F1), the rounds already played of ``phase`` plus those its deck still deals
    at most ``30 // players`` (F4), and the cash of all seats together at most
    :data:`~avanti.autorama.setup.MAX_CASH`, the money in the box (F2).
    """

    phase: Phase = Phase.HIRING
    round: int = 1
    advisor_deck: tuple[int, ...] = ()
    vehicle_deck: tuple[int, ...] = ()
    check_deck: tuple[int, ...] = ()
    cash: tuple[int, ...] = ()
    advisors: tuple[tuple[int, ...], ...] = ()
    vehicles: tuple[tuple[int, ...], ...] = ()
    checks: tuple[tuple[int, ...], ...] = ()
    kept: tuple[tuple[int, ...], ...] = ()

    def cash_of(self, players: int) -> tuple[int, ...]:
        """Each seat's cash: as given, or the starting cash (F2)."""
        return self.cash or (starting_cash(players),) * players

    def advisors_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Each seat's advisors in hand (sorted)."""
        return _per_seat(self.advisors, players)

    def vehicles_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Each seat's vehicles in hand (sorted)."""
        return _per_seat(self.vehicles, players)

    def checks_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Each seat's checks (sorted)."""
        return _per_seat(self.checks, players)

    def kept_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Each seat's played advisors kept face up (sorted)."""
        return _per_seat(self.kept, players)


def _per_seat(value: tuple[tuple[int, ...], ...], players: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(cards)) for cards in value) if value else ((),) * players


@frozen
class Setup:
    """The parameters of a game: player names (3-6, distinct, clockwise), seed, start player,
    options.

    ``seed`` deals every card of the game (F1): it is the server's secret, never to be shown to
    a player (send :func:`public_setup` instead). Left out, a fresh one nobody can guess is drawn
    with :func:`avanti.core.limits.new_seed`; pass one to replay a known deal.

    ``first`` is the start player of the first round (F3); ``scenario``, when given, replaces the
    shuffled decks with a built position.
    """

    players: tuple[str, ...]
    seed: int = field(factory=new_seed)
    first: int = 0
    options: Options = Options()
    scenario: Scenario | None = None


@frozen(kw_only=True)
class PublicScenario:
    """What every seat may know of a :class:`Scenario`: the phase and round, how many cards each
    deck and each hand holds, and the advisors kept face up.

    - ``phase``, ``round`` (F4, F9, F14): where the game starts, announced to all.
    - ``advisors_left``, ``vehicles_left``, ``checks_left`` (F1): how many cards each deck holds,
      never their order.
    - ``removed`` (F1): how many advisors, vehicles and checks are out of the game, never which.
    - ``advisor_counts``, ``vehicle_counts``, ``check_counts`` (F8, F14): how many cards each seat
      holds, never which: hands and checks won are face down.
    - ``kept`` (F9, F12): the advisors each seat played and keeps face up.

    Never in it: the decks' order, the hands, the checks won, or anybody's cash (F2).
    """

    phase: Phase
    round: int
    advisors_left: int
    vehicles_left: int
    checks_left: int
    removed: tuple[int, int, int]
    advisor_counts: tuple[int, ...]
    vehicle_counts: tuple[int, ...]
    check_counts: tuple[int, ...]
    kept: tuple[tuple[int, ...], ...]


@frozen(kw_only=True)
class PublicSetup:
    """What every seat may know of a :class:`Setup`: what a front end may show each player.

    - ``players`` (F1): the names, clockwise from seat 0.
    - ``first`` (F3): the start player of the first round.
    - ``options`` (F6, F15): the readings of the rules the table plays by.
    - ``scenario``: a built position's public facts (:class:`PublicScenario`), or ``None`` for a
      shuffled game, whose decks (F1) and starting cash (F2, 28 or 20 each) follow from the
      number of players.

    Never in it: the seed, which deals every card to come (F1), nor a scenario's hidden facts.
    """

    players: tuple[str, ...]
    first: int
    options: Options
    scenario: PublicScenario | None


def public_setup(setup: Setup) -> PublicSetup:
    """The part of ``setup`` every seat may know (see :class:`PublicSetup`): no seed, and of a
    scenario only its public facts (F1, F2, F8, F12, F14)."""
    s = setup.scenario
    if s is None:
        return PublicSetup(
            players=setup.players, first=setup.first, options=setup.options, scenario=None
        )
    n = len(setup.players)
    advisors, vehicles, checks, kept = (
        s.advisors_of(n),
        s.vehicles_of(n),
        s.checks_of(n),
        s.kept_of(n),
    )
    named = (
        len(s.advisor_deck) + sum(map(len, advisors)) + sum(map(len, kept)),
        len(s.vehicle_deck) + sum(map(len, vehicles)),
        len(s.check_deck) + sum(map(len, checks)),
    )
    scenario = PublicScenario(
        phase=s.phase,
        round=s.round,
        advisors_left=len(s.advisor_deck),
        vehicles_left=len(s.vehicle_deck),
        checks_left=len(s.check_deck),
        removed=(len(ADVISORS) - named[0], len(VEHICLES) - named[1], len(CHECKS) - named[2]),
        advisor_counts=tuple(map(len, advisors)),
        vehicle_counts=tuple(map(len, vehicles)),
        check_counts=tuple(map(len, checks)),
        kept=kept,
    )
    return PublicSetup(
        players=setup.players, first=setup.first, options=setup.options, scenario=scenario
    )


def validate(setup: Setup) -> None:
    """Check a setup against F1-F3 and, for a scenario, that its cards and hands fit together.

    Player names are checked by :func:`avanti.core.limits.names_problem` (1 to 40 printable
    characters, no space at either end) and must differ, compared exactly: ``"Ann"`` and
    ``"ann"`` are two players (names are shown as given, never folded).

    Every size is checked before anything is built from it: at most :data:`MAX_PLAYERS` names,
    a seed of at most :data:`MAX_SEED_BITS` bits, a scenario's round at most ``30 // players``
    (:data:`MAX_ROUNDS` with 3), at most the 30 cards of each deck, and at most
    :data:`MAX_CASH` in all. The messages name the seat or field, never a hidden value.

    The core has checked the setup's form (every field of its exact declared type) first.

    :raises InvalidSetup: naming the rule the setup breaks.
    """
    n = len(setup.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidSetup(
            f"the game takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}", rule="F1"
        )
    problem = names_problem(setup.players)
    if problem is not None:
        raise InvalidSetup(problem, rule="F1")
    if not 0 <= setup.first < n:
        raise InvalidSetup(f"the start player must be a seat from 0 to {n - 1}", rule="F3")
    if setup.seed.bit_length() > MAX_SEED_BITS:
        raise InvalidSetup(
            f"the seed must be a whole number of at most {MAX_SEED_BITS} bits", rule="F1"
        )
    if setup.scenario is not None:
        _validate_scenario(setup.scenario, n)


def _validate_scenario(s: Scenario, n: int) -> None:
    """The sizes first (rounds, per-seat tuples, card counts, cash), then the cards, then how
    the hands fit the phases."""
    if s.phase is Phase.OVER:
        raise InvalidSetup("a scenario starts in phase 1, 2 or 3", rule="F1")
    most = len(ADVISORS) // n
    if not 1 <= s.round <= most:
        raise InvalidSetup(
            f"rounds are counted from 1, and a phase has at most {most} with {n} players",
            rule="F4",
        )
    for name in ("cash", "advisors", "vehicles", "checks", "kept"):
        value = getattr(s, name)
        if value and len(value) != n:
            raise InvalidSetup(f"{name} needs one entry per seat ({n})", rule="F1")
    for seat, amount in enumerate(s.cash):
        if amount < 0:
            raise InvalidSetup(f"seat {seat}: cash cannot be negative", rule="F2")
    if sum(s.cash) > MAX_CASH:
        raise InvalidSetup(
            f"the cash of all seats together cannot exceed the money in the box "
            f"({MAX_CASH} thousand)",
            rule="F2",
        )
    groups = (
        ("advisor", ADVISORS, (s.advisor_deck, *s.advisors, *s.kept)),
        ("vehicle", VEHICLES, (s.vehicle_deck, *s.vehicles)),
        ("check", CHECKS, (s.check_deck, *s.checks)),
    )
    for name, deck, parts in groups:
        if sum(len(part) for part in parts) > len(deck):
            raise InvalidSetup(
                f"the scenario names more {name}s than the {len(deck)} of the deck", rule="F1"
            )
    for name, deck, parts in groups:
        _check_cards(name, [card for part in parts for card in part], deck)
    decks = {"advisor": s.advisor_deck, "vehicle": s.vehicle_deck, "check": s.check_deck}
    for name, deck in decks.items():
        if len(deck) % n:
            raise InvalidSetup(f"the {name} deck must deal whole rounds of {n} cards", rule="F4")
    rounds_a, rounds_v, rounds_c = (len(deck) // n for deck in decks.values())
    left = {Phase.HIRING: rounds_a, Phase.BUYING: rounds_v, Phase.SELLING: rounds_c}[s.phase]
    if s.round - 1 + left > most:
        raise InvalidSetup(
            f"round {s.round} with {left} more to deal makes more than the {most} rounds "
            f"a deck deals to {n} players",
            rule="F4",
        )
    hands = zip(s.advisors_of(n), s.vehicles_of(n), strict=True)
    if s.phase is Phase.HIRING:
        fits = rounds_a >= 1 and all(
            len(a) + rounds_a == rounds_v and len(v) + rounds_v == rounds_c for a, v in hands
        )
    elif s.phase is Phase.BUYING:
        fits = (
            rounds_a == 0
            and rounds_v >= 1
            and all(len(a) == rounds_v and len(v) + rounds_v == rounds_c for a, v in hands)
        )
    else:
        fits = (
            rounds_a == rounds_v == 0
            and rounds_c >= 1
            and all(not a and len(v) == rounds_c for a, v in hands)
        )
    if not fits:
        raise InvalidSetup(
            "every player must end each phase holding one card per round of the next "
            "(one advisor per round of vehicles, one vehicle per round of checks)",
            rule="F9",
        )


def _check_cards(name: str, cards: list[int], deck: tuple[int, ...]) -> None:
    """F1: every card named is one of the deck's, named no more often than the deck holds it.

    A card that is not in the deck is not repeated in the message (it may be any number)."""
    have = Counter(cards)
    allowed = Counter(deck)
    for card, count in have.items():
        if card not in allowed:
            raise InvalidSetup(f"the scenario names a {name} that is not in the deck", rule="F1")
        if count > allowed[card]:
            raise InvalidSetup(f"{name} {card} is not in the deck that many times", rule="F1")
