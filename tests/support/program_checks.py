"""Programs for the tests of external players, and the process table's word on them.

`faulty(folder, fault)` is the spec of tests/support/engines/faulty_engine.py, which
records each run's pid and its child's pid (with their start times, so that
a reused pid is not taken for them) in `folder`; `leftovers(folder)` scans
/proc for any process of those runs: a program, the child it started,
anything else in its process group, or a zombie of any of them that the
runner should have reaped.  None may be left once the runner is done.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
FAULTY = ROOT / "tests" / "support" / "engines" / "faulty_engine.py"
EXAMPLE = ROOT / "examples" / "engines" / "python" / "dots_engine.py"
JAVA_EXAMPLE = ROOT / "examples" / "engines" / "java" / "DotsEngine.java"


def example_spec() -> str:
    return f"program:{shlex.quote(sys.executable)} {shlex.quote(str(EXAMPLE))}"


def faulty(folder: Path, fault: str | None = None) -> str:
    """The spec of the faulty engine recording its runs in `folder`."""
    words = [sys.executable, str(FAULTY), str(folder)] + ([fault] if fault else [])
    return "program:" + shlex.join(words)


class Run(NamedTuple):
    pid: int
    start: str
    child: int
    child_start: str
    fault: str


def runs(folder: Path) -> list[Run]:
    """Every run of the faulty engine recorded in `folder`, in order."""
    found = []
    for path in sorted(folder.glob("run-*"), key=lambda p: int(p.name[4:])):
        words = path.read_text().split()
        if len(words) == 5:
            found.append(Run(int(words[0]), words[1], int(words[2]), words[3], words[4]))
    return found


class Process(NamedTuple):
    group: int
    state: str
    start: str
    parent: int


def processes() -> dict[int, Process]:
    """pid -> (process group, state, start time, parent) of every process, from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        table[int(entry)] = Process(int(fields[2]), fields[0], fields[19], int(fields[1]))
    return table


def leftovers(folder: Path) -> list[str]:
    """What is left in the process table of the runs recorded in `folder`."""
    table = processes()
    left = set()
    for run in runs(folder):
        for pid, start in ((run.pid, run.start), (run.child, run.child_start)):
            if pid in table and table[pid].start == start:
                left.add(pid)
        leader = table.get(run.pid)
        if leader is None or leader.start == run.start:  # the group's id is still the run's
            left.update(pid for pid, process in table.items() if process.group == run.pid)
    return [
        f"pid {pid} (group {table[pid].group}, state {table[pid].state})"
        for pid in sorted(left)
        if pid in table and not _dead_orphan(table[pid])
    ]


def _dead_orphan(process: Process) -> bool:
    """A zombie whose parent is init: it has ended, its parent died before it,
    and reaping it is init's job (which some containers' init does only now
    and then), not the runner's."""
    return process.state == "Z" and process.parent == 1


def wait_until_gone(folder: Path, seconds: float = 10.0) -> list[str]:
    """`leftovers(folder)` once they are gone, or what is left after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        left = leftovers(folder)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def with_marker(marker: str) -> list[str]:
    """Every live process whose command line holds `marker` (a test's folder,
    given to its programs as an argument)."""
    found = []
    for pid, process in processes().items():
        if process.state == "Z" or pid == os.getpid():
            continue
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in command:
            found.append(f"pid {pid}: {command.strip()}")
    return found


def wait_until_no_marker(marker: str, seconds: float = 10.0) -> list[str]:
    """`with_marker(marker)` once it is empty, or what is left after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        left = with_marker(marker)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)
