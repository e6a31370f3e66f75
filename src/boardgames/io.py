"""File helpers: every file the library writes is written atomically.

A crash or a full disk half-way through a save must never leave a truncated
record where a good one was, so files are written to a temporary file in the
same directory (same file system) and moved over the target with `os.replace`.
Errors name the target, never the temporary file, and `check_writable` lets a
command find out before hours of work that its output cannot be written.

Every text file the library reads from a user (a position, record, manifest,
opening or parameter file) goes through `read_text` and, when it is JSON,
`parse_json`: a file that is not UTF-8 text, is endless or huge, or is not
JSON is one BadFileError naming the file, never a traceback or a hang.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import BadFileError, OptionError

#: The largest text file `read_text` reads: positions, records, manifests and
#: opening files are far smaller, and a larger (or endless, like /dev/zero)
#: file is refused rather than read into memory.
MAX_TEXT_BYTES = 64 * 2**20


def read_text(path: str | os.PathLike[str]) -> str:
    """A UTF-8 text file's contents, newlines made '\\n' (as `open` in text mode).

    OSError if it cannot be read; OptionError for an empty path; BadFileError
    naming `path` when it is not UTF-8 text or holds more than MAX_TEXT_BYTES.
    """
    name = os.fspath(path)
    if not name:
        raise OptionError("empty file name")
    with open(name, "rb") as handle:
        data = handle.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise BadFileError(name, f"too large for a text file here (over {MAX_TEXT_BYTES} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadFileError(name, "not a text file") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_json(text: str | bytes, source: str, what: str = "JSON") -> Any:
    """`json.loads(text)`; BadFileError naming `source` ("not {what} (reason)")
    for text that is not JSON: bad syntax, nesting too deep for the parser, or
    an integer too long for Python to convert."""
    try:
        return json.loads(text)
    except RecursionError:
        reason = "nested too deeply"
    except ValueError as exc:  # json.JSONDecodeError, or an integer of over 4300 digits
        reason = str(exc)
    raise BadFileError(source, f"not {what} ({reason})")


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` so that readers see the old file or the new one, never a mix.

    An OSError names `path` (the temporary file is an implementation detail).
    """
    target = Path(path)
    directory = _directory_of(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise _naming(exc, target) from None
    try:
        os.chmod(tmp, _mode_for(target))
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _naming(exc, target) from None
        raise


def check_writable(path: str | os.PathLike[str], what: str = "") -> None:
    """OptionError unless `atomic_write_text(path, ...)` can be expected to work:
    the directory exists and is writable, and `path` is not a directory.

    Commands call it before they start long work, so a typo in an output
    path costs nothing.  `what` names the option ('--output') in the message.
    """
    if not os.fspath(path):
        raise OptionError(f"cannot write {what or 'a file'}: empty file name")
    target = Path(path)
    directory = _directory_of(target)
    name = f"{what} {os.fspath(path)}" if what else os.fspath(path)
    if target.is_dir():
        raise OptionError(f"cannot write {name}: it is a directory")
    if not directory.is_dir():
        missing = "is not a directory" if directory.exists() else "does not exist"
        raise OptionError(f"cannot write {name}: directory {directory} {missing}")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OptionError(f"cannot write {name}: directory {directory} is not writable")


def _directory_of(target: Path) -> Path:
    return target.parent if str(target.parent) else Path(".")


def _naming(exc: OSError, target: Path) -> OSError:
    """The same error, about `target`: 'out/x.json: No such file or directory'."""
    if exc.errno is None:
        return exc
    try:
        return type(exc)(exc.errno, exc.strerror, os.fspath(target))
    except TypeError:  # an OSError subclass with another constructor
        return OSError(exc.errno, exc.strerror, os.fspath(target))


def _mode_for(target: Path) -> int:
    """Keep an existing file's permissions; new files get the usual 0o666 minus umask."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
