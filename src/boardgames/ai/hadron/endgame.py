"""The default Hadron player's endgame: what to do once the solver has spoken.

A proven win is played at once.  A proven loss is not the end either: the
opponent does not play perfectly (a search with a heuristic evaluation
misjudges the parity of large regions), so `swindle` picks, among moves that
all lose against perfect play, the one that leaves the opponent the smallest
share of winning replies, the most ways to go wrong.  Each reply is solved
with the solver's table (the proof of the loss has already solved many of
them), within a time budget split evenly over the moves; a reply that cannot
be solved in its share of the time counts as a winning one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import SearchStopped

if TYPE_CHECKING:
    from ...budget import Budget
    from ...games.hadron.rules import HadronState
    from ...games.hadron.solver import HadronSolver


def winning_replies(
    solver: HadronSolver, state: HadronState, budget: Budget
) -> tuple[int, int]:
    """(winning replies, replies) of the side to move in `state`, each reply
    solved within the `budget`; replies left unsolved when it runs out (its
    time, or its stop signal) count as winning.  `state` is left as it was."""
    replies = state.legal_moves()
    wins = 0
    for index, reply in enumerate(replies):
        if budget.expired():
            return wins + len(replies) - index, len(replies)
        state.make(reply)
        try:
            # The reply wins iff the position after it is lost for its side to move.
            wins += solver.solve(state, budget.remaining()).value < 0
        except SearchStopped:
            wins += 1
        finally:
            state.undo()
    return wins, len(replies)


def swindle(
    solver: HadronSolver, state: HadronState, budget: Budget
) -> tuple[int | None, float]:
    """The move of a lost `state` that leaves the opponent the smallest share
    of winning replies, and that share (1.0 when no move leaves a losing
    reply, or none could be examined: the move is then None).

    The `budget`'s time is split evenly over the moves; `state` is not changed.
    """
    work = state.copy()
    moves = work.legal_moves()
    best: int | None = None
    best_share = 1.0
    for index, move in enumerate(moves):
        if budget.expired():
            break
        work.make(move)
        try:
            wins, replies = winning_replies(solver, work, budget.share(1 / (len(moves) - index)))
        finally:
            work.undo()
        # A move that ends the game (no reply) would be a win, not part of a lost position.
        share = wins / replies if replies else 0.0
        if share < best_share:
            best, best_share = move, share
    return best, best_share
