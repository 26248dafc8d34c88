"""Avanti mare! as an SVG picture: the river, the boat, the four fish and the sea, from a view.

:func:`picture` draws a :class:`~avanti.mare.View` (a seat's or a spectator's, never a state), so
it shows exactly what the view holds. Everything on this table is public (M1-M8); the only secret
of the game, the seed of the die (M3), is in no view and so in no picture::

    from avanti import mare

    game = mare.new_game(["Ann", "Bob"])
    game = game.execute(mare.Roll(seat=0))
    mare.picture(game.view(1), table=game.public_setup, last=game.last_events(1))

Drawn left to right as the rulebook lays the river out (M1): the pieces the boat has taken away
(dashed, in its wake), the boat with every caught fish in it (M5, M7), the river pieces still
there, numbered 1-11 from the boat's side, each with the fish on it (M4), and the sea with the
free fish (M4). Above the river: whose turn it is, or the result (M8), and the last die face
(M3); below it: the last command in words and each player's name, colour and side (M2).

The picture is a :class:`~avanti.core.svg.Svg` (a ``str`` that a notebook draws), with a
``<title>`` and a ``<desc>`` that say the same position in words for screen readers.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from avanti import core
from avanti.core.svg import SEAT_COLORS, Svg, document, element, text
from avanti.mare.events import (
    DieRolled,
    Event,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    GameEnded,
    MoveDeclined,
    MoveOffered,
    PieceRemoved,
    RollIgnored,
)
from avanti.mare.setup import CAUGHT, FISH, PIECES, SEA, Face, Fish, Options, PublicSetup, Side
from avanti.mare.state import Result
from avanti.mare.views import View

__all__ = ["FACE_COLORS", "picture"]

FACE_COLORS: dict[Face, str] = {
    Face.BLUE: "#2f6fd0",
    Face.ORANGE: "#f08a24",
    Face.YELLOW: "#f4d03f",
    Face.PINK: "#f27eb6",
    Face.RED: "#d62828",
    Face.GREEN: "#2a9d40",
}
"""The fill of each die face (M3), and of the fish of the four fish colours (M1)."""

_FISH_COLORS = {fish: FACE_COLORS[Face(fish.value)] for fish in FISH}
_SIDES = {Side.FISH_FRIENDS: "fish friends", Side.FISHER_FANS: "fisher fans"}
_INK = "#1d2b36"
_FAINT = "#7a8793"

# The geometry, in user units: the river's band, the boat's large piece and the small pieces.
_WIDTH = 800.0
_LEFT = 20.0
_TOP = 84.0
_BAND = 128.0
_BOAT = 84.0
_PIECE = 52.0
_SEA_X = _LEFT + _BOAT + PIECES * _PIECE
_SEA_WIDTH = _WIDTH - _LEFT - _SEA_X
_FISH_STEP = 28.0
_CELL = 250.0
_ROW = 46.0


def picture(
    view: View,
    *,
    table: PublicSetup | None = None,
    size: float | None = None,
    colors: Sequence[str] = SEAT_COLORS,
    labels: bool = True,
    last: Sequence[Event] = (),
    layout: str = "wide",
) -> Svg:
    """The table of ``view`` as an SVG picture (M1-M8).

    ``table`` is the game's public setup (:attr:`avanti.mare.Game.public_setup`): with it, each
    seat is shown by its player's name, else as "Seat 0", "Seat 1" and so on. ``size`` is the
    width in pixels (default 800; the height follows). ``colors`` gives each seat its colour, in
    seat order (repeated if there are more seats than colours). ``labels=False`` leaves out the
    piece numbers, the letters on the fish and the names of the places (boat, sea, taken), for a
    small picture; the players, the turn and the result are always written. ``last`` is the
    events of the last command as the view's seat saw them
    (:meth:`~avanti.core.game.Game.last_events`): its die face is shown, each fish's swim drawn
    as an arrow, each piece taken away crossed out, and the command written in words.
    ``layout="narrow"`` draws the same table for a phone's width (360 units wide, no text under
    12 units, so at 364 pixels every letter is at least 11 pixels high): the river runs down the
    picture, the taken pieces and the boat on top and the sea at the bottom, the fish of a piece
    side by side, the last command wrapped over lines and the players one under another. Its
    pieces carry the same ``data-piece`` and ``data-seat`` attributes as the wide picture's.

    :raises InvalidArgument: ``colors`` is empty, ``layout`` is neither ``"wide"`` nor
        ``"narrow"``, or ``table`` is not the table of ``view`` (another count of players, or
        other sides).
    """
    if not colors:
        raise core.InvalidArgument("colors must name at least one colour")
    if layout not in ("wide", "narrow"):
        raise core.InvalidArgument(f'layout must be "wide" or "narrow", not {layout!r}')
    if table is not None and tuple(table.sides) != view.sides:
        raise core.InvalidArgument(
            f"the table has {len(table.players)} players with other sides than the view's "
            f"{len(view.sides)} seats"
        )
    names = _names(view, table)
    if layout == "narrow":
        return _narrow(view, names, colors, labels, last, size, named=table is not None)
    rows = (len(view.sides) + 2) // 3
    height = _TOP + _BAND + 48 + rows * _ROW
    body = [
        element("rect", {"width": _WIDTH, "height": _num(height), "fill": "#f7fbfc"}),
        _defs(),
        *_header(view, names, last),
        *_river(view, labels),
        *_last_command(last),
        text(
            _LEFT,
            _TOP + _BAND + 26,
            _words_of_last(last, names, view.options),
            font_size=14,
            fill=_INK,
        ),
        *_seats(view, names, colors),
    ]
    rules = _options_line(view.options)
    if rules:
        body.append(text(_LEFT, height + 4, rules, font_size=12, fill=_FAINT))
        height += 16
    return document(
        _WIDTH,
        height,
        body,
        title=f"Avanti mare!: {_status(view, names)}",
        description=_description(view, names, last, named=table is not None),
        size=size,
    )


# -- words -----------------------------------------------------------------------------------


def _names(view: View, table: PublicSetup | None) -> tuple[str, ...]:
    if table is not None:
        return tuple(table.players)
    return tuple(f"Seat {seat}" for seat in range(len(view.sides)))


def _place(view: View, fish: Fish) -> str:
    place = view.fish[fish.slot]
    if place == SEA:
        return f"the {fish} fish is free in the sea"
    if place == CAUGHT:
        return f"the {fish} fish is caught in the boat"
    return f"the {fish} fish is on piece {place}"


def _status(view: View, names: tuple[str, ...]) -> str:
    """Whose turn it is and what for (M2, M6), or the result (M8)."""
    if view.result is not None:
        return _result(view)
    name = names[view.turn]
    if view.move_due:
        may = "must" if view.options.free_fish_move_owed else "may"
        return f"{name} {may} move another fish"
    return f"{name} to roll"


def _result(view: View) -> str:
    free = sum(place == SEA for place in view.fish)
    caught = sum(place == CAUGHT for place in view.fish)
    counts = f"{free} fish free, {caught} caught"
    if view.result is Result.DRAW:
        return f"a draw ({counts})"
    winner = Side.FISH_FRIENDS if view.result is Result.FISH else Side.FISHER_FANS
    return f"the {_SIDES[winner]} win ({counts})"


def _river_words(view: View) -> str:
    if view.boat == PIECES:
        return "Every river piece is taken: the boat has reached the sea."
    taken = (
        "no piece is taken yet"
        if view.boat == 0
        else "piece 1 is taken"
        if view.boat == 1
        else f"pieces 1-{view.boat} are taken"
    )
    left = PIECES - view.boat
    return (
        f"River: {taken}; the boat stands before piece {view.boat + 1}; "
        f"{left} piece{'s' if left != 1 else ''} left."
    )


def _description(view: View, names: tuple[str, ...], last: Sequence[Event], *, named: bool) -> str:
    """The position in words: the river, each fish, the players, the turn, the last command."""
    if view.seat is None:
        seen = "a spectator"
    else:
        seen = f"{names[view.seat]} (seat {view.seat})" if named else f"seat {view.seat}"
    fish = "; ".join(_place(view, f) for f in FISH)
    players = ", ".join(
        (f"{name} (seat {seat}, {_SIDES[side]})" if named else f"{name} ({_SIDES[side]})")
        for seat, (name, side) in enumerate(zip(names, view.sides, strict=True))
    )
    status = _status(view, names)
    parts = [
        f"Avanti mare! as {seen} sees it.",
        _river_words(view),
        fish[0].upper() + fish[1:] + ".",
        f"Players: {players}.",
        ("Game over: " if view.result is not None else "Now: ") + status + ".",
    ]
    if last:
        parts.append(_words_of_last(last, names, view.options))
    if _options_line(view.options):
        parts.append(_options_line(view.options) + ".")
    return " ".join(parts)


def _words_of_last(last: Sequence[Event], names: tuple[str, ...], options: Options) -> str:
    """The last command in words, one clause per event."""
    if not last:
        return "No command yet."
    clauses = [_clause(event, names, options) for event in last]
    return "Last: " + "; ".join(clauses) + "."


def _clause(event: Event, names: tuple[str, ...], options: Options) -> str:
    if isinstance(event, DieRolled):
        return f"{names[event.seat]} rolled {event.face}"
    if isinstance(event, FishChosen):
        return f"{names[event.seat]} moved the {event.fish} fish"
    if isinstance(event, MoveDeclined):
        return f"{names[event.seat]} moved no fish"
    if isinstance(event, FishSwam):
        return f"the {event.fish} fish swam to piece {event.piece}"
    if isinstance(event, FishFreed):
        return f"the {event.fish} fish swam into the sea"
    if isinstance(event, PieceRemoved):
        return f"piece {event.piece} was taken away"
    if isinstance(event, FishCaught):
        return f"the {event.fish} fish was caught"
    if isinstance(event, MoveOffered):
        may = "must" if options.free_fish_move_owed else "may"
        return f"the {event.free} fish is free: {names[event.seat]} {may} move another fish"
    if isinstance(event, RollIgnored):
        return f"{event.face} did nothing" + (", roll again" if event.again else "")
    if isinstance(event, GameEnded):
        return "the game is over"
    return f"{names[event.seat]}'s turn"  # TurnPassed


def _options_line(options: Options) -> str:
    """The readings of the rules that differ from the rulebook's (M9), or ``""``."""
    default = Options()
    parts = []
    if options.boat_faces != default.boat_faces:
        faces = " and ".join(str(face) for face in options.boat_faces)
        parts.append(f"the boat moves on {faces}" if faces else "the boat never moves")
    if options.caught_fish_roll != default.caught_fish_roll:
        parts.append(f"a caught fish's colour: {options.caught_fish_roll}")
    if options.free_fish_roll != default.free_fish_roll:
        parts.append(f"a free fish's colour: {options.free_fish_roll}")
    if options.free_fish_move_owed != default.free_fish_move_owed:
        parts.append("the move of M6 is owed")
    return ("Rules (M9): " + "; ".join(parts)) if parts else ""


