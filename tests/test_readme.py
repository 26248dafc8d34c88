"""The README's promises: two Quickstart commands, CI runs the test one verbatim, examples run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def quickstart_commands() -> list[str]:
    section = README.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```console\n(.*?)```", section, re.S)
    assert block is not None, "the Quickstart has no console block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quickstart_is_exactly_two_command_lines() -> None:
    commands = quickstart_commands()
    assert len(commands) == 2
    assert "avanti demo" in commands[0]
    assert "nox" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert quickstart_commands()[1] in ci


def test_readme_examples_run() -> None:
    result = doctest.testfile(
        str(ROOT / "README.md"),
        module_relative=False,
        verbose=False,
        optionflags=doctest.ELLIPSIS,
    )
    assert result.attempted > 0
    assert result.failed == 0
