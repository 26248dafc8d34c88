"""Files the command line writes are whole or absent: never half written (issue: durable games)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import BinaryIO

import pytest

from avanti import mare
from avanti.cli import main
from avanti.cli.files import write_atomically, write_text_atomically


def test_a_file_is_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    write_text_atomically(target, "old")
    write_text_atomically(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old", encoding="utf-8")

    def half_then_fail(file: BinaryIO) -> None:
        file.write(b"{half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        write_atomically(target, half_then_fail)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_folder_that_cannot_be_written_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_text_atomically(tmp_path / "missing" / "game.json", "x")


_WRITER = """
import sys
from pathlib import Path
from avanti.cli.files import write_text_atomically
target = Path(sys.argv[1])
big = "x" * 4_000_000
n = 0
while True:
    n += 1
    write_text_atomically(target, f"{n:08d}" + big + f"{n:08d}")
"""


def test_a_writer_killed_at_any_moment_leaves_a_whole_file(tmp_path: Path) -> None:
    """A process rewrites a 4 MB file in a loop and is killed with SIGKILL at several moments:
    the file always holds one whole version (the same number at both ends)."""
    target = tmp_path / "game.json"
    for delay in (0.05, 0.13, 0.31):
        writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(target)])
        time.sleep(delay)
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        if target.exists():
            text = target.read_text(encoding="utf-8")
            assert len(text) == 4_000_016
            assert text[:8] == text[-8:]


def test_demo_save_writes_a_game_that_loads(tmp_path: Path) -> None:
    target = tmp_path / "demo.json"
    assert main(["demo", "--game", "mare", "--seed", "3", "--save", str(target)]) == 0
    game = mare.loads(target.read_text(encoding="utf-8"))
    assert game.is_over
    assert [p.name for p in tmp_path.iterdir()] == ["demo.json"]
