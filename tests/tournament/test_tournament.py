"""Tournaments: round robins on local processes and Dask, robustness, resume, the CLI."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import connect_four  # noqa: F401  (registers "connect4" in this process and forked workers)
import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.errors import OptionError
from boardgames.game import End
from boardgames.match.records import GameRecord
from boardgames.parallel import MissingExtraError, open_executor
from boardgames.players import Player, RandomPlayer
from boardgames.tournament.run import round_robin
from boardgames.tournament.schedule import TournamentSettings, round_robin_tasks
from boardgames.tournament.standings import TournamentResult
from boardgames.tournament.store import TournamentDir
from boardgames.tournament.tasks import GameResult, derive_seed
from support.processes import sigint_default

ROOT = Path(__file__).resolve().parents[2]
CONNECT4 = str(ROOT / "examples" / "connect_four")
# Depth-limited players (reproducible) and a seeded random one (the Elo anchor).
SPECS = ["random", "alphabeta:depth=1", "negascout:depth=2"]


def outcomes(result: TournamentResult) -> list[tuple]:
    """Everything that must not depend on the executor: who played what, and how it ended."""
    return [
        (r.key, tuple(r.record.players), tuple(r.record.moves), r.winner, r.record.end)
        for r in result.results
    ]


def small(executor=None, **options) -> TournamentResult:
    settings = {"games_per_pair": 2, "seed": 11, "plugins": [CONNECT4]}
    settings.update(options)
    return round_robin(TournamentSettings("connect4", {}, SPECS, **settings), executor)


@pytest.fixture(scope="module")
def serial() -> TournamentResult:
    return small()


# --- the schedule ------------------------------------------------------------------------


def test_every_pair_plays_with_colours_alternating(serial):
    assert serial.complete and not serial.errors
    assert [r.key for r in serial.results] == [
        (0, 1, 0), (0, 1, 1), (0, 2, 0), (0, 2, 1), (1, 2, 0), (1, 2, 1),
    ]  # fmt: skip
    for r in serial.results:
        i, j = r.pair
        first, second = (i, j) if r.index == 0 else (j, i)
        assert r.record.players == [SPECS[first], SPECS[second]]
    standings = serial.standings()
    assert all(s.games == 4 for s in standings)
    assert sum(s.points for s in standings) == len(serial.results)
    assert [s.elo for s in standings] == sorted((s.elo for s in standings), reverse=True)
    assert next(s for s in standings if s.label == "random").elo == 0.0


def test_seeds_depend_only_on_seed_pair_and_index():
    two = round_robin_tasks(TournamentSettings("connect4", {}, SPECS[:2], games_per_pair=3, seed=5))
    three = round_robin_tasks(TournamentSettings("connect4", {}, SPECS, games_per_pair=3, seed=5))
    seeds_two = {t.key: t.seed for t in two}
    # Adding a player leaves the games of the existing pairs as they were.
    assert all(seeds_two[t.key] == t.seed for t in three if t.pair == (0, 1))
    assert len({t.seed for t in three}) == len(three)
    assert derive_seed(5, 0, 1, 2) == derive_seed(5, 0, 1, 2) != derive_seed(6, 0, 1, 2)
    # Games are interleaved: every pair plays its first game before any plays its second.
    assert [t.index for t in three] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_bad_schedules_are_refused():
    # The settings are checked once, when they are made.
    with pytest.raises(OptionError, match="two players"):
        TournamentSettings("connect4", {}, ["random"])
    with pytest.raises(OptionError, match="games_per_pair"):
        TournamentSettings("connect4", {}, SPECS, games_per_pair=0)
    with pytest.raises(OptionError, match="bad pair"):
        TournamentSettings("connect4", {}, SPECS, pairs=[(0, 3)])


def test_gauntlet_plays_only_the_given_pairs():
    settings = TournamentSettings(
        "connect4", {}, SPECS, games_per_pair=1, seed=1, pairs=[(0, 1), (2, 0)], labels="abc"
    )
    result = round_robin(settings)
    assert [r.pair for r in result.results] == [(0, 1), (0, 2)]
    assert result.planned == 2
    assert result.labels == ["a", "b", "c"]


def record(winner: int | None) -> GameRecord:
    result = "draw" if winner is None else ("red", "yellow")[winner]
    return GameRecord(game="connect4", moves=["d"], result=result, winner=winner)


def test_table_and_elo_from_hand_made_results():
    # Player 1 beats random (player 0) 3 times out of 4, from both sides of the board:
    # game 0: player 0 first, winner colour 1 = player 1; game 1: player 1 first, wins...
    results = [
        GameResult((0, 1), 0, record(1)),
        GameResult((0, 1), 1, record(0)),
        GameResult((0, 1), 2, record(0)),  # random (first) wins this one
        GameResult((0, 1), 3, record(0)),
    ]
    table = TournamentResult(labels=["random", "x"], results=results, planned=4, anchor=0)
    assert table.counts() == ([[0, 1], [3, 0]], [[0, 0], [0, 0]])
    x = next(s for s in table.standings() if s.label == "x")
    assert (x.games, x.wins, x.draws, x.losses, x.score_percent) == (4, 3, 0, 1, 75.0)
    # One virtual draw per pair: 3.5 points out of 5, odds 7/3.
    assert x.elo == pytest.approx(400 * math.log10(7 / 3))
    assert "anchor" in table.format() and "random = 0" in table.format()


def test_table_before_any_game_and_without_random():
    empty = TournamentResult(labels=["random", "x"], results=[], planned=2, anchor=0)
    assert "0 of 2 games played" in empty.format() and "mean = 0" in empty.format()
    assert empty.to_dict()["anchor"] is None
    draws = [GameResult((0, 1), i, record(None)) for i in range(2)]
    level = TournamentResult(labels=["a", "b"], results=draws, planned=2)
    assert [s.elo for s in level.standings()] == pytest.approx([0, 0])
    assert [s.draws for s in level.standings()] == [2, 2]


def test_openings_are_shared_by_colour_swapped_games_and_by_all_pairs():
    specs = ["random", "random", "alphabeta:depth=1"]
    result = round_robin(
        TournamentSettings(
            "connect4", {}, specs, games_per_pair=4, seed=2, opening_plies=4, plugins=[CONNECT4]
        )
    )
    starts = {r.key: r.record.start for r in result.results}
    assert all(len(start.split()) == 4 for start in starts.values())
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        assert starts[i, j, 0] == starts[i, j, 1] == starts[0, 1, 0]
        assert starts[i, j, 2] == starts[i, j, 3] == starts[0, 1, 2]
    assert starts[0, 1, 0] != starts[0, 1, 2]
    for r in result.results:  # the records replay from their start position
        assert r.record.replay().is_over()


def test_games_stopped_at_max_moves_are_draws():
    settings = TournamentSettings("connect4", {}, ["random"] * 2, games_per_pair=2, max_moves=3)
    result = round_robin(settings)
    assert all(r.winner is None and r.record.result == "draw" for r in result.results)
    assert result.ends() == {"adjudication": 2}
    assert all(r.record.end is End.ADJUDICATION for r in result.results)
    assert all(r.record.reason == "stopped after 3 moves" for r in result.results)
    assert [s.draws for s in result.standings()] == [2, 2]


# --- executors -----------------------------------------------------------------------------


def test_small_tournament_on_processes_matches_serial(serial):
    with ProcessPoolExecutor(max_workers=2) as executor:
        parallel = small(executor)
    assert outcomes(parallel) == outcomes(serial)


def test_open_executor_choices(serial):
    with open_executor(workers=0) as executor:
        assert executor is None
    with open_executor(workers=1) as executor:
        assert outcomes(small(executor)) == outcomes(serial)
    with pytest.raises(OptionError, match="not both"), open_executor(workers=1, scheduler="x"):
        pass


def test_missing_dask_extra_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    expected = pytest.raises(MissingExtraError, match=r"boardgames-ai\[dask\]")
    with expected, open_executor(scheduler="tcp://127.0.0.1:8786"):
        pass


# --- robustness -----------------------------------------------------------------------------


class Crasher(Player):
    def choose(self, state, limits=None):
        raise RuntimeError("boom")


class Sleeper(Player):
    """Never answers (small sleeps, so a thread can be interrupted too)."""

    def choose(self, state, limits=None):
        while True:
            time.sleep(0.01)


class Slow(RandomPlayer):
    def choose(self, state, limits=None):
        time.sleep(0.02)
        return super().choose(state, limits)


def crasher(game, seed=None):
    return Crasher("crasher")


def sleeper(game, seed=None):
    return Sleeper("sleeper")


def slow(game, seed=None):
    return Slow(seed, name="slow")


class Quitter(Player):
    def choose(self, state, limits=None):
        sys.exit(3)


def quitter(game, seed=None):
    return Quitter("quitter")


def unbuildable(game, seed=None):
    raise ValueError("no such parameters file")


EXECUTORS = {"serial": lambda: None, "threads": lambda: ThreadPoolExecutor(2)}
EXECUTORS["processes"] = lambda: ProcessPoolExecutor(2)


# The watchdog uses a SIGALRM timer in a main thread (serial, processes) and an
# asynchronous exception in other threads (Dask's workers): both are tested.
@pytest.mark.parametrize("executor_kind", sorted(EXECUTORS))
def test_crashing_and_hanging_players_lose_and_the_tournament_goes_on(executor_kind):
    specs = ["random", crasher, sleeper, unbuildable, quitter]
    executor = EXECUTORS[executor_kind]()
    started = time.monotonic()
    settings = TournamentSettings("connect4", {}, specs, games_per_pair=2, seed=3, move_timeout=0.2)
    result = round_robin(settings, executor)
    if executor is not None:
        executor.shutdown()
    assert time.monotonic() - started < 10
    assert result.complete and not result.errors
    standings = {s.label: s for s in result.standings()}
    assert standings["random"].wins == 8
    for r in result.results:
        first, second = r.record.players
        # The first failure decides: a player that cannot be built loses before
        # the game starts; otherwise the first to move fails (random never does).
        if "unbuildable" in (first, second):
            culprit = "unbuildable"
        else:
            culprit = second if first == "random" else first
        if "random" in (first, second):
            assert result.labels[r.winner] == "random"
        else:
            assert r.record.players[r.record.winner] != culprit
        if culprit == "sleeper":
            assert r.record.end is End.HANG
            assert "hard limit of 0.2 s per move" in r.record.reason
        elif culprit == "quitter":
            assert r.record.end is End.CRASH and "exit(3)" in r.record.reason
        else:
            assert r.record.end is End.CRASH
            if culprit == "unbuildable":
                assert "cannot build the player" in r.record.reason
    assert result.ends() == {"crash": 16, "hang": 4}


def test_game_timeout_makes_the_side_to_move_lose():
    settings = TournamentSettings("connect4", {}, [slow, slow], games_per_pair=2, game_timeout=0.15)
    result = round_robin(settings)
    for r in result.results:
        assert r.record.end is End.HANG
        assert "per game" in r.record.reason
        # The side to move when time ran out lost: it would have played move len(moves) + 1.
        loser = len(r.record.moves) % 2
        assert r.record.winner == 1 - loser


def test_a_loss_on_time_names_the_loser_by_its_label():
    # Two players of one name (as "default" and "default:threads=2" are):
    # the reason says which of them lost, as the tables name them.
    labels = ["tortoise", "snail"]
    settings = TournamentSettings(
        "connect4", {}, [slow, slow], games_per_pair=2, game_timeout=0.15, labels=labels
    )
    result = round_robin(settings)
    assert len(result.results) == 2
    for r in result.results:
        loser = r.record.players[1 - r.record.winner]
        assert r.record.reason.startswith(f"{loser} stopped by the ")


def test_a_game_that_cannot_be_set_up_is_an_error_not_a_result():
    result = round_robin(TournamentSettings("no-such-game", {}, ["random"] * 2, games_per_pair=1))
    assert result.results == [] and len(result.errors) == 1
    assert "no-such-game" in result.errors[0].error


# --- resume -----------------------------------------------------------------------------------


def test_resume_after_interruption_plays_only_missing_games(tmp_path, serial):
    settings = TournamentSettings(
        game="connect4", params={}, players=SPECS, games_per_pair=2, seed=11, plugins=[CONNECT4]
    )
    folder = TournamentDir(tmp_path / "t")
    folder.create(settings)
    seen: list[GameResult] = []

    def save_then_stop(result: GameResult) -> None:
        folder.save(result)
        seen.append(result)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        round_robin(settings, on_result=save_then_stop)
    assert len(folder.finished()) == 3
    assert len(folder.result().results) == 3

    again = TournamentDir(tmp_path / "t")
    replayed: list[GameResult] = []
    result = round_robin(again.settings(), on_result=replayed.append, done=again.finished())
    assert len(replayed) == settings.planned - 3
    assert {r.key for r in replayed}.isdisjoint(r.key for r in seen)
    assert outcomes(result) == outcomes(serial)


def test_directory_refuses_a_second_tournament_and_bad_manifests(tmp_path):
    settings = TournamentSettings(game="connect4", params={}, players=SPECS)
    folder = TournamentDir(tmp_path)
    folder.create(settings)
    assert folder.settings() == settings
    with pytest.raises(OptionError, match="already holds"):
        folder.create(settings)
    folder.manifest.write_text('{"format": "something else"}')
    with pytest.raises(ValueError, match="not a tournament manifest"):
        folder.settings()


def test_settings_are_checked_once_and_round_trip_through_the_manifest(tmp_path):
    settings = TournamentSettings(
        "connect4", {}, SPECS, games_per_pair=1, pairs=[(2, 0)], labels="abc", move_timeout=3
    )
    assert settings.pairs == ((0, 2),) and settings.planned == 1
    folder = TournamentDir(tmp_path)
    folder.create(settings)
    assert folder.settings() == settings
    for bad, message in [
        ({"time_limit": math.nan}, "time_limit"),
        ({"move_timeout": 0}, "move_timeout"),
        ({"max_moves": 0}, "max_moves"),
        ({"opening_plies": -1}, "opening_plies"),
        ({"labels": ["a"]}, "one label per player"),
    ]:
        with pytest.raises(OptionError, match=message):
            TournamentSettings("connect4", {}, SPECS, **bad)
    with pytest.raises(OptionError, match="AI specs"):
        TournamentSettings("connect4", {}, ["random", crasher]).to_dict()


# --- the command line --------------------------------------------------------------------------


def run_cli(*args: str):
    return CliRunner().invoke(main, ["tournament", *args], catch_exceptions=False)


def test_cli_tournament_then_resume_with_more_games(tmp_path):
    out = tmp_path / "t"
    base = ["connect4", "--plugin", CONNECT4, "-p", "random", "-p", "alphabeta:depth=1"]
    first = run_cli(*base, "--games", "2", "--workers", "0", "--out", str(out))
    assert first.exit_code == 0, first.output
    assert "alphabeta:depth=1" in first.stdout and "anchor" in first.stdout
    records = sorted((out / "games").glob("*.json"))
    assert [p.name for p in records] == ["00-01-0000.json", "00-01-0001.json"]
    stamps = {p.name: p.stat().st_mtime_ns for p in records}
    assert GameRecord.load(records[0]).players == ["random", "alphabeta:depth=1"]

    more = run_cli("--resume", str(out), "--games", "4", "--workers", "1")
    assert more.exit_code == 0, more.output
    assert "2 of 4 games already played" in more.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["played"] == 4 and summary["anchor"] == "random"
    assert sum(s["games"] for s in summary["standings"]) == 8
    assert all(p.stat().st_mtime_ns == stamps[p.name] for p in records)  # not replayed


def test_a_tournament_directory_of_the_first_record_format_resumes(tmp_path):
    out = tmp_path / "old"
    shutil.copytree(ROOT / "tests" / "data" / "tournament-version-1", out)
    old = sorted(p.name for p in (out / "games").iterdir())
    assert all(json.loads((out / "games" / name).read_text())["version"] == 1 for name in old)
    resumed = run_cli("--resume", str(out), "--workers", "0")
    assert resumed.exit_code == 0, resumed.output
    assert "3 of 4 games already played" in resumed.stderr
    assert "4 of 4 games played; 4 by adjudication" in resumed.stdout
    new = json.loads((out / "games" / "00-01-0003.json").read_text())
    assert (new["version"], new["end"], new["result"]) == (2, "adjudication", "draw")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ends"] == {"adjudication": 4}
    assert {g["reason"] for g in summary["games"]} == {"stopped after 5 moves"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["connect4", "-p", "random"], "at least two"),
        (["connect4", "-p", "random", "-p", "nosuchai"], "unknown AI 'nosuchai'"),
        (["nosuchgame", "-p", "random", "-p", "random"], "unknown game"),
        (["--resume", "missing-dir"], "holds no tournament"),
        ([], "give a GAME"),
    ],
)
def test_cli_errors_are_one_line_exit_2(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["tournament", "--plugin", CONNECT4, *args])
    assert result.exit_code == 2
    assert message in result.stderr


SLEEPY_PLUGIN = """
import os
import time
from boardgames.ai.registry import register_ai
from boardgames.options import LIMITS, SEED
from boardgames.players import RandomPlayer

