"""The front end's routes over HTTP: pages, static files, the catalog and a seat's table."""

from __future__ import annotations

from pathlib import Path

import pytest

from avanti import catalog
from avanti.server.protocol.wire import table_data
from avanti.server.transport.pages import SECURITY_HEADERS, WEB
from tests.browser.tables import stored
from tests.server.support import Served


def test_pages_and_files_are_served_with_the_security_headers(served: Served) -> None:
    """``/``, ``/play/{id}`` and every file of ``web/`` come with a policy that lets nothing
    load or connect but from this server, and without a referrer."""
    reply = served.create("mare", ["Ann"])
    for path, kind in (
        ("/", "text/html"),
        (f"/play/{reply['id']}", "text/html"),
        ("/static/play.js", "text/javascript"),
        ("/static/lobby.js", "text/javascript"),
        ("/static/common.js", "text/javascript"),
        ("/static/seats.js", "text/javascript"),
        ("/static/motion.js", "text/javascript"),
        ("/static/commands.js", "text/javascript"),
        ("/static/ending.js", "text/javascript"),
        ("/static/style.css", "text/css"),
        ("/static/icon.svg", "image/svg+xml"),
    ):
        answer = served.http.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["content-type"].startswith(kind), path
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers[name] == value, (path, name)
    assert served.http.get("/").text == (WEB / "index.html").read_text(encoding="utf-8")


def test_no_file_outside_the_folder_and_no_page_for_a_bad_id(served: Served) -> None:
    """Only plain file names of ``web/`` are served: no other folder, no hidden file."""
    for path in ("/static/nope.js", "/static/..%2Fapp.py", "/static/.hidden", "/static/"):
        answer = served.http.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"]["kind"] == "not-found", path
    assert served.http.get("/play/%20bad").json()["error"]["kind"] == "unknown-game"
    assert not (WEB / ".." / "pages.py").resolve().is_relative_to(WEB.resolve())


def test_catalog_lists_every_game_with_its_seats(served: Served) -> None:
    """``GET /catalog``: each game's name, title and seat limits, as the catalog has them."""
    answer = served.http.get("/catalog")
    assert answer.status_code == 200
    games = answer.json()["games"]
    assert [game["name"] for game in games] == list(catalog.GAMES)
    mare = games[1]
    assert (mare["title"], mare["min_players"], mare["max_players"]) == ("Avanti mare!", 1, 6)
    assert mare["default_players"][:3] == ["Ann", "Bob", "Cy"]
    assert "heuristic" in answer.json()["bots"]


@pytest.mark.parametrize("name", ["avanti", "mare", "autorama"])
def test_table_is_the_seats_picture_and_history(served: Served, name: str) -> None:
    """A30: ``GET /games/{id}/table`` gives each seat its own picture and the events it may
    see in words, exactly as :func:`table_data` builds them; a spectator gets its own."""
    reply = served.create(name, ["Ann", "Bob", "Cy"])
    game = stored(served, reply["id"])
    info = catalog.GAMES[name]
    pictures = set()
    for seat in reply["seats"]:
        auth = {"Authorization": f"Bearer {seat['token']}"}
        answer = served.http.get(f"/games/{reply['id']}/table", headers=auth)
        assert answer.status_code == 200
        assert answer.json() == table_data(game, info, seat["seat"], 0)
        pictures.add(answer.json()["svg"])
        later = served.http.get(f"/games/{reply['id']}/table?after={game.version}", headers=auth)
        assert later.json()["history"] == []
    watching = served.http.get(f"/games/{reply['id']}/table").json()
    assert watching == table_data(game, info, None, 0)
    assert watching["seat"] is None
    assert len(pictures) == 3  # each seat is drawn as "you" in its own


def test_table_refuses_bad_tokens_versions_and_games(served: Served) -> None:
    """The table answers a bad token as ``GET /games/{id}`` does (401, one answer for every
    bad token), a bad ``?after=`` with 400 and an unknown game with 404."""
    reply = served.create("mare", ["Ann", "Bob"])
    path = f"/games/{reply['id']}/table"
    for header in ("Bearer nope", "Basic abc", "Bearer", f"Bearer {reply['seats'][0]['token']}x"):
        answer = served.http.get(path, headers={"Authorization": header})
        assert answer.status_code == 401, header
        assert answer.json() == {
            "error": {"kind": "unauthorized", "message": "that is no seat's token in this game"}
        }
        assert answer.headers["www-authenticate"] == "Bearer"
    for after in ("-1", "x", "99", "1.5"):
        answer = served.http.get(f"{path}?after={after}")
        assert answer.status_code == 400, after
        assert answer.json()["error"]["kind"] == "bad-request"
    assert served.http.get("/games/nosuchgame/table").status_code == 404
    assert served.http.get("/games/%20/table").status_code == 404


def test_every_file_of_the_front_end_is_in_the_folder() -> None:
    """The pages load nothing from elsewhere: every script, style sheet and icon they name is
    a file of ``web/``, named by an absolute path on this server."""
    import re

    names = {path.name for path in WEB.iterdir()}
    pages = [
        "index.html",
        "play.html",
        "replay.html",
        *sorted(path.name for path in WEB.glob("*.js")),
    ]
    for page in pages:
        text = (WEB / page).read_text(encoding="utf-8")
        for found in re.findall(r"""(?:src|href|from)\s*=?\s*["'](/static/[^"']+)["']""", text):
            assert Path(found).name in names, (page, found)
        assert "http://" not in text, page
        assert "https://" not in text, page
