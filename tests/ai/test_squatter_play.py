"""Squatter's default player (ai/squatter/default.py): the book, the exact
endgame and its traps, and the fallback to the search."""

from __future__ import annotations

import random

import pytest

from boardgames.ai import make_player
from boardgames.budget import Limits
from boardgames.games.squatter import book
from boardgames.games.squatter.potential import dead_cells
from boardgames.games.squatter.solver import SquatterSolver
from boardgames.registry import get_game


@pytest.fixture
def small_book(monkeypatch):
    monkeypatch.setitem(book.LINES, 6, [(1, "C3 D4 B2 E5", "test")])
    monkeypatch.setattr(book, "_TABLES", {})
    yield
    book._TABLES.clear()


def test_the_book_answers_in_every_orientation(small_book):
    game = get_game("squatter", size=6)
    assert game.format_move(book.book_move(game.replay(["C3"]))) == "D4"
    # C3's mirror images and rotations: the reply turns with the board.
    for sym in game.symmetries:
        first = game.format_move(sym[game.parse_move("C3")])
        reply = game.format_move(sym[game.parse_move("D4")])
        assert game.format_move(book.book_move(game.replay([first]))) == reply
    assert book.book_move(game.replay(["C4"])) is not None  # C4 mirrors C3
    assert book.book_move(game.replay(["B2"])) is None
    assert book.book_move(game.new_state()) is None


def test_the_default_plays_the_book(small_book):
    game = get_game("squatter", size=6)
    player = make_player(game, "default:time=0.2")
    state = game.replay(["C3", "D4", "B2"])
    assert game.format_move(player.choose(state)) == "E5"
    assert player.last_result.algorithm == "book"
    off = make_player(game, "default:time=0.2,book=false")
    off.choose(state)
    assert off.last_result.algorithm != "book"


def _won_endgame():
    """A 5 x 5 position with few live cells where White (to move) wins."""
    rng = random.Random(11)
    game = get_game("squatter", size=5)
    while True:
        state = game.new_state()
        while state.free.bit_count() > 9:
            state.make(rng.choice(state.legal_moves()))
        if state.to_move == 0:
            result = SquatterSolver(game).solve(state, outcome=True)
            if result.value > 0:
                return state


def test_a_proven_win_is_played():
    state = _won_endgame()
    player = make_player(state.game, "default:time=5")
    move = player.choose(state)
    assert player.last_result.algorithm == "solver"
    state.make(move)
    assert SquatterSolver(state.game).solve(state, outcome=True).value < 0


@pytest.mark.parametrize("threads", [1, 2])
def test_a_drawn_endgame_keeps_the_draw_and_may_set_traps(threads):
    # With two processes too: the helpers search the drawing moves only.
    rng = random.Random(12)
    game = get_game("squatter", size=5)
    checked = 0
    while checked < 6:
        state = game.new_state()
        while state.free.bit_count() > 10:
            state.make(rng.choice(state.legal_moves()))
        solver = SquatterSolver(game)
        if solver.solve(state, outcome=True).value != 0:
            continue
        player = make_player(game, f"default:time=5,traps=25,threads={threads}")
        try:
            move = player.choose(state)
        finally:
            player.close()
        state.make(move)
        assert solver.solve(state, outcome=True).value == 0  # the draw is kept
        checked += 1


def test_with_no_limit_at_all_the_search_takes_the_default_time():
    game = get_game("squatter", size=6)
    state = game.replay(["C3", "D4", "C4", "D3", "B3", "E4"])
    player = make_player(game, "default")
    assert player.limits.unlimited
    player.choose(state)
    assert player.last_result.algorithm == "negascout"
    assert player.last_result.time > 0.5  # DEFAULT_TIME (1 s), not a depth-4 search


def test_a_solve_that_runs_out_of_time_leaves_the_move_to_the_search():
    game = get_game("squatter", size=6)
    state = game.replay(["C3", "D4", "C4", "D3", "B3", "E4"])
    live = (state.free & ~dead_cells(state)).bit_count()
    player = make_player(game, f"default:solve_at={live}")
    move = player.choose(state, Limits(time=0.05))
    assert move in state.legal_moves()
    assert player.last_result.algorithm == "negascout"
    assert player._failed == (live, 6)


def test_the_book_lines_end_in_proven_wins():
    # 6 x 6 has a line against full-strength seed 001 for each colour.
    assert sorted(colour for colour, _, by in book.LINES[6] if by == "seed001") == [0, 1]
    for size, lines in book.LINES.items():
        game = get_game("squatter", size=size)
        for colour, line, by in lines:
            assert by in ("seed001", "seed003")
            state = game.replay(line.split())
            result = SquatterSolver(game).solve(state, outcome=True)
            won = result.value if state.to_move == colour else -result.value
            assert won > 0, line
            # Every book move of the line is found again from its position
            # (so no line changes another's move in a shared position).
            start = game.new_state()
            for move in line.split():
                if start.to_move == colour:
                    assert game.format_move(book.book_move(start)) == move
                start.make(game.parse_move(move))