# -- drawing ---------------------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _defs() -> ET.Element:
    arrow = element(
        "marker",
        {
            "id": "mare-arrow",
            "viewBox": "0 0 10 10",
            "refX": 9,
            "refY": 5,
            "markerWidth": 5,
            "markerHeight": 5,
            "orient": "auto-start-reverse",
        },
        [element("path", {"d": "M0 0L10 5L0 10z", "fill": _INK})],
    )
    return element("defs", {}, [arrow])


def _header(view: View, names: tuple[str, ...], last: Sequence[Event]) -> list[ET.Element]:
    status = _status(view, names)
    if view.result is not None:
        status = "Game over: " + status
    nodes = [
        text(_LEFT, 30, "Avanti mare!", font_size=20, font_weight="bold", fill=_INK),
        text(_LEFT, 54, status, font_size=16, fill=_INK, font_weight="bold"),
    ]
    rolled = [event for event in last if isinstance(event, DieRolled)]
    if rolled:
        face = rolled[-1].face
        x = _WIDTH - _LEFT - 44
        nodes += [
            text(
                x - 10,
                40,
                f"{names[rolled[-1].seat]} rolled {face}",
                font_size=14,
                fill=_INK,
                text_anchor="end",
            ),
            element(
                "rect",
                {
                    "x": x,
                    "y": 14,
                    "width": 44,
                    "height": 44,
                    "rx": 8,
                    "fill": FACE_COLORS[face],
                    "stroke": _INK,
                    "stroke-width": 2,
                },
                [element("title", content=f"the die shows {face}")],
            ),
        ]
    return nodes


