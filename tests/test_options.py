"""Every option value is checked in one place (boardgames.options): the CLI's
flags, AI specs, engine commands and the library's own arguments reject NaN,
infinities, wrong types and values out of range with one clear message."""

from __future__ import annotations

import io
import math

import click
import connect_four  # noqa: F401  (registers connect4)
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.ai import ai_names, make_player
from boardgames.budget import Limits
from boardgames.cli import main
from boardgames.cli.common import Number, OneLineUsageError
from boardgames.errors import NotationError, OptionError, quote
from boardgames.options import (
    check_real,
    check_seconds,
    check_whole,
    parse_pairs,
    parse_value,
)
from boardgames.plugins import import_plugins
from boardgames.protocols.engine import EngineSession
from boardgames.registry import get_game
from boardgames.search import MCTS, Searcher

GAMES = ("andantino", "squatter", "hadron", "hexifence", "dots", "connect4")

#: Text that is never a valid number for any option: non-finite, not a number,
#: or a boolean word.
NEVER_NUMBERS = ["nan", "NaN", "inf", "-inf", "+inf", "Infinity", "1e999", "-1e999", "abc",
                 "true", "off", "1,5", "0x10", "5 s", "--"]

bad_number_text = st.one_of(
    st.sampled_from(NEVER_NUMBERS),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz_%$#", min_size=1, max_size=30),
)


# --- the checks themselves -------------------------------------------------------------


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e999", "Infinity"])
def test_non_finite_text_never_becomes_a_number(text):
    assert parse_value(text) == text


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, True, False, "3", None, [1]])
def test_checks_reject_non_numbers(value):
    for check in (
        lambda v: check_real("x", v),
        lambda v: check_whole("x", v, None),
        lambda v: check_seconds("x", v),
    ):
        with pytest.raises(OptionError, match="^x must be"):
            check(value)


def test_ranges_and_types():
    assert check_real("x", 3) == 3.0 and check_whole("n", 3) == 3
    with pytest.raises(OptionError, match="whole number >= 1, not 1.5"):
        check_whole("n", 1.5)
    with pytest.raises(OptionError, match=r"seconds > 0 and <= 1000000, not 0"):
        check_seconds("time", 0)
    with pytest.raises(OptionError):
        check_seconds("time", 1e7)
    with pytest.raises(OptionError, match="depth"):
        Limits(depth=0)
    assert Limits(2, 0.5, 10) == Limits(depth=2, time=0.5, nodes=10)


def test_quote_keeps_messages_short():
    assert quote("E5") == "'E5'"
    long = quote("x" * 10_000_000)
    assert len(long) < 120 and "10000000 characters" in long
    assert quote("\x1b[2J\x00") == repr("\x1b[2J\x00")  # escaped, never raw bytes


def test_key_value_pairs_are_given_once():
    assert parse_pairs(["size=7", "ai=mcts"], "option") == {"size": 7, "ai": "mcts"}
    with pytest.raises(OptionError, match="'size' given twice"):
        parse_pairs(["size=6", "size=7"], "game option")
    with pytest.raises(OptionError, match="expected key=value"):
        parse_pairs(["size"], "game option")


# --- the library -----------------------------------------------------------------------


@pytest.mark.parametrize("limits", [{"time": math.nan}, {"time": math.inf}, {"depth": 1.5},
                                    {"nodes": math.nan}, {"depth": True}, {"time": 0}])
def test_search_rejects_bad_limits(limits):
    state = get_game("connect4").new_state()
    with pytest.raises(OptionError):
        Searcher().search(state, **limits)
    with pytest.raises(OptionError):
        MCTS().search(state, **limits)


@pytest.mark.parametrize("kwargs", [{"c": math.nan}, {"c": -1}, {"scale": math.inf}])
def test_mcts_rejects_bad_constants(kwargs):
    with pytest.raises(OptionError):
        MCTS(**kwargs)


def test_move_indexes_are_checked_by_every_game():
    for name in GAMES:
        game = get_game(name)
        state = game.new_state()
        for move in (-1, game.num_moves, True, 1.0, None):
            with pytest.raises(NotationError, match="not a move index"):
                game.format_move(move)
            with pytest.raises(NotationError):
                state.play(move)
        assert state.history == []
        assert game.parse_move(game.format_move(0)) == 0


