"""Plain references for the edge-capture games (HexiFence, dots), for tests.

Independent of the edge solver: plain minimax over the legal moves
(`brute_force`), memoized minimax over every edge (`rest`), and the
safe-edge model (only safe edges while any is left) by plain recursion on
top of it.
"""

from __future__ import annotations

import random


def rest(state, memo: dict[int, int]) -> int:
    """Margin of the cells still to capture, for the side to move (plain
    minimax, memoized on the claimed edges, which alone decide it)."""
    if state.is_over():
        return 0
    if state.mask in memo:
        return memo[state.mask]
    p = state.to_move
    best = -state.game.num_cells
    for move in range(state.game.num_moves):
        if state.claimed[move] < 0:
            before = state.score[p]
            state.make(move)
            gain = state.score[p] - before
            value = rest(state, memo)
            state.undo()
            best = max(best, gain + value if gain else -value)
    memo[state.mask] = best
    return best


def brute_force(state) -> int:
    """Margin of the remaining cells for the side to move, by plain minimax
    over the legal moves, with no memo (tiny boards only)."""
    if state.is_over():
        return 0
    p = state.to_move
    best = None
    for move in state.legal_moves():
        before = state.score[p]
        state.make(move)
        gain = state.score[p] - before
        value = gain + brute_force(state) if state.to_move == p else -brute_force(state)
        state.undo()
        best = value if best is None else max(best, value)
    return best


def final_margin(state, memo: dict[int, int]) -> int:
    """The final margin for the side to move under perfect play."""
    p = state.to_move
    return state.score[p] - state.score[1 - p] + rest(state, memo)


def margin_after(state, move: int, memo: dict[int, int]) -> int:
    """The final margin for the side to move now if it plays `move`, then
    both sides play perfectly."""
    p = state.to_move
    state.make(move)
    value = final_margin(state, memo)
    value = value if state.to_move == p else -value
    state.undo()
    return value


def model_reaches(state, target: int, memo: dict[int, int]) -> bool:
    """Does the side to move end at least `target` ahead (final margin) when
    nobody sacrifices while a safe edge is left: only safe edges then,
    except with cells on offer, where every move is allowed (take them or
    not); every move once no safe edge is left (plain minimax)."""
    safe = state.safe_moves()
    if not safe:
        return final_margin(state, memo) >= target
    moves = state.legal_moves() if state.captures() else safe
    p = state.to_move
    for move in moves:
        state.make(move)
        if state.to_move == p:
            answer = model_reaches(state, target, memo)
        else:
            answer = not model_reaches(state, 1 - target, memo)
        state.undo()
        if answer:
            return True
    return False


def positions(game, seed: int, until):
    """Random play from the start (safe edges while any, then any edge)
    until `until(state)` holds or the game ends."""
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_over() and not until(state):
        safe = state.safe_moves()
        state.make(rng.choice(safe or state.legal_moves()))
    return state
