"""The docs agree with the README on how to install and start: every console block of
``docs/**/*.md`` is read, and each install command in it, or in a page's text, is checked
against the README's Quickstart."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from tests.test_readme import quickstart_commands

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").rglob("*.md"))
EXTRAS = set(
    tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
)
CONSOLE = re.compile(r"```console\n(.*?)```", re.S)
INLINE_PIP = re.compile(r"`([^`]*pip\s+install[^`]*)`")


def console_commands(text: str) -> list[str]:
    """The commands of every console block, prompts and comments taken off, each ``&&`` part
    on its own."""
    commands: list[str] = []
    for block in CONSOLE.findall(text):
        for line in block.splitlines():
            line = line.strip()
            if not line.startswith("$ "):
                continue
            line = line[2:].split("  #", 1)[0].strip()
            commands += [part.strip() for part in line.split("&&")]
    return commands


README_COMMANDS = [part.strip() for line in quickstart_commands() for part in line.split("&&")]
"""The README's Quickstart, one command per ``&&`` part: the reference."""


def check_install(command: str, where: str) -> None:
    """A pip install as the README writes it: ``python -m pip install`` of the checkout with
    extras that exist, or of the gate's tools exactly as the README installs them."""
    words = shlex.split(command)
    assert words[:4] == ["python", "-m", "pip", "install"], f"{where}: {command!r}"
    targets = words[4:]
    if any(target.startswith(".") for target in targets):
        for target in targets:
            extras = re.fullmatch(r"\.\[([a-z,]+)\]", target)
            assert extras is not None, f"{where}: install the checkout as '.[extra]': {command!r}"
            assert set(extras.group(1).split(",")) <= EXTRAS, f"{where}: no such extra: {command}"
        return
    tools = next(c for c in README_COMMANDS if "pip install" in c and ".[" not in c)
    assert command == tools, f"{where}: the gate's tools are installed as {tools!r}: {command!r}"


@pytest.mark.parametrize("page", DOCS, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_install_command_of_the_docs_is_the_readmes(page: Path) -> None:
    text = page.read_text("utf-8")
    where = str(page.relative_to(ROOT))
    for command in console_commands(text):
        if "pip install" in command:
            check_install(command, where)
        if "avanti demo" in command and "--game" in command and "quickstart" in where:
            assert command in README_COMMANDS, f"{where}: the README's demo is {README_COMMANDS}"
        assert "avanti[" not in command, f"{where}: {command!r} needs avanti on an index"
    prose = re.sub(r"```.*?```", "", text, flags=re.S).replace("\n", " ")
    for inline in INLINE_PIP.findall(prose):
        assert "avanti[" not in inline, f"{where}: {inline!r} needs avanti on an index"
        check_install(inline.split("&&")[0].strip(), where)


def test_the_quickstart_page_starts_as_the_readme_does() -> None:
    page = (ROOT / "docs" / "quickstart.md").read_text("utf-8")
    assert console_commands(page)[:4] == README_COMMANDS


def test_the_checks_catch_what_they_are_for() -> None:
    """The check refuses the lines the docs once had."""
    for wrong in ('python -m pip install "avanti[server]"', "python -m pip install nox"):
        with pytest.raises(AssertionError):
            check_install(wrong, "a page")
    with pytest.raises(AssertionError, match="no such extra"):
        check_install('python -m pip install ".[servers]"', "a page")
    check_install('python -m pip install ".[server]"', "a page")
    assert console_commands("```console\n$ a && b  # note\nout\n```") == ["a", "b"]
