"""Sphinx configuration for the avanti documentation."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

import avanti

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "avanti"
author = "The avanti developers"
copyright = "2026, the avanti developers"
release = avanti.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "rulechecks",
    "pictures",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_ext", "_inv", "boards"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"avanti {release}"

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}
autodoc_typehints = "description"
autodoc_preserve_defaults = True

# Every cross-reference must resolve: a rules page that names a function which does not exist, or
# a test that was renamed, fails the -W build.
nitpicky = True
nitpick_ignore_regex = [
    # Type variables of the generic core classes have no page of their own.
    ("py:(class|obj)", r"~?(avanti\..*\.)?([A-Z][A-Za-z]*T|[A-Z])(_co|_contra)?"),
    # Private protocols that only type a parameter (``avanti.bots.driver._Seated``).
    ("py:class", r"avanti\..*\._[A-Za-z]+"),
    # asyncio's C future, as a return annotation may name it.
    ("py:class", r"_asyncio\.Future"),
]

# The network is not reachable when the docs are built: intersphinx reads small local inventories
# written by _inv/make_inventories.py, which lists every outside name these pages refer to.
intersphinx_mapping = {
    "python": ("https://docs.python.org/3/", "_inv/python.inv"),
    "attrs": ("https://www.attrs.org/en/stable/", "_inv/attrs.inv"),
    "cattrs": ("https://catt.rs/en/stable/", "_inv/cattrs.inv"),
}

# Exception messages are compared too: an example that shows an error shows the real one.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1
doctest_global_setup = """
import avanti
"""

# -- one page per object, however it is imported --------------------------------------------------
#
# ``avanti.IllegalCommand``, ``avanti.core.IllegalCommand``, ``avanti.mare.IllegalCommand`` and
# ``avanti.core.errors.IllegalCommand`` are one class. Each object is documented once, under one of
# its names; a reference (or a type hint) that uses another of its names is sent to that page.

_NAME = re.compile(r"^avanti(\.\w+)*$")


def _public_names() -> list[list[str]]:
    """Every dotted name of every public avanti object, one list per object."""
    groups: dict[object, list[str]] = {}
    modules = [avanti]
    for info in pkgutil.walk_packages(avanti.__path__, "avanti."):
        if info.name.rsplit(".", 1)[-1].startswith("_") or info.name == "avanti.__main__":
            continue
        modules.append(importlib.import_module(info.name))
    for module in modules:
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr, None)
            owner = getattr(obj, "__module__", None)
            qualname = getattr(obj, "__qualname__", None)
            if isinstance(owner, str) and isinstance(qualname, str):
                key: object = f"{owner}.{qualname}"
                groups.setdefault(key, [str(key)])
            else:  # a constant: the same value under the same name is the same constant
                key = (attr, id(obj))
            groups.setdefault(key, []).append(f"{module.__name__}.{attr}")
    return list(groups.values())


_ALIASES: dict[str, list[str]] = {}
for _names in _public_names():
    for _name in _names:
        _ALIASES[_name] = _names


def _other_names(name: str) -> list[str]:
    """Every name of the object ``name`` names, a member of an aliased class included."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        head, rest = ".".join(parts[:cut]), parts[cut:]
        if head in _ALIASES:
            return [".".join([alias, *rest]) for alias in _ALIASES[head]]
    return []


def _resolve_alias(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Resolve a reference by another name of the same object, or by a unique dotted suffix."""
    if node.get("refdomain") != "py":
        return None
    domain: Any = env.get_domain("py")
    target = node.get("reftarget", "")
    if not _NAME.match(target):
        module = node.get("py:module")
        full = f"{module}.{target}" if module else target
    else:
        full = target
    candidates = [name for name in _other_names(full) if name in domain.objects]
    if not candidates:
        # A short name in a docstring (``Game.undo``, ``DecodeError``): accept it when exactly one
        # documented object is called that.
        found = {
            name: _ALIASES.get(name, [name])[0]
            for name in domain.objects
            if name.endswith("." + target) and name.startswith("avanti.")
        }
        if len(set(found.values())) == 1:
            candidates = sorted(found)[:1]
    for other in candidates:
        alias = node.deepcopy()
        alias["reftarget"] = other
        alias["refspecific"] = False
        resolved = domain.resolve_any_xref(env, node["refdoc"], app.builder, other, alias, contnode)
        if resolved:
            result: nodes.reference = resolved[0][1]
            return result
    return None


def _qualify_short_names(app: Sphinx, doctree: nodes.document) -> None:
    """Read a bare name in a docstring or type hint as what it means in the module it is in.

    ``GameState`` in a hint of ``avanti.autorama.flow`` is ``avanti.autorama.state.GameState``,
    not one of the other games' classes of the same name.
    """
    for node in doctree.findall(pending_xref):
        module = node.get("py:module")
        target = node.get("reftarget", "")
        if node.get("refdomain") != "py" or not module or "." in target:
            continue
        try:
            obj = getattr(importlib.import_module(module), target)
        except (ImportError, AttributeError):
            continue
        owner, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if isinstance(owner, str) and isinstance(qualname, str) and owner.startswith("avanti"):
            node["reftarget"] = f"{owner}.{qualname}"
            node["refspecific"] = False


def setup(app: Sphinx) -> None:
    app.connect("doctree-read", _qualify_short_names)
    app.connect("missing-reference", _resolve_alias)
