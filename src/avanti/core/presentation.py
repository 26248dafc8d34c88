"""What a game shows of itself beside its rules, declared once: a :class:`Presentation`.

A :class:`~avanti.core.ruleset.Ruleset` says what a game *is*; a presentation says how it is
*shown*: its picture, its events and commands in words, the commands that ask before they are
sent and what they ask, how a finished game's totals add up (:class:`Standings`), its cards, its
encoding for learning programs and its form in the rules lab. As OpenSpiel's ``GameType``
declares what a game provides, each game declares one record, ``PRESENTATION`` in its
package's ``presentation`` module, and its catalog entry reaches it
(:meth:`avanti.catalog.GameInfo.load_presentation`). Tools read the record; they never probe a
game's module for a function or ask a function which parameters it takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen

from avanti.core.codec import JSONValue
from avanti.core.labform import LabForm

__all__ = ["Money", "Part", "Presentation", "Standing", "Standings", "asks_nothing"]


@frozen(kw_only=True)
class Money:
    """How a game writes an amount of its money: ``prefix`` before it, counted in units of
    ``scale``. Avanti counts plain units (``Money()`` writes 12 as ``"12"``); For Sale:
    Autorama counts thousands of dollars (F2: ``Money(prefix="$", scale=1000)`` writes 3 as
    ``"$3,000"``).

    >>> from avanti.core.presentation import Money
    >>> Money(prefix="$", scale=1000).show(-3)
    '-$3,000'
    """

    prefix: str = ""
    scale: int = 1

    def show(self, amount: int) -> str:
        """``amount`` as a person reads it: its sign, the prefix, the scaled digits grouped."""
        sign = "-" if amount < 0 else ""
        return f"{sign}{self.prefix}{abs(amount) * self.scale:,}"

    def to_data(self) -> dict[str, JSONValue]:
        """The unit as a front end reads it (the catalog's ``money``)."""
        return {"prefix": self.prefix, "scale": self.scale}


@frozen(kw_only=True)
class Part:
    """One line of a seat's total: what it is (``words``, in the rulebook's terms), what it
    adds (``amount``, in the game's own units: Autorama counts thousands of dollars), that
    amount as the table shows it (``shown``: ``"+$9,000"``) and the ``rule`` it follows."""

    words: str
    amount: int
    shown: str
    rule: str = ""

    def to_data(self) -> dict[str, JSONValue]:
        """The line as a front end reads it."""
        return {"words": self.words, "amount": self.amount, "shown": self.shown, "rule": self.rule}


@frozen(kw_only=True)
class Standing:
    """One seat at the end: its ``total`` (and as shown), its ``place`` (1 for the best; seats
    the rules cannot tell apart share a place), whether it ``won``, and the ``parts`` its total
    is made of, which add up to it exactly (``sum(part.amount for part in parts) == total``)."""

    seat: int
    name: str
    total: int
    shown: str
    place: int
    won: bool
    parts: tuple[Part, ...]

    def to_data(self) -> dict[str, JSONValue]:
        """The seat's standing as a front end reads it."""
        return {
            "seat": self.seat,
            "name": self.name,
            "total": self.total,
            "shown": self.shown,
            "place": self.place,
            "won": self.won,
            "parts": [part.to_data() for part in self.parts],
        }


@frozen(kw_only=True)
class Standings:
    """How a finished game came out, every total explained: each seat's :class:`Standing`, in
    the order of their places (best first, then by seat), and, when the best totals were equal,
    the rule that ``decided`` between them in words (``"Ann and Bob both have $74,000: Ann wins
    with more cash (F20)"``) with its ``rule`` id; ``""`` when no tie had to be broken.
    ``total`` names what a total counts (``"money"``, ``"island space"``, ``"fish"``)."""

    seats: tuple[Standing, ...]
    total: str
    decided: str = ""
    rule: str = ""

    def seat(self, seat: int) -> Standing:
        """The standing of ``seat``.

        :raises KeyError: no standing has that seat.
        """
        for standing in self.seats:
            if standing.seat == seat:
                return standing
        raise KeyError(seat)

    def to_data(self) -> dict[str, JSONValue]:
        """The standings as the server sends them (the table's ``standings``)."""
        return {
            "total": self.total,
            "seats": [standing.to_data() for standing in self.seats],
            "decided": self.decided,
            "rule": self.rule,
        }


def places(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each seat's place from its sort key (higher is better): 1 for the best, equal keys share
    a place, and the next key's place counts the seats ahead of it (1, 1, 3)."""
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def asks_nothing(setup: Any, command: Any) -> str:
    """No command asks for a confirmation: every one is sent at once."""
    return ""


@frozen(kw_only=True)
class Presentation:
    """How one game is shown, stated once (see the module's docstring).

    Each function works from what a seat may know (a view, the public setup, the events it was
    sent, the outcome), so whatever it says holds nothing hidden from the seat it is for.
    """

    picture: Callable[..., str]
    """``picture(view, *, table, last=(), layout="wide", size=None, ...)``: the table as the
    view's seat sees it, as SVG text (``table``: the public setup; ``last``: the events to
    outline)."""
    describe: Callable[..., str]
    """``describe(event, setup, *, seat=None)``: one event in words, for ``seat`` (its own deeds
    in the second person) or anybody. A line may depend on earlier events: :attr:`narrate`
    tells a stream."""
    narrate: Callable[..., tuple[str, ...]]
    """``narrate(events, setup, *, seat=None, after=0)``: one line per event of
    ``events[after:]``, the events before ``after`` read for what the lines depend on (with
    ``marker=`` too when :attr:`marker` is set)."""
    explain: Callable[[Any, Any, Any], str]
    """``explain(setup, command, view)``: what one of a seat's legal commands does and costs, in
    words, for a menu beside its notation."""
    standings: Callable[[Any, Any], Standings]
    """``standings(outcome, setup)``: a finished game's :class:`Standings`, each total broken
    down into its parts with their rules, and the rule that broke a tie."""
    confirm: Callable[[Any, Any], str] = asks_nothing
    """``confirm(setup, command)``: the question to ask before sending ``command`` (a command
    that cannot be taken back, or is easily chosen by mistake), or ``""`` to send it at once.
    The server sends it beside each legal command's words (the table's ``confirm``)."""
    marker: Callable[[Any], int | None] | None = None
    """For a game whose lines name places counted from a marker (Avanti's road spaces, A4):
    the marker's space in a view, which :attr:`narrate` is told as ``marker=`` when it starts
    telling from a position of its own; ``None`` for a game whose lines need no marker."""
    box: Callable[[], dict[str, tuple[tuple[int, str], ...]]] | None = None
    """``box()``: the game's cards by kind, each with its words (for a tool that lists them),
    or ``None`` for a game whose positions are set on a board."""
    encoding: Callable[[Any], Any] | None = None
    """``encoding(public_setup)``: the game's :class:`~avanti.core.encoding.Encoding` for
    learning programs, or ``None`` for a game without one."""
    money: Money = Money()
    """How the game writes an amount of its money (the browser's travelling cash, its
    standings)."""
    lab: LabForm | None = None
    """What the rules lab offers to set up a case of the game as a form, or ``None`` for a game
    the lab takes only as JSON."""

    def tell(
        self,
        events: Sequence[object],
        setup: object,
        *,
        seat: int | None = None,
        after: int = 0,
        marker: int | None = None,
    ) -> tuple[str, ...]:
        """:attr:`narrate` called with ``marker`` where the game reads one (:attr:`marker`)."""
        if self.marker is None:
            return self.narrate(events, setup, seat=seat, after=after)
        return self.narrate(events, setup, seat=seat, after=after, marker=marker)
