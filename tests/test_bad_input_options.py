"""Option values: numbers are ASCII (`int('٣') == 3` in Python, so '--size ٣'
made a 3 x 3 board), and evaluator weights are finite numbers."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardgames.ai import make_player
from boardgames.cli import main
from boardgames.errors import OptionError
from boardgames.options import parse_value
from boardgames.registry import get_game


@pytest.mark.parametrize("text", ["٣", "３", "𝟑", "1٠", "٣.5"])
def test_parse_value_keeps_other_scripts_digits_as_text(text):
    assert parse_value(text) == text


def test_parse_value_still_reads_ascii_numbers():
    texts = ("3", "-2", "0.5", "true", "1e400")
    assert [parse_value(t) for t in texts] == [3, -2, 0.5, True, "1e400"]


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "squatter", "1", "--size", "٣"],
        ["perft", "squatter", "1", "-o", "size=٣"],
        ["perft", "squatter", "١"],
    ],
)
def test_cli_refuses_other_scripts_digits(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and "whole number" in result.stderr


def test_ai_specs_refuse_other_scripts_digits():
    with pytest.raises(OptionError, match="depth must be a whole number"):
        make_player(get_game("squatter", size=3), "alphabeta:depth=١")


@pytest.mark.parametrize(
    ("game", "spec", "reason"),
    [
        ("squatter", "alphabeta:capture=x", "capture must be a number >= 0 and <= 1000, not 'x'"),
        ("squatter", "alphabeta:capture=nan", "capture must be a number .*, not 'nan'"),
        ("squatter", "negascout:eval=territory,tempo=1e400", "tempo must be a number"),
        ("squatter", "alphabeta:capture=true", "capture must be a number .*, not True"),
        ("squatter", "alphabeta:capture=-1", "capture must be a number >= 0 and <= 1000"),
        ("hadron", "alphabeta:eval=sums,unit=nan", "unit must be a number .*, not 'nan'"),
    ],
)
def test_evaluator_weights_are_finite_numbers(game, spec, reason):
    """A generic AI passed its evaluator's weights on unchecked: 'x' was a
    TypeError mid-search, 'nan' (kept as text) the same, and NaN weights
    from float('nan') searched on with NaN scores."""
    with pytest.raises(OptionError, match=reason):
        make_player(get_game(game), spec)
    _, _, options = spec.partition(":")
    weights = {k: parse_value(v) for k, v in (item.split("=") for item in options.split(","))}
    name = weights.pop("eval", "default")
    with pytest.raises(OptionError, match=reason):
        get_game(game).evaluator(name, **weights)


def test_evaluator_weights_still_take_numbers():
    game = get_game("squatter", size=4)
    evaluator = game.evaluator("territory", capture=50, tempo=12.5)
    assert isinstance(evaluator(game.new_state()), float | int)
