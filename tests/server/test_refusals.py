"""The server's one vocabulary of refusals (:class:`avanti.server.protocol.refusals.Refusal`).

Every ``ApiError(...)`` in the server's source (and the rules lab's) names a member of the enum,
found by walking each module's syntax tree, not by a list of modules kept by hand: no literal
status, no kind as a string. Every member is raised somewhere, and documented: the enum's
members are exactly the kinds of :data:`~avanti.server.protocol.shapes.ERROR_KINDS`, of the OpenAPI
document's ``Error.kind`` and of the docs page's errors table (row for row, status and meaning
too), and the docs page's close codes are the enum's. Both transports map an exception to a
refusal by the one :func:`~avanti.server.protocol.wire.refusal_of`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

import avanti.lab
import avanti.server
from avanti.core.errors import DecodeError, UnknownGame
from avanti.server.protocol.openapi import openapi
from avanti.server.protocol.refusals import Refusal
from avanti.server.protocol.shapes import ERROR_KINDS
from avanti.server.protocol.wire import ApiError, refusal_of
from avanti.server.transport.socket import CLOSE_CODES
from avanti.store import StoreError

PACKAGES = (Path(avanti.server.__file__).parent, Path(avanti.lab.__file__).parent)
"""The packages whose code refuses clients: the server's, and the rules lab's."""

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def _is_api_error(call: ast.Call) -> bool:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "ApiError"


def _member(node: ast.expr) -> str | None:
    """The member's name when ``node`` is ``Refusal.<MEMBER>``."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Refusal"
    ):
        return node.attr
    return None


def wrong_refusals(source: str, where: str) -> tuple[list[str], set[str], int]:
    """The refusals of ``source`` not made from a member (each ``where:line: why``), the
    members it names, and how many ``ApiError(...)`` it holds."""
    problems: list[str] = []
    named: set[str] = set()
    made = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and (member := _member(node)) is not None:
            named.add(member)
            if member not in Refusal.__members__:
                problems.append(f"{where}:{node.lineno}: Refusal has no member {member}")
        if isinstance(node, ast.Dict):  # an error body written by hand: {"kind": "...", ...}
            keys = {key.value: value for key, value in zip(node.keys, node.values, strict=True)
                    if isinstance(key, ast.Constant)}  # fmt: skip
            kind = keys.get("kind")
            if "message" in keys and isinstance(kind, ast.Constant | ast.JoinedStr):
                problems.append(f"{where}:{node.lineno}: an error body with a kind as a string")
        if not isinstance(node, ast.Call) or not _is_api_error(node):
            continue
        made += 1
        place = f"{where}:{node.lineno}"
        member = _member(node.args[0]) if node.args else None
        if member is None or member not in Refusal.__members__:
            problems.append(f"{place}: the first argument is not Refusal.<MEMBER>")
            continue
        if len(node.args) != 2:
            problems.append(f"{place}: ApiError takes a refusal and a message, then fields")
        for keyword in node.keywords:
            if keyword.arg == "status":
                value = keyword.value
                allowed = Refusal[member].also
                if not (isinstance(value, ast.Constant) and value.value in allowed):
                    problems.append(f"{place}: {member} is never sent with that status")
    return problems, named, made


def test_every_refusal_the_code_makes_names_a_member_of_the_enum() -> None:
    problems: list[str] = []
    named: dict[str, set[str]] = {}
    made = 0
    modules = sorted(path for package in PACKAGES for path in package.rglob("*.py"))
    for path in modules:
        where = f"{path.parent.name}/{path.name}"
        found, names, count = wrong_refusals(path.read_text(encoding="utf-8"), where)
        problems += found
        made += count
        for name in names:
            named.setdefault(name, set()).add(path.name)
    assert len(modules) > 25
    assert made > 100
    assert problems == []
    # every member is one the code makes: none is documented but never sent
    used = {name for name, files in named.items() if files - {"refusals.py"}}
    assert used == set(Refusal.__members__)
    # a bug, an unreadable game: answered by the one mapping of exceptions, never by hand
    assert named["INTERNAL"] == {"wire.py"}


def test_the_check_sees_a_refusal_not_made_from_a_member() -> None:
    def problems(source: str) -> list[str]:
        return wrong_refusals(source, "x.py")[0]

    assert problems('ApiError(Refusal.BAD_REQUEST, "no")') == []
    assert problems('ApiError(Refusal.UNKNOWN_GAME, "no", status=400, rule="R1")') == []
    assert problems('raise ApiError(400, "bad-request", "no")')
    assert problems('wire.ApiError("bad-request", "no")')
    assert problems('ApiError(refusal, "no")')
    assert problems('ApiError(Refusal.NO_SUCH_KIND, "no")')
    assert problems('ApiError(Refusal.BAD_REQUEST, 400, "no")')
    assert problems('ApiError(Refusal.UNKNOWN_GAME, "no", status=410)')
    assert problems('ApiError(Refusal.BAD_REQUEST, "no", status=404)')
    assert problems('json_response({"error": {"kind": "lost", "message": "no"}}, 404)')
    assert problems('{"kind": f"{kind}", "message": "no"}')
    assert not problems('{"kind": {"enum": kinds}, "message": STRING_SCHEMA}')


