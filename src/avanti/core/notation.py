"""A notation for commands, both ways, as SAN is for chess moves.

Each game writes its commands as short phrases a person could say at the table (``"play 19 for
4"``, ``"bid 5"``, ``"move orange"``): its ruleset's ``notations(state, command)`` gives every
spelling it accepts, the first being the one it writes. :meth:`avanti.core.Game.notation` and
:meth:`avanti.core.Game.parse_notation` are built on it, here, once for every game.

Reading is forgiving about case, spacing and money signs: ``"Bid  $5"`` reads as ``"bid 5"``
(:func:`normalize`). A game's notations are written already normalized; no spelling of one legal
command of a seat is a spelling of another command of that seat, and each depends only on what
that seat may see (the command's own fields and the public rules), so showing it hides nothing.
Two seats may share a spelling (``"invest 1"`` in Avanti): reading it then needs the seat.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from avanti.core import limits
from avanti.core.errors import CoreReason, IllegalCommand

__all__ = ["normalize", "parse", "spellings"]

CommandT = TypeVar("CommandT")

_NOISE = re.compile(r"[$€£]|(?<=\d),(?=\d{3})")
_SPACES = re.compile(r"\s+")
_SHOWN = 12
"""How many legal commands an error message lists."""


def normalize(text: str) -> str:
    """Text as the notation compares it: lower case, single spaces, no money signs, no commas
    between thousands.

    >>> from avanti.core.notation import normalize
    >>> normalize("  Bid   $1,000 ")
    'bid 1000'
    """
    return _SPACES.sub(" ", _NOISE.sub("", text)).strip().casefold()


_normalized = functools.lru_cache(maxsize=1 << 14)(normalize)
""":func:`normalize`, remembered: :func:`parse` reads every spelling of every legal command, and
the same few thousand spellings come back move after move. Only the games' own spellings (short
phrases) pass through it, never a player's text, so its size is bounded as well as its slots."""


def spellings(forms: Iterable[str]) -> tuple[str, ...]:
    """``forms`` normalized, each once, in their order: the first is the notation.

    A game builds its tuple of spellings with it, so that a variant that comes out like another
    (``"bid 0"`` in thousands and in dollars) is listed once.

    >>> from avanti.core.notation import spellings
    >>> spellings(["Play 19 for 4", "play 19  for 4", "lay 19 for 4"])
    ('play 19 for 4', 'lay 19 for 4')
    """
    return tuple(dict.fromkeys(normalize(form) for form in forms))


def parse(
    text: str,
    candidates: Sequence[CommandT],
    notations: Callable[[CommandT], Sequence[str]],
    *,
    seat: int | None,
) -> CommandT:
    """The one command among ``candidates`` (the legal commands) that ``text`` names.

    ``text`` may be any spelling of a command, after :func:`normalize`. The message of a refusal
    lists the candidates' notations: pass only the commands ``seat`` may see.

    :raises IllegalCommand: ``text`` is not a string, names no legal command (reason
        ``unknown-notation``) or names several (``ambiguous-notation``: commands of different
        seats, when ``seat`` is ``None``).
    """
    if not isinstance(text, str):
        raise IllegalCommand(
            CoreReason.UNKNOWN_NOTATION, f"a notation is text, not {type(text).__name__}"
        )
    if len(text) > limits.MAX_NOTATION_LENGTH:
        raise IllegalCommand(
            CoreReason.UNKNOWN_NOTATION,
            f"a notation is at most {limits.MAX_NOTATION_LENGTH} characters, not {len(text):,}",
        )
    wanted = normalize(text)
    found = [c for c in candidates if any(_normalized(n) == wanted for n in notations(c))]
    if len(found) == 1:
        return found[0]
    if found:
        seats = sorted({str(_seat(c)) for c in found})
        if len(seats) > 1:
            message = f"{text!r} names a command of more than one seat ({', '.join(seats)})"
            raise IllegalCommand(CoreReason.AMBIGUOUS_NOTATION, f"{message}: name the seat")
        known = "; ".join(repr(notations(c)[0]) for c in found)
        message = f"{text!r} names several commands ({known}): use the notation of one"
        raise IllegalCommand(CoreReason.AMBIGUOUS_NOTATION, message)
    if not candidates:
        whose = "anyone" if seat is None else f"seat {seat}"
        message = f"{text!r} names no legal command: there is none for {whose} now"
    else:
        known = "; ".join(repr(notations(c)[0]) for c in candidates[:_SHOWN])
        more = f" and {len(candidates) - _SHOWN} more" if len(candidates) > _SHOWN else ""
        whose = "" if seat is None else f" of seat {seat}"
        message = f"{text!r} names no legal command{whose}; legal now: {known}{more}"
    raise IllegalCommand(CoreReason.UNKNOWN_NOTATION, message)


def _seat(command: Any) -> object:
    return getattr(command, "seat", "?")
