"""The table of For Sale: Autorama as an SVG picture, drawn from a view (F1-F20).

:func:`picture` draws what one seat sees (or a spectator): the phase and round, the cards on
offer (advisors in phase 1, vehicles in phase 2, checks in phase 3), each seat's bid or pass,
played advisor or offer, the advisors it keeps face up, and how many cards it holds (face down).
The viewing seat also sees its own hand, checks and cash; nobody else's cash or cards are in the
picture at all (F2, F8, F14), not even in its text, since a picture is a function of the view.

>>> from avanti import autorama
>>> game = autorama.new_game(["Ann", "Bob", "Cy"], seed=7)
>>> svg = autorama.picture(game.view(0), table=game.public_setup)
>>> svg.startswith("<svg") and "Your cash: $28,000" in svg
True
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence

from avanti.autorama.cards import Kind, boosted_value, dollars, kind_of
from avanti.autorama.describe import describe
from avanti.autorama.events import (
    AdvisorHired,
    AdvisorPlayed,
    BidPlaced,
    BonusReceived,
    ConsultantPaid,
    Event,
    GameEnded,
    LawyerDiscarded,
    MechanicDeclined,
    MechanicUsed,
    Passed,
    VehicleBought,
    VehiclesOffered,
    VehiclesOfferedWithLawyer,
    VehicleSold,
    VehicleTakenBack,
)
from avanti.autorama.setup import Phase, PublicSetup, Setup
from avanti.autorama.state import Step
from avanti.autorama.views import View, redact
from avanti.core.svg import SEAT_COLORS, Svg, document, element, text

__all__ = ["NARROW_WIDTH", "picture"]

WIDTH = 720
"""The picture's width in user units; ``size`` scales it."""

_PHASES = {
    Phase.HIRING: "Phase 1, round {round}: hiring advisors",
    Phase.BUYING: "Phase 2, round {round}: buying vehicles",
    Phase.SELLING: "Phase 3, round {round}: selling vehicles",
}
"""The phase line, as the terminal drawing words it (F4, F9, F14)."""

_STEPS = {
    Step.OFFERING: "offering vehicles face down",
    Step.TAKING_BACK: "Lawyers take vehicles back",
    Step.MECHANIC: "a Mechanic may be used",
    Step.SETTLING: "checks go out",
}
"""What a round of phase 3 waits for (F14-F17)."""

_ON_TABLE = {Phase.HIRING: "advisors", Phase.BUYING: "vehicles", Phase.SELLING: "checks"}

_SHORT = {
    Kind.SALES_ASSOCIATE: "Sales Assoc.",
    Kind.CONSULTANT: "Consultant",
    Kind.MECHANIC: "Mechanic",
    Kind.CONTROLLER: "Controller",
    Kind.FLEET_MANAGER: "Fleet Mgr",
    Kind.SALES_DIRECTOR: "Sales Dir.",
    Kind.LAWYER: "Lawyer",
    Kind.RESTORATION_SPECIALIST: "Restorer",
    Kind.FINANCIAL_ADVISOR: "Fin. Advisor",
    Kind.GENERAL_MANAGER: "Gen. Mgr",
}
"""An advisor's kind, short enough to fit under its number on a card (F5-F19)."""

_INK = "#1f2933"
_MUTED = "#5f6b76"
_PAPER = "#fbfaf7"
_LINE = "#c9ced3"
_ADVISOR = "#f4ecd8"
_VEHICLE = "#dde8f3"
_CHECK = "#dcefdc"
_BACK = "#6b7a8a"

_CARD_W, _CARD_H = 52, 64
"""A card on the table or in the viewing seat's hand."""
_SMALL_W, _SMALL_H = 30, 40
"""A card in a seat's row: played, offered or kept face up."""
_ROW_H = 58
_NAME_CHARS = 18
NARROW_WIDTH = 360
"""The narrow picture's width in user units (``layout="narrow"``): drawn 364 pixels wide on a
390-pixel phone, its smallest text (11 units) is 11 pixels high."""
_NARROW_ROW_H = 100
_NARROW_CARDS = 5
"""Cards on one line of the viewing seat's hand in the narrow picture."""


