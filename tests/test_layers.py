"""Import arrows run only downward: core at the bottom, games above it, tools above them.

- ``avanti.core`` imports nothing else of the library.
- A game's package (``avanti.avanti``, ``avanti.mare``, ``avanti.autorama``) imports the core and
  itself, never another game and never a tool.
- The tools (``avanti.catalog``, ``avanti.bots``, ``avanti.cli``, ``avanti.store``,
  ``avanti.server``, ``avanti.transcript``) reach a game only through the catalog and the
  protocols. The one exception is ``avanti.cli.odds``, the table of Avanti mare!'s exact odds,
  which exists only for that game.
- ``avanti/__init__.py`` is the flagship's public face: it re-exports ``avanti.avanti``.

Every ``import`` counts, also those inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import avanti

SOURCE = Path(avanti.__file__).parent
GAMES = ("avanti.avanti", "avanti.mare", "avanti.autorama")
EXCEPTIONS = {("avanti.cli.odds", "avanti.mare")}


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The ``avanti`` modules a file imports (absolute names)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = {f"{node.module}.{a.name}" for a in node.names}
            found |= names if node.module == "avanti" else {node.module, *names}
    return {name for name in found if name == "avanti" or name.startswith("avanti.")}


def package_of(name: str) -> str:
    """The layer unit a module belongs to: ``avanti.core``, a game's package, or a tool."""
    for unit in ("avanti.core", *GAMES):
        if name == unit or name.startswith(unit + "."):
            return unit
    return name


def allowed(importer: str, imported: str) -> bool:
    unit, target = package_of(importer), package_of(imported)
    if imported == "avanti" or target == "avanti":
        return importer == "avanti"  # only the root re-exports the flagship
    if unit == "avanti.core":
        return target == "avanti.core"
    if unit in GAMES:
        return target in {"avanti.core", unit}
    if target in GAMES:
        return (importer == "avanti" and target == "avanti.avanti") or (
            importer,
            target,
        ) in EXCEPTIONS
    return True


def test_import_arrows_run_only_downward() -> None:
    wrong = []
    for path in sorted(SOURCE.rglob("*.py")):
        importer = module_name(path)
        for imported in sorted(imports(path)):
            if not allowed(importer, imported):
                wrong.append(f"{importer} imports {imported}")
    assert wrong == []


def test_the_layer_check_sees_a_wrong_arrow() -> None:
    assert not allowed("avanti.core.game", "avanti.catalog")
    assert not allowed("avanti.mare.bots", "avanti.avanti.board")
    assert not allowed("avanti.mare.rules", "avanti.bots.kit")
    assert not allowed("avanti.cli.watch", "avanti.autorama")
    assert allowed("avanti.cli.watch", "avanti.catalog")
    assert allowed("avanti.autorama.bots", "avanti.core.search")
    assert not allowed("avanti.core.store", "avanti.store")
    assert not allowed("avanti.store.games", "avanti.mare")
    assert allowed("avanti.store.games", "avanti.catalog")
    assert allowed("avanti.store.sqlite", "avanti.core.errors")


def test_the_stores_sit_in_the_tools_layer() -> None:
    """``avanti.store`` imports the core and the catalog, no game and no other tool."""
    store = SOURCE / "store"
    found = {
        imported
        for path in store.rglob("*.py")
        for imported in imports(path)
        if package_of(imported) != "avanti.store" and not imported.startswith("avanti.store.")
    }
    assert found
    assert {package_of(name) for name in found} <= {"avanti.core", "avanti.catalog"}


def test_the_server_sits_in_the_tools_layer() -> None:
    """``avanti.server`` imports the core, the stores, the catalog, the bots and the rules lab:
    no game and no other tool (the command line imports it, not the other way round)."""
    server = SOURCE / "server"
    found = {
        imported
        for path in server.rglob("*.py")
        for imported in imports(path)
        if not imported.startswith("avanti.server")
    }
    assert found
    assert {package_of(name).split(".")[1] for name in found} <= {
        "core",
        "store",
        "catalog",
        "bots",
        "lab",
    }
    assert not allowed("avanti.server.transport.app", "avanti.mare")
    assert allowed("avanti.cli.serve", "avanti.store")


def test_no_module_is_named_after_a_role_or_another_name_of_a_game() -> None:
    names = {p.stem for p in SOURCE.rglob("*.py")} | {
        p.name for p in SOURCE.rglob("*") if p.is_dir()
    }
    assert not names & {"flagship", "forsale", "game_"}
    assert not (SOURCE / "game").exists()


WEB_FRAMEWORKS = ("starlette", "uvicorn", "websockets", "h11", "httptools", "wsproto")

