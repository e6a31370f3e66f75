"""One external program's process, as a runner that does not trust it sees it.

`Program(argv, log)` starts the program in a process group of its own (a
new session: Ctrl-C at the terminal reaches the runner, not the program),
registered with this process's reaper (`programs.reaper`), so it dies with
the runner however the runner dies.  Everything it writes is read here,
with a deadline and within bounds:

- its stdout line by line (`read_line`): a line longer than `MAX_LINE`
  bytes, or more than `MAX_ANSWER` bytes or `MAX_LINES` lines for one
  answer, is a flood (`Flood`); nothing by the deadline is `None`; end of
  output is `Exited`;
- its stderr, whenever stdout is waited on, into its log file (the first
  `MAX_LOG` bytes of each run; the rest is counted, not kept), the last
  lines also kept for messages (`stderr_tail`);
- writes (`send`) wait for room in the pipe until the deadline too.

`kill()` ends the whole group with SIGKILL (the program and every child it
started) and reaps the program, so no zombie and no orphan is left;
`close(grace)` first says `quit` and gives it `grace` seconds to go.  POSIX
only (process groups, select on pipes).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import IO

from . import reaper

#: Longest line a program may write (bytes, newline excluded).
MAX_LINE = 8192
#: Most bytes one answer may take, its info lines included.
MAX_ANSWER = 1 << 20
#: Most lines one answer may take, its info lines included.
MAX_LINES = 10_000
#: Bytes of a run's stderr kept in its log.
MAX_LOG = 4 << 20
#: Bytes of stderr kept in memory for messages.
TAIL = 2000
#: Bytes read from a pipe at once.
CHUNK = 65536
#: Seconds between looks at whether the program has ended, where no
#: descriptor says so (systems without pidfd).
POLL = 0.05


class Exited(Exception):
    """The program closed its output (or its input): it has ended, or will."""


class Flood(Exception):
    """The program wrote more than the bounds allow."""


class Program:
    """A running program: its pipes, its log and its process group."""

    def __init__(self, argv: Sequence[str], log: Path) -> None:
        self.argv = list(argv)
        self.log_path = log
        log.parent.mkdir(parents=True, exist_ok=True)
        self.log: IO[bytes] | None = open(log, "ab")  # noqa: SIM115  (closed in kill)
        stamp = datetime.now().isoformat(timespec="seconds")
        self._log_bytes = 0
        self._log_dropped = 0
        self.stderr_tail = b""
        try:
            with reaper.announcing() as announce:
                self.process = subprocess.Popen(
                    self.argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    start_new_session=True,
                    bufsize=0,
                    preexec_fn=announce,
                )
        except BaseException:
            self.log.close()
            self.log = None
            raise
        self.group = self.process.pid  # the leader of its own new session and group
        reaper.register(self.group)
        self.log.write(f"--- {stamp} started (pid {self.group}): {' '.join(argv)}\n".encode())
        self.log.flush()
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self._in: int | None = self.process.stdin.fileno()
        self._out: int | None = self.process.stdout.fileno()
        self._err: int | None = self.process.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._buffer = bytearray()
        #: Bytes and lines of stdout read since `start_answer` (the flood bounds).
        self.answer_bytes = 0
        self.answer_lines = 0
        self._kill_lock = threading.Lock()
        #: Held while the pipes are waited on or read, so that a kill from
        #: another thread closes them only between two waits (a descriptor
        #: closed under a select could be reused by another file).
        self._io = threading.RLock()
        self.killed = False
        #: The program has ended (its children may still hold its pipes open).
        self.ended = False
        #: A descriptor readable once the program ends (Linux), else None: polled.
        self._pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            self._pidfd = os.pidfd_open(self.group)

    # --- writing -------------------------------------------------------------------
    def send(self, line: str, deadline: float) -> bool:
        """Write one line; False if the program took none of it by the deadline.
        Exited if its input is closed."""
        data = (line + "\n").encode()
        while data:
            if self._in is None or self.ended or self.killed:
                raise Exited("its input is closed")
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise Exited("it closed its input") from None
            data = data[written:]
            if data and not self._wait(deadline, write=True):
                return False
        return True

    # --- reading -------------------------------------------------------------------
    def start_answer(self) -> None:
        """Count the flood bounds of one answer from here."""
        self.answer_bytes = 0
        self.answer_lines = 0

    def pending(self) -> bytes:
        """What the program wrote that nobody asked for (read without waiting)."""
        self._wait(time.monotonic(), write=False)
        data = bytes(self._buffer)
        self._buffer.clear()
        return data

    def read_line(self, deadline: float) -> str | None:
        """The next line of stdout (decoded, without its line end); None if it
        does not come by the deadline; Exited at end of output; Flood past the bounds."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                if len(raw) > MAX_LINE:
                    raise Flood(f"a line of {len(raw)} bytes (at most {MAX_LINE})")
                self.answer_lines += 1
                if self.answer_lines > MAX_LINES:
                    raise Flood(f"over {MAX_LINES} lines for one answer")
                return raw.decode("utf-8", "replace").rstrip("\r")
            if len(self._buffer) > MAX_LINE:
                raise Flood(f"a line of over {MAX_LINE} bytes")
            if self._out is None or self.ended or self.killed:
                raise Exited("it closed its output")
            if not self._wait(deadline, write=False) and time.monotonic() >= deadline:
                return None

    def _wait(self, deadline: float, write: bool) -> bool:
        """Wait until stdout has data (or, with `write`, stdin has room) or the
        deadline; read what stdout and stderr hold meanwhile.  True when
        there is something for the caller (data, room, or an end)."""
        while True:
            with self._io:
                done = self._wait_once(deadline, write)
            if done is not None:
                return done

    def _wait_once(self, deadline: float, write: bool) -> bool | None:
        """One select of `_wait`: its answer, or None to wait on."""
        if self.ended or self.killed:
            return True
        reads = [fd for fd in (self._out, self._err, self._pidfd) if fd is not None]
        writes = [self._in] if write and self._in is not None else []
        if not reads and not writes:
            return True
        timeout = max(0.0, deadline - time.monotonic())
        if self._pidfd is None:
            timeout = min(timeout, POLL)  # no descriptor tells of the end: look now and then
        readable, writable, _ = select.select(reads, writes, [], timeout)
        got = False
        if self._err is not None and self._err in readable:
            self._read_stderr()
        if self._out is not None and self._out in readable:
            self._read_stdout()
            got = True
        if writable:
            got = True
        if not got and self._has_ended(readable):
            self._drain()  # what it wrote before it ended still counts
            self.ended = True
            return True
        if got or time.monotonic() >= deadline:
            return got
        return None

    def _has_ended(self, readable: list[int]) -> bool:
        if self._pidfd is not None:
            return self._pidfd in readable
        return self.exit_status() is not None

    def _drain(self) -> None:
        """Read whatever the pipes hold now, without waiting."""
        for _ in range(MAX_ANSWER // CHUNK + 2):
            fds = [fd for fd in (self._out, self._err) if fd is not None]
            ready = select.select(fds, [], [], 0)[0] if fds else []
            if not ready:
                return
            if self._err in ready:
                self._read_stderr()
            if self._out in ready:
                self._read_stdout()

    def _read_chunk(self, name: str) -> bytes | None:
        """What the pipe `name` ("_out" or "_err") holds now; None when it holds
        nothing yet, or has ended (then it is no longer watched)."""
        fd = getattr(self, name)
        assert fd is not None
        try:
            data: bytes = os.read(fd, CHUNK)
        except BlockingIOError:
            return None
        except OSError:
            data = b""
        if not data:
            self._close_fd(name)
            return None
        return data

    def _read_stdout(self) -> None:
        data = self._read_chunk("_out")
        if data is None:
            return
        self.answer_bytes += len(data)
        self._buffer += data
        if self.answer_bytes > MAX_ANSWER:
            raise Flood(f"over {MAX_ANSWER} bytes for one answer")

    def _read_stderr(self) -> None:
        data = self._read_chunk("_err")
        if data is None:
            return
        self.stderr_tail = (self.stderr_tail + data)[-TAIL:]
        keep = data[: max(0, MAX_LOG - self._log_bytes)]
        self._log_dropped += len(data) - len(keep)
        if keep and self.log is not None:
            self.log.write(keep)
            self.log.flush()
            self._log_bytes += len(keep)

    def _close_fd(self, name: str) -> None:
        """Stop watching a pipe (the file object closes the descriptor in `kill`)."""
        setattr(self, name, None)

    # --- the end ---------------------------------------------------------------------
    def exit_status(self) -> int | None:
        """The program's exit status once it has ended, else None (it is not
        reaped here: its pid, and so its group's id, stays its own until `kill`)."""
        if self.process.returncode is not None:
            return self.process.returncode
        try:
            info = os.waitid(os.P_PID, self.group, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.process.poll()
        if info is None:
            return None
        if info.si_code == os.CLD_EXITED:
            return info.si_status
        return -info.si_status  # killed by a signal, as Popen says it

    def wait_exit(self, seconds: float) -> int | None:
        """The exit status, waiting up to `seconds` for it (reading, and
        dropping, what it writes meanwhile)."""
        deadline = time.monotonic() + seconds
        while True:
            status = self.exit_status()
            if status is not None or time.monotonic() >= deadline:
                return status
            if self._out is None and self._err is None:
                time.sleep(0.005)
                continue
            with contextlib.suppress(Flood):
                self._wait(min(deadline, time.monotonic() + 0.02), write=False)
            self._buffer.clear()

    def close(self, grace: float) -> None:
        """Say `quit`, give the program `grace` seconds to end, then `kill`
        (whatever happens on the way: another thread may be killing it too)."""
        try:
            if not self.killed and self.exit_status() is None:
                with contextlib.suppress(Exited, OSError):
                    self.send("quit", time.monotonic() + min(grace, 0.1))
                with self._io:
                    self._close_input()
                self.wait_exit(grace)
        except Exception:  # the pipes went away under us: kill it all the same
            pass
        finally:
            self.kill()

    def _close_input(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        self._in = None

    def kill(self) -> None:
        """End the program and every process of its group now, reap it, and
        close its pipes and log (again: nothing)."""
        with self._kill_lock:
            if self.killed:
                return
            self.killed = True
        # Killed before it is reaped: until then no other group can take its id.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.group, signal.SIGKILL)
        self.process.wait()
        reaper.unregister(self.group)
        with self._io:  # a reader in another thread sees the end and lets go first
            self._close_pipes()

    def _close_pipes(self) -> None:
        self._close_input()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._out = self._err = None
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None
        if self.log is not None:
            with contextlib.suppress(OSError):
                if self._log_dropped:
                    dropped = f"[{self._log_dropped} more bytes of stderr not kept]\n"
                    self.log.write(dropped.encode())
                self.log.write(f"--- ended: {describe_status(self.process.returncode)}\n".encode())
                self.log.close()
            self.log = None

    def tail(self) -> str:
        """The last line of its stderr, for messages ('' if none)."""
        lines = self.stderr_tail.decode("utf-8", "replace").strip().splitlines()
        return lines[-1].strip() if lines else ""


def describe_status(status: int | None) -> str:
    """'exit code 3', 'killed by SIGSEGV', 'still running'."""
    if status is None:
        return "still running"
    if status >= 0:
        return f"exit code {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = f"signal {-status}"
    return f"killed by {name}"