def picture(
    view: View,
    *,
    size: float | None = None,
    colors: Sequence[str] = SEAT_COLORS,
    labels: bool = True,
    last: Sequence[Event] = (),
    table: PublicSetup | None = None,
    layout: str = "wide",
) -> Svg:
    """The table of For Sale: Autorama as ``view``'s seat sees it, as SVG text (F1-F20).

    - ``size``: the width in pixels (default 720, the picture's own units).
    - ``colors``: a colour per seat (seat ``n`` takes ``colors[n % len(colors)]``).
    - ``labels``: write the captions (section names, the kinds of cards, the seat markers);
      card values, names and money are always written.
    - ``last``: the events of the last command as the seat saw them (the tail of
      ``game.events_for(seat)``); the seats they concern are outlined and the events written
      out. Each is redacted for ``view.seat`` again, so a face-down offer stays face down
      even if the full log's events are passed.
    - ``table``: the game's public setup (:attr:`Game.public_setup
      <avanti.autorama.game.Game.public_setup>`), for the players' names; without it seats are
      called "Seat 0", "Seat 1", ...
    - ``layout``: ``"wide"`` (720 units) or ``"narrow"`` (:data:`NARROW_WIDTH`, 360 units, for a
      phone): the same cards and ``data-*`` attributes, the deck counts under the phase line, each
      seat's row in two lines (name, marks and piles; this round's card or bid and the advisors
      kept), the hand's cards five to a line, the words wrapped; no text under 11 units, so the
      captions under the cards' numbers are left out (each card's tooltip names it).

    Others' cash, hands and checks won are drawn face down (how many cards only), as the view
    holds them (F2, F8); an offer is face down until all are in (F14). The ``<title>`` and
    ``<desc>`` say the same in words.

    :raises ValueError: ``colors`` is empty, ``layout`` is neither ``"wide"`` nor ``"narrow"``,
        or ``table`` names another number of players.
    """
    if not colors:
        raise ValueError("colors must name at least one colour")
    if layout not in ("wide", "narrow"):
        raise ValueError(f'layout must be "wide" or "narrow", not {layout!r}')
    names = table.players if table is not None else tuple(f"Seat {s}" for s in range(view.players))
    if len(names) != view.players:
        raise ValueError(f"the table names {len(names)} players, the view has {view.players}")
    seen = tuple(e for e in (redact(event, view.seat) for event in last) if e is not None)
    own = view.seat if view.seat is not None and 0 <= view.seat < view.players else None
    ended = next((e for e in reversed(seen) if isinstance(e, GameEnded)), None)
    draw = _Drawing(view, names, colors, labels, own, ended, narrow=layout == "narrow")
    width = draw.width
    body: list[ET.Element] = []
    y = draw.header(body)
    y = draw.on_table(body, y)
    y = draw.seats(body, y, _concerned(seen))
    if own is not None:
        y = draw.hand(body, y)
    if seen:
        y = draw.last(body, y, seen)
    background = element(
        "rect", {"width": width, "height": y, "fill": _PAPER, "stroke": _LINE, "rx": 8}
    )
    who = names[own] if own is not None else "a spectator"
    return document(
        width,
        y,
        [background, *body],
        title=f"For Sale: Autorama, {_phase_line(view)}, as {who} sees it",
        description=_description(view, names, own, seen),
        size=size,
    )


_Draw = Callable[..., ET.Element]
"""Draws one card face up at ``(x, y)``."""


