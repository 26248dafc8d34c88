"""The browser front end: the lobby, the table page and what they read beyond the protocol.

- ``GET /``: the lobby (``web/index.html``): create a game of any game in the catalog, with bots
  in some seats, and get a join link per seat, ``/play/{id}#{token}``. The token is in the
  link's fragment, which a browser never sends to a server, so it stays out of logs.
- ``GET /play/{id}``: the table page (``web/play.html``). Its script reads the token from the
  fragment and talks to the game with the protocol of :mod:`avanti.server.app`: the WebSocket
  for live updates and commands, and the two reads below.
- ``GET /static/{file}``: the page's scripts (ES modules), style sheet and icon, from
  ``web/``. There is no build step and nothing is fetched from elsewhere.
- ``GET /catalog``: the games served (name, title, seat limits, default names) and the bots.
- ``GET /games/{id}/table``: with the same ``Authorization: Bearer`` token as ``GET
  /games/{id}`` (none: a spectator), the seat's picture (``picture(game.view(seat),
  table=game.public_setup, last=game.last_events(seat))``) and its history in words
  (``describe`` of each event of ``events_for(seat)`` from ``?after=n``). Both are functions of
  what the seat may see (A30), as everything else the seat is sent.

Every page is sent with a Content-Security-Policy that allows scripts, styles and connections
to this server only, and with no referrer, so no address a page opens leaves it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import DecodeError, UnknownGame
from avanti.server.limits import ServerLimits
from avanti.server.log import LOGGER, log
from avanti.server.seats import BadToken, Table
from avanti.server.wire import AnyGame, ApiError, dumps
from avanti.store import GameStore, StoreError, UnknownStream
from avanti.store.base import STREAM_NAME

__all__ = ["SECURITY_HEADERS", "WEB", "Served", "page_routes", "table_data"]

WEB = Path(__file__).with_name("web")
"""The folder of the front end's static files."""

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
        "object-src 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}
"""Headers of every page and static file: nothing runs, loads or connects but from this server,
and no address (with or without a fragment) is sent on as a referrer."""

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}


class Served(Protocol):
    """What the pages need of the server: its games and its limits."""

    @property
    def games(self) -> GameStore:
        """The games."""

    @property
    def limits(self) -> ServerLimits:
        """The limits."""


def _file(name: str) -> Response:
    """One file of :data:`WEB`, named by a plain file name (no folders); 404 otherwise."""
    path = WEB / name
    if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
        return _json({"error": {"kind": "not-found", "message": "no such file"}}, 404)
    media = _TYPES.get(path.suffix, "application/octet-stream")
    return Response(path.read_bytes(), media_type=media, headers=SECURITY_HEADERS)


def _json(data: object, status: int = 200) -> Response:
    return Response(
        dumps(data), status_code=status, media_type="application/json", headers=SECURITY_HEADERS
    )


def _info(name: str) -> catalog.GameInfo:
    """The catalog entry of a stored game's name or document format."""
    for info in catalog.GAMES.values():
        if name == info.name or name in info.formats:
            return info
    raise UnknownGame(name, tuple(catalog.GAMES))


def _seat(table: Table | None, header: str | None) -> int | None:
    """The seat of a request's bearer token (``None``: a spectator); 401 for any other token,
    with the server's one answer to a bad token."""
    unauthorized = ApiError(401, "unauthorized", "that is no seat's token in this game")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or table is None:
        raise unauthorized
    try:
        return table.seat_for(token.strip())
    except BadToken:
        raise unauthorized from None


def table_data(game: AnyGame, info: catalog.GameInfo, seat: int | None, after: int) -> JSONValue:
    """A seat's table: its picture of the game and the events it may see from position
    ``after`` on, each in words. Built only from :meth:`~avanti.core.game.Game.view`,
    :meth:`~avanti.core.game.Game.last_events`, :meth:`~avanti.core.game.Game.events_for` and
    the public setup, so it holds nothing hidden from ``seat`` (A30)."""
    module: Any = info.load()
    public = game.public_setup
    svg: str = module.picture(game.view(seat), table=public, last=game.last_events(seat))
    history: list[JSONValue] = [
        {"position": position, "text": str(module.describe(event, public))}
        for position, event in game.events_for(seat, after=after)
    ]
    return {"version": game.version, "seat": seat, "svg": svg, "history": history}


def page_routes(server: Served) -> list[BaseRoute]:
    """The routes of the front end, for :func:`avanti.server.create_app`'s route list."""

    def answering(
        handler: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as error:
                status = error.status
                headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
                response = _json(error.body(), status)
                response.headers.update(headers)
                return response
            except StoreError as error:
                log(logging.ERROR, "store-failed", message=str(error))
                return _json(
                    {"error": {"kind": "unavailable", "message": "the game store is unavailable"}},
                    503,
                )
            except (DecodeError, UnknownGame) as error:
                log(logging.ERROR, "unreadable-game", path=request.url.path, message=str(error))
                return _json(
                    {
                        "error": {
                            "kind": "internal",
                            "message": "the server failed; this was logged",
                        }
                    },
                    500,
                )
            except Exception:  # pragma: no cover - a bug, answered and logged
                LOGGER.exception("internal error", extra={"avanti_fields": {"path": "page"}})
                return _json(
                    {
                        "error": {
                            "kind": "internal",
                            "message": "the server failed; this was logged",
                        }
                    },
                    500,
                )

        return endpoint

    async def lobby(request: Request) -> Response:
        return _file("index.html")

    async def play(request: Request) -> Response:
        if STREAM_NAME.fullmatch(str(request.path_params["game_id"])) is None:
            raise ApiError(404, "unknown-game", "there is no such game")
        return _file("play.html")

    async def static(request: Request) -> Response:
        return _file(str(request.path_params["name"]))

    async def games(request: Request) -> Response:
        served = [
            {
                "name": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "default_players": list(info.player_names(info.max_players)),
            }
            for info in catalog.GAMES.values()
        ]
        return _json({"games": served, "bots": list(server.limits.bot_kinds)})

    def read_table(game_id: str, header: str | None, after_text: str | None) -> JSONValue:
        try:
            record = server.games.events.stream(game_id)
        except UnknownStream:
            raise ApiError(404, "unknown-game", "there is no such game") from None
        table = Table.from_metadata(record.metadata)
        seat = _seat(table, header)
        game: AnyGame = server.games.load(game_id)
        after = 0
        if after_text is not None:
            if not (after_text.isascii() and after_text.isdigit() and len(after_text) <= 12):
                raise ApiError(400, "bad-request", "?after= must be a version (an int >= 0)")
            after = int(after_text)
            if after > game.version:
                raise ApiError(
                    400, "bad-request", f"?after= is beyond the game's version, {game.version}"
                )
        info = _info(table.game if table is not None else record.format)
        return table_data(game, info, seat, after)

    async def table(request: Request) -> Response:
        game_id = str(request.path_params["game_id"])
        if STREAM_NAME.fullmatch(game_id) is None:
            raise ApiError(404, "unknown-game", "there is no such game")
        data = await to_thread.run_sync(
            read_table,
            game_id,
            request.headers.get("authorization"),
            request.query_params.get("after"),
        )
        return _json(data)

    return [
        Route("/", answering(lobby), methods=["GET"]),
        Route("/play/{game_id}", answering(play), methods=["GET"]),
        Route("/static/{name}", answering(static), methods=["GET"]),
        Route("/catalog", answering(games), methods=["GET"]),
        Route("/games/{game_id}/table", answering(table), methods=["GET"]),
    ]
