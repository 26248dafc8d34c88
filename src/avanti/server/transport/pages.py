"""The browser front end: the lobby and table pages, their static files and security headers.

- ``GET /``: the lobby (``web/index.html``): create a game of any game in the catalog, with bots
  in some seats, and get a join link per seat, ``/play/{id}#{token}``. The token is in the
  link's fragment, which a browser never sends to a server, so it stays out of logs.
- ``GET /play/{id}``: the table page (``web/play.html``). Its script reads the token from the
  fragment, asks for the table in its WebSocket hello, and draws every ``update``'s picture and
  history: it fetches nothing per change.
- ``GET /replay/{id}``: the replay page (``web/replay.html``) of a finished game: its steps as
  a seat or the spectator saw them, asked of ``GET /games/{id}/replay`` and one picture a step.
- ``GET /static/{file}``: the pages' scripts (ES modules), style sheet and icon, from ``web/``,
  served by Starlette's ``StaticFiles``. There is no build step and nothing from elsewhere.

Every response is sent with a Content-Security-Policy that allows scripts, styles and
connections to this server only, and with no referrer (:class:`SecurityHeaders`).
"""

from __future__ import annotations

from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from avanti.server.protocol.wire import game_id

__all__ = ["PAGES", "SECURITY_HEADERS", "WEB", "SecurityHeaders", "static_mount"]

WEB = Path(__file__).parent.parent / "web"
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
"""Headers of every response: nothing runs, loads or connects but from this server, and no
address (with or without a fragment) is sent on as a referrer."""


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request, adding the headers to its response."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, sending)


async def lobby_page(request: Request) -> Response:
    """``GET /``: the lobby page."""
    return FileResponse(WEB / "index.html", media_type="text/html; charset=utf-8")


async def play_page(request: Request) -> Response:
    """``GET /play/{id}``: the table page (404 for an id no game can have)."""
    game_id(request.path_params["game_id"])
    return FileResponse(WEB / "play.html", media_type="text/html; charset=utf-8")


async def replay_page(request: Request) -> Response:
    """``GET /replay/{id}``: the replay page of a finished game (404 for an id no game can
    have)."""
    game_id(request.path_params["game_id"])
    return FileResponse(WEB / "replay.html", media_type="text/html; charset=utf-8")


PAGES = {"lobby_page": lobby_page, "play_page": play_page, "replay_page": replay_page}
"""The page endpoints by their name in :data:`avanti.server.protocol.routes.ROUTES`."""


def static_mount() -> Mount:
    """``/static``: the files of :data:`WEB`."""
    return Mount("/static", app=StaticFiles(directory=WEB), name="static")
