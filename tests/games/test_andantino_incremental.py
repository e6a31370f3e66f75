"""Andantino's incremental counts: the state's tally, neighbour masks,
line keys, potential walls and five-surrounded stones, and everything the
ThreatEvaluator and the move order read from them, checked against
from-scratch computations over random positions and random make/undo
sequences.  The reference evaluator below is the evaluator as it was before
the counts became incremental (every count rescanned on bitboards)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.games.andantino import experts, tallies, threats
from boardgames.games.andantino.experts import (
    DEFAULT_WEIGHTS,
    LOST_NEXT,
    WIN_NEXT,
    ThreatEvaluator,
    cut_off,
)
from boardgames.games.andantino.geometry import (
    BIT,
    BOARD_MASK,
    BORDER_MASK,
    CELL_OF_POSITION,
    LINE_SLOTS,
    LINES,
    NEIGHBOURS,
    SIZE,
    flood,
)
from boardgames.games.andantino.rules import BENCHMARK_POSITIONS
from boardgames.games.andantino.threats import (
    ARCS,
    INNER_MASK,
    _legal_cells,
    _surround,
    around,
    line_windows_both,
)
from boardgames.registry import get_game
from support.andantino_reference import (
    five_around,
    mobility,
    potential_walls,
    recompute,
    walls_from_masks,
)

GAME = get_game("andantino")
RELAXED = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


# --- the references -----------------------------------------------------------------------


def reference_winning_cells(state, player: int) -> int:
    """`player`'s legal cells completing a five or enclosing a lone stone."""
    own, enemy = state.bits[player], state.bits[1 - player]
    empty = BOARD_MASK & ~(own | enemy)
    cells = line_windows_both(own, enemy)[0][3]
    cells |= _surround(enemy & INNER_MASK, around(own), empty)[3]
    return _legal_cells(state, cells) if cells else 0


def reference_score(state, forced: int, weights: dict[str, float]) -> float:
    """The ThreatEvaluator before #16, every count from scratch."""
    if state.reason is not None:
        won = state.winner()
        return 0.0 if won is None else (WIN_NEXT if won == state.to_move else -WIN_NEXT)
    me = state.to_move
    own, enemy = state.bits[me], state.bits[1 - me]
    (m4, m3, m2, m_line), (o4, o3, o2, o_line) = line_windows_both(own, enemy)
    empty = BOARD_MASK & ~(own | enemy)
    near_own = around(own)
    near_enemy = around(enemy)
    ms3, ms4, ms5, m_sur = _surround(enemy & INNER_MASK, near_own, empty)
    os3, os4, os5, o_sur = _surround(own & INNER_MASK, near_enemy, empty)
    if (m_line | m_sur) and _legal_cells(state, m_line | m_sur):
        return WIN_NEXT
    threats = _legal_cells(state, o_line | o_sur) if (o_line | o_sur) else 0
    if threats:
        if threats & (threats - 1):
            return LOST_NEXT
        if forced:
            block = CELL_OF_POSITION[threats.bit_length() - 1]
            state.make(block)
            score = -reference_score(state, forced - 1, weights)
            state.undo()
            return score
    w = weights
    mine = w["four"] * m4 + w["three"] * m3 + w["two"] * m2
    mine += w["surround5"] * ms5 + w["surround4"] * ms4 + w["surround3"] * ms3
    theirs = w["four"] * o4 + w["three"] * o3 + w["two"] * o2
    theirs += w["surround5"] * os5 + w["surround4"] * os4 + w["surround3"] * os3
    score = w["tempo"] * mine - theirs
    if w["bridge"]:
        b = 0
        for d, e, f in ARCS:
            b += (enemy & near_own[d] & near_own[e] & near_own[f]).bit_count()
            b -= (own & near_enemy[d] & near_enemy[e] & near_enemy[f]).bit_count()
        score += w["bridge"] * b
    if w["danger"]:
        theirs_cut = cut_off(enemy, potential_walls(own, near_own, empty)).bit_count()
        mine_cut = cut_off(own, potential_walls(enemy, near_enemy, empty)).bit_count()
        score += w["danger"] * (w["tempo"] * theirs_cut - mine_cut)
    if w["mobility"]:
        legal = 0
        for c in state.candidates:
            legal |= BIT[c]
        a = b = 0
        for x in near_own:
            a |= x
        for x in near_enemy:
            b |= x
        score += w["mobility"] * ((legal & a).bit_count() - (legal & b).bit_count())
    return score


