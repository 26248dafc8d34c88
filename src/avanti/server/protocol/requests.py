"""What clients send: the protocol's requests, read and checked once, as typed values.

Each request is a frozen ``kw_only`` attrs class built by its ``read`` class method from the
parsed JSON; a body that does not fit is refused with a 400 (or 422) :class:`ApiError` that
says which key was wrong. Numbers are read within bounds before they are turned into ints, so
no request can make the server convert a number of thousands of digits.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

from avanti import catalog
from avanti.core.codec import JSONValue
from avanti.core.errors import DecodeError, IllegalCommand, InvalidArgument, InvalidSetup
from avanti.core.limits import names_problem, new_seed
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.wire import AnyGame, ApiError, dumps
from avanti.store.base import check_command_id

__all__ = [
    "CommandRequest",
    "Hello",
    "NewGame",
    "SeatRequest",
    "decode",
    "illegal",
    "name_key",
    "new_game",
    "player_name",
    "twin_problem",
    "version_of",
]

_COMMAND_KEYS = frozenset({"command", "notation", "expected_version", "command_id"})
_GAME_KEYS = frozenset({"game", "players", "bots", "options", "sides", "seconds_per_move"})
MAX_SECONDS_PER_MOVE = 86_400.0
"""The longest time per move a table may be given (a day)."""
_HELLO_KEYS = frozenset({"token", "after", "table"})
_LAYOUTS = ("wide", "narrow")
"""The layouts a picture is drawn in: the page's own (``"wide"``) and a phone's (``"narrow"``)."""


def version_of(value: object) -> int | None:
    """A version (an int >= 0) from JSON (no bool), else ``None``."""
    return value if type(value) is int and value >= 0 else None


def player_name(name: object) -> object:
    """A player's name as a request sent it, in Unicode's composed form (NFC), so that a name
    typed with a precomposed ``é`` and one typed as ``e`` and a combining accent are one name;
    anything else as it is (for :func:`~avanti.core.limits.name_problem` to refuse)."""
    return unicodedata.normalize("NFC", name) if isinstance(name, str) else name


def name_key(name: str) -> str:
    """What two names of one table may not share: the name in its composed form (NFC),
    case-folded. ``"José"``, ``"JOSÉ"`` and ``"jose\u0301"`` have one key."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def twin_problem(names: tuple[str | None, ...]) -> str | None:
    """What is wrong with ``names`` (``None``: an open seat) that differ only in case or in
    their Unicode form, or ``None``. Names that are the same string are left to the game's own
    check. Seats are named by position, never by the names themselves."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if name is None:
            continue
        first = seen.setdefault(name_key(name), seat)
        if first != seat and names[first] != name:
            return (
                f"player names must differ in more than case: seat {seat} has the name of seat "
                f"{first}"
            )
    return None


def _object(
    body: JSONValue, known: frozenset[str], extra: frozenset[str] = frozenset()
) -> dict[str, JSONValue]:
    if not isinstance(body, dict):
        raise ApiError(Refusal.BAD_REQUEST, "the body must be a JSON object")
    unknown = sorted(set(body) - known - extra)
    if unknown:
        raise ApiError(Refusal.BAD_REQUEST, f"unknown keys: {', '.join(unknown)}"[:200])
    return body


@frozen(kw_only=True)
class CommandRequest:
    """A command as a client sends it: exactly one of ``command`` (its JSON) and ``notation``,
    an optional ``expected_version`` and an optional ``command_id`` (which names this one
    command: a retry with it is answered as the first time, another command with it is refused
    with 409 ``command-id-reused``)."""

    command: JSONValue = None
    """The command's JSON, if it was sent so."""
    notation: str | None = None
    """The command's notation, if it was sent so."""
    expected_version: int | None = None
    """The version the client saw, if it sent one."""
    command_id: str | None = None
    """The client's id of the command, if it sent one."""
    bot: bool = field(default=False, repr=False)
    """Set by the server for its own bots' commands (never read from a client)."""

    def digest(self) -> str:
        """The SHA-256 (hex) of the request as the client sent it (its notation, or its
        command's JSON, canonically written): what its ``command_id`` is bound to."""
        sent = (
            {"notation": self.notation} if self.notation is not None else {"command": self.command}
        )
        text = json.dumps(sent, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    @classmethod
    def read(cls, body: JSONValue, extra: frozenset[str] = frozenset()) -> CommandRequest:
        """The request in a parsed body (``extra``: further keys the transport allows)."""
        body = _object(body, _COMMAND_KEYS, extra)
        if ("command" in body) == ("notation" in body):
            raise ApiError(Refusal.BAD_REQUEST, "send exactly one of 'command' and 'notation'")
        notation = body.get("notation")
        if "notation" in body and not isinstance(notation, str):
            raise ApiError(Refusal.BAD_REQUEST, "'notation' must be a string")
        expected = body.get("expected_version")
        if expected is not None and version_of(expected) is None:
            raise ApiError(
                Refusal.BAD_REQUEST, "'expected_version' must be a version (an int >= 0)"
            )
        command_id = body.get("command_id")
        if command_id is not None:
            try:
                if not isinstance(command_id, str) or len(command_id) > 100:
                    raise InvalidArgument("not a command id")
                check_command_id(command_id)
            except InvalidArgument:
                raise ApiError(
                    Refusal.BAD_REQUEST, "'command_id' must be 1 to 100 printable characters"
                ) from None
        return cls(
            command=body.get("command"),
            notation=notation if isinstance(notation, str) else None,
            expected_version=version_of(expected),
            command_id=command_id if isinstance(command_id, str) else None,
        )


@frozen(kw_only=True)
class NewGame:
    """A ``POST /games`` body: the game, the players' names (``None``: an open seat, taken by
    whoever sits down), the seats bots play, options, and the time per move."""

    game: str
    """The game's name in :mod:`avanti.catalog`."""
    players: tuple[str | None, ...]
    """The players' names, by seat, in Unicode's composed form (NFC); ``None`` for an open
    seat."""
    bots: Mapping[int, str]
    """The seats bots play, with their kind."""
    options: JSONValue = None
    """The game's rule options, as its codec reads them (``None``: the defaults)."""
    sides: tuple[str, ...] | None = None
    """Each seat's side, by name, in a game with sides (Avanti mare!'s ``"fish-friends"`` and
    ``"fisher-fans"``, M2); ``None``: the game's default sides."""
    seconds_per_move: float | None = None
    """The time a person has for each move before a bot makes it; ``None``: no clock."""

    @property
    def open_seats(self) -> tuple[int, ...]:
        """The seats left open."""
        return tuple(seat for seat, name in enumerate(self.players) if name is None)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, for a table with no open seat."""
        return tuple(name for name in self.players if name is not None)

    @classmethod
    def read(cls, body: JSONValue, bot_kinds: tuple[str, ...]) -> NewGame:
        """The request in a parsed body; ``bot_kinds``: the bots this server seats."""
        if isinstance(body, dict) and "seed" in body:
            raise ApiError(
                Refusal.BAD_REQUEST, "a seed is never accepted: the server draws a secret one"
            )
        body = _object(body, _GAME_KEYS)
        name = body.get("game")
        if not isinstance(name, str) or name not in catalog.GAMES:
            known = ", ".join(sorted(catalog.GAMES))
            raise ApiError(Refusal.UNKNOWN_GAME, f"'game' must be one of {known}", status=400)
        info = catalog.GAMES[name]
        players = body.get("players")
        if (
            not isinstance(players, list)
            or not all(player is None or isinstance(player, str) for player in players)
            or not info.min_players <= len(players) <= info.max_players
        ):
            raise ApiError(
                Refusal.INVALID_SETUP,
                f"'players' must be a list of {info.min_players} to {info.max_players} names "
                "(null for an open seat)",
            )
        names = tuple(
            unicodedata.normalize("NFC", player) if isinstance(player, str) else None
            for player in players
        )
        raw = body.get("bots", {})
        if not isinstance(raw, dict):
            raise ApiError(Refusal.BAD_REQUEST, """'bots' must be an object: {"1": "heuristic"}""")
        bots: dict[int, str] = {}
        for key, kind in raw.items():
            if not (
                0 < len(key) <= 3 and key.isascii() and key.isdigit() and str(int(key)) == key
            ) or int(key) >= len(names):
                raise ApiError(
                    Refusal.BAD_REQUEST, f"'bots' keys must be seats, from 0 to {len(names) - 1}"
                )
            if not isinstance(kind, str) or kind not in bot_kinds:
                raise ApiError(Refusal.UNKNOWN_BOT, f"a bot must be one of {', '.join(bot_kinds)}")
            if names[int(key)] is None:
                raise ApiError(Refusal.BAD_REQUEST, "an open seat has no bot: name the bot's seat")
            bots[int(key)] = kind
        if None in names:
            problem = names_problem(tuple(name for name in names if name is not None))
            if problem is not None:
                raise ApiError(Refusal.INVALID_SETUP, problem)
            if all(name is None or int(seat) in bots for seat, name in enumerate(names)):
                raise ApiError(
                    Refusal.INVALID_SETUP,
                    "a table with open seats needs a seat of its creator's: name it",
                )
        twins = twin_problem(names)
        if twins is not None:
            raise ApiError(Refusal.INVALID_SETUP, twins)
        seconds = body.get("seconds_per_move")
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not 0.1 <= seconds <= MAX_SECONDS_PER_MOVE
        ):
            raise ApiError(
                Refusal.BAD_REQUEST,
                f"'seconds_per_move' must be a number from 0.1 to {MAX_SECONDS_PER_MOVE:g}",
            )
        sides = body.get("sides")
        if sides is not None:
            if not info.sides:
                raise ApiError(Refusal.BAD_REQUEST, f"{info.title} has no sides to pick")
            if (
                not isinstance(sides, list)
                or len(sides) != len(names)
                or not all(isinstance(side, str) and side in info.sides for side in sides)
            ):
                raise ApiError(
                    Refusal.BAD_REQUEST,
                    f"'sides' must name one side a player, each one of {', '.join(info.sides)} "
                    "(M2)",
                )
        return cls(
            game=name,
            players=names,
            bots=bots,
            options=body.get("options"),
            sides=None if sides is None else tuple(str(side) for side in sides),
            seconds_per_move=None if seconds is None else float(seconds),
        )


@frozen(kw_only=True)
class SeatRequest:
    """A ``POST /games/{id}/seats`` body: the ``name`` of the person who takes the next open
    seat (checked as the seat is taken) and, in a game with sides, the ``side`` they pick
    (Avanti mare!'s ``"fish-friends"`` or ``"fisher-fans"``: each player decides, M2);
    ``None`` keeps the side the table's creator named for the seat, or the game's default."""

    name: object
    """The name, as sent (read in Unicode's composed form and checked when the seat is
    taken)."""
    side: str | None = None
    """The side picked, by name, or ``None``."""

    @classmethod
    def read(cls, body: JSONValue) -> SeatRequest:
        """The request in a parsed body (400 for another shape)."""
        if not isinstance(body, dict) or "name" not in body or set(body) - {"name", "side"}:
            raise ApiError(
                Refusal.BAD_REQUEST,
                """the body must be {"name": "Ann"}, or {"name": "Ann", "side": "fish-friends"}""",
            )
        side = body.get("side")
        if side is not None and not isinstance(side, str):
            raise ApiError(Refusal.BAD_REQUEST, "'side' must name a side of the game, or be null")
        return cls(name=body["name"], side=side)


@frozen(kw_only=True)
class Hello:
    """A WebSocket's first message: the seat's ``token`` (``None``: a spectator), the version
    the client has seen (``after``), and whether each ``update`` should carry the seat's
    ``table`` (its picture and its history in words, so a page fetches nothing per change)."""

    token: str | None = None
    """The seat's token, or ``None`` for a spectator."""
    after: int = 0
    """The version the client has already seen."""
    table: bool = False
    """Whether every ``update`` holds the seat's picture and history."""
    layout: str = "wide"
    """The picture's layout when ``table`` is asked for: ``"wide"``, or ``"narrow"`` for a
    phone-sized screen (``"table": {"layout": "narrow"}`` in the message)."""

    @classmethod
    def read(cls, message: JSONValue) -> Hello:
        """The hello in a parsed message."""
        if not isinstance(message, dict) or set(message) - _HELLO_KEYS:
            raise ApiError(
                Refusal.BAD_REQUEST,
                'the first message must be {"token": ..., "after": n, "table": true|false}',
            )
        token = message.get("token")
        after = version_of(message.get("after", 0))
        table = message.get("table", False)
        layout = "wide"
        if isinstance(table, dict) and set(table) <= {"layout"}:
            layout, table = table.get("layout", "wide"), True
        if (
            (token is not None and not isinstance(token, str))
            or after is None
            or not isinstance(table, bool)
            or layout not in _LAYOUTS
        ):
            raise ApiError(
                Refusal.BAD_REQUEST,
                "'token' must be a string or null, 'after' a version (int >= 0), 'table' a boolean"
                ' or {"layout": "wide"|"narrow"}',
            )
        return cls(token=token, after=after, table=table, layout=str(layout))


def illegal(error: IllegalCommand) -> ApiError:
    """The 422 refusal of a seat's own command: the library's reason, rule and message."""
    return ApiError(
        Refusal.ILLEGAL_COMMAND, error.message, reason=str(error.reason), rule=error.rule
    )


def decode(game: AnyGame, seat: int, request: CommandRequest) -> Any:
    """The command a request names: its JSON read by the codec, or its notation read among the
    seat's legal commands."""
    if request.notation is not None:
        try:
            return game.parse_notation(request.notation, seat=seat)
        except IllegalCommand as error:
            raise illegal(error) from None
    try:
        return type(game).rules.codec.command_from_data(request.command)
    except DecodeError as error:
        problems = "; ".join(error.errors).replace("@ $", "@ $.command")
        raise ApiError(Refusal.INVALID_COMMAND, problems[:500]) from None


def new_game(
    info: catalog.GameInfo,
    players: list[str],
    options: JSONValue,
    sides: tuple[str, ...] | None = None,
) -> AnyGame:
    """A new game with a secret seed (and the client's options, read by the game's codec, and
    the players' sides)."""
    module = info.load()
    try:
        game: AnyGame = (
            module.new_game(players)
            if sides is None
            else info.new_game(players, new_seed(), sides=sides)
        )
        if options is None:
            return game
        codec = type(game).rules.codec
        setup = json.loads(dumps(codec.document(game.setup, ())["setup"]))
        setup["options"] = options
        try:
            chosen = codec.structure(setup, codec.setup_type, path="$.setup")
        except DecodeError as error:
            problems = "; ".join(error.errors).replace("@ $.setup.options", "@ $.options")
            raise ApiError(Refusal.INVALID_OPTIONS, problems[:500]) from None
        new: AnyGame = type(game).new(chosen)
        return new
    except InvalidSetup as error:
        raise ApiError(Refusal.INVALID_SETUP, str(error)[:500], rule=error.rule) from None