def _fish(fish: Fish, x: float, y: float, labels: bool, scale: float = 1.0) -> ET.Element:
    """A fish facing the sea (to the right), centred on ``(x, y)``, with its initial."""
    body = element(
        "ellipse",
        {"cx": 3, "cy": 0, "rx": 14, "ry": 9, "fill": _FISH_COLORS[fish], "stroke": _INK},
    )
    tail = element("path", {"d": "M-9 0L-19 -8L-19 8z", "fill": _FISH_COLORS[fish], "stroke": _INK})
    eye = element("circle", {"cx": 12, "cy": -2.5, "r": 1.6, "fill": _INK})
    parts = [element("title", content=f"{fish} fish"), tail, body, eye]
    if labels:
        parts.append(
            text(
                -1,
                4,
                fish.value[0].upper(),
                font_size=11,
                font_weight="bold",
                text_anchor="middle",
                fill=_INK,
            )
        )
    transform = f"translate({_num(x)} {_num(y)})" + (f" scale({_num(scale)})" if scale != 1 else "")
    hook = {"data-command": "MoveFish", "data-fish": fish.value}  # a click moves it (M4)
    piece = {"data-piece": f"fish-{fish.value}"}  # the same fish in every picture, as it swims
    return element("g", {"transform": transform, **hook, **piece}, parts)


