"""External programs as players (boardgames.programs): the runner's side of the
engine protocol, every fault a forfeit with its reason, a restart after a
crash, the logs, bad specs, and no process left behind however the runner
ends (the process table is checked, see program_checks)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.ai import make_player, parse_spec
from boardgames.budget import Limits
from boardgames.cli import main
from boardgames.errors import PlayerFault, ProgramError
from boardgames.game import End
from boardgames.match.play import play_game, play_match
from boardgames.players import RandomPlayer
from boardgames.programs import reaper
from boardgames.programs.player import STARTUP_ENV, ProgramPlayer
from boardgames.programs.spec import program_argv
from boardgames.programs.wire import parse_info
from boardgames.registry import get_game
from support.cli_checks import assert_error
from support.processes import sigint_default
from support.program_checks import (
    EXAMPLE,
    example_spec,
    faulty,
    runs,
    wait_until_gone,
    wait_until_no_marker,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

DOTS = get_game("dots", rows=2, cols=2)  # 12 edges: short games


def test_a_program_plays_a_match_and_reports_its_search(tmp_path):
    log = tmp_path / "engine.log"
    player = ProgramPlayer(DOTS, [sys.executable, str(EXAMPLE)], log=log)
    assert (player.protocol, player.engine_name, player.engine_version) == (
        2, "dots-greedy (Python)", "1.0"
    )
    try:
        summary = play_match(DOTS, player, "random", games=4, time_limit=1.0, seed=3)
        assert summary.games == 4 and not summary.forfeits and not summary.unfinished
        result = player.last_result  # from the engine's info line
        assert result is not None and result.algorithm == "program" and result.depth == 1
        pid = player._program.process.pid
    finally:
        player.close()
    assert not Path(f"/proc/{pid}").exists()  # ended and reaped: not even a zombie
    text = log.read_text()
    assert f"started (pid {pid})" in text and "--- ended: exit code 0" in text


@pytest.mark.parametrize(
    "fault, end, says",
    [
        ("illegal", End.ILLEGAL, "illegal move"),
        ("malformed", End.MALFORMED, "answered '= banana'"),
        ("late", End.TIMEOUT, "took"),
        ("hang", End.HANG, "gave no answer to 'genmove time=0.2' within 1.2 s"),
        ("crash", End.CRASH, "exited (exit code 3) during 'genmove time=0.2'; its stderr ends"),
        ("closed", End.CRASH, "closed its output during 'genmove"),
        ("flood", End.MALFORMED, "flooded its output"),
    ],
)
def test_every_fault_is_a_forfeit_with_its_reason_and_leaves_no_process(
    tmp_path, fault, end, says
):
    player = make_player(DOTS, faulty(tmp_path, fault), log=tmp_path / "faulty.log")
    try:
        record = play_game(DOTS, [RandomPlayer(seed=1), player], time_limit=0.2)
    finally:
        player.close()
    assert (record.end, record.winner) == (end, 0), record.reason
    assert says in record.reason and record.reason.startswith(player.name)
    assert not wait_until_gone(tmp_path)  # the program, its child, no zombie
    if fault == "flood":
        log = (tmp_path / "faulty.log").read_text()
        assert "e" * 1000 in log and len(log) < 2 * 100_000  # stderr kept, bounded


def test_the_faults_as_the_referee_sees_them_are_player_faults(tmp_path):
    player = make_player(DOTS, faulty(tmp_path, "malformed"), log=tmp_path / "log")
    state = DOTS.new_state()
    try:
        with pytest.raises(PlayerFault) as caught:
            player.choose(state, Limits(time=1.0))
        assert caught.value.end == "malformed"
        assert player._program is None  # killed at the fault; the next game starts it again
    finally:
        player.close()


def test_a_crashed_program_is_started_again_for_the_next_game(tmp_path):
    spec = faulty(tmp_path, "once-crash")
    summary = play_match(DOTS, spec, "random", games=3, time_limit=1.0, seed=1)
    ends = [record.end for record in summary.records]
    assert ends[0] is End.CRASH and ends[1:] == [End.RULES, End.RULES]
    assert [run.fault for run in runs(tmp_path)] == ["crash", "none"]
    assert not wait_until_gone(tmp_path)  # play_match closed the player it built


def test_a_clock_reaches_the_program_as_time_left_and_increment(tmp_path):
    log = tmp_path / "log"
    player = make_player(DOTS, faulty(tmp_path, "none"), log=log)
    try:
        record = play_game(DOTS, [player, RandomPlayer(seed=2)], clock="5+0.25")
    finally:
        player.close()
    assert record.end is End.RULES
    genmoves = [line for line in log.read_text().splitlines() if line.startswith("< genmove")]
    first = dict(word.split("=") for word in genmoves[0].split()[2:])
    assert float(first["left"]) == 5 and float(first["inc"]) == 0.25
    assert 0 < float(first["time"]) < 5  # the manager's share of the clock
    moves = [line for line in log.read_text().splitlines() if line.startswith("< moves")]
    assert moves[0] == "< moves" and len(moves[-1].split()) > 2  # the moves from the start


def test_a_program_s_own_limits_and_the_default_second():
    player = object.__new__(ProgramPlayer)  # the limits only: no program started
    player.limits = Limits(depth=6)
    player.patience = 60.0
    assert player._genmove(Limits(time=0.5, left=20, increment=0.1)) == (
        "genmove time=0.5 left=20 inc=0.1 depth=6", 0.5, 22.0
    )
    assert player._genmove(Limits(time=4.0))[1:] == (4.0, 6.0)
    assert player._genmove(Limits()) == ("genmove depth=6", None, 60.0)
    player.limits = Limits()
    assert player._genmove(Limits()) == ("genmove time=1", 1.0, 2.0)


def test_info_lines_are_read_leniently():
    game = get_game("squatter", size=6)
    result = parse_info(game, "info depth=4 score=-2.5 nodes=900 time=0.25 pv=C3 D4 zz E5", 9.0)
    assert (result.depth, result.score, result.nodes, result.time) == (4, -2.5, 900, 0.25)
    assert [game.format_move(m) for m in result.pv] == ["C3", "D4"]  # up to the first bad move
    assert parse_info(game, "info depth=x score=nan pv=", 1.0) is None
    assert parse_info(game, "info nodes=12", 1.5).time == 1.5


# --- bad specs ---------------------------------------------------------------------------------


def test_a_spec_is_a_command_line_not_options():
    assert parse_spec("program:./engine --level=3,fast") == (
        "program", {"command": "./engine --level=3,fast"}
    )
    assert program_argv("program:java -cp 'my dir' Engine") == ["java", "-cp", "my dir", "Engine"]
    assert parse_spec("PROGRAM:x")[0] == "program"


@pytest.fixture
def scripts(tmp_path):
    """Small programs: one not executable, one that answers version 1 only."""
    plain = tmp_path / "plain.py"
    plain.write_text("print('hello')\n")
    old = tmp_path / "old.sh"
    old.write_text(
        "#!/bin/sh\nwhile read line; do printf '? unknown command: %s\\n\\n' $line; done\n"
    )
    old.chmod(0o755)
    return {"plain": plain, "old": old}


@pytest.mark.parametrize(
    "command, says",
    [
        ("/no/such/engine", "program '/no/such/engine': no such file"),
        ("no-such-engine-42", "'no-such-engine-42' not found on the PATH"),
        ("{plain}", "is not executable (chmod +x it"),
        ("{old}", "does not speak the engine protocol version 2: it answered '? unknown command"),
        ("true", "exited (exit code 0) before answering 'protocol'"),
        ("cat", "answered 'protocol' to 'protocol', not '= ...' or '? ...'"),
        ("sleep 30", "gave no answer to 'protocol' within 0.3 s of starting"),
        (f"{sys.executable} {EXAMPLE}", "cannot play squatter size=6: it answered"),
        ("", "give the program's command after 'program:'"),
        ("'engine", "bad program command"),
    ],
)
def test_a_bad_program_is_one_clear_error(scripts, monkeypatch, command, says):
    monkeypatch.setenv(STARTUP_ENV, "0.3")
    command = command.format(**scripts)
    with pytest.raises(ProgramError, match=None) as caught:
        make_player(get_game("squatter", size=6), f"program:{command}")
    assert says in str(caught.value)


def test_a_program_takes_no_library_options():
    with pytest.raises(ProgramError, match="params='w.json' is for the library's AIs"):
        make_player(DOTS, example_spec(), params="w.json")


@pytest.mark.parametrize(
    "command, says",
    [
        ("/no/such/engine", "no such file"),
        ("{plain}", "is not executable"),
        ("sleep 30", "gave no answer to 'protocol'"),
        ("'engine", "bad program command"),
    ],
)
def test_the_commands_say_so_in_one_line(scripts, monkeypatch, command, says):
    monkeypatch.setenv(STARTUP_ENV, "0.3")
    spec = f"program:{command.format(**scripts)}"
    for args in (["match", "dots", "--ai", spec, "--games", "1"],
                 ["play", "dots", "--ai", "random", "--ai2", spec]):
        assert_error(CliRunner().invoke(main, args), says)


# --- the runner's end ------------------------------------------------------------------------

RUNNER = """
import sys
import tempfile
from boardgames.match.play import play_match
from boardgames.registry import get_game
play_match(get_game("dots", rows=2, cols=2), sys.argv[1], "random", games=3, time_limit=60)
"""


def _runner_with_a_hung_program(folder: Path) -> subprocess.Popen[bytes]:
    """A runner whose program hangs in its first move (and ignores quit and SIGTERM)."""
    process = subprocess.Popen(
        [sys.executable, "-c", RUNNER, faulty(folder, "hang")], preexec_fn=sigint_default,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while not runs(folder) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # into its move
    assert runs(folder), process.stderr.read() if process.poll() is not None else "no run"
    return process


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_no_program_outlives_its_runner(tmp_path, how):
    """Ctrl-C (cleanup runs), SIGTERM and SIGKILL (no cleanup: the reaper ends the group)."""
    runner = _runner_with_a_hung_program(tmp_path)
    try:
        runner.send_signal(how)
        runner.wait(timeout=30)
    finally:
        runner.kill()
    assert not wait_until_gone(tmp_path)


def test_an_exception_in_the_runner_ends_its_programs(tmp_path):
    def fail(index, record, summary):
        raise RuntimeError("the runner fails")

    with pytest.raises(RuntimeError):
        play_match(DOTS, faulty(tmp_path, "none"), "random", games=2, on_game=fail)
    assert not wait_until_gone(tmp_path)


def test_a_runner_killed_as_its_program_starts_leaves_no_program(tmp_path):
    """Killed after the program's fork, before the runner's own bookkeeping:
    the program told the reaper of itself before it ran."""
    faults = tmp_path / "faults"
    faults.mkdir()
    argv = program_argv(faulty(faults, "none"))
    code = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from boardgames.programs import process, reaper
        reaper.register = lambda group: os.kill(os.getpid(), signal.SIGKILL)
        process.Program({argv!r}, Path({str(tmp_path / "log")!r}))
    """)
    runner = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert runner.returncode == -signal.SIGKILL, runner.stderr
    assert not wait_until_no_marker(str(faults))
    assert not wait_until_gone(faults)


