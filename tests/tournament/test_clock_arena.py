"""Clocks in tournaments and on the command line: settings, manifests, records, flags."""

from __future__ import annotations

import json
from pathlib import Path

import connect_four  # noqa: F401  (registers connect4)
import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.clock import TimeControl
from boardgames.errors import BadFileError, OptionError
from boardgames.match.records import GameRecord
from boardgames.tournament.run import round_robin
from boardgames.tournament.schedule import TournamentSettings, clock_move_timeout, round_robin_tasks
from boardgames.tournament.store import TournamentDir

ROOT = Path(__file__).resolve().parents[2]
CONNECT4 = str(ROOT / "examples" / "connect_four")
SPECS = ["random", "alphabeta:depth=1", "negascout:depth=2"]


def settings(**changes):
    base = {"game": "connect4", "params": {}, "players": SPECS, "games_per_pair": 2}
    return TournamentSettings(**{**base, **changes})


def test_settings_keep_the_clock_and_the_anchor_in_the_manifest():
    s = settings(clock="5+0.10", anchor_label="alphabeta:depth=1")
    assert s.clock == "5+0.1"  # normalised once
    assert s.anchor == 1
    data = s.to_dict()
    assert (data["clock"], data["anchor"]) == ("5+0.1", "alphabeta:depth=1")
    assert TournamentSettings.from_dict(json.loads(json.dumps(data)), "m.json") == s
    assert settings(anchor_label="mean").anchor is None
    assert settings().anchor == 0  # random, as before
    assert "clock" not in settings().to_dict() and "anchor" not in settings().to_dict()


def test_clocked_tasks_carry_the_clock_and_a_hard_limit_past_it():
    tasks = round_robin_tasks(settings(clock="5+0.1"))
    assert {t.clock for t in tasks} == {"5+0.1"}
    assert {t.move_timeout for t in tasks} == {clock_move_timeout(TimeControl(5, 0.1))}
    assert clock_move_timeout(TimeControl(5, 0.1)) == 2 * (5 + 10) + 5
    assert {t.clock for t in round_robin_tasks(settings())} == {None}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"clock": "fast"}, "clock"),
        ({"clock": "0"}, "clock"),
        ({"anchor_label": "nobody"}, "anchor"),
    ],
)
def test_bad_clock_or_anchor_settings_are_option_errors(changes, message):
    with pytest.raises(OptionError, match=message):
        settings(**changes)


@pytest.mark.parametrize(("key", "value"), [("clock", "x+1"), ("clock", 5), ("anchor", 3)])
def test_a_manifest_with_a_bad_clock_or_anchor_is_a_bad_file(key, value):
    data = settings().to_dict()
    data[key] = value
    with pytest.raises(BadFileError, match="m.json"):
        TournamentSettings.from_dict(data, "m.json")


def test_a_clocked_tournament_records_its_clocks(tmp_path):
    s = settings(players=["random", "alphabeta:depth=1"], clock="3", plugins=[CONNECT4])
    folder = TournamentDir(tmp_path / "t")
    with folder.lock(create=True):
        folder.create(s)
        result = round_robin(s, on_result=folder.save)
    assert result.complete
    for path in sorted((tmp_path / "t" / "games").glob("*.json")):
        record = GameRecord.load(path)
        assert record.clock == "3" and min(record.clock_left) > 0
        assert len(record.allotted) == len(record.moves)


def invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_match_with_a_clock_prints_the_time_each_player_used(tmp_path):
    out = tmp_path / "r.jsonl"
    result = invoke(
        "match", "--plugin", CONNECT4, "connect4", "--ai", "alphabeta:depth=2", "--games", "2",
        "--clock", "2+0.1", "--records", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "time used at clock 2+0.1:" in result.stdout
    assert "alphabeta:depth=2:" in result.stdout and "least left on the clock" in result.stdout
    records = [GameRecord.from_dict(json.loads(line)) for line in out.read_text().splitlines()]
    assert [r.clock for r in records] == ["2+0.1", "2+0.1"]


@pytest.mark.parametrize("bad", ["0", "nan", "5+x", "-3", "1+2+3"])
def test_a_bad_clock_flag_is_one_error_line(bad):
    tournament = ["tournament", "connect4", "-p", "random", "-p", "random"]
    for command in (["match", "connect4"], tournament):
        result = invoke(command[0], "--plugin", CONNECT4, *command[1:], "--clock", bad)
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert lines[-1].startswith("error: --clock") and "Traceback" not in result.output


def test_tournament_clock_and_anchor_flags_and_resume_refuses_them(tmp_path):
    out = tmp_path / "t"
    result = invoke(
        "tournament", "--plugin", CONNECT4, "connect4", "-p", "random", "-p", "alphabeta:depth=1",
        "--clock", "2", "--anchor", "alphabeta:depth=1", "--workers", "0", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "alphabeta:depth=1 = 0" in result.stdout
    manifest = json.loads((out / "tournament.json").read_text())
    assert (manifest["clock"], manifest["anchor"]) == ("2", "alphabeta:depth=1")
    again = invoke("tournament", "--resume", str(out), "--clock", "3")
    assert again.exit_code == 2 and "drop --clock" in again.stderr
    bad = invoke(
        "tournament", "--plugin", CONNECT4, "connect4", "-p", "random", "-p", "random",
        "--anchor", "nobody", "--out", str(tmp_path / "u"),
    )  # fmt: skip
    assert bad.exit_code == 2 and "anchor 'nobody'" in bad.stderr
