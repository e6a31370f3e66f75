"""A tournament of two library AIs and two programs, one of them deliberately
faulty (illegal moves, garbled and late answers, no answer, crashes, a closed
output, floods; it ignores quit and SIGTERM and leaves a child behind):
played to the end on worker processes, and again after a SIGKILL of the
runner with --resume.  Every fault is a forfeit with its reason, and the
process table holds none of the programs or their children afterwards."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import main
from support.program_checks import EXAMPLE, faulty, runs, wait_until_gone, wait_until_no_marker

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

GAMES = 3  # per pair: 9 games of the faulty program, more than its 7 kinds of fault


def tournament_args(folder: Path, faults: Path) -> list[str]:
    example = f"program:{shlex.join([sys.executable, str(EXAMPLE), str(folder)])}"
    return [
        "tournament", "dots", "--rows", "2", "--cols", "2",
        "-p", "random", "-p", "alphabeta:depth=2", "-p", example, "-p", faulty(faults),
        "-n", str(GAMES), "--time", "0.2", "-w", "2",
    ]  # fmt: skip


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def _check_faults(summary: dict, faulty_label: str) -> None:
    games = summary["games"]
    assert summary["played"] == summary["planned"] == 6 * GAMES
    theirs = [g for g in games if faulty_label in (g["first"], g["second"])]
    assert all(g["winner"] != faulty_label and g["end"] != "rules" for g in theirs)
    reasons = " | ".join(g["reason"] for g in theirs)
    for says in ("illegal move", "answered '= banana'", "took", "gave no answer to 'genmove",
                 "exited (exit code 3)", "closed its output", "flooded its output"):
        assert says in reasons, (says, reasons)
    others = [g for g in games if faulty_label not in (g["first"], g["second"])]
    assert all(g["end"] == "rules" for g in others)  # the good program never faulted


def test_two_ais_and_two_programs_play_to_the_end_on_workers(tmp_path):
    out, faults = tmp_path / "tournament", tmp_path / "faults"
    faults.mkdir()
    result = CliRunner().invoke(main, [*tournament_args(tmp_path, faults), "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = _summary(out)
    _check_faults(summary, summary["players"][3])
    assert "games forfeited" in result.stderr
    logs = sorted(p.name for p in (out / "logs").iterdir())
    assert len(logs) == 2 * 3 * GAMES  # each program's stderr, game by game
    assert "faulty engine run" in (out / "logs" / "02-03-0000.3.log").read_text()
    assert not wait_until_gone(faults)
    assert not wait_until_no_marker(str(tmp_path))


def test_a_sigkilled_tournament_leaves_no_program_and_resumes(tmp_path):
    out, faults = tmp_path / "tournament", tmp_path / "faults"
    faults.mkdir()
    command = [sys.executable, "-m", "boardgames", *tournament_args(tmp_path, faults)]
    runner = subprocess.Popen(
        [*command, "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and runner.poll() is None:
            if len(runs(faults)) >= 3 and len(list((out / "games").glob("*.json"))) >= 2:
                break
            time.sleep(0.05)
        assert runner.poll() is None, runner.stderr.read()
        runner.send_signal(signal.SIGKILL)  # no cleanup runs: the reapers end the programs
        runner.wait(timeout=30)
    finally:
        runner.kill()
        runner.stderr.close()
    assert not wait_until_gone(faults)
    assert not wait_until_no_marker(str(tmp_path))
    kept = len(list((out / "games").glob("*.json")))
    assert 0 < kept < 6 * GAMES

    result = CliRunner().invoke(main, ["tournament", "--resume", str(out), "-w", "2"])
    assert result.exit_code == 0, result.output
    assert f"resuming: {kept} of {6 * GAMES} games already played" in result.stderr
    summary = _summary(out)
    assert summary["played"] == 6 * GAMES
    label = summary["players"][3]
    assert all(g["winner"] != label for g in summary["games"] if label in (g["first"], g["second"]))
    assert not wait_until_gone(faults)
    assert not wait_until_no_marker(str(tmp_path))
