"""Squatter: the reference boards, hand-made capture cases, protocol properties."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.errors import IllegalMoveError, NotationError, OptionError
from boardgames.game import Outcome, perft
from boardgames.games.squatter import BLACK, WHITE, parse_board, part_a
from boardgames.registry import get_game
from support.protocol_checks import check_protocol

DATA = Path(__file__).resolve().parent.parent / "data" / "squatter"

# Expected Part A answers of the course's and other teams' boards (docs/references.md).
ORACLE_FILES = {
    "t02_testCase2.txt": "Draw 3 3",
    "t03_testCase3.txt": "White 4 2",
    "t04_jonathan_full_nocapture.txt": "Draw 0 0",
    "t05_mytest.txt": "None 0 1",
    "t06_seacen_test.txt": "None 1 6",
    "t07_asu_black14_7x7.txt": "Black 1 4",
    "t08_spec_midgame.txt": "None 1 6",
    "t09_spec_final.txt": "Black 1 6",
    "t10_spec_p4_ownpiece_as_dash.txt": "Black 0 7",
    "t11_spec_p4_ownpiece_as_B.txt": "Black 0 6",
}


def board(*rows: str) -> str:
    return f"{len(rows)}\n" + "\n".join(rows) + "\n"


def answer(text: str) -> str:
    state = get_game("squatter").parse_position(text)
    return " ".join(state.game.part_a(state).split("\n"))


# --- reference boards ---------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ORACLE_FILES))
def test_reference_board_files(name):
    assert answer((DATA / name).read_text()) == ORACLE_FILES[name]


def test_reference_malformed_file():
    with pytest.raises(NotationError, match="row 3 has 5 tokens"):
        answer((DATA / "t01_testCase1_malformed.txt").read_text())


def test_oracle_cases_from_squatter_md():
    sample2 = board(
        "W B B B W B", "B - B W - W", "B - B W - W", "W B - B W B", "W W B W - W", "B W W B W B"
    )
    sample3 = board(
        "W W B W B B", "W - W - W B", "W - - W B W", "B W W B B W", "B W B - - B", "B B W B B W"
    )
    middle = board(
        "+ W W W W +", "W - W B B +", "W W W B - B", "B B B - - B", "B - - B - B", "B B B W B W"
    )
    final = board(
        "B W W W W W", "W - W B B W", "W W W B - B", "B B B - - B", "B - - B - B", "B B B W B W"
    )
    assert answer(sample2) == "Draw 3 3"
    assert answer(sample3) == "White 4 2"
    assert answer(middle) == "None 1 6"
    assert answer(final) == "Black 1 6"


def test_oracle_move_sequences():
    game = get_game("squatter", size=6)
    state = game.replay(["A2", "F6", "B1", "F5", "B3", "F4", "C2"])
    assert state.scores() == (1, 0)
    with pytest.raises(IllegalMoveError, match="captured"):
        state.play("B2")
    state = game.replay(["B2", "A2", "F6", "B1", "F5", "B3", "F4", "C2"])
    assert state.scores() == (0, 1)
    assert state.cell_token(game.parse_move("B2")) == "w"


# --- malformed boards -------------------------------------------------------------


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty board"),
        ("x\n+ + +\n+ + +\n+ + +", "first line"),
        ("2\n+ +\n+ +", "board size"),
        ("3\n+ + +\n+ + +", "missing row"),
        ("3\n+ + +\n+ + +\n+ + +\n+ + +", "extra line"),
        ("3\n+ + +\n+ + + +\n+ + +", "row 2 has 4 tokens"),
        ("3\n+ + +\n+ X +\n+ + +", "bad token 'X'"),
        ("3\n- W +\n+ + +\n+ + +", "border"),
        ("4\n+ W + +\nW - W +\n+ + + +\n+ + + +", "no loop"),
        ("4\n+ W + +\nW + W +\n+ W + +\n+ + + +", "free cell inside a White loop"),
        ("4\n+ W + +\nW B W +\n+ W + +\n+ + + +", "live Black stone inside a White loop"),
    ],
)
def test_malformed_boards_raise_one_clear_error(text, reason):
    with pytest.raises(NotationError, match=reason):
        parse_board(text)


def test_dash_may_stand_for_any_captured_cell():
    # A Black diamond holds a captured cell; the owner comes from the loop.
    state = parse_board(board("+ B + +", "B - B +", "+ B + +", "+ + + +"))
    assert state.scores() == (0, 1)
    assert state.owner(state.game.parse_move("B2")) == BLACK


def test_board_size_comes_from_the_text():
    state = get_game("squatter", size=6).parse_position(
        (DATA / "t07_asu_black14_7x7.txt").read_text()
    )
    assert state.game.size == 7


def test_loaded_board_side_to_move_is_the_side_with_fewer_stones():
    assert parse_board(board("+ + +", "+ + +", "+ + +")).to_move == WHITE
    assert parse_board(board("W + +", "+ + +", "+ + +")).to_move == BLACK
    assert parse_board(board("W + +", "+ B +", "+ + +")).to_move == WHITE
    # A captured White stone still counts as a White move.
    text = board("+ B + W", "B w B +", "+ B + W", "W + + W")
    assert parse_board(text).to_move == BLACK


def test_text_round_trip_keeps_captured_stones():
    game = get_game("squatter", size=6)
    state = game.replay(["B2", "A2", "F6", "B1", "F5", "B3", "F4", "C2"])
    again = game.parse_position(state.to_text())
    assert again.to_text() == state.to_text()
    assert again.hashes == state.hashes
    assert again.to_move == state.to_move


# --- hand-made capture cases ---------------------------------------------------------


def play(size: int, white: list[str], black: list[str | None]):
    """Play White's and Black's cells alternately (Black's are fillers on the border)."""
    game = get_game("squatter", size=size)
    state = game.new_state()
    for w, b in zip(white, black):
        state.play(w)
        if b:
            state.play(b)
    return state


def test_diagonal_diamond_captures_centre():
    state = play(5, ["B3", "C2", "C4", "D3"], ["E1", "E2", "E5", None])
    assert state.scores() == (1, 0)
    assert state.owner(state.game.parse_move("C3")) == WHITE


def test_loop_in_a_corner_using_border_stones():
    # White A2 A3 B1 C1 B4 C4 D2 D3 encloses the 2 x 2 block B2 B3 C2 C3.
    white = ["A2", "A3", "B1", "C1", "B4", "C4", "D2", "D3"]
    black = ["F1", "F2", "F3", "F4", "F5", "F6", "E6", None]
    state = play(6, white, black)
    assert state.scores() == (4, 0)


def test_the_border_is_not_a_wall():
    # A U of White stones open to the board edge captures nothing.
    white = ["A2", "B2", "B3", "A4"]
    black = ["F1", "F2", "F3", None]
    state = play(6, white, black)
    assert state.scores() == (0, 0)
    assert state.free >> state.game.parse_move("A3") & 1
    # Corner cells and border cells can never be captured.
    state = play(4, ["A2", "B1", "B2"], ["D4", "D3", None])
    assert state.scores() == (0, 0)


def test_nested_loops_and_recapture():
    game = get_game("squatter", size=7)
    # Black's diamond around D4 (captures D4), then White surrounds Black's
    # diamond: Black's stones become White's, and Black's territory changes hands.
    state = game.new_state()
    white = ["B4", "C3", "C5", "D2", "D6", "E3", "E5", "F4"]
    black = ["C4", "D3", "D5", "E4", "A1", "A7", "G1", "G7"]
    for b, w in zip(black, white):
        state.play(w)
        state.play(b)
        if b == "E4":
            assert state.scores() == (0, 1)
    # White's ring closes around the Black diamond only at the last White stone:
    # four captured Black stones plus Black's territory D4.
    assert state.scores() == (5, 0)
    for cell in ("C4", "D3", "D5", "E4"):
        assert state.cell_token(game.parse_move(cell)) == "b"
    assert state.owner(game.parse_move("D4")) == WHITE
    # Undo puts Black's territory back.
    while state.history[-1] != game.parse_move("F4"):
        state.undo()
    state.undo()
    assert state.scores() == (0, 1)


def test_one_move_closes_two_loops():
    # White's C3 completes the diamonds around C2 and around C4 at once.
    game = get_game("squatter", size=5)
    state = game.new_state()
    white = ["B2", "C1", "D2", "B4", "C5", "D4", "C3"]
    black = ["A1", "A5", "E1", "E5", "A3", "E3", None]
    for w, b in zip(white, black):
        state.play(w)
        if b:
            state.play(b)
    assert state.scores() == (2, 0)
    assert state.owner(game.parse_move("C2")) == WHITE
    assert state.owner(game.parse_move("C4")) == WHITE


def test_captured_stone_cannot_close_a_loop():
    # Black's diamond captures White's B2.  White then surrounds the Black
    # stone C2 with C1, C3 and D2: with a live B2 that would be a loop, but
    # the captured B2 is passable, so C2 still reaches the border via A2.
    game = get_game("squatter", size=6)
    state = game.replay(
        ["B2", "A2", "F6", "B1", "F5", "B3", "F4", "C2", "C1", "A6", "C3", "A5", "D2"]
    )
    assert state.scores() == (0, 1)
    assert state.cell_token(game.parse_move("C2")) == "B"
    # The same White shape with a live White stone on B2 does capture C2.
    state = game.replay(["B2", "C2", "C1", "A6", "C3", "A5", "D2"])
    assert state.scores() == (1, 0)
    assert state.cell_token(game.parse_move("C2")) == "b"


def test_own_stone_between_two_territories_stays_live():
    game = get_game("squatter", size=5)
    state = game.new_state()
    white = ["B2", "C1", "D2", "B4", "C5", "D4", "C3"]
    black = ["A1", "A5", "E1", "E5", "A3", "E3", None]
    for w, b in zip(white, black):
        state.play(w)
        if b:
            state.play(b)
    c3 = game.parse_move("C3")
    assert state.cell_token(c3) == "W" and state.owner(c3) is None


def test_game_end_and_draw():
    # On 3 x 3 only B2 can be captured: a diamond of Black stones around it.
    state = get_game("squatter", size=3).replay(
        ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]
    )
    assert state.is_over() and state.scores() == (0, 1) and state.result() == "black"
    state = get_game("squatter", size=3).new_state()
    for move in ["B2", "A2", "B1", "B3", "C2", "A1", "A3", "C1", "C3"]:
        assert not state.is_over()
        state.play(move)
    assert state.is_over() and state.scores() == (0, 0) and state.winner() is None
    assert state.result() == "draw" and part_a(state) == "Draw\n0\n0"
    assert state.outcome() == Outcome(None, "board full", (0, 0))
    assert state.game.part_a(state) == part_a(state)


