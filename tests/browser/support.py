"""What the browser tests check on a page, computed from the stored game with the library.

- :func:`expected`: the seat's table (picture and history) as the server builds it.
- :func:`hidden_problems`: the other seats' hidden facts that a page's text mentions. What is
  hidden is read from the stored game, comparing each other seat's view with this seat's: in
  Avanti the cards in their hands and their laid cards (A30); in For Sale: Autorama their
  face-down offers (F14) and their cash (F2) (what they hold was bought in the open). Avanti mare!
  hides nothing a view holds (M3: only the generator), so its pages are checked by
  :func:`expected` alone.

A card that a seat held and played may later be shuffled back and dealt to another: the history
then names it for its old owner, rightly. So the text checked for hidden facts is the whole page
but the history, plus the history lines that the last command added.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from avanti import catalog
from avanti.server.protocol.wire import table_data

__all__ = ["card_references", "expected", "hidden_problems", "svg_data", "svg_text"]

_AVANTI_CARDS = re.compile(
    r"\bcards? (\d+(?:(?:, | and )\d+)*)|data-card=\"(\d+)\"|\bplay (\d+) for"
)
_VEHICLES = re.compile(r"\bvehicles?:? (\d+(?:(?:, | and )\d+)*)|data-vehicles=\"(\d+)\"")
_SPLIT = re.compile(r", | and ")
_COIN = re.compile(r"^\$(\d+)k$|^\$0$")

AnyGame = Any


def card_references(pattern: re.Pattern[str], text: str) -> set[int]:
    """Every card number ``pattern``'s groups capture in ``text`` (lists split at commas)."""
    found: set[int] = set()
    for match in pattern.finditer(text):
        for group in match.groups():
            if group:
                found |= {int(number) for number in _SPLIT.split(group)}
    return found


def expected(game: AnyGame, name: str, seat: int | None) -> Any:
    """The table the server sends ``seat``: ``{"svg", "history", ...}``."""
    return table_data(game, catalog.GAMES[name], seat, 0)


def svg_text(svg: str) -> str:
    """An SVG picture's text, as the DOM's ``textContent`` reads it."""
    return "".join(ET.fromstring(svg).itertext())


def svg_data(svg: str) -> list[str]:
    """Every ``data-*`` attribute of an SVG picture, in document order, as ``name=value``."""
    return [
        f"{key[5:]}={value}"
        for node in ET.fromstring(svg).iter()
        for key, value in node.attrib.items()
        if key.startswith("data-")
    ]


def hidden_problems(
    name: str, game: AnyGame, seat: int, text: str, rows: dict[int, str]
) -> list[str]:
    """The hidden facts of other seats that ``text`` (a page but its older history) or the
    picture's seat ``rows`` (``{seat: text}``) mention; empty when there are none."""
    others = [other for other in range(len(game.public_setup.players)) if other != seat]
    problems: list[str] = []
    if name == "avanti":
        hidden: set[int] = set()
        for other in others:
            view = game.view(other)
            hidden |= set(view.hand or ())
            if view.laid is not None:
                hidden.add(view.laid[0])
        shown = card_references(_AVANTI_CARDS, text) & hidden
        problems += [f"another seat's card {card}" for card in sorted(shown)]
    elif name == "autorama":
        mine = game.view(seat)
        vehicles: set[int] = set()
        for other in others:
            view = game.view(other)
            if mine.offers[other] is None and view.offers[other] is not None:
                vehicles |= set(view.offers[other])
            if other not in rows:  # a text without the picture's rows (a history line)
                continue
            coins = [line for line in rows[other].split("\n") if _COIN.match(line.strip())]
            bid = mine.bids[other]
            public = [] if bid is None else [f"${bid}k" if bid else "$0"]
            if sorted(line.strip() for line in coins) != public:
                problems.append(f"money in seat {other}'s row beyond its bid: {coins}")
        problems += [
            f"another seat's vehicle {v}"
            for v in sorted(card_references(_VEHICLES, text) & vehicles)
        ]
    return problems
