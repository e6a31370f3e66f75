"""Numbers in options are ASCII: `int('٣') == 3` in Python, so '--size ٣' made
a 3 x 3 board and 'alphabeta:depth=١' a depth-1 search."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardgames.ai import make_player
from boardgames.cli import main
from boardgames.errors import OptionError
from boardgames.game import get_game
from boardgames.options import parse_value


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