def _piece_x(piece: int) -> float:
    """The left edge of river piece ``piece`` (1-11)."""
    return _LEFT + _BOAT + (piece - 1) * _PIECE


def _river(view: View, labels: bool) -> list[ET.Element]:
    nodes: list[ET.Element] = []

    def label(x: float, y: float, words: str, **attributes: object) -> None:
        if labels:
            nodes.append(text(x, y, words, **attributes))

    bottom = _TOP + _BAND
    # The sea, where free fish swim (M4).
    nodes.append(
        element(
            "rect",
            {
                "x": _SEA_X,
                "y": _TOP - 6,
                "width": _SEA_WIDTH,
                "height": _BAND + 12,
                "rx": 14,
                "fill": "#2b7bb9",
            },
        )
    )
    label(
        _SEA_X + _SEA_WIDTH / 2,
        bottom - 8,
        "sea",
        font_size=13,
        fill="#ffffff",
        text_anchor="middle",
    )
    free = [fish for fish in FISH if view.fish[fish.slot] == SEA]
    for index, fish in enumerate(free):
        nodes.append(
            _fish(fish, _SEA_X + _SEA_WIDTH / 2 + 2, _TOP + 18 + index * _FISH_STEP, labels)
        )
    # The pieces taken away, in the boat's wake (M5).
    for piece in range(1, view.boat + 1):
        x = _LEFT + (piece - 1) * _PIECE
        nodes.append(
            element(
                "rect",
                {
                    "x": x + 3,
                    "y": _TOP + 3,
                    "width": _PIECE - 6,
                    "height": _BAND - 6,
                    "rx": 6,
                    "fill": "none",
                    "stroke": _FAINT,
                    "stroke-dasharray": "4 4",
                },
            )
        )
        label(
            x + _PIECE / 2, bottom - 10, str(piece), font_size=13, fill=_FAINT, text_anchor="middle"
        )
    if view.boat:
        label(
            _LEFT + view.boat * _PIECE / 2,
            _TOP - 8,
            "taken",
            font_size=12,
            fill=_FAINT,
            text_anchor="middle",
        )
    # The pieces still in the river, each with its fish (M1, M4).
    for piece in range(view.boat + 1, PIECES + 1):
        x = _piece_x(piece)
        nodes.append(
            element(
                "rect",
                {
                    "x": x + 2,
                    "y": _TOP,
                    "width": _PIECE - 4,
                    "height": _BAND,
                    "rx": 6,
                    "fill": "#bfe3ef",
                    "stroke": "#5f9fb5",
                },
            )
        )
        label(x + _PIECE / 2, bottom - 8, str(piece), font_size=13, fill=_INK, text_anchor="middle")
        here = [fish for fish in FISH if view.fish[fish.slot] == piece]
        for index, fish in enumerate(here):
            nodes.append(_fish(fish, x + _PIECE / 2 + 2, _TOP + 18 + index * _FISH_STEP, labels))
    nodes.extend(_boat(view, labels))
    return nodes


