"""Two directives that tie a game's rules to its tests, read from the test files at build time.

``rule-checks`` (for a game's checks page) shows the source of every test in a test folder:
first the tests named after a rule (``test_f5_...`` checks F5; ``test_m2_m3_...`` checks M2 and
M3), grouped by rule, then the others, grouped by file. Each test gets a label,
``<game>-<file stem>-<test name>`` with underscores as hyphens, so other pages can link to it.

``rule-table`` (for a game's rules page) builds the table "rule id -> implemented in -> checked
by". Each line of its content is ``RULE | implementing objects | further checks``: the objects
are dotted Python names (rendered as links to the API reference), the further checks are
``file.py::test_name`` entries from the same test folder or free reStructuredText (a link to an
example). The tests named after the rule are added to the last column by themselves.

Both rebuild when a test file changes, and a name that does not exist fails the ``-W`` build, so
the tables cannot fall behind the tests.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

_RULE_WORD = re.compile(r"^([a-z])(\d+)$")


def _rules_of(name: str, prefix: str) -> list[str]:
    """The rule ids a test name starts with: ``test_m2_m3_x`` -> ``["M2", "M3"]``."""
    rules = []
    for word in name.removeprefix("test_").split("_"):
        match = _RULE_WORD.match(word)
        if not match or match.group(1) != prefix:
            break
        rules.append(f"{prefix.upper()}{match.group(2)}")
    return rules


def _key(rule: str) -> tuple[str, int]:
    return rule[0], int(rule[1:])


class _Test:
    def __init__(self, path: Path, name: str, first: int, last: int) -> None:
        self.path, self.name, self.first, self.last = path, name, first, last

    def label(self, game: str) -> str:
        return f"{game}-{self.path.stem}-{self.name}".replace("_", "-").lower()


def _tests(folder: Path) -> list[_Test]:
    found = []
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                found.append(_Test(path, node.name, first, node.end_lineno or node.lineno))
    return found


class _RuleDirective(SphinxDirective):
    has_content = True
    required_arguments = 1
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "game": directives.unchanged_required,
        "prefix": directives.unchanged_required,
    }

    def folder(self) -> Path:
        root = Path(self.env.srcdir).parent
        folder = (root / self.arguments[0]).resolve()
        for path in folder.glob("test_*.py"):
            self.env.note_dependency(str(path))
        return folder

    def parse(self, lines: list[str]) -> list[nodes.Node]:
        container = nodes.section() if self.name == "rule-checks" else nodes.container()
        content = StringList(lines, source=self.get_source_info()[0])
        if self.name == "rule-checks":
            nested_parse_with_titles(self.state, content, container)
        else:
            self.state.nested_parse(content, self.content_offset, container)
        return list(container.children)


class RuleChecks(_RuleDirective):
    """``.. rule-checks:: tests/<game>``; content: ``RULE title`` lines, in order."""

    def run(self) -> list[nodes.Node]:
        game, prefix = self.options["game"], self.options["prefix"]
        folder = self.folder()
        here = Path(self.env.doc2path(self.env.docname)).parent
        titles = dict(line.split(" ", 1) for line in self.content if line.strip())
        by_rule: dict[str, list[_Test]] = {rule: [] for rule in titles}
        others: dict[str, list[_Test]] = {}
        for test in _tests(folder):
            rules = _rules_of(test.name, prefix)
            for rule in rules:
                if rule not in by_rule:
                    raise self.error(f"{test.name} names {rule}, which has no title here")
                by_rule[rule].append(test)
            if not rules:
                others.setdefault(test.path.name, []).append(test)
        lines: list[str] = []

        def show(test: _Test, labelled: bool) -> None:
            rel = Path(*[".."] * len(here.relative_to(self.env.srcdir).parts), "..") / (
                test.path.relative_to(Path(self.env.srcdir).parent)
            )
            lines.extend(
                [
                    f".. literalinclude:: {rel.as_posix()}",
                    "   :language: python",
                    f"   :lines: {test.first}-{test.last}",
                    f"   :caption: {test.path.relative_to(folder.parent.parent)}",
                ]
            )
            if labelled:
                lines.append(f"   :name: {test.label(game)}")
            lines.append("")

        seen: set[str] = set()
        for rule in sorted(by_rule, key=_key):
            title = f"{rule}: {titles[rule]}"
            lines += [f".. _{game}-checks-{rule.lower()}:", "", title, "-" * len(title), ""]
            if not by_rule[rule]:
                lines += ["No test is named after this rule; the rules page lists its checks.", ""]
            for test in by_rule[rule]:
                show(test, test.label(game) not in seen)
                seen.add(test.label(game))
        if others:
            title = "Other checks"
            lines += [f".. _{game}-checks-other:", "", title, "-" * len(title), ""]
            lines += ["Tests of the game as a whole (JSON, hidden information, random play).", ""]
            for file, tests in others.items():
                lines += [f"``{file}``", "~" * (len(file) + 4), ""]
                for test in tests:
                    show(test, True)
        return self.parse(lines)


class RuleTable(_RuleDirective):
    """``.. rule-table:: tests/<game>``; content: ``RULE | objects | further checks`` lines."""

    def run(self) -> list[nodes.Node]:
        game, prefix = self.options["game"], self.options["prefix"]
        tests = _tests(self.folder())
        by_file = {(t.path.name, t.name): t for t in tests}
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 8 40 52", ""]
        lines += ["   * - Rule", "     - Implemented in", "     - Checked by"]
        for raw in self.content:
            if not raw.strip():
                continue
            rule, objects, *rest = (part.strip() for part in raw.split("|"))
            code = [f":py:obj:`~{name.strip()}`" for name in objects.split(",") if name.strip()]
            checks = [
                f":ref:`{t.name} <{t.label(game)}>`"
                for t in tests
                if rule in _rules_of(t.name, prefix)
            ]
            for extra in rest[0].split(",") if rest and rest[0] else []:
                extra = extra.strip()
                if "::" in extra and not extra.startswith(":"):
                    file, name = extra.split("::")
                    if (file, name) not in by_file:
                        raise self.error(f"no test {extra} in {self.arguments[0]}")
                    checks.append(f":ref:`{name} <{by_file[file, name].label(game)}>`")
                else:
                    checks.append(extra)
            lines += [
                f"   * - :ref:`{rule} <{game}-checks-{rule.lower()}>`",
                f"     - {', '.join(code)}",
                f"     - {', '.join(checks) or 'none'}",
            ]
        return self.parse(lines)


def setup(app: Sphinx) -> dict[str, object]:
    app.add_directive("rule-checks", RuleChecks)
    app.add_directive("rule-table", RuleTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
