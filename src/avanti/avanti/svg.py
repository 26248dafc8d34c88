"""Avanti as an SVG picture, drawn from a view (A30): what a seat, or a spectator, sees.

:func:`picture` draws the looped road (A4) with each space's toll or parking lot and ATM amount,
the event marker and the cars (A7, A12); the island path (A5) with its prices, the unpriced spaces,
the dream island and the figures; and a row per seat with its name, colour, cash, island space,
distance, hand size and whether it has laid a card (face down). The viewing seat also sees its own
hand and its own laid card with the number it chose; no other seat's hidden card or number is in
the picture at all, so a seat's picture is the same in every game that seat cannot tell apart.

The last command's events, as the seat saw them
(:meth:`~avanti.core.game.Game.last_events`), are drawn on top: the
hops of a car (A11), what each seat paid or received (A15, A17, A21, A22) and the figures that
moved (A17, A19, A22); they are written out under the table too. The ``<title>`` and ``<desc>``
tell the same position in words, for screen readers.

A view holds neither the board nor the players' names: pass the game's public setup as ``table=``
(``game.public_setup``). Without it the default board and deck are drawn and the seats are called
"Seat 0", "Seat 1", .... In a notebook a view draws itself so, and a game draws the spectator's view
with its own board, names and last command (``_repr_svg_``).

>>> import avanti
>>> game = avanti.new_game(["Tina", "Jack", "Steve"], seed=1)
>>> game = game.execute(avanti.PlaceEventMarker(0, 5))
>>> last = game.last_events(1)
>>> svg = avanti.picture(game.view(1), table=game.public_setup, last=last)
>>> svg.startswith("<svg") and "Tina puts the event marker on road space 5" in svg
True
"""

from __future__ import annotations

import itertools
import json
import math
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence

from avanti.avanti.board import DEFAULT_BOARD, Board, Space
from avanti.avanti.deck import DEFAULT_DECK, Deck, is_yellow
from avanti.avanti.describe import narrate
from avanti.avanti.events import (
    AtmWithdrawn,
    BankPaid,
    CarMoved,
    DrivingBegan,
    Event,
    EventMarkerPlaced,
    FigureAdvanced,
    FigureRetreated,
    GameEnded,
    Invested,
    RunEnded,
    TollPaid,
)
from avanti.avanti.setup import PublicSetup, Setup
from avanti.avanti.state import Phase
from avanti.avanti.views import View, redact
from avanti.core.errors import InvalidArgument
from avanti.core.svg import SEAT_COLORS, Svg, document, element, text

__all__ = ["picture"]

_SPACING = 42.0
"""Road length per space, in user units, unless the loop must stretch round the island."""
_SPACE_R = 17.0
"""The radius of a road space."""
_ASPECT = 1.6
"""The loop's straights, as a multiple of its radius."""
_CAR_W, _CAR_H, _CAR_STEP = 22.0, 12.0, 14.0
_CELL_W, _CELL_H, _CELL_GAP, _ROW_GAP = 40.0, 48.0, 10.0, 18.0
_ROW = 30.0
"""The height of a seat's row in the table under the board."""
_NARROW_ROW = 66.0
"""The height of a seat's row in the narrow picture."""
_WIDTH = 760.0
"""The narrowest picture: room for the table of seats."""
_LAST_LINES, _LAST_WIDTH = 9, 110
"""The last move is written in at most this many lines of this many characters."""
_NARROW_WIDTH, _NARROW_SPACING, _NARROW_CAR_W, _NARROW_LAST = 360.0, 40.0, 13.0, 46
"""The narrow picture (``layout="narrow"``): its width, the road per space, a car's width (cars
pile sideways on the upright road), the characters of a line of the last move."""
_NARROW_TEXT = 11
"""The narrow picture's smallest text, in user units: 11 pixels on a 390-pixel phone."""
_NARROW_HAND = 4
"""Cards on one line of the hand in the narrow picture."""
_INDENT = "\u00a0" * 4
"""Where a line of the last move goes on: no-break spaces, which SVG text keeps."""
_INK, _MUTED, _PAPER, _GAIN = "#222", "#666", "#fff", "#1f7a1f"
_TOLL_FILL = ("#fff", "#fde7c4", "#f6c4bd")
"""Toll spaces under 400, from 400 and from 1,000 monetas (as the terminal colours them)."""
_PARKING_FILL, _PARKING_INK = "#d7ecd2", "#2f6b2f"
_ISLAND_FILL, _DREAM_FILL, _DREAM_INK, _WATER = "#f4efe1", "#f7d774", "#6b5214", "#d9ecf5"
_YELLOW, _RED, _CARD_BACK = "#f2c230", "#c8312b", "#35507a"
_SEAT_FIELDS = ("seat", "starting_seat", "payer", "payee", "debtor", "winner")
_ISLAND_FIELDS = ("from_space", "to_space")
_NAME, _CASH, _ISLAND, _DRIVEN, _CARDS, _LAID, _NOW = 52, 330, 420, 480, 500, 580, 645
"""Where the columns of the table of seats start (cash, island and driven: where they end)."""
_HEADS = (
    (_NAME, "player", None),
    (_CASH, "cash", "end"),
    (_ISLAND, "island", "end"),
    (_DRIVEN, "driven", "end"),
    (_CARDS, "cards", None),
    (_LAID, "laid", None),
    (_NOW, "now", None),
)
_NAME_LENGTH = 28
"""The most characters of a name the table shows (the ``<desc>`` has every name whole)."""
_WAITING = {
    Phase.MARKER: "to place the marker",
    Phase.PLANNING: "to lay a card",
    Phase.DRIVING: "to drive or quit",
    Phase.INVESTING: "to invest",
}


