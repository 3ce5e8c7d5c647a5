"""Output files are written atomically: a temporary file beside the target, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import InvalidInput, Problem


def check_folder(path: str | Path) -> Path:
    """The folder ``path`` will be written in; raises if it does not exist (checked before a long
    run, so that the run's results are not lost to a typo in the output path)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidInput([Problem(f"folder {str(folder)!r} does not exist", source=str(path))], "output file")
    if path.is_dir():
        raise InvalidInput([Problem("is a folder; give a file name", source=str(path))], "output file")
    return folder


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one."""
    path = Path(path)
    folder = check_folder(path)
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as error:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(error, OSError):  # read-only folder, disk full: the user's to fix, not a bug
            raise InvalidInput([Problem(f"cannot write: {error.strerror or error}", source=str(path))], "output file") from None
        raise
