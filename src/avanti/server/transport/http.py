"""The HTTP endpoints: thin callers of the table core (:mod:`avanti.server.table.master`).

Each endpoint reads its request, makes one call of the core in a worker thread, and answers
JSON. Refusals are raised as :class:`~avanti.server.protocol.wire.ApiError` and answered by the
app's exception handlers (:data:`EXCEPTION_HANDLERS`), which also turn a failing store into 503 and
a bug into a logged 500.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import urlsplit

import anyio
from anyio import to_thread
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from avanti import catalog
from avanti.core.codec import JSONValue, parse_json
from avanti.core.errors import DecodeError, UnknownGame
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.requests import CommandRequest, NewGame, SeatRequest
from avanti.server.protocol.wire import (
    ApiError,
    dumps,
    events_data,
    game_id,
    legal_data,
    outcome_data,
    public_setup_data,
    refusal_of,
    table_data,
    view_data,
)
from avanti.server.runtime import Server
from avanti.store import StoreError

__all__ = [
    "ENDPOINTS",
    "EXCEPTION_HANDLERS",
    "Jobs",
    "client_of",
    "json_response",
    "read_body",
    "read_whole",
    "server_of",
]

Endpoint = Callable[[Request], Awaitable[Response]]
T = TypeVar("T")


def json_response(
    data: object, status: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    """A JSON response."""
    return Response(dumps(data), status_code=status, media_type="application/json", headers=headers)


def server_of(request: Request) -> Server:
    """The app's :class:`~avanti.server.runtime.Server` (its state)."""
    server: Server = request.app.state.server
    return server


