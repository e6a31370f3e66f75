"""Andantino: reference counts, the oracle cases, hand-checked wins, the
pocket convention, notation, rendering, and the incremental rules checked
against a slow full-board reference."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.errors import IllegalMoveError, NotationError
from boardgames.game import Outcome, perft
from boardgames.games.andantino.experts import BridgeExpert, order_moves
from boardgames.games.andantino.geometry import (
    CUBES,
    DIRECTIONS,
    INDEX,
    NEIGHBOURS,
    RING,
    SIZE,
    SYMMETRIES,
)
from boardgames.games.andantino.notation import split_moves
from boardgames.games.andantino.rules import ENCLOSURE, FIVE, NO_MOVES, SELF_ENCLOSED
from boardgames.games.andantino.threats import bridges, line_windows, winning_cells
from boardgames.registry import get_game
from support.protocol_checks import check_protocol

GAME = get_game("andantino")
WHITE, BLACK = 0, 1


def cubes(text: str) -> list[int]:
    return [GAME.parse_move(t) for t in split_moves(text)]


def setup(white: list[tuple], black: list[tuple]):
    """A position with these stones, placed alternately with the unchecked
    `make` (White first; both lists equally long, or White one longer).  Used
    to build hand-checked shapes without caring how a game could reach them.
    Scattered stones can leave no legal cell for a moment; that draw is not
    part of the shape, so it is ignored here (any win still fails the setup)."""
    assert len(black) <= len(white) <= len(black) + 1
    state = GAME.new_state()
    order = [c for pair in zip(white, black) for c in pair] + white[len(black) :]
    for cube in order:
        state.make(INDEX[cube])
        if state.reason == NO_MOVES:
            state.reason = None
        assert not state.is_over(), f"setup ended early at {cube}: {state.reason}"
    return state


def around(cube: tuple) -> list[tuple]:
    return [tuple(a + b for a, b in zip(cube, d)) for d in DIRECTIONS]


# --- protocol, perft, oracles -----------------------------------------------------------


def test_protocol():
    check_protocol(GAME, examples=15)


def test_perft_from_the_start():
    state = GAME.new_state()
    assert [perft(state, d) for d in range(1, 7)] == [6, 12, 36, 144, 720, 4032]


def _distinct_positions(state, depth: int, seen: set) -> None:
    if depth == 0:
        seen.add(state.key)
        return
    for m in state.legal_moves():
        state.make(m)
        _distinct_positions(state, depth - 1, seen)
        state.undo()


def test_distinct_positions_from_the_start():
    counts = []
    for depth in range(1, 6):
        seen: set[int] = set()
        _distinct_positions(GAME.new_state(), depth, seen)
        counts.append(len(seen))
    assert counts == [6, 12, 30, 114, 510]


@pytest.mark.parametrize(
    "moves, counts",
    [
        ("0,-1,1  -1,0,1  -1,1,0  1,-1,0  1,-2,1  0,-2,2", [6, 2, 3, 4, 5, 6, 6]),
        ("0,-1,1  -1,0,1  -1,1,0  -2,1,1  -2,2,0  1,-1,0", [6, 2, 3, 4, 5, 6, 7]),
        ("0,-1,1  1,-1,0  -1,0,1  1,-2,1  0,-2,2  -1,1,0", [6, 2, 3, 4, 5, 5, 6]),
        ("-1,0,1  0,-1,1  1,-1,0  1,0,-1  0,1,-1  -1,1,0", [6, 2, 3, 4, 5, 5, 6]),
    ],
)
def test_oracle_legal_counts(moves, counts):
    state = GAME.new_state()
    seen = [len(state.legal_moves())]
    for m in cubes(moves):
        state.play(m)
        seen.append(len(state.legal_moves()))
    assert seen == counts


def test_oracle_five_in_a_row():
    state = GAME.new_state()
    counts = []
    for m in cubes("-1,0,1 -1,1,0 0,-1,1 1,-1,0 -2,1,1 -2,2,0 1,-2,1 0,1,-1 -3,2,1"):
        counts.append(len(state.legal_moves()))
        state.play(m)
    assert counts == [6, 2, 3, 4, 5, 6, 7, 8, 7]
    assert (state.winner(), state.reason, len(state.history)) == (WHITE, FIVE, 9)
    assert state.outcome() == Outcome(WHITE, "five in a row")
    assert state.legal_moves() == []


def test_oracle_enclosure():
    moves = "1,0,-1 0,1,-1 1,-1,0 2,-1,-1 2,-2,0 -1,1,0 2,0,-2 -1,0,1 3,-2,-1 -2,1,1 3,-1,-2"
    state = GAME.parse_position(moves)
    assert (state.winner(), state.reason, len(state.history)) == (WHITE, ENCLOSURE, 11)
    assert state.outcome() == Outcome(WHITE, "enclosure")
    state.undo()
    assert not state.is_over() and state.outcome() is None


# --- the seed's index and notation ---------------------------------------------------------


def test_seed_tile_index():
    assert CUBES[0] == (0, 0, 0) and SIZE == 271
    assert CUBES[1] == (-1, 0, 1)  # ring 1 starts at its south-west corner...
    assert CUBES[2] == (0, -1, 1)  # ...and walks east
    assert CUBES[7] == (-2, 0, 2) and CUBES[270] == (-9, 1, 8)
    for r in range(1, 10):
        ring = range(3 * r * (r - 1) + 1, 3 * r * (r + 1) + 1)
        assert all(RING[i] == r for i in ring)
        walk = [CUBES[i] for i in ring]
        assert all(b in around(a) for a, b in zip(walk, walk[1:]))
    assert GAME.index(-9, 1, 8) == 270 and GAME.cube(270) == (-9, 1, 8)
    with pytest.raises(NotationError):
        GAME.index(10, -10, 0)


def test_notation():
    assert GAME.format_move(0) == "J10"
    assert GAME.parse_move("j10") == GAME.parse_move("0,0,0") == 0
    assert GAME.parse_move("A1") == INDEX[(0, 9, -9)]
    assert GAME.parse_move("S10") == INDEX[(0, -9, 9)]
    assert GAME.parse_move(" (1, -1, 0) ") == INDEX[(1, -1, 0)]
    assert GAME.format_cube(INDEX[(1, -1, 0)]) == "1,-1,0"
    for bad in ["A11", "T1", "J0", "1,1,1", "10,-10,0", "J10x", ""]:
        with pytest.raises(NotationError) as info:
            GAME.parse_move(bad)
        assert repr(bad) in str(info.value)


def test_position_text_round_trip_and_cube_input():
    moves = "0,-1,1 -1,0,1 -1,1,0 1,-1,0"
    state = GAME.parse_position(moves)
    assert state.to_text() == "K10 K9 J9 J11"
    assert GAME.parse_position(state.to_text()).hashes == state.hashes
    assert GAME.parse_position("# a comment\nK10, K9\n-1, 1, 0").to_text() == "K10 K9 J9"


def test_bad_positions_raise_notation_errors():
    with pytest.raises(NotationError, match="move 2"):
        GAME.parse_position("K10 A1")
    with pytest.raises(NotationError, match="move 1"):
        GAME.parse_position("Z9")
    over = "-1,0,1 -1,1,0 0,-1,1 1,-1,0 -2,1,1 -2,2,0 1,-2,1 0,1,-1 -3,2,1"
    with pytest.raises(NotationError, match="game is over"):
        GAME.parse_position(over + " 0,2,-2")


def test_first_move_and_placement_rule():
    state = GAME.new_state()
    assert sorted(state.legal_moves()) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(IllegalMoveError, match="touch the centre"):
        state.play("0,-2,2")
    with pytest.raises(IllegalMoveError, match="occupied"):
        state.play("J10")
    state.play("0,-1,1")
    assert sorted(state.legal_moves()) == sorted(cubes("-1,0,1 1,-1,0"))
    with pytest.raises(IllegalMoveError, match="two stones"):
        state.play("0,1,-1")


# --- hand-checked wins ---------------------------------------------------------------------


def test_black_five_counts_the_centre_stone():
    state = setup(
        white=[(0, 1, -1), (0, -1, 1), (1, -2, 1), (-1, 0, 1)],
        black=[(1, -1, 0), (2, -2, 0), (3, -3, 0)],
    )
    assert state.to_move == BLACK and not state.is_over()
    state.play("-1,1,0")  # -1..3 along the E-W axis through the centre
    assert (state.winner(), state.reason) == (BLACK, FIVE)
    assert state.result() == "black"


def test_six_in_a_row_wins():
    state = setup(
        white=[(0, 1, -1), (0, -1, 1), (1, -2, 1), (-1, 0, 1), (-2, 1, 1)],
        black=[(-1, 1, 0), (-2, 2, 0), (2, -2, 0), (3, -3, 0)],
    )
    assert state.to_move == BLACK
    state.play("1,-1,0")  # fills the gap: -2..3 is six in a row
    assert (state.winner(), state.reason) == (BLACK, FIVE)


def test_enclosing_a_group_of_two():
    pair = [(0, 0, 0), (1, -1, 0)]
    wall = sorted({c for p in pair for c in around(p)} - set(pair))
    assert len(wall) == 8
    # Black's other stones stay well away; White closes the wall with the last stone.
    state = setup(
        white=wall[:7],
        black=[
            (1, -1, 0),
            (-2, 3, -1),
            (-2, 4, -2),
            (-3, 4, -1),
            (-3, 5, -2),
            (-4, 5, -1),
            (-4, 6, -2),
        ],
    )
    assert not state.is_over() and state.to_move == WHITE
    state.make(INDEX[wall[7]])
    assert (state.winner(), state.reason) == (WHITE, ENCLOSURE)


def test_enclosed_region_may_hold_empty_cells():
    inside = [(0, 0, 0), (1, -1, 0)]  # the centre stone and one empty cell
    wall = sorted({c for p in inside for c in around(p)} - set(inside))
    state = setup(
        white=wall[:7],
        black=[
            (-2, 3, -1),
            (-2, 4, -2),
            (-3, 4, -1),
            (-3, 5, -2),
            (-4, 5, -1),
            (-4, 6, -2),
            (-5, 6, -1),
        ],
    )
    assert not state.is_over() and state.to_move == WHITE
    state.make(INDEX[wall[7]])
    assert (state.winner(), state.reason) == (WHITE, ENCLOSURE)


def test_empty_pocket_is_not_a_win():
    hole = (3, -2, -1)
    state = setup(
        white=around(hole),
        black=[(1, 1, -2), (1, 2, -3), (2, 2, -4), (-1, 0, 1), (-1, -1, 2)],
    )
    assert not state.is_over()


def test_the_board_edge_is_not_a_wall():
    edge = (9, -5, -4)
    walls = [c for c in around(edge) if c in INDEX]
    assert len(walls) == 4
    state = setup(
        white=walls,
        black=[edge, (-1, 0, 1), (-1, -1, 2), (-2, 0, 2)],
    )
    assert not state.is_over()


def test_playing_into_a_pocket_loses():
    pocket = "1,-1,0 0,-1,1 1,0,-1 1,-2,1 2,-2,0 0,1,-1 1,1,-2 2,-3,1 2,0,-2 3,-3,0 3,-2,-1 "
    pocket += "-1,0,1 3,-1,-2"  # White's six stones ring the empty cell 2,-1,-1
    state = GAME.parse_position(pocket)
    assert not state.is_over() and state.to_move == BLACK
    assert GAME.parse_move("2,-1,-1") in state.legal_moves()  # legal, but fatal
    state.play("2,-1,-1")
    assert (state.winner(), state.reason) == (WHITE, SELF_ENCLOSED)
    assert state.outcome() == Outcome(WHITE, "self-enclosure")
    assert "played into an enclosed pocket" in str(state)


def test_no_move_left_is_a_draw():
    # A full board cannot be reached in a test's time.  `make` does not check
    # placement, so one stone far from the centre gives the same situation: no
    # empty cell touches two stones, and the game must end in a draw.
    state = GAME.new_state()
    state.make(INDEX[(5, -5, 0)])
    assert state.is_over() and state.winner() is None and state.reason == NO_MOVES
    assert state.result() == "draw" and "draw: no move left" in str(state)
    assert state.outcome() == Outcome(None, "no move left")
    assert state.legal_moves() == []
    state.undo()
    assert not state.is_over() and len(state.legal_moves()) == 6


# --- the incremental rules against a slow reference ------------------------------------------


def reference_outcome(state) -> tuple[int | None, bool]:
    """(winner, over) from scratch: lines and floods over the whole board."""
    board = state.board
    last = state.history[-1]
    mover = board[last]

    def five(player: int) -> bool:
        for i in range(SIZE):
            for d in DIRECTIONS[:3]:
                c, run = CUBES[i], 0
                while c in INDEX and board[INDEX[c]] == player:
                    run += 1
                    c = tuple(a + b for a, b in zip(c, d))
                if run >= 5:
                    return True
        return False

    def regions(owner: int):
        """Regions of `owner`: its stones and empty cells, flooded."""
        seen: set[int] = set()
        for start in range(SIZE):
            if board[start] != owner or start in seen:
                continue
            region, todo = {start}, [start]
            while todo:
                c = todo.pop()
                for n in NEIGHBOURS[c]:
                    if n not in region and board[n] != 1 - owner:
                        region.add(n)
                        todo.append(n)
            seen |= region
            yield region

    if five(mover):
        return mover, True
    if any(all(RING[c] < 9 for c in r) for r in regions(1 - mover)):
        return mover, True
    if any(all(RING[c] < 9 for c in r) for r in regions(mover)):
        return 1 - mover, True
    empty_ok = [c for c in range(SIZE) if board[c] < 0 and state.counts[c] >= 2]
    return None, not empty_ok


def reference_legal(state) -> list[int]:
    if state.is_over():
        return []
    if not state.history:
        return [1, 2, 3, 4, 5, 6]
    board = state.board
    return [
        c for c in range(SIZE) if board[c] < 0 and sum(board[n] >= 0 for n in NEIGHBOURS[c]) >= 2
    ]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1))
def test_incremental_rules_match_the_reference(seed):
    rng = random.Random(seed)
    state = GAME.new_state()
    while not state.is_over() and len(state.history) < 120:
        assert sorted(state.legal_moves()) == reference_legal(state)
        state.play(rng.choice(state.legal_moves()))
        assert (state.winner(), state.is_over()) == reference_outcome(state)
        assert state.hashes == state.recompute_hashes()


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1), st.integers(0, 11))
def test_symmetric_games_share_canonical_keys(seed, frame):
    rng = random.Random(seed)
    state = GAME.new_state()
    image = GAME.new_state()
    perm = SYMMETRIES[frame]
    for _ in range(rng.randrange(1, 30)):
        if state.is_over():
            break
        move = rng.choice(state.legal_moves())
        state.play(move)
        image.play(perm[move])
        assert image.canonical()[0] == state.canonical()[0]
        assert image.reason == state.reason
        assert sorted(perm[m] for m in state.legal_moves()) == sorted(image.legal_moves())


def test_symmetries_form_the_hexagon_group():
    assert len(set(SYMMETRIES)) == 12 and SYMMETRIES[0] == tuple(range(SIZE))
    for perm in SYMMETRIES:
        assert perm[0] == 0
        for c in range(SIZE):
            assert {perm[n] for n in NEIGHBOURS[c]} == set(NEIGHBOURS[perm[c]])


# --- experts, rendering --------------------------------------------------------------------


def test_bridge_expert_counts_three_connected_stones_round_an_enemy():
    # White 1,-1,0 then Black plays its neighbours 1,0,-1 ... forming an arc of 3.
    state = setup(
        white=[(1, -1, 0), (0, -1, 1), (-1, 0, 1)],
        black=[(1, 0, -1), (2, -1, -1), (2, -2, 0)],
    )
    black, white = state.bits[BLACK], state.bits[WHITE]
    # Around the White stone 1,-1,0: centre, 1,0,-1, 2,-1,-1, 2,-2,0 are Black: 2 arcs of 3.
    assert bridges(black, white) == 2
    assert BridgeExpert()(state) == bridges(white, black) - 2  # White to move


def test_line_windows_and_winning_cells():
    state = setup(
        white=[(0, 1, -1), (0, -1, 1), (1, -2, 1), (-1, 0, 1)],
        black=[(1, -1, 0), (2, -2, 0), (3, -3, 0)],
    )
    n4, n3, _, completions = line_windows(state.bits[BLACK], state.bits[WHITE])
    assert n4 == 2 and n3 >= 1
    # 4,-4,0 also completes five but touches one stone only: not a legal cell.
    assert winning_cells(state, BLACK) == cubes("-1,1,0")
    assert winning_cells(state, WHITE) == []
    assert state.to_move == BLACK
    assert order_moves(state, state.legal_moves())[0] == GAME.parse_move("-1,1,0")


def test_default_evaluator_sees_a_win_next_move():
    state = setup(
        white=[(0, 1, -1), (0, -1, 1), (1, -2, 1), (-1, 0, 1)],
        black=[(1, -1, 0), (2, -2, 0), (3, -3, 0)],
    )
    evaluate = GAME.evaluator("default")
    assert evaluate(state) >= 500_000  # Black to move completes five
    assert GAME.evaluator("seed", noise=0)(state) == BridgeExpert()(state)


def test_evaluator_options_are_named_and_checked():
    from boardgames.errors import OptionError
    from boardgames.games.andantino.experts import (
        DEFAULT_WEIGHTS,
        ThreatEvaluator,
        threat_evaluator,
    )
    from boardgames.options import keyword_options

    # Every ThreatEvaluator weight is an option of the factory, and nothing
    # else but `forced` and the params file.
    assert keyword_options(threat_evaluator) == {*DEFAULT_WEIGHTS, "forced", "params"}
    evaluate = GAME.evaluator("default", four=1, forced=0)
    assert isinstance(evaluate, ThreatEvaluator)
    assert evaluate.weights["four"] == 1 and evaluate.forced == 0
    assert evaluate.weights["three"] == DEFAULT_WEIGHTS["three"]  # the others as shipped
    with pytest.raises(OptionError, match="unknown option"):
        GAME.evaluator("default", fours=1)
    state = GAME.benchmark_positions()["middle-24"]
    noisy = GAME.evaluator("default", noise=0.5, seed=3)
    assert noisy(state) == GAME.evaluator("default", noise=0.5, seed=3)(state)
    assert abs(noisy(state) - ThreatEvaluator()(state)) <= 0.5


def test_render_marks_the_last_move_and_result():
    state = GAME.parse_position("0,-1,1 -1,0,1")
    text = str(state)
    assert "[B]" in text and text.count("\n") == 19
    assert "white to move" in text
    assert "\033[" in state.game.render_text(state, color=True)
    assert "\033[" not in text
    over = GAME.parse_position("-1,0,1 -1,1,0 0,-1,1 1,-1,0 -2,1,1 -2,2,0 1,-2,1 0,1,-1 -3,2,1")
    assert "white wins by five in a row" in str(over)


def test_svg_is_well_formed():
    state = GAME.benchmark_positions()["middle-24"]
    root = ET.fromstring(state.game.render_svg(state))
    assert root.tag.endswith("svg")
    polygons = [e for e in root.iter() if e.tag.endswith("polygon")]
    assert len(polygons) == SIZE


def test_benchmark_positions_are_games_in_progress():
    positions = GAME.benchmark_positions()
    assert "opening" in positions and len(positions) >= 3
    for state in positions.values():
        assert not state.is_over() and state.legal_moves()


def test_analyse_reports_threats():
    text = GAME.analyse(GAME.benchmark_positions()["opening"])
    assert "white:" in text and "black:" in text and "winning cells" in text


# --- the named AIs ---------------------------------------------------------------------------


def _five_threat():
    """Black (to move) has four in a row and one legal completion, -1,1,0."""
    return setup(
        white=[(0, 1, -1), (0, -1, 1), (1, -2, 1), (-1, 0, 1)],
        black=[(1, -1, 0), (2, -2, 0), (3, -3, 0)],
    )


@pytest.mark.parametrize("spec", ["default", "seed", "alphabeta", "negascout"])
def test_ais_take_a_win_in_one(spec):
    from boardgames.ai import make_player

    state = _five_threat()
    player = make_player(GAME, f"{spec}:depth=2", seed=3)
    assert player.choose(state) == GAME.parse_move("-1,1,0")


def test_default_ai_blocks_a_five():
    from boardgames.ai import make_player

    state = _five_threat()
    state.make(INDEX[(-2, 1, 1)])  # Black plays elsewhere: White must block -1,1,0
    assert not state.is_over() and state.to_move == WHITE
    player = make_player(GAME, "default:depth=2")
    assert player.choose(state) == GAME.parse_move("-1,1,0")


def test_ai_options_are_checked():
    from boardgames.ai import make_player
    from boardgames.errors import OptionError

    with pytest.raises(OptionError, match="noise"):
        make_player(GAME, "seed:noise=-1")
    with pytest.raises(OptionError, match="unknown option"):
        make_player(GAME, "default:colour=3")
    player = make_player(GAME, "default:depth=1,four=500,tempo=1")
    assert player.choose(GAME.new_state()) in range(1, 7)


def test_around_matches_the_direction_steps():
    from boardgames.games.andantino.geometry import BIT_STEPS
    from boardgames.games.andantino.threats import around, nb

    bits = GAME.benchmark_positions()["middle-24"].bits[0]
    assert around(bits) == [nb(bits, s) for s in BIT_STEPS]


@pytest.mark.slow
def test_default_ai_beats_the_seed_bot():
    """A short, deterministic match (fixed depths, seeded openings and noise):
    the default AI must score at least 3 of 4 against the seed bot."""
    from boardgames.match.play import play_match

    summary = play_match(GAME, "default:depth=3", "seed:depth=3", games=4, seed=11, opening_plies=2)
    assert summary.score >= 3, summary.format()


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1))
def test_cut_off_matches_a_flood_from_the_border(seed):
    from boardgames.games.andantino.experts import cut_off
    from boardgames.games.andantino.geometry import BOARD_MASK, BORDER_MASK, dilate
    from boardgames.games.andantino.threats import around
    from support.andantino_reference import potential_walls, two_or_more

    rng = random.Random(seed)
    state = GAME.new_state()
    for _ in range(rng.randrange(4, 40)):
        if state.is_over():
            break
        state.make(rng.choice(state.legal_moves()))
    own, enemy = state.bits
    empty = BOARD_MASK & ~(own | enemy)
    passable = BOARD_MASK & ~(own | (two_or_more(around(own)) & empty))
    reach = BORDER_MASK & passable
    while (grown := dilate(reach) & passable) != reach:
        reach = grown
    assert cut_off(enemy, potential_walls(own, around(own), empty)) == enemy & ~reach


def test_threat_evaluator_follows_a_forced_block():
    from boardgames.games.andantino.experts import ThreatEvaluator

    state = _five_threat()
    state.make(INDEX[(-2, 1, 1)])  # Black plays elsewhere; White must block -1,1,0
    before = (state.to_text(), state.packed, sorted(state.legal_moves()))
    follow = ThreatEvaluator(forced=1)(state)
    assert (state.to_text(), state.packed, sorted(state.legal_moves())) == before
    blocked = state.copy()
    blocked.play("-1,1,0")
    assert follow == -ThreatEvaluator(forced=0)(blocked)
    assert follow != ThreatEvaluator(forced=0)(state)
