"""Which line of its own moves wins for a Squatter side against full-strength seed 001?

    python tools/squatter_seed001_line.py --moves D3 --width 12 --stop 22 \\
        --out /tmp/squatter/seed001_line.jsonl

A quick look: the same with `--width 2 --stop 30 --solve 2`.

Seed 001 (`seed001:faithful=true`) searches a fixed 6 plies and always
gives the same reply, so against it the book side only has to find a line
of its own moves: a single-agent search.  From the position after
`--moves`, a beam search: every move of the book side (`--side`; one per
symmetry class), then seed 001's reply; the positions reached are ranked by
the `Territory` evaluator from the book side's view and the best `--width`
kept for the next move.  Once the positions reached have `--stop` or fewer
free cells, `SquatterSolver` tests each (best first, at most `--solves`)
with one null-window test of at most `--solve` seconds: a proven win for
the book side is printed and ends the run.  One JSON line per test: the
line, the evaluator's score, the free cells, the outcome (1 a win, 0 not a
win, null when the test ran out of time) and its CPU seconds
(`time.process_time()`).

Seed 001's own search takes seconds to a minute of CPU a move, so its
replies here come from `reply`, which returns the move seed 001 plays with
far less work: the fail-hard root of seed 001 plays the first move in
board order whose 6-ply minimax value is the best, so the same minimax
with a table and move ordering finds the same move.  Check a found line
against the real player before trusting it (the book's test of seed 001
lines, `test_the_book_lines_are_what_seed001_answers`, does).  This is how
the book's White line against seed 001 was found (docs/squatter.md,
Opening book).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import TYPE_CHECKING

from boardgames.budget import Limits
from boardgames.errors import BoardgamesError, SearchStopped
from boardgames.games.squatter.book import canonical
from boardgames.games.squatter.experts import Seed001
from boardgames.games.squatter.geometry import bits
from boardgames.games.squatter.solver import SquatterSolver
from boardgames.games.squatter.territory import Territory
from boardgames.registry import get_game
from boardgames.solution import LOWER, UPPER

if TYPE_CHECKING:
    from boardgames.games.squatter.rules import SquatterState

#: Seed 001's evaluator with the program's weights (side stones 0).
EVALUATE = Seed001(perspective=None, side=0.0).terms
INF = math.inf


def reply(state: SquatterState, depth: int = 6) -> int:
    """The move `seed001:faithful=true` (depth `depth`) plays in `state`."""
    state = state.copy()
    me = state.to_move
    bounds: dict[tuple[int, int], tuple[float, float]] = {}
    best: dict[int, int] = {}

    def search(plies: int, alpha: float, beta: float) -> float:
        """Fail-soft alpha-beta for `me`, with bounds per (position, plies)."""
        if plies <= 0 or not state.free:
            return EVALUATE(state, me)
        key = (state.packed, plies)
        low, high = bounds.get(key, (-INF, INF))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        first_alpha, first_beta = max(alpha, low), min(beta, high)
        alpha, beta = first_alpha, first_beta
        moves = bits(state.free)
        known = best.get(state.packed)
        if known in moves:
            moves.remove(known)
            moves.insert(0, known)
        mine = state.to_move == me
        value, choice = (-INF if mine else INF), moves[0]
        for move in moves:
            state.make(move)
            child = search(plies - 1, alpha, beta)
            state.undo()
            if mine and child > value:
                value, choice = child, move
                alpha = max(alpha, value)
            elif not mine and child < value:
                value, choice = child, move
                beta = min(beta, value)
            if alpha >= beta:
                break
        best[state.packed] = choice
        if value <= first_alpha:
            bounds[key] = (low, min(high, value))
        elif value >= first_beta:
            bounds[key] = (max(low, value), high)
        else:
            bounds[key] = (value, value)
        return value

    for plies in range(1, depth + 1):  # deepening orders the moves
        top = search(plies, -INF, INF)
    below = math.nextafter(top, -INF)
    for move in bits(state.free):  # the first move in board order worth `top`
        state.make(move)
        worth = search(depth - 1, below, top)
        state.undo()
        if worth >= top:
            return move
    raise AssertionError("no move reaches the root's value")


def won(solver: SquatterSolver, state: SquatterState, side: int, seconds: float) -> int | None:
    """1 when `state` is a proven win for `side`, 0 when not, None when out of time."""
    try:
        if state.to_move == side:
            return int(solver.solve(state, Limits(time=seconds), window=(0.0, 1.0)).bound == LOWER)
        result = solver.solve(state, Limits(time=seconds), window=(-1.0, 0.0))
        return int(result.bound == UPPER)
    except SearchStopped:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=6, help="board size (default 6)")
    parser.add_argument("--moves", default="", help="moves from the start")
    parser.add_argument("--side", type=int, choices=(0, 1), default=0,
                        help="the book side: 0 White (default), 1 Black")
    parser.add_argument("--width", type=int, default=12,
                        help="positions kept after each move (default 12)")
    parser.add_argument("--stop", type=int, default=22,
                        help="free cells at which to test (default 22)")
    parser.add_argument("--solve", type=float, default=30.0,
                        help="seconds for each test (default 30)")
    parser.add_argument("--solves", type=int, default=200,
                        help="tests at most (default 200)")
    parser.add_argument("--out", required=True, help="append one JSON line a test to this file")
    args = parser.parse_args()

    game = get_game("squatter", size=args.size)
    evaluate = Territory()
    root = game.replay(args.moves.split())
    if root.free and root.to_move != args.side:
        root.make(reply(root))
    beam, start = [root], time.process_time()
    while beam:
        reached: dict[int, tuple[float, SquatterState]] = {}
        for state in beam:
            tried: set[int] = set()
            for move in state.legal_moves():
                child = state.copy()
                child.make(move)
                key, _ = canonical(child)
                if key in tried or not child.free:
                    continue
                tried.add(key)
                child.make(reply(child))
                key, _ = canonical(child)
                if key not in reached:
                    score = evaluate(child) if child.free else 0.0
                    reached[key] = (score if child.to_move == args.side else -score, child)
        ranked = sorted(reached.values(), key=lambda pair: -pair[0])
        if not ranked:
            break
        free = ranked[0][1].free.bit_count()
        print(f"{len(beam)} positions -> {len(ranked)}, {free} free cells, "
              f"{time.process_time() - start:.0f} s of CPU", flush=True)
        if free > args.stop:
            beam = [state for _, state in ranked[: args.width]]
            continue
        solver = SquatterSolver(game)
        with open(args.out, "a") as out:
            for score, state in ranked[: args.solves]:
                begun = time.process_time()
                found = won(solver, state, args.side, args.solve)
                line = " ".join(game.format_move(move) for move in state.history)
                record = {"line": line, "score": score, "free": state.free.bit_count(),
                          "outcome": found, "cpu": round(time.process_time() - begun, 1)}
                out.write(json.dumps(record) + "\n")
                out.flush()
                if found == 1:
                    print(f"won: {line}", flush=True)
                    return
        print("no proven win", flush=True)
        return


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