def test_the_reaper_ends_with_its_runner():
    code = textwrap.dedent(f"""
        import sys
        from boardgames.ai import make_player
        from boardgames.programs import reaper
        from boardgames.registry import get_game
        player = make_player(get_game("dots"), {example_spec()!r})
        print(reaper.reaper_pid(), flush=True)
        player.close()
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(pid)


def _running(pid: int) -> bool:
    """Whether `pid` runs (not gone, not a zombie waiting for init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_a_forked_child_starts_a_reaper_of_its_own():
    player = make_player(DOTS, example_spec())
    try:
        ours = reaper.reaper_pid()
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover  (the child)
            other = make_player(DOTS, example_spec())
            os.write(write, f"{reaper.reaper_pid()}\n".encode())
            other.close()
            os._exit(0)
        os.close(write)
        theirs = int(os.read(read, 100).split()[0])
        os.waitpid(child, 0)
        assert ours is not None and theirs != ours and reaper.reaper_pid() == ours
    finally:
        player.close()


def test_a_board_without_its_moves_cannot_be_given_to_a_program(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(get_game("squatter", size=6).replay(["C3", "D4"]).to_text())
    args = ["play", "squatter", "--size", "6", "--ai", "program:cat", "--load", str(board)]
    assert_error(CliRunner().invoke(main, args), "was not reached from the start")


@pytest.mark.parametrize(
    "code, says",
    [
        ("print('x' * 9000)", "a line of (over 8192|9000) bytes"),
        ("import sys\nwhile True: sys.stdout.write('\\n')", "over 10000 lines for one answer"),
        ("import sys\nwhile True: sys.stdout.write('x' * 4000 + '\\n')", "over 1048576 bytes"),
    ],
)
def test_a_program_s_output_is_read_within_bounds(tmp_path, code, says):
    from boardgames.programs.process import Flood, Program

    program = Program([sys.executable, "-c", code], tmp_path / "log")
    try:
        program.start_answer()
        with pytest.raises(Flood, match=says):
            while program.read_line(time.monotonic() + 10) is not None:
                pass
    finally:
        program.kill()
    assert not Path(f"/proc/{program.group}").exists()


def test_old_program_logs_in_the_temporary_folder_are_removed(tmp_path, monkeypatch):
    from boardgames.programs import player as player_module

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(player_module, "_pruned", set())
    folder = tmp_path / player_module.LOG_FOLDER
    folder.mkdir()
    old, recent, other = folder / "old-1-1.log", folder / "recent-1-2.log", folder / "notes.txt"
    for path in (old, recent, other):
        path.write_text("x")
    month_ago = time.time() - 30 * 86400
    os.utime(old, (month_ago, month_ago))
    os.utime(other, (month_ago, month_ago))
    log = player_module.default_log("program:some engine")
    assert log.parent == folder and log.name.startswith("program-some-engine-")
    assert not old.exists() and recent.exists() and other.exists()
