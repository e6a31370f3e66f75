"""`ladders.threat_makers`, the filter that spares the threat-space search
playing moves that make no threat: checked against playing every legal
move under the rules' counts (`threats`), and the search with and without
it compared line for line and node for node."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.budget import Budget, Limits
from boardgames.games.andantino.geometry import BIT, BOARD_MASK, CUBES, RAY_MASKS
from boardgames.games.andantino.ladders import Ladders, seen_rays, threat_makers, threats
from boardgames.registry import get_game
from support.andantino_positions import surround_game

GAME = get_game("andantino")


RELAXED = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def makes_a_threat(state, move: int) -> bool:
    """The side to move plays `move` and then wins, or has a winning cell."""
    me = state.to_move
    state.make(move)
    try:
        if state.reason is not None:
            return state.winner() == me
        return bool(threats(state, me))
    finally:
        state.undo()


def check_makers(state) -> int:
    """Every move that makes a threat is among the makers, for both sides
    (the side not to move as if it moved); returns how many moves did."""
    made = 0
    for player in (0, 1):
        state.to_move = player
        if state.reason is not None or threats(state, player):
            continue
        makers = threat_makers(state, player)
        for move in state.legal_moves():
            if makes_a_threat(state, move):
                made += 1
                assert BIT[move] & makers, GAME.format_move(move)
    return made


@RELAXED
@given(st.integers(0, 10**9), st.integers(4, 45))
def test_every_move_that_threatens_is_a_maker(seed, plies):
    state = surround_game(random.Random(seed), plies)
    mover = state.to_move
    check_makers(state)
    state.to_move = mover


def test_makers_in_crowded_games():
    """Deterministic companion: enough games that many threats are made,
    and the filter leaves out at least half of the moves."""
    made = moves = left_out = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = surround_game(rng, rng.randint(6, 45))
        made += check_makers(state)
        for player in (0, 1):
            state.to_move = player
            if state.reason is None and not threats(state, player):
                makers = threat_makers(state, player)
                legal = state.legal_moves()
                moves += len(legal)
                left_out += sum(1 for m in legal if not BIT[m] & makers)
    assert made >= 20
    assert 2 * left_out >= moves


def test_seen_rays_are_the_rays_holding_a_stone():
    rng = random.Random(5)
    for _ in range(20):
        own = sum(BIT[c] for c in rng.sample(range(len(CUBES)), rng.randint(0, 40)))
        seen = seen_rays(own)
        for cell in range(len(CUBES)):
            for d in range(6):
                assert bool(seen[d] & BIT[cell]) == bool(RAY_MASKS[cell][d] & own)
        assert all(board & ~BOARD_MASK == 0 for board in seen)


@RELAXED
@given(st.integers(0, 10**9), st.integers(8, 40))
def test_the_filter_changes_no_line(seed, plies):
    state = surround_game(random.Random(seed), plies)
    plain, filtered = Ladders(depth=5, budget=300), Ladders(depth=5, budget=300)
    plain.filter = False
    assert plain.win(state) == filtered.win(state)
    assert plain.nodes == filtered.nodes
    budget = Budget(Limits(time=60))
    assert plain.threat_win(state, 1, budget) == filtered.threat_win(state, 1, budget)
