"""Game records: JSON round trip, atomic save, clear errors for bad files."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import connect_four  # noqa: F401  (registers connect4)
import pytest

from boardgames.errors import BoardgamesError, NotationError
from boardgames.game import End
from boardgames.io import atomic_write_text
from boardgames.match.records import VERSION, GameRecord
from boardgames.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
VERSION_1 = ROOT / "tests" / "data" / "records" / "version-1"


def sample() -> GameRecord:
    return GameRecord(
        game="connect4",
        players=["alice", "bob"],
        moves=["d", "d", "c", "e"],
        times=[0.1, 0.2, 0.3, 0.4],
        result="none",
    )


def test_round_trip_through_a_file(tmp_path):
    record = sample()
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    assert loaded.replay().history == get_game("connect4").replay(["d", "d", "c", "e"]).history


def test_record_from_a_start_position_replays_from_it():
    game = get_game("connect4")
    start = game.replay(["a", "b"])
    record = GameRecord(game="connect4", start=start.to_text(), moves=["c"])
    again = GameRecord.from_json(record.to_json())
    assert again.replay().history == [0, 1, 2]


def test_a_record_file_holds_one_record_or_json_lines(tmp_path):
    one, two = sample(), sample()
    two.players = ["carol", "dave"]
    path = tmp_path / "one.json"
    one.save(path)
    assert GameRecord.load_all(path) == [one]
    lines = tmp_path / "games.jsonl"  # what `match --records` writes
    lines.write_text(json.dumps(one.to_dict()) + "\n\n" + json.dumps(two.to_dict()) + "\n")
    assert GameRecord.load_all(lines) == [one, two]
    lines.write_text(json.dumps(one.to_dict()) + "\n" + '{"format": "boardgames-record"}\n')
    with pytest.raises(NotationError, match=r"games.jsonl, line 2: no \"version\" field"):
        GameRecord.load_all(lines)
    for text, reason in [
        ("{oops", "neither a JSON game record nor JSON lines"),
        ('{"games": 12}', "JSON, but not a game record"),
    ]:
        path.write_text(text)
        with pytest.raises(NotationError, match=reason):
            GameRecord.load_all(path)


def test_atomic_write_replaces_whole_file_and_leaves_no_temp(tmp_path):
    path = tmp_path / "f.txt"
    atomic_write_text(path, "old")
    atomic_write_text(path, "new text")
    assert path.read_text() == "new text"
    assert os.listdir(tmp_path) == ["f.txt"]


def test_atomic_write_keeps_old_file_when_writing_fails(tmp_path):
    path = tmp_path / "f.txt"
    atomic_write_text(path, "old")

    class Boom:
        def __str__(self):
            raise RuntimeError

    with pytest.raises(TypeError):
        atomic_write_text(path, Boom())  # type: ignore[arg-type]
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["f.txt"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json at all", "not a JSON game record"),
        ("[1, 2]", "not a game record"),
        ('{"format": "boardgames-record", "version": 99}', "unsupported record version"),
        ('{"format": "boardgames-record", "game": "squatter", "moves": []}', 'no "version" field'),
        ('{"format": "boardgames-record", "version": 1, "moves": []}', "missing field 'game'"),
        (
            '{"format": "boardgames-record", "version": 1, "game": "connect4", "moves": "d d"}',
            "field 'moves' has the wrong type",
        ),
        (
            '{"format": "boardgames-record", "version": 1, "game": "connect4", "moves": [3]}',
            "every move must be a string",
        ),
        (
            '{"format": "boardgames-record", "version": 1, "game": "connect4", "moves": [],'
            ' "reason": "bored"}',
            "unknown reason 'bored'",
        ),
        (
            '{"format": "boardgames-record", "version": 1, "game": "connect4", "moves": [],'
            ' "detail": 3}',
            "field 'detail' has the wrong type",
        ),
        (
            '{"format": "boardgames-record", "version": true, "game": "connect4", "moves": []}',
            "unsupported record version True",
        ),
        (
            '{"format": "boardgames-record", "version": 2, "game": "connect4", "moves": [],'
            ' "end": "bored"}',
            "unknown end 'bored'",
        ),
        (
            '{"format": "boardgames-record", "version": 2, "game": "connect4", "moves": [],'
            ' "end": "rules"}',
            "result 'none' and end 'rules' disagree",
        ),
        (
            '{"format": "boardgames-record", "version": 2, "game": "connect4", "moves": [],'
            ' "result": "red", "winner": 0, "end": "interrupted"}',
            "result 'red' and end 'interrupted' disagree",
        ),
        (
            '{"format": "boardgames-record", "version": 2, "game": "connect4", "moves": [],'
            ' "result": "draw", "end": "crash"}',
            "end 'crash' and no winner disagree",
        ),
        (
            '{"format": "boardgames-record", "version": 1, "game": "connect4", "moves": [],'
            ' "players": ["a"]}',
            "players must be a list of two names",
        ),
    ],
)
def test_bad_files_name_the_path_and_the_reason(tmp_path, text, reason):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(NotationError) as error:
        GameRecord.load(path)
    assert str(path) in str(error.value)
    assert reason in str(error.value)


def test_illegal_move_in_a_record_names_the_move(tmp_path):
    data = sample().to_dict()
    data["moves"] = ["a"] * 7  # the seventh stone does not fit in column a
    path = tmp_path / "full.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BoardgamesError, match=r"record move 7 \('a'\).*column full"):
        GameRecord.load(path).replay()


def test_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        GameRecord.load(tmp_path / "nope.json")


def test_json_is_one_field_per_line():
    text = sample().to_json()
    assert '"moves": ["d", "d", "c", "e"]' in text
    assert json.loads(text)["format"] == "boardgames-record"


def test_atomic_write_gives_normal_permissions_and_keeps_existing_ones(tmp_path):
    fresh = tmp_path / "fresh.txt"
    atomic_write_text(fresh, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's private 0o600
    fresh.chmod(0o640)
    atomic_write_text(fresh, "y")
    assert fresh.stat().st_mode & 0o777 == 0o640


# --- how a game ended ------------------------------------------------------------------------


def test_a_record_keeps_the_games_own_words_for_its_end(tmp_path):
    won = get_game("connect4").replay("a b a b a b a")
    record = GameRecord.from_state(won, players=("alice", "bob"))
    assert (record.result, record.winner, record.end) == ("red", 0, End.RULES)
    assert record.reason == won.outcome().reason == "four in a row"
    assert record.moves == ["a", "b", "a", "b", "a", "b", "a"]
    record.save(tmp_path / "won.json")
    saved = json.loads((tmp_path / "won.json").read_text())
    assert (saved["version"], saved["end"], saved["reason"]) == (VERSION, "rules", "four in a row")
    assert "detail" not in saved
    assert GameRecord.load(tmp_path / "won.json") == record


def test_the_writers_keep_result_winner_scores_and_end_together():
    game = get_game("squatter", size=3)
    state = game.replay("B2")
    record = GameRecord.from_state(state, why="saved")
    assert (record.result, record.winner, record.scores) == ("none", None, [0, 0])
    assert (record.end, record.reason) == (End.INTERRUPTED, "saved")
    record.forfeit(state, 0, End.TIME, "a ran out of time")
    assert (record.result, record.winner, record.end) == ("black", 1, End.TIME)
    assert record.reason == "a ran out of time" and record.forfeited
    record.finish(state, "stopped after 1 move", draw=True)
    assert (record.result, record.winner, record.end) == ("draw", None, End.ADJUDICATION)
    assert not record.forfeited
    for written in (record, GameRecord.from_state(state)):
        assert GameRecord.from_json(written.to_json()) == written  # the loader agrees


def test_forfeit_takes_only_a_way_to_lose_and_a_player():
    state = get_game("connect4").new_state()
    record = GameRecord.from_state(state)
    for end in (End.RULES, End.INTERRUPTED, End.ADJUDICATION):
        with pytest.raises(ValueError, match="not a way to lose"):
            record.forfeit(state, 0, end, "")
    with pytest.raises(ValueError, match="the loser is 0 or 1"):
        record.forfeit(state, 2, End.CRASH, "")
    with pytest.raises(ValueError, match="for a record of connect4"):
        record.finish(get_game("squatter", size=3).new_state())
    assert (record.result, record.end) == ("none", End.INTERRUPTED)


#: Each version 1 file: its end and result as this version reads them, and
#: a piece of its words (the referee's; a game the rules ended had none).
VERSION_1_FILES = {
    "normal.json": (End.RULES, "draw", ""),
    "crash.json": (End.CRASH, "white", "crasher: ZeroDivisionError: division by zero"),
    "illegal.json": (End.ILLEGAL, "white", "cheater: illegal move B1"),
    "timeout.json": (End.TIMEOUT, "white", "sleeper took 0.3"),
    "time.json": (End.TIME, "white", "sleeper ran out of time"),
    "interrupted.json": (End.INTERRUPTED, "none", "stopped after 3 moves"),
    "tournament-draw.json": (End.ADJUDICATION, "draw", "stopped after 3 moves"),
    "tournament-hang.json": (End.TIMEOUT, "white", "hanger stopped by the hard limit"),
    "andantino-unfinished.json": (End.INTERRUPTED, "none", ""),
}


@pytest.mark.parametrize("name", sorted(VERSION_1_FILES))
def test_version_1_records_still_load(name):
    end, result, words = VERSION_1_FILES[name]
    text = (VERSION_1 / name).read_text()
    old = json.loads(text)
    assert old["version"] == 1 and "detail" in old
    record = GameRecord.load(VERSION_1 / name)
    assert (record.end, record.result, record.winner) == (end, result, old["winner"])
    assert record.reason.startswith(words) and record.reason == old["detail"]
    assert record.moves == old["moves"] and record.scores == old["scores"]
    final = record.replay()
    assert final.is_over() == (end is End.RULES)
    again = GameRecord.from_json(record.to_json())  # saved again: today's version
    assert again == record and json.loads(record.to_json())["version"] == VERSION


def test_the_example_record_is_in_todays_format():
    path = ROOT / "examples" / "positions" / "andantino-game.json"
    assert json.loads(path.read_text())["version"] == VERSION
    record = GameRecord.load(path)
    assert (record.end, record.result) == (End.INTERRUPTED, "none")


#: What only the record's three writers set.
RESULT_FIELDS = {"result", "winner", "scores", "end", "reason"}


def _written(target: ast.expr) -> list[ast.Attribute]:
    """The attributes an assignment to `target` changes (`a.b`, `a.b[i]`, `a.b, c.d`)."""
    if isinstance(target, ast.Tuple | ast.List):
        return [attribute for element in target.elts for attribute in _written(element)]
    if isinstance(target, ast.Starred | ast.Subscript):
        return _written(target.value)
    return [target] if isinstance(target, ast.Attribute) else []


def test_only_the_records_writers_write_a_result():
    """Outside match/records.py no code sets a record's result fields: neither
    by assignment to a `...record...` nor by passing them to `GameRecord(...)`."""
    src = ROOT / "src" / "boardgames"
    found = []
    for path in sorted(src.rglob("*.py")):
        if path == src / "match" / "records.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for attribute in (a for target in targets for a in _written(target)):
                if attribute.attr in RESULT_FIELDS and "record" in ast.unparse(attribute).lower():
                    found.append(f"{path.relative_to(src)}:{node.lineno}: {ast.unparse(attribute)}")
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func).endswith("GameRecord")
                and {k.arg for k in node.keywords} & RESULT_FIELDS
            ):
                found.append(f"{path.relative_to(src)}:{node.lineno}: {ast.unparse(node)[:60]}")
    assert not found, "results written outside GameRecord's writers:\n" + "\n".join(found)


def test_the_summary_line_says_how_the_game_ended():
    game = get_game("squatter", size=3)
    state = game.replay("B2")
    record = GameRecord.from_state(state, players=("a", "b"), why="Ctrl-C")
    assert record.summary() == "squatter: a vs b: unfinished (0-0, Ctrl-C), 1 moves"
    record.forfeit(state, 1, End.TIMEOUT, "b took 2.3 s (limit 1 s)")
    assert record.summary() == (
        "squatter: a vs b: white wins (0-0) by timeout: b took 2.3 s (limit 1 s), 1 moves"
    )
    record.finish(state, "stopped after 1 move", draw=True)
    assert record.summary() == (
        "squatter: a vs b: draw (0-0) by adjudication: stopped after 1 move, 1 moves"
    )
    won = get_game("connect4").replay("a b a b a b a")
    assert GameRecord.from_state(won, players=("a", "b")).summary() == (
        "connect4: a vs b: red wins (four in a row), 7 moves"
    )