def test_analyse_reports_stones_and_threats():
    game = get_game("squatter", size=6)
    state = game.replay(["A2", "F6", "B1", "F5", "B3", "F4"])  # White to move; C2 captures B2
    report = game.analyse(state).splitlines()
    assert report[:3] == ["to move: white", "legal moves: 30", "result: none"]
    assert report[3:] == [
        "score: 0 0",
        "white: 3 live stones, 0 captured stones; threats 1 (best +1); half diamonds 0; forks 0",
        "black: 3 live stones, 0 captured stones; threats 0; half diamonds 0; forks 0",
    ]
    assert game.part_a(state) == "None\n0\n0"


# --- protocol, perft, hashes --------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 6, 7])
def test_protocol(size):
    check_protocol(get_game("squatter", size=size), examples=15)


def test_options():
    with pytest.raises(OptionError):
        get_game("squatter", size=2)
    with pytest.raises(OptionError):
        get_game("squatter", size=27)
    assert len(get_game("squatter", size=26).symmetries) == 8


def test_perft_small_board():
    # With no capture possible in the first 3 moves, perft is a falling factorial.
    state = get_game("squatter", size=4).new_state()
    assert [perft(state, d) for d in range(1, 4)] == [16, 16 * 15, 16 * 15 * 14]


def test_eight_symmetries_are_distinct():
    game = get_game("squatter", size=6)
    assert len(set(game.symmetries)) == 8


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1), st.sampled_from([4, 5, 6, 7]))
def test_random_games_play_undo_and_hash(seed, size):
    """Full random games: hashes stay exact, undo restores every step, the
    scores equal a recount from the board text."""
    game = get_game("squatter", size=size)
    rng = random.Random(seed)
    state = game.new_state()
    snaps = []
    while not state.is_over():
        snaps.append((state.to_text(), tuple(state.hashes), state.scores(), state.to_move))
        state.make(rng.choice(state.legal_moves()))
        assert state.hashes == state.recompute_hashes()
        reread = game.parse_position(state.to_text())
        assert reread.scores() == state.scores()
        assert reread.hashes == state.hashes
    assert state.scores()[0] + state.scores()[1] <= size * size
    while snaps:
        state.undo()
        assert (state.to_text(), tuple(state.hashes), state.scores(), state.to_move) == snaps.pop()


