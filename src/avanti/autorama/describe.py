"""One plain English line per event, for transcripts; amounts shown in dollars."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from avanti.autorama.cards import ADVISORS, CHECKS, VEHICLES, Kind, dollars, kind_of
from avanti.autorama.events import (
    AdvisorHired,
    AdvisorPlayed,
    AdvisorsRevealed,
    BidPlaced,
    BonusReceived,
    ChecksRevealed,
    ConsultantPaid,
    DecksShuffled,
    Event,
    GameEnded,
    LawyerDiscarded,
    MechanicDeclined,
    MechanicUsed,
    OffersRevealed,
    Passed,
    VehicleBought,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
    VehicleSold,
    VehiclesRevealed,
    VehicleTakenBack,
)
from avanti.autorama.scoring import Score, score_seat
from avanti.autorama.setup import PublicSetup, Scenario, Setup
from avanti.autorama.standings import parts, tie_break

__all__ = ["advisor_name", "box", "describe", "narrate"]


def advisor_name(advisor: int) -> str:
    """An advisor by kind and number (F4-F19): ``advisor_name(15) == "Fleet Manager 15"``."""
    return f"{kind_of(advisor).value} {advisor}"


def box() -> dict[str, tuple[tuple[int, str], ...]]:
    """The cards in the box by kind (F1), each with its words, in deck order: ``"advisor"``,
    ``"vehicle"`` and ``"check"`` map to ``(card, words)`` pairs.

    >>> from avanti.autorama import box
    >>> box()["advisor"][14]
    (15, 'Fleet Manager 15')
    >>> box()["check"][-1]
    (15, 'a check of $15,000')
    """
    return {
        "advisor": tuple((card, advisor_name(card)) for card in ADVISORS),
        "vehicle": tuple((card, f"vehicle {card}") for card in VEHICLES),
        "check": tuple((card, f"a check of {dollars(card)}") for card in CHECKS),
    }


def _list(cards: tuple[int, ...]) -> str:
    return ", ".join(str(c) for c in cards)


def _checks(checks: tuple[int, ...]) -> str:
    return ", ".join(dollars(c) for c in checks)


def describe(event: Event, setup: Setup | PublicSetup, *, seat: int | None = None) -> str:
    """One line saying what ``event`` was (F1-F20), naming players as in ``setup`` (the full
    setup or the :class:`~avanti.autorama.PublicSetup` a seat has), money in dollars.

    ``seat``: the seat the line is for; it reads itself as "you". Works on redacted events too
    (hidden facts read as "face down").

    >>> from avanti.autorama import BidPlaced, Setup, describe
    >>> setup = Setup(("Ann", "Bob", "Cy"))
    >>> describe(BidPlaced(1, 3), setup), describe(BidPlaced(1, 3), setup, seat=1)
    ('Bob bid $3,000.', 'You bid $3,000.')
    """
    names = tuple("you" if i == seat else name for i, name in enumerate(setup.players))
    return _spoken(_LINES[type(event)](event, names))


def _spoken(line: str) -> str:
    """A line as it reads to the seat it names "you": "You bid", not "you bids"."""
    if line.startswith("you "):
        line = "Y" + line[1:]
    for third, second in _SECOND_PERSON:
        line = line.replace(third, second)
    return line


_SECOND_PERSON = (
    ("you kept their", "you kept your"),
    ("You kept their", "You kept your"),
    ("; you bids first.", "; you bid first."),
    ("; you plays first.", "; you play first."),
    (" you wins", " you win"),
    (". you ", ". You "),
)
"""The words of a line that change when it speaks to its own seat, as they read then."""


def narrate(
    events: Sequence[Event],
    setup: Setup | PublicSetup,
    *,
    seat: int | None = None,
    after: int = 0,
) -> tuple[str, ...]:
    """One line per event of ``events[after:]``, as :func:`describe` says it for ``seat``,
    but for the end (:class:`~avanti.autorama.GameEnded`): told after the sales and advisors
    before it, it names what each total is made of, every Controller, Restoration Specialist
    and Financial Advisor on its own (F19), so the line adds up."""
    lines = []
    for index in range(after, len(events)):
        event = events[index]
        line = describe(event, setup, seat=seat)
        if isinstance(event, GameEnded):
            line = _ended_in_full(event, events[:index], setup, seat) or line
        lines.append(line)
    return tuple(lines)


def _ended_in_full(
    e: GameEnded, before: Sequence[Event], setup: Setup | PublicSetup, seat: int | None
) -> str | None:
    """The end with each total in its parts (F19), found again from the checks sold and the
    advisors played face up before it (F9, F12, F17) and the cash the end shows; ``None``
    when they do not give the totals the end records (a position set up with checks nobody
    saw sold)."""
    players = len(e.totals)
    if len(e.cash) != players or len(setup.players) != players:
        return None
    checks: list[list[int]] = [[] for _ in range(players)]
    kept: list[list[int]] = [[] for _ in range(players)]
    scenario = setup.scenario
    if scenario is not None:
        if any(scenario.checks if isinstance(scenario, Scenario) else scenario.check_counts):
            return None
        for number, cards in enumerate(scenario.kept[:players]):
            kept[number].extend(cards)
    for event in before:
        if isinstance(event, VehicleSold):
            checks[event.seat].append(event.check)
        elif isinstance(event, AdvisorPlayed) and kind_of(event.advisor) in _SCORED:
            kept[event.seat].append(event.advisor)
    scores = [
        score_seat(number, tuple(checks[number]), tuple(kept[number]), e.cash[number])
        for number in range(players)
    ]
    if tuple(score.total for score in scores) != e.totals:
        return None
    names = tuple("you" if i == seat else name for i, name in enumerate(setup.players))
    totals = ", ".join(
        f"{names[score.seat]} {dollars(score.total)} ({_in_parts(score)})" for score in scores
    )
    return _spoken(_ended_line(e, names, totals))


_SCORED = frozenset({Kind.CONTROLLER, Kind.RESTORATION_SPECIALIST, Kind.FINANCIAL_ADVISOR})
"""The advisors that stay for scoring once played (F12)."""


def _in_parts(score: Score) -> str:
    """The parts of a total (F19), the checks first; a part that adds nothing is left out."""
    checks, *rest = parts(score)
    said = [f"{part.shown} {part.words}" for part in rest if part.amount]
    return " + ".join([f"{checks.shown} in checks", *said])


def _shuffled(e: DecksShuffled, names: tuple[str, ...]) -> str:
    if e.advisors is None or e.removed_advisors is None:
        return "The decks were shuffled and cards removed face down."
    removed = len(e.removed_advisors)
    return f"The decks were shuffled; {removed} cards of each were removed face down."


def _advisors(e: AdvisorsRevealed, names: tuple[str, ...]) -> str:
    cards = ", ".join(advisor_name(a) for a in sorted(e.advisors))
    return f"Phase 1, round {e.round}: advisors {cards} are up; {names[e.start]} bids first."


def _bid(e: BidPlaced, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} bid {dollars(e.amount)}."


def _passed(e: Passed, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} passed."


def _hired(e: AdvisorHired, names: tuple[str, ...]) -> str:
    """What taking an advisor cost in all (F5, F6): a bid half returned reads as the half paid."""
    money = f"paid {dollars(e.paid)}"
    if e.bid != e.paid:
        money += f" in all ({dollars(e.bid - e.paid)} of the {dollars(e.bid)} bid came back)"
    return f"{names[e.seat]} took {advisor_name(e.advisor)} and {money}."


def _consultant(e: ConsultantPaid, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} received {dollars(e.amount)} from {names[e.payer]} (Consultant)."


def _vehicles(e: VehiclesRevealed, names: tuple[str, ...]) -> str:
    cards = _list(tuple(sorted(e.vehicles)))
    return f"Phase 2, round {e.round}: vehicles {cards} are up; {names[e.start]} plays first."


def _played(e: AdvisorPlayed, names: tuple[str, ...]) -> str:
    boost = f", paying {dollars(3)} to count as {e.advisor + 18}" if e.boosted else ""
    return f"{names[e.seat]} played {advisor_name(e.advisor)}{boost}."


def _bought(e: VehicleBought, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} bought vehicle {e.vehicle} with {advisor_name(e.advisor)}."


def _bonus(e: BonusReceived, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} received {dollars(e.amount)} ({advisor_name(e.advisor)})."


def _checks_up(e: ChecksRevealed, names: tuple[str, ...]) -> str:
    return f"Phase 3, round {e.round}: checks {_checks(tuple(sorted(e.checks)))} are up."


def _offered(e: VehiclesOffered, names: tuple[str, ...]) -> str:
    lawyer = f" with {advisor_name(e.lawyer)}" if e.lawyer is not None else ""
    count = "two vehicles" if e.lawyer is not None else "a vehicle"
    shown = f" ({_list(e.vehicles)})" if e.vehicles is not None else " face down"
    return f"{names[e.seat]} offered {count}{lawyer}{shown}."


def _offered_with(e: VehiclesOfferedWithLawyer, names: tuple[str, ...]) -> str:
    shown = f" ({_list(e.vehicles)})" if e.vehicles is not None else " face down"
    lawyer = advisor_name(e.lawyer)
    return f"{names[e.seat]} chose {lawyer} and offered two vehicles with it{shown}."


def _revealed(e: OffersRevealed, names: tuple[str, ...]) -> str:
    parts = "; ".join(f"{names[s]} {_list(o)}" for s, o in enumerate(e.offers))
    return f"Offers revealed: {parts}."


def _taken_back(e: VehicleTakenBack, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} took vehicle {e.vehicle} back (Lawyer)."


def _lawyer(e: LawyerDiscarded, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} discarded {advisor_name(e.lawyer)}."


def _mechanic(e: MechanicUsed, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} discarded {advisor_name(e.mechanic)} for the second-lowest check."


def _declined(e: MechanicDeclined, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} kept their Mechanics."


def _sold(e: VehicleSold, names: tuple[str, ...]) -> str:
    return f"{names[e.seat]} sold vehicle {e.vehicle} for a {dollars(e.check)} check."


def _ended(e: GameEnded, names: tuple[str, ...]) -> str:
    """The totals, each with its checks, cash and bonus where the event records them (F19),
    and the rule that broke a tie (F20)."""
    totals = ", ".join(
        f"{names[s]} {dollars(t)}{_breakdown(e, s, t)}" for s, t in enumerate(e.totals)
    )
    return _ended_line(e, names, totals)


def _ended_line(e: GameEnded, names: tuple[str, ...], totals: str) -> str:
    winners = " and ".join(names[s] for s in e.winners)
    verb = "wins" if len(e.winners) == 1 else "share the victory"
    decided = tie_break(names, e.totals, e.cash, e.winners)
    if decided:
        return f"Game over: {totals}. {decided}."
    return f"Game over: {totals}. {winners} {verb}."


def _breakdown(e: GameEnded, seat: int, total: int) -> str:
    if len(e.checks) != len(e.totals) or len(e.cash) != len(e.totals):
        return ""  # a document written before the breakdown was recorded
    checks, cash = e.checks[seat], e.cash[seat]
    bonus = total - checks - cash
    extra = f" + {dollars(bonus)} bonus" if bonus else ""
    return f" ({dollars(checks)} in checks + {dollars(cash)} cash{extra})"


_LINES: dict[type, Callable[[Any, tuple[str, ...]], str]] = {
    DecksShuffled: _shuffled,
    AdvisorsRevealed: _advisors,
    BidPlaced: _bid,
    Passed: _passed,
    AdvisorHired: _hired,
    ConsultantPaid: _consultant,
    VehiclesRevealed: _vehicles,
    AdvisorPlayed: _played,
    VehicleBought: _bought,
    BonusReceived: _bonus,
    ChecksRevealed: _checks_up,
    VehiclesOffered: _offered,
    VehiclesOfferedWithLawyer: _offered_with,
    OffersRevealed: _revealed,
    VehicleTakenBack: _taken_back,
    LawyerDiscarded: _lawyer,
    MechanicUsed: _mechanic,
    MechanicDeclined: _declined,
    VehicleSold: _sold,
    GameEnded: _ended,
}
