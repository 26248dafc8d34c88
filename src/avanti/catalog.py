"""The games this library knows, for tools that work with any of them (the CLI, bots, benchmarks).

Each game has one name, used everywhere: its catalog key, the command line's ``--game``, its
documents' ``format`` and the last part of its package (``avanti.mare`` is the game ``mare``).
A game's package offers the common entry points (``new_game``, ``Game``, ``loads``, ...), a
``presentation`` module with its ``PRESENTATION`` (a
:class:`~avanti.core.presentation.Presentation`: its picture, its events and commands in words,
the commands that ask first, its standings, its cards, its encoding and its lab form, declared
once), a ``bots`` module with its ``KIT`` and, optionally, a ``terminal`` module with its
``DRAWING``. Tools read these records and never probe a package for a function. Packages are
imported only when asked for.

Adding a game means one package and one entry: ``register(GameInfo(...))`` (see CONTRIBUTING.md).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from attrs import frozen

from avanti.core.codec import parse_json
from avanti.core.errors import DecodeError, InvalidArgument, InvalidSetup, UnknownGame

if TYPE_CHECKING:
    from avanti.core.bots import GameKit
    from avanti.core.labform import LabForm
    from avanti.core.presentation import Presentation
    from avanti.core.terminal import Drawing

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "GameInfo",
    "game_info",
    "info_for_document",
    "register",
    "unregister",
]


EXTRA_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
"""Names for seats beyond a game's default table."""


@frozen(kw_only=True)
class GameInfo:
    """One game: its name, title, package, seat limits and default player names.

    ``name`` is the game's one name (catalog key, ``--game``, document ``format``); ``package``
    the module that holds everything about it. ``formats`` lists older document format names
    that its ``loads`` still reads (documents are always written under ``name``).
    """

    name: str
    title: str
    package: str
    min_players: int
    max_players: int
    default_players: tuple[str, ...]
    formats: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    """The sides a player picks at the start, by name (Avanti mare!'s fish friends and fisher
    fans, M2); empty for a game without sides. Each player picks freely: any mix is allowed."""

    def default_sides(self, count: int) -> tuple[str, ...]:
        """The sides of ``count`` seats when nobody picks: the game's sides in turn around the
        table, the first one first (fish friends, fisher fans, fish friends, ... in Avanti
        mare!, M2); empty for a game without sides."""
        if not self.sides:
            return ()
        return tuple(self.sides[seat % len(self.sides)] for seat in range(count))

    @property
    def format(self) -> str:
        """The ``format`` field of this game's documents: its name."""
        return self.name

    def load(self) -> ModuleType:
        """Import the game's package."""
        return importlib.import_module(self.package)

    def new_game(
        self, players: Sequence[str], seed: int, *, sides: Sequence[str] | None = None
    ) -> Any:
        """Start a game of this kind with default options; ``sides`` names each seat's side in
        a game with sides (:attr:`sides`), else the game's default sides.

        :raises InvalidSetup: ``sides`` given for a game without sides, or a name that is no
            side of the game.
        """
        if sides is None:
            return self.load().new_game(list(players), seed=seed)
        if not self.sides:
            raise InvalidSetup(f"{self.title} has no sides to pick")
        bad = [side for side in sides if side not in self.sides]
        if bad:
            raise InvalidSetup(
                f"{bad[0]!r} is no side of {self.title}: pick one of {', '.join(self.sides)}"
            )
        return self.load().new_game(list(players), seed=seed, sides=[*sides])

    def load_presentation(self) -> Presentation:
        """How the game is shown: ``PRESENTATION`` in its package's ``presentation`` module."""
        presentation: Presentation = importlib.import_module(
            f"{self.package}.presentation"
        ).PRESENTATION
        return presentation

    def describe(self, event: object, setup: object, *, seat: int | None = None) -> str:
        """One line of plain English for an event, for ``seat`` (its own deeds in the second
        person) or, with ``None``, for anybody. A line may depend on earlier events (Avanti's
        road spaces follow the event marker): :meth:`narrate` tells a stream."""
        return self.load_presentation().describe(event, setup, seat=seat)

    def narrate(
        self, events: Sequence[object], setup: object, *, seat: int | None = None, after: int = 0
    ) -> tuple[str, ...]:
        """One line of plain English for each event of ``events[after:]``, for ``seat``; the
        events before ``after`` are read for what the lines depend on (the game's ``narrate``)."""
        return self.load_presentation().narrate(events, setup, seat=seat, after=after)

    def box(self) -> dict[str, tuple[tuple[int, str], ...]] | None:
        """The game's cards by kind, each with its words (its presentation's ``box``), for a
        tool that lists them, such as the lab's card rows; ``None`` for a game without one,
        whose positions are set on the board."""
        box = self.load_presentation().box
        return None if box is None else box()

    def load_lab_form(self) -> LabForm | None:
        """The game's form for the rules lab (its presentation's ``lab``), or ``None``."""
        return self.load_presentation().lab

    def player_names(self, count: int | None = None) -> tuple[str, ...]:
        """``count`` distinct player names: the default table, then more names as needed.

        :raises InvalidSetup: ``count`` is outside the game's seat limits.
        """
        wanted = len(self.default_players) if count is None else count
        if not self.min_players <= wanted <= self.max_players:
            raise InvalidSetup(
                f"{self.title} takes {self.min_players} to {self.max_players} players, not {wanted}"
            )
        extra = (name for name in EXTRA_NAMES if name not in self.default_players)
        return (*self.default_players, *extra)[:wanted]

    def load_kit(self) -> GameKit:
        """The game's bot kit: ``KIT`` in its package's ``bots`` module."""
        kit: GameKit = importlib.import_module(f"{self.package}.bots").KIT
        return kit

    def load_drawing(self) -> Drawing | None:
        """The game's terminal drawing (``DRAWING`` in its ``terminal`` module), if it has one."""
        try:
            module = importlib.import_module(f"{self.package}.terminal")
        except ModuleNotFoundError as error:
            if error.name != f"{self.package}.terminal":
                raise
            return None
        drawing: Drawing = module.DRAWING
        return drawing