def _boat(view: View, labels: bool) -> list[ET.Element]:
    """The boat's large piece, moved up by the pieces taken (M5), the caught fish in it."""
    x = _LEFT + view.boat * _PIECE
    bottom = _TOP + _BAND
    hull = [
        element(
            "rect",
            {
                "x": x + 2,
                "y": _TOP,
                "width": _BOAT - 4,
                "height": _BAND,
                "rx": 8,
                "fill": "#e8d9c0",
                "stroke": "#8d6e4a",
            },
        ),
        element(
            "path",
            {
                "d": f"M{_num(x + 8)} {_num(bottom - 44)}H{_num(x + _BOAT - 8)}"
                f"L{_num(x + _BOAT - 18)} {_num(bottom - 22)}H{_num(x + 18)}z",
                "fill": "#8d5a3b",
                "stroke": _INK,
            },
            [element("title", content="the fishers' boat")],
        ),
    ]
    for offset in (26, 58):  # the two fishers (M1)
        hull.append(
            element(
                "circle",
                {
                    "cx": _num(x + offset),
                    "cy": bottom - 49,
                    "r": 6,
                    "fill": "#34495e",
                    "stroke": _INK,
                },
            )
        )
    nodes = [element("g", {"data-piece": "boat"}, hull)]  # the boat and its fishers, as it moves
    caught = [fish for fish in FISH if view.fish[fish.slot] == CAUGHT]
    for index, fish in enumerate(caught):
        column, row = index % 2, index // 2
        nodes.append(_fish(fish, x + 24 + column * 38, _TOP + 16 + row * 24, labels, scale=0.8))
    if labels:
        nodes.append(
            text(x + _BOAT / 2, bottom - 6, "boat", font_size=13, fill=_INK, text_anchor="middle")
        )
    return nodes


def _centre(place: int) -> float:
    """The x of the middle of a river piece (1-11) or of the sea (12)."""
    if place == SEA:
        return _SEA_X + _SEA_WIDTH / 2
    return _piece_x(place) + _PIECE / 2


def _last_command(last: Sequence[Event]) -> list[ET.Element]:
    """Arrows for each swim of the last command (M4, M6), a cross on each piece taken (M5)."""
    nodes: list[ET.Element] = []
    y = _TOP - 12
    for event in last:
        if isinstance(event, FishSwam | FishFreed):
            to = event.piece if isinstance(event, FishSwam) else SEA
            start, end = _centre(to - 1), _centre(to) - 6
            nodes.append(
                element(
                    "path",
                    {
                        "d": f"M{_num(start)} {_num(y)}Q{_num((start + end) / 2)} {_num(y - 18)} "
                        f"{_num(end)} {_num(y)}",
                        "fill": "none",
                        "stroke": _FISH_COLORS[event.fish],
                        "stroke-width": 3,
                        "marker-end": "url(#mare-arrow)",
                    },
                    [element("title", content=f"the {event.fish} fish swam")],
                )
            )
        elif isinstance(event, PieceRemoved):
            x = _LEFT + (event.piece - 1) * _PIECE
            left, right, top, low = x + 10, x + _PIECE - 10, _TOP + 10, _TOP + _BAND - 26
            cross = (
                f"M{_num(left)} {_num(top)}L{_num(right)} {_num(low)}"
                f"M{_num(right)} {_num(top)}L{_num(left)} {_num(low)}"
            )
            nodes.append(
                element(
                    "path",
                    {
                        "d": cross,
                        "stroke": "#d62828",
                        "stroke-width": 3,
                        "fill": "none",
                        "stroke-linecap": "round",
                    },
                    [element("title", content=f"piece {event.piece} was taken away")],
                )
            )
    return nodes


