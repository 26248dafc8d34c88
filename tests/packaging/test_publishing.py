"""The files a published library keeps beside its code say what the gate says: the CI workflow
runs the noxfile's sessions on every supported Python, the documentation host builds the same
Sphinx site with the same extras, pre-commit runs the lint session's and the typecheck session's
commands, and the changelog has released sections. Each YAML file is parsed, and every session
and command it names is looked up in noxfile.py (read as source: nox itself need not be
installed to run these tests)."""

from __future__ import annotations

import ast
import re
import shlex
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.packaging.conftest import REPOSITORY, VERSION

yaml = pytest.importorskip("yaml", reason="PyYAML reads the CI, docs host and pre-commit files")

NOXFILE = REPOSITORY / "noxfile.py"


def load(name: str) -> Any:
    return yaml.safe_load((REPOSITORY / name).read_text(encoding="utf-8"))


@cache
def noxfile() -> ast.Module:
    return ast.parse(NOXFILE.read_text(encoding="utf-8"))


def constant(name: str) -> Any:
    """The literal value of a module-level assignment in noxfile.py."""
    for node in noxfile().body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == name:
            return ast.literal_eval(node.value)
    raise AssertionError(f"noxfile.py assigns no {name}")


def python_versions() -> list[str]:
    versions: list[str] = constant("PYTHONS")
    return versions


def sessions() -> dict[str, ast.FunctionDef]:
    """Every session of noxfile.py by the name nox gives it (``tests-3.12`` for a session
    parametrized by Python)."""
    found: dict[str, ast.FunctionDef] = {}
    for node in noxfile().body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if ast.unparse(target) != "nox.session":
                continue
            pythons = [k for k in (call.keywords if call else []) if k.arg == "python"]
            if pythons:
                assert ast.unparse(pythons[0].value) == "PYTHONS", node.name
                found |= {f"{node.name}-{version}": node for version in python_versions()}
            else:
                found[node.name] = node
    return found


def default_sessions() -> set[str]:
    """The sessions ``python -m nox`` runs, each Python's ``tests`` by its own name."""
    names: list[str] = constant("nox.options.sessions")
    known = sessions()
    return {s for name in names for s in known if s == name or s.startswith(f"{name}-")}


def session_calls(name: str, method: str) -> list[list[str]]:
    """The string arguments of each ``session.<method>(...)`` call in a session."""
    calls = []
    for node in ast.walk(sessions()[name]):
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) == f"session.{method}"
            and all(isinstance(a, ast.Constant) for a in node.args)
        ):
            calls.append([str(a.value) for a in node.args if isinstance(a, ast.Constant)])
    return calls


def classifier_pythons() -> list[str]:
    text = (REPOSITORY / "pyproject.toml").read_text(encoding="utf-8")
    return re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text)


def test_the_supported_pythons_agree() -> None:
    """pyproject's classifiers, the noxfile's PYTHONS and the CI matrix name the same Pythons."""
    matrix = load(".github/workflows/ci.yml")["jobs"]["tests"]["strategy"]["matrix"]["python"]
    assert python_versions() == classifier_pythons() == matrix == ["3.11", "3.12", "3.13"]


def test_the_noxfile_reads_as_expected() -> None:
    """The reading of noxfile.py these checks rest on finds what it should."""
    assert {"lint", "typecheck", "docs", "build", "tests-3.11", "tests-3.13"} <= set(sessions())
    assert "tests" not in sessions()
    assert default_sessions() >= {"lint", "tests-3.12", "build"}
    assert ["ruff", "check", "."] in session_calls("lint", "run")


def test_the_long_runs_left_out_on_other_pythons_exist() -> None:
    long_runs: tuple[str, ...] = constant("LONG_RUNS")
    assert long_runs
    assert [path for path in long_runs if not (REPOSITORY / path).exists()] == []