class Sleepy(RandomPlayer):
    def choose(self, state, limits=None):
        time.sleep(float(os.environ.get("SLEEPY_SECONDS", "0")))
        return super().choose(state, limits)

# Declared options: the AI rejects bad ones like every other (tests/test_options.py).
@register_ai("sleepy", help="random, slowly (tests)", options=(*LIMITS, SEED))
def sleepy(game, *, seed, **limits):
    return Sleepy(seed)
"""


def test_ctrl_c_keeps_finished_games_and_resume_completes(tmp_path, monkeypatch):
    plugin = tmp_path / "sleepy_ai.py"
    plugin.write_text(textwrap.dedent(SLEEPY_PLUGIN))
    out = tmp_path / "t"
    command = [
        sys.executable, "-c", "from boardgames.cli import main; main()", "tournament",
        "connect4", "--plugin", CONNECT4, "--plugin", str(plugin),
        "-p", "sleepy", "-p", "random", "--games", "30", "--workers", "2", "--out", str(out),
    ]  # fmt: skip
    # Slow games while the first run is interrupted, fast ones when it resumes.
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "SLEEPY_SECONDS": "0.03"}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=sigint_default,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(list((out / "games").glob("*.json"))) < 2:
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: the whole process group
        stdout, stderr = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert b"interrupted" in stderr and b"--resume" in stderr
    assert b"Traceback" not in stderr
    kept = TournamentDir(out).finished()
    assert 2 <= len(kept) < 30
    assert json.loads((out / "summary.json").read_text())["played"] == len(kept)

    monkeypatch.setenv("SLEEPY_SECONDS", "0")
    resumed = run_cli("--resume", str(out), "--workers", "2")
    assert resumed.exit_code == 0, resumed.output
    assert f"{len(kept)} of 30 games already played" in resumed.stderr
    assert len(TournamentDir(out).finished()) == 30


# Last in the file: Dask leaves threads behind, and the process pools above fork.
def test_same_tournament_on_a_dask_local_cluster(serial):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        open_executor(scheduler=cluster.scheduler_address) as executor,
    ):
        on_dask = small(executor)
    assert outcomes(on_dask) == outcomes(serial)
