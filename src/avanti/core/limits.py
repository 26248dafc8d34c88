"""The limits on untrusted input, in one place, and the seeds nobody can guess.

A server reads documents, setups and commands from people who may want to bring it down. Every
input the library accepts is bounded here or in the game's own setup checks (listed together in
the docs page "Running untrusted games"); each limit refuses with a library error that says what
was too big, before anything is built or cached from it.

- :data:`MAX_DOCUMENT_BYTES`: the longest JSON text :meth:`avanti.core.Game.loads` reads.
- :data:`MAX_EVENTS`: the most events a game document may hold.
- :data:`MAX_SETUP_VALUES`: the most JSON values a setup in a document may hold.
- :data:`MAX_PROBLEMS`: how many problems a :class:`~avanti.core.errors.DecodeError` lists (then
  a count of the rest).
- :data:`MAX_NAME_LENGTH`: the longest player name; names must also be printable, valid Unicode
  without surrounding spaces (:func:`name_problem`).
- :data:`MAX_NOTATION_LENGTH`: the longest text :meth:`avanti.core.Game.parse_notation` reads.

Seeds: :func:`new_seed` draws 64 bits from the operating system (the ``secrets`` module); every
game's ``new_game`` uses it when no seed is given. The seed is every hand and every future
shuffle, so it belongs to the server, never to a client.
"""

from __future__ import annotations

import secrets

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_EVENTS",
    "MAX_NAME_LENGTH",
    "MAX_NOTATION_LENGTH",
    "MAX_PROBLEMS",
    "MAX_SETUP_VALUES",
    "SEED_BITS",
    "name_problem",
    "names_problem",
    "new_seed",
]

MAX_DOCUMENT_BYTES = 1024 * 1024
"""The longest game document :meth:`~avanti.core.Game.loads` reads: 1 MiB (bytes, or characters of
a ``str``). The longest of thousands of random games of each game took under 30 kB."""
MAX_EVENTS = 10_000
"""The most events a game document may hold (the longest random games take about 400)."""
MAX_SETUP_VALUES = 20_000
"""The most JSON values (numbers, strings, lists, objects) a setup in a document may hold,
counted before it is read: the default boards and decks take a few hundred."""
MAX_PROBLEMS = 20
"""How many problems a :class:`~avanti.core.errors.DecodeError` lists before it counts the rest."""
MAX_NAME_LENGTH = 40
"""The longest player name, in characters."""
MAX_NOTATION_LENGTH = 200
"""The longest text :meth:`~avanti.core.Game.parse_notation` reads; longer text names nothing."""
SEED_BITS = 64
"""How many random bits :func:`new_seed` draws."""


def new_seed() -> int:
    """A seed nobody can guess: :data:`SEED_BITS` bits from ``secrets.randbits``.

    Every game's ``new_game`` calls it when no seed is given. Keep the seed on the server: with it
    and the setup, anyone can deal every hand and every shuffle to come.
    """
    return secrets.randbits(SEED_BITS)


def name_problem(name: object) -> str | None:
    """What is wrong with a player name, in words, or ``None`` if it is a good one.

    A name is a ``str`` of 1 to :data:`MAX_NAME_LENGTH` characters, every one printable (no
    control characters, no line breaks, no lone surrogates, so it can be written as UTF-8), with no
    space at either end. The message never repeats the name itself, which may be long or hostile.

    >>> from avanti.core.limits import name_problem
    >>> name_problem("Ann") is None
    True
    >>> name_problem("")
    'a name must have 1 to 40 characters, not 0'
    >>> name_problem("Ann\\n")
    'a name must be printable (no control characters or line breaks)'
    """
    if type(name) is not str:
        return f"a name must be a str, not {type(name).__name__}"
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        return f"a name must have 1 to {MAX_NAME_LENGTH} characters, not {len(name)}"
    if not name.isprintable():
        return "a name must be printable (no control characters or line breaks)"
    if name.strip() != name:
        return "a name must not begin or end with a space"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # pragma: no cover - a lone surrogate is not printable either
        return "a name must be valid Unicode"
    return None


def names_problem(names: object) -> str | None:
    """What is wrong with a tuple of player names (each by :func:`name_problem`, all different),
    or ``None``. Seats are named by position in the message, never by the names themselves.

    >>> from avanti.core.limits import names_problem
    >>> names_problem(("Ann", "Bob")) is None
    True
    >>> names_problem(("Ann", "Ann"))
    'player names must differ: seat 1 has the name of seat 0'
    """
    if type(names) is not tuple:
        return f"players must be a tuple of names, not {type(names).__name__}"
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            return f"seat {seat}: {problem}"
        assert isinstance(name, str)
        if name in seen:
            return f"player names must differ: seat {seat} has the name of seat {seen[name]}"
        seen[name] = seat
    return None
