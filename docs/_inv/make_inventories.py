"""Write the small intersphinx inventories the documentation links through.

The build runs without network access, so instead of downloading the inventories of Python, attrs
and cattrs, ``conf.py`` points intersphinx at the files this script writes next to it. Each lists
only the names these pages (and the docstrings they include) refer to, with the address of that
name in the project's public documentation. Run it again after adding a name::

    python docs/_inv/make_inventories.py

A name that a page uses but that is missing here makes the ``-W`` build fail (``nitpicky`` is on),
so the lists cannot fall behind silently.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from sphinx.util.inventory import InventoryFile

HERE = Path(__file__).resolve().parent

Entry = tuple[str, str, str]
"""(name, domain:role, address relative to the project's base URL; a ``$`` stands for the name)."""

PYTHON_BASE = "https://docs.python.org/3/"
PYTHON: tuple[Entry, ...] = (
    ("int", "py:class", "library/functions.html#$"),
    ("str", "py:class", "library/stdtypes.html#$"),
    ("bool", "py:class", "library/functions.html#$"),
    ("bytes", "py:class", "library/stdtypes.html#$"),
    ("float", "py:class", "library/functions.html#$"),
    ("tuple", "py:class", "library/stdtypes.html#$"),
    ("list", "py:class", "library/stdtypes.html#$"),
    ("dict", "py:class", "library/stdtypes.html#$"),
    ("object", "py:class", "library/functions.html#$"),
    ("type", "py:class", "library/functions.html#$"),
    ("Exception", "py:exception", "library/exceptions.html#$"),
    ("ValueError", "py:exception", "library/exceptions.html#$"),
    ("KeyError", "py:exception", "library/exceptions.html#$"),
    ("concurrent.futures.Future", "py:class", "library/concurrent.futures.html#$"),
    (
        "concurrent.futures._base.Future",
        "py:class",
        "library/concurrent.futures.html#concurrent.futures.Future",
    ),
    ("RuntimeError", "py:exception", "library/exceptions.html#$"),
    ("abc.ABC", "py:class", "library/abc.html#$"),
    ("enum.Enum", "py:class", "library/enum.html#$"),
    ("enum.StrEnum", "py:class", "library/enum.html#$"),
    ("fractions.Fraction", "py:class", "library/fractions.html#$"),
    ("json.dumps", "py:function", "library/json.html#$"),
    ("json.loads", "py:function", "library/json.html#$"),
    ("random", "py:module", "library/random.html#module-random"),
    ("sys.stdin", "py:data", "library/sys.html#$"),
    ("types.ModuleType", "py:class", "library/types.html#$"),
    ("typing.Any", "py:data", "library/typing.html#$"),
    ("typing.Literal", "py:data", "library/typing.html#$"),
    ("typing.Protocol", "py:class", "library/typing.html#$"),
    ("typing.TextIO", "py:class", "library/typing.html#$"),
    ("typing.Self", "py:data", "library/typing.html#$"),
    ("collections.abc.Callable", "py:class", "library/collections.abc.html#$"),
    ("collections.abc.Iterable", "py:class", "library/collections.abc.html#$"),
    ("collections.abc.AsyncIterator", "py:class", "library/collections.abc.html#$"),
    ("collections.abc.Iterator", "py:class", "library/collections.abc.html#$"),
    ("collections.abc.Mapping", "py:class", "library/collections.abc.html#$"),
    ("collections.abc.Sequence", "py:class", "library/collections.abc.html#$"),
    ("pathlib.Path", "py:class", "library/pathlib.html#$"),
    ("os.PathLike", "py:class", "library/os.html#$"),
    ("tomllib", "py:module", "library/tomllib.html#module-tomllib"),
)

ATTRS_BASE = "https://www.attrs.org/en/stable/"
ATTRS: tuple[Entry, ...] = (
    ("attrs.frozen", "py:function", "api.html#$"),
    ("attrs.define", "py:function", "api.html#$"),
    ("attrs.evolve", "py:function", "api.html#$"),
    ("attrs.asdict", "py:function", "api.html#$"),
)

CATTRS_BASE = "https://catt.rs/en/stable/"
CATTRS: tuple[Entry, ...] = (
    ("cattrs.Converter", "py:class", "cattrs.html#$"),
    ("cattrs.converters.Converter", "py:class", "cattrs.html#cattrs.Converter"),
    ("cattrs.BaseValidationError", "py:exception", "cattrs.html#$"),
    ("cattrs.ClassValidationError", "py:exception", "cattrs.html#$"),
    ("cattrs.transform_error", "py:function", "cattrs.html#$"),
    (
        "cattrs.strategies.configure_tagged_union",
        "py:function",
        "cattrs.strategies.html#cattrs.strategies.configure_tagged_union",
    ),
)

PROJECTS: tuple[tuple[str, str, str, tuple[Entry, ...]], ...] = (
    ("python", "Python", "3", PYTHON),
    ("attrs", "attrs", "stable", ATTRS),
    ("cattrs", "cattrs", "stable", CATTRS),
)
"""(file stem, project name, version, entries); the base URLs live in ``conf.py``."""

BASES = {"python": PYTHON_BASE, "attrs": ATTRS_BASE, "cattrs": CATTRS_BASE}
"""The base URL of each project, as ``conf.py`` passes it to ``intersphinx_mapping``."""


def inventory(project: str, version: str, entries: tuple[Entry, ...]) -> bytes:
    """An inventory in Sphinx's version 2 format (a header, then zlib-compressed lines)."""
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        f"# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    body = "".join(f"{name} {role} 1 {uri} -\n" for name, role, uri in sorted(entries))
    return header.encode() + zlib.compress(body.encode(), 9)


def main() -> None:
    for stem, project, version, entries in PROJECTS:
        data = inventory(project, version, entries)
        # Read it back the way intersphinx will, so a malformed file fails here, not in the build.
        loaded = InventoryFile.loads(data, uri=BASES[stem])
        for name, role, uri in entries:
            assert loaded[role, name].uri == BASES[stem] + uri.replace("$", name), name
        path = HERE / f"{stem}.inv"
        path.write_bytes(data)
        print(f"{path.name}: {len(entries)} names")


if __name__ == "__main__":
    main()
