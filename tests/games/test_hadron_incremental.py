"""Hadron's fast paths against from-scratch computations.

On the positions of random make/undo walks on random board sizes (hypothesis
draws the size and the walk's seed; one state object walks the whole
sequence, so the stacks and the counters are what is being checked):

- the counters of the empty cells, the legal and live bitboards and the
  frame hashes equal the ones recomputed from the board, and `legal_moves`
  is the static order filtered by the legal set;
- `Regions.analyse` (bitboard sums over the cells) equals
  `Regions.analyse_regions` (region by region, flood fills), and so the
  evaluator's value is unchanged;
- `scan_specials` (bitboard candidates) equals the cell by cell scan it
  replaced (`reference_specials` below), details included.

(The solver's incremental steps are checked in test_hadron_solver.py.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.games.hadron.experts import Specials, _owner, scan_specials
from boardgames.games.hadron.regions import Regions
from boardgames.games.hadron.rules import EMPTY, WHITE, HadronState
from boardgames.registry import get_game

RELAXED = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
sizes = st.tuples(st.integers(1, 9), st.integers(1, 9))
seeds = st.integers(0, 2**32 - 1)


def walk(rows: int, cols: int, seed: int, steps: int = 80) -> Iterator[HadronState]:
    """The states of a random walk of makes and undos on one state object."""
    game = get_game("hadron", rows=rows, cols=cols)
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(steps):
        if state.history and (state.is_over() or rng.random() < 0.3):
            for _ in range(rng.randint(1, min(3, len(state.history)))):
                state.undo()
        else:
            state.make(rng.choice(state.legal_moves()))
        yield state


def reference_specials(state: HadronState, detail: dict[int, list[int]]) -> Specials:
    """The specials scan as it was before #16: every empty, unplayable cell next
    to a legal cell, its neighbours counted one by one."""
    game = state.game
    legal = state.legal
    if not legal:
        return Specials(0, 0, 0, 0)
    counts = [0, 0]
    special_cells = 0
    for p in range(game.cells):
        if state.board[p] != EMPTY or legal >> p & 1:
            continue
        touching = [q for q in game.neighbours[p] if legal >> q & 1]
        if len(touching) != 1:
            continue
        stones = [state.board[q] for q in game.neighbours[p] if state.board[q] != EMPTY]
        white = stones.count(WHITE)
        owner = _owner(len(game.neighbours[p]), white, len(stones) - white)
        if owner < 0:
            continue
        counts[owner] += 1
        special_cells |= 1 << touching[0]
        detail.setdefault(touching[0], []).append(owner)
    n = legal.bit_count()
    return Specials(counts[0], counts[1], n - special_cells.bit_count(), n)


@RELAXED
@given(size=sizes, seed=seeds)
def test_counters_bitboards_and_hashes_match_the_board(size, seed):
    for state in walk(*size, seed):
        diff, filled = state.recompute_counts()
        empty = [i for i, stone in enumerate(state.board) if stone == EMPTY]
        assert [state.diff[i] for i in empty] == [diff[i] for i in empty]
        assert [state.filled[i] for i in empty] == [filled[i] for i in empty]
        assert state.legal == state.recompute_legal()
        assert state.live == state.recompute_live()
        assert state.occupied == sum(1 << i for i in range(state.game.cells) if i not in empty)
        assert state.hashes == state.recompute_hashes()
        assert state.legal_moves() == [m for m in state.game.order if state.legal >> m & 1]


@RELAXED
@given(size=sizes, seed=seeds)
def test_regions_sums_equal_the_region_by_region_reading(size, seed):
    evaluator = Regions()
    for state in walk(*size, seed):
        assert evaluator.analyse(state) == evaluator.analyse_regions(state), state.to_text()


@RELAXED
@given(size=sizes, seed=seeds)
def test_specials_equal_the_cell_by_cell_scan(size, seed):
    for state in walk(*size, seed):
        detail: dict[int, list[int]] = {}
        expected: dict[int, list[int]] = {}
        assert scan_specials(state, detail) == reference_specials(state, expected)
        assert detail == expected


def test_regions_on_the_benchmark_positions():
    """The reading of the fixed positions, as before #16 (value and verdict)."""
    game = get_game("hadron")
    evaluator = Regions()
    for state in game.benchmark_positions().values():
        assert evaluator.analyse(state) == evaluator.analyse_regions(state)
    state = game.replay(["E5", "E7", "E6", "A1", "A3"])
    assert evaluator.analyse(state) == (2, 63, False)
