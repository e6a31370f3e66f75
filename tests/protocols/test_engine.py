"""The engine protocol, driven over StringIO exactly as a referee would."""

from __future__ import annotations

import io

import connect_four  # noqa: F401  (registers connect4)
import pytest

from boardgames.protocols.engine import EngineSession
from boardgames.registry import game_names, get_game
from support.builtin_games import BUILTIN_GAMES


def run(commands: str, game=None) -> list[tuple[bool, str]]:
    """Run a session; return (ok, result text) per response."""
    out = io.StringIO()
    code = EngineSession(io.StringIO(commands), out, game).run()
    assert code == 0
    text = out.getvalue()
    assert text.endswith("\n\n") or text == ""
    responses = []
    for block in text[:-2].split("\n\n") if text else []:
        assert block[:2] in ("= ", "? "), block
        if block.startswith("? "):
            assert "\n" not in block, "errors are one line"
        responses.append((block.startswith("= "), block[2:]))
    return responses


def results(commands: str, game=None) -> list[str]:
    responses = run(commands, game)
    assert all(ok for ok, _ in responses), responses
    return [r for _, r in responses]


def test_a_short_game_of_connect_four():
    out = results(
        "game connect4\nplay d\nplay 4\nlegal\ntomove\nresult\nposition\nperft 2\nundo\nposition\n"
    )
    assert out == ["", "", "", "a b c d e f g", "red", "none", "d d", "49", "", "d"]


def test_comments_and_blank_lines_get_no_response():
    assert results("# a comment\n\n   \ngame connect4\n") == [""]


def test_board_is_one_response_without_empty_lines():
    board = results("game connect4\nplay d\nboard\n")[-1]
    assert board == str(get_game("connect4").replay(["d"]))


def test_win_and_game_over():
    out = results("game connect4\n" + "play a\nplay b\n" * 3 + "play a\ntomove\nresult\nlegal\n")
    assert out[-3:] == ["none", "red", ""]
    ok, reason = run("game connect4\n" + "play a\nplay b\n" * 3 + "play a\nplay c\n")[-1]
    assert not ok and "the game is over" in reason


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("play z", "cannot parse 'z'"),
        ("play", "usage: play MOVE"),
        ("foo", "unknown command: foo"),
        ("perft x", "whole number"),
        ("perft -1", ">= 0"),
        ("eval nosuch", "unknown evaluator 'nosuch'"),
        ("genmove ai=nosuch", "unknown AI 'nosuch'"),
        ("genmove depth", "expected key=value"),
        ("genmove depth=0", "depth must be"),
        ("list colours", "unknown list"),
        ("game nosuch", "unknown game 'nosuch'"),
        ("game connect4 size=x", "whole number"),
        ("game connect4 size=7", "has no option size"),
        ("load /nonexistent/file.txt", "cannot read /nonexistent/file.txt"),
        ("score", "keeps no score"),
        ("reset now", "usage: reset"),
    ],
)
def test_bad_commands_fail_and_change_nothing(command, reason):
    script = f"game connect4\nplay d\nplay c\n{command}\nposition\ntomove\n"
    responses = run(script)
    ok, text = responses[3]
    assert not ok and reason in text
    assert responses[4:] == [(True, "d c"), (True, "red")]


def test_undo_past_the_start_fails():
    ok, text = run("game connect4\nundo\n")[1]
    assert not ok and "no move to take back" in text


def test_a_full_column_is_an_illegal_move():
    responses = run("game connect4\n" + "play a\n" * 6 + "play a\nposition\n")
    assert responses[7] == (False, "illegal move: a (column full)")
    assert responses[8] == (True, "a a a a a a")


def test_commands_before_a_game_ask_for_one():
    ok, text = run("legal\n")[0]
    assert not ok and "no game" in text
    assert results("list games\n")[0].split() == game_names()


def test_engine_started_with_a_game():
    assert results("tomove\n", get_game("connect4")) == ["red"]


def test_reset_and_quit_stop_reading():
    responses = run("game connect4\nplay d\nreset\nposition\nquit\nplay d\n")
    assert responses == [(True, "")] * 3 + [(True, ""), (True, "")]


def test_genmove_plays_a_legal_move_for_the_side_to_move():
    out = results("game connect4\ngenmove ai=random seed=3\nposition\ntomove\n")
    assert out[2] == out[1] and out[1] in "abcdefg"
    assert out[3] == "yellow"


