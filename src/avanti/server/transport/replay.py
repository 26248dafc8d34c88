"""Replays of finished games: each step as one seat, or the spectator, saw it at the time.

- ``GET /games/{id}/replay?seen_by=<seat>|spectator``: a finished game at every command
  boundary (after its opening events, then after each command: the versions the seats were sent
  updates at), each step with its version, the events ``seen_by`` saw in it (as
  :meth:`~avanti.core.game.Game.events_for` gives them, with their positions), their words (the
  game's ``narrate``, as the table says them), ``seen_by``'s view then and the seats awaited.
- ``GET /games/{id}/replay/{version}?seen_by=...&layout=wide|narrow``: one step with its
  picture, drawn as the table draws it for ``seen_by`` at that version (its view then, the
  step's events as the last move).

Only a game that is over is replayed (409 ``not-over`` else), and then for anyone: a seat's
replay shows what that seat was shown, never more, and the spectator's only public facts. The
log is folded once per seat and told in words once (:func:`seat_replay`), so the work grows
with the game's length; the server keeps the :data:`KEPT` replays asked for last (at most
:data:`KEPT_BYTES` of them, :class:`Kept`), so stepping through one draws one picture a step
and folds nothing. Building a replay, or a picture, is
work of the rules lab's budget of CPU (a :class:`~avanti.server.transport.http.Jobs`): 429
``rate-limited`` for an address's share, 503 ``busy`` when the budget is spent; an answer longer
than ``lab_answer_bytes`` is 413 ``too-large``.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from attrs import frozen
from starlette.requests import Request
from starlette.responses import Response

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.wire import (
    AnyGame,
    ApiError,
    dumps,
    game_id,
    outcome_data,
    public_setup_data,
)
from avanti.server.transport.http import client_of, read_whole, server_of
from avanti.server.transport.lab import jobs_of, read_seen_by

__all__ = ["KEPT", "KEPT_BYTES", "REPLAY_ENDPOINTS", "Kept", "SeatReplay", "seat_replay"]

KEPT = 32
"""How many replays (a game as one seat or the spectator saw it) one process keeps, the last
asked for: a replay asked for again, or stepped through, is neither read nor folded again."""

KEPT_BYTES = 32 * 1024 * 1024
"""How many bytes of answers the kept replays may hold in all (each keeps its views and events
beside its answer, of about its size): the oldest go first."""

LAYOUTS = ("wide", "narrow")
"""The pictures' layouts (``narrow``: drawn for a phone's width)."""


@frozen
class SeatReplay:
    """A finished game as ``seen_by`` saw it, folded once: the answer of ``GET
    /games/{id}/replay`` as data (``data``) and as its JSON bytes (``body``), and for each step
    what its picture is drawn from (the seat's view then, and the step's events as it saw
    them)."""

    info: catalog.GameInfo
    seen_by: int | None
    public: Any
    data: dict[str, JSONValue]
    body: bytes
    versions: tuple[int, ...]
    views: tuple[Any, ...]
    lasts: tuple[tuple[Any, ...], ...]

    def step(self, version: int, layout: str = "wide") -> dict[str, JSONValue]:
        """The step that ends at ``version``, with its picture (``svg``) drawn in ``layout``.

        :raises ApiError: 404 ``not-found`` when no step ends at ``version``.
        """
        try:
            index = self.versions.index(version)
        except ValueError:
            raise ApiError(
                Refusal.NOT_FOUND,
                f"no step of this replay ends at version {version} (GET "
                "/games/{id}/replay lists the steps' versions)",
            ) from None
        module: Any = self.info.load()
        svg: str = module.picture(
            self.views[index], table=self.public, last=self.lasts[index], layout=layout
        )
        steps = self.data["steps"]
        assert isinstance(steps, list)
        step = steps[index]
        assert isinstance(step, dict)
        return {**step, "seen_by": self.seen_by, "svg": svg}


def _boundaries(game: AnyGame) -> list[int]:
    """The versions at the end of each step: after the opening events (where the first
    command's events begin), then after each command (where the next one's begin, and the end
    of the log)."""
    cause = type(game).rules.cause
    events = game.events
    cuts = [index for index, event in enumerate(events) if cause(event) is not None]
    return [*cuts, len(events)]


def seat_replay(
    game: AnyGame, info: catalog.GameInfo, seen_by: int | None, game_id: str = ""
) -> SeatReplay:
    """``game`` at every command boundary as ``seen_by`` (a seat, or ``None`` for the spectator)
    saw it: each step's version, the events the seat saw in it with their positions
    (:meth:`~avanti.core.game.Game.events_for`), their words (the game's ``narrate`` for the
    seat, told once over the seat's whole stream, as the table tells it), the seat's view then
    and the seats awaited. The log is folded once from its start, so the work grows with its
    length. Everything in it is a function of what ``seen_by`` may see.

    :raises IllegalCommand: ``seen_by`` is no seat of the game (reason ``no-such-seat``).
    """
    rules = type(game).rules
    codec = rules.codec
    seen = game.events_for(seen_by, after=0)  # checks the seat
    public = game.public_setup
    module: Any = info.load()
    lines = module.narrate([event for _, event in seen], public, seat=seen_by)
    events = game.events
    state, _ = rules.start(game.setup)
    steps: list[JSONValue] = []
    versions: list[int] = []
    views: list[Any] = []
    lasts: list[tuple[Any, ...]] = []
    before = 0
    told = 0
    for version in _boundaries(game):
        state = rules.fold(state, events[before:version])
        upto = told
        while upto < len(seen) and seen[upto].position < version:
            upto += 1
        view = rules.view(state, seen_by)
        steps.append(
            {
                "version": version,
                "events": [
                    {"position": position, "event": codec.event_to_data(event)}
                    for position, event in seen[told:upto]
                ],
                "lines": [str(line) for line in lines[told:upto]],
                "view": codec.unstructure(view),
                "waiting": list(rules.waiting(state)),
            }
        )
        versions.append(version)
        views.append(view)
        lasts.append(tuple(event for _, event in seen[told:upto]))
        before, told = version, upto
    lasts[0] = ()  # the picture's last move: none before the first command
    data: dict[str, JSONValue] = {
        "id": game_id,
        "game": info.name,
        "seen_by": seen_by,
        "players": [str(name) for name in getattr(public, "players", ())],
        "version": game.version,
        "public_setup": public_setup_data(game),
        "outcome": outcome_data(game),
        "steps": steps,
    }
    return SeatReplay(
        info,
        seen_by,
        public,
        data,
        dumps(data).encode(),
        tuple(versions),
        tuple(views),
        tuple(lasts),
    )


# -- the endpoints ------------------------------------------------------------------------------


class Kept:
    """The replays asked for last, by game and seat: at most ``most`` of them and ``most_bytes``
    of their answers; the one asked for longest ago goes first. Made and used on the app's
    event loop only, so it needs no lock."""

    def __init__(self, most: int = KEPT, most_bytes: int = KEPT_BYTES) -> None:
        self._most = most
        self._most_bytes = most_bytes
        self._bytes = 0
        self._replays: OrderedDict[tuple[str, int | None], SeatReplay] = OrderedDict()

    def __len__(self) -> int:
        return len(self._replays)

    def get(self, game: str, seen_by: int | None) -> SeatReplay | None:
        """The kept replay of ``game`` as ``seen_by`` saw it, now the last asked for; or
        ``None``."""
        found = self._replays.get((game, seen_by))
        if found is not None:
            self._replays.move_to_end((game, seen_by))
        return found

    def keep(self, game: str, replay: SeatReplay) -> None:
        """Keep ``replay`` of ``game``, letting the oldest go while there are too many."""
        key = (game, replay.seen_by)
        old = self._replays.pop(key, None)
        if old is not None:
            self._bytes -= len(old.body)
        self._replays[key] = replay
        self._bytes += len(replay.body)
        while len(self._replays) > self._most or (
            self._bytes > self._most_bytes and len(self._replays) > 1
        ):
            _, gone = self._replays.popitem(last=False)
            self._bytes -= len(gone.body)


def _kept(request: Request) -> Kept:
    """The replays this app keeps (made on its first replay request, on the event loop)."""
    state = request.app.state
    kept: Kept | None = getattr(state, "replays", None)
    if kept is None:
        kept = state.replays = Kept()
    return kept


async def _replay(request: Request) -> SeatReplay:
    """The replay the request names, kept or built (in a job of the lab's budget)."""
    seen_by = read_seen_by(request.query_params.get("seen_by", "spectator"))
    wanted = game_id(request.path_params["game_id"])
    kept = _kept(request)
    found = kept.get(wanted, seen_by)
    if found is not None:
        return found
    server = server_of(request)
    seated = await server.read(wanted)
    game = seated.game
    if not game.is_over:
        raise ApiError(Refusal.NOT_OVER, "a game is replayed once it is over")
    players = len(getattr(game.public_setup, "players", ()))
    if seen_by is not None and seen_by >= players:
        raise ApiError(
            Refusal.BAD_REQUEST, f"seen_by is a seat of the game (0 to {players - 1}) or spectator"
        )
    replay = await jobs_of(request).run(
        client_of(request), seat_replay, game, seated.info, seen_by, wanted
    )
    most = server.limits.lab_answer_bytes
    if len(replay.body) > most:
        log(logging.WARNING, "limit", limit="lab_answer_bytes")
        raise ApiError(
            Refusal.TOO_LARGE,
            f"the replay would hold {len(replay.body):,} bytes, more than the server's {most:,}",
        )
    kept.keep(wanted, replay)
    return replay


async def get_replay(request: Request) -> Response:
    """``GET /games/{id}/replay``: a finished game's steps as ``seen_by`` saw them."""
    replay = await _replay(request)
    return Response(replay.body, media_type="application/json")


async def get_replay_step(request: Request) -> Response:
    """``GET /games/{id}/replay/{version}``: one step of a replay, with its picture."""
    version = read_whole(str(request.path_params["version"]), 0, 10**12)
    if version is None:
        raise ApiError(Refusal.BAD_REQUEST, "a step is named by its version, a whole number")
    layout = request.query_params.get("layout", "wide")
    if layout not in LAYOUTS:
        raise ApiError(Refusal.BAD_REQUEST, "layout is wide or narrow")
    replay = await _replay(request)
    step = await jobs_of(request).run(client_of(request), replay.step, version, layout)
    return Response(dumps(step), media_type="application/json")


REPLAY_ENDPOINTS = {"get_replay": get_replay, "get_replay_step": get_replay_step}
"""The replay endpoints by their name in :data:`avanti.server.protocol.routes.ROUTES`."""
