"""Faults of the arena commands: bad flags, forfeits, damaged and locked
tournament directories, orphaned workers, unwritable outputs, Ctrl-C in play and match.

Every test uses tiny games (connect4, hadron 3 x 3) and random-move players.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import connect_four  # noqa: F401  (registers "connect4")
import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.errors import OptionError, QuitRequest, TournamentInUseError
from boardgames.game import End
from boardgames.io import atomic_write_text, check_writable
from boardgames.match.play import CTRL_C, GameInterrupted, play_game
from boardgames.match.records import GameRecord
from boardgames.players import Player, RandomPlayer
from boardgames.registry import get_game
from boardgames.tournament.store import TournamentDir
from support.cli_checks import assert_error
from support.processes import sigint_default

ROOT = Path(__file__).resolve().parents[2]
CONNECT4 = str(ROOT / "examples" / "connect_four")
HADRON3 = ["hadron", "--rows", "3", "--cols", "3"]

FAULTY_PLUGIN = '''
"""Random moves that crash, are interrupted (KeyboardInterrupt) or are slow (tests).

    faulty:crash=N       raise RuntimeError at its N-th move of each game
    faulty:interrupt=N   raise KeyboardInterrupt at its N-th move in all
    faulty:sleep=S       sleep S seconds before each move
