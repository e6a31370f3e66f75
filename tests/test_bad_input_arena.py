"""Bad input the arena took silently: a record of another game in a tournament
directory (counted in the table), NaN move times in a record, two 'to move'
lines in a drawing, an empty output name, a --save path that is a file (found
out only after the first served game)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.errors import BadFileError, NotationError, OptionError
from boardgames.game import End
from boardgames.io import check_writable
from boardgames.match.records import GameRecord
from boardgames.registry import get_game
from boardgames.tournament.store import TournamentDir
from support import cli_checks


def assert_error(result, *fragments: str) -> None:
    cli_checks.assert_error(result, *fragments, alone=True)


@pytest.fixture
def tournament(tmp_path):
    return cli_checks.small_tournament(tmp_path / "t")


def _edit_json(path, **changes):
    """`path`'s JSON object with `changes` made, written back; returns `path`."""
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


def _edit_record(out, **changes):
    return _edit_json(out / "games" / "00-01-0000.json", **changes)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"game": "hadron", "params": {}, "moves": []}, "a record of hadron, not squatter"),
        ({"params": {"size": 4}, "moves": ["B2"]}, "of squatter size=4, not squatter size=3"),
    ],
    ids=["other game", "other size"],
)
def test_resume_refuses_a_record_of_another_game(tournament, changes, reason):
    summary = (tournament / "summary.json").read_text()
    path = _edit_record(tournament, **changes)
    with pytest.raises(BadFileError, match=reason):
        TournamentDir(tournament).finished()
    result = CliRunner().invoke(main, ["tournament", "--resume", str(tournament), "-w", "0"])
    assert_error(result, str(path), reason, "delete it")
    assert (tournament / "summary.json").read_text() == summary  # the table is not rewritten


def test_resume_still_reads_its_own_records(tournament):
    assert len(TournamentDir(tournament).finished()) == 2


@pytest.mark.parametrize("times", [[math.nan], [math.inf], [-1.0], [True]], ids=str)
def test_record_times_are_finite_seconds(times):
    record = GameRecord("squatter", {"size": 3}, moves=["B2"], times=times)
    with pytest.raises(BadFileError, match="times must be numbers of seconds"):
        GameRecord.from_json(record.to_json(), "r.json")


def test_a_drawing_with_two_to_move_lines_is_refused():
    game = get_game("dots", rows=1, cols=1)
    drawing = "+---+\n|   |\n+---+\n"
    assert game.parse_position(drawing + "to move: second\n").to_move == 1
    with pytest.raises(NotationError, match="unexpected text after the drawing"):
        game.parse_position(drawing + "to move: first\nto move: second\n")


def test_an_empty_output_name_is_refused():
    with pytest.raises(OptionError, match="empty file name"):
        check_writable("", "--records")
    args = ["match", "squatter", "--size", "3", "--ai", "random", "--ai2", "random"]
    result = CliRunner().invoke(main, [*args, "--games", "2", "--records", ""])
    assert_error(result, "cannot write --records: empty file name")


