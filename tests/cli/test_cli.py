"""The command line, through click's CliRunner, on Connect Four from examples/."""

from __future__ import annotations

import json
from pathlib import Path

import connect_four  # noqa: F401  (registers connect4)
import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.game import End
from boardgames.match.records import GameRecord
from boardgames.registry import get_game
from support.builtin_games import BUILTIN_GAMES
from support.cli_checks import assert_error

# A Connect Four position 35 moves deep (found by a seeded random game), with
# yellow to move and 7 empty cells: small enough to solve in a test.
LATE = "c e b c c a d d c c g f c f g d f f f f a g e a d a e d b g a a g d g"


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)




def negamax(state) -> int:
    """Exact value for the side to move (+1/0/-1), by brute force."""
    if state.is_over():
        winner = state.winner()
        return 0 if winner is None else (1 if winner == state.to_move else -1)
    best = -2
    for move in state.legal_moves():
        state.make(move)
        best = max(best, -negamax(state))
        state.undo()
    return best


def test_list_shows_games_ais_and_evaluators():
    result = invoke("list")
    assert result.exit_code == 0
    assert "connect4: Connect Four (red vs yellow)" in result.output
    for ai in ("random", "minimax", "alphabeta", "negascout", "mcts", "default"):
        assert f"    {ai} " in result.output


def test_perft_counts_and_divides():
    result = invoke("perft", "connect4", "4")
    assert result.exit_code == 0
    assert "perft(4) = 2401" in result.output
    divided = invoke("perft", "connect4", "3", "--divide", "--moves", "a a a a a a")
    assert "b: 36" in divided.output and "a:" not in divided.output
    assert "perft(3) = 216" in divided.output


def test_perft_bad_input():
    assert_error(invoke("perft", "connect4", "2", "--moves", "d x"), "cannot parse 'x'")
    assert_error(invoke("perft", "nosuch", "2"), "unknown game 'nosuch'")
    assert_error(invoke("perft", "connect4", "2", "--size", "9"), "connect4 has no option size")
    assert_error(invoke("perft", "connect4", "2", "-o", "size"), "bad game option 'size'")
    assert_error(
        invoke("perft", "connect4", "x"), "depth must be a whole number >= 0, not 'x'", "--help"
    )
    assert_error(invoke("perft", "connect4"), "Missing argument 'DEPTH'")
    assert_error(invoke("match", "connect4", "--games", "0"), "--games")


def test_analyse_a_position_file(tmp_path):
    path = tmp_path / "pos.txt"
    path.write_text("d d c\n")
    result = invoke("analyse", "connect4", str(path))
    assert result.exit_code == 0
    game = get_game("connect4")
    assert result.output == game.analyse(game.replay("d d c")) + "\n"


def test_analyse_part_a_gives_the_course_answer():
    data = Path(__file__).resolve().parents[1] / "data"
    squatter = str(data / "squatter" / "t03_testCase3.txt")
    assert invoke("analyse", "squatter", squatter, "--part-a").output == "White\n4\n2\n"
    report = invoke("analyse", "squatter", squatter).output
    assert report.startswith("to move: none\n") and "score: 4 2" in report
    hexifence = str(data / "hexifence" / "nylonee_testcase2d_7_2_3.txt")
    assert invoke("analyse", "hexifence", hexifence, "--part-a").output == "7\n2\n3\n"