class _Drawing:
    """The parts of one picture, each drawn below the last (``y`` is where the next starts)."""

    def __init__(
        self,
        view: View,
        names: tuple[str, ...],
        colors: Sequence[str],
        labels: bool,
        own: int | None,
        ended: GameEnded | None,
        *,
        narrow: bool = False,
    ) -> None:
        self.narrow = narrow
        self.width = NARROW_WIDTH if narrow else WIDTH
        self.ended = ended
        self.view = view
        self.names = names
        self.colors = colors
        self.labels = labels
        self.own = own

    def color(self, seat: int) -> str:
        return self.colors[seat % len(self.colors)]

    def header(self, body: list[ET.Element]) -> int:
        """The phase and round, and what is left in the decks (F1, F4, F9, F14)."""
        view = self.view
        body.append(text(16, 28, "For Sale: Autorama", font_size=18, font_weight="bold"))
        line = _phase_line(view)
        line = line[:1].upper() + line[1:]
        phase = _wrap(line, 44) if self.narrow else [line]
        for index, words in enumerate(phase):
            body.append(text(16, 48 + 17 * index, words, font_size=13, fill=_INK))
        left = f"{view.advisors_left} · {view.vehicles_left} · {view.checks_left}"
        removed = " · ".join(str(n) for n in view.removed)
        if self.labels:
            left = f"Decks: {view.advisors_left} advisors · {view.vehicles_left} vehicles · "
            left += f"{view.checks_left} checks"
            removed = f"Removed unseen: {removed}"
        if self.narrow:
            top = 49 + 17 * len(phase)
            decks = _wrap(f"{left}. {removed}", 44)
            for index, words in enumerate(decks):
                body.append(text(16, top + 16 * index, words, font_size=12, fill=_MUTED))
            return top + 4 + 16 * len(decks)
        body.append(text(WIDTH - 16, 28, left, font_size=11, fill=_MUTED, text_anchor="end"))
        body.append(text(WIDTH - 16, 44, removed, font_size=11, fill=_MUTED, text_anchor="end"))
        return 60

    def on_table(self, body: list[ET.Element], y: int) -> int:
        """The cards of the round, face up (F4, F9, F14), and what left the game."""
        view = self.view
        if view.phase is Phase.OVER:
            if self.ended is not None:
                winners = " and ".join(self.names[s] for s in self.ended.winners)
                verb = "wins" if len(self.ended.winners) == 1 else "share the victory"
                body.append(
                    text(
                        16,
                        y + 16,
                        f"{winners} {verb}.",
                        font_size=14,
                        font_weight="bold",
                        fill=_INK,
                    )
                )
                return y + 30
            return y
        shown = _ON_TABLE[view.phase]
        if self.labels:
            body.append(text(16, y + 14, f"On the table: {shown}", font_size=12, fill=_MUTED))
        x: float = 16
        step = _CARD_W + 8 if not self.narrow else min(_CARD_W + 4, 328 / max(len(view.table), 1))
        for card in view.table:
            if view.phase is Phase.HIRING:
                body.append(self.advisor(x, y + 22, card))
            elif view.phase is Phase.BUYING:
                body.append(self.vehicle(x, y + 22, card))
            else:
                body.append(self.check(x, y + 22, card))
            x += step
        note = _table_note(view, tuple(map(_short, self.names)))
        if self.narrow:
            y += _CARD_H + 30
            for words in _wrap(note, 44):
                body.append(text(16, y + 4, words, font_size=13, fill=_INK))
                y += 18
        else:
            if note:
                body.append(text(x + 8, y + 58, note, font_size=12, fill=_INK))
            y += _CARD_H + 30
        for caption, cards in (("Spent advisors", view.spent), ("Sold vehicles", view.sold)):
            if cards:
                line = " ".join(map(str, cards))
                line = f"{caption}: {line}" if self.labels else line
                if self.narrow:
                    for words in _wrap(line, 48):
                        body.append(text(16, y + 4, words, font_size=11, fill=_MUTED))
                        y += 15
                    continue
                body.append(text(16, y + 4, line, font_size=10, fill=_MUTED))
                y += 14
        return y + 4

    def seats(self, body: list[ET.Element], y: int, concerned: frozenset[int]) -> int:
        """A row per seat: name and colour, this round's bid, played advisor or offer, the
        advisors kept face up (F12), and cards in hand face down (F8)."""
        view = self.view
        if self.narrow:
            for seat in range(view.players):
                body.append(self.row(seat, y, seat in concerned))
                y += _NARROW_ROW_H + 4
            return y + 6
        if self.labels:
            for x, caption in ((180, "This round"), (330, "Kept face up"), (560, "In hand")):
                body.append(text(x, y + 12, caption, font_size=11, fill=_MUTED))
            y += 18
        for seat in range(view.players):
            body.append(self.row(seat, y, seat in concerned))
            y += _ROW_H + 4
        return y + 6

    def row(self, seat: int, y: int, concerned: bool) -> ET.Element:
        view = self.view
        color = self.color(seat)
        high = _NARROW_ROW_H if self.narrow else _ROW_H
        parts: list[ET.Element] = [
            element(
                "rect",
                {
                    "x": 12,
                    "y": y,
                    "width": self.width - 24,
                    "height": high,
                    "rx": 6,
                    "fill": "#ffffff",
                    "stroke": color if concerned else _LINE,
                    "stroke-width": 3 if concerned else 1,
                },
            ),
            element("rect", {"x": 12, "y": y, "width": 8, "height": high, "rx": 3, "fill": color}),
        ]
        parts.append(
            text(30, y + 22, _short(self.names[seat]), font_size=14, font_weight="bold", fill=_INK)
        )
        marks = _marks(view, seat, self.own)
        if marks and self.labels:
            parts.append(text(30, y + 42, " · ".join(marks), font_size=11, fill=color))
        # this round's bid, advisor or offer: one piece, so a page shows it appear or turn over
        below = 44 if self.narrow else 0  # the narrow row's second line
        round_x = 30 if self.narrow else 180
        parts.append(
            element("g", {"data-piece": f"round-{seat}"}, self.this_round(seat, y + below, round_x))
        )
        kept = view.kept[seat]
        kept_x, room = (200, 140) if self.narrow else (330, 220)
        step = min(_SMALL_W + 4, room / max(len(kept), 1))
        for index, advisor in enumerate(kept):
            parts.append(self.advisor(kept_x + index * step, y + 9 + below, advisor, small=True))
        parts.extend(self.in_hand(seat, y))
        return element("g", {"class": "seat", "data-seat": seat}, parts)

    def this_round(self, seat: int, y: int, left: int = 180) -> list[ET.Element]:
        """A bid or a pass (F4, F5), a played advisor (F9, F10), an offer (F14, F15), from
        ``left`` on."""
        view = self.view
        small = 12 if self.narrow else 11
        parts: list[ET.Element] = []
        if view.phase is Phase.HIRING:
            bid = view.bids[seat]
            if bid is not None or not view.active[seat]:
                words = "no bid" if bid is None else f"bid {dollars(bid)}"
                if not view.active[seat]:
                    words = "passed" if bid is None else f"passed ({dollars(bid)})"
                if bid is not None:
                    coin = _coin(
                        left + 16,
                        y + _ROW_H / 2,
                        bid,
                        seat_color=self.color(seat),
                        narrow=self.narrow,
                    )
                    parts.append(coin)
                parts.append(text(left + 38, y + 34, words, font_size=12, fill=_INK))
        elif view.phase is Phase.BUYING:
            played = view.played[seat]
            if played is not None:
                parts.append(self.advisor(left, y + 9, played, small=True))
                words = _SHORT[kind_of(played)] if self.labels else ""
                if view.boosted[seat]:
                    words += f" boosted to {boosted_value(played)}"
                parts.append(text(left + 36, y + 34, words.strip(), font_size=small, fill=_INK))
        elif view.phase is Phase.SELLING:
            offer = view.offers[seat]
            lawyer = view.lawyers[seat]
            x = left
            if offer is not None:
                for vehicle in offer:
                    parts.append(self.vehicle(x, y + 9, vehicle, small=True))
                    x += _SMALL_W + 4
            elif view.offered[seat]:
                for _ in range(2 if lawyer is not None else 1):
                    parts.append(_back(x, y + 9))
                    x += _SMALL_W + 4
            if lawyer is not None and self.labels:
                parts.append(text(x + 2, y + 34, f"Lawyer {lawyer}", font_size=small))
        elif self.ended is not None:
            total = f"total {dollars(self.ended.totals[seat])}"
            bold = "bold" if seat in self.ended.winners else "normal"
            parts.append(text(left, y + 34, total, font_size=13, font_weight=bold, fill=_INK))
        return parts

    def in_hand(self, seat: int, y: int) -> list[ET.Element]:
        """How many advisors, vehicles and checks a seat holds, face down (F8, F14); the
        viewing seat's own cash as a coin, nobody else's (F2)."""
        view = self.view
        parts: list[ET.Element] = []
        x = 200 if self.narrow else 560
        counts = (
            ("A", view.advisor_counts[seat]),
            ("V", view.vehicle_counts[seat]),
            ("C", view.check_counts[seat]),
        )
        for letter, count in counts:
            shown = letter if self.labels else None
            parts.append(_back(x, y + 9, letter=shown, count=count, narrow=self.narrow))
            x += 34
        if seat == self.own and view.cash is not None:
            parts.append(
                _coin(x + 22, y + 26, view.cash, seat_color=self.color(seat), narrow=self.narrow)
            )
        return parts

    def hand(self, body: list[ET.Element], y: int) -> int:
        """The viewing seat's own hand, checks and cash, face up (F2, F8)."""
        view = self.view
        assert self.own is not None
        color = self.color(self.own)
        # A click on an advisor plays it (F4), on a vehicle picks the offers holding it (F9).
        rows = (
            ("Advisors", view.advisors, self.advisor, "data-advisor"),
            ("Vehicles", view.vehicles, self.vehicle, "data-vehicles"),
            ("Checks", view.checks, self.check, None),
        )
        if self.narrow:  # a caption over each row's lines of five cards, the cash on a line
            lines = (-(-len(cards) // _NARROW_CARDS) for _, cards, _, _ in rows)
            height = 52 + sum(22 + (_CARD_H + 10) * count for count in lines)
        else:
            height = 34 + sum(_CARD_H + 10 if cards else 22 for _, cards, _, _ in rows)
        body.append(
            element(
                "rect",
                {
                    "x": 12,
                    "y": y,
                    "width": self.width - 24,
                    "height": height,
                    "rx": 6,
                    "fill": "#ffffff",
                    "stroke": color,
                    "stroke-width": 2,
                },
            )
        )
        title = f"Your hand, {self.names[self.own]}" if self.labels else self.names[self.own]
        body.append(text(24, y + 22, title, font_size=13, font_weight="bold", fill=_INK))
        cash_x, cash_y, anchor = (
            (24, y + 40, "start") if self.narrow else (WIDTH - 24, y + 22, "end")
        )
        body.append(
            text(
                cash_x,
                cash_y,
                f"Your cash: {dollars(view.cash or 0)}",
                font_size=13,
                font_weight="bold",
                fill=_INK,
                text_anchor=anchor,
            )
        )
        top = y + 34
        if self.narrow:
            return self.narrow_hand(body, y, top + 18, height, rows)
        for caption, cards, draw, hook in rows:
            if self.labels:
                body.append(text(24, top + 16, caption, font_size=11, fill=_MUTED))
            if not cards:
                body.append(text(100, top + 16, "none", font_size=11, fill=_MUTED))
                top += 22
                continue
            x = 100
            for card in cards:
                drawn = draw(x, top, card)
                if hook is not None:
                    drawn.set(hook, str(card))
                body.append(drawn)
                x += _CARD_W + 6
            top += _CARD_H + 10
        return y + height + 10

    def narrow_hand(
        self,
        body: list[ET.Element],
        y: int,
        top: int,
        height: int,
        rows: tuple[tuple[str, tuple[int, ...], _Draw, str | None], ...],
    ) -> int:
        """The narrow picture's hand: each row's caption over its cards, five to a line."""
        for caption, cards, draw, hook in rows:
            words = caption if self.labels else ""
            if not cards:
                words = f"{words}: none" if words else "none"
            body.append(text(24, top + 16, words, font_size=12, fill=_MUTED))
            top += 22
            for index, card in enumerate(cards):
                row, column = divmod(index, _NARROW_CARDS)
                drawn = draw(24 + column * (_CARD_W + 6), top + row * (_CARD_H + 10), card)
                if hook is not None:
                    drawn.set(hook, str(card))
                body.append(drawn)
            top += (_CARD_H + 10) * -(-len(cards) // _NARROW_CARDS)
        return y + height + 10

    def last(self, body: list[ET.Element], y: int, events: tuple[Event, ...]) -> int:
        """The last command's events, in words (F1-F20)."""
        lines = [describe(event, _names_setup(self.names)) for event in events]
        # wrapped to the picture's width: a long line ran past its right edge
        lines = [part for line in lines for part in _wrap(line, 46 if self.narrow else 96)]
        if self.labels:
            body.append(text(16, y + 14, "Last move", font_size=11, fill=_MUTED))
            y += 18
        for line in lines:
            body.append(text(16, y + 14, line, font_size=12, fill=_INK))
            y += 18
        return y + 8

    def advisor(self, x: float, y: float, advisor: int, *, small: bool = False) -> ET.Element:
        """An advisor face up: its number and, with labels, its kind (F4-F19)."""
        caption = _SHORT[kind_of(advisor)] if self.labels and not small else None
        caption = None if self.narrow else caption
        return _card(
            x,
            y,
            str(advisor),
            _ADVISOR,
            small=small,
            caption=caption,
            hint=f"{kind_of(advisor).value} {advisor}",
        )

    def vehicle(self, x: float, y: float, vehicle: int, *, small: bool = False) -> ET.Element:
        """A vehicle face up: its number (F9, F17)."""
        caption = "vehicle" if self.labels and not small and not self.narrow else None
        return _card(
            x, y, str(vehicle), _VEHICLE, small=small, caption=caption, hint=f"vehicle {vehicle}"
        )

    def check(self, x: float, y: float, check: int) -> ET.Element:
        """A check face up: its value in dollars (F14, F17)."""
        caption = "check" if self.labels and not self.narrow else None
        money = dollars(check)
        return _card(x, y, money, _CHECK, size=11, caption=caption, hint=f"check {money}")


def _card(
    x: float,
    y: float,
    face: str,
    fill: str,
    *,
    small: bool = False,
    caption: str | None = None,
    hint: str,
    size: int | None = None,
) -> ET.Element:
    """A card face up: ``face`` large, ``caption`` small below it, ``hint`` its whole name
    (a tooltip)."""
    w, h = (_SMALL_W, _SMALL_H) if small else (_CARD_W, _CARD_H)
    parts = [
        element("title", content=hint),
        element(
            "rect",
            {
                "x": x,
                "y": y,
                "width": w,
                "height": h,
                "rx": 4,
                "fill": fill,
                "stroke": _INK,
                "stroke-width": 1,
            },
        ),
        text(
            x + w / 2,
            y + (h / 2 + 5 if small else h / 2),
            face,
            font_size=size or (14 if small else 20),
            font_weight="bold",
            text_anchor="middle",
            fill=_INK,
        ),
    ]
    if caption is not None:
        parts.append(
            text(x + w / 2, y + h - 8, caption, font_size=8, text_anchor="middle", fill=_MUTED)
        )
    return element("g", {}, parts)


def _back(
    x: float,
    y: float,
    *,
    letter: str | None = None,
    count: int | None = None,
    narrow: bool = False,
) -> ET.Element:
    """A card face down: nothing of its face is in the picture (F8, F14). In a seat's row a
    back stands for a pile: ``letter`` names it (Advisors, Vehicles, Checks), ``count`` is how
    many cards it holds."""
    w, h = _SMALL_W, _SMALL_H
    parts = [
        element(
            "rect",
            {"x": x, "y": y, "width": w, "height": h, "rx": 4, "fill": _BACK, "stroke": _INK},
        ),
        element(
            "rect",
            {
                "x": x + 4,
                "y": y + 4,
                "width": w - 8,
                "height": h - 8,
                "rx": 2,
                "fill": "none",
                "stroke": "#ffffff",
                "stroke-opacity": 0.5,
            },
        ),
    ]
    if letter is not None:
        parts.append(
            text(
                x + w / 2,
                y + 14,
                letter,
                font_size=11 if narrow else 9,
                text_anchor="middle",
                fill="#ffffff",
            )
        )
    if count is not None:
        parts.append(
            text(
                x + w / 2,
                y + 31,
                str(count),
                font_size=14,
                font_weight="bold",
                text_anchor="middle",
                fill="#ffffff",
            )
        )
    return element("g", {}, parts)


def _coin(
    cx: float, cy: float, amount: int, *, seat_color: str, narrow: bool = False
) -> ET.Element:
    """Money in front of a seat: a bid (public, F4) or the owner's own cash (F2)."""
    parts = [
        element(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": 16,
                "fill": "#f2c14e",
                "stroke": seat_color,
                "stroke-width": 2,
            },
        ),
        text(
            cx,
            cy + 4,
            f"${amount}k" if amount else "$0",
            font_size=11 if narrow else 10,
            font_weight="bold",
            text_anchor="middle",
            fill=_INK,
        ),
    ]
    return element("g", {}, parts)


def _wrap(words: str, width: int) -> list[str]:
    """``words`` in lines of at most ``width`` characters (none for no words)."""
    return textwrap.wrap(words, width)


def _short(name: str) -> str:
    """A name cut to fit its place in the picture (the ``<desc>`` has it whole)."""
    return name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 1] + "…"


def _phase_line(view: View) -> str:
    """``"Phase 3, round 2: selling vehicles; Lawyers take vehicles back"``, or the end."""
    if view.phase is Phase.OVER:
        return "the game is over: every vehicle is sold"
    line = _PHASES[view.phase].format(round=view.round)
    return line + (f"; {_STEPS[view.step]}" if view.step is not None else "")


def _table_note(view: View, names: tuple[str, ...]) -> str:
    """The auction's high bid (F4), or who is still to offer (F14)."""
    if view.phase is Phase.HIRING:
        bids = [(bid, seat) for seat, bid in enumerate(view.bids) if bid is not None]
        if not bids:
            return "No bid yet"
        bid, seat = max(bids)
        return f"High bid: {dollars(bid)} ({names[seat]})"
    if view.phase is Phase.SELLING and view.step is Step.OFFERING:
        waiting = [names[s] for s in range(view.players) if not view.offered[s]]
        return "To offer: " + ", ".join(waiting) if waiting else ""
    return ""


def _marks(view: View, seat: int, own: int | None) -> list[str]:
    marks = []
    if seat == own:
        marks.append("you")
    if view.turn == seat:
        marks.append("to act")
    elif view.phase is Phase.SELLING and view.step is Step.OFFERING and not view.offered[seat]:
        marks.append("to offer")
    if view.start == seat and view.phase is not Phase.OVER:
        marks.append("start player")
    return marks


def _concerned(events: tuple[Event, ...]) -> frozenset[int]:
    """The seats the last command's events name (outlined in the picture)."""
    seats: set[int] = set()
    for event in events:
        if isinstance(
            event,
            (
                BidPlaced,
                Passed,
                AdvisorHired,
                ConsultantPaid,
                AdvisorPlayed,
                VehicleBought,
                BonusReceived,
                VehiclesOffered,
                VehiclesOfferedWithLawyer,
                VehicleTakenBack,
                LawyerDiscarded,
                MechanicUsed,
                MechanicDeclined,
                VehicleSold,
            ),
        ):
            seats.add(event.seat)
        elif isinstance(event, GameEnded):
            seats.update(event.winners)
    return frozenset(seats)


def _names_setup(names: tuple[str, ...]) -> Setup:
    """A setup that :func:`describe` reads the names from; it reads nothing else of it."""
    return Setup(names, 0)


def _description(
    view: View, names: tuple[str, ...], own: int | None, events: tuple[Event, ...]
) -> str:
    """The picture in words: the phase, the table, each seat's public facts, the seat's own."""
    lines = [f"For Sale: Autorama, {_phase_line(view)}."]
    if view.phase in _ON_TABLE:
        cards = (
            ", ".join(dollars(c) for c in view.table)
            if view.phase is Phase.SELLING
            else ", ".join(map(str, view.table))
        )
        lines.append(f"On the table, {_ON_TABLE[view.phase]}: {cards or 'none'}.")
    note = _table_note(view, names)
    if note:
        lines.append(note + ".")
    for seat in range(view.players):
        facts = []
        if view.phase is Phase.HIRING and view.bids[seat] is not None:
            facts.append(f"bid {dollars(view.bids[seat] or 0)}")
        if view.phase is Phase.HIRING and not view.active[seat]:
            facts.append("passed")
        if view.played[seat] is not None:
            boost = " boosted" if view.boosted[seat] else ""
            facts.append(f"played advisor {view.played[seat]}{boost}")
        offer = view.offers[seat]
        if offer is not None:
            facts.append("offered " + " and ".join(map(str, offer)))
        elif view.offered[seat]:
            facts.append("offered face down")
        if view.lawyers[seat] is not None:
            facts.append(f"with Lawyer {view.lawyers[seat]}")
        if view.kept[seat]:
            facts.append("keeps " + ", ".join(map(str, view.kept[seat])))
        facts.append(
            f"holds {view.advisor_counts[seat]} advisors, {view.vehicle_counts[seat]} vehicles, "
            f"{view.check_counts[seat]} checks"
        )
        marks = _marks(view, seat, own)
        head = names[seat] + (f" ({', '.join(marks)})" if marks else "")
        lines.append(f"{head}: {'; '.join(facts)}.")
    if own is not None:
        lines.append(
            f"Your cash: {dollars(view.cash or 0)}; advisors: "
            f"{', '.join(map(str, view.advisors)) or 'none'}; vehicles: "
            f"{', '.join(map(str, view.vehicles)) or 'none'}; checks: "
            f"{', '.join(dollars(c) for c in view.checks) or 'none'}."
        )
    if events:
        setup = _names_setup(names)
        lines.append("Last move: " + " ".join(describe(e, setup) for e in events))
    return " ".join(lines)
