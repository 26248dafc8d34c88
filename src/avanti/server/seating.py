"""The HTTP endpoints of open tables and rematches: thin callers of
:class:`~avanti.server.joining.Joining` and :class:`~avanti.server.rematch.Rematches`, beside
the endpoints of :mod:`avanti.server.http` (whose request helpers they share)."""

from __future__ import annotations

import contextlib
import functools
import logging

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import Response

from avanti.server.http import (
    Endpoint,
    _body,
    _client,
    _same_origin,
    _server,
    _token,
    json_response,
)
from avanti.server.log import log
from avanti.server.refusals import Refusal
from avanti.server.service import Server
from avanti.server.wire import ApiError, game_id

__all__ = ["SEATING_ENDPOINTS"]


async def take_seat(request: Request) -> Response:
    """``POST /games/{id}/seats``: ``{"name": ...}`` takes the next open seat; its token, once."""
    server = _server(request)
    game = game_id(request.path_params["game_id"])
    body = await _body(request)
    if not isinstance(body, dict) or set(body) != {"name"}:
        raise ApiError(Refusal.BAD_REQUEST, """the body must be {"name": "Ann"}""")
    seat, token = await to_thread.run_sync(
        server.joining.take, game, body["name"], _client(request)
    )
    log(logging.INFO, "seated", game=game, seat=seat)
    await _started(server, game)
    return json_response({"game_id": game, "seat": seat, "token": token}, 201)


async def start_table(request: Request) -> Response:
    """``POST /games/{id}/start``: the creator has bots take the open seats; the game starts."""
    server = _server(request)
    game = game_id(request.path_params["game_id"])
    body = await _body(request)
    kinds = server.limits.bot_kinds
    if not isinstance(body, dict) or set(body) != {"bot"}:
        raise ApiError(Refusal.BAD_REQUEST, """the body must be {"bot": "heuristic"}""")
    kind = body["bot"]
    if not isinstance(kind, str) or kind not in kinds:
        raise ApiError(Refusal.UNKNOWN_BOT, f"a bot must be one of {', '.join(kinds)}")
    filled = await to_thread.run_sync(server.joining.fill, game, _token(request), kind)
    await _started(server, game)
    return json_response({"game_id": game, "bots": filled})


async def _started(server: Server, game: str) -> None:
    """After a seat was taken: a game that started gets its bots and its clock going."""
    with contextlib.suppress(ApiError):  # still open: no game yet
        await server.read(game)


async def rematch(request: Request) -> Response:
    """``POST /games/{id}/rematch``: the token's seat in the finished game's rematch."""
    server = _server(request)
    game = game_id(request.path_params["game_id"])
    _same_origin(request)  # no body: the bearer token alone, which no other site's page sends
    seat_of = functools.partial(server.rematch.seat, client=_client(request))
    new_id, seat, token = await to_thread.run_sync(seat_of, game, _token(request))
    server.said(game, {"type": "rematch", "game_id": new_id})
    await server.read(new_id)
    return json_response({"game_id": new_id, "seat": seat, "token": token})


SEATING_ENDPOINTS: dict[str, Endpoint] = {
    "take_seat": take_seat,
    "start_table": start_table,
    "rematch": rematch,
}
"""The endpoints of open tables and rematches by their name in
:data:`avanti.server.routes.ROUTES`."""
