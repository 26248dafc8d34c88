"""The ASGI application: :func:`create_app` builds the game server on any event store.

The protocol (JSON everywhere; values as the game's codec writes them):

- ``POST /games``: create a game; the reply holds each person's seat token, once.
- ``GET /games``: the lobby, most recently updated first (``?game=``, ``?limit=``).
- ``GET /games/{id}``: the game as the seat of the ``Authorization: Bearer`` token sees it, or as
  a spectator without a token (``?after=n``: only events from position ``n`` on).
- ``POST /games/{id}/commands``: a command of the token's seat, as ``command`` or ``notation``,
  with an optional ``expected_version`` and ``command_id`` (an idempotent retry).
- ``PUT`` / ``DELETE /games/{id}/seats/{seat}/bot``: hand the token's seat to a bot, take it back.
- ``GET /games/{id}/stream``: a WebSocket of ``update`` messages for the seat named by the
  first message (``{"token": ..., "after": n}``); commands may be sent on it too.
- ``GET /health``, ``GET /openapi.json``, ``GET /schemas/{game}``.

Every error is ``{"error": {"kind": ..., "message": ...}}`` with its status. What a seat is sent
is a function of what it may know: its view, its events, its legal commands, refusals of its own
commands (see :mod:`avanti.server.wire`). Every command is written to the store before it is
acknowledged, so stopping the server loses nothing that was acknowledged.

The app's lifespan runs the WebSocket followers and the bots: a host app that mounts this one
must run it (``Starlette(routes=[Mount("/play", app)], lifespan=lambda _:
app.router.lifespan_context(app))``); without it the server answers HTTP but refuses
WebSockets with ``unavailable`` and plays no bots.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import anyio
from anyio import to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from avanti import catalog
from avanti.core.codec import JSONValue, parse_json
from avanti.core.errors import (
    DecodeError,
    IllegalCommand,
    InvalidArgument,
    InvalidSetup,
    UnknownGame,
    VersionConflict,
)
from avanti.server.bots import BotRunner
from avanti.server.limits import Buckets, ServerLimits, TokenBucket
from avanti.server.log import LOGGER, log
from avanti.server.pages import page_routes
from avanti.server.push import Hub, Listener
from avanti.server.schema import openapi, schemas
from avanti.server.seats import BadToken, Seat, Table, new_token, token_hash
from avanti.server.wire import (
    AnyGame,
    ApiError,
    dumps,
    events_data,
    legal_data,
    outcome_data,
    public_setup_data,
    view_data,
)
from avanti.store import (
    EventStore,
    GameStore,
    MetadataChanged,
    StoredStream,
    StoreError,
    StreamExists,
    UnknownStream,
)
from avanti.store.base import STREAM_NAME, check_command_id

__all__ = ["CLOSE_CODES", "DEFAULT_THINK_SECONDS", "create_app"]

DEFAULT_THINK_SECONDS = 2.0
"""How long a bot may think about one command before a random legal one is played instead."""

CLOSE_CODES = {
    "bad-request": 4400,
    "malformed-json": 4400,
    "unauthorized": 4401,
    "unknown-game": 4404,
    "idle-timeout": 4408,
    "too-large": 1009,
    "too-many-connections": 1013,
    "unavailable": 1011,
    "internal": 1011,
}
"""The code a WebSocket is closed with, by the kind of the ``error`` message sent just before."""

MAX_RETRIES = 3
"""How often a command without ``expected_version`` is decided again when another command got
there first."""

_COMMAND_KEYS = frozenset({"command", "notation", "expected_version", "command_id"})
_GAME_KEYS = frozenset({"game", "players", "bots", "options"})


def _json(data: object, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json", headers=headers)


def _error(error: ApiError) -> Response:
    headers = {"WWW-Authenticate": "Bearer"} if error.status == 401 else None
    return _json(error.body(), error.status, headers)


def _unauthorized() -> ApiError:
    """The one refusal of every bad token: the same whatever the token."""
    return ApiError(401, "unauthorized", "that is no seat's token in this game")


def _unknown_game() -> ApiError:
    return ApiError(404, "unknown-game", "there is no such game")


def _limit(name: str, kind: str, status: int, message: str, **fields: JSONValue) -> ApiError:
    """A refusal by the limit ``name`` of :class:`ServerLimits`, logged."""
    log(logging.WARNING, "limit", limit=name, kind=kind, **fields)
    return ApiError(status, kind, message)


def _game_id(value: object) -> str:
    """A game id from a path; 404 for one no game can have."""
    if not isinstance(value, str) or STREAM_NAME.fullmatch(value) is None:
        raise _unknown_game()
    return value


def _int(value: object) -> int | None:
    """A non-negative int from JSON (no bool), else ``None``."""
    return value if type(value) is int and value >= 0 else None


def _query_int(request: Request, name: str, default: int, least: int, most: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 12 and least <= int(text) <= most):
        raise ApiError(
            400, "bad-request", f"?{name}= must be a whole number from {least} to {most}"
        )
    return int(text)


def _token(headers: Mapping[str, str]) -> str | None:
    """The bearer token of a request, ``None`` without ``Authorization``; 401 if malformed."""
    header = headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _unauthorized()
    return token.strip()


class CommandRequest:
    """A command as a client sends it: exactly one of ``command`` (its JSON) and ``notation``,
    an optional ``expected_version`` and an optional ``command_id``."""

    __slots__ = ("command", "command_id", "expected_version", "notation")

    def __init__(self, body: JSONValue, extra: frozenset[str] = frozenset()) -> None:
        if not isinstance(body, dict):
            raise ApiError(400, "bad-request", "the body must be a JSON object")
        unknown = sorted(set(body) - _COMMAND_KEYS - extra)
        if unknown:
            raise ApiError(400, "bad-request", f"unknown keys: {', '.join(unknown)}"[:200])
        if ("command" in body) == ("notation" in body):
            raise ApiError(400, "bad-request", "send exactly one of 'command' and 'notation'")
        notation = body.get("notation")
        if "notation" in body and not isinstance(notation, str):
            raise ApiError(400, "bad-request", "'notation' must be a string")
        expected = body.get("expected_version")
        if expected is not None and _int(expected) is None:
            raise ApiError(400, "bad-request", "'expected_version' must be a version (an int >= 0)")
        command_id = body.get("command_id")
        if command_id is not None:
            try:
                if not isinstance(command_id, str) or len(command_id) > 100:
                    raise InvalidArgument("not a command id")
                check_command_id(command_id)
            except InvalidArgument:
                raise ApiError(
                    400, "bad-request", "'command_id' must be 1 to 100 printable characters"
                ) from None
        self.command: JSONValue = body.get("command")
        """The command's JSON, if it was sent so."""
        self.notation = notation if isinstance(notation, str) else None
        """The command's notation, if it was sent so."""
        self.expected_version = _int(expected)
        """The version the client saw, if it sent one."""
        self.command_id = command_id if isinstance(command_id, str) else None
        """The client's id of the command, if it sent one."""