# --- evaluators, move order, AIs --------------------------------------------------------------


def test_seed001_features_by_hand():
    from boardgames.games.squatter.experts import Seed001

    # White: a corner stone A1, side stone A3, captured C3 inside its diamond (5x5).
    state = parse_board(board("W + W + B", "+ + W + +", "+ W - W +", "+ + W + B", "B + + + +"))
    assert state.to_move == BLACK
    ev = Seed001()
    # From White's side: 100 * 1/25 - 200 * 0 + 10 * 2/16 - 2000 * 1.
    expected = 100 / 25 + 10 * 2 / 16 - 2000
    assert ev.terms(state, WHITE) == pytest.approx(expected)
    # Black's side: 3 side stones, 2 of them corners (A5, E1); White owns 1 cell.
    assert ev.terms(state, BLACK) == pytest.approx(-200 / 25 + 10 * 3 / 16 - 4000)
    # Negamax sign: with White's perspective and Black to move, the value is negated.
    assert Seed001(perspective=WHITE)(state) == pytest.approx(-expected)
    assert Seed001(corner=0).terms(state, WHITE) == pytest.approx(100 / 25 + 10 * 2 / 16)


def test_seed003_terms_by_hand():
    from boardgames.games.squatter.experts import Seed003, clumping

    state = parse_board(board("+ + + + +", "+ W + + +", "+ + W + +", "+ + + B +", "+ + + + +"))
    # Two White stones touching diagonally: each has one own neighbour.
    assert clumping(state, WHITE) == 2 and clumping(state, BLACK) == 0
    ev = Seed003()
    # layer: White B2 (distance 1) + C3 (0) minus Black D4 (1) = 0; clump 2 x 10.
    assert ev.terms(state, WHITE) == pytest.approx(20)
    assert Seed003(clump=0, layer=5).terms(state, WHITE) == pytest.approx(0)


