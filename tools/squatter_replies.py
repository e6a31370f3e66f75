"""Does a Squatter move win against every reply?

    python tools/squatter_replies.py --size 6 \\
        --moves "A2 C4 A3 D3 B3 D5 E4 C2 F5 E5" --first F2 --per 60 --total 1800

A quick look (a line proven won for Black): `python tools/squatter_replies.py
--moves "A2 C4 A3 D3 B3 D5 E4 F5 A4 C2 C6 E2 F4 D1" --per 5 --total 60`.

After `--moves` (the move under test last), every reply of the side to move
is played and the position after it solved for its outcome
(`SquatterSolver`, one table for all of them, so later solves reuse
earlier work), in passes: each unsolved reply gets `--per` seconds, then
twice that in the next pass, until all are solved or `--total` seconds of
CPU are spent.  Each line gives the reply, the outcome for the side that
played the move under test (win / draw / loss), the nodes and the CPU
seconds (`time.process_time()`) of that solve.  The move under test wins
when every reply is a win for it; one draw or loss refutes it.  With
`--stop-on-refutation` the run ends at the first reply that refutes it.
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
    parser.add_argument("--moves", required=True, help="moves from the start, the tested one last")
    parser.add_argument("--first", default="", help="replies to solve first (space separated)")
    parser.add_argument("--per", type=float, default=60.0, help="seconds a reply in the first pass")
    parser.add_argument("--total", type=float, default=1800.0, help="CPU seconds in all")
    parser.add_argument("--stop-on-refutation", action="store_true",
                        help="end at the first reply that refutes the move")
    args = parser.parse_args()

    game = get_game("squatter", size=args.size)
    state = game.replay(args.moves)
    tester = 1 - state.to_move
    replies = state.legal_moves()
    first = [game.parse_move(text) for text in args.first.split()]
    replies = first + [m for m in replies if m not in first]
    print(f"after {args.moves}: {bin(state.free).count('1')} free cells, "
          f"{len(replies)} replies; load {os.getloadavg()[0]:.1f}", flush=True)

    solver = SquatterSolver(game)
    start = time.process_time()
    outcomes: dict[int, int] = {}
    per = args.per
    total_nodes = 0
    while len(outcomes) < len(replies):
        for reply in replies:
            if reply in outcomes:
                continue
            left = args.total - (time.process_time() - start)
            if left <= 0:
                break
            state.make(reply)
            t0 = time.process_time()
            try:
                value = solver.solve(state, Limits(time=min(per, left)), outcome=True).value
            except SearchStopped:
                value = None
            finally:
                state.undo()
            cpu, nodes = time.process_time() - t0, solver.nodes  # this solve's
            total_nodes += nodes
            text = game.format_move(reply)
            if value is None:
                print(f"{text}: open after {nodes} nodes, {cpu:.1f} s", flush=True)
                continue
            outcomes[reply] = int(value)  # the tester is to move after the reply
            print(f"{text}: {NAMES[outcomes[reply]]} for the tester "
                  f"({nodes} nodes, {cpu:.1f} s; load {os.getloadavg()[0]:.1f})", flush=True)
            if outcomes[reply] < 1 and args.stop_on_refutation:
                break
        else:
            per *= 2
            continue
        break
    wins = sum(1 for v in outcomes.values() if v == 1)
    refuted = [game.format_move(m) for m, v in outcomes.items() if v < 1]
    print(f"{'colour ' + str(tester)}: {wins} of {len(replies)} replies proven won, "
          f"refuted by {refuted or 'none'}, {len(replies) - len(outcomes)} open; "
          f"{total_nodes} nodes, {time.process_time() - start:.1f} s of CPU", flush=True)


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
