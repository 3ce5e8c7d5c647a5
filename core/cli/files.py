"""Output files (``--log``, ``--out``).

A regular file is written atomically: a temporary file beside it, then a rename, so readers see
the old file or the whole new one. The new file keeps the old one's permissions (a new file
follows the umask). A symlink is followed to its target. A device, a FIFO or ``-`` (standard
output) is written through, never replaced.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from ..engine.errors import InvalidInput, Problem

STDOUT = "-"


def check_folder(path: str | Path) -> Path:
    """The folder ``path`` will be written in; raises if the file cannot be written there
    (checked before a long run, so that its results are not lost to a typo in the output path)."""
    if str(path) == STDOUT:
        return Path(".")
    if not str(path):
        raise InvalidInput([Problem("an empty file name: give a file name, or - for standard output", source="''")], "output file")
    mode = _mode(path)
    if mode is not None and stat.S_ISDIR(mode):
        raise InvalidInput([Problem("is a folder; give a file name", source=str(path))], "output file")
    if _written_through(path, mode):
        if mode is None:
            raise InvalidInput([Problem("no such device or file (a new file cannot be made under /dev or /proc)", source=str(path))],
                               "output file")
        return Path(os.path.dirname(os.path.abspath(path)))
    folder = _target(path).parent
    if not folder.is_dir():
        raise InvalidInput([Problem(f"folder {str(folder)!r} does not exist", source=str(path))], "output file")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InvalidInput([Problem(f"cannot create a file in folder {str(folder)!r}: it is read-only or not yours to write in",
                                    source=str(path))], "output file")
    return folder


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8 text, or bytes such as a PNG) to ``path``: atomically to a regular
    file (or a new one), straight to standard output, a device or a FIFO."""
    if str(path) == STDOUT:
        if isinstance(text, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
        return
    folder = check_folder(path)
    mode = _mode(path)
    try:
        if _is_stdout(path):  # /dev/stdout, or the file it was redirected to: one stream, or one overwrites the other
            write_atomic(STDOUT, text)
        elif mode is not None and stat.S_ISFIFO(mode):
            with os.fdopen(open_fifo(path), "wb") as handle:
                handle.write(_bytes(text))
        elif _written_through(path, mode):
            with open(path, "ab") as handle:  # never truncate what a device is
                handle.write(_bytes(text))
        else:
            _replace(_target(path), folder, text, None if mode is None else stat.S_IMODE(mode))
    except OSError as error:  # a read-only folder, a full disk: the user's to fix, not a bug
        raise InvalidInput([Problem(f"cannot write: {error.strerror or error}", source=str(path))], "output file") from None


def open_fifo(path: str | Path, waiting: Callable[[], None] | None = None) -> int:
    """A FIFO opened for writing: at once if a process reads it; otherwise after saying on stderr
    that the program waits for a reader (``waiting`` is called instead, if given), not silently."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno != errno.ENXIO:  # ENXIO: no process has it open for reading
            raise
        if waiting is None:
            sys.stderr.write(f"waiting for a process to read the FIFO {str(path)!r} (Ctrl-C to give up)\n")
            sys.stderr.flush()
        else:
            waiting()
        return os.open(path, os.O_WRONLY)
    os.set_blocking(fd, True)
    return fd


def _written_through(path: str | Path, mode: int | None) -> bool:
    """A device, a FIFO, or anything under /dev or /proc (/dev/stdout is a link
    to whatever the shell opened): written to, never replaced."""
    if mode is not None and not stat.S_ISREG(mode):
        return True
    return os.path.abspath(path).startswith(("/dev/", "/proc/"))


def _is_stdout(path: str | Path) -> bool:
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no such file; stdout is not a file (a test's capture)
        return False


def _bytes(text: str | bytes) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else text


def _replace(target: Path, folder: Path, text: str | bytes, mode: int | None) -> None:
    """A temporary file in ``folder`` (created as a new file would be, so the umask applies),
    given ``mode`` if the target had one, then renamed over the target."""
    while True:
        tmp = folder / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as error:
            raise OSError(error.errno, f"cannot create a file in folder {str(folder)!r} ({error.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(_bytes(text))
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _target(path: str | Path) -> Path:
    """The file a path names, through any symlinks."""
    return Path(os.path.realpath(path))


def _mode(path: str | Path) -> int | None:
    """The mode of what ``path`` names (through symlinks), None if nothing is there."""
    try:
        return os.stat(path).st_mode
    except (OSError, ValueError):
        return None
