"""SPRT matches (tournament/sprt_match.py, `boardgames match --sprt`): game pairs
from one opening with colours swapped, pentanomial counting, the LLR printed
pair by pair, a verdict (accepted, rejected, or none at --max-games), workers,
and a results folder that --resume continues, even after a SIGKILL."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.tournament.schedule import round_robin_tasks
from boardgames.tournament.sprt import OPENING_PLIES, Pentanomial, Sprt
from boardgames.tournament.sprt_match import SprtDir, pair_points, run_sprt, sprt_settings
from support.cli_checks import assert_error, small_tournament

DOTS = ["dots", "--rows", "2", "--cols", "2"]


def test_games_come_in_pairs_from_one_opening_with_colours_swapped():
    settings = sprt_settings("dots", {}, "alphabeta:depth=2", "random", max_games=7)
    assert settings.games_per_pair == 8 and settings.opening_plies == OPENING_PLIES
    tasks = round_robin_tasks(settings)
    assert [t.index for t in tasks] == list(range(8))
    for first, second in zip(tasks[::2], tasks[1::2]):
        assert first.opening_seed == second.opening_seed
        assert first.players == (0, 1) and second.players == (1, 0)
    assert len({t.opening_seed for t in tasks}) == 4


def test_a_match_counts_whole_pairs_and_stops_at_its_most_games():
    settings = sprt_settings("dots", {"rows": 2, "cols": 2}, "random", "random:seed=9",
                             max_games=12, seed=4)
    pairs = []
    outcome = run_sprt(settings, Sprt(0, 10), on_pair=pairs.append)
    assert outcome.verdict is None and outcome.played == 12 and len(pairs) == 6
    by_index = {r.index: r for r in outcome.results}
    expected = Pentanomial.of(pair_points(by_index, k) for k in range(6))
    assert outcome.state.results.counts == expected.counts
    assert "verdict: none: stopped at 12 of at most 12 games" in outcome.verdict_line()
    again = run_sprt(settings, Sprt(0, 10), done=outcome.results[:5])  # resumed: same games
    assert again.state.results.counts == expected.counts


def test_a_clear_difference_is_accepted_early(tmp_path):
    out = tmp_path / "sprt"
    args = ["match", "dots", "--ai", "alphabeta:depth=3", "--ai2", "random",
            "--sprt", "elo0=0,elo1=200", "-w", "2", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    progress = [line for line in lines if line.startswith("games ")]
    assert len(progress) >= 8 and "LLR" in progress[0] and "(-2.94, +2.94)" in progress[0]
    assert "verdict: accepted (H1) after" in result.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sprt"]["verdict"] == "H1" and summary["sprt"]["games"] < 100
    assert SprtDir(out).test() == Sprt(0, 200)


def test_equal_players_run_on_to_the_most_games(tmp_path):
    args = ["match", *DOTS, "--ai", "random", "--ai2", "random:seed=5",
            "--sprt", "elo0=0,elo1=10", "--max-games", "30", "-w", "0", "--out"]
    result = CliRunner().invoke(main, [*args, str(tmp_path / "equal")])
    assert result.exit_code == 0, result.output
    assert "verdict: none: stopped at 30 of at most 30 games" in result.stdout
    assert len([line for line in result.stderr.splitlines() if line.startswith("games ")]) == 15


def test_a_match_without_a_verdict_plays_on_past_its_most_games(tmp_path):
    out = tmp_path / "equal"
    args = ["match", *DOTS, "--ai", "random", "--ai2", "random:seed=5",
            "--sprt", "elo0=0,elo1=10", "--max-games", "10", "-w", "0", "--out", str(out)]
    first = CliRunner().invoke(main, args)
    assert "verdict: none: stopped at 10 of at most 10 games" in first.stdout
    lower = CliRunner().invoke(main, ["match", "--resume", str(out), "--max-games", "8"])
    assert_error(lower, "may play 10 games; --max-games can only raise that")
    again = CliRunner().invoke(main, ["match", "--resume", str(out), "--max-games", "20"])
    assert again.exit_code == 0, again.output
    assert "resuming: 10 games already played" in again.stderr
    assert "verdict: none: stopped at 20 of at most 20 games" in again.stdout
    assert len(list(out.glob("games/*.json"))) == 20
    assert SprtDir(out).settings().planned == 20  # a later --resume keeps the new most


def test_an_sprt_match_resumes_after_a_sigkill(tmp_path):
    out = tmp_path / "sprt"
    command = [sys.executable, "-m", "boardgames", "match", *DOTS, "--ai", "random",
               "--ai2", "random:seed=2", "--sprt", "elo0=0,elo1=5", "--max-games", "400",
               "-w", "1", "--time", "0.05", "--out", str(out)]
    runner = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list(out.glob("games/*.json"))) < 6:
            time.sleep(0.05)
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=30)
    finally:
        runner.kill()
    kept = len(list(out.glob("games/*.json")))
    assert 6 <= kept < 400
    result = CliRunner().invoke(main, ["match", "--resume", str(out), "-w", "2"])
    assert result.exit_code == 0, result.output
    assert f"resuming: {kept} games already played" in result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["played"] >= kept and summary["sprt"]["games"] >= kept - 1


def test_bad_sprt_commands_are_one_error_line(tmp_path):
    base = ["match", *DOTS, "--sprt", "elo0=0,elo1=10"]
    for args, says in [
        (base + ["--games", "4"], "--games cannot go with --sprt"),
        (base + ["--depth", "2"], "--depth cannot go with --sprt"),
        (["match", *DOTS, "--sprt", "elo0=0"], "--sprt needs elo0 and elo1"),
        (["match", *DOTS, "--out", "x"], "--out only go with --sprt"),
        (["match", *DOTS, "-w", "2"], "--workers only go with --sprt"),
        (["match", "--resume", str(tmp_path), "--ai", "x"], "drop"),
        (["match"], "give a GAME (or --resume DIR)"),
        (["match", "--resume", str(tmp_path / "none")], "holds no tournament"),
    ]:
        assert_error(CliRunner().invoke(main, args), says)


def test_a_tournament_and_an_sprt_match_are_not_taken_for_each_other(tmp_path):
    tournament = small_tournament(tmp_path / "tournament")
    result = CliRunner().invoke(main, ["match", "--resume", str(tournament)])
    assert_error(result, "holds a tournament, not an SPRT match")
    sprt = tmp_path / "sprt"
    args = ["match", *DOTS, "--ai", "random", "--ai2", "random:seed=1", "--sprt",
            "elo0=0,elo1=10", "--max-games", "2", "-w", "0", "--out", str(sprt)]
    assert CliRunner().invoke(main, args).exit_code == 0
    result = CliRunner().invoke(main, ["tournament", "--resume", str(sprt)])
    assert_error(result, "holds an SPRT match: continue it with boardgames match --resume")


@pytest.mark.slow
def test_default_against_random_is_accepted_long_before_the_most_games(tmp_path):
    args = ["match", "dots", "--ai", "default", "--ai2", "random", "--sprt", "elo0=0,elo1=10",
            "--time", "0.5", "--max-games", "1000", "-w", "2", "--out", str(tmp_path / "s")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "s" / "summary.json").read_text())
    assert summary["sprt"]["verdict"] == "H1" and summary["sprt"]["games"] <= 300


@pytest.mark.parametrize(("specs", "cores", "expected"), [
    (("alphabeta:threads=2", "random"), 4, 2),  # each game may use two cores
    (("alphabeta:threads=3", "alphabeta"), 8, 2),
    (("alphabeta:threads=4", "random"), 2, 1),  # never fewer than one
    (("alphabeta", "random"), 4, None),  # one per core, as local_workers says
    (("alphabeta:threads=x", "random"), 4, None),  # a bad spec fails when the player is made
])
def test_default_workers_leave_cores_for_the_searchers_helpers(specs, cores, expected,
                                                              monkeypatch):
    from boardgames.cli.tournament import workers_for

    monkeypatch.setattr("os.cpu_count", lambda: cores)
    settings = sprt_settings("dots", {"rows": 2, "cols": 2}, *specs, max_games=2)
    assert workers_for(None, settings) == expected
    assert workers_for(3, settings) == 3  # a count given is kept


def test_an_sprt_match_of_a_parallel_ai_says_how_many_workers_it_uses(tmp_path, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    args = ["match", *DOTS, "--ai", "alphabeta:depth=2,threads=2", "--ai2", "random",
            "--sprt", "elo0=0,elo1=400", "--max-games", "2", "--out", str(tmp_path / "s")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "at most 2 games on 2 worker processes" in result.stderr