"""
import time

from boardgames.ai.registry import register_ai
from boardgames.options import LIMITS, SEED, Option
from boardgames.players import RandomPlayer


class Faulty(RandomPlayer):
    def __init__(self, seed, crash, interrupt, sleep):
        super().__init__(seed, name="faulty")
        self.crash, self.interrupt, self.sleep = crash, interrupt, sleep
        self.in_game = self.in_all = 0

    def reset(self):
        super().reset()
        self.in_game = 0

    def choose(self, state, limits=None):
        self.in_game += 1
        self.in_all += 1
        if self.crash and self.in_game >= self.crash:
            raise RuntimeError("faulty AI crashed")
        if self.interrupt and self.in_all >= self.interrupt:
            raise KeyboardInterrupt
        if self.sleep:
            time.sleep(self.sleep)
        return super().choose(state, limits)


@register_ai(
    "faulty",
    help="random moves that crash or are interrupted (tests)",
    options=(
        *LIMITS,
        SEED,
        Option("crash", "whole", 0, low=0),
        Option("interrupt", "whole", 0, low=0),
        Option("sleep", "number", 0, low=0),
    ),
)
def faulty(game, *, seed, crash, interrupt, sleep, **limits):
    return Faulty(seed, crash, interrupt, sleep)
'''


@pytest.fixture(scope="session")
def faulty(tmp_path_factory) -> str:
    """The plugin file (one path for the session: plugins are imported once per process)."""
    path = tmp_path_factory.mktemp("plugins") / "faults_faulty_ai.py"
    path.write_text(textwrap.dedent(FAULTY_PLUGIN))
    return str(path)


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)




def tournament(out: Path, *args: str):
    base = ["tournament", "connect4", "--plugin", CONNECT4, "--workers", "0", "--out", str(out)]
    return invoke(*base, *args)


# --- 7 and 16: flags that make every game crash are refused; forfeits are visible ----------


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["tournament", *HADRON3, "-p", "random", "-p", "random", "--time", "nan"], "--time"),
        (["tournament", *HADRON3, "-p", "random", "-p", "random", "--time", "0"], "--time"),
        (["tournament", *HADRON3, "-p", "random", "-p", "random", "--game-timeout", "-1"],
         "--game-timeout"),
        (["tournament", *HADRON3, "-p", "random", "-p", "random", "--game-timeout", "nan"],
         "--game-timeout"),
        (["tournament", *HADRON3, "-p", "random", "-p", "random", "--games", "0"], "--games"),
        (["match", *HADRON3, "--time", "0"], "--time"),
        (["tune", *HADRON3, "--population", "1"], "--population"),
    ],
)  # fmt: skip
def test_flags_that_cannot_work_are_one_error_line(args, flag, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_error(invoke(*args), flag)
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


def test_tournament_out_an_existing_file_is_a_clear_error(tmp_path):
    file = tmp_path / "results"
    file.write_text("not a directory")
    assert_error(
        tournament(file, "-p", "random", "-p", "random"), "is a file, not a tournament directory"
    )
    assert_error(invoke("tournament", "--resume", str(file)), "is a file, not a tournament")
    assert file.read_text() == "not a directory"


def test_resume_of_a_directory_that_is_not_a_tournament(tmp_path):
    assert_error(invoke("tournament", "--resume", str(tmp_path)), "holds no tournament")
    assert list(tmp_path.iterdir()) == []  # no lock file left in a stranger's directory


def test_a_tournament_where_every_game_is_forfeited_fails(tmp_path, faulty):
    result = tournament(
        tmp_path / "t", "--plugin", faulty, "-p", "faulty:crash=1", "-p", "random", "--games", "2"
    )
    assert_error(result, "every game played was forfeited")
    assert "2 by crash" in result.stdout  # the table is still printed
    assert "warning: 2 of 2 games forfeited (2 by crash)" in result.stderr.replace("\n", " ")


def test_forfeits_are_reported_but_other_games_count(tmp_path, faulty):
    result = tournament(
        tmp_path / "t", "--plugin", faulty,
        "-p", "faulty:crash=1", "-p", "random", "-p", "random", "--games", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "warning: 4 of 6 games forfeited (4 by crash)" in result.stderr
    assert "faulty AI crashed" in result.stderr


# --- 10: damaged records and manifests are reported, not replayed silently --------------------


def unfinish(text: str) -> str:
    """A record's text with its result changed to unfinished."""
    for result in ("red", "yellow", "draw"):
        text = text.replace(f'"result": "{result}"', '"result": "none"')
    return text


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda text: text[: len(text) // 2], "not a JSON game record"),
        (lambda text: "", "not a JSON game record"),
        (unfinish, "result 'none' and end 'rules' disagree"),
        (lambda text: unfinish(text).replace('"end": "rules"', '"end": "interrupted"'),
         "not a finished game"),
    ],
)  # fmt: skip
def test_resume_reports_a_damaged_record(tmp_path, damage, reason):
    out = tmp_path / "t"
    first = tournament(out, "-p", "random", "-p", "random", "--games", "2", "--seed", "1")
    assert first.exit_code == 0, first.output
    victim = out / "games" / "00-01-0001.json"
    victim.write_text(damage(victim.read_text()))
    before = victim.read_text()
    again = invoke("tournament", "--resume", str(out), "--games", "4", "--workers", "0")
    assert_error(again, str(victim), reason, "delete it")
    assert victim.read_text() == before  # left for the user to look at
    assert json.loads((out / "tournament.json").read_text())["games_per_pair"] == 2
    victim.unlink()  # as the message says: the game is played again
    fixed = invoke("tournament", "--resume", str(out), "--workers", "0")
    assert fixed.exit_code == 0, fixed.output
    assert "1 of 2 games already played" in fixed.stderr
    assert len(TournamentDir(out).finished()) == 2


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_limit", "NaN", "time_limit must be"),
        ("game_timeout", "-1", "game_timeout must be"),
        ("games_per_pair", "0", "games_per_pair must be"),
        ("max_moves", "0", "max_moves must be"),
    ],
)
def test_resume_refuses_a_manifest_with_impossible_settings(tmp_path, field, value, message):
    out = tmp_path / "t"
    assert tournament(out, "-p", "random", "-p", "random", "--games", "1").exit_code == 0
    manifest = out / "tournament.json"
    data = json.loads(manifest.read_text())
    data[field] = "@@"
    manifest.write_text(json.dumps(data).replace('"@@"', value))
    assert_error(invoke("tournament", "--resume", str(out), "--workers", "0"), message)


def test_play_load_with_other_game_options_names_both(tmp_path):
    path = tmp_path / "r.json"
    game = get_game("hadron", rows=3, cols=3)
    GameRecord(game="hadron", params=dict(game.params), moves=["A1"]).save(path)
    common = ["play", "hadron", "--load", str(path), "--ai", "random", "--ai2", "random"]
    assert_error(invoke(*common, "--rows", "4"), str(path), "rows=3", "rows=4")
    assert_error(invoke(*common, "-o", "cols=5"), "cols=3", "cols=5")
    same = invoke(*common, "--rows", "3", "--no-color")  # agreeing options are fine
    assert same.exit_code == 0, same.output
    assert "result: " in same.stdout


