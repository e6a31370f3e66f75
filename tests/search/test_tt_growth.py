"""The growing transposition table (search/tt.py): growth keeps
every entry where a probe finds it, never passes the cap, and searches with a
table that grows find the same values as with a fixed table."""

from __future__ import annotations

import connect_four  # noqa: F401  (registers the game)
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardgames.errors import OptionError
from boardgames.registry import get_game
from boardgames.search import Searcher
from boardgames.search.tt import EMPTY, GROWTH, NEVER, TranspositionTable
from support.strips import SETTINGS, STRIPS, brute_negamax, random_position, snapshot

#: Keys from a small range (many share a bucket) and from the whole 64 bits.
KEYS = st.integers(0, 40) | st.integers(-(2**63), 2**64)
ENTRY = st.tuples(
    KEYS,
    st.integers(0, 12),  # depth
    st.floats(-100, 100),  # value
    st.integers(0, 2),  # bound
    st.integers(-1, 30),  # move
    st.booleans(),  # a new search before this store (ages the table)
)


def fill(tt: TranspositionTable, entries: list[tuple[int, int, float, int, int, bool]]) -> None:
    for key, depth, value, bound, move, new_search in entries:
        if new_search:
            tt.new_search()
        tt.store(key, depth, value, bound, move)


@SETTINGS
@given(
    cap=st.integers(1, 11),
    start=st.integers(1, 11),
    entries=st.lists(ENTRY, max_size=200),
)
def test_growth_keeps_every_entry_and_stops_at_the_cap(cap, start, entries):
    tt = TranspositionTable(1 << cap, start=1 << start)
    assert tt.size == 1 << min(cap, start) and tt.cap == 1 << cap
    fill(tt, entries)
    found = {key: tt.entry(key) for key, *_ in entries}
    used = tt.used()
    while tt.size < tt.cap:
        size = tt.size
        tt.grow()
        assert tt.size == min(size * GROWTH, tt.cap)
        assert tt.mask == (tt.size >> 1) - 1
        assert {key: tt.entry(key) for key in found} == found
        assert tt.used() == used == tt.filled
        # An empty slot keeps no depth, or it would turn new entries away.
        assert all(d == -1 for k, d in zip(tt.keys, tt.depths, strict=True) if k == EMPTY)
    assert tt.room() == NEVER and not tt.added(10**6)
    assert tt.size == tt.cap


@SETTINGS
@given(entries=st.lists(ENTRY, max_size=200), more=st.lists(ENTRY, max_size=100))
def test_a_grown_table_replaces_entries_like_a_big_one(entries, more):
    """After growing, stores land as they would in a table of the new size
    that holds the same entries: the same entries are found."""
    grown = TranspositionTable(64, start=16)
    fill(grown, entries)
    grown.grow()
    big = TranspositionTable(64)
    big.generation = grown.generation
    for i in range(grown.size):
        if grown.keys[i] != EMPTY:  # the grown table's entries, slot for slot
            for name in ("keys", "depths", "values", "bounds", "moves", "ages"):
                getattr(big, name)[i] = getattr(grown, name)[i]
    for table in (grown, big):
        fill(table, more)
    keys = {key for key, *_ in entries + more}
    assert {k: grown.entry(k) for k in keys} == {k: big.entry(k) for k in keys}


def test_growth_is_due_at_a_quarter_of_the_entries():
    tt = TranspositionTable(1 << 10, start=64)
    assert tt.room() == 16
    assert not tt.added(15) and tt.room() == 1
    assert tt.added(1) and tt.size == 256  # the arrays are new: the search takes them
    assert tt.room() == 64 - tt.filled


def test_clear_shrinks_a_grown_table_and_empties_a_fixed_one_in_place():
    tt = TranspositionTable(1 << 10, start=16)
    tt.store(5, 3, 1.0, 0, 2)
    tt.grow()
    tt.clear()
    assert tt.size == 16 and tt.used() == 0 and tt.entry(5) is None
    fixed = TranspositionTable(64)
    keys = fixed.keys
    fixed.store(5, 3, 1.0, 0, 2)
    fixed.clear()
    assert fixed.keys is keys and fixed.used() == 0 and fixed.size == 64


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        TranspositionTable(64, start=1)
    with pytest.raises(OptionError):
        Searcher(tt_start=1)
    assert TranspositionTable(64, start=1000).size == 64  # never above the cap


# --- searches with a growing table -------------------------------------------------------
@SETTINGS
@given(name=st.sampled_from(sorted(STRIPS)), seed=st.integers(0, 10**6))
def test_a_growing_table_finds_the_values_of_a_fixed_one(name, seed):
    game = STRIPS[name]
    state = random_position(game, seed, 3)
    evaluator = game.default_evaluator()
    before = snapshot(state)
    for depth in range(1, 6):
        expected = brute_negamax(state, depth, evaluator)
        for algorithm in ("alphabeta", "negascout"):
            fixed = Searcher(algorithm=algorithm, tt_size=1 << 10, tt_start=1 << 10)
            growing = Searcher(algorithm=algorithm, tt_size=1 << 10, tt_start=2)
            assert fixed.value(state, depth) == growing.value(state, depth) == expected
            assert fixed.tt is not None and growing.tt is not None
            assert fixed.tt.size == 1 << 10 and growing.tt.size <= 1 << 10
    assert snapshot(state) == before


@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_connect_four_values_with_a_growing_table(seed):
    game = get_game("connect4")
    state = random_position(game, seed, 10)
    if state.is_over():
        return
    growing = Searcher(tt_size=1 << 12, tt_start=2)
    scores = {
        Searcher(tt_size=0).search(state, depth=6).score,
        Searcher(tt_size=1 << 12, tt_start=1 << 12).search(state, depth=6).score,
        growing.search(state, depth=6).score,
    }
    assert len(scores) == 1
    assert growing.tt is not None and 2 < growing.tt.size <= 1 << 12


def test_a_long_search_grows_the_table_to_its_cap_and_no_further():
    state = get_game("connect4").replay([3, 3, 2])
    searcher = Searcher(tt_size=1 << 12, tt_start=16)
    assert searcher.tt is not None and searcher.tt.size == 16
    result = searcher.search(state, depth=9)
    assert searcher.tt.size == 1 << 12
    fixed = Searcher(tt_size=1 << 12, tt_start=1 << 12).search(state, depth=9)
    assert result.score == fixed.score
    # The search used the grown arrays: about the nodes of the big table
    # (14.7k against 14.3k), not those of a table that stayed at 16 (41k).
    assert result.nodes < 1.3 * fixed.nodes
    searcher.clear()
    assert searcher.tt.size == 16


def test_timed_and_node_limited_searches_grow_the_table_too():
    state = get_game("connect4").replay([3, 2])
    timed = Searcher(tt_start=16)
    result = timed.search(state, time=0.3)
    assert result.move in state.legal_moves()
    assert timed.tt is not None and timed.tt.size > 16
    limited = Searcher(tt_start=16)
    result = limited.search(state, nodes=3000)
    assert result.nodes <= 3000 and result.move in state.legal_moves()
    assert limited.tt is not None and limited.tt.size > 16


def test_the_default_searcher_starts_small():
    searcher = Searcher()
    assert searcher.tt is not None
    assert searcher.tt.size == 1 << 12 and searcher.tt.cap == 1 << 18
    assert repr(searcher) == "Searcher(algorithm='negascout', tt_size=262144)"
