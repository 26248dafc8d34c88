"""The ASGI application: :func:`create_app` builds the game server on any event store.

The protocol (JSON everywhere; values as the game's codec writes them):

- ``POST /games``: create a game; the reply holds each person's seat token, once.
- ``GET /games``: the lobby, games in play, most recently updated first (``?game=``,
  ``?limit=``).
- ``GET /games/{id}``: the game as the seat of the ``Authorization: Bearer`` token sees it, or as
  a spectator without a token (``?after=n``: only events from position ``n`` on).
- ``POST /games/{id}/commands``: a command of the token's seat, as ``command`` or ``notation``,
  with an optional ``expected_version`` and ``command_id`` (which names that one command).
- ``PUT`` / ``DELETE /games/{id}/seats/{seat}/bot``: hand the token's seat to a bot, take it back.
- ``GET /games/{id}/stream``: a WebSocket of ``update`` messages for the seat named by the
  first message (``{"token": ..., "after": n, "table": true}``); commands may be sent on it too.
- ``GET /games/{id}/replay`` (``?seen_by=``), ``GET /games/{id}/replay/{version}``: a finished
  game step by step as a seat or the spectator saw it, and one step with its picture.
- ``GET /games/{id}/table``, ``GET /catalog``, ``GET /health``, ``GET /openapi.json``,
  ``GET /schemas/{game}``, and the browser pages.

The routes are one table (:data:`avanti.server.protocol.routes.ROUTES`), read here and by the
OpenAPI document. Every request body must be ``application/json`` (so no other site's page can send
one without the browser asking first). Every command is written to the store before it is
acknowledged, so stopping the server loses nothing that was acknowledged.

The app's lifespan runs the WebSocket followers and the bots: a host app that mounts this one
must run it (``Starlette(routes=[Mount("/play", app)], lifespan=lambda _:
app.router.lifespan_context(app))``); without it the server answers HTTP but refuses
WebSockets with ``unavailable`` and plays no bots.
"""

from __future__ import annotations

import logging
import math
import time

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Match, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from avanti.core.errors import InvalidArgument
from avanti.server.limits import ServerLimits
from avanti.server.log import log
from avanti.server.protocol.routes import ROUTES
from avanti.server.runtime import Server
from avanti.server.transport.http import ENDPOINTS, EXCEPTION_HANDLERS, SEATING_ENDPOINTS
from avanti.server.transport.lab import LAB_ENDPOINTS, LAB_PAGES
from avanti.server.transport.pages import PAGES, SecurityHeaders, static_mount
from avanti.server.transport.push import Hub
from avanti.server.transport.replay import REPLAY_ENDPOINTS
from avanti.server.transport.socket import CLOSE_CODES, stream
from avanti.store import EventStore, GameStore

__all__ = ["CLOSE_CODES", "DEFAULT_THINK_SECONDS", "RequestLog", "create_app"]

DEFAULT_THINK_SECONDS = 2.0
"""How long a bot may think about one command before a random legal one is played instead."""


class RequestLog:
    """ASGI middleware: one log line per HTTP request (method, path, status, milliseconds);
    never the query, which may hold what a client should not have put there."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request, then log it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            log(
                logging.INFO,
                "request",
                method=scope.get("method", ""),
                path=scope.get("path", ""),
                status=status,
                ms=round((time.perf_counter() - started) * 1000, 1),
            )


class DirectStreams:
    """ASGI middleware: a game's WebSocket stream (``GET /games/{id}/stream``) served on the
    server's own ``send`` and ``receive``, past the wrappers Starlette puts around each message
    of a route (a stream sends a message to every seat for every change). Any other request
    goes on to the app; the stream's route stays in it, for a host that mounts the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        spec = next(spec for spec in ROUTES if spec.method == "WEBSOCKET")
        self.route = WebSocketRoute(spec.path, stream, name=spec.name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve a stream, or pass the request on."""
        if scope["type"] == "websocket":
            match, child = self.route.matches(scope)
            if match is Match.FULL:
                await stream(WebSocket({**scope, **child}, receive, send))
                return
        await self.app(scope, receive, send)


def routes() -> list[BaseRoute]:
    """The app's routes, from :data:`~avanti.server.protocol.routes.ROUTES`."""
    found: list[BaseRoute] = []
    for spec in ROUTES:
        if spec.method == "WEBSOCKET":
            found.append(WebSocketRoute(spec.path, stream, name=spec.name))
            continue
        endpoint = {
            **ENDPOINTS,
            **SEATING_ENDPOINTS,
            **LAB_ENDPOINTS,
            **LAB_PAGES,
            **REPLAY_ENDPOINTS,
        }.get(spec.name) or PAGES[spec.name]
        found.append(Route(spec.path, endpoint, methods=[spec.method], name=spec.name))
    found.append(static_mount())
    return found


def create_app(
    store: GameStore | EventStore,
    *,
    limits: ServerLimits = ServerLimits(),  # noqa: B008  ServerLimits is frozen: sharing is safe
    bot_think_seconds: float = DEFAULT_THINK_SECONDS,
    bot_workers: int = 1,
) -> Starlette:
    """The game server as an ASGI app (Starlette) on ``store``.

    ``store`` is a :class:`~avanti.store.GameStore` or any event store (a ``GameStore`` with
    ``hold=True`` is made over it: a command on a game this process holds costs one append and
    no read, the append checking that nobody else wrote meanwhile). Several apps, in one
    process or many, may share one database: each pushes the changes the others make. The app
    does not close the store. Bots think in ``bot_workers`` worker processes of their own
    (started when a bot first plays).

    :raises InvalidArgument: ``bot_think_seconds`` is not a number of seconds above 0, or
        ``bot_workers`` not an int from 1 to 64.
    """
    if (
        isinstance(bot_think_seconds, bool)
        or not isinstance(bot_think_seconds, (int, float))
        or not math.isfinite(bot_think_seconds)
        or bot_think_seconds <= 0
    ):
        raise InvalidArgument(
            f"bot_think_seconds must be a number of seconds above 0, not {bot_think_seconds!r}"
        )
    if type(bot_workers) is not int or not 1 <= bot_workers <= 64:
        raise InvalidArgument(f"bot_workers must be an int from 1 to 64, not {bot_workers!r}")
    if not isinstance(limits, ServerLimits):
        raise InvalidArgument(f"limits must be a ServerLimits, not {limits!r:.80}")
    games = store if isinstance(store, GameStore) else GameStore(store, hold=True)
    server = Server(games, limits, float(bot_think_seconds), bot_workers)
    hub = Hub(games, limits, changes=server.changes)  # the sockets hear every change
    server.followers.append(hub)
    app = Starlette(
        routes=routes(),
        lifespan=server.lifespan,
        middleware=[
            Middleware(DirectStreams),
            Middleware(RequestLog),
            Middleware(SecurityHeaders),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
    )
    app.state.server = server
    app.state.hub = hub
    return app