# --- 12: one tournament per directory -----------------------------------------------------------


def test_a_locked_directory_refuses_a_second_run_and_resume(tmp_path):
    out = tmp_path / "t"
    assert tournament(out, "-p", "random", "-p", "random", "--games", "1").exit_code == 0
    with TournamentDir(out).lock():
        in_use = pytest.raises(TournamentInUseError, match=f"pid {os.getpid()}")
        with in_use, TournamentDir(out).lock():
            pass
        resumed = invoke("tournament", "--resume", str(out), "--games", "2", "--workers", "0")
        assert_error(resumed, f"{out} is in use by another tournament (pid {os.getpid()})")
        other = tmp_path / "new"
        with TournamentDir(other).lock(create=True):
            second = tournament(other, "-p", "random", "-p", "random", "--games", "1")
            assert_error(second, "is in use by another tournament")
        assert not (other / "tournament.json").exists()
    # Released at the end of the block: the resume runs now.
    resumed = invoke("tournament", "--resume", str(out), "--games", "2", "--workers", "0")
    assert resumed.exit_code == 0, resumed.output


def test_stale_temporary_files_are_removed_under_the_lock(tmp_path):
    out = tmp_path / "t"
    assert tournament(out, "-p", "random", "-p", "random", "--games", "1").exit_code == 0
    stale = out / "games" / ".00-01-0000.json.abcd1234.tmp"
    stale.write_text("{half a rec")
    assert invoke("tournament", "--resume", str(out), "--workers", "0").exit_code == 0
    assert not stale.exists()


# --- 11 and 12 with real processes: workers die with a SIGKILLed parent, which held the lock ----


def _reap(process: subprocess.Popen, workers: list[int]) -> None:
    """Kill the tournament and any worker a test left alive; close the pipes."""
    if process.poll() is None:
        process.kill()
    for pid in workers:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a parent that never reaps it is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_sigkill_of_the_tournament_kills_its_workers_and_frees_the_directory(tmp_path, faulty):
    out = tmp_path / "t"
    command = [
        sys.executable, "-c", "from boardgames.cli import main; main()", "tournament",
        "connect4", "--plugin", CONNECT4, "--plugin", faulty,
        "-p", "faulty:sleep=0.2", "-p", "random", "--games", "20", "--workers", "2",
        "--out", str(out),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and process.poll() is None:
            workers = _children(process.pid)
            if len(workers) >= 2 and (out / "tournament.json").exists():
                break
            time.sleep(0.05)
        assert len(workers) >= 2, process.stderr.read() if process.poll() is not None else ""
        # 12: while it runs, the directory is its own.
        resumed = invoke("tournament", "--resume", str(out), "--workers", "0")
        assert_error(resumed, f"in use by another tournament (pid {process.pid})")
        again = invoke(
            "tournament", "connect4", "--plugin", CONNECT4, "-p", "random", "-p", "random",
            "--out", str(out), "--workers", "0",
        )  # fmt: skip
        assert_error(again, "in use by another tournament")

        process.kill()  # SIGKILL: no handler, no cleanup in the parent
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers), "workers outlived their parent"
        # The pipes they shared with the parent are closed: reading them ends.
        process.stdout.read()
        process.stderr.read()
    finally:
        _reap(process, workers)
    with TournamentDir(out).lock():  # and nothing holds the lock any more
        pass


