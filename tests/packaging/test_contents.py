"""What the wheel and the sdist hold, and what their metadata says, checked against the checkout
they were built from."""

from __future__ import annotations

import re
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

from tests.packaging.conftest import REPOSITORY, VERSION, Built

EXTRAS = {"cli", "plot", "server", "postgres", "rl", "ray"}
"""The extras a user installs; ``test``, ``docs`` and ``dev`` are for working on avanti."""

SOURCE = REPOSITORY / "src" / "avanti"


def package_files() -> set[str]:
    """Every file of the package in the checkout, as ``avanti/...`` (no bytecode)."""
    return {
        "avanti/" + path.relative_to(SOURCE).as_posix()
        for path in SOURCE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def wheel_names(built: Built) -> set[str]:
    with zipfile.ZipFile(built.wheel) as wheel:
        return set(wheel.namelist())


def wheel_text(built: Built, suffix: str) -> str:
    with zipfile.ZipFile(built.wheel) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(suffix)]
        return wheel.read(name).decode()


def sdist_names(built: Built) -> set[str]:
    with tarfile.open(built.sdist) as sdist:
        root = sdist.getnames()[0].split("/")[0]
        return {name.removeprefix(root + "/") for name in sdist.getnames()}


def test_the_version_is_a_release_number() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION), VERSION


def test_built_files_are_named_for_this_version(built: Built) -> None:
    assert built.wheel.name == f"avanti-{VERSION}-py3-none-any.whl"
    assert built.sdist.name == f"avanti-{VERSION}.tar.gz"


def test_the_wheel_holds_every_file_of_the_package_and_nothing_else(built: Built) -> None:
    """Modules, ``py.typed`` and data files such as the server's web pages; no tests, no
    bytecode."""
    names = wheel_names(built)
    package = {name for name in names if name.startswith("avanti/")}
    assert package == package_files()
    assert "avanti/py.typed" in package
    others = {name.split("/")[0] for name in names - package}
    assert others == {f"avanti-{VERSION}.dist-info"}


def test_the_wheel_carries_the_licence(built: Built) -> None:
    licence = wheel_text(built, ".dist-info/licenses/LICENSE")
    assert licence == (REPOSITORY / "LICENSE").read_text()
    assert licence.startswith("MIT License\n")


def test_the_wheel_metadata_matches_pyproject(built: Built) -> None:
    metadata = Parser().parsestr(wheel_text(built, ".dist-info/METADATA"))
    assert metadata["Name"] == "avanti"
    assert metadata["Version"] == VERSION
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert metadata["Requires-Python"] == ">=3.11"
    assert set(metadata.get_all("Provides-Extra") or ()) >= EXTRAS
    pythons = {c for c in metadata.get_all("Classifier") or () if "Python :: 3." in c}
    assert pythons == {f"Programming Language :: Python :: 3.{minor}" for minor in (11, 12, 13)}
    core = {r for r in metadata.get_all("Requires-Dist") or () if "extra ==" not in r}
    assert {r.split(">")[0] for r in core} == {"attrs", "cattrs", "typing-extensions"}
    description = metadata.get_payload()
    assert isinstance(description, str)
    assert description.startswith("# avanti\n")  # the README is the description


def test_the_wheel_installs_the_avanti_command(built: Built) -> None:
    entry_points = wheel_text(built, ".dist-info/entry_points.txt")
    assert "[console_scripts]\navanti = avanti.cli:main\n" in entry_points


def test_the_sdist_holds_the_package_tests_docs_and_licence(built: Built) -> None:
    names = sdist_names(built)
    for top in ("LICENSE", "README.md", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml"):
        assert top in names
    assert {"noxfile.py", "PKG-INFO", "tests/conftest.py", "docs/conf.py"} <= names
    assert {"src/" + name for name in package_files()} <= names
    assert not {n for n in names if "__pycache__" in n or n.endswith(".pyc")}
    assert not {n for n in names if n.split("/")[0] in {".nox", ".hypothesis", "dist"}}
    assert not {n for n in names if n.startswith("docs/_build")}


def test_the_sdist_has_every_test_and_doc_of_the_checkout(built: Built) -> None:
    """A source release runs the same tests and builds the same docs as the checkout."""
    names = sdist_names(built)
    for folder in ("tests", "docs", "examples"):
        files = {
            path.relative_to(REPOSITORY).as_posix()
            for path in (REPOSITORY / folder).rglob("*")
            if path.is_file()
            and "__pycache__" not in path.parts
            and "_build" not in path.parts
            and path.suffix != ".pyc"
        }
        assert files - names == set(), folder


def test_licence_file_matches_pyproject() -> None:
    """pyproject.toml says MIT and names LICENSE, which holds the MIT text."""
    pyproject = (REPOSITORY / "pyproject.toml").read_text()
    assert 'license = "MIT"\nlicense-files = ["LICENSE"]\n' in pyproject
    assert Path(REPOSITORY / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) ")
