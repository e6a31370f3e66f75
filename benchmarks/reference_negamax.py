"""A minimal hand-written negamax alpha-beta for Connect Four: the yardstick.

Everything a careful student would write and nothing more: a flat list
board, make/unmake by column height, a four-in-a-row check through the last
disc only, the same centre-column evaluation, column order and win scores
(WIN - ply) as the library's plain alpha-beta, so both search exactly the
same tree and their node counts must match.  Comparing nodes/s then
measures the cost of the library's generality (the Game protocol, Zobrist
hashes, the search core) against code written for one game.  A third
search, a bare textbook negamax over the library's own Connect Four,
separates the two costs: the game's (make/undo with hashes and history)
and the search core's.

Run as a script to compare it with the engine's plain alpha-beta:

    python benchmarks/reference_negamax.py [depth] [rounds]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from statistics import median
from time import process_time

COLS, ROWS = 7, 6
ORDER = (3, 2, 4, 1, 5, 0, 6)
WIN = 10**9
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Reference:
    """Connect Four board and its negamax, in one small class."""

    def __init__(self) -> None:
        self.board = [-1] * (COLS * ROWS)  # index col * ROWS + row
        self.heights = [0] * COLS
        self.to_move = 0
        self.nodes = 0

    def wins(self, col: int, row: int, player: int) -> bool:
        board = self.board
        for dc, dr in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < COLS and 0 <= r < ROWS and board[c * ROWS + r] == player:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                return True
        return False

    def evaluate(self) -> int:
        """Centre-column discs, side to move minus opponent."""
        column = self.board[3 * ROWS : 4 * ROWS]
        me = self.to_move
        return column.count(me) - column.count(1 - me)

    def negamax(self, depth: int, alpha: float, beta: float, ply: int, filled: int) -> float:
        self.nodes += 1
        if filled == COLS * ROWS:
            return 0
        if depth == 0:
            return self.evaluate()
        board, heights = self.board, self.heights
        player = self.to_move
        best = -float("inf")
        for col in ORDER:
            row = heights[col]
            if row == ROWS:
                continue
            board[col * ROWS + row] = player
            if self.wins(col, row, player):
                # The child is a finished game lost by the side to move there.
                self.nodes += 1
                value = WIN - ply - 1
            else:
                heights[col] = row + 1
                self.to_move = 1 - player
                value = -self.negamax(depth - 1, -beta, -alpha, ply + 1, filled + 1)
                self.to_move = player
                heights[col] = row
            board[col * ROWS + row] = -1
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        return best


def reference_search(depth: int) -> tuple[float, int, float]:
    """(root value, nodes, CPU seconds) of a depth-`depth` search from the start."""
    ref = Reference()
    start = process_time()
    value = ref.negamax(depth, -float("inf"), float("inf"), 0, 0)
    return value, ref.nodes, process_time() - start


def centre_count(state) -> float:
    """The same evaluation as `Reference.evaluate`, as a plain function."""
    column = state.board[3 * ROWS : 4 * ROWS]
    me = state.to_move
    return column.count(me) - column.count(1 - me)


def protocol_search(depth: int) -> tuple[float, int, float]:
    """(root value, nodes, CPU seconds) of a bare textbook negamax over the same
    game object the engine uses: what the Game protocol alone costs.

    The engine's distance to this one is the cost of the search core; its
    distance to `reference_search` adds the cost of the example game.
    """
    import connect_four  # noqa: F401  (registers the game)

    from boardgames.registry import get_game

    state = get_game("connect4").new_state()
    make, undo, legal_moves, is_over = state.make, state.undo, state.legal_moves, state.is_over
    nodes = 0

    def negamax(depth: int, alpha: float, beta: float, ply: int) -> float:
        nonlocal nodes
        nodes += 1
        if is_over():
            winner = state.winner()
            if winner is None:
                return 0
            return WIN - ply if winner == state.to_move else ply - WIN
        if depth == 0:
            return centre_count(state)
        best = -float("inf")
        for move in legal_moves():
            make(move)
            value = -negamax(depth - 1, -beta, -alpha, ply + 1)
            undo()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        return best

    start = process_time()
    value = negamax(depth, -float("inf"), float("inf"), 0)
    return value, nodes, process_time() - start


def engine_search(depth: int, evaluator=centre_count) -> tuple[float, int, float]:
    """(root value, nodes, CPU seconds) of the library's plain alpha-beta, same tree."""
    import connect_four  # noqa: F401  (registers the game)

    from boardgames.registry import get_game
    from boardgames.search import Searcher

    state = get_game("connect4").new_state()
    searcher = Searcher(evaluator, algorithm="alphabeta", tt_size=0, killers=False, history=False)
    start = process_time()
    value = searcher.value(state, depth)
    elapsed = process_time() - start
    nodes = searcher.last_nodes
    return value, nodes, elapsed


def compare(depth: int = 7, rounds: int = 3) -> dict[str, float]:
    """The three searches in CPU time, alternately in one process, `rounds`
    times: medians of the nodes/s and of each round's ratios."""
    engine_search(min(depth, 4))  # imports and the game's tables, out of the figures
    refs, protos, engines, ratios, core_ratios = [], [], [], [], []
    for _ in range(rounds):
        ref_value, ref_nodes, ref_time = reference_search(depth)
        proto_value, proto_nodes, proto_time = protocol_search(depth)
        eng_value, eng_nodes, eng_time = engine_search(depth)
        assert ref_value == eng_value == proto_value, (ref_value, eng_value, proto_value)
        assert ref_nodes == eng_nodes == proto_nodes, (ref_nodes, eng_nodes, proto_nodes)
        refs.append(ref_nodes / ref_time)
        protos.append(proto_nodes / proto_time)
        engines.append(eng_nodes / eng_time)
        ratios.append(ref_time / eng_time)
        core_ratios.append(proto_time / eng_time)
    return {
        "depth": depth,
        "rounds": rounds,
        "nodes": ref_nodes,
        "reference_nps": median(refs),
        "protocol_nps": median(protos),
        "engine_nps": median(engines),
        "ratio": median(ratios),
        "ratios": ratios,
        "core_ratio": median(core_ratios),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("depth", type=int, nargs="?", default=7, help="search depth (default 7)")
    parser.add_argument("rounds", type=int, nargs="?", default=5,
                        help="rounds, the three searches alternated (default 5)")
    args = parser.parse_args()
    if args.depth < 1 or args.rounds < 1:
        parser.error("depth and rounds must be at least 1")
    depth, rounds = args.depth, args.rounds
    figures = compare(depth, rounds)
    print(
        f"Connect Four, plain alpha-beta to depth {depth} from the start "
        f"(CPU time, medians of {rounds} rounds)"
    )
    print(f"  nodes (all three):     {figures['nodes']:>12,}")
    print(f"  reference nodes/s:     {figures['reference_nps']:>12,.0f}  (one-game code)")
    print(f"  protocol nodes/s:      {figures['protocol_nps']:>12,.0f}  (bare negamax, same game)")
    print(f"  engine nodes/s:        {figures['engine_nps']:>12,.0f}  (Searcher, plain alpha-beta)")
    each = ", ".join(f"{r:.2f}" for r in figures["ratios"])
    print(f"  engine / reference:    {figures['ratio']:>12.2f}  (rounds: {each})")
    print(f"  engine / protocol:     {figures['core_ratio']:>12.2f}  (cost of the search core)")


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    sys.path[:0] = [str(root / "examples"), str(root / "src")]
    main()