def picture(
    view: View,
    *,
    size: float | None = None,
    colors: Sequence[str] = SEAT_COLORS,
    labels: bool = True,
    last: Sequence[Event] = (),
    table: Setup | PublicSetup | None = None,
    layout: str = "wide",
) -> Svg:
    """The table of Avanti as ``view``'s seat sees it (A30), as SVG text.

    :param view: a seat's view or the spectator's (``game.view(seat)``).
    :param size: the width to draw it at, in pixels (default: its own width, 760 or more).
    :param colors: a colour per seat (any SVG colour), used again from the first if too few.
    :param labels: write the number of every road space and island space.
    :param last: the events of the last command (``game.last_events(seat)``). Each is redacted for
        the view's seat again, so even events of the full log show it nothing hidden.
    :param table: the game's public setup (``game.public_setup``) for the board, the deck and the
        players' names; ``None`` draws the default board and deck and names seats by number.
    :param layout: ``"wide"`` (760 units or more, the island inside the road) or ``"narrow"``,
        for a phone: 360 units wide, the road an upright loop with the cars piled sideways, the
        island path under it, each seat's row in three lines, the hand four cards to a line and
        every line of words wrapped; no text under 11 units (so 11 pixels or more on a 390-pixel
        screen). The same pieces, ``data-piece`` and ``data-path`` attributes and click hooks.
    :raises InvalidArgument: ``layout`` is neither ``"wide"`` nor ``"narrow"``, ``colors`` is
        empty, ``size`` is not a positive width, ``last``
        holds something other than an Avanti event of this table, or the view does not fit
        ``table`` (another number of players, a car or figure off the board, a card not in the
        deck)."""
    if layout not in ("wide", "narrow"):
        raise InvalidArgument(f'layout must be "wide" or "narrow", not {layout!r}')
    if not colors or not all(isinstance(color, str) for color in colors):
        raise InvalidArgument("colors must name at least one colour, each a string")
    if size is not None and not (isinstance(size, int | float) and 0 < size < math.inf):
        raise InvalidArgument("size must be a width in pixels, more than 0")
    players = len(view.cash)
    if table is None:
        board, deck, names = DEFAULT_BOARD, DEFAULT_DECK, tuple(f"Seat {s}" for s in range(players))
    else:
        board, deck, names = table.board, table.deck, table.players
    _check_view(view, board, deck, names, table is None)
    for event in last:
        _check_event(event, players, len(board.island))
    seen = tuple(e for e in (redact(event, view.seat) for event in last) if e is not None)
    drawing = _Drawing(view, board, deck, names, tuple(colors), labels, seen, layout == "narrow")
    body = list(drawing.body())
    if drawing.narrow:  # what the layout leaves small is written larger
        for node in (node for part in body for node in part.iter("text")):
            if float(node.get("font-size", _NARROW_TEXT)) < _NARROW_TEXT:
                node.set("font-size", str(_NARROW_TEXT))
    return document(
        drawing.width,
        drawing.height,
        body,
        title=drawing.title(),
        description=drawing.description(),
        size=size,
    )


def _check_view(
    view: View, board: Board, deck: Deck, names: tuple[str, ...], default: bool
) -> None:
    """Refuse a view that cannot be drawn on this board, with this deck and these players."""
    where = "the default board and deck (pass table=game.public_setup)" if default else "table"
    if len(names) != len(view.cash):
        raise InvalidArgument(f"the view has {len(view.cash)} seats but {where} has {len(names)}")
    cards = (*(view.hand or ()), *view.discard, *(() if view.laid is None else view.laid[:1]))
    track, spots = board.track_length, len(board.island)
    if (
        (view.marker is not None and not 0 <= view.marker < track)
        or not all(0 <= space < track for space in view.road_spaces)
        or not all(0 <= spot < spots for spot in view.island)
        or not all(0 <= card < len(deck.cards) for card in cards)
    ):
        raise InvalidArgument(f"the view does not fit {where}")


def _check_event(event: object, players: int, spots: int) -> None:
    """Refuse an entry of ``last`` that is no Avanti event, or names a seat or island space that
    this table does not have."""
    if not isinstance(event, Event):
        raise InvalidArgument(f"last holds a {type(event).__name__}, not an Avanti event")
    named = (getattr(event, key, None) for key in _SEAT_FIELDS)
    seats: list[int] = [seat for seat in named if seat is not None]
    if isinstance(event, DrivingBegan):
        seats += event.order
    elif isinstance(event, RunEnded | GameEnded):
        seats += event.ranking
    elif isinstance(event, CarMoved):
        seats += event.bumped
    spaces: list[int] = [getattr(event, key) for key in _ISLAND_FIELDS if hasattr(event, key)]
    if not all(0 <= s < players for s in seats) or not all(0 <= s < spots for s in spaces):
        raise InvalidArgument(f"last holds a {type(event).__name__} that does not fit this table")


def _money(amount: int) -> str:
    return f"{amount:,}"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _short(amount: int) -> str:
    """An amount small enough for a road space: ``1000``, ``25k``."""
    return f"{amount / 1000:.3g}k" if amount >= 10_000 else str(amount)


def _signed(amount: int) -> str:
    return f"+{amount:,}" if amount > 0 else f"\u2212{-amount:,}"


def _r(value: float) -> float:
    """A coordinate to a tenth of a unit, which keeps the text short."""
    return round(value, 1)


def _shape(tag: str, title: str | None = None, **attributes: object) -> ET.Element:
    """An SVG shape; keyword attributes use ``_`` for ``-`` (``class_`` is ``class``), floats are
    rounded, ``None`` is left out; ``title`` becomes a tooltip a screen reader reads too."""
    named = {
        key.rstrip("_").replace("_", "-"): _r(value) if isinstance(value, float) else value
        for key, value in attributes.items()
    }
    return element(tag, named, [] if title is None else [element("title", content=title)])


def _label(x: float, y: float, content: str, size: float, **attributes: object) -> ET.Element:
    """A line of text, ``size`` units high; ``fill`` defaults to ink."""
    return text(_r(x), _r(y), content, font_size=size, **{"fill": _INK, **attributes})