WATCHER_ONLY = """
import os, sys, time
from boardgames import parallel

parallel._set_parent_death_signal = lambda signum: None  # only the portable watcher is left
with parallel.process_executor(2) as pool:
    pool.submit(os.getpid).result()
    print(" ".join(str(pid) for pid in pool._processes), flush=True)
    time.sleep(60)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_workers_die_with_the_parent_without_the_linux_death_signal():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        [sys.executable, "-c", WATCHER_ONLY], env=env, stdout=subprocess.PIPE, text=True
    )
    workers: list[int] = []
    try:
        workers = [int(pid) for pid in process.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(pid) for pid in workers)
        process.kill()
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers), "workers outlived their parent"
    finally:
        _reap(process, workers)


# --- 13: outputs are checked before the work, errors name the target ------------------------


def test_atomic_write_errors_name_the_target_not_the_temporary_file(tmp_path):
    missing = tmp_path / "nodir" / "x.json"
    with pytest.raises(FileNotFoundError) as caught:
        atomic_write_text(missing, "x")
    assert caught.value.filename == str(missing)
    (tmp_path / "d").mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        atomic_write_text(tmp_path / "d", "x")
    assert caught.value.filename == str(tmp_path / "d")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]  # no temporary file left


def test_check_writable(tmp_path):
    check_writable(tmp_path / "new.json")
    with pytest.raises(OptionError, match="--out .*: it is a directory"):
        check_writable(tmp_path, "--out")
    with pytest.raises(OptionError, match="directory .*nodir does not exist"):
        check_writable(tmp_path / "nodir" / "x.json")
    (tmp_path / "file").write_text("")
    with pytest.raises(OptionError, match="is not a directory"):
        check_writable(tmp_path / "file" / "x.json")


class Counting(RandomPlayer):
    calls = 0

    def choose(self, state, limits=None):
        Counting.calls += 1
        return super().choose(state, limits)


@pytest.mark.parametrize("where", ["nodir/out.json", "adir"])
@pytest.mark.parametrize(
    ("command", "flag"),
    [
        (["match", *HADRON3, "--ai", "random", "--games", "3"], "--records"),
        (["play", *HADRON3, "--ai", "random", "--ai2", "random"], "--record"),
        (["tune", *HADRON3, "--population", "3", "--generations", "1"], "--output"),
    ],
)
def test_unwritable_outputs_fail_before_any_game(command, flag, where, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    monkeypatch.setattr("boardgames.players.RandomPlayer.choose", Counting.choose)
    Counting.calls = 0
    result = invoke(*command, flag, where)
    assert_error(result, f"cannot write {flag} {where}")
    assert ".tmp" not in result.stderr
    assert Counting.calls == 0  # not a single move was played
    assert "game 1" not in result.stderr and "plays" not in result.stdout


# --- 14: Ctrl-C in play and match keeps the record ------------------------------------------------


class Interrupter(Player):
    """Plays random moves, then 'presses Ctrl-C' at its n-th move."""

    def __init__(self, n: int, seed: int = 0) -> None:
        super().__init__("interrupter")
        self.n, self.rng = n, RandomPlayer(seed)

    def choose(self, state, limits=None):
        self.n -= 1
        if self.n <= 0:
            raise KeyboardInterrupt
        return self.rng.choose(state, limits)


def test_ctrl_c_during_a_move_gives_the_record_so_far():
    game = get_game("connect4")
    with pytest.raises(GameInterrupted) as caught:
        play_game(game, [RandomPlayer(1), Interrupter(4)])
    record = caught.value.record
    assert isinstance(caught.value, KeyboardInterrupt)  # still stops whatever runs the game
    # Four moves of the random player, three of the interrupter, whose fourth is Ctrl-C.
    assert len(record.moves) == 7 and len(record.times) == 7
    assert (record.result, record.end, record.reason) == ("none", End.INTERRUPTED, CTRL_C)
    assert record.winner is None
    assert len(GameRecord.from_json(record.to_json()).replay(game).history) == 7


def test_ctrl_c_in_on_move_or_at_a_prompt_is_an_interruption_too():
    game = get_game("connect4")
    calls = []

    def on_move(state, move, player):
        calls.append(move)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(GameInterrupted) as caught:
        play_game(game, [RandomPlayer(1), RandomPlayer(2)], on_move=on_move)
    assert len(caught.value.record.moves) == 3

    class CtrlCAtPrompt(Player):  # what HumanPlayer does with Ctrl-C at its prompt
        def choose(self, state, limits=None):
            raise QuitRequest("interrupted")

    with pytest.raises(GameInterrupted) as caught:
        play_game(game, [RandomPlayer(1), CtrlCAtPrompt("human")])
    assert caught.value.record.moves and caught.value.record.result == "none"


def test_play_ctrl_c_prints_the_result_keeps_the_record_and_exits_130(tmp_path, faulty):
    path = tmp_path / "r.json"
    result = invoke(
        "play", "connect4", "--plugin", CONNECT4, "--plugin", faulty, "--seed", "3",
        "--ai", "random", "--ai2", "faulty:interrupt=3", "--record", str(path), "--no-color",
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    assert "result: unfinished (Ctrl-C)" in result.stdout
    assert f"saved to {path}" in result.stdout
    assert result.stderr == ""  # the result line replaces `error: interrupted`
    record = GameRecord.load(path)
    assert (record.result, record.end, len(record.moves)) == ("none", End.INTERRUPTED, 5)
    assert record.replay().history  # the moves so far, replayable


@pytest.fixture(params=["terminal", "ignored"])
def sigint_of_the_run(request):
    """The test run's own SIGINT: as started from a terminal, or ignored as in
    a background job of a script (`nohup pytest &`), which children inherit."""
    if request.param == "terminal":
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_play_sigint_in_a_real_process(tmp_path, faulty, sigint_of_the_run):
    path = tmp_path / "r.json"
    command = [
        sys.executable, "-c", "from boardgames.cli import main; main()", "play", "connect4",
        "--plugin", CONNECT4, "--plugin", faulty, "--ai", "faulty:sleep=0.3",
        "--ai2", "faulty:sleep=0.3", "--seed", "1", "--no-color", "--record", str(path),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=sigint_default,
    )
    try:
        seen = []
        for line in process.stdout:  # click flushes every line
            seen.append(line)
            if " plays " in line:
                break
        process.send_signal(signal.SIGINT)
        rest, stderr = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "result: unfinished (Ctrl-C)" in rest
    assert stderr == ""  # the result line replaces `error: interrupted`
    record = GameRecord.load(path)
    assert record.result == "none" and len(record.moves) >= 1


def test_match_ctrl_c_keeps_the_games_so_far(tmp_path, faulty):
    records = tmp_path / "all.jsonl"
    # faulty makes 3 to 21 moves per connect4 game: the 22nd is in game 2 or later.
    result = invoke(
        "match", "connect4", "--plugin", CONNECT4, "--plugin", faulty, "--seed", "2",
        "--ai", "faulty:interrupt=22", "--ai2", "random", "--games", "50",
        "--records", str(records),
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(lines) >= 2
    assert all(r["result"] != "none" for r in lines[:-1])
    assert (lines[-1]["result"], lines[-1]["end"], lines[-1]["reason"]) == (
        "none", "interrupted", CTRL_C
    )
    assert "unfinished: 1" in result.stdout
    assert f"interrupted: {len(lines) - 1} of 50 games finished" in result.stderr


# --- the tuner: a generation of forfeits or unplayable games selects nothing ---------------------


def test_tuner_refuses_to_select_on_forfeited_or_unplayable_games(faulty):
    from boardgames.errors import BoardgamesError
    from boardgames.plugins import import_plugins
    from boardgames.tuning.selection import ParamRange, ParamSpace, natural_selection

    import_plugins([faulty])
    space = ParamSpace({"x": ParamRange(0, 1)})
    game = get_game("connect4")
    options = {"population": 3, "keep": 1, "generations": 2, "games_per_pair": 1}
    with pytest.raises(BoardgamesError, match="generation 0: every game was forfeited"):
        natural_selection(game, space, lambda params: "faulty:crash=1", **options)
    hadron = get_game("hadron", rows=3, cols=3)
    with pytest.raises(BoardgamesError, match="forfeited, first by crash: .*cannot build"):
        natural_selection(hadron, space, lambda params: "nosuchai", **options)
    # A healthy run still works.
    result = natural_selection(game, space, lambda params: "random", **options)
    assert len(result.history) == 2


def test_a_match_where_every_game_is_forfeited_fails(faulty):
    args = ["match", "hadron", "--size", "3", "--games", "2", "--plugin", faulty]
    result = invoke(*args, "--ai", "faulty:crash=1", "--ai2", "faulty:crash=1")
    assert_error(result, "every game was forfeited (2 of 2)")
    assert "forfeits: 2 crash" in result.stdout  # the summary still comes first
    assert invoke(*args, "--ai", "faulty:crash=1", "--ai2", "random").exit_code == 2
    assert invoke(*args, "--ai", "random", "--ai2", "random").exit_code == 0