def check_counts(state) -> None:
    """Every incremental structure equals its from-scratch value."""
    tally, masks, keys = recompute(state.board, state.candidates)
    assert state.masks == masks
    assert state.line_keys == keys
    assert state.tally == tally
    empty = BOARD_MASK & ~(state.bits[0] | state.bits[1])
    assert [walls & empty for walls in state.two] == walls_from_masks(state.board, masks)
    assert state.sur5 == five_around(state.board, masks)
    assert state.counts == [sum(state.board[n] >= 0 for n in nbrs) for nbrs in NEIGHBOURS]
    # The fields against the bitboard definitions in threats.py.
    white, black = state.bits
    f = tallies.fields(tally)
    (w4, w3, w2, w_line), (b4, b3, b2, b_line) = line_windows_both(white, black)
    assert f[0:6] == (w2, w3, w4, b2, b3, b4)
    assert tallies.four_completions(tally, keys, 0) == w_line
    assert tallies.four_completions(tally, keys, 1) == b_line
    assert f[6:9] == _surround(white & INNER_MASK, around(black), empty)[:3]
    assert f[9:12] == _surround(black & INNER_MASK, around(white), empty)[:3]
    assert (f[12], f[13]) == (threats.bridges(black, white), threats.bridges(white, black))
    assert f[14] - f[15] == mobility(state, 0)
    board = state.board
    for colour in (0, 1):
        touching = [c for c in state.candidates if colour in (board[n] for n in NEIGHBOURS[c])]
        assert f[14 + colour] == len(touching)
    fives = tally >> tallies.FIVES
    assert (fives & tallies.FIELD_MASK, fives >> tallies.FIELD_BITS) == (
        _five_windows(state, 0),
        _five_windows(state, 1),
    )


def _five_windows(state, player: int) -> int:
    return sum(
        1
        for line in LINES
        for start in range(len(line) - 4)
        if all(state.board[c] == player for c in line[start : start + 5])
    )


def random_walk(rng: random.Random, steps: int, check) -> None:
    """A random make/undo sequence from the start, `check(state)` after each step."""
    state = GAME.new_state()
    check(state)
    for _ in range(steps):
        if state.history and (state.is_over() or rng.random() < 0.3):
            state.undo()
        else:
            state.make(rng.choice(state.legal_moves()))
        check(state)


# --- the tests -----------------------------------------------------------------------------


def test_lines_cover_every_five_cell_window_once():
    assert len(LINES) == 57 and sorted({len(line) for line in LINES}) == list(range(10, 20))
    assert sum(len(line) - 4 for line in LINES) == 585
    for cell in range(SIZE):
        assert len(LINE_SLOTS[cell]) == 3
        for line, pos in LINE_SLOTS[cell]:
            assert LINES[line][pos] == cell


@RELAXED
@given(st.integers(0, 2**32 - 1))
def test_incremental_counts_match_a_recount(seed):
    random_walk(random.Random(seed), 80, check_counts)


@RELAXED
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2]))
def test_threat_evaluator_matches_the_reference(seed, forced):
    evaluator = ThreatEvaluator(forced)
    weights = dict(DEFAULT_WEIGHTS)

    def check(state):
        before = (state.to_text(), state.tally, state.packed)
        assert evaluator(state) == reference_score(state, forced, weights)
        assert evaluator(state) == reference_score(state, forced, weights)  # from the memo
        assert (state.to_text(), state.tally, state.packed) == before

    random_walk(random.Random(seed), 60, check)


@RELAXED
@given(st.integers(0, 2**32 - 1))
def test_other_weights_match_the_reference(seed):
    rng = random.Random(seed)
    weights = {name: rng.choice([0.0, 0.5, 1.0, 3.0, 17.25]) for name in DEFAULT_WEIGHTS}
    evaluator = ThreatEvaluator(1, **weights)
    random_walk(rng, 40, lambda state: _same(evaluator(state), reference_score(state, 1, weights)))


