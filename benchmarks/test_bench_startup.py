"""Start-up time of the command line: `boardgames --help` and
`boardgames list` against a bare `python -c pass`.

Run with `pytest benchmarks/test_bench_startup.py -m benchmark -s`: each
command runs ROUNDS times in a fresh interpreter; the line printed gives the
median wall time and the median CPU time (user + system, steadier on a busy
machine) of each, and what each costs above the bare interpreter.  The
target is 0.15 s above `python -c pass` on an idle machine.

Python compiles a module once and keeps the bytecode in __pycache__; where
PYTHONDONTWRITEBYTECODE is set (some sandboxes) every run compiles every
module again, so the runs here keep their bytecode under a temporary
PYTHONPYCACHEPREFIX, as an installed package would.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.benchmark

ROUNDS = 15
CLI = "import sys; from boardgames.cli import main; sys.argv[0] = 'boardgames'; main()"
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "boardgames --help": [sys.executable, "-c", CLI, "--help"],
    "boardgames list": [sys.executable, "-c", CLI, "list"],
}


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def test_startup_above_bare_python(tmp_path):
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for argv in COMMANDS.values():  # write the bytecode once
        run(argv, env)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for _ in range(ROUNDS):  # interleaved, so that load changes hit every command alike
        for name, argv in COMMANDS.items():
            times[name].append(run(argv, env))
    medians = {
        name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
        for name, runs in times.items()
    }
    bare_wall, bare_cpu = medians["python -c pass"]
    print()
    for name, (wall, cpu) in medians.items():
        print(
            f"{name:20} wall {wall * 1000:6.0f} ms ({(wall - bare_wall) * 1000:+5.0f})"
            f"   cpu {cpu * 1000:6.0f} ms ({(cpu - bare_cpu) * 1000:+5.0f})"
        )
    help_wall, help_cpu = medians["boardgames --help"]
    assert help_cpu - bare_cpu < 0.15
