"""A deliberately faulty dots engine, for the tests of programs as players.

    faulty_engine.py DIR [FAULT]

Each run takes the next number n in DIR (files `run-N`, made exclusively,
so concurrent runs get different numbers) and writes there its pid and its
child's pid with their start times: it starts a child (`sleep`) in its own process group, as an
engine with helper processes would.  It ignores `quit`, end of input and
SIGTERM, so only SIGKILL to its group ends it and the child.  Its first
genmove that can commit it commits fault FAULTS[n % len(FAULTS)] (or
FAULT): an illegal move, a malformed answer, a late answer, no answer, a
crash, a closed output, or a flood of output.  FAULT "once-X" commits X in
run 0 only, "none" none; every command it reads goes to its stderr.
"""

import os
import signal
import subprocess
import sys
import time

FAULTS = ("illegal", "malformed", "late", "hang", "crash", "closed", "flood")


def claim(folder):
    n = 0
    while True:
        try:
            fd = os.open(os.path.join(folder, f"run-{n}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            return n, fd
        except FileExistsError:
            n += 1


def started(pid):
    """The process's start time (clock ticks since boot), from /proc: with the
    pid, it names the process even when pids are reused."""
    with open(f"/proc/{pid}/stat") as file:
        stat = file.read()
    return stat[stat.rindex(")") + 2 :].split()[19]


def edges(rows, cols):
    return [(i, j) for i in range(2 * rows + 1) for j in range(2 * cols + 1) if (i + j) % 2]


def name(edge):
    return f"{chr(ord('A') + edge[0])}{edge[1] + 1}"


def answer(text=""):
    sys.stdout.write(f"= {text}\n\n")
    sys.stdout.flush()


def main():
    folder = sys.argv[1]
    n, fd = claim(folder)
    fault = sys.argv[2] if len(sys.argv) > 2 else FAULTS[n % len(FAULTS)]
    if fault.startswith("once-"):
        fault = fault[5:] if n == 0 else "none"
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # The child holds the engine's pipes, as helpers often do; but not when the
    # engine means to close its output (the child would keep it open).
    quiet = subprocess.DEVNULL if fault == "closed" else None
    child = subprocess.Popen(["sleep", "600"], stdin=quiet, stdout=quiet, stderr=quiet)
    pid = os.getpid()
    os.write(fd, f"{pid} {started(pid)} {child.pid} {started(child.pid)} {fault}\n".encode())
    os.close(fd)
    sys.stderr.write(f"faulty engine run {n}: {fault}\n")
    sys.stderr.flush()
    rows = cols = 3
    drawn = []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        sys.stderr.write(f"< {line.strip()}\n")
        sys.stderr.flush()
        command, args = words[0], words[1:]
        if command == "quit":
            continue  # ignores quit
        if command == "protocol":
            answer("2")
        elif command == "name":
            answer("faulty")
        elif command == "version":
            answer("0")
        elif command == "game":
            options = dict(arg.split("=", 1) for arg in args[1:] if "=" in arg)
            rows, cols = int(options.get("rows", 3)), int(options.get("cols", 3))
            answer()
        elif command == "moves":
            drawn = list(args)
            answer()
        elif command == "genmove":
            free = [name(e) for e in edges(rows, cols) if name(e) not in drawn]
            limit = float(next((a[5:] for a in args if a.startswith("time=")), "1"))
            if fault == "illegal" and drawn:
                answer(drawn[0])
            elif fault == "malformed":
                answer("banana")
            elif fault == "late":
                time.sleep(2 * limit + 0.2)
                answer(free[0])
            elif fault == "hang":
                time.sleep(600)
            elif fault == "crash":
                sys.stderr.write("Traceback: the faulty engine crashes on purpose\n")
                sys.stderr.flush()
                os._exit(3)
            elif fault == "closed":
                os.close(1)
                time.sleep(600)
            elif fault == "flood":
                sys.stderr.write("e" * 100_000 + "\n")
                sys.stderr.flush()
                while True:
                    sys.stdout.write("info depth=1 " + "x" * 200 + "\n")
            else:
                answer(free[0])
        else:
            sys.stdout.write(f"? unknown command: {command}\n\n")
            sys.stdout.flush()
    time.sleep(600)  # ignores end of input too


if __name__ == "__main__":
    main()
