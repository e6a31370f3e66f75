"""Click regions found on each game's own SVG: every move has one, and a move
changes the picture inside its own region and in no other move's."""

from __future__ import annotations

import random

import pytest

from boardgames import get_game
from boardgames.web.boards import board_for, find_board, parse_svg

GAMES = [
    ("andantino", {}, "titled"),
    ("squatter", {"size": 4}, "grid"),
    ("squatter", {}, "grid"),
    ("hadron", {"rows": 5, "cols": 7}, "grid"),
    ("hexifence", {}, "edges"),
    ("hexifence", {"size": 3}, "edges"),
    ("dots", {"rows": 2, "cols": 3}, "edges"),
]


@pytest.mark.parametrize(("name", "options", "rule"), GAMES)
def test_every_move_has_a_region_where_the_game_draws_it(name, options, rule):
    game = get_game(name, **options)
    board = find_board(game)
    assert board.rule == rule
    assert [r.move for r in board.regions] == list(range(game.num_moves))
    assert [r.name for r in board.regions] == [game.format_move(m) for m in range(game.num_moves)]
    rng = random.Random(7)
    state = game.new_state()
    for _ in range(12):
        if state.is_over():
            break
        move = rng.choice(state.legal_moves())
        before = {s.text for s in parse_svg(game.render_svg(state))}
        state.make(move)
        new = [s for s in parse_svg(game.render_svg(state)) if s.text not in before]
        centres = [s.centre for s in new if s.tag in ("circle", "line")]
        assert any(board.regions[move].contains(*c) for c in centres), game.format_move(move)
        # The stone or edge just played lies in its own region only.
        placed = [c for c in centres if board.regions[move].contains(*c)]
        owners = {r.move for r in board.regions for c in placed if r.contains(*c, slack=-0.5)}
        assert owners <= {move}


def test_edge_regions_tile_the_board():
    """A box of dots and boxes is covered by the diamonds of its four edges."""
    game = get_game("dots", rows=2, cols=2)
    regions = board_for(game).regions
    for x in range(20, 60, 3):
        for y in range(20, 60, 3):
            inside = [r.move for r in regions if r.contains(x + 0.3, y + 0.7, slack=0)]
            assert len(inside) == 1, (x, y, inside)


def test_a_board_without_recognisable_moves_has_no_regions():
    from connect_four import ConnectFour

    assert find_board(ConnectFour()).regions == ()
    assert find_board(ConnectFour()).rule == "none"
