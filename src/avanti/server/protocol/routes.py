"""The protocol's routes as data: one table read by the app (to route) and by the OpenAPI
document (to describe), so the two cannot disagree. No web framework is imported here."""

from __future__ import annotations

from attrs import frozen

__all__ = ["ROUTES", "RouteSpec"]


@frozen
class RouteSpec:
    """One route of the protocol."""

    method: str
    """``GET``, ``POST``, ``PUT``, ``DELETE``, or ``WEBSOCKET``."""
    path: str
    """The path, with ``{name}`` parameters as Starlette and OpenAPI write them."""
    name: str
    """The handler's name (a function of :mod:`avanti.server.transport.http`), the OpenAPI operation
    id."""
    summary: str
    """One line about it."""
    documented: bool = True
    """Whether the OpenAPI document describes it (the browser pages are left out)."""


ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec("GET", "/health", "health", "Whether the server answers"),
    RouteSpec("GET", "/openapi.json", "openapi", "This document"),
    RouteSpec("GET", "/schemas/{game}", "schemas", "JSON Schemas of one game's values"),
    RouteSpec("GET", "/games", "list_games", "The lobby: open tables, games in play, finished"),
    RouteSpec("POST", "/games", "create_game", "Create a game; each person's seat token, once"),
    RouteSpec("GET", "/games/{game_id}", "get_game", "A game as a seat (or a spectator) sees it"),
    RouteSpec("POST", "/games/{game_id}/commands", "post_command", "A command of the token's seat"),
    RouteSpec("PUT", "/games/{game_id}/seats/{seat}/bot", "put_bot", "Hand a seat to a bot"),
    RouteSpec("DELETE", "/games/{game_id}/seats/{seat}/bot", "delete_bot", "Take a seat back"),
    RouteSpec("POST", "/games/{game_id}/seats", "take_seat", "Take the next open seat by name"),
    RouteSpec("POST", "/games/{game_id}/start", "start_table", "Fill open seats with bots, start"),
    RouteSpec("POST", "/games/{game_id}/rematch", "rematch", "The token's seat in the rematch"),
    RouteSpec("GET", "/games/{game_id}/table", "get_table", "A seat's picture and history"),
    RouteSpec("GET", "/games/{game_id}/replay", "get_replay", "A finished game as a seat saw it"),
    RouteSpec("GET", "/games/{game_id}/replay/{version}", "get_replay_step", "A replay's step"),
    RouteSpec("GET", "/catalog", "get_catalog", "The games and bots served"),
    RouteSpec("WEBSOCKET", "/games/{game_id}/stream", "stream", "Live updates of one seat"),
    RouteSpec("GET", "/lab/forms", "lab_forms", "The lab's case form of every game"),
    RouteSpec("POST", "/lab/compare", "lab_compare", "A rules case played under two readings"),
    RouteSpec("POST", "/lab/replay", "lab_replay", "A saved game, command by command"),
    RouteSpec("GET", "/lab", "lab_page", "The rules lab page", documented=False),
    RouteSpec("GET", "/", "lobby_page", "The lobby page", documented=False),
    RouteSpec("GET", "/play/{game_id}", "play_page", "The table page", documented=False),
    RouteSpec("GET", "/replay/{game_id}", "replay_page", "The replay page", documented=False),
)
"""Every route of the server, in the order they are matched."""