def test_territory_counts_threats():
    from boardgames.games.squatter.territory import Territory, threats

    game = get_game("squatter", size=6)
    state = game.replay(["A2", "F6", "B1", "F5", "B3", "F4"])  # White to move; C2 captures B2
    assert threats(state, WHITE) == [1] and threats(state, BLACK) == []
    with_tempo, without = Territory(tempo=60), Territory(tempo=0)
    assert with_tempo(state) - without(state) == pytest.approx(60)
    state.play("C2")
    only_captures = Territory(tempo=0, pressure=0, shape=0, corner=0, side=0, potential=0, fork=0)
    assert only_captures(state) == -100


def test_threat_cache_is_keyed_by_the_players_stones():
    from boardgames.games.squatter.territory import closing_cells

    game = get_game("squatter", size=7)
    state = game.benchmark_positions()["middle"]
    cache: dict = {}
    first = closing_cells(state, WHITE, cache)
    assert list(cache) == [(WHITE, state.stones[WHITE])]
    assert closing_cells(state, WHITE, cache) is first
    assert first == closing_cells(state, WHITE)


def test_seed003_order_puts_neighbours_first_and_corners_last():
    from boardgames.games.squatter.experts import seed003_order

    game = get_game("squatter", size=5)
    state = game.replay(["C3"])
    order = seed003_order(state, state.legal_moves())
    names = [game.format_move(m) for m in order]
    near = {"B2", "B3", "B4", "C2", "C4", "D2", "D3", "D4"}
    assert set(names[:8]) == near
    assert set(names[-4:]) == {"A1", "A5", "E1", "E5"}
    assert all(game.format_move(m)[0] in "AE" or m % 5 in (0, 4) for m in order[9:-4])


