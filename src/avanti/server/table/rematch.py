"""A rematch: the same players in the same seats, a fresh secret seed, the bots kept.

:meth:`Rematch.seat` is the one call. The rematch of game ``g`` has an id that follows from
``g`` (:func:`rematch_id`), so however many seats ask at once, in however many processes, the
store's unique stream name lets one creation win and every other find that game: one rematch,
never two. Each seat's token in it follows from its token in ``g`` (:func:`rematch_token`: a
hash no one without the old token can compute), so asking again gives the same seat and the
same token (idempotent per seat), and the new game learns a seat's token hash only when that
seat asks. The old game's record then names its rematch (``"rematch"``), and every
connection of it is told.

A timed rematch keeps the time per move, but its clock does not run while a person's seat is
vacant (:attr:`~avanti.server.table.record.Table.vacant`): the call that takes the last seat
writes, with that seat's token hash, that the version in play began to wait then
(``"clock_started"``), and the clock counts from there.

A rematch is a game creation: the call that creates it is admitted as a new game is
(:meth:`~avanti.server.table.admission.Admission.admit`: the creation rate and
:attr:`~avanti.server.limits.ServerLimits.games_per_client` of the caller's address, 429
``rate-limited``), and the rematch counts among that address's games in play. A call that
finds the rematch made already creates nothing and is not counted.
"""

from __future__ import annotations

import base64
import hashlib
import json

from attrs import evolve

from avanti.core.limits import new_seed
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.wire import AnyGame, ApiError, dumps
from avanti.server.table.master import Seated, Tables
from avanti.server.table.record import Started, Table, TableRecord, game_summary, token_hash
from avanti.store import StreamExists, UnknownStream

__all__ = ["Rematch", "rematch_id", "rematch_token"]


def rematch_id(game: str) -> str:
    """The id of the rematch of ``game``."""
    return hashlib.sha256(f"avanti rematch of {game}".encode()).hexdigest()[:16]


def rematch_token(game: str, token: str) -> str:
    """A seat's token in the rematch ``game``, from its ``token`` in the game before."""
    digest = hashlib.sha256(f"avanti rematch {game}\0{token}".encode("utf-8", "surrogatepass"))
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode("ascii")


def _fresh(game: AnyGame) -> AnyGame:
    """The game's setup with a fresh secret seed, as a new game."""
    codec = type(game).rules.codec
    setup = json.loads(dumps(codec.document(game.setup, ())["setup"]))
    setup["seed"] = new_seed()
    chosen = codec.structure(setup, codec.setup_type, path="$.setup")
    new: AnyGame = type(game).new(chosen)
    return new


class Rematch:
    """Rematches of finished games (see the module's docstring)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        """The table core."""

    def seat(
        self, game: str, token: str | None, *, client: str | None = None
    ) -> tuple[str, int, str]:
        """The token's seat in the rematch of ``game`` (created by the first call): the
        rematch's id, the seat, and the seat's token there. The call that creates it is
        admitted as a new game of the address ``client`` is, and counts as that address's
        (``None``: a caller in the server itself, not admitted, counted as the finished
        game's creator).

        :raises ApiError: 401 for a token that is no seat's, 403 without one, 409 while the
            game is not over, 404 for an unknown game, 429 when the rematch is yet to be
            created and ``client`` may not create a game now.
        """
        seated = self.tables.read(game)
        table = seated.table
        seat = self.tables.seat_of(table, token)
        if seat is None or table is None or token is None:
            raise ApiError(Refusal.FORBIDDEN, "only a seat of the game asks for its rematch")
        if not seated.game.is_over:
            raise ApiError(Refusal.NOT_OVER, "a rematch follows a finished game")
        new_id = rematch_id(seated.record.stream)
        new_token = rematch_token(new_id, token)
        if not self._exists(new_id):
            creator = seated.kept.client
            if client is not None:
                creator = self.tables.admission.admit(client)
            self._create(seated, new_id, creator)
        self._bind(new_id, seat, token_hash(new_token))
        self._note(seated.record.stream, new_id)
        return new_id, seat, new_token

    def _exists(self, game: str) -> bool:
        """Whether the game ``game`` is stored."""
        try:
            self.tables.games.events.stream(game)
        except UnknownStream:
            return False
        return True

    def _create(self, seated: Seated, new_id: str, client: str | None) -> None:
        """Store the rematch ``new_id`` of ``seated``, counted as ``client``'s (the hash kept of
        an address), unless another call stored it first."""
        table = seated.table
        assert table is not None
        seats = tuple(
            evolve(old, token_sha256=None, bot=old.bot if old.token_sha256 is None else None)
            for old in table.seats
        )
        fresh = _fresh(seated.game)
        kept = TableRecord(  # the time per move; the new game's waiting begins afresh
            table=Table(table.game, seats),
            client=client,
            summary=game_summary(fresh),
            clock=seated.kept.clock,
        )
        try:
            self.tables.games.create(new_id, fresh, kept.to_metadata())
        except StreamExists:  # another seat asked first: that is the rematch
            return
        if isinstance(client, str):
            self.tables.admission.made(client, new_id)

    def _bind(self, game: str, seat: int, digest: str) -> None:
        """Give the rematch's ``seat`` the token hash ``digest`` (once); when that takes the
        last vacant seat of a timed rematch, its clock starts now."""

        def change(record: TableRecord, version: int) -> TableRecord:
            table = record.table
            assert table is not None
            if table.seats[seat].token_sha256 == digest:
                return record
            seats = list(table.seats)
            seats[seat] = evolve(seats[seat], token_sha256=digest)
            taken = Table(table.game, tuple(seats))
            changed = evolve(record, table=taken)
            if table.vacant and not taken.vacant and record.clock is not None:
                started = Started(version, self.tables.clock_now())
                changed = evolve(changed, clock_started=started)
            return changed

        self.tables.change_record(game, change, "the rematch's seats")

    def _note(self, game: str, new_id: str) -> None:
        """Write the rematch's id into the old game's record (once)."""
        self.tables.change_record(game, lambda record, _: evolve(record, rematch=new_id))
