"""Child processes that Ctrl-C reaches as it would from a terminal.

A test run started with SIGINT ignored (a background job of a script, as
`nohup python -m pytest &`, or after `trap "" INT`) passes that on to every
child, and a Python child that starts with SIGINT ignored never raises
KeyboardInterrupt.
The Ctrl-C tests start their children with `preexec_fn=sigint_default`.

The process table's word on what a test started: `alive(pid)`,
`children_gone(before)` for multiprocessing children, `shm_names()` for
shared-memory segments (Linux: /dev/shm).
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from pathlib import Path

SHM = Path("/dev/shm")


def sigint_default() -> None:
    """In the child, before it runs the program: SIGINT back to the default
    disposition, which a starting Python turns into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def children_gone(before: set[multiprocessing.process.BaseProcess], grace: float = 10.0) -> bool:
    """No multiprocessing child of ours is left but those in `before`: stopped
    ones may take a moment to exit on a loaded machine, so wait up to
    `grace` seconds for them."""
    deadline = time.monotonic() + grace
    while set(multiprocessing.active_children()) - before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def shm_names() -> set[str]:
    """The shared-memory segments that exist now (none where there is no /dev/shm)."""
    return {p.name for p in SHM.iterdir()} if SHM.is_dir() else set()
