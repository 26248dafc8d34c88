"""The ruleset: start, decide, legal commands, outcome and cause, bundled for the core."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from avanti.autorama.buying import decide_play, legal_buying
from avanti.autorama.cards import ADVISORS, CHECKS, VEHICLES
from avanti.autorama.commands import (
    COMMANDS,
    Bid,
    Command,
    DeclineMechanic,
    Offer,
    Pass,
    PlayAdvisor,
    TakeBack,
    UseMechanic,
)
from avanti.autorama.events import (
    EVENTS,
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
    VehiclesRevealed,
    VehicleTakenBack,
)
from avanti.autorama.evolve import evolve, fold
from avanti.autorama.flow import Emitter
from avanti.autorama.hiring import decide_bid, decide_pass, legal_hiring
from avanti.autorama.notation import notations
from avanti.autorama.scoring import Outcome, score
from avanti.autorama.selling import (
    decide_mechanic,
    decide_offer,
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
from avanti.autorama.views import View, redact, view
from avanti.core import Codec, CoreReason, IllegalCommand, Rng

__all__ = [
    "CODEC",
    "RULES",
    "AutoramaRules",
    "cause",
    "decide",
    "legal_commands",
    "outcome",
    "start",
]

CODEC: Codec[Setup, Command, Event] = Codec(
    format="autorama",
    formats=("avanti.autorama",),
    version=1,
    setup_type=Setup,
    commands=COMMANDS,
    events=EVENTS,
)
"""JSON for this game's setups, commands, events, views and outcomes (format version 1)."""


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


_RULE_OF: dict[type, str] = {
    Bid: "F4",
    Pass: "F5",
    PlayAdvisor: "F9",
    Offer: "F14",
    TakeBack: "F15",
    UseMechanic: "F16",
    DeclineMechanic: "F16",
}


def _well_typed(command: Command) -> bool:
    """Whether the fields of ``command`` have their exact types (``True`` is no card number).

    Events copy these fields, so a float or a boolean let through would be written into the log
    and the game could no longer be read back from its JSON.
    """
    if isinstance(command, Bid):
        return type(command.amount) is int
    if isinstance(command, PlayAdvisor):
        return type(command.advisor) is int and type(command.boost) is bool
    if isinstance(command, Offer):
        vehicles: object = command.vehicles
        return type(vehicles) is tuple and all(type(v) is int for v in vehicles)
    if isinstance(command, TakeBack):
        return type(command.vehicle) is int
    return True


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``, by the rules of its phase (F4-F18).

    :raises IllegalCommand: the command breaks a rule; ``reason`` and ``rule`` say which.
    """
    return _decide(state, command).result()


def decide_and_evolve(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``command`` and its events in one pass: ``decide`` already folds them.

    :raises IllegalCommand: as :func:`decide`.
    """
    emitter = _decide(state, command)
    return emitter.state.freeze(), emitter.result()


def _decide(state: GameState, command: Command) -> Emitter:
    if state.phase is Phase.OVER:
        raise IllegalCommand(CoreReason.GAME_OVER, "the game is over", rule="F18", command=command)
    rule = _RULE_OF.get(type(command))
    if rule is None:
        raise IllegalCommand(
            CoreReason.UNKNOWN_COMMAND,
            f"{command!r} is not a command of this game",
            rule="F1",
            command=command,
        )
    seat = command.seat
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalCommand(
            CoreReason.NO_SUCH_SEAT, f"there is no seat {seat!r}", rule="F1", command=command
        )
    if not _well_typed(command):
        raise IllegalCommand(
            CoreReason.UNKNOWN_COMMAND,
            f"{command!r}: card numbers and amounts are whole numbers, boost is True or False, "
            "and an offer is a tuple of vehicles",
            rule="F1",
            command=command,
        )
    if isinstance(command, Bid):
        return decide_bid(state, command)
    if isinstance(command, Pass):
        return decide_pass(state, command)
    if isinstance(command, PlayAdvisor):
        return decide_play(state, command)
    if isinstance(command, Offer):
        return decide_offer(state, command)
    if isinstance(command, TakeBack):
        return decide_take_back(state, command)
    return decide_mechanic(state, command)


def legal_commands(state: GameState) -> tuple[Command, ...]:
    """Every command :func:`decide` accepts now, for any seat (F4, F9, F10, F14-F16).

    Nothing else is accepted.

    In an auction every amount from the lowest legal bid up to the bidder's cash is listed
    (at most a few dozen).
    """
    if state.phase is Phase.HIRING:
        return legal_hiring(state)
    if state.phase is Phase.BUYING:
        return legal_buying(state)
    if state.phase is Phase.SELLING:
        return legal_selling(state)
    return ()


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
    if isinstance(event, VehicleTakenBack):
        return TakeBack(event.seat, event.vehicle)
    if isinstance(event, MechanicUsed):
        return UseMechanic(event.seat)
    if isinstance(event, MechanicDeclined):
        return DeclineMechanic(event.seat)
    return None


class AutoramaRules:
    """For Sale: Autorama (F1-F20) as a :class:`avanti.core.Ruleset`."""

    codec = CODEC

    def start(self, setup: Setup) -> tuple[GameState, tuple[Event, ...]]:
        """See :func:`avanti.autorama.rules.start`."""
        return start(setup)

    def decide(self, state: GameState, command: Command) -> tuple[Event, ...]:
        """See :func:`avanti.autorama.decide`."""
        return decide(state, command)

    def evolve(self, state: GameState, event: Event) -> GameState:
        """See :func:`avanti.autorama.evolve`."""
        return evolve(state, event)

    def execute(self, state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
        """``decide`` and ``evolve`` in one pass: the state after ``command`` and its events."""
        return decide_and_evolve(state, command)

    def fold(self, state: GameState, events: Iterable[Event]) -> GameState:
        """The state after every event in turn, one frozen state at the end."""
        return fold(state, events)

    def legal_commands(self, state: GameState) -> tuple[Command, ...]:
        """See :func:`avanti.autorama.legal_commands`."""
        return legal_commands(state)

    def view(self, state: GameState, seat: int | None) -> View:
        """See :func:`avanti.autorama.view`."""
        return view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """See :func:`avanti.autorama.redact`."""
        return redact(event, seat)

    def outcome(self, state: GameState) -> Outcome | None:
        """See :func:`avanti.autorama.outcome`."""
        return outcome(state)

    notations = staticmethod(notations)

    def cause(self, event: Event) -> Command | None:
        """See :func:`avanti.autorama.rules.cause`."""
        return cause(event)


RULES = AutoramaRules()
"""The ruleset object the core runs."""