def _same(a: float, b: float) -> None:
    assert a == b


@RELAXED
@given(st.integers(0, 2**32 - 1))
def test_bridge_expert_matches_the_bitboard_count(seed):
    expert = experts.BridgeExpert()

    def check(state):
        own, enemy = state.bits[state.to_move], state.bits[1 - state.to_move]
        assert expert(state) == float(threats.bridges(own, enemy) - threats.bridges(enemy, own))

    random_walk(random.Random(seed), 60, check)


@RELAXED
@given(st.integers(0, 2**32 - 1))
def test_move_order_and_winning_cells_match_the_reference(seed):
    def check(state):
        if state.is_over():
            return
        me = state.to_move
        expected = (reference_winning_cells(state, me), reference_winning_cells(state, 1 - me))
        assert experts.winning_cells_both(state) == expected
        wins, blocks = expected
        moves = state.legal_moves()

        def rank(m):
            bit = BIT[m]
            return (bit & wins and 100) + (bit & blocks and 50) + state.counts[m]

        assert experts.order_moves(state, list(moves)) == sorted(moves, key=rank, reverse=True)

    random_walk(random.Random(seed), 60, check)


def test_threat_positions_match_the_reference():
    """The benchmark positions and every child of theirs (fours, forced blocks
    and surrounded stones are common there), forced 0..3."""
    for moves in BENCHMARK_POSITIONS.values():
        state = GAME.parse_position(moves)
        for forced in range(4):
            evaluator = ThreatEvaluator(forced)
            for move in state.legal_moves():
                state.make(move)
                check_counts(state)
                assert evaluator(state) == reference_score(state, forced, DEFAULT_WEIGHTS)
                state.undo()


def test_the_line_memo_may_be_cleared_at_any_time(monkeypatch):
    monkeypatch.setattr(tallies, "MEMO_LIMIT", 7)
    monkeypatch.setattr(experts, "REACH_MEMO_LIMIT", 3)
    monkeypatch.setattr(experts, "EVAL_MEMO_LIMIT", 5)
    evaluator = ThreatEvaluator()
    evaluator.clear_memos()

    def check(state):
        check_counts(state)
        assert evaluator(state) == reference_score(state, 2, DEFAULT_WEIGHTS)

    random_walk(random.Random(5), 120, check)
    assert tallies._memo_size <= 7 and len(experts._REACH) <= 3 and len(evaluator._memo) <= 5


def test_copy_keeps_the_counts():
    state = GAME.parse_position(BENCHMARK_POSITIONS["middle-24"])
    clone = state.copy()
    for move in clone.legal_moves()[:3]:
        clone.make(move)
        check_counts(clone)
    check_counts(state)
    while clone.history:
        clone.undo()
    check_counts(clone)


@pytest.mark.parametrize("seed", range(5))
def test_one_flood_fill(seed):
    """`flood` grows a region to its full extent (escape 0) or gives up on
    touching the escape cells (the rules' use: the border ring)."""
    rng = random.Random(seed)
    walls = sum(BIT[c] for c in rng.sample(range(SIZE), 90))
    passable = BOARD_MASK & ~walls
    start = rng.choice([c for c in range(SIZE) if BIT[c] & passable])
    region = flood(BIT[start], passable)
    # The same region by a cell-by-cell search.
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for n in NEIGHBOURS[c]:
            if BIT[n] & passable and n not in seen:
                seen.add(n)
                todo.append(n)
    assert region == sum(BIT[c] for c in seen)
    assert flood(BIT[start], passable, BORDER_MASK) == (0 if region & BORDER_MASK else region)
    assert flood(BIT[start], passable, region) == 0


def test_stone_value_table_matches_its_definition():
    from boardgames.games.andantino import tallies

    for owner in (0, 1):
        assert tallies.STONE_VALUE[owner] == tuple(
            tallies._stone_value(owner, m) for m in range(tallies.MASK_LIMIT)
        )
