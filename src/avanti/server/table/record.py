"""Seats and their tokens: who may act for which seat of a stored game.

A game created by the server gets one secret token per seat that people play:
:func:`new_token` draws 192 random bits (``secrets.token_urlsafe(24)``). The token is given to the
creator once and never stored: the stream's metadata keeps only its SHA-256 hash
(:func:`token_hash`). A request's token is hashed and compared with every seat's hash by
:func:`hmac.compare_digest`, all of them every time, so neither the answer nor the time it takes
says anything about a stored hash.

The metadata the server writes (:meth:`Table.to_metadata`)::

    {"server": {"game": "avanti", "seats": [
        {"name": "Ann", "token_sha256": "9f86...", "bot": null},
        {"name": "Bob", "token_sha256": null, "bot": "heuristic"}]}}
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from attrs import evolve, frozen

from avanti.core.codec import JSONValue

__all__ = [
    "CLOCK",
    "CLOCK_STARTED",
    "REMATCH",
    "TOKEN_BYTES",
    "BadToken",
    "Seat",
    "Table",
    "new_token",
    "token_hash",
]

CLOCK = "clock"
"""The key of a timed game's record metadata that holds its time per move (seconds)."""

REMATCH = "rematch"
"""The key of a finished game's record metadata that names its rematch's game id."""

CLOCK_STARTED = "clock_started"
"""The key of a timed game's record metadata that holds when the version in play began to wait
(``{"version": 7, "at": 1796069130.5}``): written by the append that made that version (a
rematch's first: by the call that took its last seat)."""

TOKEN_BYTES = 24
"""Random bytes in a seat token (192 bits; the text is 32 URL-safe characters)."""

_NO_HASH = hashlib.sha256(b"avanti: a seat without a token").hexdigest()
"""Compared in place of a seat's hash where it has none, so every check does the same work."""


class BadToken(Exception):
    """A token was given that belongs to no seat of the game."""


def new_token() -> str:
    """A fresh seat token: :data:`TOKEN_BYTES` random bytes from :mod:`secrets`, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The SHA-256 of a token's UTF-8 bytes, in hex: what the store keeps instead of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@frozen
class Seat:
    """One seat of a stored game."""

    name: str
    """The player's name."""
    token_sha256: str | None
    """The hash of the seat's token; ``None`` for a seat that was a bot from the start."""
    bot: str | None
    """The kind of bot playing the seat now, or ``None`` when a person plays it."""


@frozen
class Table:
    """The seats of a stored game, as its metadata holds them."""

    game: str
    """The game's name in :mod:`avanti.catalog`."""
    seats: tuple[Seat, ...]
    """The seats, by number."""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, JSONValue]) -> Table | None:
        """The table a stream's metadata holds, or ``None`` if the server did not write it."""
        server = metadata.get("server")
        if not isinstance(server, dict):
            return None
        game, seats = server.get("game"), server.get("seats")
        if not isinstance(game, str) or not isinstance(seats, list):
            return None
        found = []
        for item in seats:
            if not isinstance(item, dict):
                return None
            name, digest, bot = item.get("name"), item.get("token_sha256"), item.get("bot")
            if not (
                isinstance(name, str)
                and (digest is None or isinstance(digest, str))
                and (bot is None or isinstance(bot, str))
            ):
                return None
            found.append(Seat(name, digest, bot))
        return cls(game, tuple(found))

    def to_metadata(self) -> dict[str, JSONValue]:
        """The metadata to store for this table."""
        seats: list[JSONValue] = [
            {"name": seat.name, "token_sha256": seat.token_sha256, "bot": seat.bot}
            for seat in self.seats
        ]
        return {"server": {"game": self.game, "seats": seats}}

    @property
    def players(self) -> list[str]:
        """The players' names, by seat."""
        return [seat.name for seat in self.seats]

    @property
    def bots(self) -> dict[str, str]:
        """The seats bots play now: ``{"1": "heuristic"}``."""
        return {str(number): seat.bot for number, seat in enumerate(self.seats) if seat.bot}

    @property
    def vacant(self) -> tuple[int, ...]:
        """The seats nobody sits at yet, neither a person (no token) nor a bot: a rematch's
        seats whose players have not asked for them (:mod:`~avanti.server.table.rematch`)."""
        return tuple(
            number
            for number, seat in enumerate(self.seats)
            if seat.token_sha256 is None and seat.bot is None
        )

    def bot(self, seat: int | None) -> str | None:
        """The kind of bot that plays ``seat`` now, or ``None``."""
        if seat is None or not 0 <= seat < len(self.seats):
            return None
        return self.seats[seat].bot

    def with_bot(self, seat: int, bot: str | None) -> Table:
        """This table with ``seat`` played by ``bot`` (``None``: by its person again)."""
        seats = list(self.seats)
        seats[seat] = evolve(seats[seat], bot=bot)
        return evolve(self, seats=tuple(seats))

    def seat_for(self, token: str | None) -> int | None:
        """The seat ``token`` belongs to; ``None`` for no token (a spectator).

        Every seat's hash is compared, whatever the token, in constant time each.

        :raises BadToken: a token that is no seat's.
        """
        if token is None:
            return None
        digest = token_hash(token).encode("ascii")
        found: int | None = None
        for number, seat in enumerate(self.seats):
            stored = (seat.token_sha256 or _NO_HASH).encode("ascii", "replace")
            same = hmac.compare_digest(digest, stored)
            if same and seat.token_sha256 is not None and found is None:
                found = number
        if found is None:
            raise BadToken
        return found
