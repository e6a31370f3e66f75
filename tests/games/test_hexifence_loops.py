"""The last four cells of an opened loop: the solver's all-but-four rule.

Declining a loop (take all but four cells, hand the last four back as two
dominoes with the middle edge) keeps control, just as the all-but-two
hand-out does for a chain (Berlekamp, *The Dots and Boxes Game*, 2000).
Checked on a hand-made board and against memoized minimax on every
capture position of random loop openings.
"""

from __future__ import annotations

import random

from boardgames.ai.hexifence.players import capture_choice
from boardgames.games.hexifence.experts import LOOP, components, loony_value
from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.registry import get_game
from support.edge_reference import rest

# A 4-loop (the left 2x2 block) and a 6-chain (the right 2x3 block, both ends
# on the border).  Opening the loop, the opener loses by 2 (the taker hands the
# four back and takes the chain); opening the chain, by 6.
LOOP_AND_CHAIN = """\
+---+---+   +---+---+
|       |           |
+   +   +---+---+   +
|       |           |
+---+---+   +---+---+
to move: first
"""


def test_declining_an_opened_loop_on_a_hand_made_board():
    game = get_game("dots", rows=2, cols=5)
    state = game.parse_position(LOOP_AND_CHAIN)
    solver = EdgeSolver(game)
    assert solver.solve(state).value == -2
    loop_edges = [game.parse_move(m) for m in ("B3", "C2", "C4", "D3")]
    for edge in loop_edges:
        state.make(edge)
        result = solver.solve(state)  # the taker: hand back all four, take the chain
        assert result.value == 2
        assert state.captures() and result.best[0] not in state.captures()
        state.undo()
    state.make(game.parse_move("A6"))  # the chain, at its end: taken all but two
    assert solver.solve(state).value == 6


def test_opened_loops_against_brute_force():
    game = get_game("dots", rows=3, cols=3)
    rng = random.Random(0)
    solver = EdgeSolver(game)
    memo: dict[int, int] = {}
    checked = declined = 0
    for _ in range(150):
        state = game.new_state()
        while state.safe_moves():
            state.make(rng.choice(state.safe_moves()))
        if not any(kind == LOOP and n >= 4 for kind, n in components(state)):
            continue
        for edge in [m for m in range(game.num_moves) if state.claimed[m] < 0]:
            state.make(edge)
            taker = state.copy()
            while taker.captures():
                p = taker.to_move
                want = taker.score[p] - taker.score[1 - p] + rest(taker, memo)
                result = solver.solve(taker)
                assert result.value == want, taker.history
                checked += 1
                declined += result.best[0] not in taker.captures()
                taker.make(taker.captures()[0])
            state.undo()
    assert checked >= 300 and declined >= 5


def test_the_chain_player_hands_back_an_opened_loop():
    """The default's capture choice and loony value (experts) decline the
    last four cells of the loop and take the chain all but two."""
    game = get_game("dots", rows=2, cols=5)
    state = game.parse_position(LOOP_AND_CHAIN)
    assert loony_value(state) == -2
    for text in ("B3", "C2", "C4", "D3"):
        state.make(game.parse_move(text))
        caps = state.captures()
        assert loony_value(state) == 2
        assert capture_choice(state, caps) not in caps
        state.undo()
    state.make(game.parse_move("A6"))
    assert loony_value(state) == 6
    assert capture_choice(state, state.captures()) in state.captures()
