"""What a game starts from: players, seed, start player, options, and an optional built position.

A :class:`Setup` either starts a fresh game (the decks are shuffled from the seed, F1) or, with a
:class:`Scenario`, a position built by hand: deck orders, hands, cash, phase and round. Either way
``replay(setup, events)`` rebuilds the same game, because the scenario is part of the setup.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable

from attrs import frozen

from avanti.autorama.cards import ADVISORS, CHECKS, VEHICLES
from avanti.core import InvalidSetup

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Options",
    "Phase",
    "Scenario",
    "Setup",
    "removed_per_deck",
    "starting_cash",
    "validate",
]

MIN_PLAYERS = 3
"""F1: the fewest players."""
MAX_PLAYERS = 6
"""F1: the most players."""


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

    ``first`` is the start player of the first round (F3); ``scenario``, when given, replaces the
    shuffled decks with a built position.
    """

    players: tuple[str, ...]
    seed: int = 0
    first: int = 0
    options: Options = Options()
    scenario: Scenario | None = None


def validate(setup: Setup) -> None:
    """Check a setup against F1-F3 and, for a scenario, that its cards and hands fit together.

    Player names must differ, compared exactly: ``"Ann"`` and ``"ann"`` are two players (names
    are shown as given, never folded).

    :raises InvalidSetup: naming the rule the setup breaks.
    """
    n = len(setup.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidSetup(f"the game takes 3 to 6 players, not {n}", rule="F1")
    if not all(isinstance(name, str) and name for name in setup.players):
        raise InvalidSetup("every player needs a non-empty name", rule="F1")
    if len(set(setup.players)) != n:
        raise InvalidSetup(f"player names must differ, got {list(setup.players)}", rule="F1")
    if not 0 <= setup.first < n:
        raise InvalidSetup(f"the start player must be a seat from 0 to {n - 1}", rule="F3")
    if setup.scenario is not None:
        _validate_scenario(setup.scenario, n)


def _validate_scenario(s: Scenario, n: int) -> None:
    if s.phase is Phase.OVER:
        raise InvalidSetup("a scenario starts in phase 1, 2 or 3", rule="F1")
    if s.round < 1:
        raise InvalidSetup("rounds are counted from 1", rule="F4")
    for name in ("cash", "advisors", "vehicles", "checks", "kept"):
        value = getattr(s, name)
        if value and len(value) != n:
            raise InvalidSetup(f"{name} needs one entry per seat ({n})", rule="F1")
    if any(amount < 0 for amount in s.cash):
        raise InvalidSetup("cash cannot be negative", rule="F2")
    advisors = [*s.advisor_deck, *_flat(s.advisors), *_flat(s.kept)]
    vehicles = [*s.vehicle_deck, *_flat(s.vehicles)]
    checks = [*s.check_deck, *_flat(s.checks)]
    _check_cards("advisor", advisors, ADVISORS)
    _check_cards("vehicle", vehicles, VEHICLES)
    _check_cards("check", checks, CHECKS)
    decks = {"advisor": s.advisor_deck, "vehicle": s.vehicle_deck, "check": s.check_deck}
    for name, deck in decks.items():
        if len(deck) % n:
            raise InvalidSetup(f"the {name} deck must deal whole rounds of {n} cards", rule="F4")
    rounds_a, rounds_v, rounds_c = (len(deck) // n for deck in decks.values())
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


def _flat(hands: Iterable[tuple[int, ...]]) -> list[int]:
    return [card for hand in hands for card in hand]


def _check_cards(name: str, cards: list[int], deck: tuple[int, ...]) -> None:
    have = Counter(cards)
    allowed = Counter(deck)
    for card, count in have.items():
        if count > allowed[card]:
            raise InvalidSetup(f"{name} {card} is not in the deck that many times", rule="F1")
