"""The Texel and SPSA tuners: the fit, the positions, the command and its bad inputs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.ai import make_player
from boardgames.cli import main
from boardgames.errors import BadFileError, OptionError
from boardgames.match.records import GameRecord
from boardgames.registry import get_game
from boardgames.tuning.texel import (
    PositionSet,
    Probes,
    declared,
    fit,
    fit_scale,
    play_task,
    selfplay_tasks,
    split_games,
)

SQUATTER = get_game("squatter", size=4)


def test_the_fit_recovers_known_weights_from_synthetic_data():
    rng = np.random.default_rng(7)
    n, true = 20_000, np.array([1.5, -0.8, 0.3, 0.0])
    x = rng.normal(size=(n, 4)) * [1, 2, 3, 1]
    y = (rng.random(n) < 1 / (1 + np.exp(-(x @ true)))).astype(float)
    games = np.arange(n) // 10
    held = split_games(games, 0.2, 0)
    # Start from weights of the right direction at another scale: K takes the
    # scale, and the weights keep it, so K * w is what the data fix.
    start = true * 10 + [5, 5, -5, 5]
    result = fit(x, y, start, low=[-100] * 4, high=[100] * 4, l2=0.0, held=held,
                 names=["a", "b", "c", "d"])
    learnt = result.scale * np.array(list(result.weights.values()))
    assert np.allclose(learnt, true, atol=0.06)
    assert result.end_loss[1] < result.start_loss[1]  # held-out loss fell too
    assert result.train == sorted(result.train, reverse=True)  # Newton steps never go up


def test_the_scale_fit_and_the_ranges():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(5000, 1))
    y = (rng.random(5000) < 1 / (1 + np.exp(-3 * x[:, 0]))).astype(float)
    assert fit_scale(x, y, np.array([1.0])) == pytest.approx(3, rel=0.1)
    # A weight's range holds: the best value (3) is out of it.
    result = fit(x, y, [1.0], low=[0.0], high=[2.0], scale=1.0, l2=0.0)
    assert result.weights["w0"] == 2.0


def test_held_out_rows_are_whole_games():
    games = np.repeat(np.arange(10), 5)
    held = split_games(games, 0.3, 4)
    assert held.sum() == 15
    assert all(held[games == g].all() or not held[games == g].any() for g in range(10))


def test_features_reproduce_the_evaluation_where_it_is_linear():
    for name in ("andantino", "squatter", "hadron"):
        game = get_game(name)
        weights = declared(game)
        values = weights.defaults()
        probes = Probes(weights, values)
        evaluate = weights.build(values)
        w = np.array([values[n] for n in weights.linear])
        result = play_task(selfplay_tasks(game, values, range(1), depth=1)[0])
        assert result.error is None and result.rows
        state, linear = game.new_state(), 0
        import random

        rng = random.Random(0)
        while not state.is_over():
            features = probes(state)
            if features is not None:
                linear += 1
                assert float(np.dot(w, features)) == pytest.approx(evaluate(state), abs=1e-6)
            state.make(rng.choice(state.legal_moves()))
        assert linear


def _run(args, tmp_path):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def test_texel_from_self_play_saves_params_that_the_default_ai_loads(tmp_path):
    out, positions = tmp_path / "p.json", tmp_path / "pos.json"
    args = ["tune", "squatter", "--size", "4", "--method", "texel", "--games", "6", "--depth",
            "2", "-w", "0", "--output", str(out), "--positions", str(positions)]
    result = _run(args, tmp_path)
    assert result.exit_code == 0, result.output
    assert "| capture | 100 |" in result.output and "held out" in result.output
    data = json.loads(out.read_text())
    assert data["method"] == "texel" and data["games"] == 6
    make_player(SQUATTER, f"default:params={out}")
    # --resume adds games to the positions already read.
    result = _run([*args[:7], "8", *args[8:], "--resume"], tmp_path)
    assert result.exit_code == 0, result.output
    assert json.loads(positions.read_text())["games"] == 8


def _error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def test_texel_bad_data_folders_give_one_line_and_no_output(tmp_path):
    out = tmp_path / "out.json"
    empty = tmp_path / "empty"
    empty.mkdir()
    base = ["tune", "squatter", "--size", "4", "--method", "texel", "-w", "0",
            "--output", str(out), "--positions", str(tmp_path / "pos.json")]
    assert "no game records" in _error(_run([*base, "--data", str(empty)], tmp_path))
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    _save_record(foreign / "g.json", size=5)
    assert "not of squatter size=4" in _error(_run([*base, "--data", str(foreign)], tmp_path))
    (foreign / "g.json").write_text("{}")
    assert "not a game record" in _error(_run([*base, "--data", str(foreign)], tmp_path))
    assert not out.exists() and not (tmp_path / "pos.json").exists()


def _save_record(path, size):
    import random

    game = get_game("squatter", size=size)
    state = game.new_state()
    rng = random.Random(0)
    while not state.is_over():
        state.make(rng.choice(state.legal_moves()))
    GameRecord.from_state(state, players=["random", "random"]).save(path)


def test_texel_from_records_reads_a_folder(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    for i in range(3):
        _save_record(folder / f"g{i}.json", size=4)
    out = tmp_path / "out.json"
    result = _run(["tune", "squatter", "--size", "4", "--method", "texel", "-w", "0",
                   "--data", str(folder), "--depth", "1", "--held-out", "0", "--l2", "0.1",
                   "--output", str(out), "--positions", str(tmp_path / "pos.json")], tmp_path)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["games"] == 3


def test_texel_reads_the_json_lines_that_match_records_writes(tmp_path):
    records = tmp_path / "games.jsonl"
    result = _run(["match", "squatter", "--size", "4", "--ai", "random:seed=1", "--ai2",
                   "random:seed=2", "--games", "3", "--records", str(records)], tmp_path)
    assert result.exit_code == 0, result.output
    assert len(records.read_text().splitlines()) == 3
    out = tmp_path / "out.json"
    tune = ["tune", "squatter", "--size", "4", "--method", "texel", "-w", "0",
            "--data", str(records), "--depth", "1", "--held-out", "0", "--l2", "0.1",
            "--output", str(out), "--positions", str(tmp_path / "pos.json")]
    result = _run(tune, tmp_path)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["games"] == 3
    # A broken line is named, and nothing is written.
    out.unlink()
    (tmp_path / "pos.json").unlink()
    first, *rest = records.read_text().splitlines()
    records.write_text("\n".join([first, "{not a record", *rest]) + "\n")
    error = _error(_run(tune, tmp_path))
    assert "games.jsonl, line 2: not a JSON game record" in error
    assert not out.exists() and not (tmp_path / "pos.json").exists()


def test_texel_reads_a_tournament_folder_s_games_not_its_manifest(tmp_path):
    folder = tmp_path / "tour"
    result = _run(["tournament", "squatter", "--size", "4", "-p", "random:seed=1", "-p",
                   "random:seed=2", "-n", "2", "-w", "0", "--out", str(folder)], tmp_path)
    assert result.exit_code == 0, result.output
    out = tmp_path / "out.json"
    result = _run(["tune", "squatter", "--size", "4", "--method", "texel", "-w", "0",
                   "--data", str(folder), "--depth", "1", "--held-out", "0", "--l2", "0.1",
                   "--output", str(out), "--positions", str(tmp_path / "pos.json")], tmp_path)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["games"] == 2


def test_positions_of_another_size_or_evaluator_are_refused(tmp_path):
    path = tmp_path / "pos.json"
    weights = declared(SQUATTER)
    PositionSet("squatter", {"size": 5}, "territory", weights.linear, weights.defaults()).save(
        path)
    with pytest.raises(BadFileError, match="positions of 'squatter' .*size.*, not of squatter"):
        PositionSet.load(path, SQUATTER, weights)
    out = tmp_path / "out.json"
    result = _run(["tune", "squatter", "--size", "4", "--method", "texel", "-w", "0",
                   "--resume", "--positions", str(path), "--output", str(out)], tmp_path)
    assert "not of squatter size=4" in _error(result)
    assert not out.exists()
    data = json.loads(path.read_text())
    data.update(params={"size": 4}, names=["capture"])
    path.write_text(json.dumps(data))
    with pytest.raises(BadFileError, match="evaluator's features"):
        PositionSet.load(path, SQUATTER, weights)


def test_params_for_another_evaluator_or_nan_weights_are_refused(tmp_path):
    hadron = tmp_path / "hadron.json"
    get_game("hadron").tunable_weights().save(hadron, {"up": 30})
    out = tmp_path / "out.json"
    base = ["tune", "squatter", "--size", "4", "-w", "0", "--output", str(out)]
    for method in ("texel", "spsa"):
        line = _error(_run([*base, "--method", method, "--params", str(hadron)], tmp_path))
        assert "not for the territory evaluator of squatter" in line
    nan = tmp_path / "nan.json"
    nan.write_text('{"format": "boardgames-params", "game": "squatter", "evaluator":'
                   ' "territory", "weights": {"tempo": NaN}}')
    assert "tempo must be a number" in _error(_run([*base, "--method", "texel", "--params",
                                                     str(nan)], tmp_path))
    assert not out.exists()
    line = _error(_run(["tune", "hexifence", "--method", "texel", "--output", str(out)],
                       tmp_path))
    assert "declares no tunable weights" in line


def test_spsa_runs_saves_and_resumes(tmp_path):
    out = tmp_path / "p.json"
    args = ["tune", "squatter", "--size", "4", "--method", "spsa", "--iterations", "1",
            "--pairs", "1", "--depth", "1", "-w", "0", "--output", str(out)]
    result = _run(args, tmp_path)
    assert result.exit_code == 0, result.output
    assert "| tempo | 60 |" in result.output
    data = json.loads(out.read_text())
    assert data["spsa"]["iteration"] == 1
    result = _run([*args[:7], "2", *args[8:], "--resume"], tmp_path)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["spsa"]["iteration"] == 2
    make_player(SQUATTER, f"default:params={out}")


def test_no_linear_weights_no_texel():
    with pytest.raises(OptionError, match="declares no tunable weights"):
        declared(get_game("dots"))


def test_positions_on_a_dask_cluster_are_the_positions_played_here():
    distributed = pytest.importorskip("distributed")
    from boardgames.parallel import open_executor
    from boardgames.tuning.texel import run_position_tasks

    weights = declared(SQUATTER)
    tasks = selfplay_tasks(SQUATTER, weights.defaults(), range(3), depth=2, seed=5)
    here = sorted((r.index, r.rows) for r in run_position_tasks(tasks))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        open_executor(scheduler=cluster.scheduler_address) as executor,
    ):
        there = sorted((r.index, r.rows) for r in run_position_tasks(tasks, executor))
    assert there == here and all(rows for _, rows in here)