def test_the_enum_is_the_one_list_of_kinds() -> None:
    kinds = [refusal.kind for refusal in Refusal]
    assert len(set(kinds)) == len(kinds) > 30
    assert list(ERROR_KINDS) == kinds
    document: Any = openapi()
    error = document["components"]["schemas"]["Error"]["properties"]["error"]
    assert error["properties"]["kind"]["enum"] == kinds
    assert {"invalid-case", "invalid-document", "too-slow"} <= set(kinds)
    assert {r.kind: r.close_code for r in Refusal if r.close_code is not None} == CLOSE_CODES
    for refusal in Refusal:
        assert refusal.value == refusal.kind
        assert 400 <= refusal.status < 600
        assert refusal.status not in refusal.also
        assert refusal.meaning
        assert "\n" not in refusal.meaning
        assert "|" not in refusal.meaning
        assert (
            refusal.close_code is None
            or refusal.close_code in (1009, 1011, 1013)
            or (4000 <= refusal.close_code < 5000)
        )


def _section(text: str, heading: str) -> str:
    """The part of a Markdown page under ``heading``, up to the next heading of its level."""
    level = heading.split(" ")[0]
    start = text.index(f"\n{heading}\n")
    end = text.find(f"\n{level} ", start + len(heading) + 2)
    return text[start : end if end != -1 else len(text)]


def test_the_docs_page_lists_each_kind_once_as_the_enum_says() -> None:
    errors = _section(DOCS.read_text(encoding="utf-8"), "## Errors")
    rows = [line for line in errors.splitlines() if line.startswith("| `")]
    expected = [
        f"| `{r.kind}` | {' or '.join(map(str, r.statuses))} | {r.meaning} |" for r in Refusal
    ]
    assert rows == expected


def test_the_docs_page_gives_the_close_codes_the_enum_gives() -> None:
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("| Kind | Close code |") :].split("\n\n")[0]
    documented: dict[str, int] = {}
    for line in table.splitlines()[2:]:
        kinds, code = line.strip("|").rsplit("|", 1)
        for kind in re.findall(r"`([a-z-]+)`", kinds):
            documented[kind] = int(code)
    assert documented == CLOSE_CODES


@pytest.mark.parametrize(
    ("error", "refusal"),
    [
        (StoreError("the disk is gone"), Refusal.UNAVAILABLE),
        (DecodeError(("no such field @ $.chess",)), Refusal.INTERNAL),
        (UnknownGame("chess", ("mare",)), Refusal.INTERNAL),
        (ZeroDivisionError("a bug"), Refusal.INTERNAL),
    ],
)
def test_one_mapping_turns_an_exception_into_a_refusal(
    error: Exception, refusal: Refusal, caplog: pytest.LogCaptureFixture
) -> None:
    refused = refusal_of(error, game="0123456789abcdef")
    assert refused.refusal is refusal
    assert (refused.status, refused.kind) == (refusal.status, refusal.kind)
    assert refused.body() == {"error": {"kind": refusal.kind, "message": refused.message}}
    assert "disk" not in refused.message
    assert "chess" not in refused.message
    assert caplog.records  # a failure is logged, where it was met
    assert getattr(caplog.records[-1], "avanti_fields", {})["game"] == "0123456789abcdef"


def test_an_api_error_is_its_members_and_takes_only_its_statuses() -> None:
    refused = ApiError(Refusal.VERSION_CONFLICT, "moved on", expected=3, actual=4)
    assert refusal_of(refused) is refused
    assert (refused.status, refused.kind, refused.message) == (409, "version-conflict", "moved on")
    assert refused.body() == {
        "error": {"kind": "version-conflict", "message": "moved on", "expected": 3, "actual": 4}
    }
    assert ApiError(Refusal.UNKNOWN_GAME, "no such game").status == 404
    assert ApiError(Refusal.UNKNOWN_GAME, "no such game", status=400).status == 400
    with pytest.raises(ValueError, match="unknown-game"):
        ApiError(Refusal.UNKNOWN_GAME, "no such game", status=410)
    with pytest.raises(ValueError, match="bad-request"):
        ApiError(Refusal.BAD_REQUEST, "no", status=404)