def test_genmove_with_the_default_search():
    pytest.importorskip("boardgames.search")
    out = results("game connect4\nplay d\ngenmove depth=2\nposition\n")
    assert out[3] == f"d {out[2]}"


def test_eval_is_a_number_from_the_side_to_move():
    out = results("game connect4\nplay d\neval default\nplay c\neval default\n")
    assert float(out[2]) == -1.0 and float(out[4]) == 1.0


def test_list_ai_and_eval():
    out = results("game connect4\nlist ai\nlist eval\n")
    assert {"random", "minimax", "alphabeta", "negascout", "mcts", "default"} <= set(out[1].split())
    assert out[2] == "default"


def test_load_a_position_file(tmp_path):
    path = tmp_path / "pos.txt"
    path.write_text("d c d\n")
    assert results(f"game connect4\nload {path}\nposition\ntomove\n")[2:] == ["d c d", "yellow"]
    bad = tmp_path / "bad.txt"
    bad.write_text("d q\n")
    responses = run(f"game connect4\nplay e\nload {bad}\nposition\n")
    assert not responses[2][0] and "cannot parse 'q'" in responses[2][1]
    assert responses[3] == (True, "e")


def test_output_is_flushed_after_every_response():
    class Counting(io.StringIO):
        flushes = 0

        def flush(self):
            Counting.flushes += 1

    EngineSession(io.StringIO("game connect4\nplay q\nquit\n"), Counting()).run()
    assert Counting.flushes >= 3


def test_every_builtin_game_is_registered():
    assert set(BUILTIN_GAMES) <= set(game_names())


@pytest.mark.parametrize("name", [*BUILTIN_GAMES, "connect4"])
def test_every_game_speaks_the_protocol(name):
    """Generic session on each registered game that loads in this tree."""
    game = get_game(name)
    legal = results(f"game {name}\nlegal\n")[1].split()
    assert legal == [game.format_move(m) for m in sorted(game.new_state().legal_moves())]
    first = legal[0]
    out = results(
        f"game {name}\nplay {first}\nposition\nperft 1\nundo\nposition\ntomove\nresult\nboard\n"
        "eval default\ngenmove ai=random seed=1\n"
    )
    after = game.replay([first])
    assert out[3] == str(len(after.legal_moves()))
    assert game.parse_position(out[5]).to_text() == game.new_state().to_text()
    assert out[6] == game.player_names[0] and out[7] == "none"
    float(out[9])
    if game.scored:
        assert len(results(f"game {name}\nscore\n")[1].split()) == 2
    assert not run(f"game {name}\nplay ???\n")[1][0]


@pytest.mark.parametrize("name", [*BUILTIN_GAMES, "connect4"])
def test_position_survives_the_framing_and_loads_back(name, tmp_path):
    game = get_game(name)
    state = game.new_state()
    for _ in range(3):
        if state.is_over():
            break
        state.play(sorted(state.legal_moves())[-1])
    moves = " ".join(game.format_move(m) for m in state.history)
    script = f"game {name}\n" + "".join(f"play {m}\n" for m in moves.split()) + "position\n"
    text = results(script)[-1]
    path = tmp_path / "position.txt"
    path.write_text(text + "\n")
    assert results(f"game {name}\nload {path}\nposition\n")[-1] == text


