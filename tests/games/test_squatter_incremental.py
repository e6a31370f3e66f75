"""Squatter's fast paths against from-scratch computations.

- `Territory.__call__` (per-stones facts, closing cells of the free and
  recent cells only, a whole-position cache) equals `Territory.reference`
  (every term from scratch, as the evaluator was before) on the positions of
  random games with random make/undo sequences, recaptures included, with
  the default weights and with random ones, one evaluator instance walking
  the whole sequence so that its caches are what is being checked;
- the flood fill with its straight-ray shortcut equals a plain flood fill;
- the packed frame hashes equal the hashes recomputed from the board;
- the table-driven move list equals the static order filtered by the free cells;
- `stone_facts` equals the whole-board counts it replaces.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.games.squatter.geometry import flood_seeds
from boardgames.games.squatter.rules import enclosed, pack
from boardgames.games.squatter.territory import Territory, stone_facts
from boardgames.registry import get_game
from support.squatter_rings import RECAPTURE_9X9, TRIPLE_NESTING, biased_move, random_plan

RELAXED = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
WEIGHT_NAMES = ("capture", "tempo", "pressure", "shape", "corner", "side", "potential", "fork")
weights = st.lists(
    st.one_of(st.just(0.0), st.integers(-50, 50).map(float), st.floats(-100, 100)),
    min_size=len(WEIGHT_NAMES),
    max_size=len(WEIGHT_NAMES),
).map(lambda values: dict(zip(WEIGHT_NAMES, values)))


def walk(size: int, seed: int, steps: int):
    """Yield the states of a biased random walk of make and undo (nested
    rings, so captures and recaptures happen) on one state object."""
    game = get_game("squatter", size=size)
    rng = random.Random(seed)
    plan = random_plan(size, rng)
    state = game.new_state()
    for _ in range(steps):
        if state.history and (state.is_over() or rng.random() < 0.3):
            for _ in range(rng.randint(1, min(3, len(state.history)))):
                state.undo()
        else:
            state.make(biased_move(state, rng, plan))
        yield state


def check_walk(evaluator: Territory, size: int, seed: int, steps: int = 120) -> None:
    for state in walk(size, seed, steps):
        value = evaluator(state)
        expected = evaluator.reference(state)
        assert value == expected, (state.to_text(), state.to_move, value, expected)
        # The value cache answers the same again.
        assert evaluator(state) == expected


@RELAXED
@given(st.sampled_from([4, 5, 6, 7, 9]), st.integers(0, 2**32 - 1))
def test_territory_equals_reference_on_random_walks(size, seed):
    check_walk(Territory(), size, seed)


@RELAXED
@given(weights, st.sampled_from([5, 6, 7]), st.integers(0, 2**32 - 1))
def test_territory_equals_reference_with_any_weights(given_weights, size, seed):
    check_walk(Territory(**given_weights), size, seed, steps=80)


def test_territory_equals_reference_through_recaptures():
    """The hand-made recapture games, move by move and back."""
    for size, moves in ((9, RECAPTURE_9X9), (7, TRIPLE_NESTING)):
        game = get_game("squatter", size=size)
        evaluator = Territory(potential=5, fork=7, shape=3)
        state = game.new_state()
        for move in moves:
            state.play(move)
            assert evaluator(state) == evaluator.reference(state)
        while state.history:
            state.undo()
            assert evaluator(state) == evaluator.reference(state)


def test_one_territory_on_boards_of_two_sizes():
    """The same stones' bitboard means other cells on another size: the
    caches start again when the game changes."""
    evaluator = Territory()
    for size, seed in ((6, 1), (7, 1), (6, 2), (5, 3), (7, 4)):
        check_walk(evaluator, size, seed, steps=40)


@RELAXED
@given(st.sampled_from([3, 4, 6, 7, 12]), st.integers(0, 2**144 - 1), st.integers(0, 143))
def test_enclosed_equals_a_plain_flood_fill(size, stones, cell):
    geo = get_game("squatter", size=size).geometry
    move = cell % geo.cells
    mine = (stones & geo.full) | 1 << move
    own_ring = sum(1 << k for k, x in enumerate(geo.ring[move]) if x >= 0 and mine >> x & 1)
    seeds = flood_seeds(own_ring, geo.offboard[move])
    passable = geo.full ^ mine
    outside = geo.outside(passable)
    expected = 0
    for k in seeds:
        region = 1 << geo.ring[move][k]
        while True:
            bigger = geo.grow(region) & passable
            if bigger == region:
                break
            region = bigger
        if not region & outside:
            expected |= region
    assert enclosed(geo, move, mine, seeds) == expected


@RELAXED
@given(st.sampled_from([4, 5, 6, 7]), st.integers(0, 2**32 - 1))
def test_packed_hashes_and_move_list_along_random_walks(size, seed):
    for state in walk(size, seed, 150):
        assert state.hashes == state.recompute_hashes()
        assert state.packed == pack(state.recompute_hashes())
        order = state.game.geometry.static_order
        assert state.legal_moves() == [c for c in order if state.free >> c & 1]
    copy = state.copy()
    copy.hashes = list(range(len(state.hashes)))
    assert copy.hashes == list(range(len(state.hashes)))
    assert state.hashes == state.recompute_hashes()


@RELAXED
@given(st.sampled_from([3, 4, 6, 7, 9]), st.integers(0, 2**81 - 1))
def test_stone_facts_equal_their_definitions(size, stones):
    geo = get_game("squatter", size=size).geometry
    mine = stones & geo.full
    twos, clumps, corners, edges, two, reach, allowed, _ = stone_facts(geo, mine)
    ones, twos_ref, threes = geo.neighbour_counts(mine)
    assert twos == twos_ref
    assert clumps == (mine & ones & ~threes).bit_count() - (mine & threes).bit_count()
    assert corners == (mine & geo.corners).bit_count()
    assert edges == (mine & (geo.border ^ geo.corners)).bit_count()
    assert allowed == -1
    n = geo.n
    exactly_two = next_to = 0
    for c in range(geo.cells):
        r, q = divmod(c, n)
        around = [(r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)]
        count = sum(0 <= rr < n and 0 <= qq < n and mine >> (rr * n + qq) & 1 for rr, qq in around)
        if count:
            next_to |= 1 << c
        if count == 2 and geo.interior >> c & 1 and not mine >> c & 1:
            exactly_two |= 1 << c
    assert two == exactly_two
    assert reach == next_to


def test_states_games_and_evaluators_pickle():
    """Process executors send them: no unpicklable table (`struct.Struct`) on the game."""
    import pickle

    game = get_game("squatter", size=6)
    state = game.replay(["C3", "D4", "B4", "D2", "C5", "E3"])
    evaluator = Territory()
    value = evaluator(state)
    again = pickle.loads(pickle.dumps(state))
    assert again.hashes == state.hashes == again.recompute_hashes()
    assert again.legal_moves() == state.legal_moves()
    assert pickle.loads(pickle.dumps(evaluator))(again) == value
