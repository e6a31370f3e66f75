"""Bad moves and positions in every game's notation: one NotationError with the
reason, and the state (and its hashes) unchanged.

Cell names are ASCII: Python's `int` and `str.isdigit` also take other
scripts' digits ('٣', '𝟏') and superscripts ('²', which `int` then rejects
with a plain ValueError), so the parsers must not lean on them.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.errors import BoardgamesError, NotationError
from boardgames.registry import get_game

GAMES = [
    ("squatter", {"size": 6}),
    ("hexifence", {"size": 2}),
    ("dots", {"rows": 3, "cols": 3}),
    ("hadron", {"rows": 9, "cols": 9}),
    ("andantino", {}),
]

#: Move texts no game may accept, each with a fragment of the reason.
BAD_GRID_MOVES = [
    ("A²", "ASCII"),  # '²'.isdigit() is True, int('²') a ValueError
    ("A١", "ASCII"),  # Arabic-Indic 1: int('١') == 1
    ("A𝟏", "ASCII"),  # mathematical bold 1
    ("Ａ１", "ASCII"),  # full-width
    ("ı1", "ASCII"),  # dotless i: 'ı'.upper() == 'I'
    ("١,٢", "ASCII"),
    ("--1,2", "row,col"),  # '--1'.lstrip('-') is all digits, int('--1') a ValueError
    ("A" + "9" * 5000, "off the"),  # int() refuses over 4300 digits
    ("9" * 5000 + ",0", "off the"),
]

BAD_ANDANTINO_MOVES = [
    ("J١١", "expected a cell"),
    ("ſ1", "expected a cell"),  # long s: matched 's' under re.IGNORECASE
    ("J²", "expected a cell"),
    ("9" * 5000 + ",0,0", "expected a cell"),
    ("1,-1,0)", "parentheses"),
    ("(1,-1,0", "parentheses"),
]


def snapshot(state):
    return state.to_text(), list(state.hashes), list(state.history), state.to_move


def started(name, params):
    """A position a few moves in (so 'unchanged' means something)."""
    state = get_game(name, **params).new_state()
    for _ in range(3):
        state.play(state.legal_moves()[0])
    return state


@pytest.mark.parametrize(("name", "params"), [g for g in GAMES if g[0] != "andantino"])
@pytest.mark.parametrize(("text", "reason"), BAD_GRID_MOVES)
def test_grid_games_reject_non_ascii_and_malformed_numbers(name, params, text, reason):
    state = started(name, params)
    before = snapshot(state)
    with pytest.raises(NotationError, match=reason) as info:
        state.play(text)
    assert type(info.value) is NotationError
    assert snapshot(state) == before
    assert state.hashes == state.recompute_hashes()


@pytest.mark.parametrize(("text", "reason"), BAD_ANDANTINO_MOVES)
def test_andantino_rejects_non_ascii_huge_and_unbalanced_cells(text, reason):
    state = started("andantino", {})
    before = snapshot(state)
    with pytest.raises(NotationError, match=reason):
        state.play(text)
    assert snapshot(state) == before


def test_andantino_still_reads_both_notations():
    game = get_game("andantino")
    for text in ("J11", "j11", "1,-1,0", "(1,-1,0)", " ( 1 , -1 , 0 ) "):
        assert game.format_move(game.parse_move(text)) == "J11"


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        ("squatter", "²\n", "board size N"),
        ("squatter", "٣\n+ + +\n+ + +\n+ + +\n", "board size N"),
        ("squatter", "9" * 5000 + "\n", "board size must be"),
        ("hexifence", "²\n", "1 to 5"),
        ("hexifence", "١\n+ + -\n+ - +\n- + +\n", "1 to 5"),
        ("hexifence", "9" * 5000 + "\n", "1 to 5"),
    ],
)
def test_board_size_lines_take_ascii_digits_only(name, text, reason):
    with pytest.raises(NotationError, match=reason):
        get_game(name).parse_position(text)


@pytest.mark.parametrize(("name", "params"), GAMES)
@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=12))
def test_any_text_is_a_move_or_one_notation_error(name, params, text):
    """Whatever the text, parse_move gives a move index or a NotationError."""
    game = get_game(name, **params)
    try:
        move = game.parse_move(text)
    except NotationError:
        return
    assert 0 <= move < game.num_moves


@pytest.mark.parametrize(("name", "params"), GAMES)
@settings(max_examples=40, deadline=None)
@given(
    head=st.sampled_from(["A", "b", "J", "ı", "", "-", "("]),
    tail=st.text(alphabet=st.sampled_from("0123456789²١𝟏-,() \n"), max_size=8),
)
def test_play_leaves_the_state_unchanged_on_any_error(name, params, head, tail):
    """A letter (or not) and digits of any script: a move or a library error."""
    text = head + tail
    state = started(name, params)
    before = snapshot(state)
    try:
        state.play(text)
    except BoardgamesError:
        assert snapshot(state) == before
