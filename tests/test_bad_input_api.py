"""The library API given values of the wrong type: one library error, never
an AttributeError or TypeError from deep inside, and never a silent answer."""

from __future__ import annotations

import connect_four  # noqa: F401  (registers connect4: a plugin game is checked too)
import pytest

from boardgames.ai import make_player
from boardgames.errors import NotationError, OptionError, UnknownNameError
from boardgames.game import perft
from boardgames.registry import get_game

GAMES = ["squatter", "hexifence", "dots", "hadron", "andantino", "connect4"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("value", [None, b"A1", 5, ["A1"]], ids=repr)
def test_parse_move_and_parse_position_take_text_only(name, value):
    game = get_game(name)
    with pytest.raises(NotationError, match=f"expected text, not {type(value).__name__}"):
        game.parse_move(value)
    with pytest.raises(NotationError, match=f"expected text, not {type(value).__name__}"):
        game.parse_position(value)


@pytest.mark.parametrize("name", GAMES)
def test_text_still_parses(name):
    game = get_game(name)
    state = game.new_state()
    move = state.legal_moves()[0]
    assert game.parse_move(game.format_move(move)) == move
    state.play(move)
    assert game.parse_position(state.to_text()).to_text() == state.to_text()


@pytest.mark.parametrize("depth", [-1, 1.5, "1", True, None])
def test_perft_depth_is_a_whole_number(depth):
    """perft(-1) and perft(1.5) answered 0, perft('1') was a TypeError."""
    with pytest.raises(OptionError, match="perft depth must be a whole number >= 0"):
        perft(get_game("squatter", size=3).new_state(), depth)


def test_perft_still_counts():
    state = get_game("squatter", size=3).new_state()
    assert [perft(state, d) for d in range(3)] == [1, 9, 72]


@pytest.mark.parametrize("name", [None, 5, b"squatter"], ids=repr)
def test_get_game_takes_a_name(name):
    with pytest.raises(UnknownNameError, match="a game name is text"):
        get_game(name)


def test_an_unknown_game_name_is_quoted_short():
    with pytest.raises(UnknownNameError) as info:
        get_game("x" * 100_000)
    assert len(str(info.value)) < 300 and "100000 characters" in str(info.value)


@pytest.mark.parametrize("spec", [None, 5, ["alphabeta"]], ids=repr)
def test_make_player_takes_a_spec_text(spec):
    with pytest.raises(OptionError, match="an AI spec is text"):
        make_player(get_game("squatter"), spec)


def test_a_plugin_that_exits_is_one_error(tmp_path):
    """A plugin raising SystemExit ended the command with its code and no message
    (and `list` with no output at all)."""
    from click.testing import CliRunner

    from boardgames.cli import main
    from boardgames.plugins import import_plugin

    plugin = tmp_path / "exits.py"
    plugin.write_text("raise SystemExit(5)\n")
    with pytest.raises(OptionError, match="cannot import plugin .*exits.py.*SystemExit: 5"):
        import_plugin(str(plugin))
    result = CliRunner().invoke(main, ["perft", "squatter", "1", "--plugin", str(plugin)])
    assert result.exit_code == 2 and "SystemExit: 5" in result.stderr
    listed = CliRunner().invoke(main, ["list", "--plugin", str(plugin)])
    assert listed.exit_code == 0 and "squatter" in listed.output


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_plugin_name_is_refused(name):
    from boardgames.plugins import import_plugin

    with pytest.raises(OptionError, match="empty plugin name"):
        import_plugin(name)


def test_a_plugin_path_that_is_no_regular_file_is_named_as_what_it_is(tmp_path, monkeypatch):
    """/dev/zero exists: "not found" was wrong, and reading it would never end;
    a named pipe would block the import until someone writes to it."""
    import os

    from click.testing import CliRunner

    from boardgames.cli import main
    from boardgames.plugins import import_plugin

    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    for path, kind in ((os.devnull, "a character device"), (str(fifo), "a named pipe")):
        with pytest.raises(OptionError, match=f"is {kind}, not a regular file"):
            import_plugin(path)
    with pytest.raises(OptionError, match="plugin file not found"):
        import_plugin(str(tmp_path / "missing.py"))
    monkeypatch.setenv("BOARDGAMES_PLUGINS", os.devnull)
    listed = CliRunner().invoke(main, ["list"])
    assert listed.exit_code == 0
    assert "is a character device, not a regular file" in listed.output


def test_replay_takes_a_text_of_moves_not_its_characters():
    game = get_game("squatter", size=6)
    assert game.replay("A2 C4  A3\n").key == game.replay(["A2", "C4", "A3"]).key
    assert len(game.replay("A2 C4").history) == 2
    with pytest.raises(NotationError):
        game.replay("A2 Z9")