def test_game_options_are_whole_numbers():
    for bad in (math.nan, 6.0, True, "6"):
        with pytest.raises(OptionError, match="size must be a whole number"):
            get_game("squatter", size=bad)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    "option", ["time=nan", "time=inf", "time=0", "depth=1.5", "depth=0", "nodes=inf",
               "seed=abc", "seed=1.5", "typo=3"],
)
def test_every_ai_of_every_game_rejects_bad_options(name, option):
    game = get_game(name)
    for ai in ai_names(game):
        if ai == "random" and option.startswith("typo"):
            pass
        with pytest.raises(OptionError):
            make_player(game, f"{ai}:{option}")


@pytest.mark.parametrize("spec", ["default:noise=nan", "negascout:noise=inf", "mcts:c=nan",
                                  "alphabeta:noise=-1", "negascout:eval=nosuch"])
def test_search_ais_reject_bad_evaluator_options(spec):
    for name in GAMES:
        with pytest.raises(OptionError):
            make_player(get_game(name), spec)


def test_aenigma_weights_must_be_finite():
    for bad in ("t=nan", "t=inf", "w1_open=abc"):
        with pytest.raises(OptionError):
            make_player(get_game("hadron"), f"aenigma:{bad}")


@pytest.mark.parametrize("name", ["hexifence", "dots"])
def test_edge_game_ais_reject_unknown_and_malformed_options(name):
    game = get_game(name)
    for spec in ("default:typo=3", "seed:typo=3", "default:seed=abc", "default:exact=-1",
                 "seed:threshold=x"):
        with pytest.raises(OptionError):
            make_player(game, spec)
    assert make_player(game, "default:exact=10,seed=3") is not None


@pytest.mark.parametrize("name", GAMES)
def test_evaluators_take_noise_and_reject_unknown_options(name):
    game = get_game(name)
    state = game.new_state()
    for evaluator in game.evaluators():
        value = game.evaluator(evaluator, noise=0.5, seed=1)(state)
        assert math.isfinite(value)
        with pytest.raises(OptionError, match="unknown"):
            game.evaluator(evaluator, typo=3)
        with pytest.raises(OptionError):
            game.evaluator(evaluator, noise=math.nan)


def test_plugins_that_fail_give_one_clear_error(tmp_path):
    (tmp_path / "syntax.py").write_text("def (\n")
    (tmp_path / "raises.py").write_text("raise RuntimeError('boom')\n")
    (tmp_path / "notes.txt").write_text("hello\n")
    cases = {
        "syntax.py": "SyntaxError",
        "raises.py": "RuntimeError: boom",
        "notes.txt": "not a Python file",
        "missing.py": "plugin file not found",
    }
    for file, reason in cases.items():
        with pytest.raises(OptionError, match=reason):
            import_plugins([str(tmp_path / file)])
    with pytest.raises(OptionError, match="ModuleNotFoundError"):
        import_plugins(["no_such_module_here"])


# --- the command line ------------------------------------------------------------------


def _commands() -> list[tuple[str, click.Command]]:
    return sorted(main.commands.items())


def test_every_numeric_parameter_is_checked_in_one_place():
    """No command may read a number with click's own INT/FLOAT types, which let
    NaN and infinities through: every number goes through `Number`."""
    for name, command in _commands():
        for param in command.params:
            assert not isinstance(
                param.type, click.types.IntParamType | click.types.FloatParamType
            ), f"{name} {param.opts}: use Whole()/Real()/Seconds() from cli/common.py"


NUMERIC_PARAMS = [
    (name, param)
    for name, command in _commands()
    for param in command.params
    if isinstance(param.type, Number)
]


def _base_args(command: click.Command) -> list[str]:
    """Plausible values for a command's positional arguments."""
    values = {"game_name": "connect4", "host": "127.0.0.1", "port": "1", "depth": "1"}
    return [values.get(p.name, "x") for p in command.params if isinstance(p, click.Argument)]