WINGS = {
    "avanti.server.protocol": set(),
    "avanti.server.table": {"avanti.server.protocol"},
    "avanti.server.runtime": {"avanti.server.protocol", "avanti.server.table"},
    "avanti.server.transport": {
        "avanti.server.protocol",
        "avanti.server.table",
        "avanti.server.runtime",
    },
}
"""The server's floors, top down: transport, runtime, table, protocol, and what each floor's
modules may import of the others (beside them ``limits`` and ``log``, which import none)."""

SHARED = {"avanti.server", "avanti.server.limits", "avanti.server.log"}
"""The server's modules outside the wings: its public face and the two every floor uses."""


def wing_of(name: str) -> str | None:
    """The floor of a module of the server (``None``: :data:`SHARED`)."""
    for wing in WINGS:
        if name == wing or name.startswith(wing + "."):
            return wing
    return None


def third_party_imports(path: Path) -> set[str]:
    """The top-level packages a file imports, every ``import`` counted."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def wing_arrows() -> list[tuple[str, str]]:
    """Every import of one floor of the server by another that :data:`WINGS` does not allow,
    and every import of a web framework outside the transport."""
    wrong: list[tuple[str, str]] = []
    for path in sorted((SOURCE / "server").rglob("*.py")):
        name = module_name(path)
        wing = wing_of(name)
        assert wing is not None or name in SHARED, f"{name} stands in no wing"
        for imported in imports(path):
            if not imported.startswith("avanti.server"):
                continue
            target = wing_of(imported)
            if target is None or target == wing:
                if wing is None and name != "avanti.server" and imported not in SHARED:
                    wrong.append((name, imported))  # limits and log import no floor
                continue
            if wing is not None and target not in WINGS[wing]:
                wrong.append((name, imported))
        if wing != "avanti.server.transport" and name != "avanti.server":
            for package in third_party_imports(path) & set(WEB_FRAMEWORKS):
                wrong.append((name, package))
    return wrong


def test_the_servers_floors_import_only_downward() -> None:
    """``avanti.server`` stands in three wings named for their roles (the table, the protocol,
    the transport) and the runtime that composes them: the transport imports the runtime, the
    runtime the table, the table the protocol, never the other way; no module outside the
    transport imports a web framework."""
    assert wing_arrows() == []
    assert {wing_of(module_name(p)) for p in (SOURCE / "server").rglob("*.py")} >= set(WINGS)
    for wing in ("protocol", "table", "transport"):
        assert len(list((SOURCE / "server" / wing).glob("*.py"))) > 3, wing


def test_the_floor_check_sees_a_wrong_arrow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check fails when the table imports the transport, or the protocol a web framework."""
    real = imports
    real_third = third_party_imports

    def seeing(path: Path) -> set[str]:
        found = real(path)
        if path.name == "master.py":
            found.add("avanti.server.transport.push")
        return found

    def framework(path: Path) -> set[str]:
        found = real_third(path)
        if path.name == "wire.py":
            found.add("starlette")
        return found

    monkeypatch.setattr(sys.modules[__name__], "imports", seeing)
    monkeypatch.setattr(sys.modules[__name__], "third_party_imports", framework)
    assert set(wing_arrows()) == {
        ("avanti.server.table.master", "avanti.server.transport.push"),
        ("avanti.server.protocol.wire", "starlette"),
    }


def private_imports(paths: list[Path]) -> list[tuple[str, str, str]]:
    """Every name with a leading underscore that one of ``paths`` imports from a module of the
    project (importer, module, name): a module's private names are its own."""
    found: list[tuple[str, str, str]] = []
    for path in paths:
        importer = module_name(path) if path.is_relative_to(SOURCE) else path.stem
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("avanti"):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append((importer, str(node.module), alias.name))
    return found


def test_no_module_of_the_server_imports_a_private_name_of_another() -> None:
    """What the server's modules share is public in the module that holds it (the schema
    builder and its parts, the request converter, the HTTP helpers the lab and the replays
    use): no module reaches into another's private names."""
    assert private_imports(sorted((SOURCE / "server").rglob("*.py"))) == []


def test_the_private_import_check_sees_one(tmp_path: Path) -> None:
    """The check finds a private name imported from another module of the project, and only
    that (a public name, a dunder and a name from outside the project pass)."""
    module = tmp_path / "reaching.py"
    module.write_text(
        "from avanti.server.protocol.schema import _SEAT_KEY, seat_key\n"
        "from avanti import __version__\n"
        "from os import _exit\n",
        encoding="utf-8",
    )
    found = private_imports([module])
    assert [(imported, name) for _, imported, name in found] == [
        ("avanti.server.protocol.schema", "_SEAT_KEY")
    ]
