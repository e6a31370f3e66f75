"""`--threads N` of play, match and bestmove: the threads option of each AI
that takes one (a spec's own threads=N wins), an error when none does."""

from __future__ import annotations

import connect_four  # noqa: F401  (registers connect4)
import pytest
from click.testing import CliRunner

from boardgames.ai import takes_option
from boardgames.cli import main
from boardgames.cli import play as play_module
from boardgames.registry import get_game
from support.cli_checks import assert_error

THREADS_LINE = "threads:  2 processes sharing one table"


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def position(tmp_path):
    path = tmp_path / "pos.txt"
    path.write_text("d d c\n")
    return str(path)


def test_which_ais_take_an_option():
    game = get_game("connect4")
    assert takes_option(game, "alphabeta", "threads")
    assert takes_option(game, "negascout:depth=3", "threads")
    assert not takes_option(game, "random", "threads")
    assert not takes_option(game, "minimax", "threads")
    assert not takes_option(game, "program:./engine --threads 2", "threads")
    assert not takes_option(game, "nosuch", "threads")
    assert not takes_option(game, "alphabeta:depth=", "threads")  # a bad spec
    assert takes_option(game, "random", "seed")


def test_bestmove_searches_with_the_threads_given(position):
    result = invoke("bestmove", "connect4", position, "--depth", "4", "--threads", "2")
    assert result.exit_code == 0, result.output
    assert THREADS_LINE in result.output
    alone = invoke("bestmove", "connect4", position, "--depth", "4")
    assert alone.exit_code == 0, alone.output
    assert "threads:" not in alone.output
    score = [line for line in result.output.splitlines() if line.startswith("score:")]
    assert score and score[0] in alone.output.splitlines()  # a fixed depth's value


def test_a_specs_own_threads_win(position):
    result = invoke(
        "bestmove", "connect4", position, "--ai", "alphabeta:threads=1", "--depth", "3",
        "--threads", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "threads:" not in result.output


def test_threads_go_to_the_ais_that_take_them(monkeypatch):
    made: dict[str, object] = {}
    real = play_module.make_player

    def spy(game, spec, **defaults):
        made[spec] = defaults.get("threads")
        return real(game, spec, **defaults)

    monkeypatch.setattr(play_module, "make_player", spy)
    result = invoke(
        "match", "connect4", "--ai", "alphabeta:depth=1", "--ai2", "random", "--games", "2",
        "--threads", "2", "--seed", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert made == {"alphabeta:depth=1": 2, "random": None}
    made.clear()
    watched = invoke(
        "play", "connect4", "--ai", "random", "--ai2", "negascout:depth=1", "--threads", "3",
        "--seed", "1",
    )  # fmt: skip
    assert watched.exit_code == 0, watched.output
    assert made == {"random": None, "negascout:depth=1": 3}


def test_threads_for_ais_that_take_none_is_an_error(position):
    assert_error(
        invoke("bestmove", "connect4", position, "--ai", "random", "--threads", "2"),
        "--threads", "AI 'random' takes no threads option", "alphabeta", alone=True,
    )  # fmt: skip
    assert_error(
        invoke("match", "connect4", "--ai", "random", "--ai2", "minimax", "--threads", "2"),
        "neither AI takes a threads option", alone=True,
    )  # fmt: skip
    assert_error(invoke("play", "connect4", "--ai", "random", "--threads", "2"), "takes no threads")
    assert_error(invoke("bestmove", "connect4", position, "--threads", "0"), "--threads")


def test_an_sprt_takes_threads_in_its_specs(tmp_path):
    result = invoke(
        "match", "connect4", "--threads", "2", "--sprt", "elo0=0,elo1=10",
        "--out", str(tmp_path / "sprt"),
    )  # fmt: skip
    assert_error(result, "--threads cannot go with --sprt", "specs", alone=True)
    assert not (tmp_path / "sprt").exists()


def test_more_processes_than_cores_are_noted(position, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    note = "note: 2 processes on 1 core take turns on them"
    result = invoke("bestmove", "connect4", position, "--depth", "2", "--threads", "2")
    assert result.exit_code == 0, result.output
    assert note in result.stderr and THREADS_LINE in result.stdout
    solved = invoke("solve", "squatter", "--size", "3", "--threads", "2")
    assert solved.exit_code == 0, solved.output
    assert note in solved.stderr and "value" in solved.stdout
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    plenty = invoke("bestmove", "connect4", position, "--depth", "2", "--threads", "2")
    assert plenty.exit_code == 0 and "note:" not in plenty.stderr
