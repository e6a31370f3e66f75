"""Which moves of a Squatter position win when played on against an opponent?

    python tools/squatter_tryout.py --size 6 \\
        --moves "C6 C4 D6 D3 D5 C2 B3 E2 D1" --opponent seed003:time=1 \\
        --out /tmp/squatter/tryout.jsonl

A quick look: the same with `--only "E1 F2" --opponent seed003:time=0.05
--me default:time=0.05,book=false --stop 20 --solve 3`.

From the position after `--moves` (the book side to move), each legal move
(one per symmetry class) is played, then the game is played on between
`--opponent` and `--me` (the default without its book unless told) down to
`--stop` free cells, and `SquatterSolver` solves the outcome of the
position reached (at most `--solve` seconds).  One JSON line per move: the
line played, the outcome for the book side (1 win, 0 draw, -1 loss, null
when the solve ran out of time), the CPU seconds of the play and of the
solve (`time.process_time()`), the load average.  With `--win-only` the
solve is one null-window test (is it a win for the book side? 1, else 0:
a draw or a loss), and `--shared` keeps one solver table for every move.  This is how the book's
lines were found (docs/squatter.md, Opening book): a move whose play-on
ends in a proven win is a candidate; the solve of the end position is its
proof against those replies only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TYPE_CHECKING

from boardgames.ai import make_player
from boardgames.budget import Limits
from boardgames.errors import BoardgamesError, SearchStopped
from boardgames.games.squatter.book import canonical
from boardgames.games.squatter.solver import SquatterSolver
from boardgames.registry import get_game
from boardgames.solution import LOWER, UPPER

if TYPE_CHECKING:
    from boardgames.games.squatter.rules import SquatterState
    from boardgames.players import Player


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=6, help="board size (default 6)")
    parser.add_argument("--moves", required=True, help="moves from the start")
    parser.add_argument("--opponent", default="seed003:time=1",
                        help="AI spec of the opponent (default seed003:time=1)")
    parser.add_argument("--me", default="default:time=1,book=false",
                        help="AI spec of the book side (default default:time=1,book=false)")
    parser.add_argument("--stop", type=int, default=22, help="free cells at which to solve")
    parser.add_argument("--solve", type=float, default=60.0, help="seconds for each solve")
    parser.add_argument("--first", default="", help="moves to try first")
    parser.add_argument("--only", default="", help="try only these moves")
    parser.add_argument("--win-only", action="store_true",
                        help="one null-window test: a win for the book side or not (0)")
    parser.add_argument("--shared", action="store_true", help="one solver table for every move")
    parser.add_argument("--out", required=True, help="append one JSON line a move to this file")
    args = parser.parse_args()

    game = get_game("squatter", size=args.size)
    prefix = args.moves.split()
    root = game.replay(prefix)
    side = root.to_move
    moves = root.legal_moves()
    if args.only:
        moves = [game.parse_move(text) for text in args.only.split()]
    first = [game.parse_move(text) for text in args.first.split()]
    moves = first + [m for m in moves if m not in first]
    seen: set[int] = set()
    shared = SquatterSolver(game)
    with open(args.out, "a") as out:
        for move in moves:
            state = game.replay(prefix)
            state.make(move)
            key, _ = canonical(state)
            if key in seen:
                continue
            seen.add(key)
            line = [*prefix, game.format_move(move)]
            opponent, me = make_player(game, args.opponent), make_player(game, args.me)
            start = time.process_time()
            play_on(state, side, me, opponent, args.stop, line)
            played = time.process_time() - start
            solver = shared if args.shared else SquatterSolver(game)
            try:
                found: int | None = outcome(solver, state, side, args.win_only, args.solve)
            except SearchStopped:
                found = None
            record = {
                "move": game.format_move(move),
                "line": " ".join(line),
                **play_on_record(state, found, start, played),
                "test": "win-only" if args.win_only else "outcome",
            }
            out.write(json.dumps(record) + "\n")
            out.flush()


def play_on(
    state: SquatterState, side: int, me: Player, opponent: Player, stop: int, line: list[str]
) -> None:
    """Play `me` (for `side`) against `opponent` to `stop` free cells, the moves on `line`."""
    game = state.game
    while state.free and state.free.bit_count() > stop:
        reply = (me if state.to_move == side else opponent).choose(state)
        line.append(game.format_move(reply))
        state.make(reply)


def play_on_record(
    state: SquatterState, found: int | None, start: float, played: float
) -> dict[str, object]:
    """A play-on's end for its JSON line: free cells, outcome, CPU seconds
    (`time.process_time()` since `start`) of play and solve, load average."""
    return {
        "free": state.free.bit_count(),
        "outcome": found,
        "play_cpu": round(played, 1),
        "solve_cpu": round(time.process_time() - start - played, 1),
        "load": round(os.getloadavg()[0], 1),
    }


def outcome(
    solver: SquatterSolver, state: SquatterState, side: int, win_only: bool, seconds: float
) -> int:
    """1, 0 or -1 for `side`; with `win_only` 1 or 0 (not a win) from one
    null-window test."""
    sign = 1 if state.to_move == side else -1
    if not win_only:
        return sign * int(solver.solve(state, Limits(time=seconds), outcome=True).value)
    window = (0.0, 1.0) if sign > 0 else (-1.0, 0.0)
    result = solver.solve(state, Limits(time=seconds), window=window)
    won = result.bound == LOWER if sign > 0 else result.bound == UPPER
    return 1 if won else 0


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
