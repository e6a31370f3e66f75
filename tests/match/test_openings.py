"""Opening files (match.openings) and matches and tournaments started from them."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.errors import BadFileError, OptionError
from boardgames.match.openings import opening_for, parse_openings, read_openings
from boardgames.match.play import play_match
from boardgames.match.records import GameRecord
from boardgames.registry import get_game
from boardgames.tournament.run import round_robin
from boardgames.tournament.schedule import TournamentSettings
from boardgames.tournament.store import TournamentDir

SQUATTER = get_game("squatter", size=4)
TEXT = """# two openings of 4 x 4 Squatter
B2 C3
   # an indented comment

a1 D4 b3   # lower case is read; the comment is not
"""


def test_openings_are_read_in_the_games_notation():
    assert parse_openings(SQUATTER, TEXT, "o.txt") == ["B2 C3", "A1 D4 B3"]


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("B2 C3\nA1 Z9\n", "o.txt: line 2: cannot parse 'Z9'"),
        ("\n\nB2 B2\n", "o.txt: line 3: illegal move: B2"),
        ("# nothing\n\n", "o.txt: no opening in the file"),
    ],
)
def test_a_bad_opening_file_names_the_line(text, fault):
    with pytest.raises(BadFileError) as error:
        parse_openings(SQUATTER, text, "o.txt")
    assert str(error.value).startswith(fault)


def test_an_opening_that_ends_the_game_is_refused():
    hadron = get_game("hadron", rows=1, cols=1)
    with pytest.raises(BadFileError, match="line 1: the game is over after this opening"):
        parse_openings(hadron, "A1\n", "o.txt")


def test_a_file_that_is_not_text(tmp_path):
    path = tmp_path / "o.bin"
    path.write_bytes(b"\xff\xfe\x00B2")
    with pytest.raises(BadFileError, match="not a text file"):
        read_openings(SQUATTER, str(path))


def test_pairs_of_games_take_the_openings_in_turn():
    openings = ["a", "b", "c"]
    assert [opening_for(openings, i) for i in range(8)] == list("aabbccaa")
    with pytest.raises(OptionError):
        opening_for([], 0)


def test_a_match_starts_each_pair_from_the_next_opening():
    openings = parse_openings(SQUATTER, TEXT, "o.txt")
    summary = play_match(
        SQUATTER, "alphabeta:depth=1", "random", games=6, seed=3, openings=openings
    )
    starts = [record.start for record in summary.records]
    expected = [SQUATTER.replay(o.split()).to_text() for o in openings]
    assert starts == [expected[0]] * 2 + [expected[1]] * 2 + [expected[0]] * 2
    assert [r.players[0] for r in summary.records[:2]] == ["alphabeta:depth=1", "random"]
    assert all(r.replay().is_over() for r in summary.records)
    with pytest.raises(OptionError, match="not both"):
        play_match(SQUATTER, "random", "random", games=2, opening_plies=2, openings=openings)


def test_tournament_settings_keep_the_openings(tmp_path):
    settings = TournamentSettings(
        "squatter", {"size": 4}, ["random", "alphabeta:depth=1"], games_per_pair=4,
        openings=["B2 C3", "A1 D4 B3"],
    )  # fmt: skip
    data = json.loads(json.dumps(settings.to_dict()))
    assert TournamentSettings.from_dict(data, "m.json") == settings
    result = round_robin(settings)
    starts = {r.key[2]: r.record.start for r in result.results}
    first, second = (SQUATTER.replay(o.split()).to_text() for o in settings.openings)
    assert starts == {0: first, 1: first, 2: second, 3: second}
    data["openings"] = "B2"
    with pytest.raises(BadFileError, match="wrong type"):
        TournamentSettings.from_dict(data, "m.json")
    with pytest.raises(OptionError, match="not both"):
        TournamentSettings("squatter", {}, ["random"] * 2, opening_plies=2, openings=["B2"])


def test_cli_match_and_tournament_take_an_opening_file(tmp_path):
    path = tmp_path / "openings.txt"
    path.write_text(TEXT)
    records = tmp_path / "r.jsonl"
    runner = CliRunner()
    done = runner.invoke(main, [
        "match", "squatter", "--size", "4", "--ai", "alphabeta:depth=1", "--games", "4",
        "--opening-file", str(path), "--records", str(records),
    ])  # fmt: skip
    assert done.exit_code == 0, done.output
    starts = [GameRecord.from_dict(json.loads(line)).start for line in records.open()]
    assert starts[0] == starts[1] != starts[2] == starts[3]

    out = tmp_path / "t"
    done = runner.invoke(main, [
        "tournament", "squatter", "--size", "4", "-p", "random", "-p", "alphabeta:depth=1",
        "--games", "2", "--workers", "0", "--out", str(out), "--opening-file", str(path),
    ])  # fmt: skip
    assert done.exit_code == 0, done.output
    assert TournamentDir(str(out)).settings().openings == ("B2 C3", "A1 D4 B3")
    again = runner.invoke(main, ["tournament", "--resume", str(out), "--opening-file", str(path)])
    assert again.exit_code == 2 and "drop --opening-file" in again.stderr


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_cli_bad_opening_file_is_one_line_exit_2(tmp_path, command):
    path = tmp_path / "openings.txt"
    path.write_text("B2 C3\nB2 Q7\n")
    args = ["-p", "random", "-p", "random"] if command == "tournament" else []
    done = CliRunner().invoke(main, [
        command, "squatter", "--size", "4", *args, "--opening-file", str(path),
    ])  # fmt: skip
    assert done.exit_code == 2
    fault = "line 2: cannot parse 'Q7': off the 4 x 4 board (A1..D4)"
    assert done.stderr.strip() == f"error: {path}: {fault}"
