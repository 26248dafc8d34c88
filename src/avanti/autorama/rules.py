"""The rules of For Sale: Autorama, as the core's :class:`~avanti.core.Ruleset` binds them.

Every game names the same functions in its ``rules`` module: ``start``, ``decide``, ``evolve``,
``fold``, ``execute``, ``legal_commands``, ``waiting``, ``outcome`` and ``cause``. The phases'
rules live in ``hiring`` (F4-F8), ``buying`` (F9-F13) and ``selling`` (F14-F18), the folding of
events in ``evolve``; this module starts a game and dispatches to them.
"""

from __future__ import annotations

from collections import Counter

from avanti.autorama.buying import decide_play, legal_buying
from avanti.autorama.cards import ADVISORS, CHECKS, VEHICLES
from avanti.autorama.commands import (
    Bid,
    Command,
    DeclineMechanic,
    Offer,
    OfferWithLawyer,
    Pass,
    PlayAdvisor,
    TakeBack,
    UseMechanic,
)
from avanti.autorama.events import (
    AdvisorPlayed,
    AdvisorsRevealed,
    BidPlaced,
    ChecksRevealed,
    DecksShuffled,
    Event,
    MechanicDeclined,
    MechanicUsed,
    Passed,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
    VehiclesRevealed,
    VehicleTakenBack,
)
from avanti.autorama.evolve import evolve, fold
from avanti.autorama.flow import Emitter
from avanti.autorama.hiring import decide_bid, decide_pass, legal_hiring
from avanti.autorama.scoring import Outcome, score
from avanti.autorama.selling import (
    decide_mechanic,
    decide_offer,
    decide_offer_with_lawyer,
    decide_take_back,
    legal_selling,
)
from avanti.autorama.setup import (
    Phase,
    Scenario,
    Setup,
    removed_per_deck,
    starting_cash,
    validate,
)
from avanti.autorama.state import GameState, Step
from avanti.core import CoreReason, Rng, refuse

__all__ = [
    "Outcome",
    "cause",
    "decide",
    "evolve",
    "execute",
    "fold",
    "legal_commands",
    "outcome",
    "start",
    "waiting",
]


def _blank(setup: Setup) -> GameState:
    n = len(setup.players)
    empty: tuple[tuple[int, ...], ...] = ((),) * n
    return GameState(
        players=n,
        options=setup.options,
        phase=Phase.HIRING,
        step=Step.OFFERING,
        round=0,
        start=setup.first,
        turn=None,
        advisor_deck=(),
        vehicle_deck=(),
        check_deck=(),
        removed_advisors=(),
        removed_vehicles=(),
        removed_checks=(),
        table=(),
        cash=(starting_cash(n),) * n,
        bids=(None,) * n,
        active=(False,) * n,
        advisors=empty,
        played=(None,) * n,
        boosted=(False,) * n,
        kept=empty,
        spent=(),
        vehicles=empty,
        offers=(None,) * n,
        lawyers=(None,) * n,
        revealed=False,
        mechanic=False,
        sold=(),
        checks=empty,
        rng=Rng(setup.seed),
    )


def _missing(deck: tuple[int, ...], present: list[int]) -> tuple[int, ...]:
    return tuple(sorted((Counter(deck) - Counter(present)).elements()))


def _flat(hands: tuple[tuple[int, ...], ...]) -> list[int]:
    return [card for hand in hands for card in hand]


def _from_scenario(state: GameState, s: Scenario) -> GameState:
    n = state.players
    advisors, kept, vehicles, checks = (
        s.advisors_of(n),
        s.kept_of(n),
        s.vehicles_of(n),
        s.checks_of(n),
    )
    return GameState(
        players=n,
        options=state.options,
        phase=s.phase,
        step=Step.OFFERING,
        round=s.round - 1,
        start=state.start,
        turn=None,
        advisor_deck=s.advisor_deck,
        vehicle_deck=s.vehicle_deck,
        check_deck=s.check_deck,
        removed_advisors=_missing(ADVISORS, [*s.advisor_deck, *_flat(advisors), *_flat(kept)]),
        removed_vehicles=_missing(VEHICLES, [*s.vehicle_deck, *_flat(vehicles)]),
        removed_checks=_missing(CHECKS, [*s.check_deck, *_flat(checks)]),
        table=(),
        cash=s.cash_of(n),
        bids=state.bids,
        active=state.active,
        advisors=advisors,
        played=state.played,
        boosted=state.boosted,
        kept=kept,
        spent=(),
        vehicles=vehicles,
        offers=state.offers,
        lawyers=state.lawyers,
        revealed=False,
        mechanic=False,
        sold=(),
        checks=checks,
        rng=state.rng,
    )