def test_the_book_answers_d3_f3_and_d3_f4_with_c4():
    # The White seed003 lines: after the book's D3 and seed 003's F3 or F4
    # (or an image of them), White's third move is C4 (the default's own
    # choice in every game it won there; stop 20's White draws played C2 or E2).
    game = get_game("squatter", size=6)
    for second in ("F3", "F4"):
        assert game.format_move(book.book_move(game.replay(["D3", second]))) == "C4"
    # The same position turned by a symmetry of the board: the reply turns too.
    for sym in game.symmetries:
        moves = [game.format_move(sym[game.parse_move(text)]) for text in ("D3", "F3", "C4")]
        assert game.format_move(book.book_move(game.replay(moves[:2]))) == moves[2]


def test_the_book_answers_e4_in_the_a2_a3_line_with_f5():
    # After A2 C4 A3 D3 B3 D5 E4 the book plays F5 (not C2, where seed 003's
    # F3, F4 and F5 drew 23 of 26 games); after seed 001's A4 C2, after its
    # A5 E2, then B5 and D1; after seed 003's C6 E2, then F4 and E3; in every
    # orientation.
    game = get_game("squatter", size=6)
    start = ["A2", "C4", "A3", "D3", "B3", "D5", "E4"]
    cases = [("", "F5"), ("F5 A4", "C2"), ("F5 A4 C2 A5", "E2"), ("F5 A4 C2 A5 E2 E3", "B5"),
             ("F5 A4 C2 A5 E2 E3 B5 B1", "D1"),
             ("F5 C6", "E2"), ("F5 C6 E2 B6", "F4"), ("F5 C6 E2 B6 F4 F3", "E3")]
    for sym in game.symmetries:
        for after, answer in cases:
            moves = [sym[game.parse_move(text)] for text in [*start, *after.split(), answer]]
            state = game.replay([game.format_move(move) for move in moves[:-1]])
            assert book.book_move(state) == moves[-1], after
    # The old C2 lines are gone: C2 F3 is off the book; so is C6 after seed
    # 001's A4 C2, the reply of the seed text's player (`seed001:side=10`).
    assert book.book_move(game.replay([*start, "C2", "F3"])) is None
    assert book.book_move(game.replay([*start, "F5", "A4", "C2", "C6"])) is None


@pytest.mark.slow
def test_the_f5_lines_are_won():
    """The seed 003 F5 line is proven won for Black after F4 (move 12, 24
    free cells, White to move), the seed 001 one after E2 (move 12, 24 free
    cells; about 45 s of CPU in all)."""
    game = get_game("squatter", size=6)
    start = ["A2", "C4", "A3", "D3", "B3", "D5", "E4", "F5"]
    state = game.replay([*start, "C6", "E2", "B6", "F4"])
    assert state.to_move == 0 and state.free.bit_count() == 24
    assert SquatterSolver(game).solve(state, outcome=True).value == -1
    state = game.replay([*start, "A4", "C2", "A5", "E2"])
    assert state.to_move == 0 and state.free.bit_count() == 24
    assert SquatterSolver(game).solve(state, outcome=True).value == -1


def test_the_book_answers_d3_f2_with_c4():
    # Stop 23's White seed003 lines: after the book's D3 and seed 003's F2
    # (or its image E1) the book plays C4 (the default's own E2 drew), then
    # B5 after seed 003's E1 or F3, and the lines' moves after its replies
    # to B5, in every orientation of the board.  After E1 B5 the board is
    # symmetric (the A6-F1 diagonal), so E3 there is D2's image: D2.
    game = get_game("squatter", size=6)
    assert game.format_move(book.book_move(game.replay(["D3", "E1"]))) == "C4"
    cases = [("", "C4"), ("C4 E1", "B5"), ("C4 E1 B5 D2", "E3"), ("C4 E1 B5 E3", "D2"),
             ("C4 F3", "B5"), ("C4 F3 B5 E3", "B3"), ("C4 F3 B5 D2", "B3"),
             ("C4 F3 B5 E1", "D5"), ("C4 E1 B5 D2 E3 C2", "E5"), ("C4 F3 B5 D2 B3 A4", "C2")]
    for sym in game.symmetries:
        for after, answer in cases:
            texts = ["D3", "F2", *after.split(), answer]
            moves = [sym[game.parse_move(text)] for text in texts]
            state = game.replay([game.format_move(move) for move in moves[:-1]])
            assert book.book_move(state) == moves[-1], after
    # F3 after E1 B5 is the F3 B5 E1 position (transposition): D5; B2 is off the book.
    state = game.replay(["D3", "F2", "C4", "E1", "B5", "F3"])
    assert game.format_move(book.book_move(state)) == "D5"
    assert book.book_move(game.replay(["D3", "F2", "C4", "E1", "B5", "B2"])) is None


