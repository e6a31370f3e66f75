"""The natural-selection tuner: survivors, ranking, reproducibility, files, CLI."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from boardgames.ai import make_player
from boardgames.cli import main
from boardgames.errors import OptionError
from boardgames.games.hadron import AenigmaParams
from boardgames.registry import game_entry, get_game
from boardgames.tuning.hadron import aenigma_space, aenigma_spec, tune_aenigma
from boardgames.tuning.selection import (
    Contestant,
    ParamRange,
    ParamSpace,
    Tuner,
    natural_selection,
    rank,
    tuner_for,
)


def small_run(seed=5, size=3, **options):
    game = get_game("hadron", size=size)
    options = {"population": 4, "generations": 3, "games_per_pair": 2, **options}
    return tune_aenigma(game, depth=1, seed=seed, **options)


def test_space_matches_the_seed_ranges():
    game = get_game("hadron")
    space = aenigma_space(game)
    rng = random.Random(1)
    for _ in range(200):
        p = space.sample(rng)
        assert all(0 <= p[k] <= 1 for k in ("w1_open", "w2_open", "w1_end", "w2_end"))
        assert p["t"] == int(p["t"]) and 0 <= p["t"] <= 82


def test_rank_follows_the_win_loss_ratio():
    a = Contestant(1, 0, {}, wins=3, losses=1)  # 3.0
    b = Contestant(2, 0, {}, wins=5, losses=0)  # unbeaten
    c = Contestant(3, 1, {}, wins=4, losses=2)  # 2.0
    d = Contestant(4, 1, {}, wins=2, losses=1)  # 2.0, fewer wins
    assert [p.ident for p in rank([a, b, c, d])] == [2, 1, 3, 4]
    assert b.ratio is None and a.ratio == 3.0


def test_survivors_are_kept_and_newcomers_drawn():
    result = small_run()
    assert len(result.history) == 3
    for before, after in zip(result.history, result.history[1:]):
        survivors = {p.ident for p in before.players[:2]}
        assert survivors <= {p.ident for p in after.players}
        newcomers = [p for p in after.players if p.ident not in survivors]
        assert len(newcomers) == 2 and all(p.born == after.index for p in newcomers)
        assert all(len(p.params) == 5 for p in after.players)
    for generation in result.history:
        assert generation.games == 12  # 6 pairs x 2 games, all finished
        assert sum(p.wins for p in generation.players) == 12
        assert sum(p.wins + p.losses for p in generation.players) == 24
    assert result.best == result.history[-1].players[0].params


def test_reproducible_for_a_seed():
    def run(seed):
        return small_run(seed=seed, size=4, population=3, generations=2, games_per_pair=1)

    a, b = run(9), run(9)
    assert a.to_dict() == b.to_dict()
    assert run(10).best != a.best


def test_saved_result_loads_as_aenigma_params(tmp_path):
    result = small_run(generations=1)
    path = tmp_path / "tuned.json"
    result.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "boardgames-tune" and len(data["history"]) == 1
    assert AenigmaParams.load(path) == AenigmaParams(**result.best)
    game = get_game("hadron", size=3)
    player = make_player(game, f"aenigma:params={path},depth=1")
    assert player.engine.evaluator.params == AenigmaParams(**result.best)


def test_bad_settings_are_rejected():
    game = get_game("hadron", size=3)
    space = ParamSpace({"x": ParamRange(0, 1)})
    with pytest.raises(OptionError):
        natural_selection(game, space, lambda p: "random", population=1)
    with pytest.raises(OptionError):
        natural_selection(game, space, lambda p: "random", population=3, keep=3)
    with pytest.raises(OptionError):
        tune_aenigma(get_game("squatter", size=5))


def test_spec_builder():
    assert aenigma_spec({"t": 10, "w1_open": 0.5}, depth=2) == "aenigma:t=10,w1_open=0.5,depth=2"
    assert aenigma_spec({}) == "aenigma"


def test_tuners_are_declared_by_the_games_or_made_from_their_weights():
    assert tuner_for(get_game("hadron")).ai == "aenigma"
    # Squatter declares no tuner: natural selection runs over its declared weights.
    tuner = tuner_for(get_game("squatter", size=6))
    assert tuner.ai == "default"
    assert set(tuner.space(get_game("squatter")).ranges) == {
        "capture", "tempo", "pressure", "shape", "corner", "side", "potential", "fork"}
    with pytest.raises(OptionError, match="no tuner for 'hexifence'; available: hadron"):
        tuner_for(get_game("hexifence"))


def test_a_tuner_registered_by_a_plugin_reaches_the_command(tmp_path, monkeypatch):
    space = ParamSpace({"noise": ParamRange(0, 1)})
    # What a plugin declaring its game with `tuner=` gives (undone after the test).
    tuner = Tuner("squatter", "alphabeta", lambda game: space)
    monkeypatch.setattr(game_entry("squatter"), "tuner", tuner)
    out = tmp_path / "best.json"
    result = CliRunner().invoke(
        main,
        ["tune", "squatter", "--size", "4", "--population", "3", "--generations", "1",
         "--depth", "1", "--workers", "0", "--output", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "tuning alphabeta on squatter" in result.output
    assert "best: noise=" in result.output and out.exists()


def test_tune_command(tmp_path):
    out = tmp_path / "best.json"
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["tune", "hadron", "--size", "3", "--population", "3", "--generations", "2",
         "--depth", "1", "--workers", "0", "--seed", "4", "--output", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "best: " in result.output and out.exists()
    assert "generation 1" in result.output
    bad = runner.invoke(main, ["tune", "hadron", "--population", "3", "--keep", "3"])
    assert bad.exit_code == 2 and "--keep" in bad.output


def test_progress_after_every_generation_and_complete_only_at_the_end():
    seen = []
    result = small_run(on_progress=lambda r: seen.append((len(r.history), r.complete, r.best)))
    assert [(n, done) for n, done, _ in seen] == [(1, False), (2, False), (3, True)]
    assert seen[-1][2] == result.best == result.history[-1].players[0].params
    assert result.to_dict()["complete"] is True


def test_ctrl_c_keeps_the_finished_generations(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from support.processes import sigint_default

    output = tmp_path / "tune.json"
    command = [
        sys.executable, "-c", "from boardgames.cli import main; main()", "tune", "hadron",
        "--size", "3", "--population", "3", "--keep", "1", "--generations", "5000",
        "--games-per-pair", "1", "--depth", "1", "--workers", "0", "--output", str(output),
    ]  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=sigint_default,
    )
    try:
        deadline = time.monotonic() + 60
        while not output.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert output.exists(), "no generation saved within 60 s"
        process.send_signal(signal.SIGINT)
        try:
            stdout, stderr = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            # Python drops an interrupt that lands in a finalizer ("Exception ignored
            # in ..."): a user presses Ctrl-C again, and so does the test (5000
            # generations take over a minute: the run is still going then).
            process.send_signal(signal.SIGINT)
            stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("error: interrupted after ") and "of 5000 generations" in last
    assert "Traceback" not in stderr and "best:" in stdout
    saved = json.loads(output.read_text())
    assert saved["complete"] is False and saved["history"] and saved["best"]
