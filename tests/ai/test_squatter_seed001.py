"""Seed 001's search as the original ran it (ai/squatter/seed001.py):
board order, fail-hard alpha-beta, the symmetry check that skips boards."""

from __future__ import annotations

import threading

import pytest

from boardgames.ai import make_player
from boardgames.ai.squatter.seed001 import Seed001Search, rotation_frames
from boardgames.budget import Limits
from boardgames.errors import SearchStopped
from boardgames.games.squatter.experts import Seed001
from boardgames.registry import get_game


def _search(skip: bool = True) -> Seed001Search:
    return Seed001Search(Seed001().terms, skip=skip)


def test_rotation_frames_are_the_four_rotations():
    game = get_game("squatter", size=4)
    frames = rotation_frames(game)
    assert len(frames) == 4 and 0 in frames
    # A1 (cell 0) goes round the four corners under the rotations.
    assert sorted(game.symmetries[i][0] for i in frames) == [0, 3, 12, 15]


def test_symmetry_check_skips_rotated_boards_on_3x3():
    # By hand: of the nine first stones, A3, C1 and C3 are rotations of A1,
    # B1, B3 and C2 rotations of A2; only A1, A2 and B2 are searched.
    game = get_game("squatter", size=3)
    search = _search()
    move, value = search.choose(game.new_state(), 1)
    assert search.nodes == 3
    # Corner -2000, side stone +10 x 1/8, centre 0: A2, the first side cell.
    assert game.format_move(move) == "A2"
    assert value == pytest.approx(10 / 8)
    plain = _search(skip=False)
    assert plain.choose(game.new_state(), 1) == (move, value)
    assert plain.nodes == 9


def test_first_best_cell_in_board_order_wins():
    game = get_game("squatter", size=6)
    move, value = _search().choose(game.new_state(), 1)
    assert game.format_move(move) == "A2"  # every side cell scores 10/20
    assert value == pytest.approx(0.5)


def test_captures_and_blocks():
    game = get_game("squatter", size=6)
    # White's half-built diamond round B2: C2 closes it.
    state = game.replay(["A2", "F6", "B1", "F5", "B3", "F4"])
    move, _ = _search().choose(state, 1)
    assert game.format_move(move) == "C2"
    # One move earlier Black, seeing two plies, blocks at C2 (a stone on
    # B2 would be captured: worse).
    state = game.replay(["A2", "F6", "B1", "F5", "B3"])
    move, _ = _search().choose(state, 2)
    assert game.format_move(move) == "C2"
    assert state.history == [game.parse_move(m) for m in ["A2", "F6", "B1", "F5", "B3"]]


def test_time_nodes_and_stop_end_the_search_and_leave_the_state():
    game = get_game("squatter", size=6)
    state = game.replay(["C3", "D4"])
    before = state.to_text()
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchStopped):
        _search().choose(state, 6, Limits(stop=stop))
    with pytest.raises(SearchStopped):
        _search().choose(state, 6, Limits(nodes=100))
    assert state.to_text() == before and len(state.history) == 2


def test_the_player_searches_the_original_depth():
    game = get_game("squatter", size=6)
    state = game.replay(["C3", "D4", "C4"])
    player = make_player(game, "seed001:depth=3")
    expected, _ = _search(skip=False).choose(state.copy(), 3)
    assert player.choose(state) == expected
    assert player.last_result.depth == 3
    # The default depth is the original's: 6 plies; skip=true is the seed text's check.
    assert make_player(game, "seed001").depth == 6
    assert not make_player(game, "seed001").search.skip
    assert make_player(game, "seed001:skip=true").search.skip


def test_seed001_plays_the_programs_side_weight_of_0():
    """The seed text gives own side stones a weight of 10; the original
    program's code sets it to 0, and so does `seed001` (`side=` still sets it)."""
    game = get_game("squatter", size=6)
    for spec in ("seed001", "seed001:faithful=true", "seed001:skip=true"):
        assert make_player(game, spec).search.evaluate.__self__.side == 0
    assert make_player(game, "seed001:side=10").search.evaluate.__self__.side == 10
    assert Seed001().side == 10  # the evaluator as the seed text describes it


