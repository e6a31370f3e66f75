"""A Texel fit for one game with the default settings, data and fit, on 2 workers.

Run with `pytest benchmarks/test_bench_tuning.py -m benchmark -s`: it runs

    boardgames tune GAME --method texel -w 2

(400 self-play games at depth 4, then the fit) for Andantino, in a fresh
folder, and prints the wall time, the positions and the losses.  The target
is under 10 minutes on 2 cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.benchmark

LIMIT = 600.0
CLI = "import sys; from boardgames.cli import main; sys.argv[0] = 'boardgames'; main()"


@pytest.mark.parametrize("game", ["andantino"])
def test_a_texel_run_with_the_defaults_fits_in_ten_minutes(tmp_path, game):
    out = tmp_path / "params.json"
    argv = [sys.executable, "-c", CLI, "tune", game, "--method", "texel", "-w", "2",
            "--output", str(out), "--positions", str(tmp_path / "positions.json")]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=2 * LIMIT, check=False)
    wall = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    train, held = data["loss"]["train"], data["loss"]["held_out"]
    print(f"\n{game}: {wall:.0f} s for {data['games']} games, {data['positions']} positions;"
          f" loss {train[0]:.4f} -> {train[-1]:.4f}, held out {held[0]:.4f} -> {held[-1]:.4f}")
    assert wall < LIMIT