def start(setup: Setup) -> tuple[GameState, tuple[Event, ...]]:
    """F1-F3: the state before anything happened, and the opening events.

    A fresh game opens with the shuffle (and the F1 removals) and the first auction; a scenario
    opens with the first round of its phase.

    :raises InvalidSetup: the setup breaks F1-F3, or a scenario does not fit together.
    """
    validate(setup)
    n = len(setup.players)
    state = _blank(setup)
    first = setup.first
    if setup.scenario is not None:
        state = _from_scenario(state, setup.scenario)
        s = setup.scenario
        opening: Event
        if s.phase is Phase.HIRING:
            opening = AdvisorsRevealed(s.round, first, s.advisor_deck[:n])
        elif s.phase is Phase.BUYING:
            opening = VehiclesRevealed(s.round, first, s.vehicle_deck[:n])
        else:
            opening = ChecksRevealed(s.round, s.check_deck[:n])
        return state, (opening,)
    stream = state.rng.stream()
    k = removed_per_deck(n)
    decks = [stream.shuffled(deck) for deck in (ADVISORS, VEHICLES, CHECKS)]
    shuffle = DecksShuffled(
        decks[0][k:],
        decks[1][k:],
        decks[2][k:],
        tuple(sorted(decks[0][:k])),
        tuple(sorted(decks[1][:k])),
        tuple(sorted(decks[2][:k])),
    )
    return state, (shuffle, AdvisorsRevealed(1, first, decks[0][k : k + n]))


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``, by the rules of its phase (F4-F18).

    :raises IllegalCommand: the command breaks a rule; ``reason`` and ``rule`` say which.
    """
    return _decide(state, command).result()


def execute(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``command`` and its events in one pass: ``decide`` already folds them.

    :raises IllegalCommand: as :func:`decide`.
    """
    emitter = _decide(state, command)
    return emitter.state.freeze(), emitter.result()


def _decide(state: GameState, command: Command) -> Emitter:
    """Check what every command must meet (F1, F18), then the rules of the command's phase.

    The core has checked the command's form (its class and the exact types of its fields).
    """
    if state.phase is Phase.OVER:
        refuse(CoreReason.GAME_OVER, "the game is over", rule="F18", command=command)
    seat = command.seat
    if not 0 <= seat < state.players:
        refuse(CoreReason.NO_SUCH_SEAT, f"there is no seat {seat!r}", rule="F1", command=command)
    if isinstance(command, Bid):
        return decide_bid(state, command)
    if isinstance(command, Pass):
        return decide_pass(state, command)
    if isinstance(command, PlayAdvisor):
        return decide_play(state, command)
    if isinstance(command, Offer):
        return decide_offer(state, command)
    if isinstance(command, OfferWithLawyer):
        return decide_offer_with_lawyer(state, command)
    if isinstance(command, TakeBack):
        return decide_take_back(state, command)
    return decide_mechanic(state, command)


def legal_commands(state: GameState) -> tuple[Command, ...]:
    """Every command :func:`decide` accepts now, for any seat (F4, F9, F10, F14-F16).

    Nothing else is accepted.

    In an auction every amount from the lowest legal bid up to the bidder's cash is listed:
    a few dozen in a shuffled game, and never more than
    :data:`~avanti.autorama.setup.MAX_BID` + 1 bids, since a setup may hand out no more cash than
    the box holds (F2, :data:`~avanti.autorama.setup.MAX_CASH`).
    """
    if state.phase is Phase.HIRING:
        return legal_hiring(state)
    if state.phase is Phase.BUYING:
        return legal_buying(state)
    if state.phase is Phase.SELLING:
        return legal_selling(state)
    return ()


def waiting(state: GameState) -> tuple[int, ...]:
    """The seats that may act now: the one on turn in an auction (F4), when playing advisors
    (F9), taking back (F15) or choosing a Mechanic (F16); every seat still to make its offer
    while offers are made face down at once (F14); nobody once the game is over."""
    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.SELLING and state.step is Step.OFFERING:
        return tuple(s for s in range(state.players) if state.offers[s] is None)
    assert state.turn is not None
    return (state.turn,)


def outcome(state: GameState) -> Outcome | None:
    """F19, F20: the scores and winners once every vehicle is sold, else ``None``."""
    return score(state) if state.phase is Phase.OVER else None


def cause(event: Event) -> Command | None:
    """The command ``event`` is the first event of, or ``None`` for a follow-on event."""
    if isinstance(event, BidPlaced):
        return Bid(event.seat, event.amount)
    if isinstance(event, Passed):
        return Pass(event.seat)
    if isinstance(event, AdvisorPlayed):
        return PlayAdvisor(event.seat, event.advisor, event.boosted)
    if isinstance(event, VehiclesOffered) and event.vehicles is not None:
        return Offer(event.seat, event.vehicles)
    if isinstance(event, VehiclesOfferedWithLawyer) and event.vehicles is not None:
        return OfferWithLawyer(event.seat, event.vehicles, event.lawyer)
    if isinstance(event, VehicleTakenBack):
        return TakeBack(event.seat, event.vehicle)
    if isinstance(event, MechanicUsed):
        return UseMechanic(event.seat)
    if isinstance(event, MechanicDeclined):
        return DeclineMechanic(event.seat)
    return None