def test_analyse_bad_files(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("d d q\n")
    assert_error(invoke("analyse", "connect4", str(bad)), "cannot parse 'q'")
    assert_error(invoke("analyse", "connect4", str(tmp_path / "none.txt")), "none.txt")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    assert_error(invoke("analyse", "connect4", str(binary)), "not a text file")
    broken = tmp_path / "broken.json"
    broken.write_text("{ nope")
    assert_error(invoke("analyse", "connect4", str(broken)), "broken.json", "not a JSON")


def test_bestmove_reports_the_search(tmp_path):
    path = tmp_path / "pos.txt"
    path.write_text("a b a b a b\n")  # red wins at once in column a
    result = invoke("bestmove", "connect4", str(path), "--depth", "3")
    assert result.exit_code == 0, result.output
    assert "move:     a" in result.output
    for field in ("score:", "pv:", "depth:", "nodes/s"):
        assert field in result.output
    random = invoke("bestmove", "connect4", str(path), "--ai", "random", "--seed", "1")
    assert random.exit_code == 0 and random.output.startswith("move:")
    assert_error(invoke("bestmove", "connect4", str(path), "--ai", "alphabeta:depth=0"), "depth")
    assert_error(invoke("bestmove", "connect4", str(path), "--ai", "nosuch"), "unknown AI")


def test_solve_reports_from_the_first_players_view():
    state = get_game("connect4").replay(LATE.split())
    assert state.to_move == 1
    exact = -negamax(state.copy())  # first player's view
    result = invoke("solve", "connect4", "--moves", LATE, "--all")
    assert result.exit_code == 0, result.output
    lines = dict(line.split(": ", 1) for line in result.stdout.strip().splitlines())
    assert list(lines) == ["winner", "value", "best", "line", "nodes", "time"]
    assert int(lines["value"]) == exact
    assert lines["winner"] == {1: "first", 0: "draw", -1: "second"}[exact]
    end = state.copy()
    for move in lines["line"].split():  # a line of optimal play, to the end
        end.play(move)
    names = end.game.player_names
    assert end.is_over() and end.result() == {1: names[0], 0: "draw", -1: names[1]}[exact]
    for move in lines["best"].split():
        state.play(move)
        assert -negamax(state) == negamax(get_game("connect4").replay(LATE.split()))
        state.undo()


def test_solve_outcome_only():
    result = invoke("solve", "dots", "--rows", "2", "--cols", "2", "--outcome")
    assert result.exit_code == 0, result.output
    lines = dict(line.split(": ", 1) for line in result.stdout.strip().splitlines())
    assert lines["winner"] == "first" and lines["value"] == "1"  # exact margin: +2
    for moves in ("B2", "A2 A1 C2 A3 B1 C3", "A1 A2 A3 C2 C1 B1 C3"):  # draw, win, loss
        args = ("solve", "squatter", "--size", "3", "--moves", moves)
        exact, only = invoke(*args), invoke(*args, "--outcome")
        assert exact.exit_code == 0 and only.exit_code == 0, exact.output + only.output
        exact_value = int(exact.stdout.split("value: ")[1].split()[0])
        only_value = int(only.stdout.split("value: ")[1].split()[0])
        assert only_value == (exact_value > 0) - (exact_value < 0)


def test_solve_gives_up_cleanly():
    assert_error(invoke("solve", "connect4", "--time", "0.2"), "gave up")


def test_play_human_against_random_with_undo_save_and_quit(tmp_path):
    saved = tmp_path / "mid.json"
    final = tmp_path / "final.json"
    script = f"zz\nd\nundo\nd\nsave {saved}\nquit\n"
    result = invoke(
        "play", "connect4", "--ai", "random", "--seed", "2", "--record", str(final), input=script
    )
    assert result.exit_code == 0, result.output
    assert "cannot parse 'zz'" in result.output
    assert "took back 2 moves" in result.output
    assert f"saved to {saved}" in result.output
    assert "result: unfinished (human quit)" in result.output
    mid, end = GameRecord.load(saved), GameRecord.load(final)
    assert mid.moves == end.moves and len(end.moves) == 2 and end.moves[0] == "d"
    assert end.players == ["human", "random"]


def test_play_continues_a_saved_game(tmp_path):
    path = tmp_path / "game.json"
    GameRecord(game="connect4", moves=["a", "b", "a", "b", "a", "b"]).save(path)
    result = invoke("play", "connect4", "--load", str(path), "--ai", "random", input="a\n")
    assert result.exit_code == 0, result.output
    assert "result: red wins" in result.output


def test_play_ai_against_ai_shows_search_details(tmp_path):
    record = tmp_path / "r.json"
    result = invoke(
        "play", "connect4", "--ai", "alphabeta:depth=2", "--ai2", "random",
        "--seed", "1", "--no-color", "--record", str(record),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "red (alphabeta:depth=2) plays" in result.output
    assert "depth 2" in result.output and "nodes" in result.output
    loaded = GameRecord.load(record)
    assert loaded.replay().is_over()
    assert result.output.strip().splitlines()[-2].startswith("result: ")


def test_play_bad_load_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "boardgames-record", "version": 1, "game": "connect4"}))
    assert_error(invoke("play", "connect4", "--load", str(path)), "missing field 'moves'")