def test_serve_checks_its_save_directory_before_waiting_for_clients(tmp_path):
    """In a subprocess with a timeout: before the fix the server waited for clients."""
    file = tmp_path / "a-file"
    file.write_text("")
    command = [sys.executable, "-m", "boardgames", "serve", "hadron", "--port", "0", "-q"]
    done = subprocess.run(
        [*command, "--save", str(file)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: --save {file} is a file, not a directory"


def test_a_record_whose_start_is_another_board_is_refused(tmp_path):
    """A size=3 record with a 4 x 4 start position was replayed on the 4 x 4
    board, even with --size 3 on the command line."""
    start = "4\n" + "+ + + +\n" * 4
    record = GameRecord("squatter", {"size": 3}, moves=["D4"], start=start)
    with pytest.raises(NotationError, match="a start position of squatter size=4 in a record"):
        record.replay()
    path = tmp_path / "r.json"
    record.save(path)
    result = CliRunner().invoke(main, ["analyse", "squatter", "--size", "3", str(path)])
    assert_error(result, "a start position of squatter size=4 in a record of squatter size=3")
    same = GameRecord("squatter", {"size": 4}, moves=["D4"], start=start)
    assert same.replay().moves_text() == "D4"


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["tournament", "squatter", "-p", "random", "-p", "mcts", "--out", ""], "empty directory"),
        (["tournament", "--resume", ""], "empty directory name"),
        (["ladder", "squatter", "--rounds", "0", "--out", ""], "empty directory name"),
        (["tune", "hadron", "--output", ""], "cannot write --output: empty file name"),
    ],
    ids=["tournament", "resume", "ladder", "tune"],
)
def test_an_empty_directory_or_output_name_is_refused(tmp_path, monkeypatch, args, reason):
    """'' was taken as 'not given': the default name, and (tune) a whole run."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert_error(result, reason)
    assert list(tmp_path.iterdir()) == []  # nothing played, nothing written


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"scores": []}, "scores must be null or a list of two whole numbers"),
        ({"scores": ["x", "y"]}, "scores must be null or a list of two whole numbers"),
        ({"scores": [1, 2, 3]}, "scores must be null or a list of two whole numbers"),
        ({"scores": [True, 0]}, "scores must be null or a list of two whole numbers"),
        ({"result": "purple", "winner": None}, "result 'purple' and no winner disagree"),
        ({"result": "draw", "winner": 0}, "result 'draw' and winner 0 disagree"),
        ({"result": "draw", "winner": None, "end": "crash"}, "end 'crash' and no winner disagree"),
        ({"end": "interrupted"}, "and end 'interrupted' disagree"),
    ],
    ids=["empty", "text", "three", "bool", "no winner", "draw won", "drawn crash", "stopped"],
)
def test_record_outcome_fields_agree(tournament, changes, reason):
    """Each was taken: [] scores made summary() an IndexError, and a tournament
    counted 'purple' with no winner as a draw, 'draw' with a winner as a win,
    a player's crash as a draw and an interrupted game as finished."""
    path = _edit_record(tournament, **changes)
    with pytest.raises(BadFileError, match=re.escape(reason)):
        GameRecord.load(path)
    result = CliRunner().invoke(main, ["tournament", "--resume", str(tournament), "-w", "0"])
    assert_error(result, str(path), reason, "delete it")


def test_unfinished_and_finished_records_still_load():
    cases = (
        ("none", None, None, End.INTERRUPTED),
        ("draw", None, [0, 0], End.RULES),
        ("black", 1, [1, 3], End.RULES),
        ("white", 0, None, End.CRASH),
        ("draw", None, [2, 2], End.ADJUDICATION),
    )
    for result, winner, scores, end in cases:
        record = GameRecord(
            "squatter", {"size": 3}, result=result, winner=winner, scores=scores, end=end
        )
        assert GameRecord.from_json(record.to_json()) == record


def _edit_manifest(out, **changes):
    return _edit_json(out / "tournament.json", **changes)


@pytest.mark.parametrize(
    ("openings", "reason"),
    [
        (["A1 A2 A3 B1 B2 B3 C1 C2 C3"], "line 1: the game is over after this opening"),
        (["B2", "Z9"], "line 2: cannot parse 'Z9'"),
    ],
    ids=["over", "bad move"],
)
def test_resume_checks_the_manifests_openings(tournament, openings, reason):
    """A hand-edited opening that ends the game was played as 0-move games
    decided by the opening; a bad move failed every game one by one."""
    path = _edit_manifest(tournament, openings=openings)
    records = sorted(p.name for p in (tournament / "games").iterdir())
    args = ["tournament", "--resume", str(tournament), "-n", "4", "-w", "0"]
    assert_error(CliRunner().invoke(main, args), str(path), reason)
    assert sorted(p.name for p in (tournament / "games").iterdir()) == records  # none played


def test_resume_with_duplicate_labels_is_refused(tournament):
    path = _edit_manifest(tournament, labels=["a", "a"])
    with pytest.raises(BadFileError, match="give every player a different label"):
        TournamentDir(tournament).settings()
    assert_error(CliRunner().invoke(main, ["tournament", "--resume", str(tournament)]), str(path))


def test_resume_remakes_a_deleted_games_folder_before_playing(tournament):
    """Deleting games/ (to play everything again) made every record's save fail
    after its game was played."""
    for record in (tournament / "games").iterdir():
        record.unlink()
    (tournament / "games").rmdir()
    args = ["tournament", "--resume", str(tournament), "-w", "0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert len(TournamentDir(tournament).finished()) == 2


def test_resume_with_a_file_called_games_fails_before_playing(tournament):
    for record in (tournament / "games").iterdir():
        record.unlink()
    (tournament / "games").rmdir()
    (tournament / "games").write_text("")
    result = CliRunner().invoke(main, ["tournament", "--resume", str(tournament), "-w", "0"])
    assert_error(result, str(tournament / "games"))
    assert "game 1/" not in result.stderr and "games could not be played" not in result.stderr