def ci_sessions() -> list[str]:
    """Every session a ``python -m nox -s ...`` step of the CI workflow names, with the matrix
    expanded."""
    workflow = load(".github/workflows/ci.yml")
    named: list[str] = []
    for job in workflow["jobs"].values():
        matrix = job.get("strategy", {}).get("matrix", {}).get("python", [None])
        for step in job["steps"]:
            for python in matrix:
                run = step.get("run", "").replace("${{ matrix.python }}", str(python))
                words = shlex.split(run)
                if words[:3] == ["python", "-m", "nox"]:
                    assert words[3] == "-s", run
                    named += words[4:]
    return named


def test_ci_runs_sessions_that_exist_and_the_whole_gate() -> None:
    named = ci_sessions()
    assert set(named) <= set(sessions())
    assert set(named) >= default_sessions()
    assert len(named) == len(set(named))  # nothing runs twice


def test_ci_sets_up_each_python_it_tests() -> None:
    job = load(".github/workflows/ci.yml")["jobs"]["tests"]
    uses = {step.get("uses", "").split("@")[0]: step for step in job["steps"]}
    assert uses["actions/setup-python"]["with"]["python-version"] == "${{ matrix.python }}"
    assert "actions/checkout" in uses


def test_the_docs_host_builds_the_docs_session_site() -> None:
    """Same configuration, same extras as ``nox -s docs``, warnings as errors (its ``-W``), on
    a supported Python."""
    host = load(".readthedocs.yaml")
    assert host["version"] == 2
    assert host["build"]["tools"]["python"] in python_versions()
    configuration = host["sphinx"]["configuration"]
    assert (REPOSITORY / configuration).is_file()
    (build,) = [c for c in session_calls("docs", "run") if "html" in c]
    assert "-W" in build
    assert build[build.index("html") + 1] == str(Path(configuration).parent)
    assert host["sphinx"]["fail_on_warning"] is True
    (install,) = host["python"]["install"]
    (docs_install,) = session_calls("docs", "install")
    extras = re.fullmatch(r"\.\[(.*)\]", docs_install[-1])
    assert extras is not None, docs_install
    assert (install["method"], install["path"]) == ("pip", ".")
    assert install["extra_requirements"] == extras.group(1).split(",")


def test_pre_commit_runs_the_gate_lint_and_type_commands() -> None:
    """Each hook runs a command of the lint or typecheck session (the files aside), and each
    such command has a hook; the tools read pyproject.toml, so the settings are the gate's."""
    hooks = [hook for repo in load(".pre-commit-config.yaml")["repos"] for hook in repo["hooks"]]
    entries = [[w for w in shlex.split(h["entry"]) if w != "--force-exclude"] for h in hooks]
    commands = [
        [word for word in command if word != "."]
        for name in ("lint", "typecheck")
        for command in session_calls(name, "run")
    ]
    assert (
        sorted(entries)
        == sorted(commands)
        == [
            ["mypy", "--strict"],
            ["ruff", "check"],
            ["ruff", "format", "--check"],
        ]
    )
    assert all(hook["language"] == "system" for hook in hooks)
    (mypy,) = [h for h in hooks if h["entry"].startswith("mypy")]
    assert mypy["pass_filenames"] is False  # mypy checks pyproject's files, as the gate does


def test_the_changelog_has_released_sections() -> None:
    """``## [Unreleased]`` on top for new entries, then released versions newest first, each
    with its date; the newest is the package's version or older."""
    text = (REPOSITORY / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](.*)$", text, flags=re.MULTILINE)
    assert headings[0] == ("Unreleased", "")
    releases = headings[1:]
    assert releases, "no released section"
    for version, dated in releases:
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
        assert re.fullmatch(r" - \d{4}-\d{2}-\d{2}", dated), dated
    numbers = [tuple(int(part) for part in version.split(".")) for version, _ in releases]
    assert numbers == sorted(numbers, reverse=True)
    assert numbers[0] <= tuple(int(part) for part in VERSION.split("."))
    assert "### Document formats" in text