def _seats(view: View, names: tuple[str, ...], colors: Sequence[str]) -> list[ET.Element]:
    """Each player's colour, name and side (M2); whose turn it is; the winners (M8)."""
    nodes: list[ET.Element] = []
    winner = view.result.winner if view.result is not None else None
    top = _TOP + _BAND + 40
    for seat, (name, side) in enumerate(zip(names, view.sides, strict=True)):
        x = _LEFT + (seat % 3) * _CELL
        y = top + (seat // 3) * _ROW
        color = colors[seat % len(colors)]
        shown = name if len(name) <= 22 else name[:21] + "\u2026"
        notes = [_SIDES[side]]
        if seat == view.seat:
            notes.insert(0, "you")
        if view.result is None and seat == view.turn:
            notes.append("to move" if view.move_due else "to roll")
        if winner is not None and side is winner:
            notes.append("wins")
        turn = view.result is None and seat == view.turn
        children = [
            element(
                "rect",
                {
                    "x": x,
                    "y": y,
                    "width": _CELL - 10,
                    "height": _ROW - 6,
                    "rx": 6,
                    "fill": "#ffffff",
                    "stroke": color if turn else "#d5dde3",
                    "stroke-width": 3 if turn else 1,
                },
            ),
            element(
                "circle",
                {"cx": x + 16, "cy": y + _ROW / 2 - 3, "r": 8, "fill": color, "stroke": _INK},
            ),
            text(x + 32, y + 17, shown, font_size=14, font_weight="bold", fill=_INK),
            text(x + 32, y + 34, ", ".join(notes), font_size=12, fill=_INK),
        ]
        nodes.append(element("g", {"data-seat": seat}, children))
    return nodes


# -- the narrow layout: the river runs down a phone's screen -----------------------------------

_N_WIDTH = 360.0
_N_LEFT = 12.0
_N_BAND = _N_WIDTH - 2 * _N_LEFT - 36  # the river's width; its right margin holds the arrows
_N_BOAT = 84.0
_N_PIECE = 40.0
_N_SEA = 76.0
_N_FISH = 48.0
_N_SCALE = 1.15
"""The fish are drawn larger, so the letter on each is 12.65 units high."""
_N_ROW = 50.0
_N_LINE = 18.0
_N_TEXT = 12
"""The smallest text of the narrow picture, in user units."""


def _narrow(
    view: View,
    names: tuple[str, ...],
    colors: Sequence[str],
    labels: bool,
    last: Sequence[Event],
    size: float | None,
    *,
    named: bool,
) -> Svg:
    """The narrow picture (see :func:`picture`): header, river downwards, words, players."""
    status = _status(view, names)
    if view.result is not None:
        status = "Game over: " + status
    status_lines = textwrap.wrap(status, 34) or [""]
    nodes: list[ET.Element] = [
        _defs(),
        text(_N_LEFT, 26, "Avanti mare!", font_size=20, font_weight="bold", fill=_INK),
    ]
    y = 50.0
    for line in status_lines:
        nodes.append(text(_N_LEFT, y, line, font_size=16, font_weight="bold", fill=_INK))
        y += 20
    rolled = [event for event in last if isinstance(event, DieRolled)]
    if rolled:
        face = rolled[-1].face
        nodes.append(
            element(
                "rect",
                {
                    "x": _N_WIDTH - _N_LEFT - 40,
                    "y": 8,
                    "width": 40,
                    "height": 40,
                    "rx": 8,
                    "fill": FACE_COLORS[face],
                    "stroke": _INK,
                    "stroke-width": 2,
                },
                [element("title", content=f"the die shows {face}")],
            )
        )
        nodes.append(
            text(_N_LEFT, y, f"{names[rolled[-1].seat]} rolled {face}", font_size=14, fill=_INK)
        )
        y += 20
    top = y + 8
    nodes += _narrow_river(view, labels, top)
    nodes += _narrow_last(last, view.boat, top)
    y = top + view.boat * _N_PIECE + _N_BOAT + (PIECES - view.boat) * _N_PIECE + _N_SEA + 28
    for line in textwrap.wrap(_words_of_last(last, names, view.options), 40):
        nodes.append(text(_N_LEFT, y, line, font_size=14, fill=_INK))
        y += _N_LINE
    nodes += _narrow_seats(view, names, colors, y)
    y += len(view.sides) * _N_ROW + 6
    for line in textwrap.wrap(_options_line(view.options), 46):
        nodes.append(text(_N_LEFT, y + 6, line, font_size=_N_TEXT, fill=_FAINT))
        y += 16
    height = y + 4
    body = [element("rect", {"width": _N_WIDTH, "height": _num(height), "fill": "#f7fbfc"}), *nodes]
    return document(
        _N_WIDTH,
        height,
        body,
        title=f"Avanti mare!: {_status(view, names)}",
        description=_description(view, names, last, named=named),
        size=size,
    )


def _narrow_top(place: int, boat: int, top: float) -> float:
    """The top of river piece ``place`` (1-11), of the boat (0) or of the sea (12)."""
    if place == 0:
        return top + boat * _N_PIECE
    if place == SEA:
        return top + _N_BOAT + PIECES * _N_PIECE
    if place <= boat:
        return top + (place - 1) * _N_PIECE
    return top + _N_BOAT + (place - 1) * _N_PIECE


def _narrow_river(view: View, labels: bool, top: float) -> list[ET.Element]:
    """The taken pieces (dashed), the boat with its catch, the river pieces with their fish and
    the sea, from the top down (M1, M4, M5, M7)."""
    nodes: list[ET.Element] = []
    left, middle = _N_LEFT, _N_LEFT + 40
    for piece in range(1, PIECES + 1):
        y = _narrow_top(piece, view.boat, top)
        taken = piece <= view.boat
        nodes.append(
            element(
                "rect",
                {
                    "x": left,
                    "y": _num(y + 2),
                    "width": _N_BAND,
                    "height": _N_PIECE - 4,
                    "rx": 6,
                    "fill": "none" if taken else "#bfe3ef",
                    "stroke": _FAINT if taken else "#5f9fb5",
                    **({"stroke-dasharray": "4 4"} if taken else {}),
                },
            )
        )
        if labels:
            words = f"{piece} taken" if taken else str(piece)
            nodes.append(
                text(left + 8, y + 25, words, font_size=13, fill=_FAINT if taken else _INK)
            )
        here = [fish for fish in FISH if view.fish[fish.slot] == piece]
        for index, fish in enumerate(here):
            nodes.append(
                _fish(fish, middle + 40 + index * _N_FISH, y + _N_PIECE / 2, labels, _N_SCALE)
            )
    sea = _narrow_top(SEA, view.boat, top)
    nodes.append(
        element(
            "rect",
            {
                "x": left,
                "y": _num(sea),
                "width": _N_BAND,
                "height": _N_SEA,
                "rx": 14,
                "fill": "#2b7bb9",
            },
        )
    )
    if labels:
        nodes.append(text(left + 8, sea + _N_SEA - 10, "sea", font_size=13, fill="#ffffff"))
    free = [fish for fish in FISH if view.fish[fish.slot] == SEA]
    for index, fish in enumerate(free):
        nodes.append(_fish(fish, middle + 40 + index * _N_FISH, sea + 28, labels, _N_SCALE))
    y = _narrow_top(0, view.boat, top)
    hull = [
        element(
            "rect",
            {
                "x": left,
                "y": _num(y + 2),
                "width": _N_BAND,
                "height": _N_BOAT - 4,
                "rx": 8,
                "fill": "#e8d9c0",
                "stroke": "#8d6e4a",
            },
        ),
        element(
            "path",
            {
                "d": f"M{_num(left + 8)} {_num(y + 40)}H{_num(left + 96)}"
                f"L{_num(left + 84)} {_num(y + 62)}H{_num(left + 20)}z",
                "fill": "#8d5a3b",
                "stroke": _INK,
            },
            [element("title", content="the fishers' boat")],
        ),
        *(
            element(
                "circle",
                {
                    "cx": _num(left + offset),
                    "cy": _num(y + 34),
                    "r": 6,
                    "fill": "#34495e",
                    "stroke": _INK,
                },
            )
            for offset in (34, 70)
        ),
    ]
    nodes.append(element("g", {"data-piece": "boat"}, hull))
    if labels:
        nodes.append(text(left + 8, y + _N_BOAT - 8, "boat", font_size=13, fill=_INK))
    caught = [fish for fish in FISH if view.fish[fish.slot] == CAUGHT]
    for index, fish in enumerate(caught):
        column, row = index % 3, index // 3
        nodes.append(
            _fish(fish, left + 140 + column * _N_FISH, y + 24 + row * 30, labels, _N_SCALE)
        )
    return nodes


def _narrow_last(last: Sequence[Event], boat: int, top: float) -> list[ET.Element]:
    """Arrows down the river's right margin for each swim of the last command (M4, M6), a cross
    on each piece taken (M5), where the pieces lie now (``boat`` pieces taken)."""
    nodes: list[ET.Element] = []
    x = _N_LEFT + _N_BAND + 18
    for event in last:
        if isinstance(event, FishSwam | FishFreed):
            to = event.piece if isinstance(event, FishSwam) else SEA
            start = _narrow_top(to - 1, boat, top) + _N_PIECE / 2
            end = _narrow_top(to, boat, top) + _N_PIECE / 2 - 6
            nodes.append(
                element(
                    "path",
                    {
                        "d": f"M{_num(x)} {_num(start)}Q{_num(x + 14)} {_num((start + end) / 2)} "
                        f"{_num(x)} {_num(end)}",
                        "fill": "none",
                        "stroke": _FISH_COLORS[event.fish],
                        "stroke-width": 3,
                        "marker-end": "url(#mare-arrow)",
                    },
                    [element("title", content=f"the {event.fish} fish swam")],
                )
            )
        elif isinstance(event, PieceRemoved):
            y = top + (event.piece - 1) * _N_PIECE
            left, right = _N_LEFT + _N_BAND - 60, _N_LEFT + _N_BAND - 20
            cross = (
                f"M{_num(left)} {_num(y + 8)}L{_num(right)} {_num(y + _N_PIECE - 8)}"
                f"M{_num(right)} {_num(y + 8)}L{_num(left)} {_num(y + _N_PIECE - 8)}"
            )
            nodes.append(
                element(
                    "path",
                    {
                        "d": cross,
                        "stroke": "#d62828",
                        "stroke-width": 3,
                        "fill": "none",
                        "stroke-linecap": "round",
                    },
                    [element("title", content=f"piece {event.piece} was taken away")],
                )
            )
    return nodes


def _narrow_seats(
    view: View, names: tuple[str, ...], colors: Sequence[str], top: float
) -> list[ET.Element]:
    """Each player's colour, name and side, one under another (M2, M8)."""
    nodes: list[ET.Element] = []
    winner = view.result.winner if view.result is not None else None
    for seat, (name, side) in enumerate(zip(names, view.sides, strict=True)):
        y = top + seat * _N_ROW
        color = colors[seat % len(colors)]
        shown = name if len(name) <= 28 else name[:27] + "\u2026"
        notes = [_SIDES[side]]
        if seat == view.seat:
            notes.insert(0, "you")
        turn = view.result is None and seat == view.turn
        if turn:
            notes.append("to move" if view.move_due else "to roll")
        if winner is not None and side is winner:
            notes.append("wins")
        children = [
            element(
                "rect",
                {
                    "x": _N_LEFT,
                    "y": _num(y),
                    "width": _N_WIDTH - 2 * _N_LEFT,
                    "height": _N_ROW - 6,
                    "rx": 6,
                    "fill": "#ffffff",
                    "stroke": color if turn else "#d5dde3",
                    "stroke-width": 3 if turn else 1,
                },
            ),
            element(
                "circle",
                {
                    "cx": _N_LEFT + 16,
                    "cy": _num(y + _N_ROW / 2 - 3),
                    "r": 8,
                    "fill": color,
                    "stroke": _INK,
                },
            ),
            text(_N_LEFT + 32, y + 19, shown, font_size=15, font_weight="bold", fill=_INK),
            text(_N_LEFT + 32, y + 37, ", ".join(notes), font_size=13, fill=_INK),
        ]
        nodes.append(element("g", {"data-seat": seat}, children))
    return nodes