def _token(request: Request) -> str | None:
    """The bearer token of a request, ``None`` without ``Authorization``; 401 if malformed."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(Refusal.UNAUTHORIZED, "that is no seat's token in this game")
    return token.strip()


_DIGITS = re.compile(r"[0-9]+")
"""ASCII digits and nothing else (``str.isdigit`` also takes ``²`` and ``①``, which ``int``
refuses, and ``\\d`` every script's digits)."""


def read_whole(text: str, least: int, most: int) -> int | None:
    """``text`` as a whole number from ``least`` to ``most`` when it is written in ASCII digits
    alone, at most 12 of them; ``None`` for anything else (a sign, a space, ``²``, ``①``, another
    script's digits, too many digits): the one strict reader of the numbers in a request."""
    if len(text) > 12 or _DIGITS.fullmatch(text) is None:
        return None
    number = int(text)
    return number if least <= number <= most else None


def _query_int(request: Request, name: str, default: int, least: int, most: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    number = read_whole(text, least, most)
    if number is None:
        raise ApiError(
            Refusal.BAD_REQUEST, f"?{name}= must be a whole number from {least} to {most}"
        )
    return number


class Jobs:
    """A budget of worker threads for the requests that cost much CPU (the rules lab's): at most
    ``workers`` jobs run at once, at most ``queue`` more wait for a worker, and one client
    address has at most ``per_client`` running or waiting. A job beyond is refused at once,
    before any work, so the other endpoints keep the rest of the machine; each refusal is
    logged as a limit named ``<name>_jobs_per_client`` or ``<name>_queue``.

    Made and used on the app's event loop only, so its counts need no lock.
    """

    def __init__(self, workers: int, queue: int, per_client: int, *, name: str) -> None:
        self._workers = anyio.CapacityLimiter(workers)
        self._most = workers + queue
        self._per_client = per_client
        self._name = name
        self._jobs = 0
        self._by_client: dict[str, int] = {}

    @property
    def under_way(self) -> int:
        """The jobs running or waiting now."""
        return self._jobs

    async def run(self, client: str, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in a worker thread of the budget's, once one is free, for
        ``client`` (an address).

        :raises ApiError: 429 ``rate-limited`` when ``client`` has its share of jobs running
            or waiting already, 503 ``busy`` when as many jobs run and wait as the budget takes.
        """
        if self._by_client.get(client, 0) >= self._per_client:
            log(logging.WARNING, "limit", limit=f"{self._name}_jobs_per_client")
            raise ApiError(
                Refusal.RATE_LIMITED,
                f"this address has as many {self._name} requests under way as it may; "
                "wait for their answers",
            )
        if self._jobs >= self._most:
            log(logging.WARNING, "limit", limit=f"{self._name}_queue")
            raise ApiError(
                Refusal.BUSY, f"the {self._name} is busy with other requests; try again in a moment"
            )
        self._jobs += 1
        self._by_client[client] = self._by_client.get(client, 0) + 1
        try:
            return await to_thread.run_sync(work, *args, limiter=self._workers)
        finally:
            self._jobs -= 1
            left = self._by_client.pop(client) - 1
            if left:
                self._by_client[client] = left


def _check_origin(request: Request) -> None:
    """Refuse a request another site's page made: a body that is not ``application/json``
    (which a page can send without asking the server first) or an ``Origin`` of another host."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(
            Refusal.UNSUPPORTED_MEDIA_TYPE, "a request body must be sent as application/json"
        )
    _same_origin(request)


def _same_origin(request: Request) -> None:
    """Refuse a request whose ``Origin`` is another host's."""
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "").lower()
        if origin == "null" or urlsplit(origin).netloc.lower() != host:
            raise ApiError(Refusal.CROSS_ORIGIN, "requests from pages of other sites are refused")


async def read_body(request: Request) -> JSONValue:
    """The request's JSON body, within the size and time limits."""
    _check_origin(request)
    limits = server_of(request).limits
    most = limits.max_body_bytes
    message = f"a request body holds at most {most} bytes"
    length = request.headers.get("content-length", "")
    if _DIGITS.fullmatch(length) and (len(length) > 12 or int(length) > most):
        log(logging.WARNING, "limit", limit="max_body_bytes", path=request.url.path)
        raise ApiError(Refusal.TOO_LARGE, message)
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(limits.body_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > most:
                    log(logging.WARNING, "limit", limit="max_body_bytes", path=request.url.path)
                    raise ApiError(Refusal.TOO_LARGE, message)
                chunks.append(chunk)
    except TimeoutError:
        log(logging.WARNING, "limit", limit="body_timeout", path=request.url.path)
        raise ApiError(
            Refusal.REQUEST_TIMEOUT, f"a request body must arrive within {limits.body_timeout:g} s"
        ) from None
    except ClientDisconnect:  # pragma: no cover - the client went away mid-request
        raise ApiError(Refusal.BAD_REQUEST, "the request was cut short") from None
    try:
        return parse_json(b"".join(chunks))
    except DecodeError as error:
        raise ApiError(Refusal.MALFORMED_JSON, "; ".join(error.errors)[:300]) from None


# -- endpoints ----------------------------------------------------------------------------------


async def health(request: Request) -> Response:
    """``GET /health``: ``{"status": "ok"}``."""
    return json_response({"status": "ok"})


async def openapi(request: Request) -> Response:
    """``GET /openapi.json``: the protocol as an OpenAPI document."""
    return json_response(server_of(request).document(""))


async def schemas(request: Request) -> Response:
    """``GET /schemas/{game}``: JSON Schemas of a game's views, commands and events."""
    return json_response(server_of(request).document(str(request.path_params["game"])))


async def list_games(request: Request) -> Response:
    """``GET /games``: the lobby, the most recently updated games in play first."""
    server = server_of(request)
    most = server.limits.list_limit
    limit = _query_int(request, "limit", most, 1, most)
    name = request.query_params.get("game")
    if name is not None and name not in catalog.GAMES:
        raise ApiError(Refusal.UNKNOWN_GAME, "no game of that name is served here", status=400)
    games = await to_thread.run_sync(server.tables.lobby, name, limit)
    return json_response({"games": games})


async def create_game(request: Request) -> Response:
    """``POST /games``: a new game with a secret seed; each person's seat token, once."""
    server = server_of(request)
    wanted = NewGame.read(await read_body(request), server.limits.bot_kinds)
    created = await server.create(wanted, client_of(request))
    log(logging.INFO, "created", game=created.game_id, kind=wanted.game, seats=len(wanted.players))
    seats = [
        {
            "seat": seat,
            "name": name,
            "token": token,
            "bot": wanted.bots.get(seat),
            "open": name is None,
        }
        for seat, (name, token) in enumerate(zip(wanted.players, created.tokens, strict=True))
    ]
    reply: dict[str, JSONValue] = {
        "id": created.game_id,
        "game": wanted.game,
        "seats": seats,
        "spectator": f"/games/{created.game_id}",
        "open": bool(wanted.open_seats),
    }
    if wanted.open_seats:
        reply["invite"] = f"/?join={created.game_id}"
    return json_response(reply, 201)


def client_of(request: Request) -> str:
    """The request's client address (``"unknown"`` without one): what the limits per address
    count."""
    return request.client.host if request.client else "unknown"


async def get_game(request: Request) -> Response:
    """``GET /games/{id}``: the game as the token's seat (or a spectator) sees it; a table
    with open seats as anyone may see it."""
    server = server_of(request)
    wanted = game_id(request.path_params["game_id"])
    try:
        seated = await server.read(wanted)
    except ApiError as error:
        if error.refusal is not Refusal.UNKNOWN_GAME:  # pragma: no cover - a store's refusal
            raise
        described = await to_thread.run_sync(server.joining.describe, wanted, _token(request))
        if not described["started"]:
            return json_response(described)
        seated = await server.read(wanted)
    game = seated.game
    seat = server.tables.seat_of(seated.table, _token(request))
    after = _query_int(request, "after", 0, 0, game.version)
    return json_response(
        {
            "id": seated.record.stream,
            "game": seated.info.name,
            "seat": seat,
            "version": game.version,
            "public_setup": public_setup_data(game),
            "view": view_data(game, seat),
            "waiting": list(game.waiting),
            "legal": legal_data(game, seat),
            "events": events_data(game, seat, after),
            "outcome": outcome_data(game),
        }
    )


async def get_table(request: Request) -> Response:
    """``GET /games/{id}/table``: the seat's picture and its history in words."""
    server = server_of(request)
    seated = await server.read(game_id(request.path_params["game_id"]))
    seat = server.tables.seat_of(seated.table, _token(request))
    game = seated.game
    text = request.query_params.get("after", "0")
    after = read_whole(text, 0, 10**12)
    if after is None:
        raise ApiError(Refusal.BAD_REQUEST, "?after= must be a version (an int >= 0)")
    if after > game.version:
        raise ApiError(Refusal.BAD_REQUEST, f"?after= is beyond the game's version, {game.version}")
    data = await to_thread.run_sync(table_data, game, seated.info, seat, after)
    return json_response(data)


async def post_command(request: Request) -> Response:
    """``POST /games/{id}/commands``: execute a command of the token's seat."""
    server = server_of(request)
    game = game_id(request.path_params["game_id"])
    token = _token(request)
    wanted = CommandRequest.read(await read_body(request))

    acted = await server.act(game, wanted, token=token, rate=True)
    after = acted.game
    since = acted.since  # the events from the version the client saw (a command may catch up)
    if wanted.expected_version is not None:
        since = min(since, wanted.expected_version)
    reply = {
        "version": after.version,
        "events": events_data(after, acted.seat, since),
        "legal": legal_data(after, acted.seat),
        "view": view_data(after, acted.seat),
    }
    return json_response(reply)


async def put_bot(request: Request) -> Response:
    """``PUT /games/{id}/seats/{seat}/bot``: hand the token's seat to a bot."""
    body = await read_body(request)
    kinds = server_of(request).limits.bot_kinds
    if not isinstance(body, dict) or set(body) != {"bot"}:
        raise ApiError(Refusal.BAD_REQUEST, """the body must be {"bot": "heuristic"}""")
    kind = body["bot"]
    if not isinstance(kind, str) or kind not in kinds:
        raise ApiError(Refusal.UNKNOWN_BOT, f"a bot must be one of {', '.join(kinds)}")
    return await _hand_over(request, kind)


async def delete_bot(request: Request) -> Response:
    """``DELETE /games/{id}/seats/{seat}/bot``: the token's seat is played by its person."""
    return await _hand_over(request, None)


async def _hand_over(request: Request, kind: str | None) -> Response:
    server = server_of(request)
    game = game_id(request.path_params["game_id"])
    token = _token(request)
    wanted = str(request.path_params["seat"])
    seat = await to_thread.run_sync(server.tables.hand_over, game, token, wanted, kind)
    log(logging.INFO, "bot-seat", game=game, seat=seat, bot=kind)
    await server.read(game)  # an awaited bot plays; the clock times the seats as they are now
    return json_response({"seat": seat, "bot": kind})


async def get_catalog(request: Request) -> Response:
    """``GET /catalog``: the games served (name, title, seat limits, default names, sides, how
    an amount of money is written), the bots."""
    served = [
        {
            "name": info.name,
            "title": info.title,
            "min_players": info.min_players,
            "max_players": info.max_players,
            "default_players": list(info.player_names(info.max_players)),
            "sides": list(info.sides),
            "money": info.load_presentation().money.to_data(),
        }
        for info in catalog.GAMES.values()
    ]
    return json_response({"games": served, "bots": list(server_of(request).limits.bot_kinds)})


ENDPOINTS: dict[str, Endpoint] = {
    "health": health,
    "openapi": openapi,
    "schemas": schemas,
    "list_games": list_games,
    "create_game": create_game,
    "get_game": get_game,
    "get_table": get_table,
    "post_command": post_command,
    "put_bot": put_bot,
    "delete_bot": delete_bot,
    "get_catalog": get_catalog,
}
"""The HTTP endpoints by their name in :data:`avanti.server.protocol.routes.ROUTES`."""


# -- refusals -----------------------------------------------------------------------------------


async def _refused(request: Request, error: Exception) -> Response:
    """A refusal, a failing store, an unreadable game or a bug, answered as
    :func:`~avanti.server.protocol.wire.refusal_of` maps it (the WebSocket session maps them
    alike)."""
    refused = refusal_of(error, path=request.url.path)
    unauthorized = refused.refusal is Refusal.UNAUTHORIZED
    headers = {"WWW-Authenticate": "Bearer"} if unauthorized else None
    return json_response(refused.body(), refused.status, headers)


async def _not_found(request: Request, error: Exception) -> Response:
    """Routing's own refusals (no such path, or method) as JSON errors."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    if status == 404:
        refused = ApiError(Refusal.NOT_FOUND, "no such path")
    elif status == 405:
        refused = ApiError(Refusal.METHOD_NOT_ALLOWED, "that method is not allowed here")
    else:  # pragma: no cover - the routes raise no other HTTPException
        refused = ApiError(Refusal.BAD_REQUEST, "bad-request")
    return json_response(refused.body(), refused.status)


EXCEPTION_HANDLERS: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
    ApiError: _refused,
    StoreError: _refused,
    DecodeError: _refused,
    UnknownGame: _refused,
    HTTPException: _not_found,
    Exception: _refused,
}
"""How the app answers what an endpoint raises (Starlette's ``exception_handlers``): each as
:func:`~avanti.server.protocol.wire.refusal_of` maps it, routing's own refusals as JSON errors. The
failures are named one by one beside ``Exception`` so that they are answered where the
endpoints' refusals are (Starlette answers ``Exception`` last, and raises it again to log it)."""


# -- open seats and rematches ------------------------------------------------------------


async def take_seat(request: Request) -> Response:
    """``POST /games/{id}/seats``: ``{"name": ...}`` takes the next open seat (with
    ``"side"``, in a game with sides, the side its person picks, M2); its token, once."""
    server = server_of(request)
    game = game_id(request.path_params["game_id"])
    body = SeatRequest.read(await read_body(request))
    seat, token = await to_thread.run_sync(
        server.joining.take, game, body.name, client_of(request), body.side
    )
    log(logging.INFO, "seated", game=game, seat=seat)
    await _started(server, game)
    return json_response({"game_id": game, "seat": seat, "token": token}, 201)


async def start_table(request: Request) -> Response:
    """``POST /games/{id}/start``: the creator has bots take the open seats; the game starts."""
    server = server_of(request)
    game = game_id(request.path_params["game_id"])
    body = await read_body(request)
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
    server = server_of(request)
    game = game_id(request.path_params["game_id"])
    _same_origin(request)  # no body: the bearer token alone, which no other site's page sends
    seat_of = functools.partial(server.rematch.seat, client=client_of(request))
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
:data:`avanti.server.protocol.routes.ROUTES`."""
