"""How long after its runner ends are a program's processes gone?

A stubborn engine (it ignores `quit`, end of input and SIGTERM, and keeps
a child process) is made to hang on its first `genmove` under
`boardgames match`; once it thinks, the runner is sent Ctrl-C (SIGINT to
its process group, as a terminal does), SIGTERM or SIGKILL.  The tool
times, from the signal, until the engine and its child are dead (killed:
a zombie or gone) and until both have left the process table (their
zombies reaped by whoever inherits them, the init process once the runner
is gone).  It prints the median and the largest of --runs runs per signal.

Linux only (it reads /proc).  Quick look: `python tools/program_reaping.py --runs 1`.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The stubborn engine: the whole protocol it needs, and nothing that ends it but SIGKILL.
ENGINE = r"""
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen(["sleep", "600"])
with open(sys.argv[1], "w") as file:
    file.write(f"{os.getpid()} {child.pid}\n")
answers = {"protocol": "2", "name": "stubborn", "version": "1"}
for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "genmove":
        time.sleep(600)
    if command != "quit":
        sys.stdout.write(f"= {answers.get(command, '')}\n\n")
        sys.stdout.flush()
time.sleep(600)
"""

SIGNALS = {"ctrl-c": signal.SIGINT, "sigterm": signal.SIGTERM, "sigkill": signal.SIGKILL}


def state(pid: int) -> str:
    """The process's state letter ('Z': a zombie), or '-' once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return "-"
    return stat[stat.rindex(")") + 2]


def one_run(folder: Path, how: str, timeout: float) -> tuple[float, float]:
    """(seconds until killed, seconds until gone) for one run ended by `how`."""
    pids_file = folder / f"pids-{how}-{time.monotonic_ns()}"
    engine = folder / "stubborn.py"
    spec = f"program:{sys.executable} {engine} {pids_file}"
    runner = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "match", "dots", "--ai", spec, "--games", "2",
         "--time", "60"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    deadline = time.monotonic() + timeout
    while not pids_file.exists() or not pids_file.read_text().endswith("\n"):
        if time.monotonic() > deadline or runner.poll() is not None:
            runner.kill()
            raise SystemExit(f"the runner did not start the engine (exit {runner.poll()})")
        time.sleep(0.01)
    time.sleep(0.5)  # the engine is thinking now
    pids = [int(word) for word in pids_file.read_text().split()]
    started = time.monotonic()
    if how == "ctrl-c":
        os.killpg(runner.pid, SIGNALS[how])
    else:
        os.kill(runner.pid, SIGNALS[how])
    killed = gone = None
    while gone is None and time.monotonic() - started < timeout:
        states = [state(pid) for pid in pids]
        now = time.monotonic() - started
        if killed is None and all(s in "Z-" for s in states):
            killed = now
        if all(s == "-" for s in states):
            gone = now
        runner.poll()
        time.sleep(0.002)
    runner.wait(timeout)
    if killed is None or gone is None:
        raise SystemExit(f"{how}: processes {pids} still there after {timeout} s")
    return killed, gone


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per signal (default 5)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="give up on a run after this many seconds (default 30)")  # fmt: skip
    parser.add_argument("--signals", default=",".join(SIGNALS),
                        help="which ends to time, comma separated (default: all)")  # fmt: skip
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        raise SystemExit("this tool reads /proc: Linux only")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "stubborn.py").write_text(ENGINE)
        print(f"load average {os.getloadavg()[0]:.1f}; {args.runs} runs each")
        for how in args.signals.split(","):
            if how not in SIGNALS:
                raise SystemExit(f"unknown signal {how!r} (one of {', '.join(SIGNALS)})")
            times = [one_run(folder, how, args.timeout) for _ in range(args.runs)]
            killed, gone = ([t[i] for t in times] for i in (0, 1))
            print(
                f"{how:8} killed after {statistics.median(killed):.3f} s (max {max(killed):.3f});"
                f" gone after {statistics.median(gone):.3f} s (max {max(gone):.3f})"
            )


if __name__ == "__main__":
    main()
