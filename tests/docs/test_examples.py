"""Every script in examples/ runs, with small limits."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import custom_evaluator
import play_connect_four
import pytest
import search_stats

from boardgames.registry import get_game
from support.extras import require

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Set by .ci/run and the full run: a missing JDK fails the Java engine's test.
REQUIRED = bool(os.environ.get("BOARDGAMES_REQUIRE_E2E"))


def test_play_connect_four_plays_a_whole_game(tmp_path, capsys):
    path = tmp_path / "game.json"
    record = play_connect_four.main(
        ["--red", "alphabeta:depth=2", "--yellow", "random", "--seed", "1", "--time", "1",
         "--record", str(path)]
    )  # fmt: skip
    assert record.replay().is_over() and path.exists()
    out = capsys.readouterr().out
    assert "alphabeta:depth=2 plays" in out and f"saved to {path}" in out


def test_custom_evaluator_features_and_match(capsys):
    game = get_game("connect4")
    state = game.replay(["d", "a", "d", "a"])
    # red (to move) has one vertical two in d; yellow one in a: equal twos
    assert custom_evaluator.twos(state, 0) == 0
    state.play("d")  # red now has an open three in column d
    assert custom_evaluator.threes(state, 0) == 1 and custom_evaluator.threes(state, 1) == -1
    assert custom_evaluator.WINDOWS_EVAL(state) < 0  # yellow to move faces the threat
    assert len(custom_evaluator.WINDOWS) == 69  # the classic count of Connect Four lines
    summary = custom_evaluator.main(["--games", "2", "--depth", "2"])
    assert summary.games == 2
    assert "windows vs centre-only" in capsys.readouterr().out


def test_search_stats_algorithms_agree():
    results = search_stats.main(["--depth", "3", "--moves", "d c"])
    scores = {r.score for r in results.values()}
    assert len(scores) == 1
    assert results["alphabeta"].nodes <= results["minimax"].nodes


def test_scripts_run_from_the_command_line():
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "search_stats.py"), "--depth", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "negascout visits" in run.stdout


# --- examples/engines: programs that speak the engine protocol ------------------------------


def test_the_python_engine_plays_a_match_from_the_command_line():
    engine = EXAMPLES / "engines" / "python" / "dots_engine.py"
    spec = f"program:{sys.executable} {engine}"
    out = subprocess.run(
        [sys.executable, "-m", "boardgames", "match", "dots", "--ai", spec, "--ai2", "random",
         "--games", "4", "--time", "1", "--seed", "1"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert f"match: {spec} vs random at dots, 4 games" in out.stdout
    assert "forfeits" not in out.stdout


def test_the_java_engine_compiles_and_plays_a_match(tmp_path):
    if shutil.which("javac") is None or shutil.which("java") is None:
        if REQUIRED:  # the full run (CI) runs every example engine
            pytest.fail("BOARDGAMES_REQUIRE_E2E is set, but no JDK (javac, java) is on the PATH")
        pytest.skip("no JDK (javac) on this machine")
    source = EXAMPLES / "engines" / "java" / "DotsEngine.java"
    subprocess.run(["javac", "-d", str(tmp_path), str(source)], check=True, timeout=120)
    spec = f"program:java -cp {tmp_path} DotsEngine"
    out = subprocess.run(
        [sys.executable, "-m", "boardgames", "match", "dots", "--ai", spec, "--ai2", "random",
         "--games", "2", "--time", "1", "--seed", "1"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "forfeits" not in out.stdout and f"{spec}: " in out.stdout


def test_learn_dots_win_rate_rises(tmp_path, capsys):
    require("gymnasium")
    import learn_dots

    plot = tmp_path / "curve.svg"
    curve = learn_dots.main(["--episodes", "2000", "--every", "1000", "--plot", str(plot)])
    assert [n for n, _ in curve] == [0, 1000, 2000]
    assert curve[-1][1] >= curve[0][1] + 0.2  # from about half the games to most of them
    assert plot.read_text().startswith("<svg") and "polyline" in plot.read_text()