def test_depth_schedule_deepens_and_goes_to_the_end():
    from boardgames.ai.squatter.players import depth_schedule

    game = get_game("squatter", size=7)
    state = game.new_state()
    assert depth_schedule(state) == 4
    rng = random.Random(1)
    depths = []
    while not state.is_over():
        depths.append(depth_schedule(state))
        state.make(rng.choice(state.legal_moves()))
    assert depths == sorted(depths[: len(depths) - 11]) + depths[len(depths) - 11 :]
    assert depths[-1] == 1


@pytest.mark.parametrize("name", ["seed001", "seed003", "default"])
def test_named_ais_play_legal_moves(name):
    from boardgames.ai import make_player

    game = get_game("squatter", size=5)
    state = game.replay(["C3", "B2"])
    player = make_player(game, f"{name}:depth=2")
    before = state.to_text()
    move = player.choose(state)
    assert move in state.legal_moves() and state.to_text() == before


def test_ai_options_are_checked():
    from boardgames.ai import make_player

    game = get_game("squatter", size=6)
    with pytest.raises(OptionError, match="unknown option.*corner"):
        make_player(game, "seed001:bogus=1")
    player = make_player(game, "seed003:corner=-5,depth=1")
    assert player.evaluator.corner == -5
    # Bad values fail when the AI is made, not in the middle of a game.
    for spec, reason in (
        ("default:potential=x", "potential must be a number"),
        ("default:lmr=maybe", "lmr must be true or false"),
        ("seed003:order=2", "order must be true or false"),
        ("default:perspective=1", "unknown option"),
    ):
        with pytest.raises(OptionError, match=reason):
            make_player(game, spec)
    assert make_player(game, "default:lmr=true,order=false,fork=0").engine.reductions is True


def test_default_ai_takes_a_capture():
    from boardgames.ai import make_player

    game = get_game("squatter", size=6)
    state = game.replay(["A2", "F6", "B1", "F5", "B3", "F4"])
    assert game.format_move(make_player(game, "default:depth=2").choose(state)) == "C2"


def test_solve_3x3_exactly():
    from boardgames.search import solve

    result = solve(get_game("squatter", size=3).new_state())
    # Black can always complete the diamond around B2 unless White takes B2
    # first; with B2 White's, nothing can be captured: a draw.
    assert result.value == 0


def test_svg_and_text_show_territory():
    import xml.etree.ElementTree as ET

    game = get_game("squatter", size=6)
    state = game.replay(["B2", "A2", "F6", "B1", "F5", "B3", "F4", "C2"])
    svg = state.game.render_svg(state)
    root = ET.fromstring(svg)
    fills = [e.get("fill") for e in root.iter() if e.tag.endswith("rect")]
    assert fills.count("#5a4a3a") == 1  # Black's territory: the cell B2
    assert "White 0 - Black 1" in svg
    text = str(state)
    assert text.splitlines()[2].split() == ["B", "B", "w", "B", "+", "+", "+"]
    assert "\x1b[" in state.game.render_text(state, color=True)


@pytest.mark.slow
def test_solve_4x4_is_a_draw():
    from boardgames.search import solve

    result = solve(get_game("squatter", size=4).new_state())
    assert result.value == 0 and result.winner is None