def test_match_summary_and_records(tmp_path):
    records = tmp_path / "all.jsonl"
    result = invoke(
        "match", "connect4", "--ai", "random", "--ai2", "random", "--games", "4",
        "--seed", "3", "--opening", "2", "--records", str(records),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "match: random#1 vs random#2 at connect4, 4 games" in result.stdout
    assert result.stderr.count("game ") == 4  # progress on stderr
    lines = records.read_text().splitlines()
    assert len(lines) == 4 and all(GameRecord.from_json(line).game == "connect4" for line in lines)


def test_match_with_a_time_limit():
    result = invoke(
        "match", "connect4", "--ai", "default", "--ai2", "random",
        "--games", "2", "--time", "0.1", "--seed", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "forfeits" not in result.output  # the search respects the limit
    assert_error(invoke("match", "connect4", "--ai", "bogus:x"), "bad AI option")


def test_bench_prints_a_table():
    result = invoke("bench", "connect4", "--time", "0.2")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.strip().splitlines()
    assert header.split() == [
        "game", "position", "depth", "nodes", "nodes/s", "perft", "leaves/s", "how",
    ]  # fmt: skip
    name, label, depth, nodes, nps, pdepth, rate, how = rows[0].split()
    assert (name, label) == ("connect4", "start") and int(depth) >= 1 and int(pdepth) >= 1
    assert how == "negascout"
    assert "bench: connect4 start" in result.stderr
    assert_error(invoke("bench", "nosuch"), "unknown game")


def test_bench_shows_what_chose_each_move():
    """A move found without searching shows '-' (Andantino's default answering
    a forcing line with its only stopping move, not '1 node, 2242 nodes/s');
    a solver cut short shows nodes but no depth (not 'depth 0')."""
    result = invoke("bench", "andantino", "hexifence", "--time", "0.3")
    assert result.exit_code == 0, result.output
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in result.stdout.splitlines()[1:]}
    assert rows[("andantino", "middle-12")][:3] == ["-", "-", "-"]
    assert rows[("andantino", "middle-12")][-1] == "ladders"
    assert "andantino middle-12: the AI chose without searching (ladders)" in result.stderr
    # HexiFence's default: its exact solver has no depth; finished ("solve"),
    # the depth is the moves left; cut short (at the start, in 0.3 s), none.
    for (game, label), (depth, nodes, *_, how) in rows.items():
        assert depth != "0", (game, label)
        if game == "hexifence":
            assert int(nodes) > 0 and (depth == "-") == (how != "solve"), (label, depth, how)
    assert rows[("hexifence", "middle")][-1] == "solve"


def test_engine_command_speaks_the_protocol():
    result = invoke("engine", "connect4", input="play d\ntomove\nplay x\nquit\n")
    assert result.exit_code == 0
    assert result.output.startswith("= \n\n= yellow\n\n? cannot parse 'x'")
    without = invoke("engine", input="legal\n")
    assert without.exit_code == 0 and without.output.startswith("? no game")
    assert_error(invoke("engine", "nosuch"), "unknown game")


@pytest.mark.parametrize("command", ["analyse", "bestmove"])
def test_commands_accept_a_record_as_position(tmp_path, command):
    path = tmp_path / "g.json"
    GameRecord(game="connect4", moves=["d", "c"]).save(path)
    result = (
        invoke(command, "connect4", str(path), "--depth", "1")
        if command == "bestmove"
        else (invoke(command, "connect4", str(path)))
    )
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_commands_work_on_every_registered_game(name, tmp_path):
    """perft, analyse, bestmove and an AI-vs-AI game through the CLI, for each game."""
    from boardgames.game import perft

    game = get_game(name)
    result = invoke("perft", name, "2")
    assert result.exit_code == 0, result.output
    assert f"perft(2) = {perft(game.new_state(), 2)}" in result.output

    state = game.new_state()
    for _ in range(2):
        state.play(sorted(state.legal_moves())[0])
    path = tmp_path / "position.txt"
    path.write_text(state.to_text() + "\n")
    analysed = invoke("analyse", name, str(path))
    assert analysed.exit_code == 0, analysed.output
    assert analysed.output == game.analyse(game.parse_position(state.to_text())) + "\n"
    best = invoke("bestmove", name, str(path), "--ai", "alphabeta", "--depth", "1")
    assert best.exit_code == 0, best.output
    move = best.output.split()[1]
    assert game.parse_move(move) in state.legal_moves()

    record = tmp_path / "game.json"
    played = invoke(
        "play", name, "--ai", "random", "--ai2", "random", "--seed", "5", "--no-color",
        "--record", str(record),
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert GameRecord.load(record).replay().is_over()


def test_a_match_whose_games_stop_at_max_moves_is_not_all_forfeits(tmp_path):
    result = invoke(
        "match", "connect4", "--ai", "random", "--ai2", "random", "--games", "2",
        "--max-moves", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "unfinished: 2" in result.stdout and "forfeit" not in result.output


def test_end_of_game_lines():
    from boardgames.cli.play import describe_end

    game = get_game("connect4")
    start = game.new_state()
    forfeit = GameRecord.from_state(start).forfeit(start, 1, End.TIMEOUT, "slow took 2 s")
    assert describe_end(forfeit, game) == (
        "result: red wins (yellow loses by timeout: slow took 2 s)"
    )
    won = game.replay("a b a b a b a")
    assert describe_end(GameRecord.from_state(won), game) == "result: red wins"
    judged = GameRecord.from_state(start).finish(start, "stopped after 9 moves", draw=True)
    assert describe_end(judged, game) == "result: draw (stopped after 9 moves)"
    assert describe_end(GameRecord.from_state(start), game) == "result: unfinished"
    stopped = GameRecord.from_state(start, why="stopped after 9 moves")
    assert describe_end(stopped, game) == "result: unfinished (stopped after 9 moves)"
    squatter = get_game("squatter", size=3)
    board = squatter.replay("B2")
    crashed = GameRecord.from_state(board).forfeit(board, 1, End.CRASH, "b: ValueError")
    assert describe_end(crashed, squatter) == (
        "result: white wins (0-0, black loses by crash: b: ValueError)"
    )


def test_solve_uses_a_registered_solver_and_the_first_players_view():
    game = get_game("hadron", rows=3, cols=3)
    state = game.new_state()
    winning = set()
    for move in state.legal_moves():  # brute force: the moves after which black is lost
        state.make(move)
        if negamax(state) == -1:
            winning.add(game.format_move(move))
        state.undo()
    assert winning, "3 x 3 Hadron is a first-player win"
    start = invoke("solve", "hadron", "--rows", "3", "--cols", "3", "--all")
    assert start.exit_code == 0, start.output
    assert "winner: first\nvalue: 1\n" in start.stdout
    assert set(start.stdout.split("best: ")[1].splitlines()[0].split()) == winning
    # after a first move the second player, to move, is lost: still +1 for the first
    after = invoke("solve", "hadron", "--rows", "3", "--cols", "3", "--moves", "B2")
    assert "winner: first\nvalue: 1\nbest: -\n" in after.stdout


def test_plugins_register_games(tmp_path, monkeypatch):
    plugin = tmp_path / "more_games.py"
    plugin.write_text(
        "from connect_four import ConnectFour\n"
        "from boardgames.registry import register_game\n"
        "register_game('fourinarow', ConnectFour)\n"
    )
    result = invoke("perft", "fourinarow", "2", "--plugin", str(plugin))
    assert result.exit_code == 0, result.output
    assert "perft(2) = 49" in result.output
    # `list` shows every game it can, and each plugin that failed as not available
    for plugin, reason in ((str(tmp_path / "none.py"), "plugin file not found"),
                           ("no_such_module_xyz", "cannot import plugin")):
        result = invoke("list", "--plugin", plugin)
        assert result.exit_code == 0 and "andantino:" in result.output
        assert f"plugin not available ({reason}" in result.output
    monkeypatch.setenv("BOARDGAMES_PLUGINS", "no_such_module_xyz")
    assert "no_such_module_xyz" in invoke("list").output
    assert_error(invoke("perft", "hadron", "1"), "no_such_module_xyz")


def test_params_file_reaches_the_ai(tmp_path):
    """`--params FILE` gives --ai its parameters (e.g. tuned Aenigma weights)."""
    params = tmp_path / "tuned.json"
    params.write_text('{"best": {"w1_open": 0.9, "w2_open": 0.1, "t": 5}}')
    args = ["match", "hadron", "--size", "3", "--games", "2", "--depth", "1", "--seed", "1"]
    result = invoke(*args, "--ai", "aenigma", "--params", str(params))
    assert result.exit_code == 0, result.output
    assert "aenigma" in result.output
    assert_error(invoke(*args, "--ai", "aenigma", "--params", str(tmp_path / "missing.json")),
                 "missing.json")
    assert_error(invoke(*args, "--ai", "alphabeta", "--params", str(params)), "params")


def test_analyse_and_bestmove_refuse_game_options_that_disagree_with_the_file(tmp_path):
    path = tmp_path / "r.json"
    game = get_game("hadron", rows=3, cols=3)
    GameRecord(game="hadron", params=dict(game.params), moves=["A1"]).save(path)
    for command in ("analyse", "bestmove"):
        assert_error(invoke(command, "hadron", str(path), "--rows", "4"), "rows=3", "rows=4")
        assert_error(invoke(command, "hadron", str(path), "--size", "5"), "rows=5")
        assert invoke(command, "hadron", str(path), "--rows", "3", "--cols", "3").exit_code == 0


def test_python_dash_m_runs_the_command():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "boardgames", "list"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "andantino" in done.stdout and "Usage: boardgames" not in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "boardgames", "play", "nosuchgame"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown game 'nosuchgame'")
