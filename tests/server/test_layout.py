"""The hello's choice of layout (A30): ``"table": {"layout": "narrow"}`` gets each update's
picture drawn for a phone, ``"table": true`` the wide one; one process's hub builds each layout's
payload once and never hands one layout's picture to the other."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from avanti.server.protocol.requests import Hello
from avanti.server.protocol.wire import ApiError
from tests.server.support import PATIENCE, Served, receive, serving


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The app under a real uvicorn over a fresh SQLite file."""
    with serving(tmp_path_factory.mktemp("layout") / "games.db") as server:
        yield server


def _first(served: Served, game_id: str, token: str | None, table: Any) -> Any:
    """The first update of a stream opened with this ``table`` in the hello."""
    with connect(served.ws_url(game_id), open_timeout=PATIENCE) as socket:
        socket.send(json.dumps({"token": token, "after": 0, "table": table}))
        return receive(socket)


def _width(svg: str) -> str:
    found = re.match(r'<svg [^>]*viewBox="0 0 (\d+)', svg)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("game", "wide"), [("avanti", "760"), ("mare", "800"), ("autorama", "720")]
)
def test_a_narrow_hello_gets_the_narrow_picture(served: Served, game: str, wide: str) -> None:
    """A30: the same seat's first update is 360 units wide with the narrow layout, as wide as
    the game's own picture (760, 800, 720) with ``true`` or ``{"layout": "wide"}``, both built
    by the one hub, one after the other, from the same version."""
    reply = served.create(game, ["Ann", "Bob", "Cy"])
    token = reply["seats"][0]["token"]
    narrow = _first(served, reply["id"], token, {"layout": "narrow"})
    plain = _first(served, reply["id"], token, True)
    chosen = _first(served, reply["id"], token, {"layout": "wide"})
    assert narrow["version"] == plain["version"] == chosen["version"]
    assert _width(narrow["table"]["svg"]) == "360"
    assert _width(plain["table"]["svg"]) == _width(chosen["table"]["svg"]) == wide
    assert plain["table"] == chosen["table"]
    assert narrow["table"]["history"] == plain["table"]["history"]
    assert narrow["table"]["labels"] == plain["table"]["labels"]


@pytest.mark.parametrize("table", [{"layout": "tall"}, {"layout": None}, {"size": 3}, "narrow", 1])
def test_a_hello_with_another_layout_is_refused(table: Any) -> None:
    """A30: a layout other than "wide" or "narrow", another key or another type of ``table`` is
    a bad request that names the key."""
    with pytest.raises(ApiError) as refused:
        Hello.read({"token": None, "after": 0, "table": table})
    assert refused.value.kind == "bad-request"
    assert "'table'" in refused.value.message


def test_a_hello_reads_its_layout() -> None:
    """A30: ``{"layout": "narrow"}`` asks for the table in the narrow layout; ``true`` and
    ``{}`` for the wide one; ``false`` for no table."""
    assert Hello.read({"table": {"layout": "narrow"}}) == Hello(table=True, layout="narrow")
    assert Hello.read({"table": True}) == Hello(table=True, layout="wide")
    assert Hello.read({"table": {}}) == Hello(table=True, layout="wide")
    assert Hello.read({"table": False}) == Hello(table=False, layout="wide")