Endpoint = Callable[["Server", Request], Awaitable[Response]]
"""An HTTP endpoint: a method of :class:`Server` taking the request."""


def _endpoint(handler: Endpoint) -> Endpoint:
    """Turn the refusals an endpoint raises into their responses; 503 when the store fails,
    500 (logged) on a bug."""

    @functools.wraps(handler)
    async def endpoint(server: Server, request: Request) -> Response:
        try:
            return await handler(server, request)
        except ApiError as error:
            return _error(error)
        except StoreError as error:
            log(logging.ERROR, "store-failed", message=str(error))
            return _error(ApiError(503, "unavailable", "the game store is unavailable; try again"))
        except (DecodeError, UnknownGame) as error:  # a stored game this library cannot read
            log(logging.ERROR, "unreadable-game", path=request.url.path, message=str(error))
            return _error(ApiError(500, "internal", "the server failed; this was logged"))
        except Exception:  # pragma: no cover - a bug, answered and logged
            LOGGER.exception("internal error", extra={"avanti_fields": {"path": request.url.path}})
            return _error(ApiError(500, "internal", "the server failed; this was logged"))

    return endpoint


class Server:
    """The state of one app: the store, the limits, the live listeners and the bots."""

    def __init__(self, games: GameStore, limits: ServerLimits, think_seconds: float) -> None:
        self.games = games
        """The games."""
        self.limits = limits
        """The limits."""
        self.hub = Hub(games, limits)
        """The WebSocket listeners."""
        self.bots = BotRunner(games, self.hub, think_seconds)
        """The bots."""
        self._seat_buckets = Buckets(limits.commands_per_second, limits.command_burst)
        self._create_buckets = Buckets(limits.games_per_second, limits.games_burst)
        self._over: dict[str, tuple[int, bool]] = {}
        self._documents: dict[str, JSONValue] = {}

    # -- the lifespan ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Run the followers and the bots while the app serves."""
        async with anyio.create_task_group() as tasks:
            self.hub.start(tasks)
            self.bots.start(tasks)
            tasks.start_soon(self.bots.resume, self.limits.list_limit)
            log(logging.INFO, "started", store=type(self.games.events).__name__)
            try:
                yield
            finally:
                self.hub.stop()
                self.bots.stop()
                tasks.cancel_scope.cancel()
        log(logging.INFO, "stopped")

    # -- reading games -----------------------------------------------------------------------

    async def _record(self, game_id: str) -> tuple[StoredStream, Table | None]:
        try:
            record: StoredStream = await to_thread.run_sync(self.games.events.stream, game_id)
        except UnknownStream:
            raise _unknown_game() from None
        return record, Table.from_metadata(record.metadata)

    def _read(self, game_id: str) -> tuple[StoredStream, AnyGame]:
        record = self.games.events.stream(game_id)
        return record, self.games.load(game_id)

    async def _game(self, game_id: str) -> tuple[StoredStream, Table | None, AnyGame]:
        try:
            record, game = await to_thread.run_sync(self._read, game_id)
        except UnknownStream:
            raise _unknown_game() from None
        return record, Table.from_metadata(record.metadata), game

    @staticmethod
    def _seat(table: Table | None, token: str | None) -> int | None:
        """The seat of ``token`` (``None``: a spectator); 401 for a token that is no seat's."""
        if table is None:
            if token is not None:
                raise _unauthorized()
            return None
        try:
            return table.seat_for(token)
        except BadToken:
            raise _unauthorized() from None

    @staticmethod
    def _check_acting(table: Table | None, seat: int | None) -> int:
        """``seat`` if it may send commands: 403 for a spectator and for a seat a bot plays."""
        if seat is None or table is None:
            raise ApiError(403, "forbidden", "a spectator sends no commands: send a seat's token")
        if table.bot(seat) is not None:
            raise ApiError(
                403, "forbidden", "a bot plays this seat now: take it back first (DELETE .../bot)"
            )
        return seat

    async def _body(self, request: Request) -> JSONValue:
        """The request's JSON body, within :attr:`ServerLimits.max_body_bytes`."""
        most = self.limits.max_body_bytes
        message = f"a request body holds at most {most} bytes"
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > most:
            raise _limit("max_body_bytes", "too-large", 413, message, path=request.url.path)
        chunks: list[bytes] = []
        size = 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > most:
                    raise _limit("max_body_bytes", "too-large", 413, message, path=request.url.path)
                chunks.append(chunk)
        except ClientDisconnect:  # pragma: no cover - the client went away mid-request
            raise ApiError(400, "bad-request", "the request was cut short") from None
        try:
            return parse_json(b"".join(chunks))
        except DecodeError as error:
            raise ApiError(400, "malformed-json", "; ".join(error.errors)[:300]) from None

    # -- endpoints ---------------------------------------------------------------------------

    @_endpoint
    async def health(self, request: Request) -> Response:
        """``GET /health``: ``{"status": "ok"}``."""
        return _json({"status": "ok"})

    @_endpoint
    async def openapi(self, request: Request) -> Response:
        """``GET /openapi.json``: the protocol as an OpenAPI document."""
        if "" not in self._documents:
            self._documents[""] = openapi()
        return _json(self._documents[""])

    @_endpoint
    async def schemas(self, request: Request) -> Response:
        """``GET /schemas/{game}``: JSON Schemas of a game's views, commands and events."""
        name = request.path_params["game"]
        if name not in catalog.GAMES:
            raise ApiError(404, "unknown-game", "no game of that name is served here")
        if name not in self._documents:
            self._documents[name] = schemas(name)
        return _json(self._documents[name])

    @_endpoint
    async def list_games(self, request: Request) -> Response:
        """``GET /games``: the lobby, the most recently updated games first."""
        most = self.limits.list_limit
        limit = _query_int(request, "limit", most, 1, most)
        name = request.query_params.get("game")
        if name is not None and name not in catalog.GAMES:
            raise ApiError(400, "unknown-game", "no game of that name is served here")
        games = await to_thread.run_sync(self._lobby, name, limit)
        return _json({"games": games})

    def _lobby(self, name: str | None, limit: int) -> list[JSONValue]:
        found: list[JSONValue] = []
        for record in self.games.games(format=name, limit=limit):
            table = Table.from_metadata(record.metadata)
            if table is None:
                continue
            found.append(
                {
                    "id": record.stream,
                    "game": table.game,
                    "players": list(table.players),
                    "bots": dict(table.bots),
                    "version": record.version,
                    "over": self._is_over(record),
                    "created": record.created,
                    "updated": record.updated,
                }
            )
        return found

    def _is_over(self, record: StoredStream) -> bool:
        """Whether a stored game is over (kept per version: a game that is over stays so)."""
        known = self._over.get(record.stream)
        if known is not None and (known[1] or known[0] == record.version):
            return known[1]
        try:
            over = self.games.load(record.stream).is_over
        except (DecodeError, UnknownGame, UnknownStream):
            return False
        if len(self._over) >= 100_000:  # pragma: no cover - forget, after 100,000 games
            self._over.clear()
        self._over[record.stream] = (record.version, over)
        return over

    @_endpoint
    async def create_game(self, request: Request) -> Response:
        """``POST /games``: a new game with a secret seed; each person's seat token, once."""
        body = await self._body(request)
        info, players, bots, options = self._game_request(body)
        host = request.client.host if request.client else "unknown"
        if not self._create_buckets.allow(host):
            raise _limit(
                "games_per_second",
                "rate-limited",
                429,
                "too many games created from this address: wait a moment",
                client=host,
            )
        game = await to_thread.run_sync(self._new_game, info, players, options)
        tokens = [None if seat in bots else new_token() for seat in range(len(players))]
        table = Table(
            info.name,
            tuple(
                Seat(name, None if token is None else token_hash(token), bots.get(seat))
                for seat, (name, token) in enumerate(zip(players, tokens, strict=True))
            ),
        )
        game_id = await to_thread.run_sync(self._store_new, game, table)
        log(
            logging.INFO,
            "created",
            game=game_id,
            kind=info.name,
            seats=len(players),
            bots=len(bots),
        )
        self.bots.kick(game_id)
        seats = [
            {"seat": seat, "name": name, "token": token, "bot": bots.get(seat)}
            for seat, (name, token) in enumerate(zip(players, tokens, strict=True))
        ]
        return _json(
            {"id": game_id, "game": info.name, "seats": seats, "spectator": f"/games/{game_id}"},
            201,
        )

    def _game_request(
        self, body: JSONValue
    ) -> tuple[catalog.GameInfo, list[str], dict[int, str], JSONValue]:
        """The parts of a ``POST /games`` body, checked."""
        if not isinstance(body, dict):
            raise ApiError(400, "bad-request", "the body must be a JSON object")
        if "seed" in body:
            raise ApiError(
                400, "bad-request", "a seed is never accepted: the server draws a secret one"
            )
        unknown = sorted(set(body) - _GAME_KEYS)
        if unknown:
            raise ApiError(400, "bad-request", f"unknown keys: {', '.join(unknown)}"[:200])
        name = body.get("game")
        if not isinstance(name, str) or name not in catalog.GAMES:
            known = ", ".join(sorted(catalog.GAMES))
            raise ApiError(400, "unknown-game", f"'game' must be one of {known}")
        info = catalog.GAMES[name]
        players = body.get("players")
        if (
            not isinstance(players, list)
            or not all(isinstance(player, str) for player in players)
            or not info.min_players <= len(players) <= info.max_players
        ):
            raise ApiError(
                422,
                "invalid-setup",
                f"'players' must be a list of {info.min_players} to {info.max_players} names",
            )
        names = [player for player in players if isinstance(player, str)]
        raw = body.get("bots", {})
        if not isinstance(raw, dict):
            raise ApiError(400, "bad-request", """'bots' must be an object: {"1": "heuristic"}""")
        bots: dict[int, str] = {}
        for key, kind in raw.items():
            if not (key.isascii() and key.isdigit() and str(int(key)) == key) or int(key) >= len(
                names
            ):
                raise ApiError(
                    400, "bad-request", f"'bots' keys must be seats, from 0 to {len(names) - 1}"
                )
            if not isinstance(kind, str) or kind not in self.limits.bot_kinds:
                kinds = ", ".join(self.limits.bot_kinds)
                raise ApiError(400, "unknown-bot", f"a bot must be one of {kinds}")
            bots[int(key)] = kind
        return info, names, bots, body.get("options")

    @staticmethod
    def _new_game(info: catalog.GameInfo, players: list[str], options: JSONValue) -> AnyGame:
        """A new game with a secret seed (and the client's options, read by the game's codec)."""
        module = info.load()
        try:
            game: AnyGame = module.new_game(players)
            if options is None:
                return game
            codec = type(game).rules.codec
            setup = json.loads(dumps(codec.document(game.setup, ())["setup"]))
            setup["options"] = options
            try:
                chosen = codec.structure(setup, codec.setup_type, path="$.setup")
            except DecodeError as error:
                problems = "; ".join(error.errors).replace("@ $.setup.options", "@ $.options")
                raise ApiError(422, "invalid-options", problems[:500]) from None
            new: AnyGame = type(game).new(chosen)
            return new
        except InvalidSetup as error:
            raise ApiError(422, "invalid-setup", str(error)[:500], rule=error.rule) from None

    def _store_new(self, game: AnyGame, table: Table) -> str:
        """Store a new game under a fresh random id; the id."""
        while True:
            game_id = secrets.token_hex(8)
            try:
                self.games.create(game_id, game, table.to_metadata())
            except StreamExists:  # pragma: no cover - one chance in 2**64
                continue
            return game_id

    @_endpoint
    async def get_game(self, request: Request) -> Response:
        """``GET /games/{id}``: the game as the token's seat (or a spectator) sees it."""
        game_id = _game_id(request.path_params["game_id"])
        token = _token(request.headers)
        record, table, game = await self._game(game_id)
        seat = self._seat(table, token)
        after = _query_int(request, "after", 0, 0, game.version)
        if table is not None and any(table.bot(waiting) for waiting in game.waiting):
            self.bots.kick(game_id)
        return _json(
            {
                "id": game_id,
                "game": table.game if table is not None else record.format,
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

    @_endpoint
    async def post_command(self, request: Request) -> Response:
        """``POST /games/{id}/commands``: execute a command of the token's seat."""
        game_id = _game_id(request.path_params["game_id"])
        token = _token(request.headers)
        _, table = await self._record(game_id)
        seat = self._check_acting(table, self._seat(table, token))
        body = await self._body(request)
        if not self._seat_buckets.allow((game_id, seat)):
            raise _limit(
                "commands_per_second",
                "rate-limited",
                429,
                f"at most {self.limits.commands_per_second:g} commands a second from one seat",
                game=game_id,
                seat=seat,
            )
        return _json(await self.command(game_id, seat, CommandRequest(body)))

    async def command(
        self, game_id: str, seat: int, request: CommandRequest
    ) -> dict[str, JSONValue]:
        """Execute a seat's command and offer the new game to the listeners and the bots;
        the reply: the new version, the seat's events since the version the command was
        decided at, its legal commands and its view."""
        after, since, table = await to_thread.run_sync(self._execute, game_id, seat, request)
        log(logging.INFO, "command", game=game_id, seat=seat, version=after.version)
        self.hub.publish(game_id, after)
        if table is not None and any(table.bot(waiting) for waiting in after.waiting):
            self.bots.kick(game_id)
        return {
            "version": after.version,
            "events": events_data(after, seat, since),
            "legal": legal_data(after, seat),
            "view": view_data(after, seat),
        }

    def _execute(
        self, game_id: str, seat: int, request: CommandRequest
    ) -> tuple[AnyGame, int, Table | None]:
        """In a worker thread: the game after the command, where the reply's events start, and
        the game's table as it was when the command was taken (read here, in the same thread
        hop: a seat handed to a bot by another process meanwhile may not act)."""
        try:
            table = Table.from_metadata(self.games.events.stream(game_id).metadata)
        except UnknownStream:
            raise _unknown_game() from None
        self._check_acting(table, seat)
        command_id = None if request.command_id is None else f"{seat}:{request.command_id}"
        if command_id is not None:
            done = self.games.events.command_version(game_id, command_id)
            if done is not None:  # a retry: the game as it was right after that command
                game = self.games.load(game_id)
                game = type(game).replay(game.setup, game.events[:done], verify=False)
                cause = type(game).rules.cause
                start = done - 1
                while start > 0 and cause(game.events[start]) is None:
                    start -= 1
                return game, max(0, start), table
        expected = request.expected_version
        for _ in range(MAX_RETRIES):
            game = self.games.load(game_id)
            if expected is not None and expected != game.version:  # before reading notation
                raise _conflict(expected, game.version)
            command = self._decode(game, seat, request)
            if getattr(command, "seat", None) != seat:
                raise ApiError(403, "forbidden", "a command must name the seat of its token")
            try:
                after = self.games.execute(game_id, command, expected, command_id=command_id)
            except VersionConflict as conflict:
                if expected is None:  # pragma: no cover - a race another command won
                    continue  # decide again on the newer game
                raise _conflict(expected, conflict.actual) from None
            except IllegalCommand as error:
                raise _illegal(error) from None
            since = game.version if expected is None else expected
            return after, min(since, after.version), table
        raise _conflict(game.version, self.games.load(game_id).version)  # pragma: no cover

    @staticmethod
    def _decode(game: AnyGame, seat: int, request: CommandRequest) -> Any:
        """The command a request names: its JSON read by the codec, or its notation read among
        the seat's legal commands."""
        if request.notation is not None:
            try:
                return game.parse_notation(request.notation, seat=seat)
            except IllegalCommand as error:
                raise _illegal(error) from None
        try:
            return type(game).rules.codec.command_from_data(request.command)
        except DecodeError as error:
            problems = "; ".join(error.errors).replace("@ $", "@ $.command")
            raise ApiError(422, "invalid-command", problems[:500]) from None

    @_endpoint
    async def put_bot(self, request: Request) -> Response:
        """``PUT /games/{id}/seats/{seat}/bot``: hand the token's seat to a bot."""
        body = await self._body(request)
        if not isinstance(body, dict) or set(body) != {"bot"}:
            raise ApiError(400, "bad-request", """the body must be {"bot": "heuristic"}""")
        kind = body["bot"]
        if not isinstance(kind, str) or kind not in self.limits.bot_kinds:
            kinds = ", ".join(self.limits.bot_kinds)
            raise ApiError(400, "unknown-bot", f"a bot must be one of {kinds}")
        return await self._hand_over(request, kind)

    @_endpoint
    async def delete_bot(self, request: Request) -> Response:
        """``DELETE /games/{id}/seats/{seat}/bot``: the token's seat is played by its person."""
        return await self._hand_over(request, None)

    async def _hand_over(self, request: Request, kind: str | None) -> Response:
        game_id = _game_id(request.path_params["game_id"])
        token = _token(request.headers)
        for _ in range(MAX_RETRIES):
            record, table = await self._record(game_id)
            seat = self._seat(table, token)
            if seat is None or table is None or request.path_params["seat"] != str(seat):
                raise ApiError(403, "forbidden", "only a seat's own token hands it to a bot")
            metadata = {**record.metadata, **table.with_bot(seat, kind).to_metadata()}
            try:  # only over the metadata just read: a seat handed over meanwhile stays so
                await to_thread.run_sync(
                    functools.partial(
                        self.games.events.set_metadata, game_id, metadata, expected=record.metadata
                    )
                )
                break
            except MetadataChanged:  # pragma: no cover - a race with another hand-over
                continue
        else:  # pragma: no cover - a storm of hand-overs
            raise ApiError(409, "conflict", "the game's seats keep changing: try again")
        log(logging.INFO, "bot-seat", game=game_id, seat=seat, bot=kind)
        if kind is not None:
            self.bots.kick(game_id)
        return _json({"seat": seat, "bot": kind})

    # -- the WebSocket -----------------------------------------------------------------------

    async def stream(self, websocket: WebSocket) -> None:
        """``GET /games/{id}/stream``: live updates of one seat's share of a game."""
        await websocket.accept()
        socket = _Socket(websocket, self.limits)
        game_id = str(websocket.path_params["game_id"])
        listener: Listener | None = None
        try:
            token, after = await socket.hello()
            game_id = _game_id(game_id)
            _, table, game = await self._game(game_id)
            seat = self._seat(table, token)
            if after > game.version:
                raise ApiError(
                    400, "bad-request", f"'after' is beyond the game's version, {game.version}"
                )
            listener = Listener(game_id, seat, after, socket.send)
            try:
                self.hub.join(listener)
            except ApiError as error:
                listener = None
                if error.kind == "too-many-connections":
                    log(logging.WARNING, "limit", limit="connections_per_game", game=game_id)
                raise
            log(logging.INFO, "stream-open", game=game_id, seat=seat, after=after)
            await listener.send_update(game, always=True)
            if table is not None and any(table.bot(waiting) for waiting in game.waiting):
                self.bots.kick(game_id)
            raise await self._listen(socket, listener)
        except _Closing as closing:
            await socket.fail(closing.error)
        except ApiError as error:
            await socket.fail(error)
        except _Gone:
            pass
        except StoreError as error:
            log(logging.ERROR, "store-failed", message=str(error))
            await socket.fail(ApiError(503, "unavailable", "the game store is unavailable"))
        except (DecodeError, UnknownGame) as error:  # a stored game this library cannot read
            log(logging.ERROR, "unreadable-game", game=game_id, message=str(error))
            await socket.fail(ApiError(500, "internal", "the server failed; this was logged"))
        except Exception:  # pragma: no cover - a bug, answered and logged
            LOGGER.exception("internal error", extra={"avanti_fields": {"game": game_id}})
            await socket.fail(ApiError(500, "internal", "the server failed; this was logged"))
        finally:
            if listener is not None:
                self.hub.leave(listener)
                log(logging.INFO, "stream-closed", game=game_id, seat=listener.seat)

    async def _listen(self, socket: _Socket, listener: Listener) -> Exception:
        """Push updates to the socket while answering its messages, until the client goes or
        breaks a limit; what ended it (raised by the caller, outside the task group)."""
        ended: Exception = _Gone()
        async with anyio.create_task_group() as tasks:
            pushing = anyio.CancelScope()

            async def push() -> None:
                with pushing, contextlib.suppress(_Gone):  # a client gone is seen by _serve
                    await listener.run()

            tasks.start_soon(push)
            try:
                await self._serve(socket, listener)
            except Exception as error:
                ended = error
            pushing.cancel()
        return ended

    async def _serve(self, socket: _Socket, listener: Listener) -> None:
        """Answer the client's messages until it goes away or breaks a limit that closes the
        socket (:class:`ApiError` then)."""
        game_id, seat = listener.game_id, listener.seat
        bucket = TokenBucket(self.limits.commands_per_second, self.limits.command_burst)
        while True:
            try:
                message = await socket.receive(self.limits.idle_timeout)
                if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                    raise ApiError(400, "bad-request", 'a message is an object with a "type"')
                if message["type"] == "ping":
                    await listener.send(dumps({"type": "pong"}))
                    continue
                if message["type"] != "command":
                    raise ApiError(400, "bad-request", 'a message\'s "type" is "command" or "ping"')
                request = CommandRequest(message, frozenset({"type"}))
                if seat is None:
                    raise ApiError(403, "forbidden", "a spectator sends no commands")
                if not bucket.allow():
                    raise _limit(
                        "commands_per_second",
                        "rate-limited",
                        429,
                        f"at most {self.limits.commands_per_second:g} commands a second on one "
                        "connection",
                        game=game_id,
                        seat=seat,
                    )
                reply = await self.command(game_id, seat, request)
                await listener.send(dumps({"type": "result", **reply}))
            except ApiError as error:
                await listener.send(_error_message(error))
            except StoreError as error:
                log(logging.ERROR, "store-failed", message=str(error))
                failed = ApiError(503, "unavailable", "the game store is unavailable; try again")
                await listener.send(_error_message(failed))


def _conflict(expected: int, actual: int) -> ApiError:
    """The 409 refusal of a command decided on a version the game has left."""
    return ApiError(
        409,
        "version-conflict",
        "the game has moved on: look at it again and decide again",
        expected=expected,
        actual=actual,
    )


def _illegal(error: IllegalCommand) -> ApiError:
    """The 422 refusal of a seat's own command: the library's reason, rule and message."""
    return ApiError(
        422, "illegal-command", error.message, reason=str(error.reason), rule=error.rule
    )


def _error_message(error: ApiError) -> str:
    """An ``error`` message of the WebSocket."""
    return dumps({"type": "error", "status": error.status, **error.body()})


class _Gone(Exception):
    """The WebSocket's client went away."""


class _Closing(Exception):
    """A refusal after which the socket is closed."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.message)
        self.error = error


class _Socket:
    """A server-side WebSocket, with the server's limits on what it receives."""

    def __init__(self, websocket: WebSocket, limits: ServerLimits) -> None:
        self._websocket = websocket
        self._limits = limits

    async def send(self, text: str) -> None:
        """Send a text message; :class:`_Gone` if the client has gone."""
        try:
            await self._websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):  # pragma: no cover - a race
            raise _Gone from None

    async def receive(self, timeout: float) -> JSONValue:
        """The next message, parsed.

        :raises ApiError: 400 for a message that is not JSON (the socket stays open).
        :raises _Closing: for a message too large or none within ``timeout`` seconds.
        :raises _Gone: the client went away.
        """
        with anyio.move_on_after(timeout) as scope:
            message: Message = await self._websocket.receive()
        if scope.cancelled_caught:
            raise _Closing(
                _limit(
                    "idle_timeout",
                    "idle-timeout",
                    408,
                    f"nothing was received for {timeout:g} seconds (send a ping to stay)",
                )
            )
        if message["type"] == "websocket.disconnect":
            raise _Gone
        text = message.get("text")
        raw: str | bytes = text if isinstance(text, str) else message.get("bytes") or b""
        size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
        most = self._limits.max_message_bytes
        if size > most:
            raise _Closing(
                _limit(
                    "max_message_bytes", "too-large", 413, f"a message holds at most {most} bytes"
                )
            )
        try:
            return parse_json(raw)
        except DecodeError as error:
            raise ApiError(400, "malformed-json", "; ".join(error.errors)[:300]) from None

    async def hello(self) -> tuple[str | None, int]:
        """The first message, ``{"token": ..., "after": n}``: the token and the version."""
        try:
            message = await self.receive(self._limits.hello_timeout)
        except _Closing as closing:
            raise closing.error from None
        if not isinstance(message, dict) or set(message) - {"token", "after"}:
            raise ApiError(
                400, "bad-request", 'the first message must be {"token": ..., "after": n}'
            )
        token = message.get("token")
        after = _int(message.get("after", 0))
        if (token is not None and not isinstance(token, str)) or after is None:
            raise ApiError(
                400, "bad-request", "'token' must be a string or null, 'after' a version (int >= 0)"
            )
        return token, after

    async def fail(self, error: ApiError) -> None:
        """Send an ``error`` message, then close the socket with the error's code."""
        with contextlib.suppress(_Gone):
            await self.send(_error_message(error))
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self._websocket.close(CLOSE_CODES.get(error.kind, 4400))


class RequestLog:
    """ASGI middleware: one log line per HTTP request (method, path, status, milliseconds)."""

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


async def _not_found(request: Request, error: Exception) -> Response:
    """Routing's own refusals (no such path, or method) as JSON errors."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    kind = {404: "not-found", 405: "method-not-allowed"}.get(status, "bad-request")
    message = {404: "no such path", 405: "that method is not allowed here"}.get(status, kind)
    return _json({"error": {"kind": kind, "message": message}}, status)


def create_app(
    store: GameStore | EventStore,
    *,
    limits: ServerLimits = ServerLimits(),  # noqa: B008  ServerLimits is frozen: sharing is safe
    bot_think_seconds: float = DEFAULT_THINK_SECONDS,
) -> Starlette:
    """The game server as an ASGI app (Starlette) on ``store``.

    ``store`` is a :class:`~avanti.store.GameStore` or any event store (a ``GameStore`` is made
    over it). Several apps, in one process or many, may share one database: each pushes the
    changes the others make. The app does not close the store.

    :raises InvalidArgument: ``bot_think_seconds`` is not a number of seconds above 0.
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
    if not isinstance(limits, ServerLimits):
        raise InvalidArgument(f"limits must be a ServerLimits, not {limits!r:.80}")
    games = store if isinstance(store, GameStore) else GameStore(store)
    server = Server(games, limits, float(bot_think_seconds))

    def bind(handler: Endpoint) -> Callable[[Request], Awaitable[Response]]:
        return functools.partial(handler, server)

    routes = [
        Route("/health", bind(Server.health), methods=["GET"]),
        Route("/openapi.json", bind(Server.openapi), methods=["GET"]),
        Route("/schemas/{game}", bind(Server.schemas), methods=["GET"]),
        Route("/games", bind(Server.list_games), methods=["GET"]),
        Route("/games", bind(Server.create_game), methods=["POST"]),
        Route("/games/{game_id}", bind(Server.get_game), methods=["GET"]),
        Route("/games/{game_id}/commands", bind(Server.post_command), methods=["POST"]),
        Route("/games/{game_id}/seats/{seat}/bot", bind(Server.put_bot), methods=["PUT"]),
        Route("/games/{game_id}/seats/{seat}/bot", bind(Server.delete_bot), methods=["DELETE"]),
        WebSocketRoute("/games/{game_id}/stream", server.stream),
        *page_routes(server),
    ]
    app = Starlette(
        routes=routes,
        lifespan=server.lifespan,
        middleware=[Middleware(RequestLog)],
        exception_handlers={HTTPException: _not_found},
    )
    app.state.server = server
    return app