@pytest.mark.slow
def test_the_white_seed003_lines_are_won_from_move_11():
    """Each White seed003 line is proven won for White after its 11th move
    (24 or 25 free cells, Black to move: every Black move loses; 1-20 s
    each)."""
    game = get_game("squatter", size=6)
    lines = [line for colour, line, by in book.LINES[6] if by == "seed003" and colour == 0]
    assert len(lines) == 6
    for line in lines:
        state = game.replay(line.split()[:11])
        assert state.to_move == 1 and state.free.bit_count() in (24, 25)
        assert SquatterSolver(game).solve(state, outcome=True).value == -1, line


WHITE_SEED001 = "D3 A2 D5 A3 C4 A4 B5 A5 E4 B1 C6 B3 C3 C2 B4"


def test_the_white_seed001_line_is_what_seed001_answers_and_won_from_move_11():
    """Seed 001 (full strength, deterministic) answers the book's D3 D5 C4 B5
    E4 C6 C3 with A2 A3 A4 A5 B1 B3 C2, so the default as White reaches the
    position after C6 (move 11, 23 free cells, Black to move), which the
    solver proves won for White: every Black move loses.  About 10 s of CPU."""
    game = get_game("squatter", size=6)
    assert (0, WHITE_SEED001, "seed001") in book.LINES[6]
    seed001 = make_player(game, "seed001:faithful=true")
    state = game.new_state()
    for number, move in enumerate(WHITE_SEED001.split(), 1):
        if state.to_move == 1:
            assert game.format_move(seed001.choose(state)) == move, number
        state.play(move)
        if number == 11:
            assert state.to_move == 1 and state.free.bit_count() == 23
            assert SquatterSolver(game).solve(state, outcome=True).value == -1


def test_the_book_plays_the_white_seed001_line_in_every_orientation():
    # D3 (shared with the seed 003 lines), then D5 after seed 001's A2, and
    # the line's White moves after its replies, turned with the board (the
    # empty board has one book move, D3: its images come from the turn).
    game = get_game("squatter", size=6)
    line = WHITE_SEED001.split()
    assert game.format_move(book.book_move(game.new_state())) == "D3"
    for sym in game.symmetries:
        moves = [sym[game.parse_move(text)] for text in line]
        state = game.new_state()
        for number, move in enumerate(moves, 1):
            if state.to_move == 0 and number > 1:
                assert book.book_move(state) == move, number
            state.make(move)
    # Another Black reply leaves the book (D3 A2 D5 A4 is in no line).
    assert book.book_move(game.replay(["D3", "A2", "D5", "A4"])) is None


@pytest.mark.slow
def test_the_book_lines_are_what_seed001_answers():
    """The opponent's moves of each seed 001 line are seed 001's own (full
    strength): the default reaches the proven win against it every time.
    Seed 003 searches to a time limit, so its lines cannot be checked so."""
    for size, lines in book.LINES.items():
        game = get_game("squatter", size=size)
        for colour, line, by in lines:
            if by != "seed001":
                continue
            seed001 = make_player(game, "seed001:faithful=true")
            state = game.new_state()
            for move in line.split():
                if state.to_move != colour:
                    assert game.format_move(seed001.choose(state)) == move, line
                state.make(game.parse_move(move))


def _positions(game, line: str) -> set[int]:
    """The canonical keys of every position a book line passes through."""
    state, keys = game.new_state(), set()
    for move in line.split():
        state.make(game.parse_move(move))
        keys.add(book.canonical(state)[0])
    return keys


def test_every_book_line_reaches_a_position_no_other_line_does():
    """A line that is another's mirror image, rotation or transposition (or
    a part of one) adds nothing to the book; it must not get in unnoticed."""
    for size, lines in book.LINES.items():
        game = get_game("squatter", size=size)
        keys = [_positions(game, line) for _, line, _ in lines]
        for i, mine in enumerate(keys):
            for j, other in enumerate(keys):
                assert i == j or not mine <= other, (lines[i][1], lines[j][1])


def test_a_mirrored_line_is_caught():
    """Stop 23's dropped line was the D2 line's mirror image: the same positions."""
    game = get_game("squatter", size=6)
    line = "D3 F2 C4 E1 B5 D2 E3 C2 E5 D5 D6 C6 C5 F4 E4"
    mirror = game.symmetries[1]
    image = " ".join(game.format_move(mirror[game.parse_move(m)]) for m in line.split())
    assert image != line
    assert _positions(game, image) == _positions(game, line)
