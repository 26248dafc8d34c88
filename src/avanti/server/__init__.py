"""The game server: HTTP and WebSocket play of every game in the catalog, on any event store.

``avanti serve`` runs it (``pip install "avanti[server]"``); :func:`create_app` builds the ASGI
app for those who serve or mount it themselves::

    from avanti.server import create_app
    from avanti.store import SQLiteEventStore

    app = create_app(SQLiteEventStore("games.db"))  # then: uvicorn module:app

It keeps games in the store, gives each person's seat a secret token, pushes every change to
every WebSocket showing each seat only what it may see, plays bots in the seats given to them,
and serves the same games from several processes on one database. The protocol is described on
the docs page "The game server".
"""

from __future__ import annotations

try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the environment
    raise ImportError('the game server needs its extra: pip install "avanti[server]"') from missing

from avanti.server.limits import ServerLimits
from avanti.server.transport.app import DEFAULT_THINK_SECONDS, create_app

__all__ = ["DEFAULT_THINK_SECONDS", "ServerLimits", "create_app"]
