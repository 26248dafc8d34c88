"""The rules lab over HTTP: stateless endpoints that take a case (or a saved game) in and give
the answers out, and the lab page.

- ``GET /lab/forms``: what the page builds its forms from, per game of the catalog that
  declares a lab form (its presentation's ``lab``): its name, title, seat limits and default
  players, and its :class:`~avanti.core.labform.LabForm` as data (the position's fields with
  their kinds, the options, the box's cards, the outcomes a case may name, an example case).
- ``POST /lab/compare``: a case (:class:`avanti.lab.Case` as JSON) in; both readings played out,
  the differences, the case's link fragment, its JSON and its pytest test out. A position or
  command the library refuses comes back as that reading's ``refusal``, in words naming its
  rule: the lab checks every change by asking this. The query parameter ``seen_by`` (a seat
  number, or ``spectator``, the default) says whose view the pictures draw: a seat sees its own
  hand face up. The events in words tell every hidden fact either way. ``same_events`` says
  whether both readings give the same events (and refusals), ``same`` whether their pictures
  agree too, and ``seed`` the seed played (the first from the case's whose generator gives
  the case's outcomes; ``null`` when none does).
- ``POST /lab/replay``: a saved game (a document as ``avanti play --save`` or the store writes
  it) in; its picture and the events in words at every command boundary out, every hidden
  fact shown: the lines tell every card drawn and dealt, and ``seen_by`` (as above) draws the
  pictures with that seat's hand face up. The lab is for a person's own cases, never a seat of
  a live game: nothing here reads the store.
- ``GET /lab``: the page (``web/lab.html``).

Both POSTs obey the server's limits: the body size, a rate per client address (the commands'
rate, 429 ``rate-limited``), and the lab's budget of CPU (a
:class:`~avanti.server.transport.http.Jobs`): at most ``lab_workers`` cases are worked on at once in
all, ``lab_queue`` more wait, and one client address has at most ``lab_jobs_per_client`` of them;
beyond, a request is refused at once (503 ``busy``, or 429 ``rate-limited`` for the address's
share), before any work. An answer longer than ``lab_answer_bytes`` is refused (413 ``too-large``).
A seat in the query is ASCII digits alone.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from avanti.catalog import GAMES, info_for_document
from avanti.core.codec import JSONValue
from avanti.core.errors import AvantiError, DecodeError, InvalidArgument
from avanti.lab import Case, Comparison, compare, pytest_text, step_through
from avanti.server.limits import Buckets
from avanti.server.log import log
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.wire import ApiError, dumps
from avanti.server.transport.http import Jobs, client_of, read_body, read_whole
from avanti.server.transport.pages import WEB

__all__ = [
    "LAB_ENDPOINTS",
    "LAB_PAGES",
    "MAX_REPLAY_EVENTS",
    "compare_data",
    "forms_data",
    "jobs_of",
    "read_seen_by",
    "replay_data",
]

MAX_REPLAY_EVENTS = 5_000
"""The longest saved game ``POST /lab/replay`` steps through, in events."""


def _allow(request: Request) -> None:
    """429 when the client address asks the lab too fast (the server's command rate)."""
    state = request.app.state
    buckets: Buckets | None = getattr(state, "lab_buckets", None)
    if buckets is None:
        limits = state.server.limits
        buckets = state.lab_buckets = Buckets(limits.commands_per_second, limits.command_burst)
    if not buckets.allow(client_of(request)):
        log(logging.WARNING, "limit", limit="lab_rate")
        raise ApiError(Refusal.RATE_LIMITED, "too many lab requests; try again in a moment")


def jobs_of(request: Request) -> Jobs:
    """The app's budget of lab jobs, made on its first lab request (on the event loop)."""
    state = request.app.state
    jobs: Jobs | None = getattr(state, "lab_jobs", None)
    if jobs is None:
        limits = state.server.limits
        jobs = state.lab_jobs = Jobs(
            limits.lab_workers, limits.lab_queue, limits.lab_jobs_per_client, name="lab"
        )
    return jobs


def _answer(data: dict[str, JSONValue], most: int, advice: str) -> bytes:
    """``data`` as the JSON bytes of an answer; 413 when they are more than ``most``, saying
    ``advice``."""
    body = dumps(data).encode()
    if len(body) > most:
        log(logging.WARNING, "limit", limit="lab_answer_bytes")
        raise ApiError(
            Refusal.TOO_LARGE,
            f"the answer would hold {len(body):,} bytes, more than the lab's {most:,} (nearly "
            f"all of it the pictures, one per step): {advice}",
        )
    return body


def _respond(body: bytes) -> Response:
    return Response(body, media_type="application/json")


def _trial_data(comparison: Comparison, index: int) -> dict[str, JSONValue]:
    trial = comparison.trials[index]
    return {
        "reading": trial.reading.to_data(),
        "steps": [
            {"command": step.command, "lines": list(step.lines), "picture": str(step.picture)}
            for step in trial.steps
        ],
        "refusal": trial.refusal,
        "refused_at": trial.refused_at,
    }


def compare_data(case: Case, seen_by: int | None = None) -> dict[str, JSONValue]:
    """The answer of ``POST /lab/compare`` for ``case``, its pictures drawn as ``seen_by`` (a
    seat, or ``None`` for the spectator) sees the table.

    :raises InvalidArgument: ``seen_by`` is no seat of the case.
    """
    comparison = compare(case, seen_by=seen_by)
    try:
        fragment: str | None = case.to_fragment()
    except DecodeError:
        fragment = None
    return {
        "trials": [_trial_data(comparison, 0), _trial_data(comparison, 1)],
        "differences": [
            {
                "step": d.step,
                "first": list(d.first),
                "second": list(d.second),
                "pictures_differ": d.pictures_differ,
            }
            for d in comparison.differences
        ],
        "same": comparison.same,
        "same_events": comparison.same_events,
        "seed": comparison.seed,
        "seen_by": seen_by,
        "fragment": fragment,
        "case": case.to_data(),
        "test": pytest_text(case) if comparison.trials[0].refusal is None else None,
    }


def forms_data() -> dict[str, JSONValue]:
    """The answer of ``GET /lab/forms``: every catalog game with a lab form, in catalog order."""
    games: list[JSONValue] = []
    for info in GAMES.values():
        form = info.load_lab_form()
        if form is None:
            continue
        games.append(
            {
                "name": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "default_players": list(info.player_names(info.max_players)),
                "form": form.to_data(),
            }
        )
    return {"games": games}


async def lab_forms(request: Request) -> Response:
    """``GET /lab/forms``: the lab's case form of every game (see the module)."""
    forms: bytes | None = getattr(request.app.state, "lab_forms", None)
    if forms is None:
        forms = request.app.state.lab_forms = dumps(forms_data()).encode()
    return _respond(forms)


async def lab_compare(request: Request) -> Response:
    """``POST /lab/compare``: a case played under both readings (see the module)."""
    _allow(request)
    seen_by = read_seen_by(request.query_params.get("seen_by", "spectator"))
    data = await read_body(request)
    most = request.app.state.server.limits.lab_answer_bytes
    try:
        case = Case.from_data(data)
        body = await jobs_of(request).run(client_of(request), _compare_answer, case, seen_by, most)
    except AvantiError as error:
        raise ApiError(Refusal.INVALID_CASE, _words(error)) from None
    return _respond(body)


def _compare_answer(case: Case, seen_by: int | None, most: int) -> bytes:
    """The bytes of ``POST /lab/compare``'s answer (in a lab worker)."""
    return _answer(compare_data(case, seen_by), most, "play fewer commands")


def read_seen_by(text: str) -> int | None:
    """The ``seen_by`` query parameter: ``spectator`` or a seat number in ASCII digits (checked
    against the case's players by :func:`avanti.lab.compare`); 400 for anything else."""
    if text == "spectator":
        return None
    seat = read_whole(text, 0, 99)
    if seat is None:
        raise ApiError(Refusal.BAD_REQUEST, "seen_by is a seat number or spectator")
    return seat


def replay_data(text: str, seen_by: int | None = None) -> dict[str, JSONValue]:
    """The answer of ``POST /lab/replay``: a saved game stepped command by command
    (:func:`avanti.lab.step_through`), its pictures drawn as ``seen_by`` (a seat, or ``None``
    for the spectator) sees the table.

    :raises InvalidArgument: ``seen_by`` is no seat of the game.
    """
    info = info_for_document(text)
    game = info.load().loads(text)
    if game.version > MAX_REPLAY_EVENTS:
        raise DecodeError((f"the lab steps through at most {MAX_REPLAY_EVENTS} events @ $",))
    players = len(game.setup.players)
    if seen_by is not None and not 0 <= seen_by < players:
        raise InvalidArgument(f"seen_by must be a seat 0..{players - 1} or spectator")
    codec = game.rules.codec
    steps: list[JSONValue] = [
        {
            "version": moment.version,
            "command": None if moment.command is None else codec.command_to_data(moment.command),
            "lines": list(moment.lines),
            "picture": str(moment.picture),
        }
        for moment in step_through(info, game, seen_by=seen_by)
    ]
    return {
        "game": info.name,
        "players": list(game.setup.players),
        "seen_by": seen_by,
        "steps": steps,
    }


def _replay_answer(text: str, seen_by: int | None, most: int) -> bytes:
    """The bytes of ``POST /lab/replay``'s answer (in a lab worker)."""
    return _answer(replay_data(_game_document(text), seen_by), most, "open a shorter game")


async def lab_replay(request: Request) -> Response:
    """``POST /lab/replay``: ``{"document": text}``, a saved game, stepped through."""
    _allow(request)
    seen_by = read_seen_by(request.query_params.get("seen_by", "spectator"))
    data = await read_body(request)
    text = data.get("document") if isinstance(data, dict) else None
    if not isinstance(text, str) or set(data) != {"document"}:
        raise ApiError(Refusal.BAD_REQUEST, 'the body is {"document": "<a saved game>"}')
    most = request.app.state.server.limits.lab_answer_bytes
    try:
        body = await jobs_of(request).run(client_of(request), _replay_answer, text, seen_by, most)
    except AvantiError as error:
        raise ApiError(Refusal.INVALID_DOCUMENT, _words(error)) from None
    return _respond(body)


def _game_document(text: str) -> str:
    """A game document from either form: a game document as is, or a store document (a game
    document under ``game``, beside the store's own fields)."""
    import json

    from avanti.core.codec import parse_json

    data: Any = parse_json(text)
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("game"), dict):
        return json.dumps(data["game"])
    return text


def _words(error: AvantiError) -> str:
    if isinstance(error, DecodeError):
        return "; ".join(error.errors)[:500]
    return str(error)[:500]


async def lab_page(request: Request) -> Response:
    """``GET /lab``: the rules lab page."""
    return FileResponse(WEB / "lab.html", media_type="text/html; charset=utf-8")


LAB_ENDPOINTS = {"lab_forms": lab_forms, "lab_compare": lab_compare, "lab_replay": lab_replay}
"""The lab's endpoints by their name in :data:`avanti.server.protocol.routes.ROUTES`."""
LAB_PAGES = {"lab_page": lab_page}
"""The lab's page by its name in :data:`avanti.server.protocol.routes.ROUTES`."""
