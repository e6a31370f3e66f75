"""Numbers too large to be meant: worker processes and games per pair.

`-w 100000` started 100 000 processes at once (a process pool forks all its
workers up front), and `-n 1000000000000` scheduled every game before the
first one (memory, then a hang); a hand-edited manifest could do the same.
Both are now one clear error, before anything starts.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from boardgames import parallel
from boardgames.cli import main
from boardgames.errors import BadFileError, OptionError
from boardgames.options import MAX_GAMES_PER_PAIR, MAX_WORKERS
from boardgames.tournament.schedule import TournamentSettings
from boardgames.tournament.store import TournamentDir
from support import cli_checks


def assert_error(result, *fragments: str) -> None:
    cli_checks.assert_error(result, *fragments, alone=True)


def test_open_executor_refuses_too_many_workers_before_starting_any(monkeypatch):
    def started(workers):
        raise AssertionError(f"a pool of {workers} was started")

    monkeypatch.setattr(parallel, "process_executor", started)
    for workers in (MAX_WORKERS + 1, 100_000, -1):
        with (
            pytest.raises(OptionError, match="workers must be a whole number >= 0"),
            parallel.open_executor(workers),
        ):
            pass


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "squatter", "--size", "3", "--scheduler", "tcp://127.0.0.1:1", "-w"],
        ["tune", "hadron", "--output", "{file}/x.json", "--workers"],
        ["tournament", "squatter", "-p", "random", "-p", "random:seed=2", "--out", "{file}", "-w"],
        ["ladder", "squatter", "--size", "3", "--rounds", "0", "--out", "{file}", "-w"],
    ],
    ids=["solve", "tune", "tournament", "ladder"],
)
def test_cli_workers_flag_has_a_ceiling(tmp_path, args):
    file = tmp_path / "a-file"
    file.write_text("")  # an --out that fails after the flags, if a flag got through
    args = [a.replace("{file}", str(file)) for a in args]
    result = CliRunner().invoke(main, [*args, str(MAX_WORKERS + 1)])
    assert_error(result, f"<= {MAX_WORKERS}, not {MAX_WORKERS + 1}")
    assert "worker" in result.stderr


@pytest.mark.parametrize("command", ["tournament", "ladder"])
def test_cli_games_per_pair_has_a_ceiling(tmp_path, command):
    file = tmp_path / "a-file"
    file.write_text("")
    args = [command, "squatter", "--out", str(file), "-n", str(10**12)]
    if command == "tournament":
        args += ["-p", "random", "-p", "random:seed=2"]
    result = CliRunner().invoke(main, args)
    assert_error(result, "--games", f"<= {MAX_GAMES_PER_PAIR}, not 1000000000000")


def test_settings_and_manifests_refuse_too_many_games_per_pair(tmp_path):
    players = ["random", "random:seed=2"]
    with pytest.raises(OptionError, match="games_per_pair"):
        TournamentSettings("squatter", {}, players, games_per_pair=MAX_GAMES_PER_PAIR + 1)
    with pytest.raises(OptionError, match="pair_games"):
        TournamentSettings("squatter", {}, players, pair_games={(0, 1): 10**12})
    settings = TournamentSettings("squatter", {"size": 3}, players, games_per_pair=2)
    data = settings.to_dict()
    data["games_per_pair"] = 10**12
    (tmp_path / "tournament.json").write_text(json.dumps(data))
    with pytest.raises(BadFileError, match="games_per_pair must be a whole number"):
        TournamentDir(tmp_path).settings()


def test_the_ceilings_leave_room_for_real_runs():
    settings = TournamentSettings(
        "squatter", {}, ["random", "mcts"], games_per_pair=MAX_GAMES_PER_PAIR
    )
    assert settings.planned == MAX_GAMES_PER_PAIR
    assert MAX_WORKERS >= 64


def test_a_random_opening_longer_than_the_game_never_ends_it():
    """'--opening 100' on a 3 x 3 board played the whole game at random: every
    game was '0 moves', decided before the players moved."""
    import random

    from boardgames.match.play import random_opening
    from boardgames.registry import get_game

    game = get_game("squatter", size=3)
    for seed in range(20):
        state = random_opening(game, 100, random.Random(seed))
        assert not state.is_over() and len(state.history) == 8
    short = random_opening(game, 3, random.Random(0))
    assert len(short.history) == 3
    args = ["match", "squatter", "--size", "3", "--ai", "random", "--ai2", "random"]
    result = CliRunner().invoke(main, [*args, "--games", "2", "--opening", "100", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "0 moves" not in result.stderr + result.output


def test_the_default_workers_stay_under_the_ceiling_on_a_big_machine(monkeypatch):
    monkeypatch.setattr(parallel, "default_workers", lambda: 4 * MAX_WORKERS)
    sizes = []
    monkeypatch.setattr(parallel, "process_executor", lambda n: _Recorded(sizes, n))
    with parallel.open_executor():
        pass
    assert sizes == [MAX_WORKERS]


class _Recorded:
    def __init__(self, sizes, n):
        sizes.append(n)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
