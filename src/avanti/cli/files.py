"""Files the command line writes: whole or not at all.

Every file ``avanti`` writes (a saved game, a plot) is written to a temporary file beside it,
flushed to the disk (``fsync``), then renamed over the target in one step (``os.replace``), and the
folder is synced so the rename itself survives a crash. A reader, or the next ``avanti play
--resume``, sees the old file or the new one, never half of one, even if the process is killed or
the machine loses power in the middle.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

__all__ = ["write_atomically", "write_text_atomically"]


def write_atomically(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` whole or not at all: ``write`` fills a temporary file in the same folder,
    which then replaces ``path``.

    :raises OSError: the folder cannot be written, the disk is full, ...; ``path`` is then as
        it was, and no temporary file is left behind.
    """
    folder = path.parent
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path``, whole or not at all (see :func:`write_atomically`)."""
    data = text.encode("utf-8")

    def write(file: BinaryIO) -> None:
        file.write(data)

    write_atomically(path, write)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening a folder)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - some systems do not open folders
        return
    try:
        os.fsync(descriptor)
    except OSError:  # pragma: no cover - and some cannot sync them
        pass
    finally:
        os.close(descriptor)