@pytest.mark.slow
@pytest.mark.parametrize("seed_ai", ["seed001", "seed003"])
def test_default_beats_the_seed_players(seed_ai):
    """A short version of the strength match in docs/results/squatter.md."""
    from boardgames.match.play import play_match

    game = get_game("squatter", size=6)
    summary = play_match(game, "default", seed_ai, games=6, time_limit=1.0, seed=1, opening_plies=2)
    assert summary.wins + 0.5 * summary.draws >= 0.6 * 6


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([3, 4, 6, 7, 26]), st.integers(0, 2**676 - 1), st.integers(0, 675))
def test_ring_seed_lookup_matches_the_ring_walk(size, stones, cell):
    """The seeds looked up by the stones around a cell (hot path, filled as
    met) equal the neighbour-by-neighbour walk."""
    from boardgames.games.squatter.geometry import flood_seeds

    geo = get_game("squatter", size=size).geometry
    mine, c = stones & geo.full, cell % geo.cells
    own_ring = sum(1 << k for k, x in enumerate(geo.ring[c]) if x >= 0 and mine >> x & 1)
    expected = flood_seeds(own_ring, geo.offboard[c])
    around = mine & geo.ring_mask[c]
    assert geo.seeds_at(c, around) == expected
    assert geo.ring_seeds[c][around] == expected


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([4, 5, 6, 7, 9]), st.integers(0, 2**32 - 1), st.integers(0, 80))
def test_half_diamonds_match_their_definition_cell_by_cell(size, seed, plies):
    from boardgames.games.squatter.territory import half_diamonds

    game = get_game("squatter", size=size)
    state = game.new_state()
    rng = random.Random(seed)
    while len(state.history) < plies and not state.is_over():
        state.make(rng.choice(state.legal_moves()))
    geo = game.geometry

    def orthogonal(cell):
        r, c = divmod(cell, size)
        return [rr * size + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))]

    for player in (WHITE, BLACK):
        mine, free = state.stones[player], state.free
        half = 0
        for cell in range(geo.cells):
            if not geo.interior >> cell & 1 or (mine | state.terr[player]) >> cell & 1:
                continue
            around = orthogonal(cell)
            own = sum(mine >> x & 1 for x in around)
            if own == 2 and all((mine | free) >> x & 1 for x in around):
                half |= 1 << cell
        forks = 0
        for cell in range(geo.cells):
            if free >> cell & 1:
                near = [x for x in orthogonal(cell) if 0 <= x < geo.cells]
                near = [x for x in near if abs(x % size - cell % size) <= 1]
                if sum(half >> x & 1 for x in near) >= 2:
                    forks |= 1 << cell
        assert half_diamonds(state, player) == (half, forks)


def test_half_diamonds_and_fork_cells():
    from boardgames.games.squatter.territory import Territory, half_diamonds

    game = get_game("squatter", size=6)

    def names(mask):
        return sorted(game.format_move(i) for i in range(36) if mask >> i & 1)

    # White C2, C4, E2, E4 around D3: each of C3, D2, D4, E3 has two White
    # neighbours and two free ones; D3 touches all four (one stone, four threats).
    state = game.replay(["C2", "F6", "C4", "F1", "E2", "A6", "E4"])
    half, forks = half_diamonds(state, WHITE)
    assert names(half) == ["C3", "D2", "D4", "E3"] and names(forks) == ["D3"]
    assert half_diamonds(state, BLACK) == (0, 0)
    plain = Territory(potential=0, fork=0)
    # Black to move: White's four half diamonds and one fork count against it.
    assert Territory(potential=5, fork=10)(state) - plain(state) == pytest.approx(-5 * 4 - 10)
    # A Black stone on D3 spoils every one of them.
    state.play("D3")
    assert half_diamonds(state, WHITE) == (0, 0)
    # A half diamond may hold an enemy stone (capturing it is worth as much).
    state = game.replay(["C2", "C3", "C4", "F1"])
    assert names(half_diamonds(state, WHITE)[0]) == ["C3"]