GAMES: dict[str, GameInfo] = {}
"""Every game by its name. Change it only through :func:`register` and :func:`unregister`."""


def register(info: GameInfo) -> None:
    """Add a game to the catalog (under ``info.name``); the command line then offers it.

    :raises InvalidArgument: the name, or one of its document formats, is taken.
    """
    taken = {name for other in GAMES.values() for name in (other.name, *other.formats)}
    for name in (info.name, *info.formats):
        if name in taken:
            raise InvalidArgument(f"a game named {name!r} is in the catalog already")
    GAMES[info.name] = info


def unregister(name: str) -> None:
    """Take a game out of the catalog (for tests and plug-ins that come and go)."""
    del GAMES[name]


register(
    GameInfo(
        name="avanti",
        title="Avanti",
        package="avanti.avanti",
        min_players=3,
        max_players=5,
        default_players=("Jack", "Isabella", "Tina", "Steve"),
    )
)
register(
    GameInfo(
        name="mare",
        title="Avanti mare!",
        package="avanti.mare",
        min_players=1,
        max_players=6,
        default_players=("Ann", "Bob", "Cy"),
        formats=("avanti.mare",),
        sides=("fish-friends", "fisher-fans"),
    )
)
register(
    GameInfo(
        name="autorama",
        title="For Sale: Autorama",
        package="avanti.autorama",
        min_players=3,
        max_players=6,
        default_players=("Isaac", "Becky", "Chloe", "Dave"),
        formats=("avanti.autorama",),
    )
)

DEFAULT_GAME = "avanti"
"""The game the command line plays when none is named: the flagship."""


def game_info(name: str) -> GameInfo:
    """The entry for a name.

    :raises UnknownGame: no game has that name (the error lists the known ones; it is a
        ``KeyError`` too).
    """
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(name, tuple(sorted(GAMES))) from None


def info_for_document(text: str | bytes) -> GameInfo:
    """The game a JSON game document belongs to, from its ``format`` field."""
    data = parse_json(text)
    fmt = data.get("format") if isinstance(data, dict) else None
    for info in GAMES.values():
        if fmt == info.name or fmt in info.formats:
            return info
    known = ", ".join(json.dumps(name) for name in GAMES)
    raise DecodeError((f"'format' must be one of {known}, got {json.dumps(fmt)[:40]} @ $.format",))
