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
from pathlib import Path

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
    assert not allowed("avanti.server.app", "avanti.mare")
    assert allowed("avanti.cli.serve", "avanti.store")


def test_no_module_is_named_after_a_role_or_another_name_of_a_game() -> None:
    names = {p.stem for p in SOURCE.rglob("*.py")} | {
        p.name for p in SOURCE.rglob("*") if p.is_dir()
    }
    assert not names & {"flagship", "forsale", "game_"}
    assert not (SOURCE / "game").exists()


WEB_FRAMEWORKS = ("starlette", "uvicorn", "websockets", "h11", "httptools", "wsproto")

TRANSPORT_FREE = (
    "tables",
    "lobby",
    "joining",
    "requests",
    "service",
    "routes",
    "wire",
    "refusals",
    "seats",
    "push",
    "bots",
    "limits",
    "log",
    "schema",
    "shapes",
    "openapi",
)
"""The server's modules that know no transport: the table core and what it stands on."""


def third_party_imports(path: Path) -> set[str]:
    """The top-level packages a file imports, every ``import`` counted."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_the_table_core_knows_no_web_framework() -> None:
    """The table core (``avanti.server.tables``) and the modules it stands on import no web
    framework, directly or through another module of the server; only the transports (the
    HTTP endpoints, the WebSocket session, the pages, the app and uvicorn's configuration) do."""
    server = SOURCE / "server"
    reached: set[str] = set()
    todo = ["tables"]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        for imported in imports(server / f"{name}.py"):
            if imported.startswith("avanti.server."):
                todo.append(imported.split(".")[2])
    assert "tables" in reached
    assert not reached & {"http", "socket", "app", "pages", "serving"}
    assert reached <= set(TRANSPORT_FREE), reached - set(TRANSPORT_FREE)
    for name in TRANSPORT_FREE:
        assert not third_party_imports(server / f"{name}.py") & set(WEB_FRAMEWORKS), name
    assert third_party_imports(server / "http.py") & set(WEB_FRAMEWORKS)  # the check can fail


def test_no_server_module_is_over_400_lines() -> None:
    """Each module of the server holds one job: none grows past about 400 lines."""
    sizes = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in (SOURCE / "server").glob("*.py")
    }
    assert len(sizes) > 10
    assert max(sizes.values()) <= 400, sizes
