"""Sphinx configuration for the avanti documentation."""

from __future__ import annotations

import avanti

project = "avanti"
author = "The avanti developers"
copyright = "2026, the avanti developers"
release = avanti.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "boards"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"avanti {release}"

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_typehints = "description"
suppress_warnings = ["myst.xref_missing"]

doctest_global_setup = """
import avanti
"""
