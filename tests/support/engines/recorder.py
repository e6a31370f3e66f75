"""Runs a program and records, in FILE, every line it is sent ('> ') and
every line it answers ('< '): `recorder.py FILE CMD ARGS...` (for the test
that checks the transcript of docs/engines.md)."""

import subprocess
import sys
import threading

log = open(sys.argv[1], "a")  # noqa: SIM115
program = subprocess.Popen(
    sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
)


def answers():
    for line in program.stdout:
        log.write("< " + line)
        log.flush()
        sys.stdout.write(line)
        sys.stdout.flush()


reader = threading.Thread(target=answers, daemon=True)
reader.start()
for line in sys.stdin:
    log.write("> " + line)
    log.flush()
    program.stdin.write(line)
    program.stdin.flush()
program.stdin.close()
program.wait()
reader.join(1)
