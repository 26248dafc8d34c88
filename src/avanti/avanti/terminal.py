"""The table of Avanti for the terminal: the road with its tolls, lots and cars, the island path
with the dream island marked (A5), and each player's money and cards, as a seat (or a spectator)
sees them (A30); a key to its abbreviations; and the event marker's road space as a number typed
from a range (A7)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from avanti.avanti.commands import Command, PlaceEventMarker, Quit
from avanti.avanti.events import GameEnded, RoundStarted, RunEnded
from avanti.avanti.explain import explain
from avanti.avanti.presentation import confirm
from avanti.avanti.setup import Setup
from avanti.avanti.views import View
from avanti.core.terminal import Drawing, NumberChoice

__all__ = ["DRAWING", "DREAM", "draw", "explain", "legend"]

COLUMNS = 12
"""Road spaces per printed row."""
CELL = 6
"""Characters per road space."""
DREAM = "*"
"""The mark before the number of a dream island space (A5): ``*10``."""


def _road(setup: Setup, view: View) -> list[Text]:
    track = setup.board.track
    marker = view.marker
    cars: dict[int, list[int]] = {}
    for seat, space in enumerate(view.road_spaces):
        if marker is not None:
            cars.setdefault(space, []).append(seat)
    lines: list[Text] = []
    for row in range(0, len(track), COLUMNS):
        spaces = range(row, min(row + COLUMNS, len(track)))
        index, amount, here = Text("space "), Text("toll  "), Text("cars  ")
        for space in spaces:
            mark = "M" if space == marker else ""
            index.append(f"{mark}{space}".rjust(CELL - 1) + " ", style="bold" if mark else "dim")
            kind = track[space]
            if kind.is_parking:
                amount.append(f"P{kind.amount}".rjust(CELL - 1) + " ", style="green")
            else:
                style = "red" if kind.amount >= 1000 else "yellow" if kind.amount >= 400 else ""
                amount.append(f"{kind.amount}".rjust(CELL - 1) + " ", style=style)
            seats = "".join(str(seat) for seat in cars.get(space, ()))
            here.append((seats or ".").rjust(CELL - 1) + " ", style="bold cyan" if seats else "dim")
        lines += [index, amount, here]
    return lines


def _island(setup: Setup, view: View) -> list[Text]:
    board = setup.board
    dream = board.dream_island_start
    index, price, figures = Text("island"), Text("price "), Text("who   ")
    for space, cost in enumerate(board.island):
        style = "bold magenta" if space >= dream else "dim"
        mark = DREAM if space >= dream else ""
        index.append(f"{mark}{space}".rjust(CELL - 1) + " ", style=style)
        price.append(("-" if cost is None else str(cost)).rjust(CELL - 1) + " ")
        seats = "".join(str(s) for s, at in enumerate(view.island) if at == space)
        figures.append((seats or ".").rjust(CELL - 1) + " ", style="bold cyan" if seats else "dim")
    return [index, price, figures]


def _players(setup: Setup, view: View) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False)
    for name in ("Seat", "Player", "Cash", "Island", "Driven", "Cards", "State"):
        table.add_column(name, justify="right" if name in {"Cash", "Island", "Driven"} else "left")
    for seat, name in enumerate(setup.players):
        state = "quit" if view.quit[seat] else "laid a card" if view.has_laid[seat] else ""
        if view.to_act == seat:
            state = "to drive"
        if view.winner == seat:
            state = "winner"
        table.add_row(
            str(seat),
            name + (" (you)" if seat == view.seat else ""),
            f"{view.cash[seat]:,}",
            str(view.island[seat]),
            str(view.distances[seat]),
            str(view.hand_sizes[seat]),
            state,
        )
    return table


def _hand(setup: Setup, view: View) -> Text | None:
    if view.hand is None:
        return None
    cards = ", ".join(
        f"card {card} ({'/'.join(str(n) for n in setup.deck.cards[card].numbers)})"
        for card in view.hand
    )
    text = Text(f"Your hand: {cards or 'empty'}")
    if view.laid is not None:
        text.append(f"; laid: card {view.laid[0]} for {view.laid[1]}")
    return text


def draw(setup: Setup, view: View) -> RenderableType:
    """The road, the island path, the players, and the seat's own cards."""
    marker = "not placed yet" if view.marker is None else f"on space {view.marker}"
    header = Text(
        f"Run {view.run}, round {view.round}, {view.phase.value}; event marker {marker}; "
        f"draw pile {view.draw_size}, discard {len(view.discard)}",
        style="bold",
    )
    parts: list[RenderableType] = [header, *_road(setup, view), *_island(setup, view)]
    parts.append(_players(setup, view))
    hand = _hand(setup, view)
    if hand is not None:
        parts.append(hand)
    return Group(*parts)


def legend(setup: Setup) -> tuple[str, ...]:
    """The key to :func:`draw`: the marker's ``M``, tolls, a parking lot's ``P200`` with its
    ATM (A15, A21), the ``cars`` and ``who`` rows, island prices (A22) and the dream island's
    ``*`` (A5, A20), with this board's own amounts and spaces as the examples."""
    board = setup.board
    tolls = [space.amount for space in board.track if not space.is_parking]
    lots = [space.amount for space in board.track if space.is_parking]
    dream, last = board.dream_island_start, len(board.island) - 1
    at = min(7, len(board.track) - 1)
    marker = f"Key: M{at} the event marker, on space {at} (A7) | . nobody there"
    toll = f"     {tolls[0]} a toll: a car there pays it to the leader (A15)"
    lot = f"     P{lots[0]} a parking lot: no toll; its ATM pays {lots[0]} between runs (A21)"
    spaces = f"{DREAM}{dream}" if dream == last else f"{DREAM}{dream}-{DREAM}{last}"
    return (
        marker + " | Driven: this run (A12)",
        *((toll,) if tolls else ()),
        *((lot,) if lots else ()),
        "     cars: the seats whose car is there | who: the seats whose island figure is there",
        "     price: what a step onto that island space costs (A22), - not for sale",
        f"     {spaces} the dream island: a figure reaching it ends the game (A20)",
    )


def _field(command: Command) -> NumberChoice | None:
    """The event marker's road space is one number from a range (A7): the menu lists it as
    ``marker <space> (0-33)`` and reads the space typed."""
    if isinstance(command, PlaceEventMarker):
        return NumberChoice(
            "marker", "space", command.space, "put the event marker on a road space"
        )
    return None


def _after(events: tuple[Any, ...]) -> bool:
    """Draw the table after each round's driving and at the end of a run or game."""
    return any(isinstance(e, (RoundStarted, RunEnded, GameEnded)) for e in events)


def _confirm(setup: Setup, command: Command) -> str:
    """Quitting a run cannot be taken back (A14): the terminal asks first, in the words of
    the game's presentation."""
    if isinstance(command, Quit):
        return f"{confirm(setup, command)} Type 'yes' to quit, anything else to choose again: "
    return ""


def _number(command: Command) -> int | None:
    """A menu of road spaces is typed by the space's own number, as the board prints it (A4)."""
    return command.space if isinstance(command, PlaceEventMarker) else None


DRAWING = Drawing(
    draw=draw,
    after=_after,
    explain=explain,
    examples=("marker 12", "play 8 for 3", "drive", "quit", "invest 2"),
    confirm=_confirm,
    number=_number,
    field=_field,
    legend=legend,
)
"""How the command line draws Avanti."""
