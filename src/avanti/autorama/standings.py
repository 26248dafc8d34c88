"""Every total of a finished game explained (F19, F20): :func:`standings`.

A player's money is their checks as sold (F17), what each Controller and Restoration Specialist
added to one of them, their cash, and one cash more per Financial Advisor (F19). The parts
name each adviser and the check it went on, so the line adds up to the total as the table
shows it; when the best totals are equal, the rule that decided between them is named (F20:
most cash, else a shared victory).
"""

from __future__ import annotations

from collections.abc import Sequence

from avanti.autorama.cards import Kind, dollars, kind_of
from avanti.autorama.scoring import Assignment, Outcome, Score
from avanti.autorama.setup import PublicSetup, Setup
from avanti.core.presentation import Part, Standing, Standings, places

__all__ = ["parts", "standings", "tie_break"]


def _adviser(advisor: int) -> str:
    return f"{kind_of(advisor).value} {advisor}"


def _assigned(assignment: Assignment) -> Part:
    name, check = _adviser(assignment.advisor), dollars(assignment.check)
    gain = assignment.worth - assignment.check
    if kind_of(assignment.advisor) is Kind.CONTROLLER:
        words = f"{name} raising a {check} check to {dollars(assignment.worth)}"
    else:
        words = f"{name} doubling a {check} check"
    return Part(words=words, amount=gain, shown=dollars(gain), rule="F19")


def parts(score: Score) -> tuple[Part, ...]:
    """The parts of one seat's money (F19), adding up to ``score.total``: its checks as sold,
    each Controller's and Restoration Specialist's gain on the check it went on, its cash,
    and each Financial Advisor's bonus."""
    sold = sum(score.checks)
    listed = ", ".join(dollars(check) for check in sorted(score.checks)) or "none"
    found = [Part(words=f"checks ({listed})", amount=sold, shown=dollars(sold), rule="F17")]
    found.extend(_assigned(assignment) for assignment in score.assignments)
    found.append(Part(words="cash", amount=score.cash, shown=dollars(score.cash), rule="F19"))
    bonus = score.bonus
    if bonus == len(score.financial) * score.cash:
        for advisor in score.financial:
            words = f"{_adviser(advisor)} paying the cash once more"
            found.append(
                Part(words=words, amount=score.cash, shown=dollars(score.cash), rule="F19")
            )
    elif bonus:  # a score made without naming its Financial Advisors
        found.append(
            Part(words="Financial Advisors", amount=bonus, shown=dollars(bonus), rule="F19")
        )
    return tuple(found)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def tie_break(
    names: Sequence[str],
    totals: Sequence[int],
    cash: Sequence[int],
    winners: Sequence[int],
) -> str:
    """How the winners were found among equal best totals, in words with the rule (F20), or
    ``""`` when one total was the best alone. ``cash`` may be empty (a document written before
    the cash was recorded): the rule is then named without the amounts."""
    if not totals:
        return ""
    best = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    if len(tied) < 2:
        return ""
    both = "both" if len(tied) == 2 else "all"
    head = f"{_and([names[seat] for seat in tied])} {both} have {dollars(best)}"
    if len(winners) == len(tied):
        same = (
            f" and {dollars(cash[tied[0]])} cash"
            if len(cash) == len(totals)
            else " and as much cash"
        )
        return f"{head}{same}: they share the victory (F20)"
    who = _and([names[seat] for seat in winners])
    most = f" ({dollars(cash[winners[0]])})" if len(cash) == len(totals) else ""
    if len(winners) == 1:
        return f"{head}: {who} wins with the most cash{most} (F20)"
    return f"{head}: {who} have the most cash{most} and share the victory (F20)"


def standings(outcome: Outcome, setup: Setup | PublicSetup) -> Standings:
    """Every seat's money broken down into its :func:`parts` (F19), best first, and the tie
    broken by cash where the best totals are equal (F20).

    >>> from avanti.autorama import Setup
    >>> from avanti.autorama.scoring import Outcome, score_seat
    >>> from avanti.autorama.standings import standings
    >>> ann = score_seat(0, (0, 9), (10, 22), 2)  # a Controller and a Restoration Specialist
    >>> bob = score_seat(1, (15, 12), (), 3)
    >>> table = standings(Outcome((ann, bob), (1,), (0.0, 1.0)), Setup(("Ann", "Bob", "Cy")))
    >>> for part in table.seat(0).parts:
    ...     print(part.shown, part.words, part.rule)
    $9,000 checks ($0, $9,000) F17
    $10,000 Controller 10 raising a $0 check to $10,000 F19
    $9,000 Restoration Specialist 22 doubling a $9,000 check F19
    $2,000 cash F19
    >>> table.decided
    'Ann and Bob both have $30,000: Bob wins with the most cash ($3,000) (F20)'
    """
    scores = outcome.scores
    names = setup.players
    ranks = places([(score.total, score.cash) for score in scores])
    seats = tuple(
        Standing(
            seat=score.seat,
            name=names[score.seat],
            total=score.total,
            shown=dollars(score.total),
            place=ranks[index],
            won=score.seat in outcome.winners,
            parts=parts(score),
        )
        for index, score in enumerate(scores)
    )
    decided = tie_break(
        names,
        [score.total for score in scores],
        [score.cash for score in scores],
        outcome.winners,
    )
    return Standings(
        seats=tuple(sorted(seats, key=lambda s: (s.place, s.seat))),
        total="money",
        decided=decided,
        rule="F20" if decided else "",
    )
