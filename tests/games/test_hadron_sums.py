"""The Sums evaluator (games/hadron/sums.py): exact small regions, settled live cells."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.games.hadron.experts import EVALUATORS
from boardgames.games.hadron.regions import Regions
from boardgames.games.hadron.sums import Sums, sums_evaluator
from boardgames.registry import get_game
from support.hadron_reference import brute_force_win


def random_position(rng: random.Random, rows: int, cols: int):
    state = get_game("hadron", rows=rows, cols=cols).new_state()
    for _ in range(rng.randint(0, rows * cols)):
        if state.is_over():
            break
        state.make(rng.choice(state.legal_moves()))
    return state


def test_row_of_four_by_hand():
    """1 x 4, White to move: four legal cells, an even count, so Regions reads
    a loss; but White A2 kills A1 (no empty neighbour left to balance it) and
    leaves A3 one White neighbour with A4 empty: Black's only move A4 opens
    A3, White takes it and Black has no move.  Sums values the region exactly."""
    game = get_game("hadron", rows=1, cols=4)
    state = game.new_state()
    assert Regions()(state) < 0
    sums = Sums(from_live=99)
    assert sums(state) == sums.sure
    state.play("A2")
    assert [game.format_move(m) for m in state.legal_moves()] == ["A4"]
    state.play("A4")
    assert [game.format_move(m) for m in state.legal_moves()] == ["A3"]
    state.play("A3")
    assert state.is_over() and state.winner() == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_certain_verdicts_match_brute_force(rows, cols, seed):
    rng = random.Random(seed)
    sums = Sums(small=rng.randint(3, 8), from_live=99)
    for _ in range(6):
        state = random_position(rng, rows, cols)
        if state.is_over():
            continue
        score = sums(state)
        if abs(score) >= sums.sure:
            assert (score > 0) == brute_force_win(state), state.to_text()


def test_many_verdicts_are_certain_and_right():
    """Not a vacuous check: many small positions are read exactly, and right."""
    rng = random.Random(5)
    sums = Sums(small=8, from_live=99)
    certain = 0
    for _ in range(150):
        state = random_position(rng, rng.randint(2, 4), rng.randint(3, 4))
        if state.is_over():
            continue
        score = sums(state)
        if abs(score) >= sums.sure:
            certain += 1
            assert (score > 0) == brute_force_win(state), state.to_text()
    assert certain > 40


def settled_by_definition(state) -> int:
    """The greatest set of empty cells in which each cell's surplus is at most
    its neighbours in the set, by removing offenders one at a time."""
    game = state.game
    cells = {i for i in range(game.cells) if state.board[i] < 0}
    diff = state.recompute_counts()[0]
    changed = True
    while changed:
        changed = False
        for i in sorted(cells):
            if abs(diff[i]) > sum(j in cells for j in game.neighbours[i]):
                cells.discard(i)
                changed = True
    return sum(1 << i for i in cells)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 2**32 - 1))
def test_settle_is_the_greatest_balanced_set(rows, cols, seed):
    state = random_position(random.Random(seed), rows, cols)
    live, plus1, minus1, plus2, minus2 = Sums().settle(state)
    assert live == settled_by_definition(state)
    assert state.legal & ~live == 0
    for i in range(rows * cols):
        d = state.diff[i] if live >> i & 1 else None
        assert (plus1 >> i & 1, minus1 >> i & 1, plus2 >> i & 1, minus2 >> i & 1) == (
            d == 1, d == -1, d == 2, d == -2
        )


def test_early_positions_read_as_regions():
    game = get_game("hadron")
    state = game.replay(["E5", "A1", "C3", "G7", "B8", "H2"])
    assert state.live.bit_count() > 60
    assert Sums()(state) == Regions()(state)


def test_named_and_default_evaluator():
    assert isinstance(EVALUATORS["sums"](), Sums)
    assert isinstance(EVALUATORS["default"](small=5), Sums)
    assert repr(sums_evaluator(small=6, from_live=50)) == "Sums(small=6, from_live=50)"
