"""The river of Avanti mare! for the terminal: the boat, each piece with its fish, the sea."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from avanti.core.terminal import Drawing, always
from avanti.mare import CAUGHT, FISH, PIECES, SEA, Fish, Setup, Side, View
from avanti.mare.explain import explain

__all__ = ["DRAWING", "SIDE_WORDS", "draw", "explain", "side"]

_FISH_STYLE = {
    Fish.BLUE: "bold blue",
    Fish.ORANGE: "bold dark_orange",
    Fish.YELLOW: "bold yellow",
    Fish.PINK: "bold magenta",
}


def draw(setup: Setup, view: View) -> RenderableType:
    """The river of Avanti mare!: taken pieces, the boat, each piece with its fish, the sea."""
    river = Text()
    river.append("taken " + "x" * view.boat + " " if view.boat else "", style="dim")
    river.append("[boat]", style="bold red")
    for piece in range(view.boat + 1, PIECES + 1):
        here = [fish for fish in FISH if view.fish[fish.slot] == piece]
        river.append(f" {piece}:")
        if not here:
            river.append("-", style="dim")
        for fish in here:
            river.append(fish.value[0].upper(), style=_FISH_STYLE[fish])
    river.append("  ~sea~", style="bold cyan")
    free = [fish.value for fish in FISH if view.fish[fish.slot] == SEA]
    caught = [fish.value for fish in FISH if view.fish[fish.slot] == CAUGHT]
    summary = Text(
        f"free: {', '.join(free) or 'none'}; caught: {', '.join(caught) or 'none'}; "
        f"{PIECES - view.boat} pieces left",
        style="dim",
    )
    sides = "; ".join(
        f"{name}{' (you)' if seat == view.seat else ''}: {SIDE_WORDS[view.sides[seat]]}"
        for seat, name in enumerate(setup.players)
    )
    backers = Text(f"sides: {sides}", style="dim")
    return Group(river, summary, backers)


def side(setup: Setup, seat: int) -> str:
    """The side a player backs (M2), for headers: ``"fish friends"`` or ``"fisher fans"``."""
    return SIDE_WORDS[setup.sides[seat]]


SIDE_WORDS = {Side.FISH_FRIENDS: "fish friends", Side.FISHER_FANS: "fisher fans"}
"""Each side in words (M2)."""


DRAWING = Drawing(
    draw=draw,
    after=always,
    explain=explain,
    examples=("roll", "move orange", "skip"),
    player=side,
)
"""How the command line draws Avanti mare!: after every command."""