def test_a_real_pipe_gets_each_answer_before_the_next_command():
    """The engine answers (and flushes) each line while its stdin stays open."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    plugin = Path(connect_four.__file__)
    env = dict(os.environ, BOARDGAMES_PLUGINS=str(plugin))
    engine = subprocess.Popen(
        [sys.executable, "-c", "from boardgames.cli import main; main()", "engine", "connect4"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:

        def ask(command):
            engine.stdin.write(command + "\n")
            engine.stdin.flush()
            lines = []
            while (line := engine.stdout.readline()) not in ("\n", ""):
                lines.append(line.rstrip("\n"))
            return lines

        assert ask("play d") == ["= "]
        assert ask("tomove") == ["= yellow"]
        assert ask("play h")[0].startswith("? cannot parse 'h'")
        assert ask("quit") == ["= "]
        assert engine.wait(timeout=30) == 0
    finally:
        engine.kill()


def test_genmove_reuses_its_player_within_a_game():
    session = EngineSession(io.StringIO(), io.StringIO())
    for line in ("game connect4", "genmove ai=random seed=4", "genmove ai=random seed=4"):
        assert session.handle(line).startswith("= ")
    assert len(session.players) == 1
    session.handle("game connect4")
    assert session.players == {}


def test_genmove_searches_in_parallel_and_its_helpers_end_with_the_game_and_the_session():
    """`genmove threads=2`: a parallel search, whose helper processes end when
    the game changes and when the session ends."""
    import multiprocessing

    before = set(multiprocessing.active_children())
    commands = io.StringIO("game squatter size=5\ngenmove depth=3 threads=2\n"
                           "genmove ai=alphabeta depth=3 threads=2\nquit\n")
    session = EngineSession(commands, io.StringIO())
    assert session.handle("game squatter size=5").startswith("= ")
    for _ in range(2):
        line = "genmove ai=alphabeta depth=3 threads=2"
        assert session.handle(line).startswith("= ")
    assert len(set(multiprocessing.active_children()) - before) == 1  # one helper, kept
    session.handle("game squatter size=5")
    assert not set(multiprocessing.active_children()) - before
    session.run()
    assert session.output.getvalue().count("= ") == 4, session.output.getvalue()
    assert not set(multiprocessing.active_children()) - before


def test_load_adopts_the_size_the_file_gives():
    from pathlib import Path

    board = Path(__file__).resolve().parents[1] / "data" / "squatter" / "t07_asu_black14_7x7.txt"
    if not board.exists():
        pytest.skip("squatter sample boards not in this tree")
    out = results(f"game squatter size=6\nload {board}\nboard\nresult\nlegal\n")
    assert out[2].splitlines()[0].split() == [str(i) for i in range(1, 8)]  # a 7 x 7 board
    assert out[3] in ("white", "black", "draw") and out[4] == ""


# --- version 2: what a runner needs ---------------------------------------------------------


def test_the_handshake_names_the_version_and_the_engine():
    from boardgames.protocols.engine import PROTOCOL, engine_version

    assert results("protocol\nname\nversion\n") == [str(PROTOCOL), "boardgames", engine_version()]
    assert PROTOCOL == 2 and engine_version()


def test_moves_sets_the_position_from_the_start_or_changes_nothing():
    out = results("game connect4\nplay a\nmoves d d e\nposition\nmoves\nposition\ntomove\n")
    assert out[2:] == ["", "d d e", "", "", "red"]  # no moves: the start
    responses = run("game connect4\nmoves d d\nmoves a b zz\nmoves a a a a a a a\nposition\n")
    assert not responses[2][0] and responses[2][1].startswith("move 3 ('zz'): cannot parse")
    assert not responses[3][0] and responses[3][1].startswith("move 7 ('a'): illegal move")
    assert responses[4] == (True, "d d")  # the failed moves changed nothing


def test_genmove_takes_the_move_limit_and_the_clock_as_limits_not_as_ai_options():
    session = EngineSession(io.StringIO(), io.StringIO())
    session.handle("game connect4")
    for line in ("genmove ai=random seed=1 time=0.5", "genmove ai=random seed=1 time=0.2 left=3",
                 "genmove ai=random seed=1 left=2.5 inc=0.1", "genmove ai=random seed=1"):
        assert session.handle(line).startswith("= "), line
    assert len(session.players) == 1  # one player: the limits change, the AI does not
    for bad in ("genmove time=0", "genmove left=-1", "genmove inc=nan", "genmove time=fast"):
        assert session.handle(bad).startswith("? "), bad
    assert session.handle("genmove ai=program:ls").startswith("? ai must be the name of one")


def test_a_clock_alone_gives_genmove_a_share_of_it():
    import time

    session = EngineSession(io.StringIO(), io.StringIO())
    session.handle("game connect4")
    started = time.perf_counter()
    assert session.handle("genmove ai=alphabeta left=0.4").startswith("= ")
    assert time.perf_counter() - started < 0.4  # a share of the 0.4 s left, not a second


def test_info_lines_come_before_the_answer_once_the_runner_speaks_version_2():
    commands = "game connect4\ngenmove ai=alphabeta depth=3\n"
    quiet = EngineSession(io.StringIO(commands), io.StringIO())
    quiet.run()
    assert "info" not in quiet.output.getvalue()  # a version 1 driver gets no info lines
    out = io.StringIO()
    EngineSession(io.StringIO("protocol\n" + commands), out).run()
    answer = out.getvalue().split("\n\n")[2].splitlines()
    infos, last = answer[:-1], answer[-1]
    assert [line.split()[1] for line in infos] == ["depth=1", "depth=2", "depth=3"]
    assert all(line.startswith("info ") and " pv=" in line for line in infos)
    assert last.startswith("= ") and infos[-1].split("pv=")[1].split()[0] == last[2:]