def _ink_on(color: str) -> str:
    """Ink or paper, whichever reads better on ``color`` (paper unless it is written in hex)."""
    digits = color.removeprefix("#")
    if len(digits) == 3:
        digits = "".join(digit * 2 for digit in digits)
    if not color.startswith("#") or len(digits) != 6:
        return _PAPER
    try:
        red, green, blue = (int(digits[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return _PAPER
    return _INK if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else _PAPER


def _arrow(
    start: tuple[float, float],
    bend: tuple[float, float],
    end: tuple[float, float],
    color: str,
    kind: str,
) -> ET.Element:
    """A dashed curve from ``start`` to ``end``, pulled towards ``bend``, with a head at ``end``;
    ``kind`` is its class."""
    (sx, sy), (mx, my), (ex, ey) = start, bend, end
    norm = math.hypot(ex - mx, ey - my) or 1.0
    ux, uy = (ex - mx) / norm, (ey - my) / norm
    back, side = (ex - 9 * ux, ey - 9 * uy), (4.5 * uy, -4.5 * ux)
    head = [
        (ex, ey),
        (back[0] + side[0], back[1] + side[1]),
        (back[0] - side[0], back[1] - side[1]),
    ]
    return element(
        "g",
        {"class": kind, "stroke": color, "fill": color},
        [
            _shape(
                "path",
                d=f"M{_r(sx)},{_r(sy)} Q{_r(mx)},{_r(my)} {_r(ex)},{_r(ey)}",
                fill="none",
                stroke_width=2.5,
                stroke_dasharray="5 3",
            ),
            _shape("polygon", points=" ".join(f"{_r(x)},{_r(y)}" for x, y in head)),
        ],
    )


class _Loop:
    """The road as a stadium: two straights and two half circles round the island path, driven
    clockwise from the left end of the top straight (A4)."""

    def __init__(
        self, spaces: int, inner_w: float, inner_h: float, upright: float | None = None
    ) -> None:
        self.spaces = spaces
        self.upright = upright is not None
        """Whether the straights run down the picture (the narrow layout), driven clockwise
        from the top of the right straight."""
        if upright is not None:  # the given radius; the straights as long as the road needs
            length = _NARROW_SPACING * spaces
            self.radius = upright
            self.straight = max(0.0, (length - 2 * math.pi * upright) / 2)
            self.length = 2 * self.straight + 2 * math.pi * upright
            self.cx = self.cy = 0.0
            return
        inner = _SPACE_R + 18  # the space, its number and a little water
        length = _SPACING * spaces
        radius = max(90.0, length / (2 * _ASPECT + 2 * math.pi), inner_h / 2 + inner + 8)
        straight = max(0.0, (length - 2 * math.pi * radius) / 2)
        room = straight + 2 * math.sqrt(max((radius - inner) ** 2 - (inner_h / 2) ** 2, 0.0))
        straight += max(0.0, inner_w + 24 - room)
        self.radius, self.straight = radius, straight
        self.length = 2 * straight + 2 * math.pi * radius
        self.cx = self.cy = 0.0

    def at(self, space: float) -> tuple[float, float, float, float]:
        """The centre of road ``space`` (a fraction lies between two) and the outward normal."""
        x, y, nx, ny = self._at(space)
        if not self.upright:
            return x, y, nx, ny
        return self.cx - (y - self.cy), self.cy + (x - self.cx), -ny, nx  # a quarter turn

    def _at(self, space: float) -> tuple[float, float, float, float]:
        s = (space + 0.5) * self.length / self.spaces % self.length
        a, r, cx, cy = self.straight, self.radius, self.cx, self.cy
        if s < a:
            return cx - a / 2 + s, cy - r, 0.0, -1.0
        if s < a + math.pi * r:
            phi = -math.pi / 2 + (s - a) / r
            return (
                cx + a / 2 + r * math.cos(phi),
                cy + r * math.sin(phi),
                math.cos(phi),
                math.sin(phi),
            )
        if s < 2 * a + math.pi * r:
            return cx + a / 2 - (s - a - math.pi * r), cy + r, 0.0, 1.0
        phi = math.pi / 2 + (s - 2 * a - math.pi * r) / r
        return cx - a / 2 + r * math.cos(phi), cy + r * math.sin(phi), math.cos(phi), math.sin(phi)


class _Drawing:
    """One picture: its layout, its words, and the parts of its body in drawing order."""

    def __init__(
        self,
        view: View,
        board: Board,
        deck: Deck,
        names: tuple[str, ...],
        colors: tuple[str, ...],
        labels: bool,
        last: tuple[Event, ...],
        narrow: bool = False,
    ) -> None:
        self.narrow = narrow
        self.view, self.board, self.deck, self.names = view, board, deck, names
        self.players = len(names)
        self.colors = tuple(colors[seat % len(colors)] for seat in range(self.players))
        self.labels, self.last = labels, last
        self.deltas = self._deltas()
        self.last_lines = self._last_lines()
        cells = len(board.island)
        self.columns = min(cells, max(7, math.ceil(math.sqrt(2 * cells))))
        rows = math.ceil(cells / self.columns)
        self.island_w = self.columns * (_CELL_W + _CELL_GAP) - _CELL_GAP
        self.island_h = 16 + rows * (_CELL_H + _ROW_GAP) - _ROW_GAP + 44  # title, cells, legend
        self.header_lines = self._header_lines()
        if narrow:
            self._narrow_layout(rows)
            return
        self.loop = loop = _Loop(board.track_length, max(self.island_w, 340), self.island_h)
        outside = _SPACE_R + 8 + self.players * _CAR_STEP + 16  # the cars, piled at the start
        self.width = float(max(_WIDTH, math.ceil(loop.straight + 2 * (loop.radius + outside) + 20)))
        loop.cx, loop.cy = self.width / 2, 66 + outside + loop.radius
        self.table_top = loop.cy + loop.radius + outside + 8
        self.island_left = loop.cx - self.island_w / 2
        self.island_top = loop.cy - self.island_h / 2
        self.hand_top = self.table_top + 22 + self.players * _ROW + 10
        self.last_top = self.hand_top + (96 if view.hand is not None else 0)
        bottom = self.last_top + (24 + 16 * len(self.last_lines) if self.last else 0) + 12
        self.height = float(math.ceil(bottom))

    def _narrow_layout(self, rows: int) -> None:
        """The narrow picture's places: the header's lines, the upright road with the cars piled
        sideways, the island path, the seats' rows, the hand's lines of cards, the last move."""
        outside = _SPACE_R + 12 + self.players * _CAR_STEP + 8
        radius = max(40.0, (_NARROW_WIDTH - 20) / 2 - outside)
        self.loop = loop = _Loop(self.board.track_length, 0.0, 0.0, radius)
        self.width = _NARROW_WIDTH
        top = 18 + 18 * len(self.header_lines)
        loop.cx, loop.cy = self.width / 2, top + outside + loop.straight / 2 + loop.radius
        self.island_left = (self.width - self.island_w) / 2
        self.island_top = loop.cy + loop.straight / 2 + loop.radius + outside + 4
        self.island_h += 40  # the legend on three lines
        self.table_top = self.island_top + self.island_h + 8
        self.hand_top = self.table_top + self.players * _NARROW_ROW + 10
        hand, laid = self.view.hand, self.view.laid is not None
        lines = 0 if hand is None else max(1, -(-len(hand) // _NARROW_HAND) + laid)
        self.last_top = self.hand_top + 12 + 96 * lines
        bottom = self.last_top + (24 + 16 * len(self.last_lines) if self.last else 0) + 12
        self.height = float(math.ceil(bottom))

    # -- words -------------------------------------------------------------------------------

    def space_words(self, space: int) -> str:
        kind = self.board.track[space]
        if kind.is_parking:
            return f"road space {space} (parking lot, ATM {_money(kind.amount)})"
        return f"road space {space} (toll {_money(kind.amount)})"

    def card_words(self, card: int) -> str:
        return f"card {card} ({'/'.join(str(n) for n in self.deck.cards[card].numbers)})"

    def who(self) -> str:
        seat = self.view.seat
        return self.names[seat] if seat is not None and 0 <= seat < self.players else "a spectator"

    def title(self) -> str:
        view, who = self.view, self.who()
        when = f"run {view.run}, round {view.round}, {view.phase.value}"
        if view.winner is not None:
            when = f"run {view.run}, game over, {self.names[view.winner]} wins"
        return f"Avanti, {when}: the table as {who} sees it"

    def status(self, seat: int) -> str:
        """What a seat is doing now, in a few words."""
        view = self.view
        if view.winner == seat:
            return "winner"
        if seat in view.waiting:
            return _WAITING.get(view.phase, "")
        if view.phase is Phase.INVESTING:
            return "invested" if view.invested[seat] else ""
        if view.quit[seat] and view.phase in (Phase.PLANNING, Phase.DRIVING):
            return "quit this run"
        return "laid a card" if view.has_laid[seat] else ""

    def description(self) -> str:
        view = self.view
        lines = [f"{self.title()}."]
        if view.marker is None:
            lines.append("The event marker is not placed yet; the cars wait to start.")
        else:
            lines.append(f"The event marker is on {self.space_words(view.marker)}.")
        pile = f"The draw pile holds {view.draw_size} cards, the discard pile {len(view.discard)}"
        top = f", {self.card_words(view.discard[-1])} on top" if view.discard else ""
        lines.append(f"{pile}{top}.")
        for seat, name in enumerate(self.names):
            facts = [f"{name} (seat {seat + 1}{', you' if seat == view.seat else ''})"]
            if view.marker is not None:
                space = self.space_words(view.road_spaces[seat])
                facts.append(f"car on {space}, {_count(view.distances[seat], 'space')} driven")
            facts.append(f"cash {_money(view.cash[seat])}")
            facts.append(f"island space {view.island[seat]}")
            facts.append(f"{_count(view.hand_sizes[seat], 'card')} in hand")
            if view.has_laid[seat]:
                facts.append("a card laid face down")
            state = self.status(seat)
            if state not in ("", "laid a card"):
                facts.append(state)
            lines.append(", ".join(facts) + ".")
        if view.hand is not None:
            cards = ", ".join(self.card_words(card) for card in view.hand) or "no cards"
            lines.append(f"Your hand: {cards}.")
        if view.laid is not None:
            lines.append(f"You laid {self.card_words(view.laid[0])} to drive {view.laid[1]}.")
        if self.last:
            lines.append("Last move: " + " ".join(self._last_words()))
        return "\n".join(lines)

    def _last_lines(self) -> list[str]:
        """The last move in words, wrapped; a long one keeps its first and its last lines."""
        lines = [
            line
            for words in self._last_words()
            for line in textwrap.wrap(
                words, _NARROW_LAST if self.narrow else _LAST_WIDTH, subsequent_indent=_INDENT
            )
        ]
        if len(lines) > _LAST_LINES:
            keep = (_LAST_LINES - 1) // 2
            middle = (
                f"\u2026 {len(lines) - 2 * keep} more lines (the description has them all) \u2026"
            )
            lines = [*lines[:keep], middle, *lines[-keep:]]
        return lines

    def _last_words(self) -> tuple[str, ...]:
        """The last move in words, cars on the road spaces of the board (A4): the view's
        marker is the marker of the last move's run, unless the move placed a new one."""
        setup = Setup(self.names, 0, board=self.board)  # the names and the road's length
        placed = any(isinstance(event, EventMarkerPlaced) for event in self.last)
        return narrate(self.last, setup, marker=None if placed else self.view.marker)

    def _deltas(self) -> list[int]:
        """What each seat gained or lost in the last move (A15, A17, A21, A22)."""
        deltas = [0] * self.players
        for event in self.last:
            if isinstance(event, TollPaid):
                deltas[event.payer] -= event.amount
                deltas[event.payee] += event.amount
            elif isinstance(event, BankPaid | AtmWithdrawn):
                deltas[event.seat] += event.amount
            elif isinstance(event, Invested):
                deltas[event.seat] -= event.cost
        return deltas

    # -- the board -----------------------------------------------------------------------------

    def body(self) -> Iterator[ET.Element]:
        yield _shape("rect", width=self.width, height=self.height, fill=_PAPER)
        yield from self.header()
        yield from self.road()
        yield from self.island()
        yield from self.hops()
        yield from self.cars()
        yield from self.seats()
        yield from self.hand()
        yield from self.last_words()

    def _header_lines(self) -> list[tuple[str, int]]:
        """The narrow header's lines and their sizes: where the game is, who looks, whom it
        waits for, the marker and the piles, wrapped (none for the wide picture, whose
        :meth:`header` writes three lines)."""
        if not self.narrow:
            return []
        view = self.view
        when = f"run {view.run}, round {view.round} \u00b7 {view.phase.value}"
        if view.winner is not None:
            when = f"run {view.run} \u00b7 game over \u00b7 {self.names[view.winner]} wins"
        who = f"As {self.who()} sees it"
        if view.waiting:
            who += " \u00b7 waiting for " + ", ".join(self.names[seat] for seat in view.waiting)
        marker = "not placed yet" if view.marker is None else f"on road space {view.marker}"
        facts = f"Event marker {marker} \u00b7 draw pile {view.draw_size}"
        top = f" (top: {self.card_words(view.discard[-1])})" if view.discard else ""
        facts += f" \u00b7 discard pile {len(view.discard)}{top}"
        lines = [(line, 16) for line in textwrap.wrap(f"Avanti \u00b7 {when}", 34)]
        return lines + [(line, 12) for words in (who, facts) for line in textwrap.wrap(words, 48)]

    def header(self) -> Iterator[ET.Element]:
        """Where the game is, who looks, whom it waits for, the marker and the piles."""
        view = self.view
        if self.narrow:
            for index, (line, size) in enumerate(self.header_lines):
                bold, fill = ("bold", _INK) if size > 12 else (None, _MUTED)
                yield _label(12, 22 + 18 * index, line, size, font_weight=bold, fill=fill)
            return
        when = f"run {view.run}, round {view.round} \u00b7 {view.phase.value}"
        if view.winner is not None:
            when = f"run {view.run} \u00b7 game over \u00b7 {self.names[view.winner]} wins"
        yield _label(16, 24, f"Avanti \u00b7 {when}", 16, font_weight="bold")
        who = [f"As {self.who()} sees it"]
        if view.waiting:
            names = ", ".join(self.names[seat] for seat in view.waiting)
            who.append(
                f"waiting for {names if len(names) <= 60 else f'{len(view.waiting)} players'}"
            )
        yield _label(16, 42, " \u00b7 ".join(who), 12, fill=_MUTED)
        marker = "not placed yet" if view.marker is None else f"on road space {view.marker}"
        facts = [f"Event marker {marker}", f"draw pile {view.draw_size}"]
        top = f" (top: {self.card_words(view.discard[-1])})" if view.discard else ""
        facts.append(f"discard pile {len(view.discard)}{top}")
        yield _label(16, 58, " \u00b7 ".join(facts), 12, fill=_MUTED)

    def road(self) -> Iterator[ET.Element]:
        """The loop of road spaces (A4), the way to drive, and the event marker (A7, A25)."""
        loop = self.loop
        a, r, cx, cy = loop.straight, loop.radius, loop.cx, loop.cy
        outline = (
            f"M{_r(cx - a / 2)},{_r(cy - r)} h{_r(a)} a{_r(r)},{_r(r)} 0 0 1 0,{_r(2 * r)} "
            f"h{_r(-a)} a{_r(r)},{_r(r)} 0 0 1 0,{_r(-2 * r)} z"
        )
        if loop.upright:
            outline = (
                f"M{_r(cx + r)},{_r(cy - a / 2)} v{_r(a)} a{_r(r)},{_r(r)} 0 0 1 {_r(-2 * r)},0 "
                f"v{_r(-a)} a{_r(r)},{_r(r)} 0 0 1 {_r(2 * r)},0 z"
            )
        yield _shape(
            "path", d=outline, fill=_WATER, stroke="#9a9a9a", stroke_width=_SPACE_R * 2 + 8
        )
        x, y, nx, ny = loop.at(0)
        away = _SPACE_R + 22
        if loop.upright:  # beside the numbers, on the water
            yield _label(x - 70, y + 4, "drive \u2193", 11, fill=_MUTED)
        else:
            yield _label(x - nx * away - 4, y - ny * away + 3, "drive \u2192", 11, fill=_MUTED)
        for space, kind in enumerate(self.board.track):
            yield self.space(space, kind)
        if self.view.marker is not None:
            x, y, _, _ = loop.at(self.view.marker)
            yield _shape(
                "circle",
                f"event marker: {self.space_words(self.view.marker)}",
                class_="marker",
                cx=x,
                cy=y,
                r=_SPACE_R + 4,
                fill="none",
                stroke=_INK,
                stroke_width=3,
                stroke_dasharray="6 3",
            )

    def space(self, space: int, kind: Space) -> ET.Element:
        """A toll space (a circle, redder as the toll grows) or a parking lot (a green square
        marked P, with its ATM amount) (A4, A15, A21)."""
        x, y, nx, ny = self.loop.at(space)
        words = self.space_words(space)
        if kind.is_parking:
            side = _SPACE_R * 2 - 4
            parts = [
                _shape(
                    "rect",
                    words,
                    class_="space parking",
                    x=x - side / 2,
                    y=y - side / 2,
                    width=side,
                    height=side,
                    rx=4,
                    fill=_PARKING_FILL,
                    stroke=_PARKING_INK,
                    stroke_width=1.5,
                ),
                _label(x, y - 3, "P", 11, font_weight="bold", fill=_PARKING_INK),
                _label(x, y + 10, _short(kind.amount), 11),
            ]
        else:
            level = 2 if kind.amount >= 1000 else 1 if kind.amount >= 400 else 0
            fill = _TOLL_FILL[level]
            parts = [
                _shape(
                    "circle",
                    words,
                    class_="space toll",
                    cx=x,
                    cy=y,
                    r=_SPACE_R,
                    fill=fill,
                    stroke="#555",
                ),
                _label(x, y + 4, _short(kind.amount), 11),
            ]
        if self.labels:
            away = _SPACE_R + 9
            parts.append(_label(x - nx * away, y - ny * away + 4, str(space), 11, fill=_MUTED))
        hook = {"data-command": "PlaceEventMarker", "data-space": space}  # a click places (A7)
        return element("g", {"text-anchor": "middle", **hook}, parts)

    def car_at(self, seat: int, pile: int) -> tuple[float, float, float, float]:
        """Where ``seat``'s car is drawn: outside its road space, ``pile`` cars further out."""
        x, y, nx, ny = self.loop.at(self.view.road_spaces[seat])
        out = _SPACE_R + 6 + _CAR_H / 2 + pile * _CAR_STEP
        return x + nx * out, y + ny * out, nx, ny

    @property
    def car_w(self) -> float:
        """A car's width: narrower in the narrow picture, whose cars pile sideways."""
        return _NARROW_CAR_W if self.narrow else _CAR_W

    def car(self, x: float, y: float, seat: int, title: str | None = None) -> list[ET.Element]:
        color = self.colors[seat]
        left, top = x - self.car_w / 2, y - _CAR_H / 2
        return [
            _shape(
                "rect",
                title,
                x=left,
                y=top,
                width=self.car_w,
                height=_CAR_H,
                rx=4.0,
                fill=color,
                stroke=_INK,
            ),
            _label(
                x,
                y + 3.5,
                str(seat + 1),  # seats are numbered from 1 for people, as the page does
                10,
                font_weight="bold",
                text_anchor="middle",
                fill=_ink_on(color),
            ),
        ]

    def cars(self) -> Iterator[ET.Element]:
        """Every car on its road space (A12), piled where several share the start (A4); a car
        whose player quit the run stays, pale (A14). Beside the outermost car of a space, what
        its owner paid or got in the last move."""
        view = self.view
        if view.marker is None:
            return
        piles: dict[int, list[int]] = {}
        for seat, space in enumerate(view.road_spaces):
            piles.setdefault(space, []).append(seat)
        for space, seats in piles.items():
            for pile, seat in enumerate(seats):
                x, y, nx, ny = self.car_at(seat, pile)
                gone = view.quit[seat] and view.phase in (Phase.PLANNING, Phase.DRIVING)
                words = f"{self.names[seat]}'s car on {self.space_words(space)}"
                yield element(
                    "g",
                    {
                        "class": f"car seat-{seat}",
                        "opacity": "0.5" if gone else None,
                        "data-piece": f"car-{seat}",
                        "data-path": self.path(seat, x, y),
                    },
                    self.car(x, y, seat, words + (", out of this run" if gone else "")),
                )
            seat = seats[-1]
            if self.deltas[seat]:
                x, y, nx, ny = self.car_at(seat, len(seats) - 1)
                delta = self.deltas[seat]
                color = _GAIN if delta > 0 else _RED
                if self.narrow:  # over the car, never past the picture's edge
                    x, y, nx, ny = min(max(x, 26.0), self.width - 26), y - 24, 0.0, 1.0
                yield _label(
                    x + nx * (12 + 20 * abs(nx)),
                    y + ny * 14 + 4,
                    _signed(delta),
                    10,
                    font_weight="bold",
                    text_anchor="middle",
                    fill=color,
                )

    def path(self, seat: int, x: float, y: float) -> str | None:
        """Where ``seat``'s car passed in the last move, when it drove (A11): the JSON list of
        its centre's points on each road space from its start to where it stands, ``(x, y)``,
        a point where a hop landed on another car and went on (a leapfrog) marked by a third
        value ``1``; for a page that shows the drive space by space."""
        view = self.view
        if view.marker is None or any(isinstance(e, EventMarkerPlaced) for e in self.last):
            return None
        length = self.board.track_length
        for event in self.last:
            if isinstance(event, CarMoved) and event.seat == seat:
                points: list[list[float]] = []
                out = _SPACE_R + 6 + _CAR_H / 2
                for distance in range(event.start, event.hops[-1]):
                    hx, hy, nx, ny = self.loop.at((view.marker + distance) % length)
                    point = [_r(hx + nx * out), _r(hy + ny * out)]
                    points.append([*point, 1] if distance in event.hops else point)
                points.append([_r(x), _r(y)])
                return json.dumps(points, separators=(",", ":"))
        return None

    def hops(self) -> Iterator[ET.Element]:
        """The last car that drove (A11): an arrow per hop, a ring in its colour where it
        landed on another car and went on."""
        view = self.view
        if view.marker is None or any(isinstance(e, EventMarkerPlaced) for e in self.last):
            return  # the hops were measured from a marker that has moved since
        length = self.board.track_length
        for event in self.last:
            if not isinstance(event, CarMoved):
                continue
            color = self.colors[event.seat]
            spaces = [(view.marker + d) % length for d in (event.start, *event.hops)]
            for index, (begin, end) in enumerate(itertools.pairwise(spaces)):
                yield self.hop(begin, end, color)
                if index < len(event.bumped):
                    x, y, _, _ = self.loop.at(end)
                    yield _shape(
                        "circle",
                        f"{self.names[event.seat]}'s car met {self.names[event.bumped[index]]}'s",
                        class_="bump",
                        cx=x,
                        cy=y,
                        r=_SPACE_R + 3,
                        fill="none",
                        stroke=color,
                        stroke_width=2,
                    )

    def hop(self, begin: int, end: int, color: str) -> ET.Element:
        """An arrow from road space ``begin`` to ``end``, bowed in towards the island."""
        x0, y0, n0x, n0y = self.loop.at(begin)
        x1, y1, n1x, n1y = self.loop.at(end)
        steps = (end - begin) % self.board.track_length or self.board.track_length
        bow = min(30.0 + 6 * steps, self.loop.radius * 0.8)
        bend = (x0 + x1 - (n0x + n1x) * bow) / 2, (y0 + y1 - (n0y + n1y) * bow) / 2
        start = x0 - n0x * _SPACE_R, y0 - n0y * _SPACE_R
        end_at = x1 - n1x * (_SPACE_R + 2), y1 - n1y * (_SPACE_R + 2)
        return _arrow(start, bend, end_at, color, "hop")

    # -- the island path (A5) ------------------------------------------------------------------

    def cell(self, spot: int) -> tuple[float, float]:
        """The top left corner of island space ``spot``: rows run right, left, right, ..."""
        row, column = divmod(spot, self.columns)
        if row % 2:
            column = self.columns - 1 - column
        left = self.island_left
        top = self.island_top + 16
        return left + column * (_CELL_W + _CELL_GAP), top + row * (_CELL_H + _ROW_GAP)

    def island(self) -> Iterator[ET.Element]:
        """The island path: its spaces with their prices (a dash where there is none), the dream
        island in gold, the figures, and how the figures moved in the last move (A5, A17, A19,
        A22)."""
        board, view = self.board, self.view
        left, top = self.island_left, self.island_top
        yield _label(left, top + 10, "Island path", 11, font_weight="bold")
        corners = [self.cell(spot) for spot in range(len(board.island))]
        path = " L".join(f"{_r(x + _CELL_W / 2)},{_r(y + _CELL_H / 2)}" for x, y in corners)
        yield _shape("path", d=f"M{path}", fill="none", stroke="#b8a77a", stroke_width=6)
        dream = board.dream_island_start
        for spot, price in enumerate(board.island):
            x, y = corners[spot]
            is_dream = spot >= dream
            worth = "start" if spot == 0 else "no price" if price is None else _money(price)
            words = f"island space {spot}: {worth}" + (", dream island" if is_dream else "")
            parts = [
                _shape(
                    "rect",
                    words,
                    class_="island-space dream" if is_dream else "island-space",
                    x=x,
                    y=y,
                    width=_CELL_W,
                    height=_CELL_H,
                    rx=6,
                    fill=_DREAM_FILL if is_dream else _ISLAND_FILL,
                    stroke=_DREAM_INK if is_dream else "#a39370",
                    stroke_width=2 if is_dream else 1,
                ),
                _label(x + _CELL_W / 2, y + 14, "\u2013" if price is None else _short(price), 11),
            ]
            if spot == 0:
                parts[-1] = _label(x + _CELL_W / 2, y + 14, "start", 11)
            if self.labels:
                parts.append(_label(x + _CELL_W / 2, y + _CELL_H + 12, str(spot), 11, fill=_MUTED))
            here = [seat for seat in range(self.players) if view.island[seat] == spot]
            for place, seat in enumerate(here):
                row, column = divmod(place, 3)
                parts.append(
                    _shape(
                        "circle",
                        f"{self.names[seat]}'s figure",
                        class_=f"figure seat-{seat}",
                        data_piece=f"figure-{seat}",
                        cx=x + 8 + column * 12.0,
                        cy=y + 23 + row * 12.0,
                        r=5.5,
                        fill=self.colors[seat],
                        stroke=_INK,
                        stroke_width=0.8,
                    )
                )
            yield element("g", {"text-anchor": "middle"}, parts)
        x, y = corners[-1]
        yield _label(
            x + _CELL_W / 2,
            y + _CELL_H + 25,
            "dream island",
            11,
            font_style="italic",
            text_anchor="middle",
            fill=_DREAM_INK,
        )
        if self.narrow:
            yield from self.narrow_legend(left, top + self.island_h - 40)
        else:
            yield from self.legend(min(left, self.loop.cx - 170), top + self.island_h - 4)
        for event in self.last:
            if not isinstance(event, FigureAdvanced | FigureRetreated | Invested):
                continue
            if event.from_space == event.to_space:
                continue
            (x0, y0), (x1, y1) = corners[event.from_space], corners[event.to_space]
            x0, y0, x1, y1 = x0 + _CELL_W / 2, y0 + 30, x1 + _CELL_W / 2, y1 + 30
            bend = (x0 + x1) / 2, (y0 + y1) / 2 - 28
            yield _arrow((x0, y0), bend, (x1, y1), self.colors[event.seat], "figure-move")

    def legend(self, x: float, y: float) -> Iterator[ET.Element]:
        """What the road's marks mean."""
        yield _shape("circle", cx=x + 6, cy=y - 4, r=6.0, fill=_TOLL_FILL[1], stroke="#555")
        yield _label(x + 16, y, "toll", 11, fill=_MUTED)
        yield _shape(
            "rect",
            x=x + 46,
            y=y - 10,
            width=12,
            height=12,
            rx=2,
            fill=_PARKING_FILL,
            stroke=_PARKING_INK,
        )
        yield _label(x + 64, y, "parking lot: ATM pays between runs", 11, fill=_MUTED)
        yield _shape(
            "circle",
            cx=x + 276,
            cy=y - 4,
            r=6.0,
            fill="none",
            stroke=_INK,
            stroke_width=2,
            stroke_dasharray="3 2",
        )
        yield _label(x + 286, y, "event marker", 11, fill=_MUTED)

    def narrow_legend(self, x: float, y: float) -> Iterator[ET.Element]:
        """What the road's marks mean, a line each (the narrow picture)."""
        yield _shape("circle", cx=x + 6, cy=y - 4, r=6.0, fill=_TOLL_FILL[1], stroke="#555")
        yield _label(x + 18, y, "toll", 11, fill=_MUTED)
        yield _shape(
            "rect",
            x=x,
            y=y + 8,
            width=12,
            height=12,
            rx=2,
            fill=_PARKING_FILL,
            stroke=_PARKING_INK,
        )
        yield _label(x + 18, y + 18, "parking lot: ATM pays between runs", 11, fill=_MUTED)
        yield _shape(
            "circle",
            cx=x + 6,
            cy=y + 32,
            r=6.0,
            fill="none",
            stroke=_INK,
            stroke_width=2,
            stroke_dasharray="3 2",
        )
        yield _label(x + 18, y + 36, "event marker", 11, fill=_MUTED)

    # -- the seats, the hand, the last move ----------------------------------------------------

    def seats(self) -> Iterator[ET.Element]:
        """A row per seat: its car and name, cash (with the last move's change), island space,
        distance driven, hand size, laid card (face down, or face up to its owner), and what it
        is doing (A30: cash, positions and counts are public)."""
        view = self.view
        if self.narrow:
            yield from self.narrow_seats()
            return
        for x, word, anchor in _HEADS:
            yield _label(x, self.table_top + 12, word, 11, fill=_MUTED, text_anchor=anchor)
        for seat, name in enumerate(self.names):
            row = self.table_top + 22 + seat * _ROW
            mid, you = row + _ROW / 2, seat == view.seat
            shown = name + " (you)" if you else name
            if len(shown) > _NAME_LENGTH:
                shown = name[: _NAME_LENGTH - (7 if you else 1)] + "\u2026" + shown[len(name) :]
            parts = [
                _shape(
                    "rect",
                    x=12,
                    y=row + 2,
                    width=self.width - 24,
                    height=_ROW - 4,
                    rx=5,
                    fill="#f2f2f2" if seat in view.waiting else _PAPER,
                    stroke=_INK if you else "#ddd",
                    stroke_width=1.5 if you else 1,
                ),
                *self.car(31, mid, seat),
                _label(_NAME, mid + 4, shown, 12, font_weight="bold" if you else None),
                _label(
                    _CASH,
                    mid + 4,
                    _money(view.cash[seat]),
                    12,
                    text_anchor="end",
                    data_piece=f"cash-{seat}",
                ),
                _label(_ISLAND, mid + 4, str(view.island[seat]), 12, text_anchor="end"),
                _label(_DRIVEN, mid + 4, str(view.distances[seat]), 12, text_anchor="end"),
                _label(_NOW, mid + 4, self.status(seat), 11),
            ]
            delta = self.deltas[seat]
            if delta:
                parts.append(
                    _label(
                        _CASH + 6,
                        mid + 4,
                        _signed(delta),
                        11,
                        font_weight="bold",
                        fill=_GAIN if delta > 0 else _RED,
                    )
                )
            count = view.hand_sizes[seat]
            shown_cards = min(count, 5)
            parts += [self.back(_CARDS + index * 9, mid - 9) for index in range(shown_cards)]
            parts.append(_label(_CARDS + shown_cards * 9 + 8, mid + 4, str(count), 11, fill=_MUTED))
            if you and view.laid is not None:
                card, number = view.laid
                parts.append(self.badge(_LAID + 8, mid, number))
                parts.append(_label(_LAID + 22, mid + 4, f"card {card}", 11))
            elif view.has_laid[seat]:
                parts.append(self.back(_LAID, mid - 9, "a card laid face down"))
            yield element("g", {}, parts)

    def narrow_seats(self) -> Iterator[ET.Element]:
        """The narrow picture's row per seat, in three lines: car, name, cash and the last
        move's change; island space, distance, hand and laid card; what it is doing."""
        view = self.view
        for seat, name in enumerate(self.names):
            row = self.table_top + seat * _NARROW_ROW
            you = seat == view.seat
            shown = name + " (you)" if you else name
            if len(shown) > 22:
                shown = name[: 22 - (7 if you else 1)] + "\u2026" + shown[len(name) :]
            first, second = row + 20, row + 40
            parts = [
                _shape(
                    "rect",
                    x=8,
                    y=row + 2,
                    width=self.width - 16,
                    height=_NARROW_ROW - 4,
                    rx=5,
                    fill="#f2f2f2" if seat in view.waiting else _PAPER,
                    stroke=_INK if you else "#ddd",
                    stroke_width=1.5 if you else 1,
                ),
                *self.car(22, first - 4, seat),
                _label(36, first, shown, 13, font_weight="bold" if you else None),
                _label(
                    286,
                    first,
                    _money(view.cash[seat]),
                    13,
                    text_anchor="end",
                    data_piece=f"cash-{seat}",
                ),
                _label(36, second, f"island {view.island[seat]}", 12),
                _label(104, second, f"driven {view.distances[seat]}", 12),
                _label(36, row + 58, self.status(seat), 12, fill=_MUTED),
            ]
            delta = self.deltas[seat]
            if delta:
                parts.append(
                    _label(
                        290,
                        first,
                        _signed(delta),
                        11,
                        font_weight="bold",
                        fill=_GAIN if delta > 0 else _RED,
                    )
                )
            count = view.hand_sizes[seat]
            shown_cards = min(count, 5)
            parts += [self.back(188 + index * 9, second - 13) for index in range(shown_cards)]
            parts.append(_label(188 + shown_cards * 9 + 6, second, str(count), 12, fill=_MUTED))
            if you and view.laid is not None:
                card, number = view.laid
                parts.append(self.badge(270, second - 4, number))
                parts.append(_label(282, second, f"card {card}", 11))
            elif view.has_laid[seat]:
                parts.append(self.back(270, second - 13, "a card laid face down"))
            yield element("g", {}, parts)

    def back(self, x: float, y: float, title: str | None = None) -> ET.Element:
        """A card face down."""
        return _shape(
            "rect",
            title,
            class_="card-back",
            x=x,
            y=y,
            width=12,
            height=18,
            rx=2,
            fill=_CARD_BACK,
            stroke=_PAPER,
        )

    def badge(
        self, x: float, y: float, number: int, *, chosen: bool = False, hook: bool = False
    ) -> ET.Element:
        """A card's number: yellow (1-3, a card is drawn after driving it) or red (4-7) (A3, A13);
        ringed when it is the number chosen for a laid card (A8); with ``hook``, marked as the
        number a click on it lays the card for."""
        yellow = is_yellow(number)
        return element(
            "g",
            {"data-number": number if hook else None},
            [
                _shape(
                    "circle",
                    cx=x,
                    cy=y,
                    r=8,
                    fill=_YELLOW if yellow else _RED,
                    stroke=_INK if chosen else None,
                    stroke_width=2.5 if chosen else None,
                ),
                _label(
                    x,
                    y + 4,
                    str(number),
                    11,
                    font_weight="bold",
                    text_anchor="middle",
                    fill=_INK if yellow else _PAPER,
                ),
            ],
        )

    def hand(self) -> Iterator[ET.Element]:
        """The viewing seat's own cards, face up, and its laid card with the number it chose
        (A8, A30); nothing for a spectator."""
        view = self.view
        if view.hand is None:
            return
        y = self.hand_top
        yield _label(16, y + 12, "Your hand", 12, font_weight="bold")
        cards: list[tuple[int, int | None]] = [(card, None) for card in view.hand]
        if view.laid is not None:
            cards.append(view.laid)
        if not cards:
            yield _label(16, y + 34, "no cards", 11, fill=_MUTED)
        for index, (card, chosen) in enumerate(cards):
            x = 16 + index * 92 + (14 if chosen is not None else 0)
            if self.narrow:  # four to a line, the laid card on a line of its own
                line, column = divmod(index, _NARROW_HAND)
                if chosen is not None:
                    line, column = -(-len(view.hand) // _NARROW_HAND), 0
                x, y = (
                    16 + column * 84 + (14 if chosen is not None else 0),
                    self.hand_top + 96 * line,
                )
            parts = [
                _shape(
                    "rect",
                    self.card_words(card),
                    x=x,
                    y=y + 20,
                    width=78,
                    height=58,
                    rx=6,
                    fill=_PAPER,
                    stroke=_INK,
                    stroke_width=1.2,
                    stroke_dasharray=None if chosen is None else "4 2",
                ),
                _label(x + 39, y + 36, f"card {card}", 11, text_anchor="middle"),
            ]
            for place, number in enumerate(self.deck.cards[card].numbers):
                parts.append(
                    self.badge(
                        x + 17 + place * 22,
                        y + 56,
                        number,
                        chosen=number == chosen,
                        hook=chosen is None,
                    )
                )
            if chosen is not None:
                parts.append(
                    _label(x + 39, y + 91, f"laid: drive {chosen}", 11, text_anchor="middle")
                )
            # A click on a card in hand (or on one of its numbers) lays it (A8).
            hook = {"data-command": "PlayCard", "data-card": card} if chosen is None else {}
            yield element("g", {"class": "card" if chosen is None else "card laid", **hook}, parts)

    def last_words(self) -> Iterator[ET.Element]:
        """The last move in words, as :func:`~avanti.describe` tells it."""
        if self.last_lines:
            y = self.last_top
            yield _label(16, y + 14, "Last move", 12, font_weight="bold")
            for index, line in enumerate(self.last_lines):
                yield _label(16, y + 32 + index * 16, line, 11)
