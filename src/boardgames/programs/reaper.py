"""The reaper: ends every program's process group once its runner is gone.

Programs run in process groups of their own (a new session each), so
Ctrl-C at the terminal reaches the runner alone, and the runner ends each
program together with its children (`os.killpg`).  A runner killed
outright (SIGKILL, a crash) runs no cleanup at all.  For that, the first
program a process starts also starts one small reaper process, which reads
lines "+ PGID" (a group started) and "- PGID" (a group ended) from a pipe
whose only writer is the runner.  However the runner dies, the system
closes its end of the pipe: the reaper reads end-of-file, kills every group
still registered (SIGKILL) and exits.

A program announces itself to the reaper from inside its own process,
after the fork and before it runs the program (`announcing` gives
`subprocess.Popen` that step): the child holds the pipe open until its
line is written, so the reaper cannot see the end of the pipe without
having read it.  Were the runner to register the program after `Popen`
returns, a runner killed in between (a worker killed with its runner,
say) would leave that program unknown to the reaper, running forever.

The reaper ignores the terminal's signals (it is in a session of its own
and outlives its runner only for that last step).  A process made by fork
(a tournament's worker) starts a reaper of its own: the inherited pipe is
closed in the child, so the parent's reaper still sees its end.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

#: The reaper's program: no import of this library, so it starts in milliseconds.
SCRIPT = r"""
import os, signal, sys
for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"):
    if hasattr(signal, name):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
groups = set()
for line in sys.stdin.buffer:
    sign, _, number = line.strip().partition(b" ")
    if number.isdigit():
        (groups.add if sign == b"+" else groups.discard)(int(number))
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""


class Reaper:
    """One reaper process and the pipe to it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", SCRIPT],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            bufsize=0,
        )
        assert self.process.stdin is not None
        self.fd = self.process.stdin.fileno()

    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.process.poll() is None

    def tell(self, sign: str, group: int) -> bool:
        """Send one line; False if the reaper is gone."""
        try:
            os.write(self.fd, f"{sign} {group}\n".encode())
        except OSError:
            return False
        return True


_lock = threading.Lock()
_reaper: Reaper | None = None
_owner = 0
#: The groups registered and not yet ended (told again to a new reaper).
_groups: set[int] = set()
#: Reapers inherited through fork: kept referenced so that their pipes are
#: never closed twice (the child closed them at the fork).
_inherited: list[Reaper] = []


def _get() -> Reaper | None:
    """This process's reaper, started on first use or when the last one died
    (which is then told every group still registered); None if none starts."""
    global _reaper, _owner
    if _reaper is not None and _owner == os.getpid() and _reaper.alive():
        return _reaper
    try:
        _reaper = Reaper()
    except OSError:
        _reaper = None
        return None
    _owner = os.getpid()
    for group in sorted(_groups):
        _reaper.tell("+", group)
    return _reaper


def register(group: int) -> None:
    """Kill process group `group` should this process die before `unregister`."""
    with _lock:
        _groups.add(group)
        reaper = _get()
        if reaper is not None and not reaper.tell("+", group):
            _get()  # it died just now: a new one is told every group


@contextlib.contextmanager
def announcing() -> Iterator[Callable[[], None] | None]:
    """A `preexec_fn` for `subprocess.Popen(..., start_new_session=True)` by
    which the new process tells this process's reaper "+ PID" itself (its
    group's id, in a new session), before it runs the program: from the
    fork on, no death of this process leaves it unknown to the reaper.
    None where no reaper starts.  A start that fails (no such program) is
    ended here; `register` still follows a start that succeeds."""
    with _lock:
        reaper = _get()
        told = None if reaper is None else os.dup(reaper.fd)
    if told is None:
        yield None
        return
    back, front = os.pipe()  # the child's pid, should the start not succeed

    def announce() -> None:  # in the child, between fork and exec
        line = f"+ {os.getpid()}\n".encode()
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # a dead reaper: nothing to tell
        with contextlib.suppress(OSError):
            os.write(told, line)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.write(front, line)

    try:
        yield announce
    except BaseException:
        os.close(front)
        words = os.read(back, 64).split()  # the child wrote it, or has ended
        if len(words) == 2 and words[1].isdigit():
            _end_unreaped(int(words[1]))
            unregister(int(words[1]))
        raise
    finally:
        for fd in (told, back, front):
            with contextlib.suppress(OSError):
                os.close(fd)


def _end_unreaped(pid: int) -> None:
    """Kill the group of this process's child `pid` unless the child is reaped
    (then its id may be another's): a start interrupted after the fork."""
    if hasattr(os, "waitid"):
        try:
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return  # a start that failed: Popen reaped it
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def unregister(group: int) -> None:
    """The group has been ended and its leader reaped: forget it."""
    with _lock:
        _groups.discard(group)
        if _reaper is not None and _owner == os.getpid():
            _reaper.tell("-", group)


def reaper_pid() -> int | None:
    """The pid of this process's reaper (None before the first program)."""
    with _lock:
        if _reaper is None or _owner != os.getpid():
            return None
        return _reaper.process.pid


def _after_fork_in_child() -> None:
    global _lock, _reaper
    _lock = threading.Lock()  # another thread may have held it at the fork
    _groups.clear()  # the parent's programs: its reaper's business
    if _reaper is not None:
        stdin = _reaper.process.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.close()
        _inherited.append(_reaper)
        _reaper = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