@settings(max_examples=150, deadline=None)
@given(case=st.sampled_from(NUMERIC_PARAMS), value=bad_number_text)
def test_no_numeric_flag_accepts_a_bad_value(case, value):
    name, param = case
    command = main.commands[name]
    args = _base_args(command)
    if isinstance(param, click.Argument):
        args[[p.name for p in command.params if isinstance(p, click.Argument)].index(
            param.name)] = value
        args.insert(0, "--")  # positional, even when the value starts with '-'
    else:
        args += [f"{param.opts[0]}={value}"]
    with pytest.raises(OneLineUsageError) as error:
        command.make_context(name, args)
    message = error.value.format_message()
    assert "\n" not in message and param.opts[0] in message
    assert f"boardgames {name} --help" in message


@pytest.mark.parametrize(
    "args",
    [
        ["bestmove", "connect4", "x.json", "--time", "inf"],
        ["play", "connect4", "--time", "nan"],
        ["match", "connect4", "--time", "0"],
        ["solve", "connect4", "--time", "nan"],
        ["tournament", "connect4", "-p", "random", "-p", "random", "--games", "0"],
        ["tournament", "connect4", "-p", "random", "-p", "random", "--game-timeout", "-1"],
        ["tune", "hadron", "--population", "1"],
        ["serve", "hadron", "--time-limit", "0"],
        ["serve", "hadron", "--time-limit", "1e12"],
        ["connect", "hadron", "127.0.0.1", "70000"],
        ["perft", "hadron", "-1"],
        ["play", "squatter", "--size", "6", "-o", "size=7"],
        ["play", "connect4", "--ai", "negascout:noise=nan,depth=3"],
        ["play", "connect4", "--ai", "alphabeta:time=inf"],
        ["play", "connect4", "--ai", "mcts:c=nan"],
        ["bogus-command"],
    ],
)
def test_bad_values_are_one_error_line_and_exit_2(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output


def test_every_command_is_a_one_line_error_command():
    from boardgames.cli.common import Command, Group

    assert isinstance(main, Group)
    assert all(isinstance(command, Command) for _, command in _commands())
    with pytest.raises(TypeError):
        main.add_command(click.Command("plain"))


def test_error_lines_quote_bad_input_briefly(tmp_path):
    board = tmp_path / "huge.txt"
    board.write_text("Z" * 1_000_000)
    result = CliRunner().invoke(main, ["analyse", "hadron", str(board)])
    assert result.exit_code == 2
    assert len(result.stderr) < 600, len(result.stderr)


# --- the engine protocol ---------------------------------------------------------------


def _session(game: str) -> EngineSession:
    return EngineSession(io.StringIO(), io.StringIO(), get_game(game))


@settings(max_examples=100, deadline=None)
@given(
    game=st.sampled_from(["hadron", "squatter", "dots", "connect4"]),
    command=st.sampled_from(["genmove time={}", "genmove depth={}", "genmove nodes={}",
                             "genmove ai=default noise={}", "genmove ai=mcts c={}",
                             "genmove seed={}", "game hadron rows={}", "game squatter size={}",
                             "eval default noise={}", "perft {}"]),
    value=bad_number_text,
)
def test_engine_answers_bad_values_with_one_line_and_changes_nothing(game, command, value):
    session = _session(game)
    session.handle("play " + session.game.format_move(session.state.legal_moves()[0]))
    before = (session.game, session.state.to_text(), session.state.key)
    answer = session.handle(command.format(value))
    assert answer.startswith("? ") and answer.endswith("\n\n")
    assert "\n" not in answer.strip() and "internal error" not in answer
    assert (session.game, session.state.to_text(), session.state.key) == before


def test_engine_eval_noise_works_for_every_game():
    for name in GAMES:
        answer = _session(name).handle("eval default noise=0.5 seed=3")
        assert answer.startswith("= "), (name, answer)
        assert _session(name).handle("eval default typo=3").startswith("? ")


def test_engine_rejects_a_game_option_given_twice():
    session = _session("hadron")
    answer = session.handle("game squatter size=6 size=7")
    assert answer.startswith("? ") and "given twice" in answer
    assert session.game.name == "hadron"


def test_engine_quotes_huge_arguments_briefly():
    answer = _session("hadron").handle("play " + "Q" * 1_000_000)
    assert answer.startswith("? ") and len(answer) < 300
