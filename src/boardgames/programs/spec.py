"""A program's spec: "program:CMD ARGS", and its command line.

Kept apart from the player (and light: no search, no subprocess) because
`boardgames.ai` reads every spec, and `boardgames list` must stay fast.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence

from ..errors import ProgramError, quote

#: The spec prefix of a program.
PREFIX = "program:"


def is_program_spec(spec: object) -> bool:
    """Whether `spec` is a program's spec ("program:CMD ARGS")."""
    return isinstance(spec, str) and spec.strip()[: len(PREFIX)].lower() == PREFIX


def program_argv(command: str) -> list[str]:
    """The words of a program's command line (a spec's part after "program:",
    or the whole spec), split as a POSIX shell would; ProgramError if empty
    or badly quoted."""
    if is_program_spec(command):
        command = command.strip()[len(PREFIX) :]
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ProgramError(f"bad program command {quote(command)}: {exc}") from None
    if not argv:
        raise ProgramError("give the program's command after 'program:' (program:CMD ARGS)")
    return argv


def check_executable(argv: Sequence[str]) -> str:
    """The program's file; ProgramError if it is missing or cannot be run."""
    name = argv[0]
    if os.sep in name or (os.altsep and os.altsep in name):
        if not os.path.exists(name):
            raise ProgramError(f"program {quote(name)}: no such file")
        if os.path.isdir(name):
            raise ProgramError(f"program {quote(name)} is a directory, not a program")
        if not os.access(name, os.X_OK):
            raise ProgramError(
                f"program {quote(name)} is not executable (chmod +x it, or name its"
                f" interpreter: program:python3 {name})"
            )
        return name
    found = shutil.which(name)
    if found is None:
        raise ProgramError(
            f"program {quote(name)} not found on the PATH (give its path, e.g. ./{name})"
        )
    return found
