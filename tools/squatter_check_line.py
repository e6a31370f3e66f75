"""Is a Squatter book line won for the book side, and from which move on?

    python tools/squatter_check_line.py --size 6 --colour 1 \\
        --line "A2 C4 A3 D3 B3 D5 E4 C2 F5 E5 F2 E2 F4 D1" --from 12

A quick look: the same with `--from 14 --time 5`.

After each of the book side's moves (`--colour`, 0 White, 1 Black) from
move `--from` on (moves counted from 1), `SquatterSolver` solves the
outcome of the position (the opponent to move) with at most `--time`
seconds; a proven win for the book side means the opponent has no move
that escapes.  One line per position: the move number, the free cells,
the outcome for the book side (win, draw, loss, open), nodes and CPU
seconds (`time.process_time()`).  A line goes into the book only when the
position after its last move is a proven win (book.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from boardgames.budget import Limits
from boardgames.errors import BoardgamesError, SearchStopped
from boardgames.games.squatter.solver import SquatterSolver
from boardgames.registry import get_game

NAMES = {1: "win", 0: "draw", -1: "loss"}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=6, help="board size (default 6)")
    parser.add_argument("--colour", type=int, choices=(0, 1), required=True,
                        help="the book side: 0 White, 1 Black")
    parser.add_argument("--line", required=True, help="the line's moves from the start")
    parser.add_argument("--from", dest="start", type=int, default=1,
                        help="first move number to check, counted from 1 (default 1)")
    parser.add_argument("--time", type=float, default=120.0,
                        help="seconds for each solve (default 120)")
    args = parser.parse_args()

    game = get_game("squatter", size=args.size)
    state = game.new_state()
    for number, text in enumerate(args.line.split(), 1):
        mover = state.to_move
        state.play(text)
        if mover != args.colour or number < args.start:
            continue
        solver = SquatterSolver(game)
        start = time.process_time()
        try:
            value = solver.solve(state, Limits(time=args.time), outcome=True).value
            name = NAMES[-int(value)]  # the solve is from the opponent's side
        except SearchStopped:
            name = "open"
        print(f"after move {number} ({text}): {state.free.bit_count()} free, {name} for the "
              f"book side ({solver.nodes} nodes, {time.process_time() - start:.1f} s; "
              f"load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