@pytest.mark.parametrize(
    ("moves", "answer", "text_answer"),
    [
        # The default as White, its book line: the original answers D5 at move 6.
        ("D3 A2 C4 B3 E2", "D5", None),
        # The default as Black: the original answers A5 at move 11 (side=10: C6).
        ("A2 C4 A3 D3 B3 D5 E4 F5 A4 C2", "A5", "C6"),
    ],
)
def test_faithful_seed001_answers_as_the_original_program(moves, answer, text_answer):
    """The original program's replies in games against the default (6 x 6,
    6 plies): the same move every time it is asked (about 9 s for D5)."""
    game = get_game("squatter", size=6)
    player = make_player(game, "seed001:faithful=true")
    state = game.replay(moves.split())
    assert game.format_move(player.choose(state, Limits(time=0.01))) == answer
    assert player.last_result.depth == 6 and player.last_result.completed
    assert game.format_move(player.choose(state)) == answer  # deterministic
    if text_answer is not None:
        text = make_player(game, "seed001:faithful=true,side=10")
        assert game.format_move(text.choose(state)) == text_answer


def test_faithful_seed001_is_not_timed_by_the_referee():
    """It ignores every time limit, so a match does not forfeit it for a
    move over the per-move limit (it once lost every such game on time)."""
    from boardgames.match.play import play_game

    game = get_game("squatter", size=6)
    # 0.2-0.5 s at 6 plies
    start = game.replay(["A2", "C4", "A3", "D3", "B3", "D5", "E4", "F5", "A4", "C2"])
    players = [make_player(game, "seed001:faithful=true"), make_player(game, "seed001:depth=1")]
    assert not players[0].timed and players[1].timed
    record = play_game(game, players, time_limit=0.05, start=start, max_moves=1)
    assert record.moves == ["A5"] and not record.forfeited


def test_a_time_limit_deepens_and_faithful_ignores_it():
    game = get_game("squatter", size=6)
    state = game.replay(["C3", "D4", "C4"])
    timed = make_player(game, "seed001:depth=30")
    move = timed.choose(state, Limits(time=0.2))
    assert move in state.legal_moves()
    assert 1 <= timed.last_result.depth < 30 and not timed.last_result.completed
    faithful = make_player(game, "seed001:depth=3,faithful=true")
    faithful.choose(state, Limits(time=0.06))
    assert faithful.last_result.depth == 3 and faithful.last_result.completed


def test_a_node_limit_holds_for_every_move_not_only_the_first():
    """Each move has its own `nodes`: the second move of a game deepens as
    far as a fresh player does (the count once ran on over the moves)."""
    game = get_game("squatter")
    player = make_player(game, "seed001:nodes=3000")
    state = game.new_state()
    for _ in range(3):
        fresh = make_player(game, "seed001:nodes=3000")
        move = player.choose(state)
        assert move == fresh.choose(state)
        mine, theirs = player.last_result, fresh.last_result
        assert (mine.depth, mine.nodes) == (theirs.depth, theirs.nodes)
        assert mine.depth >= 3 and mine.nodes <= 3000
        state.make(move)


def test_list_describes_seed001_as_it_plays():
    """`boardgames list` and docs/squatter.md say what the AI does: no
    symmetry skips unless `skip=true`."""
    from pathlib import Path

    from click.testing import CliRunner

    from boardgames.cli import main

    game = get_game("squatter", size=6)
    assert not make_player(game, "seed001").search.skip
    listed = CliRunner().invoke(main, ["list"]).output
    (line,) = [x for x in listed.splitlines() if x.strip().startswith("seed001 ")]
    assert "symmetry skips" not in line.replace("skip=true: symmetry skips", "")
    doc = (Path(__file__).resolve().parents[2] / "docs" / "squatter.md").read_text()
    (row,) = [x for x in doc.splitlines() if x.startswith("| `seed001` |")]
    assert "`skip=true` adds the symmetry check" in row
