"""Game records: JSON round trip, atomic save, clear errors for bad files."""

from __future__ import annotations

import json
import os

import connect_four  # noqa: F401  (registers connect4)
import pytest

from boardgames.errors import BoardgamesError, NotationError
from boardgames.io import atomic_write_text
from boardgames.match.records import GameRecord
from boardgames.registry import get_game


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
