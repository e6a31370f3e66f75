"""The results folder's lock (tournament/store.py): a live tournament holds it
against every other; one killed outright leaves its workers holding it for a
moment, and a resume waits for them instead of refusing."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from boardgames.errors import TournamentInUseError
from boardgames.tournament.store import _acquire, _release

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock and fork")

#: Takes the lock, writes `pid` as its holder, says "locked", then holds it `hold` seconds.
HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o666)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
os.ftruncate(fd, 0)
os.write(fd, (sys.argv[2] + "\\n").encode())
print("locked", flush=True)
time.sleep(float(sys.argv[3]))
"""


def hold(path, pid: str, seconds: float) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), pid, str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "locked\n"
    return process


def dead_pid() -> int:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return gone.pid


def test_a_lock_whose_holder_died_is_waited_for(tmp_path):
    lock = tmp_path / "tournament.lock"
    workers = hold(lock, str(dead_pid()), 0.6)  # the killed runner's workers, still exiting
    try:
        started = time.monotonic()
        fd = _acquire(lock, tmp_path)
        waited = time.monotonic() - started
        _release(fd)
    finally:
        workers.kill()
        workers.wait()
    assert 0.3 < waited < 5


def test_a_live_tournament_s_lock_is_refused_at_once(tmp_path):
    lock = tmp_path / "tournament.lock"
    holder = hold(lock, str(os.getpid()), 30)  # a holder that is alive (this process)
    try:
        started = time.monotonic()
        says = f"in use by another tournament .pid {os.getpid()}"
        with pytest.raises(TournamentInUseError, match=says):
            _acquire(lock, tmp_path)
        assert time.monotonic() - started < 1.0
    finally:
        holder.kill()
        holder.wait()
