"""Cells that enclose whole groups (`experts.group_enclosing_cells`), the
ThreatEvaluator's `groups` option and the move order that uses them,
checked against the rules: every legal cell played and the outcome read."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.ai import make_player
from boardgames.games.andantino.experts import (
    LOST_NEXT,
    WIN_NEXT,
    ThreatEvaluator,
    group_enclosing_cells,
    order_moves_groups,
    winning_cells_both,
)
from boardgames.games.andantino.geometry import BIT
from boardgames.registry import get_game
from support.andantino_positions import surround_game

GAME = get_game("andantino")
RELAXED = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))


def by_the_rules(state, player: int) -> tuple[int, int]:
    """(cells where `player` wins by enclosure, cells where it makes a five),
    by playing every legal cell; `player` must be the side to move."""
    assert state.to_move == player
    enclosing = fives = 0
    for move in state.legal_moves():
        state.make(move)
        if state.winner() == player:
            if state.end_reason() == "enclosure":
                enclosing |= BIT[move]
            else:
                fives |= BIT[move]
        state.undo()
    return enclosing, fives




@RELAXED
@given(st.integers(0, 10**9), st.integers(6, 70))
def test_group_cells_are_the_enclosing_cells(seed, plies):
    rng = random.Random(seed)
    state = surround_game(rng, plies, keep_end=True)
    while not state.is_over():
        me = state.to_move
        enclosing, fives = by_the_rules(state, me)
        # A cell that also makes a five wins by five (the rules check it first).
        assert group_enclosing_cells(state, me) & ~fives == enclosing
        state.make(rng.choice(state.legal_moves()))
        if len(state.history) > plies + 6:
            break


def test_a_group_of_three_enclosed():
    """Hand-checked: the found cell encloses a three-stone group (by the rules)."""
    rng = random.Random(11)
    found = 0
    for _ in range(400):
        state = surround_game(rng, rng.randint(10, 50), keep_end=True)
        if state.is_over():
            continue
        me = state.to_move
        cells = group_enclosing_cells(state, me)
        for c in range(len(state.board)):
            if cells & BIT[c]:
                after = state.copy()
                after.make(c)
                assert after.end_reason() in ("enclosure", "five in a row")
                assert after.winner() == me
                found += 1
    assert found > 0


@RELAXED
@given(st.integers(0, 10**9), st.integers(6, 60))
def test_groups_evaluator_short_cuts(seed, plies):
    """With groups, a side to move with an enclosing cell scores a near-win;
    facing two enclosing cells (and no win of its own), a near-loss."""
    state = surround_game(random.Random(seed), plies, keep_end=True)
    if state.is_over():
        return
    evaluator = ThreatEvaluator(groups=True)
    me = state.to_move
    wins, threats = winning_cells_both(state)
    mine = wins | group_enclosing_cells(state, me)
    theirs = threats | group_enclosing_cells(state, 1 - me)
    score = evaluator(state)
    if mine:
        assert score == WIN_NEXT
    elif theirs & (theirs - 1):
        assert score == LOST_NEXT
    elif not theirs:
        assert abs(score) < LOST_NEXT * -0.5
    plain = ThreatEvaluator(groups=False)
    if not group_enclosing_cells(state, me) and not group_enclosing_cells(state, 1 - me):
        assert plain.evaluate(state, 0) == evaluator.evaluate(state, 0)


@RELAXED
@given(st.integers(0, 10**9), st.integers(6, 60))
def test_group_order_puts_wins_then_blocks_first(seed, plies):
    state = surround_game(random.Random(seed), plies, keep_end=True)
    if state.is_over():
        return
    me = state.to_move
    wins = winning_cells_both(state)[0] | group_enclosing_cells(state, me)
    order = order_moves_groups(state, state.legal_moves())
    assert sorted(order) == state.legal_moves()
    n = wins.bit_count()
    assert all(BIT[m] & wins for m in order[:n])


def test_default_ai_blocks_a_group_enclosure():
    """Opening e15 of the shipped set: Black must stop White's enclosure at
    L7; the default AI (a depth-3 search) stops it."""
    state = GAME.parse_position("J9 I9 K9 I10 K10 H9 J11 K8 J8 H8 K7 L9 L8")
    player = make_player(GAME, "default:depth=3")
    move = player.choose(state)
    after = state.copy()
    after.make(move)
    threat = GAME.parse_move("L7")
    if not after.is_over():
        assert after.illegal_reason(threat) is not None or not (
            group_enclosing_cells(after, 0) & BIT[threat]
        )


@RELAXED
@given(st.integers(0, 10**9), st.integers(6, 60))
def test_chase_only_acts_after_a_forced_block(seed, plies):
    """`chase` renews threats only after a block: a position where the side to
    move faces no threat scores the same with and without it; where it must
    block, the attacker may renew its threat or decline, so the blocker
    never scores higher with chase than without."""
    state = surround_game(random.Random(seed), plies, keep_end=True)
    if state.is_over():
        return
    me = state.to_move
    plain = ThreatEvaluator(2, groups=True, chase=False)
    chasing = ThreatEvaluator(2, groups=True, chase=True)
    threats = winning_cells_both(state)[1] | group_enclosing_cells(state, 1 - me)
    wins = winning_cells_both(state)[0] | group_enclosing_cells(state, me)
    if not threats and not wins:
        assert chasing.evaluate(state, 2) == plain.evaluate(state, 2)
    if threats and not wins and not threats & (threats - 1):
        # One forced block, then the attacker may chase: never worse for it.
        assert chasing.evaluate(state, 2) <= plain.evaluate(state, 2)
